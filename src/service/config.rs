//! [`ServiceConfig`]: what the host configures of a service.

use alloc::string::String;
use alloc::vec::Vec;

use super::fetch::{NVIDIA_OCSP_URL, NVIDIA_RIM_SERVICE_URL};
use crate::evidence::FwidPolicy;
use crate::rim::RimFormats;

/// Token lifetime of the real service: one hour.
pub const DEFAULT_TOKEN_LIFETIME: i64 = 3600;

/// What the host configures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceConfig {
    /// The `iss` of every token: the service's base URL, without a trailing slash. `None`:
    /// the origin of the request being answered ([`Request::origin`](super::Request::origin)) — never an earlier
    /// request's. Production deployments set it: a request's origin comes from its `Host`,
    /// which the client chooses.
    pub issuer: Option<String>,
    /// Seconds from `iat` to `exp`.
    pub token_lifetime: i64,
    /// The text of `GET /`.
    pub documentation: String,
    /// What a device whose firmware could report an FWID but did not gets (default: as
    /// NVIDIA's verifiers, passed with a warning; [`FwidPolicy::Require`]: 4016).
    pub fwid_policy: FwidPolicy,
    /// The RIM service the host fetches missing RIM documents from (default: NVIDIA's,
    /// [`NVIDIA_RIM_SERVICE_URL`]); `None`: only the documents the service holds.
    pub rim_service_url: Option<String>,
    /// The OCSP responder the host asks about device and RIM certificates (default:
    /// NVIDIA's, [`NVIDIA_OCSP_URL`]); `None`: revocation is not checked, and every token
    /// says so in `x-nvidia-attestation-warning`.
    pub ocsp_url: Option<String>,
    /// RIM services tried in order after `rim_service_url` when it fails (at most
    /// [`super::MAX_MIRRORS`]); used only when `rim_service_url` is set.
    pub rim_mirrors: Vec<String>,
    /// Which formats the fetch step asks the RIM service for (default: XML only; see
    /// [`RimFormats`]).
    pub rim_formats: RimFormats,
    /// OCSP responders tried in order after `ocsp_url` when it fails (at most
    /// [`super::MAX_MIRRORS`]): they must relay the answers of the same CA (a mirror's answer
    /// is checked exactly as the responder's).
    pub ocsp_mirrors: Vec<String>,
    /// Seconds past its `nextUpdate` a kept OCSP answer may still be used when every
    /// responder fails (stale-if-error). 0, the default: never. The risk: a certificate
    /// revoked after the answer was signed passes for that long; every token that relied on
    /// such an answer says so in `x-nvidia-attestation-warning`. At most
    /// [`super::MAX_OCSP_STALE_IF_ERROR`].
    pub ocsp_stale_if_error: u64,
    /// Whether the service keeps the answers it verified for the next requests (the
    /// [`super::VerifiedMemo`]; default on). Off, every attestation asks its sources again.
    pub fetch_cache: bool,
    /// A relying-party policy every device must meet (`None`, the default: none, as the real
    /// service): a device that fails it fails with [`super::POLICY_NOT_MET_CODE`].
    pub policy: Option<crate::policy::Policy>,
    /// What each component's chain accepts besides `good` (default: strict, as the real
    /// service); the request header `X-NVIDIA-OCSP-ALLOW-CERT-HOLD: true` adds `allowHold`.
    pub revocation_policy: crate::ocsp::RevocationPolicy,
}

impl Default for ServiceConfig {
    fn default() -> Self {
        Self {
            issuer: None,
            fwid_policy: FwidPolicy::AsNvidia,
            rim_service_url: Some(String::from(NVIDIA_RIM_SERVICE_URL)),
            ocsp_url: Some(String::from(NVIDIA_OCSP_URL)),
            rim_mirrors: Vec::new(),
            rim_formats: RimFormats::Xml,
            ocsp_mirrors: Vec::new(),
            ocsp_stale_if_error: 0,
            fetch_cache: true,
            policy: None,
            revocation_policy: crate::ocsp::RevocationPolicy::default(),
            token_lifetime: DEFAULT_TOKEN_LIFETIME,
            documentation: String::from(
                "edgeattest device attestation service: POST /v4/attest/gpu, /v4/attest/switch \
                 (and /v1-/v3); GET /.well-known/jwks.json validates the tokens; GET /health. \
                 Documentation: the edgeattest README; verification page: /ui/",
            ),
        }
    }
}
