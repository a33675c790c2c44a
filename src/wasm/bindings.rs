//! JS API for `crate::service::HostSettings`: the worker's `EDGEATTEST_*` bindings read by the
//! core (`readServiceBindings`), as the service component reads its environment, so the two
//! hosts cannot come to mean different things by one variable. TS type: types/bindings.d.ts.

use alloc::vec::Vec;

use js_sys::Reflect;
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::convert::json_to_js;
use super::error::{invalid_argument, to_js};
use crate::service::{CryptoChoice, HostSettings, RimDocument, Setting};

#[wasm_bindgen(typescript_custom_section)]
const TS_BINDINGS: &str = include_str!("types/bindings.d.ts");

/// Reads a host's `EDGEATTEST_*` variables (a worker's `env`; values that are not strings,
/// such as KV namespaces, are skipped) into the settings they give (`ServiceBindings`): the
/// `AttestationService` options, the crypto backend, the clock, the fetch settings and the
/// RIMs to add. Each variable is checked as the service component checks it.
///
/// @throws EdgeAttestError `ERR_NO_SIGNING_KEY` when no signing key is set, `ERR_CONFIG`
/// for a variable that does not read (its name in the message), `ERR_INVALID_ARGUMENT` for an
/// `env` that is not an object.
///
/// @example
/// ```ts
/// declare const env: Record<string, unknown>; // the worker's bindings
/// const { options, crypto } = readServiceBindings(env);
/// const service = new AttestationService(options);
/// ```
#[wasm_bindgen(js_name = readServiceBindings, unchecked_return_type = "ServiceBindings")]
pub fn read_service_bindings(
    #[wasm_bindgen(unchecked_param_type = "Record<string, unknown>")] env: JsValue,
) -> Result<JsValue, JsValue> {
    if !env.is_object() {
        return Err(invalid_argument("env", "an object of bindings"));
    }
    // Only string values are variables (a worker's env also holds KV namespaces, ASSETS).
    let get = |name: &str| {
        Reflect::get(&env, &JsValue::from_str(name))
            .ok()
            .and_then(|value| value.as_string())
    };
    let settings = HostSettings::read(get).map_err(|error| to_js(&error))?;
    json_to_js(&BindingsJs::of(&settings))
}

/// `ServiceBindings`: absent members are the defaults, `null` a source switched off.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BindingsJs<'a> {
    options: OptionsJs<'a>,
    crypto: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    fixed_time: Option<u64>,
    ocsp_timeout_ms: u64,
    fetch_cache: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    bundled_rims: Option<bool>,
    rim_documents: Vec<RimDocumentJs<'a>>,
    test_pki: bool,
}

/// `AttestationServiceOptions` as the bindings set them.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OptionsJs<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    signing_key: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    certificate: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    retired_keys: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    issuer: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    require_fwid: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trust_anchors: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rim_trust_anchors: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rim_service_url: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ocsp_url: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    policy: Option<&'a str>,
}

#[derive(Serialize)]
struct RimDocumentJs<'a> {
    name: &'a str,
    xml: &'a str,
}

/// Absent (`None`): the default; `Some(None)`: `null`, off.
fn setting(setting: &Setting) -> Option<Option<&str>> {
    match setting {
        Setting::Default => None,
        Setting::Off => Some(None),
        Setting::Url(url) => Some(Some(url)),
    }
}

impl<'a> BindingsJs<'a> {
    fn of(settings: &'a HostSettings) -> Self {
        let o = &settings.options;
        Self {
            options: OptionsJs {
                signing_key: o.signing_key.as_deref(),
                certificate: o.certificate.as_deref(),
                retired_keys: o.retired_keys.as_deref(),
                issuer: o.issuer.as_deref(),
                require_fwid: o.require_fwid,
                trust_anchors: o.trust_anchors.as_deref(),
                rim_trust_anchors: o.rim_trust_anchors.as_deref(),
                rim_service_url: setting(&o.rim_service_url),
                ocsp_url: setting(&o.ocsp_url),
                policy: o.policy.as_deref(),
            },
            crypto: match settings.crypto {
                CryptoChoice::WebCrypto => "webcrypto",
                CryptoChoice::Software => "software",
            },
            fixed_time: settings.fixed_time,
            ocsp_timeout_ms: settings.ocsp_timeout_ms,
            fetch_cache: settings.fetch_cache,
            bundled_rims: settings.bundled_rims,
            rim_documents: settings
                .rim_documents
                .iter()
                .map(|RimDocument { name, xml }| RimDocumentJs { name, xml })
                .collect(),
            test_pki: settings.test_pki,
        }
    }
}
