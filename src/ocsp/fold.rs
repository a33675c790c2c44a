//! One status per chain from the results of its certificates, as NVIDIA's verifiers fold
//! them: `good` only if every certificate is good; otherwise the
//! first non-good certificate in chain order decides, with its reason.

use super::error::OcspError;
use super::status::{CertRevocation, CheckedOcsp, RevocationReason};
use crate::chain::RevocationStatus;
use crate::host_answer::FetchFailure;

/// A chain's folded revocation status.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChainRevocation {
    /// Every certificate asked about is good. `held`: one or more is on `certificateHold`,
    /// counted as good because the caller allowed it (the service adds its warning claim).
    Good {
        /// A held certificate was accepted.
        held: bool,
    },
    /// A certificate is revoked (or on hold, not allowed).
    Revoked {
        /// Its CRL reason, when the responder gave one.
        reason: Option<RevocationReason>,
    },
    /// A responder does not know a certificate.
    Unknown,
    /// A certificate's status could not be had: the fetch failed or the response was not
    /// believed.
    Failed(OcspError),
}

impl ChainRevocation {
    /// `good`, `revoked`, `unknown` or `failed`.
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::Good { .. } => "good",
            Self::Revoked { .. } => "revoked",
            Self::Unknown => "unknown",
            Self::Failed(_) => "failed",
        }
    }

    /// The status the chain's certificates are reported with: a chain whose status could not
    /// be had is `unknown` (its error is reported apart, 5001).
    pub const fn status(&self) -> RevocationStatus {
        match self {
            Self::Good { .. } => RevocationStatus::Good,
            Self::Revoked { .. } => RevocationStatus::Revoked,
            Self::Unknown | Self::Failed(_) => RevocationStatus::Unknown,
        }
    }

    /// The real service's error code for a chain that is not good: 5002
    /// CERTIFICATE_STATUS_REVOKED, 5003 CERTIFICATE_STATUS_UNKNOWN, 5001
    /// ERROR_DURING_OCSP_QUERY; `None` when good.
    pub const fn service_code(&self) -> Option<u16> {
        match self {
            Self::Good { .. } => None,
            Self::Revoked { .. } => Some(5002),
            Self::Unknown => Some(5003),
            Self::Failed(err) => Some(err.service_code()),
        }
    }
}

/// Folds the results of one chain's certificates, in chain order (leaf side first, as
/// [`super::ocsp_targets`] lists them). `certificateHold` counts as revoked unless
/// `allow_hold`, then as good with `held: true`. No result at all is not "good": nothing
/// was checked ([`FetchFailure::NotFetched`]).
pub fn fold_chain(results: &[Result<CheckedOcsp, OcspError>], allow_hold: bool) -> ChainRevocation {
    if results.is_empty() {
        return ChainRevocation::Failed(OcspError::Unavailable(FetchFailure::NotFetched));
    }
    let mut held = false;
    for result in results {
        match result {
            Err(err) => return ChainRevocation::Failed(err.clone()),
            Ok(checked) => match checked.status {
                CertRevocation::Good => {}
                CertRevocation::Revoked {
                    reason: Some(RevocationReason::CertificateHold),
                    ..
                } if allow_hold => held = true,
                CertRevocation::Revoked { reason, .. } => {
                    return ChainRevocation::Revoked { reason }
                }
                CertRevocation::Unknown => return ChainRevocation::Unknown,
            },
        }
    }
    ChainRevocation::Good { held }
}
