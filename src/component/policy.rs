//! `edgeattest:verifier/policy`: NVIDIA's JSON relying-party policies ([`Policy::parse`])
//! appraised over an authentic result ([`crate::appraise`]).

use alloc::string::String;
use alloc::vec::Vec;

use super::exports::edgeattest::verifier::policy::{
    Guest, GuestPolicy, Policy as WitPolicy, PolicyDecision,
};
use super::exports::edgeattest::verifier::token::AttestationResultBorrow;
use super::token::Verified;
use super::{coded, json, Verifier, WitError};
use crate::policy::Policy;

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
        let decision = crate::appraise(&result.result, &policy.0).map_err(|e| coded(&e))?;
        Ok(PolicyDecision {
            passed: decision.passed(),
            decision: json(&decision)?,
        })
    }
}
