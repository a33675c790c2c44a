//! A relying-party policy the service enforces (the `policy` option; off by default, so the
//! service answers as NVIDIA's does): a device whose claims, as the service is about to sign
//! them, fail the policy's device rules fails with [`super::POLICY_NOT_MET_CODE`], and its error
//! details name the failed rules.
//!
//! Decisions: only the device rules are enforced (a 1.0 policy's rules on the V1 single
//! token, a 2.0–4.0 policy's `detached-claims` on each device token). The overall rules
//! describe the overall token, whose verdict this check decides; the relying party checks
//! them with `appraise`. A device that already failed keeps its own first failure, as the
//! real service reports one. A policy for the other result format than the endpoint's
//! fails every device, naming why.

use alloc::format;
use alloc::string::String;

use serde_json::{Map, Value};

use super::codes::{details, POLICY_NOT_MET, POLICY_NOT_MET_CODE};
use super::outcome::ErrorDetails;
use crate::policy::{device_rules, Policy, RuleStatus};
use crate::token::ResultFormat;

/// How many failed rules the description lists before "and N more".
const LISTED: usize = 8;

/// The longest value text quoted in the description; longer is cut with `…`.
const QUOTED: usize = 64;

/// The error details of a device whose `claims` fail `policy`, `None` when they meet it.
pub(super) fn policy_failure(
    policy: &Policy,
    format: ResultFormat,
    claims: &Map<String, Value>,
) -> Option<ErrorDetails> {
    let description = match device_rules(policy, format, claims) {
        Err(error) => format!("the relying-party policy does not apply: {error}"),
        Ok(rules) => {
            let failed: alloc::vec::Vec<_> = rules.iter().filter(|r| !r.passed()).collect();
            if failed.is_empty() {
                return None;
            }
            let mut text = String::from("the relying-party policy is not met:");
            for (i, rule) in failed.iter().take(LISTED).enumerate() {
                let separator = if i == 0 { " " } else { "; " };
                let expected = quoted(rule.expected());
                text.push_str(&match (rule.status(), rule.found()) {
                    (RuleStatus::Missing, _) | (_, None) => {
                        format!("{separator}{} missing (expected {expected})", rule.path())
                    }
                    (_, Some(found)) => format!(
                        "{separator}{} is {}, expected {expected}",
                        rule.path(),
                        quoted(found)
                    ),
                });
            }
            if failed.len() > LISTED {
                text.push_str(&format!("; and {} more", failed.len() - LISTED));
            }
            text
        }
    };
    Some(details(
        POLICY_NOT_MET_CODE,
        "policy",
        POLICY_NOT_MET,
        &description,
    ))
}

/// A value as compact JSON, cut at [`QUOTED`] characters.
fn quoted(value: &Value) -> String {
    let text = crate::json::write::to_string(value).unwrap_or_default();
    match text.char_indices().nth(QUOTED) {
        Some((cut, _)) => format!("{}…", text.get(..cut).unwrap_or_default()),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn policy(detached: Value) -> Policy {
        let text = json!({"version": "4.0", "authorization-rules": {
            "type": "JWT", "overall-claims": {}, "detached-claims": detached}});
        Policy::parse(serde_json::to_string(&text).unwrap_or_default().as_bytes())
            .unwrap_or_else(|e| panic!("{e}"))
    }

    fn claims(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn the_description_lists_eight_rules_and_counts_the_rest() {
        let rules: Map<String, Value> = (0..11)
            .map(|i| (alloc::format!("r{i}"), json!(i)))
            .collect();
        let details = policy_failure(
            &policy(Value::Object(rules)),
            ResultFormat::Detached,
            &claims(json!({"r0": 0, "r1": "one"})),
        )
        .unwrap_or_else(|| panic!("the policy passed"));
        assert_eq!(details.code, POLICY_NOT_MET_CODE);
        assert!(details.description.starts_with(
            "the relying-party policy is not met: /r1 is \"one\", expected 1; /r2 missing"
        ));
        assert!(
            details.description.ends_with("; and 2 more"),
            "{}",
            details.description
        );
    }

    #[test]
    fn long_values_are_cut_and_a_met_policy_gives_nothing() {
        let long = "ab".repeat(100);
        let details = policy_failure(
            &policy(json!({"x": "short"})),
            ResultFormat::Detached,
            &claims(json!({ "x": long })),
        )
        .unwrap_or_else(|| panic!("the policy passed"));
        let quoted = alloc::format!("\"{}…", long.get(..63).unwrap_or_default());
        assert!(
            details.description.contains(&quoted),
            "{}",
            details.description
        );
        let met = policy_failure(
            &policy(json!({"x": "short"})),
            ResultFormat::Detached,
            &claims(json!({"x": "short", "y": 1})),
        );
        assert_eq!(met, None);
        let v1 = policy_failure(
            &policy(json!({"x": "short"})),
            ResultFormat::V1,
            &claims(json!({"x": "short"})),
        );
        assert!(v1.is_some_and(|d| d.description.contains("does not apply")));
    }
}
