//! What a verified attestation result says about the devices: the service's verdict and, per
//! device, why it failed — read from the claims of every version the service writes (GPU
//! claims 1.0–4.0, the V1 single token, switch claims 1.0–3.0, the error-only tokens).
//!
//! `checks::CHECKS` is the one table of "claim → what its failure means", in order of
//! decisiveness: the service's own error first, then the evidence checks (a device whose
//! evidence failed cannot have passed anything after), the reference documents (RIMs), the
//! measurement comparison, and last the platform state. A new check is one row.
//!
//! `reading` says what each row's claim must be in each claims version, and when a token
//! confirms its certificate chains `good` (revocation); a token that does not read as its
//! version defines it fails, with that as its first reason.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};

mod checks;
mod level;
mod reading;
mod revocation;

pub use level::VerdictLevel;
pub(crate) use reading::REVOCATION_NOT_CHECKED;

use super::verified::VerifiedAttestationResult;
use crate::ocsp::RevocationPolicy;
use crate::sort;
use crate::time::UnixTime;

/// The V1 single token groups its checks under this member.
const DETAILED_RESULT: &str = "x-nvidia-attestation-detailed-result";

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
    unreadable: bool,
    revocation_confirmed: bool,
    revocation_accepted: bool,
    relaxations: Vec<String>,
    warnings: Vec<String>,
}

impl DeviceAppraisal {
    /// Reads one device token's claims, in the claims version they name (see [`Self::read`]).
    /// `passed` is `Some(false)` when any claim says a check failed or the claims do not
    /// read, `Some(true)` when `measres` says the comparison succeeded and nothing failed,
    /// `None` when the token says neither.
    pub fn from_claims(label: &str, claims: &Map<String, Value>) -> Self {
        Self::read(label, claims, None)
    }

    /// Reads one device token's claims in the claims version `version` names (the overall
    /// token's `x-nvidia-ver`; `None`: the token's own 4.0 claim, else its claim names). A
    /// claim of the wrong type, a token without a verdict claim (`measres` or
    /// `x-nvidia-error-details`) or an unknown version fails the device, that reason first.
    pub fn read(label: &str, claims: &Map<String, Value>, version: Option<&Value>) -> Self {
        Self::read_under(
            label,
            claims,
            version,
            &RevocationPolicy::strict(),
            UnixTime::EPOCH,
        )
    }

    /// [`Self::read`] under the relying party's revocation policy at `now`: a chain that is
    /// not confirmed `good` is accepted by its component's rule or not (the rule is in the
    /// module `revocation`'s docs); a revoked or held chain the policy accepts is no failure
    /// reason, and every acceptance is one of the device's warnings.
    pub fn read_under(
        label: &str,
        claims: &Map<String, Value>,
        version: Option<&Value>,
        policy: &RevocationPolicy,
        now: UnixTime,
    ) -> Self {
        let switch = claims
            .keys()
            .any(|name| name.starts_with("x-nvidia-switch-"));
        let detailed = claims.get(DETAILED_RESULT).and_then(Value::as_object);
        let version = reading::version_of(version, claims);
        let unreadable = match &version {
            Err((claim, value)) => Some(AppraisalReason {
                claim: (*claim).into(),
                value: value.clone(),
                message: format!(
                    "the claims version {} is not one this verifier reads",
                    checks::json_text(value)
                ),
            }),
            Ok(version) => claims
                .iter()
                .chain(detailed.into_iter().flatten())
                .find_map(|(name, value)| {
                    let why = reading::misread(checks::shape(name)?, value, *version)?;
                    Some(AppraisalReason {
                        claim: name.clone(),
                        value: value.clone(),
                        message: format!("claim {name} does not read: {why}"),
                    })
                })
                .or_else(|| {
                    reading::missing_verdict(claims).map(|name| AppraisalReason {
                        claim: name.into(),
                        value: Value::Null,
                        message: "the token carries no verdict (neither measres nor \
                                  x-nvidia-error-details)"
                            .into(),
                    })
                }),
        };
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
        let judged = match &version {
            Ok(version) => {
                let chains = revocation::chains(claims, detailed, *version);
                Some(revocation::judge_all(&chains, policy, now))
            }
            Err(_) => None,
        };
        if let Some(judged) = &judged {
            found.retain(|(_, _, reason)| !judged.forgiven.contains(&reason.claim));
            for (_, _, reason) in &mut found {
                let note = judged
                    .refusals
                    .iter()
                    .filter(|(claim, _)| claim.as_deref() == Some(reason.claim.as_str()))
                    .find_map(|(_, refusal)| revocation::refusal_note(refusal));
                if let Some(note) = note {
                    reason.message = format!("{}: {note}", reason.message);
                }
            }
        }
        let is_unreadable = unreadable.is_some();
        let reasons: Vec<AppraisalReason> = unreadable
            .into_iter()
            .chain(found.into_iter().map(|(_, _, reason)| reason))
            .collect();
        let passed = if reasons.is_empty() {
            claims
                .get("measres")
                .and_then(Value::as_str)
                .map(|measres| checks::MEASRES_SUCCESS.contains(&measres))
                .filter(|success| *success)
        } else {
            Some(false)
        };
        let (revocation_confirmed, revocation_accepted, relaxations) = match judged {
            Some(judged) => (judged.confirmed, judged.accepted, judged.relaxations),
            None => (false, false, Vec::new()),
        };
        // Each acceptance names its chain and rule member in place of the general unconfirmed
        // warning; an unknown chain's adds nothing to the service's "not checked" words.
        let covered = revocation_accepted && !relaxations.is_empty();
        let mut warnings = reading::warnings(claims, revocation_confirmed || covered);
        let not_checked = warnings
            .iter()
            .any(|w| w.contains(reading::REVOCATION_NOT_CHECKED));
        warnings.extend(
            relaxations
                .iter()
                .filter(|s| !(not_checked && revocation::is_unknown_acceptance(s)))
                .cloned(),
        );
        Self {
            label: label.into(),
            passed,
            reasons,
            unreadable: is_unreadable,
            revocation_confirmed,
            revocation_accepted,
            relaxations,
            warnings,
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

    /// Whether its claims do not read as their version defines them (the first reason says
    /// which claim).
    pub fn unreadable(&self) -> bool {
        self.unreadable
    }

    /// Whether the token confirms every certificate chain it names `good` (revocation
    /// checked and good; see the rule in the module `reading`'s docs and the README).
    pub fn revocation_confirmed(&self) -> bool {
        self.revocation_confirmed
    }

    /// Whether every chain is confirmed `good` or accepted by the revocation policy it was
    /// read under (the strict default accepts only `good`).
    pub fn revocation_accepted(&self) -> bool {
        self.revocation_accepted
    }

    /// Each chain the revocation policy accepted although it is not `good`, as a sentence
    /// naming its component and the rule member (also among [`Self::warnings`]).
    pub fn revocation_relaxations(&self) -> &[String] {
        &self.relaxations
    }

    /// What a pass of this device does not prove, as sentences: each part of the service's
    /// `x-nvidia-attestation-warning` (a chain ending at a root other than NVIDIA's, an FWID
    /// not compared, revocation not checked), and revocation not confirmed `good` when the
    /// service's words do not already say it. Empty: nothing to warn about.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
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
    /// one token is its GPU's, labelled `GPU-0`), under the revocation policy and at the time
    /// it was verified with.
    pub fn of(result: &VerifiedAttestationResult) -> Self {
        let version = result.overall().claim("x-nvidia-ver");
        let devices: Vec<DeviceAppraisal> = result
            .device_claims()
            .into_iter()
            .map(|(label, claims)| {
                DeviceAppraisal::read_under(
                    label,
                    claims,
                    version,
                    &result.revocation,
                    result.verified_at,
                )
            })
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

    /// True when every device confirms its certificate chains `good` (and there is one).
    pub fn revocation_confirmed(&self) -> bool {
        !self.devices.is_empty() && self.devices.iter().all(|d| d.revocation_confirmed)
    }

    /// The first device whose claims do not read as their version defines them.
    pub fn first_unreadable(&self) -> Option<&DeviceAppraisal> {
        self.devices.iter().find(|device| device.unreadable)
    }

    /// True when every device's chains are confirmed `good` or accepted by the revocation
    /// policy (and there is a device).
    pub fn revocation_accepted(&self) -> bool {
        !self.devices.is_empty() && self.devices.iter().all(|d| d.revocation_accepted)
    }

    /// The first device whose chains are neither confirmed `good` nor accepted by the
    /// revocation policy (under the strict default: not confirmed `good`).
    pub fn first_unconfirmed(&self) -> Option<&DeviceAppraisal> {
        self.devices
            .iter()
            .find(|device| !device.revocation_accepted)
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

impl VerifiedAttestationResult {
    /// The appraisal: the service's verdict and, per device, why it failed.
    pub fn appraisal(&self) -> Appraisal {
        Appraisal::of(self)
    }
}
