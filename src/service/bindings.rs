//! The host variables that configure a service: the edge worker's bindings and the service
//! component's environment are read here, once, so that one set of `EDGEATTEST_*` variables
//! means the same on every host. An empty value is unset (as Workers bindings and shells give
//! them); a value that means nothing is a configuration error with its code, never ignored.
//!
//! | variable | meaning |
//! |---|---|
//! | `EDGEATTEST_SIGNING_KEY` | the signing key, PKCS#8 PEM or a private JWK (required) |
//! | `EDGEATTEST_CRYPTO` | where ECDSA runs: `webcrypto` (default) or `software` |
//! | `EDGEATTEST_FIXED_TIME` | replays only: answer as at this RFC 3339 time or Unix second |
//! | `EDGEATTEST_SIGNING_CERTIFICATE` | the key's PEM chain, published as `x5c` |
//! | `EDGEATTEST_RETIRED_KEYS` | retired keys still published (a JWKS) |
//! | `EDGEATTEST_ISSUER` | the tokens' `iss` (default: each request's origin) |
//! | `EDGEATTEST_REQUIRE_FWID` | `on`: Hopper evidence without an FWID fails with 4016 |
//! | `EDGEATTEST_POLICY` | a relying-party policy (NVIDIA's JSON format) every device must meet |
//! | `EDGEATTEST_REVOCATION_POLICY` | the revocation policy, JSON of `RevocationPolicy` (default strict) |
//! | `EDGEATTEST_TRUST_ANCHORS`, `EDGEATTEST_RIM_TRUST_ANCHORS` | more roots (PEM) |
//! | `EDGEATTEST_RIM_SERVICE_URL` | the RIM service (a base without `/rim/` gets `v1/rim/`); `off` |
//! | `EDGEATTEST_OCSP_URL` | the OCSP responder; `off`: revocation not checked (and said so) |
//! | `EDGEATTEST_OCSP_TIMEOUT_MS` | time for one OCSP request, 1–30000 (default 5000) |
//! | `EDGEATTEST_RIM_MIRRORS`, `EDGEATTEST_OCSP_MIRRORS` | sources tried after the RIM service / the responder, in order (URLs separated by spaces or commas, at most 4) |
//! | `EDGEATTEST_RIM_FORMATS` | `xml` (default: NVIDIA publishes no GPU CoRIM yet) or `corim-preferred`: what the fetch step asks the RIM service for |
//! | `EDGEATTEST_OCSP_STALE_IF_ERROR` | seconds past its `nextUpdate` a kept OCSP answer may serve when every responder fails (default 0: never; at most 604800) |
//! | `EDGEATTEST_FETCH_CACHE` | `off`: every attestation asks the sources again |
//! | `EDGEATTEST_BUNDLED_RIMS` | `off`: not the RIMs the host bundles (the worker's: on by default; the component bundles none) |
//! | `EDGEATTEST_RIM_DOCUMENTS` | more RIMs, JSON `[{"name", "xml"}]` |
//! | `EDGEATTEST_TEST_PKI` | development only, `on`: also the edgeattest TEST PKI (test_pki.rs) |

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::Deserialize;

use super::{ServiceOptions, Setting};
use crate::error_code::ErrorCode;
use crate::time::{parse_rfc3339, UnixTime};

// `HostSettings` as hosts read them (serde).
mod wire;

/// Time allowed for one OCSP request when `EDGEATTEST_OCSP_TIMEOUT_MS` is unset.
pub const DEFAULT_OCSP_TIMEOUT_MS: u64 = 5_000;
/// The longest `EDGEATTEST_OCSP_TIMEOUT_MS` accepted.
pub const MAX_OCSP_TIMEOUT_MS: u64 = 30_000;

/// Where the host runs ECDSA (`EDGEATTEST_CRYPTO`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CryptoChoice {
    /// The host's WebCrypto, the key imported non-extractable (hosts without it: the core).
    WebCrypto,
    /// The core's software P-384.
    Software,
}

/// One RIM of `EDGEATTEST_RIM_DOCUMENTS`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RimDocument {
    /// The name it is stored and reported under.
    pub name: String,
    /// The RIM's XML text.
    pub xml: String,
}

/// What a host's `EDGEATTEST_*` variables say (`readServiceBindings` in JS; the table is in
/// the README's deployment section): the service's options and the host's own settings. The
/// service component reads its environment with the same core function.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(as = "wire::BindingsJs<'static>", rename = "ServiceBindings")
)]
pub struct HostSettings {
    /// The service's options, the signing key among them ([`ServiceOptions::build`] checks them).
    pub options: ServiceOptions,
    /// `EDGEATTEST_CRYPTO`.
    pub crypto: CryptoChoice,
    /// `EDGEATTEST_FIXED_TIME`.
    pub fixed_time: Option<UnixTime>,
    /// `EDGEATTEST_OCSP_TIMEOUT_MS`.
    pub ocsp_timeout_ms: u64,
    /// `EDGEATTEST_FETCH_CACHE`.
    pub fetch_cache: bool,
    /// `EDGEATTEST_BUNDLED_RIMS`, when set: whether to add the RIMs the host bundles (the
    /// worker bundles the fixtures' and adds them unless `off`; a host that bundles none
    /// refuses `on`).
    pub bundled_rims: Option<bool>,
    /// `EDGEATTEST_RIM_DOCUMENTS`.
    pub rim_documents: Vec<RimDocument>,
    /// `EDGEATTEST_TEST_PKI` (development only; unset: off): whether the host adds the
    /// edgeattest TEST PKI's collateral ([`HostSettings::add_test_pki`]).
    pub test_pki: bool,
}

/// Why the variables configure no service: `ERR_NO_SIGNING_KEY` or `ERR_CONFIG`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindingsError {
    code: &'static str,
    message: String,
}

impl BindingsError {
    fn config(message: String) -> Self {
        Self {
            code: "ERR_CONFIG",
            message,
        }
    }
}

impl fmt::Display for BindingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl core::error::Error for BindingsError {}

impl ErrorCode for BindingsError {
    fn code(&self) -> &'static str {
        self.code
    }
}

impl HostSettings {
    /// Reads the variables `get` gives, in the order the worker always checked them (the
    /// signing key first).
    pub fn read(get: impl Fn(&str) -> Option<String>) -> Result<Self, BindingsError> {
        let get = |name: &str| get(name).filter(|value| !value.is_empty());
        let Some(signing_key) = get("EDGEATTEST_SIGNING_KEY") else {
            return Err(BindingsError {
                code: "ERR_NO_SIGNING_KEY",
                message: "EDGEATTEST_SIGNING_KEY is not configured".into(),
            });
        };
        let crypto = match get("EDGEATTEST_CRYPTO").as_deref() {
            None | Some("webcrypto") => CryptoChoice::WebCrypto,
            Some("software") => CryptoChoice::Software,
            Some(other) => {
                return Err(BindingsError::config(format!(
                    "EDGEATTEST_CRYPTO must be one of webcrypto, software, not {other}"
                )))
            }
        };
        let fixed_time = get("EDGEATTEST_FIXED_TIME")
            .map(|text| fixed_time(&text))
            .transpose()?;
        let ocsp_timeout_ms = get("EDGEATTEST_OCSP_TIMEOUT_MS")
            .map_or(Ok(DEFAULT_OCSP_TIMEOUT_MS), |text| timeout_ms(&text))?;
        // An on/off switch: `None` when unset.
        let switch = |name: &str| match get(name).as_deref() {
            None => Ok(None),
            Some("on") => Ok(Some(true)),
            Some("off") => Ok(Some(false)),
            Some(value) => Err(BindingsError::config(format!(
                "{name} must be on or off, not {value}"
            ))),
        };
        let source = |name: &str| match get(name) {
            None => Setting::Default,
            Some(value) if value == "off" => Setting::Off,
            Some(url) => Setting::Url(url),
        };
        let options = ServiceOptions {
            signing_key: Some(signing_key),
            certificate: get("EDGEATTEST_SIGNING_CERTIFICATE"),
            retired_keys: get("EDGEATTEST_RETIRED_KEYS"),
            issuer: get("EDGEATTEST_ISSUER"),
            require_fwid: Some(switch("EDGEATTEST_REQUIRE_FWID")?.unwrap_or(false)),
            trust_anchors: get("EDGEATTEST_TRUST_ANCHORS"),
            rim_trust_anchors: get("EDGEATTEST_RIM_TRUST_ANCHORS"),
            rim_service_url: rim_service_url(source("EDGEATTEST_RIM_SERVICE_URL")),
            ocsp_url: source("EDGEATTEST_OCSP_URL"),
            rim_mirrors: get("EDGEATTEST_RIM_MIRRORS").map(|text| {
                url_list(&text)
                    .map(|url| match rim_service_url(Setting::Url(url.into())) {
                        Setting::Url(url) => url,
                        _ => String::new(),
                    })
                    .collect()
            }),
            ocsp_mirrors: get("EDGEATTEST_OCSP_MIRRORS")
                .map(|text| url_list(&text).map(String::from).collect()),
            rim_formats: get("EDGEATTEST_RIM_FORMATS")
                .map(|text| rim_formats(&text))
                .transpose()?,
            ocsp_stale_if_error: get("EDGEATTEST_OCSP_STALE_IF_ERROR")
                .map(|text| stale_if_error(&text))
                .transpose()?,
            policy: get("EDGEATTEST_POLICY"),
            revocation_policy: get("EDGEATTEST_REVOCATION_POLICY"),
            fetch_cache: switch("EDGEATTEST_FETCH_CACHE")?,
            ..ServiceOptions::default()
        };
        let rim_documents = match get("EDGEATTEST_RIM_DOCUMENTS") {
            None => Vec::new(),
            Some(text) => crate::json::from_slice(text.as_bytes()).map_err(|error| {
                BindingsError::config(format!("EDGEATTEST_RIM_DOCUMENTS: {error}"))
            })?,
        };
        Ok(Self {
            options,
            crypto,
            fixed_time,
            ocsp_timeout_ms,
            fetch_cache: switch("EDGEATTEST_FETCH_CACHE")?.unwrap_or(true),
            bundled_rims: switch("EDGEATTEST_BUNDLED_RIMS")?,
            rim_documents,
            test_pki: switch("EDGEATTEST_TEST_PKI")?.unwrap_or(false),
        })
    }
}

/// Unix seconds or an RFC 3339 time, within the calendar's range.
fn fixed_time(text: &str) -> Result<UnixTime, BindingsError> {
    let seconds = if text.bytes().all(|b| b.is_ascii_digit()) {
        text.parse::<u64>().ok()
    } else {
        parse_rfc3339(text).ok()
    };
    seconds.and_then(UnixTime::from_secs).ok_or_else(|| {
        BindingsError::config(format!(
            "EDGEATTEST_FIXED_TIME is not an RFC 3339 time or Unix seconds: {text}"
        ))
    })
}

fn timeout_ms(text: &str) -> Result<u64, BindingsError> {
    match text.parse::<u64>() {
        Ok(ms)
            if text.bytes().all(|b| b.is_ascii_digit())
                && (1..=MAX_OCSP_TIMEOUT_MS).contains(&ms) =>
        {
            Ok(ms)
        }
        _ => Err(BindingsError::config(format!(
            "EDGEATTEST_OCSP_TIMEOUT_MS must be milliseconds from 1 to {MAX_OCSP_TIMEOUT_MS}, not {text}"
        ))),
    }
}

/// The URLs of a list variable: separated by spaces or commas.
fn url_list(text: &str) -> impl Iterator<Item = &str> {
    text.split([' ', ',', '\n', '\t'])
        .filter(|url| !url.is_empty())
}

/// `EDGEATTEST_OCSP_STALE_IF_ERROR`: whole seconds (the service checks the bound).
/// `EDGEATTEST_RIM_FORMATS`: `xml` (the default) or `corim-preferred`.
fn rim_formats(text: &str) -> Result<crate::rim::RimFormats, BindingsError> {
    match text {
        "xml" => Ok(crate::rim::RimFormats::Xml),
        "corim-preferred" => Ok(crate::rim::RimFormats::CorimPreferred),
        _ => Err(BindingsError::config(format!(
            "EDGEATTEST_RIM_FORMATS must be xml or corim-preferred, not {text}"
        ))),
    }
}

fn stale_if_error(text: &str) -> Result<u64, BindingsError> {
    text.parse::<u64>()
        .ok()
        .filter(|_| text.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| {
            BindingsError::config(format!(
                "EDGEATTEST_OCSP_STALE_IF_ERROR must be whole seconds (0: off), not {text}"
            ))
        })
}

/// A RIM service base without `/rim/` (e.g. `https://rim.example/`) gets `v1/rim/`, NVIDIA's
/// path; one ending in `/rim` gets its slash.
fn rim_service_url(setting: Setting) -> Setting {
    match setting {
        Setting::Url(url) => {
            let base = url.trim_end_matches('/');
            Setting::Url(if base.ends_with("/rim") {
                format!("{base}/")
            } else {
                format!("{base}/v1/rim/")
            })
        }
        other => other,
    }
}
