//! What a policy decided: the decision, and every rule's outcome per scope.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::Value;

use super::PolicyVersion;

/// How one rule came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum RuleStatus {
    /// The claim equals what the rule expects.
    Pass,
    /// The claim is there with another value.
    Mismatch,
    /// The token does not carry the claim.
    Missing,
}

impl RuleStatus {
    /// The status as the JS API and the page name it (`"pass"`, `"mismatch"`, `"missing"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pass => "pass",
            Self::Mismatch => "mismatch",
            Self::Missing => "missing",
        }
    }
}

/// One leaf rule applied to one token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RuleOutcome {
    pub(super) path: String,
    pub(super) expected: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) found: Option<Value>,
    pub(super) status: RuleStatus,
}

impl RuleOutcome {
    /// The claim, as a JSON Pointer into the token's claims
    /// (`/x-nvidia-gpu-driver-rim-cert-chain/x-nvidia-cert-status`).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What the rule expects.
    pub fn expected(&self) -> &Value {
        &self.expected
    }

    /// What the token carries there, if anything.
    pub fn found(&self) -> Option<&Value> {
        self.found.as_ref()
    }

    /// How the rule came out.
    pub fn status(&self) -> RuleStatus {
        self.status
    }

    /// Whether the rule passed.
    pub fn passed(&self) -> bool {
        self.status == RuleStatus::Pass
    }
}

/// The rules one device token was held to, and how each came out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeviceDecision {
    pub(super) label: String,
    pub(super) passed: bool,
    pub(super) rules: Vec<RuleOutcome>,
}

impl DeviceDecision {
    /// The device label (`GPU-0`, `SWITCH-3`).
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Whether every rule passed for this device.
    pub fn passed(&self) -> bool {
        self.passed
    }

    /// Every rule, in the policy's order.
    pub fn rules(&self) -> &[RuleOutcome] {
        &self.rules
    }
}

/// A policy applied to a verified attestation result.
///
/// `passed` is true only when every rule passed in every scope. The decision is the
/// relying party's, on top of the service's verdict: a result the service failed can still
/// be appraised (to see why), and a result the service passed can fail a policy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyDecision {
    pub(super) passed: bool,
    #[serde(serialize_with = "version_text")]
    pub(super) version: PolicyVersion,
    pub(super) overall: Vec<RuleOutcome>,
    pub(super) devices: Vec<DeviceDecision>,
}

fn version_text<S: serde::Serializer>(version: &PolicyVersion, out: S) -> Result<S::Ok, S::Error> {
    out.serialize_str(version.as_str())
}

impl PolicyDecision {
    /// True only when every rule passed, for the overall token and every device.
    pub fn passed(&self) -> bool {
        self.passed
    }

    /// The policy's version.
    pub fn version(&self) -> PolicyVersion {
        self.version
    }

    /// The overall token's rules (a 1.0 policy: empty, its rules are the device's).
    pub fn overall(&self) -> &[RuleOutcome] {
        &self.overall
    }

    /// Each device, in the result's order (a V1 result: its one token, `GPU-0`).
    pub fn devices(&self) -> &[DeviceDecision] {
        &self.devices
    }

    /// Every rule that did not pass, with its scope (`None`: the overall token; otherwise the
    /// device label), in report order.
    pub fn failures(&self) -> impl Iterator<Item = (Option<&str>, &RuleOutcome)> + '_ {
        let overall = self.overall.iter().map(|rule| (None, rule));
        let devices = self.devices.iter().flat_map(|device| {
            device
                .rules
                .iter()
                .map(move |rule| (Some(device.label.as_str()), rule))
        });
        overall.chain(devices).filter(|(_, rule)| !rule.passed())
    }

    /// What the policy names that the tokens lack, with its scope as in
    /// [`PolicyDecision::failures`].
    pub fn missing(&self) -> impl Iterator<Item = (Option<&str>, &str)> + '_ {
        self.failures()
            .filter(|(_, rule)| rule.status == RuleStatus::Missing)
            .map(|(scope, rule)| (scope, rule.path.as_str()))
    }
}
