//! Applying a policy's rules to verified claims.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Number, Value};

use super::decision::{DeviceDecision, PolicyDecision, RuleOutcome, RuleStatus};
use super::document::{pointer_token, Policy, Rules};
use super::PolicyError;
use crate::token::{ResultFormat, VerifiedAttestationResult, V1_DEVICE_LABEL};

/// Applies `policy` to a verified result: the overall token against the overall rules, every
/// device token against the detached rules (a 1.0 policy: the V1 single token, as device
/// `GPU-0`). Every rule is reported. Fails only when the policy is for the other result
/// format.
///
/// A result the service refused can be appraised too: its authentic tokens are in
/// [`crate::token::TokenError::refused_result`].
pub fn appraise(
    result: &VerifiedAttestationResult,
    policy: &Policy,
) -> Result<PolicyDecision, PolicyError> {
    let devices: Vec<(&str, &Map<String, Value>)> = result
        .devices()
        .iter()
        .map(|device| (device.label(), device.token().claims()))
        .collect();
    appraise_claims(result.format(), result.overall().claims(), &devices, policy)
}

/// [`appraise`] over claims a host kept from a verified result (the JS binding reads them
/// back from the object the verification returned). Not public: in Rust only a verified
/// result is appraised.
pub(crate) fn appraise_claims(
    format: ResultFormat,
    overall_claims: &Map<String, Value>,
    device_claims: &[(&str, &Map<String, Value>)],
    policy: &Policy,
) -> Result<PolicyDecision, PolicyError> {
    let (overall, devices) = match (policy.rules(), format) {
        (Rules::Flat(rules), ResultFormat::V1) => {
            let rules = outcomes(rules, overall_claims);
            (Vec::new(), alloc::vec![device(V1_DEVICE_LABEL, rules)])
        }
        (Rules::Split { overall, detached }, ResultFormat::Detached) => (
            outcomes(overall, overall_claims),
            device_claims
                .iter()
                .map(|(label, claims)| device(label, outcomes(detached, claims)))
                .collect(),
        ),
        _ => {
            return Err(PolicyError::ResultFormat {
                version: policy.version(),
            })
        }
    };
    // No device is no decision (nvtrust passes an empty device list; a verified detached
    // result always has one, so this only guards the rule).
    let passed = !devices.is_empty()
        && overall.iter().all(RuleOutcome::passed)
        && devices.iter().all(|d: &DeviceDecision| d.passed);
    Ok(PolicyDecision {
        passed,
        version: policy.version(),
        overall,
        devices,
    })
}

/// The rules one device token's claims must meet under `policy` in a result of `format` (a
/// service enforcing a policy checks the claims it is about to sign): a 1.0 policy's rules
/// for the V1 single token, a 2.0–4.0 policy's detached rules for a device token. A policy
/// for the other format is [`PolicyError::ResultFormat`].
pub(crate) fn device_rules(
    policy: &Policy,
    format: ResultFormat,
    claims: &Map<String, Value>,
) -> Result<Vec<RuleOutcome>, PolicyError> {
    match (policy.rules(), format) {
        (Rules::Flat(rules), ResultFormat::V1)
        | (
            Rules::Split {
                detached: rules, ..
            },
            ResultFormat::Detached,
        ) => Ok(outcomes(rules, claims)),
        _ => Err(PolicyError::ResultFormat {
            version: policy.version(),
        }),
    }
}

fn device(label: &str, rules: Vec<RuleOutcome>) -> DeviceDecision {
    DeviceDecision {
        label: label.into(),
        passed: rules.iter().all(RuleOutcome::passed),
        rules,
    }
}

/// Every leaf rule of `rules` against `claims`, in the policy's order.
fn outcomes(rules: &Map<String, Value>, claims: &Map<String, Value>) -> Vec<RuleOutcome> {
    let mut out = Vec::new();
    walk(rules, Some(claims), "", &mut out);
    out
}

/// A rule object against the claim object at `at` (`None`: absent, or not an object).
fn walk(
    rules: &Map<String, Value>,
    claims: Option<&Map<String, Value>>,
    at: &str,
    out: &mut Vec<RuleOutcome>,
) {
    for (name, rule) in rules {
        let path = format!("{at}/{}", pointer_token(name));
        let claim = claims.and_then(|claims| claims.get(name));
        match (rule, claim) {
            // A non-empty rule object names claim members: each is its own rule.
            (Value::Object(members), Some(Value::Object(found))) if !members.is_empty() => {
                walk(members, Some(found), &path, out);
            }
            (Value::Object(members), None) if !members.is_empty() => {
                walk(members, None, &path, out);
            }
            // A claim of another type where the rule expects an object: every rule under
            // it fails with what is there.
            (Value::Object(members), Some(other)) if !members.is_empty() => {
                mismatched(members, other, &path, out);
            }
            (expected, found) => out.push(RuleOutcome {
                path,
                expected: expected.clone(),
                found: found.cloned(),
                status: match found {
                    None => RuleStatus::Missing,
                    // An empty rule object asks only for an object there.
                    Some(found) if matches!(expected, Value::Object(m) if m.is_empty()) => {
                        status(found.is_object())
                    }
                    Some(found) => status(json_eq(expected, found)),
                },
            }),
        }
    }
}

/// The leaves under a rule object whose claim is not an object: each a mismatch that
/// reports the value found at the object's place.
fn mismatched(rules: &Map<String, Value>, found: &Value, at: &str, out: &mut Vec<RuleOutcome>) {
    for (name, rule) in rules {
        let path = format!("{at}/{}", pointer_token(name));
        match rule {
            Value::Object(members) if !members.is_empty() => {
                mismatched(members, found, &path, out);
            }
            expected => out.push(RuleOutcome {
                path,
                expected: expected.clone(),
                found: Some(found.clone()),
                status: RuleStatus::Mismatch,
            }),
        }
    }
}

fn status(pass: bool) -> RuleStatus {
    if pass {
        RuleStatus::Pass
    } else {
        RuleStatus::Mismatch
    }
}

/// JSON equality: types must agree (`true` is not `1`), numbers by value (`1` is `1.0`),
/// arrays element by element, objects member by member whatever their order.
pub(super) fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::String(a), Value::String(b)) => a == b,
        (Value::Number(a), Value::Number(b)) => number_eq(a, b),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(name, a)| b.get(name).is_some_and(|b| json_eq(a, b)))
        }
        _ => false,
    }
}

fn number_eq(a: &Number, b: &Number) -> bool {
    let integer = |n: &Number| {
        n.as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
    };
    match (integer(a), integer(b)) {
        (Some(a), Some(b)) => a == b,
        // At least one has a fraction or exponent: compare as the doubles JSON means.
        _ => a.as_f64() == b.as_f64(),
    }
}
