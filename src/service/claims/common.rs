//! Claims shared by every version: token times and the certificate-chain object.

use alloc::string::{String, ToString};

use serde::Serialize;

use crate::service::outcome::{CertStatus, ChainOutcome, ErrorDetails, RevocationStatus};

/// `iss`, `iat`, `nbf`, `exp`, `jti`: every token carries them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TokenTimes {
    /// The issuer: the service's base URL.
    pub iss: String,
    /// Issued at, Unix seconds.
    pub iat: i64,
    /// Not before: equals `iat`, as the real service.
    pub nbf: i64,
    /// Expiry: `iat` plus the token lifetime.
    pub exp: i64,
    /// A UUID v4.
    pub jti: String,
}

/// The certificate-chain object of claims 3.0 and 4.0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CertChainClaim {
    /// valid / expired / invalid / revoked.
    #[serde(rename = "x-nvidia-cert-status")]
    pub status: CertStatus,
    /// good / revoked / unknown.
    #[serde(rename = "x-nvidia-cert-ocsp-status")]
    pub ocsp_status: RevocationStatus,
    /// The earliest `notAfter` of the chain, `YYYY-MM-DDTHH:MM:SSZ`.
    #[serde(rename = "x-nvidia-cert-expiration-date")]
    pub expiration_date: Option<String>,
    /// The revocation reason, or null.
    #[serde(rename = "x-nvidia-cert-revocation-reason")]
    pub revocation_reason: Option<String>,
    /// Ours, not NVIDIA's: when the chain's certificate reported revoked (or on hold, or
    /// passed in a grace period) was revoked, `YYYY-MM-DDTHH:MM:SSZ`; absent otherwise. A
    /// relying party's grace period counts from it.
    #[serde(
        rename = "x-edgeattest-cert-revocation-time",
        skip_serializing_if = "Option::is_none"
    )]
    pub revocation_time: Option<String>,
}

impl CertChainClaim {
    /// The claim object for a chain verdict.
    pub fn new(chain: &ChainOutcome) -> Self {
        Self {
            status: chain.status,
            ocsp_status: chain.ocsp,
            expiration_date: chain.earliest_expiry.map(|date| date.to_string()),
            revocation_reason: chain.revocation_reason.clone(),
            revocation_time: chain.revocation_time.map(|time| time.to_string()),
        }
    }
}

/// A device token of claims 1.0 or 2.0 for a device whose verification stopped with an error:
/// the times and the error, nothing else (the real service's observed shape).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ErrorOnlyClaims {
    /// The token times.
    #[serde(flatten)]
    pub times: TokenTimes,
    /// What failed.
    #[serde(rename = "x-nvidia-error-details")]
    pub error: ErrorDetails,
}

/// `measres` of claims 2.0 and later.
pub(super) fn measres(passed: bool) -> &'static str {
    if passed {
        "success"
    } else {
        "fail"
    }
}

/// `measres` of claims 1.0.
pub(super) fn measres_v1(passed: bool) -> &'static str {
    if passed {
        "comparison-successful"
    } else {
        "comparison-fail"
    }
}
