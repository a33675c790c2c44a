//! The one verdict scale a relying party shows: what a checked attestation result amounts to,
//! from the worst to the best. The core decides the level; every host (the page's panels, a
//! CLI, a service) only gives each level its words and colour.
//!
//! The token checks run in a fixed order (the `submods` binding, the signature with its key,
//! the issuer and audience, the times, then the nonce), so a token that fails on its time or
//! its nonce has already proven its signature: it is authentic, but stale or an answer to
//! another challenge. Any earlier failure means the result cannot be trusted at all.

use super::Appraisal;
use crate::token::{AttestationReport, TokenError};

/// The verdict level, worst first (the derived order compares levels: `Forged < Passed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum VerdictLevel {
    /// Not authentic: a signature, key, digest, issuer or structure check failed. Nothing in
    /// the result can be trusted, its verdict included.
    Forged,
    /// Authentic, but its `eat_nonce` is not the challenge the caller sent: a replay or an
    /// answer to another request.
    WrongNonce,
    /// Authentic, but outside its validity time at the time of the check (`exp` passed, `nbf`
    /// not reached, or older than the maximum age): verify a recorded result at its recorded
    /// time.
    Expired,
    /// Authentic, and the verdict is not a pass (or absent, or unreadable).
    Failed,
    /// Authentic, passed, and some device carries a warning (revocation not confirmed, a
    /// chain that ends at a root other than NVIDIA's, the service's
    /// `x-nvidia-attestation-warning`).
    PassedWithWarnings,
    /// Authentic, passed, no warning.
    Passed,
}

impl VerdictLevel {
    /// Every level, worst first.
    pub const ALL: [Self; 6] = [
        Self::Forged,
        Self::WrongNonce,
        Self::Expired,
        Self::Failed,
        Self::PassedWithWarnings,
        Self::Passed,
    ];

    /// The level's stable name, as the JS API and the page read it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Forged => "forged",
            Self::WrongNonce => "wrong-nonce",
            Self::Expired => "expired",
            Self::Failed => "failed",
            Self::PassedWithWarnings => "passed-with-warnings",
            Self::Passed => "passed",
        }
    }

    /// True for the two passing levels only.
    pub fn is_pass(self) -> bool {
        matches!(self, Self::PassedWithWarnings | Self::Passed)
    }

    /// The level of a token failure, or `None` for the verdict rules (their level is their
    /// appraisal's: [`Self::of_appraisal`]).
    pub fn of_error(error: &TokenError) -> Option<Self> {
        Some(match error {
            TokenError::AttestationFailed { appraisal, .. }
            | TokenError::AttestationResultMissing { appraisal, .. }
            | TokenError::ClaimsUnreadable { appraisal, .. }
            | TokenError::RevocationUnconfirmed { appraisal, .. } => {
                return Some(Self::of_appraisal(appraisal))
            }
            // Options the caller got wrong say nothing about the result.
            TokenError::InvalidOption { .. } | TokenError::VerdictCount { .. } => return None,
            TokenError::Expired { .. } => Self::Expired,
            TokenError::ClaimValidation { claim, .. }
                if matches!(claim.as_str(), "nbf" | "iat") =>
            {
                Self::Expired
            }
            TokenError::NonceMismatch => Self::WrongNonce,
            _ => Self::Forged,
        })
    }

    /// The level of an authentic result: failed unless it passed, then with or without
    /// warnings.
    pub fn of_appraisal(appraisal: &Appraisal) -> Self {
        if !appraisal.passed() {
            Self::Failed
        } else if appraisal.devices().iter().any(|d| !d.warnings().is_empty()) {
            Self::PassedWithWarnings
        } else {
            Self::Passed
        }
    }

    /// The level of a report's token failures: the worst of them (`None` when every token
    /// verified: the level is then the appraisal's, or when a failure is the caller's).
    pub fn of_token_failures(report: &AttestationReport) -> Option<Self> {
        let overall = report.overall().err().into_iter();
        let devices = report.devices().iter().filter_map(|d| d.outcome().err());
        overall
            .chain(report.submods().err())
            .chain(devices)
            .map(Self::of_error)
            .try_fold(None, |worst: Option<Self>, level| {
                let level = level?;
                Some(Some(worst.map_or(level, |w| w.min(level))))
            })
            .flatten()
    }
}

impl Appraisal {
    /// The verdict level of this authentic result: failed, passed with warnings (a device
    /// carries [`super::DeviceAppraisal::warnings`]) or passed.
    pub fn level(&self) -> VerdictLevel {
        VerdictLevel::of_appraisal(self)
    }
}
