//! What a policy decided: the decision, and every rule's outcome per scope.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::Value;

use super::PolicyVersion;

/// How one rule came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RuleOutcome {
    /// The claim, as a JSON Pointer into the token's claims
    /// ("/x-nvidia-gpu-driver-rim-cert-chain/x-nvidia-cert-status").
    pub(super) path: String,
    /// What the rule expects.
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub(super) expected: Value,
    /// What the token carries there; absent when the claim is missing.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "unknown"))]
    pub(super) found: Option<Value>,
    /// How the rule came out.
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct DeviceDecision {
    /// The device label ("GPU-0", "SWITCH-3").
    pub(super) label: String,
    /// Every rule passed for this device.
    pub(super) passed: bool,
    /// Every rule, in the policy's order.
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PolicyDecision {
    /// True only when every rule passed, for the overall token and every device.
    pub(super) passed: bool,
    /// The policy's version: "1.0" (V1 results) or "2.0"–"4.0" (detached results); "rego" for
    /// a Rego policy (`edgeattest/rego`).
    #[serde(serialize_with = "version_text")]
    #[cfg_attr(feature = "ts", ts(type = r#""1.0" | "2.0" | "3.0" | "4.0" | "rego""#))]
    pub(super) version: PolicyVersion,
    /// The overall token's rules (empty for a 1.0 policy, whose rules are GPU-0's).
    pub(super) overall: Vec<RuleOutcome>,
    /// Each device, in the result's order.
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
