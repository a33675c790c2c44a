//! JS API for `crate::service::HostSettings`: the worker's `EDGEATTEST_*` bindings read by the
//! core (`readServiceBindings`), as the service component reads its environment, so the two
//! hosts cannot come to mean different things by one variable. `EDGEATTEST_TEST_PKI=on` is
//! applied here too, by the core's rule (`HostSettings::add_test_pki`), to the collateral the
//! host brings. TS type: types/bindings.d.ts.

use alloc::string::String;
use alloc::vec::Vec;

use js_sys::{Map, Reflect, Uint8Array};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::convert::{from_js, json_to_js};
use super::error::{invalid_argument, to_js};
use crate::service::{CryptoChoice, HostSettings, RimDocument, Setting, TestPki};

#[wasm_bindgen(typescript_custom_section)]
const TS_BINDINGS: &str = include_str!("types/bindings.d.ts");

/// Reads a host's `EDGEATTEST_*` variables (a worker's `env`; values that are not strings,
/// such as KV namespaces, are skipped) into the settings they give (`ServiceBindings`): the
/// `AttestationService` options, the crypto backend, the clock, the fetch settings and the
/// RIMs to add. Each variable is checked as the service component checks it.
///
/// `testPki` is the edgeattest TEST PKI's collateral the host holds (development only). With
/// `EDGEATTEST_TEST_PKI=on` the core adds it as on every host: its roots after the configured
/// anchors, its RIMs as `configured-roots/<id>.xml` before the configured documents, and its
/// OCSP answers in `testPkiAnswers`, which the host gives ahead of its cache. Off, or without
/// collateral, nothing is added.
///
/// @throws EdgeAttestError `ERR_NO_SIGNING_KEY` when no signing key is set, `ERR_CONFIG`
/// for a variable that does not read (its name in the message) or test PKI OCSP answers that
/// do not, `ERR_INVALID_ARGUMENT` for an `env` that is not an object or a `testPki` that is
/// not collateral.
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
    #[wasm_bindgen(js_name = testPki, unchecked_optional_param_type = "TestPkiCollateral")]
    test_pki: JsValue,
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
    let mut settings = HostSettings::read(get).map_err(|error| to_js(&error))?;
    if !settings.test_pki || test_pki.is_undefined() || test_pki.is_null() {
        return json_to_js(&BindingsJs::of(&settings));
    }
    let held: TestPkiJs = from_js(&test_pki, "testPki")?;
    let rims: Vec<(&str, &str)> = held.rims.iter().map(|r| (&*r.id, &*r.xml)).collect();
    let pki = TestPki {
        label: &held.label,
        device_roots: &held.device_roots,
        rim_roots: &held.rim_roots,
        rims: &rims,
        ocsp_answers: &held.ocsp_answers,
    };
    let answers = pki.answers().map_err(|error| to_js(&error))?;
    settings.add_test_pki(&pki);
    let bindings = json_to_js(&BindingsJs::of(&settings))?;
    let by_key = Map::new();
    for (key, der) in answers.iter() {
        by_key.set(&JsValue::from_str(key), &Uint8Array::from(der));
    }
    // Setting a member of a plain object that JSON.parse made cannot fail.
    let _ = Reflect::set(&bindings, &"testPkiAnswers".into(), &by_key);
    Ok(bindings)
}

/// `TestPkiCollateral`: the test PKI's collateral as a host holds it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TestPkiJs {
    label: String,
    device_roots: String,
    rim_roots: String,
    rims: Vec<TestRimJs>,
    ocsp_answers: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TestRimJs {
    id: String,
    xml: String,
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
