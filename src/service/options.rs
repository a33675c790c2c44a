//! How a service is made from text a host holds (its keys, trust anchors, settings): the one
//! place that decides key formats, trust-store composition and the range of every setting,
//! for the JS class, the worker and Rust callers alike.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Deserializer};

use super::{KeyRing, Service, ServiceConfig};
use crate::chain::{ChainError, TrustStore, NVIDIA_DEVICE_IDENTITY_CA_PEM, NVIDIA_RIM_ROOT_CA_PEM};
use crate::crypto::{KeyError, PublicKey, SigningKey};
use crate::error_code::ErrorCode;
use crate::evidence::FwidPolicy;
use crate::policy::{Policy, PolicyError};
use crate::rim::RimTrust;
use crate::token::{Jwks, TokenError};

/// The shortest token lifetime a service accepts, in seconds.
pub const MIN_TOKEN_LIFETIME: i64 = 60;
/// The longest token lifetime a service accepts, in seconds (a day).
pub const MAX_TOKEN_LIFETIME: i64 = 86_400;

/// A service's configuration as text (the JS `AttestationServiceOptions`): exactly one of the
/// signing key and the public key; everything else optional. The service reads and checks it
/// ([`ServiceOptions::build`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(rename = "AttestationServiceOptions", optional_fields)
)]
pub struct ServiceOptions {
    /// The signing key, held by the service: PKCS#8 PEM or a private JWK (JSON text).
    pub signing_key: Option<String>,
    /// The public half of a signing key the host keeps (a non-extractable WebCrypto key): a
    /// public JWK (JSON text) or SPKI PEM. The service then answers attestation requests only
    /// through `begin()` / `handleRequest()`, and the host signs.
    pub public_key: Option<String>,
    /// The key's `kid`; default: its RFC 7638 thumbprint.
    pub kid: Option<String>,
    /// The key's certificate chain (PEM, leaf first), published in the JWKS as `x5c`.
    pub certificate: Option<String>,
    /// Retired keys still published in the JWKS: a JWKS (JSON text).
    pub retired_keys: Option<String>,
    /// The tokens' `iss`: the service's base URL. Default: the origin of the request being
    /// answered (`ServiceRequest.origin`), which the client chooses through `Host` — set it in
    /// production.
    pub issuer: Option<String>,
    /// Fail devices whose firmware could report an FWID but did not (Hopper firmware from
    /// before FWID reporting) with 4016. Default false: passed as NVIDIA's verifiers do, with
    /// a warning claim naming it.
    pub require_fwid: Option<bool>,
    /// Token lifetime: seconds from `iat` to `exp`, 60 ([`MIN_TOKEN_LIFETIME`]) to 86400
    /// ([`MAX_TOKEN_LIFETIME`]); default 3600 ([`super::DEFAULT_TOKEN_LIFETIME`]).
    pub token_lifetime: Option<i64>,
    /// Extra device root certificates (PEM), trusted besides the NVIDIA device root.
    pub trust_anchors: Option<String>,
    /// Extra RIM root certificates (PEM), trusted besides the NVIDIA RIM root.
    pub rim_trust_anchors: Option<String>,
    /// The RIM service missing RIM documents are fetched from (the exchange's fetch step names
    /// `<url><id>`). Default: NVIDIA's, `https://rim.attestation.nvidia.com/v1/rim/`; `null`
    /// or `"off"`: off (only the documents added with `addRim` / `addRimEnvelope`).
    #[serde(default, deserialize_with = "setting")]
    #[cfg_attr(feature = "ts", ts(optional = nullable, type = "string | null"))]
    pub rim_service_url: Setting,
    /// The OCSP responder asked about device and RIM certificates. Default: NVIDIA's,
    /// `https://ocsp.ndis.nvidia.com/`; `null` or `"off"`: off (revocation not checked; every
    /// token says so in `x-nvidia-attestation-warning`).
    #[serde(default, deserialize_with = "setting")]
    #[cfg_attr(feature = "ts", ts(optional = nullable, type = "string | null"))]
    pub ocsp_url: Setting,
    /// RIM services tried in order after `rimServiceUrl` when it fails (at most 4 `http(s)`
    /// URLs, each a base like `rimServiceUrl`'s), e.g. an edgeattest mirror or dstack's proxy.
    /// Default: none.
    pub rim_mirrors: Option<Vec<String>>,
    /// OCSP responders tried in order after `ocspUrl` when it fails (at most 4), relaying the
    /// same CA's answers. Default: none.
    pub ocsp_mirrors: Option<Vec<String>>,
    /// Which formats the fetch step asks the RIM service for: `"xml"` (the default: NVIDIA
    /// publishes no GPU CoRIM yet) or `"corim-preferred"` (CoRIMs first, the JSON envelope
    /// still accepted).
    #[cfg_attr(feature = "ts", ts(optional, type = r#""xml" | "corim-preferred""#))]
    pub rim_formats: Option<crate::rim::RimFormats>,
    /// Seconds past its `nextUpdate` a kept OCSP answer may still be used when every
    /// responder fails (stale-if-error), at most 604800 (a week). Default 0: never. The risk:
    /// a certificate revoked after the answer was signed passes for that long; every token
    /// that relied on such an answer says so in `x-nvidia-attestation-warning`.
    pub ocsp_stale_if_error: Option<u64>,
    /// Whether the service keeps the OCSP answers and RIM documents it verified for the next
    /// requests, each while it is fresh (`EDGEATTEST_FETCH_CACHE`). Default: true; false:
    /// every attestation asks its sources again.
    pub fetch_cache: Option<bool>,
    /// A relying-party policy every device must meet, in NVIDIA's JSON format (text; see
    /// `appraise`). A device that passed NVIDIA's checks but fails the policy's device rules
    /// fails with 4091 RELYING_PARTY_POLICY_NOT_MET, its error details naming the failed
    /// rules. Default: none, as the real service.
    pub policy: Option<String>,
    /// The revocation policy (JSON text of a `RevocationPolicy`: per component,
    /// `allowUnknown`, `revokedGracePeriod`, `allowHold`), every relaxation a warning of the
    /// device token. Default: strict, as the real service.
    pub revocation_policy: Option<String>,
}

/// A remote source's setting: absent keeps the default (NVIDIA's), `null` or `"off"` turns it
/// off, else an `http(s)` URL.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Setting {
    /// Not given: the default.
    #[default]
    Default,
    /// Turned off (`null` or `"off"`).
    Off,
    /// This URL (checked by [`ServiceOptions::build`]).
    Url(String),
}

fn setting<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Setting, D::Error> {
    Ok(match Option::<String>::deserialize(deserializer)? {
        None => Setting::Off,
        Some(text) if text == "off" => Setting::Off,
        Some(url) => Setting::Url(url),
    })
}

/// Why options could not make a service. Each names the option at fault ([`ErrorCode::field`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OptionsError {
    /// Neither `signingKey` nor `publicKey`, or both.
    KeyCount,
    /// `signingKey` or `publicKey` could not be read.
    Key(KeyError),
    /// `certificate` could not be read or does not match the key.
    Certificate(TokenError),
    /// `retiredKeys` is not a JWKS.
    RetiredKeys(TokenError),
    /// `tokenLifetime` is outside [`MIN_TOKEN_LIFETIME`]..=[`MAX_TOKEN_LIFETIME`].
    TokenLifetime(i64),
    /// `rimServiceUrl` or `ocspUrl` (named) is not an `http(s)` URL.
    SourceUrl(&'static str),
    /// `rimMirrors` or `ocspMirrors` (named): more than [`super::MAX_MIRRORS`], one not an
    /// `http(s)` URL, or mirrors of a source that is off.
    Mirrors(&'static str),
    /// `ocspStaleIfError` is over [`super::MAX_OCSP_STALE_IF_ERROR`].
    StaleIfError(u64),
    /// `trustAnchors` or `rimTrustAnchors` (named) is not a PEM certificate list.
    TrustAnchors(&'static str, ChainError),
    /// `policy` is not a policy ([`PolicyError`] says why).
    Policy(PolicyError),
    /// `revocationPolicy` is not a revocation policy (why, from the JSON reader).
    RevocationPolicy(String),
}

impl fmt::Display for OptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::KeyCount => f.write_str(
                "signingKey must be given, or publicKey given instead (exactly one of the two)",
            ),
            Self::Key(error) => error.fmt(f),
            Self::Certificate(error) | Self::RetiredKeys(error) => error.fmt(f),
            Self::TokenLifetime(_) => write!(
                f,
                "tokenLifetime must be a whole number of seconds from {MIN_TOKEN_LIFETIME} to {MAX_TOKEN_LIFETIME}"
            ),
            Self::SourceUrl(name) => write!(
                f,
                "{name} must be an http(s) URL, or null (or \"off\") to switch the source off"
            ),
            Self::Mirrors(name) => write!(
                f,
                "{name} must be at most {} http(s) URLs, and its source (rimServiceUrl or \
                 ocspUrl) must be on",
                super::MAX_MIRRORS
            ),
            Self::StaleIfError(seconds) => write!(
                f,
                "ocspStaleIfError must be seconds from 0 to {}, not {seconds}",
                super::MAX_OCSP_STALE_IF_ERROR
            ),
            Self::TrustAnchors(_, error) => error.fmt(f),
            Self::Policy(error) => write!(f, "policy: {error}"),
            Self::RevocationPolicy(why) => write!(
                f,
                "revocationPolicy must be a revocation policy ({{\"deviceChain\": \
                 {{\"allowUnknown\": true}}, ...}}): {why}"
            ),
        }
    }
}

impl core::error::Error for OptionsError {}

impl ErrorCode for OptionsError {
    fn code(&self) -> &'static str {
        match self {
            Self::KeyCount
            | Self::TokenLifetime(_)
            | Self::SourceUrl(_)
            | Self::Mirrors(_)
            | Self::StaleIfError(_)
            | Self::RevocationPolicy(_) => "ERR_INVALID_ARGUMENT",
            Self::Key(error) => error.code(),
            Self::Certificate(error) | Self::RetiredKeys(error) => error.code(),
            Self::TrustAnchors(_, error) => error.code(),
            Self::Policy(error) => error.code(),
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::KeyCount => Some("signingKey"),
            Self::Key(error) => error.field(),
            Self::Certificate(_) => Some("certificate"),
            Self::RetiredKeys(error) => error.field(),
            Self::TokenLifetime(_) => Some("tokenLifetime"),
            Self::SourceUrl(name) | Self::Mirrors(name) | Self::TrustAnchors(name, _) => Some(name),
            Self::StaleIfError(_) => Some("ocspStaleIfError"),
            Self::Policy(_) => Some("policy"),
            Self::RevocationPolicy(_) => Some("revocationPolicy"),
        }
    }
}

impl ServiceOptions {
    /// The service these options describe: its key ring (key text read by
    /// [`SigningKey::from_text`] / [`PublicKey::from_text`]), NVIDIA's device and RIM roots
    /// plus the extra anchors, and its settings.
    ///
    /// # Errors
    /// [`OptionsError`], naming the option at fault.
    pub fn build(&self) -> Result<Service, OptionsError> {
        let mut keys = match (self.signing_key.as_deref(), self.public_key.as_deref()) {
            (Some(text), None) => {
                let key = SigningKey::from_text(text).map_err(OptionsError::Key)?;
                KeyRing::new(key, self.kid.clone())
            }
            (None, Some(text)) => {
                let key = PublicKey::from_text(text).map_err(OptionsError::Key)?;
                KeyRing::external(key, self.kid.clone())
            }
            _ => return Err(OptionsError::KeyCount),
        };
        if let Some(pem) = &self.certificate {
            keys = keys
                .with_certificate_pem(pem)
                .map_err(OptionsError::Certificate)?;
        }
        if let Some(retired) = &self.retired_keys {
            let set = Jwks::parse(retired.as_bytes()).map_err(OptionsError::RetiredKeys)?;
            keys = keys.with_retired(set.keys().to_vec());
        }
        let config = self.config()?;
        let device_trust = anchors(
            NVIDIA_DEVICE_IDENTITY_CA_PEM,
            self.trust_anchors.as_deref(),
            "trustAnchors",
        )?;
        let rim_store = anchors(
            NVIDIA_RIM_ROOT_CA_PEM,
            self.rim_trust_anchors.as_deref(),
            "rimTrustAnchors",
        )?;
        let rim_anchors = rim_store.len();
        Ok(Service::new(
            config,
            keys,
            device_trust,
            RimTrust::from_store(rim_store),
            rim_anchors,
        ))
    }

    /// The settings part, checked.
    fn config(&self) -> Result<ServiceConfig, OptionsError> {
        let mut config = ServiceConfig {
            issuer: self.issuer.clone(),
            ..ServiceConfig::default()
        };
        if let Some(lifetime) = self.token_lifetime {
            if !(MIN_TOKEN_LIFETIME..=MAX_TOKEN_LIFETIME).contains(&lifetime) {
                return Err(OptionsError::TokenLifetime(lifetime));
            }
            config.token_lifetime = lifetime;
        }
        if self.require_fwid == Some(true) {
            config.fwid_policy = FwidPolicy::Require;
        }
        config.rim_service_url = source(
            &self.rim_service_url,
            config.rim_service_url,
            "rimServiceUrl",
        )?;
        config.ocsp_url = source(&self.ocsp_url, config.ocsp_url, "ocspUrl")?;
        config.rim_mirrors = mirrors(
            self.rim_mirrors.as_deref(),
            config.rim_service_url.is_some(),
            "rimMirrors",
        )?;
        config.ocsp_mirrors = mirrors(
            self.ocsp_mirrors.as_deref(),
            config.ocsp_url.is_some(),
            "ocspMirrors",
        )?;
        if let Some(formats) = self.rim_formats {
            config.rim_formats = formats;
        }
        if let Some(seconds) = self.ocsp_stale_if_error {
            if seconds > super::MAX_OCSP_STALE_IF_ERROR {
                return Err(OptionsError::StaleIfError(seconds));
            }
            config.ocsp_stale_if_error = seconds;
        }
        if let Some(on) = self.fetch_cache {
            config.fetch_cache = on;
        }
        if let Some(text) = &self.policy {
            config.policy = Some(Policy::parse(text.as_bytes()).map_err(OptionsError::Policy)?);
        }
        if let Some(text) = &self.revocation_policy {
            config.revocation_policy = crate::json::from_slice(text.as_bytes())
                .map_err(|error| OptionsError::RevocationPolicy(error.to_string()))?;
        }
        Ok(config)
    }
}

fn source(
    setting: &Setting,
    default: Option<String>,
    name: &'static str,
) -> Result<Option<String>, OptionsError> {
    match setting {
        Setting::Default => Ok(default),
        Setting::Off => Ok(None),
        Setting::Url(url) if super::is_source_url(url) => Ok(Some(url.clone())),
        Setting::Url(_) => Err(OptionsError::SourceUrl(name)),
    }
}

/// A source's mirrors, checked: at most [`super::MAX_MIRRORS`] `http(s)` URLs, and none for a
/// source that is off (`on`: whether it is on).
fn mirrors(
    urls: Option<&[String]>,
    on: bool,
    name: &'static str,
) -> Result<Vec<String>, OptionsError> {
    let urls = urls.unwrap_or_default();
    let fits = urls.len() <= super::MAX_MIRRORS && urls.iter().all(|u| super::is_source_url(u));
    if !fits || (!on && !urls.is_empty()) {
        return Err(OptionsError::Mirrors(name));
    }
    Ok(urls.to_vec())
}

/// NVIDIA's root and the extra anchors, as one store (the service's and the replay's rule).
pub(crate) fn anchors(
    nvidia: &str,
    extra: Option<&str>,
    name: &'static str,
) -> Result<TrustStore, OptionsError> {
    let extra = extra.unwrap_or_default();
    TrustStore::from_pem(&alloc::format!("{nvidia}\n{extra}"))
        .map_err(|error| OptionsError::TrustAnchors(name, error))
}
