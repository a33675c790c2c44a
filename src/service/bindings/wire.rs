//! [`HostSettings`] as hosts read them (`ServiceBindings` in JS): the service's options as
//! `AttestationServiceOptions` (absent: the default; `null`: a source switched off), the
//! crypto backend by name, and the host's own settings.

use alloc::vec::Vec;

use serde::{Serialize, Serializer};

use super::super::Setting;
use super::{CryptoChoice, HostSettings, RimDocument};

impl Serialize for HostSettings {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        BindingsJs::of(self).serialize(serializer)
    }
}

/// `ServiceBindings`: absent members are the defaults, `null` a source switched off.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub(super) struct BindingsJs<'a> {
    /// The AttestationService options, signingKey among them; null URLs are sources switched off.
    #[cfg_attr(feature = "ts", ts(type = "AttestationServiceOptions"))]
    options: OptionsJs<'a>,
    /// EDGEATTEST_CRYPTO: where ECDSA runs (default webcrypto).
    #[cfg_attr(feature = "ts", ts(type = "'webcrypto' | 'software'"))]
    crypto: &'static str,
    /// EDGEATTEST_FIXED_TIME, Unix seconds: replays only.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(as = "Option<u64>", optional))]
    fixed_time: Option<crate::time::UnixTime>,
    /// EDGEATTEST_OCSP_TIMEOUT_MS (default 5000, at most 30000).
    ocsp_timeout_ms: u64,
    /// EDGEATTEST_FETCH_CACHE (default on).
    fetch_cache: bool,
    /// EDGEATTEST_BUNDLED_RIMS when set: whether to add the RIMs the host bundles (the worker: yes unless false).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    bundled_rims: Option<bool>,
    /// EDGEATTEST_RIM_DOCUMENTS: more RIMs to add.
    #[cfg_attr(feature = "ts", ts(inline))]
    rim_documents: Vec<RimDocumentJs<'a>>,
    /// EDGEATTEST_TEST_PKI (development only, default off): whether to add the edgeattest TEST PKI.
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
    rim_mirrors: Option<&'a [alloc::string::String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ocsp_mirrors: Option<&'a [alloc::string::String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rim_formats: Option<crate::rim::RimFormats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ocsp_stale_if_error: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fetch_cache: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    policy: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    revocation_policy: Option<&'a str>,
}

#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
                rim_mirrors: o.rim_mirrors.as_deref(),
                ocsp_mirrors: o.ocsp_mirrors.as_deref(),
                rim_formats: o.rim_formats,
                ocsp_stale_if_error: o.ocsp_stale_if_error,
                fetch_cache: o.fetch_cache,
                policy: o.policy.as_deref(),
                revocation_policy: o.revocation_policy.as_deref(),
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
