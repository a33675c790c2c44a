//! One status per chain from the results of its certificates, as NVIDIA's verifiers fold
//! them: `good` only if every certificate is good or relaxed by the chain's
//! [`RevocationRule`]; otherwise the first certificate in chain order that neither is
//! decides, with its reason.

use alloc::vec::Vec;

use super::error::OcspError;
use super::policy::{Relaxation, RevocationRule};
use super::status::{CertRevocation, CheckedOcsp, RevocationReason};
use crate::chain::RevocationStatus;
use crate::host_answer::FetchFailure;
use crate::time::UnixTime;

/// A chain's folded revocation status.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChainRevocation {
    /// Every certificate asked about is good, or passed by the chain's rule: each such pass
    /// is a relaxation, in chain order (empty: strictly good), and each is warned about.
    Good {
        /// What the rule let pass.
        relaxations: Vec<Relaxation>,
    },
    /// A certificate is revoked (or on hold, not allowed; or past its grace period).
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

    /// The status the chain's certificates are reported with (`x-nvidia-cert-ocsp-status`):
    /// a chain whose status could not be had is `unknown` (its error is reported apart,
    /// 5001). A relaxed pass reports what the responder said, not `good`: `revoked` when a
    /// revoked certificate passed in its grace period, else `unknown` when an unknown or
    /// unanswered one passed; an allowed hold alone stays `good` (as NRAS reports it).
    pub fn status(&self) -> RevocationStatus {
        match self {
            Self::Good { relaxations } => {
                let revoked = |r: &Relaxation| matches!(r, Relaxation::RevokedInGrace { .. });
                let unknown =
                    |r: &Relaxation| matches!(r, Relaxation::Unknown | Relaxation::Unanswered(_));
                if relaxations.iter().any(revoked) {
                    RevocationStatus::Revoked
                } else if relaxations.iter().any(unknown) {
                    RevocationStatus::Unknown
                } else {
                    RevocationStatus::Good
                }
            }
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

impl ChainRevocation {
    /// Strictly good: every certificate is `good`.
    pub const fn good() -> Self {
        Self::Good {
            relaxations: Vec::new(),
        }
    }

    /// What the rule let pass (empty unless good with relaxations).
    pub fn relaxations(&self) -> &[Relaxation] {
        match self {
            Self::Good { relaxations } => relaxations,
            _ => &[],
        }
    }
}

/// Folds the results of one chain's certificates, in chain order (leaf side first, as
/// [`super::ocsp_targets`] lists them), under `rule` at `now`:
/// * `certificateHold` passes as [`Relaxation::Held`] with `allow_hold`;
/// * another revocation (or a hold not allowed) passes as [`Relaxation::RevokedInGrace`]
///   while `now < revocationTime + revoked_grace_period`, else is `Revoked`;
/// * `unknown` passes as [`Relaxation::Unknown`] with `allow_unknown`, else is `Unknown`;
/// * an answer the host could not fetch ([`OcspError::Unavailable`]) passes as
///   [`Relaxation::Unanswered`] with `allow_unknown`; any other error (a response not
///   believed) is always `Failed`.
///
/// No result at all is not "good": nothing was checked ([`FetchFailure::NotFetched`],
/// unanswered).
pub fn fold_chain(
    results: &[Result<CheckedOcsp, OcspError>],
    rule: &RevocationRule,
    now: UnixTime,
) -> ChainRevocation {
    let not_fetched = [Err(OcspError::Unavailable(FetchFailure::NotFetched))];
    let results = if results.is_empty() {
        &not_fetched[..]
    } else {
        results
    };
    let mut relaxations = Vec::new();
    for result in results {
        let relaxation = match result {
            Err(err @ OcspError::Unavailable(_)) if rule.allow_unknown => {
                Relaxation::Unanswered(err.clone())
            }
            Err(err) => return ChainRevocation::Failed(err.clone()),
            Ok(checked) => {
                if let Some(until) = stale_until(checked, now) {
                    relaxations.push(Relaxation::Stale { until });
                }
                match fold_one(checked, rule, now) {
                    Ok(None) => continue,
                    Ok(Some(relaxation)) => relaxation,
                    Err(folded) => return folded,
                }
            }
        };
        relaxations.push(relaxation);
    }
    ChainRevocation::Good { relaxations }
}

/// One verified answer's status under `rule`: good (`None`), passed with a relaxation, or
/// the chain's folded status.
fn fold_one(
    checked: &CheckedOcsp,
    rule: &RevocationRule,
    now: UnixTime,
) -> Result<Option<Relaxation>, ChainRevocation> {
    Ok(Some(match checked.status {
        CertRevocation::Good => return Ok(None),
        CertRevocation::Revoked {
            reason: Some(RevocationReason::CertificateHold),
            ..
        } if rule.allow_hold => Relaxation::Held,
        CertRevocation::Revoked { reason, at } => match rule.grace_until(at) {
            Some(until) if now < until => Relaxation::RevokedInGrace { reason, at, until },
            _ => return Err(ChainRevocation::Revoked { reason }),
        },
        CertRevocation::Unknown if rule.allow_unknown => Relaxation::Unknown,
        CertRevocation::Unknown => return Err(ChainRevocation::Unknown),
    }))
}

/// When `checked` stopped being valid, if `now` is past that (and the clock skew): only a
/// kept answer that stale-if-error let verify is.
fn stale_until(checked: &CheckedOcsp, now: UnixTime) -> Option<UnixTime> {
    let until = checked.next_update.unwrap_or_else(|| {
        checked
            .this_update
            .saturating_add(super::MAX_AGE_WITHOUT_NEXT_UPDATE)
    });
    (now.as_secs() >= until.as_secs().saturating_add(super::OCSP_CLOCK_SKEW)).then_some(until)
}
