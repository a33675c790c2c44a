//! What a verified attestation result says about the devices: the service's verdict and, per
//! device, why it failed — read from the claims of every version the service writes (GPU
//! claims 1.0–4.0, the V1 single token, switch claims 1.0–3.0, the error-only tokens).
//!
//! `checks::CHECKS` is the one table of "claim → what its failure means", in order of
//! decisiveness: the service's own error first, then the evidence checks (a device whose
//! evidence failed cannot have passed anything after), the reference documents (RIMs), the
//! measurement comparison, and last the platform state. A new check is one row.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};

mod checks;

use super::attestation::VerifiedAttestationResult;
use crate::sort;

/// The verdict claim of the overall token (and of the V1 single token).
pub(crate) const OVERALL_CLAIM: &str = "x-nvidia-overall-att-result";

/// The V1 single token groups its checks under this member.
const DETAILED_RESULT: &str = "x-nvidia-attestation-detailed-result";

/// The label given to the one device of a V1 result (its token is a GPU's own token).
pub(crate) const V1_DEVICE_LABEL: &str = "GPU-0";

/// One reason a device failed: the claim, its value as the token carries it, and a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppraisalReason {
    claim: String,
    value: Value,
    message: String,
}

impl AppraisalReason {
    /// The claim's name (`x-nvidia-gpu-driver-rim-cert-chain`, `measres`, ...).
    pub fn claim(&self) -> &str {
        &self.claim
    }

    /// The claim's value as the token carries it.
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// What it means, as a sentence ("the driver RIM's signing certificate chain has
    /// expired (2025-01-02T00:00:00Z)").
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// One device's appraisal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceAppraisal {
    label: String,
    passed: Option<bool>,
    reasons: Vec<AppraisalReason>,
}

impl DeviceAppraisal {
    /// Reads one device token's claims. `passed` is `Some(false)` when any claim says a check
    /// failed, `Some(true)` when `measres` says the comparison succeeded and nothing failed,
    /// `None` when the token says neither.
    pub fn from_claims(label: &str, claims: &Map<String, Value>) -> Self {
        let switch = claims
            .keys()
            .any(|name| name.starts_with("x-nvidia-switch-"));
        let detailed = claims.get(DETAILED_RESULT).and_then(Value::as_object);
        // (rank, position, reason): the position keeps the order of equal (rank, claim)
        // pairs, so the flat claim is the one kept below.
        let mut found: Vec<(usize, usize, AppraisalReason)> = claims
            .iter()
            .chain(detailed.into_iter().flatten())
            .filter_map(|(name, value)| {
                let (rank, message) = checks::failure(name, value, claims, switch)?;
                Some((
                    rank,
                    AppraisalReason {
                        claim: name.clone(),
                        value: value.clone(),
                        message,
                    },
                ))
            })
            .enumerate()
            .map(|(at, (rank, reason))| (rank, at, reason))
            .collect();
        // The V1 token names a check both flat and grouped: report it once.
        sort::sort_by(&mut found, |(a, i, x), (b, j, y)| {
            (*a, x.claim.as_str(), *i) < (*b, y.claim.as_str(), *j)
        });
        found.dedup_by(|(_, _, a), (_, _, b)| a.claim == b.claim);
        let reasons: Vec<AppraisalReason> =
            found.into_iter().map(|(_, _, reason)| reason).collect();
        let passed = if reasons.is_empty() {
            claims
                .get("measres")
                .and_then(Value::as_str)
                .map(|measres| checks::MEASRES_SUCCESS.contains(&measres))
                .filter(|success| *success)
        } else {
            Some(false)
        };
        Self {
            label: label.into(),
            passed,
            reasons,
        }
    }

    /// The device label (`GPU-0`, `SWITCH-3`).
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Whether the device token says it passed; `None` when it says neither.
    pub fn passed(&self) -> Option<bool> {
        self.passed
    }

    /// Why it failed, most decisive first (empty when nothing failed).
    pub fn reasons(&self) -> &[AppraisalReason] {
        &self.reasons
    }
}

/// The appraisal of a verified attestation result: the service's verdict and each device's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Appraisal {
    passed: bool,
    overall_result: Option<bool>,
    devices: Vec<DeviceAppraisal>,
}

impl Appraisal {
    /// Appraises a verified result: the overall verdict
    /// ([`VerifiedAttestationResult::overall_result`]) and every device token (a V1 result's
    /// one token is its GPU's, labelled `GPU-0`).
    pub fn of(result: &VerifiedAttestationResult) -> Self {
        let devices: Vec<DeviceAppraisal> = result
            .device_claims()
            .into_iter()
            .map(|(label, claims)| DeviceAppraisal::from_claims(label, claims))
            .collect();
        let overall_result = result.overall_result();
        // A device that says it failed under an overall `true` contradicts the service: the
        // stricter reading wins.
        let passed =
            overall_result == Some(true) && devices.iter().all(|d| d.passed != Some(false));
        Self {
            passed,
            overall_result,
            devices,
        }
    }

    /// True only when the service's verdict is `true` and no device says it failed.
    pub fn passed(&self) -> bool {
        self.passed
    }

    /// The service's verdict, `x-nvidia-overall-att-result`, when the result carries it.
    pub fn overall_result(&self) -> Option<bool> {
        self.overall_result
    }

    /// Each device, in document order.
    pub fn devices(&self) -> &[DeviceAppraisal] {
        &self.devices
    }

    /// The first device that failed and its most decisive reason.
    pub fn first_failure(&self) -> Option<(&DeviceAppraisal, Option<&AppraisalReason>)> {
        self.devices
            .iter()
            .find(|device| device.passed == Some(false))
            .map(|device| (device, device.reasons.first()))
    }

    /// One sentence: the verdict, then the first failed device and its first reason.
    pub fn summary(&self) -> String {
        let verdict = match (self.passed, self.overall_result) {
            (true, _) => return "the attestation passed".into(),
            (false, None) => "the attestation result carries no overall verdict",
            (false, Some(true)) => "a device of the attestation failed",
            (false, Some(false)) => "the attestation failed",
        };
        match self.first_failure() {
            Some((device, Some(reason))) => {
                format!("{verdict}: {}: {}", device.label, reason.message)
            }
            Some((device, None)) => format!("{verdict}: {} failed", device.label),
            None => verdict.into(),
        }
    }
}
