//! `edgeattest:verifier/policy`: NVIDIA's JSON relying-party policies ([`Policy::parse`])
//! appraised over an authentic result ([`crate::policy::appraise`]).

use alloc::string::String;
use alloc::vec::Vec;

use super::exports::edgeattest::verifier::policy::{
    DeviceDecision, Guest, GuestPolicy, Policy as WitPolicy, PolicyDecision,
    RuleOutcome as WitRule, RuleStatus as WitStatus,
};
use super::exports::edgeattest::verifier::token::AttestationResultBorrow;
use super::token_values::Verified;
use super::{coded, json, Verifier, WitError};
use crate::policy::{Policy, RuleOutcome, RuleStatus};

/// The `policy` resource: a parsed and checked policy.
pub(super) struct Parsed(Policy);

impl GuestPolicy for Parsed {
    fn parse(text: Vec<u8>) -> Result<WitPolicy, WitError> {
        let policy = Policy::parse(&text).map_err(|e| coded(&e))?;
        Ok(WitPolicy::new(Parsed(policy)))
    }

    fn version(&self) -> String {
        self.0.version().as_str().into()
    }
}

impl Guest for Verifier {
    type Policy = Parsed;

    fn appraise(
        result: AttestationResultBorrow<'_>,
        policy: super::exports::edgeattest::verifier::policy::PolicyBorrow<'_>,
    ) -> Result<PolicyDecision, WitError> {
        let result = result.get::<Verified>();
        let policy = policy.get::<Parsed>();
        let decision = crate::policy::appraise(&result.result, &policy.0).map_err(|e| coded(&e))?;
        Ok(PolicyDecision {
            passed: decision.passed(),
            version: decision.version().as_str().into(),
            overall: rules(decision.overall())?,
            devices: decision
                .devices()
                .iter()
                .map(|device| {
                    Ok(DeviceDecision {
                        label: device.label().into(),
                        passed: device.passed(),
                        rules: rules(device.rules())?,
                    })
                })
                .collect::<Result<_, WitError>>()?,
        })
    }
}

/// Each rule's outcome; `expected` and `found` stay the policy's and the token's JSON.
fn rules(outcomes: &[RuleOutcome]) -> Result<Vec<WitRule>, WitError> {
    outcomes
        .iter()
        .map(|rule| {
            Ok(WitRule {
                path: rule.path().into(),
                expected: json(rule.expected())?,
                found: rule.found().map(json).transpose()?,
                status: match rule.status() {
                    RuleStatus::Pass => WitStatus::Pass,
                    RuleStatus::Mismatch => WitStatus::Mismatch,
                    RuleStatus::Missing => WitStatus::Missing,
                },
            })
        })
        .collect()
}
