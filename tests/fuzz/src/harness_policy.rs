//! Fuzz target body for relying-party policies: a hostile policy document (NVIDIA's JSON
//! format), parsed under its budgets and applied to a recorded real result. Part of
//! `harness.rs`.

use std::sync::OnceLock;

use base64::Engine;
use edgeattest::policy::{appraise, Policy, PolicyError, PolicyVersion, MAX_RULES};
use edgeattest::token::Signers;
use edgeattest::token::{
    verify_attestation_result, Jwks, VerifiedAttestationResult, VerifyOptions,
};
use edgeattest::UnixTime;

use super::{check, NRAS_JWKS};

/// The recorded 8-GPU NRAS exchange (detached, claims 2.0); its JWKS is [`NRAS_JWKS`].
const RESPONSE: &[u8] =
    include_bytes!("../../fixtures/nvidia/nras/teep/v3_8gpu_success_20260629_response.json");

/// The recorded result, verified once, at the time its overall token was issued.
fn recorded() -> &'static VerifiedAttestationResult {
    static RESULT: OnceLock<VerifiedAttestationResult> = OnceLock::new();
    RESULT.get_or_init(|| {
        let document = edgeattest::json::parse(RESPONSE).expect("recorded response");
        let overall = document[0][1].as_str().expect("overall token");
        let payload = overall.split('.').nth(1).expect("payload");
        let payload = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .expect("base64url payload");
        let iat = edgeattest::json::parse(&payload).expect("claims")["iat"]
            .as_u64()
            .expect("iat");
        let jwks = Jwks::parse(NRAS_JWKS.as_bytes()).expect("nras jwks");
        verify_attestation_result(
            RESPONSE,
            &jwks,
            &VerifyOptions::new().signers(Signers::Any),
            UnixTime::from_secs(iat).unwrap(),
        )
        .expect("the recorded result verifies")
    })
}

/// `policy_json`: a policy document. Whatever it is, it is refused with a code or it
/// decides: a 1.0 policy (for the V1 single token) is refused for this detached result, a
/// 2.0–4.0 one reports every leaf rule once per scope, and its decision is exactly "every
/// rule passed".
pub fn policy_json(data: &[u8]) {
    let parsed = Policy::parse(data);
    check(&parsed);
    let Ok(policy) = parsed else {
        return;
    };
    assert!(policy.rule_count() <= MAX_RULES);
    let result = recorded();
    match appraise(result, &policy) {
        Err(PolicyError::ResultFormat { version }) => {
            assert_eq!(version, PolicyVersion::V1, "only a 1.0 policy is for V1");
        }
        Err(other) => panic!("a parsed policy failed to apply: {other}"),
        Ok(decision) => {
            assert_ne!(policy.version(), PolicyVersion::V1);
            assert_eq!(decision.devices().len(), result.devices().len());
            for device in decision.devices() {
                assert_eq!(
                    decision.overall().len() + device.rules().len(),
                    policy.rule_count(),
                    "every leaf rule is reported once per token"
                );
                assert_eq!(device.passed(), device.rules().iter().all(|r| r.passed()));
                for rule in device.rules().iter().chain(decision.overall()) {
                    assert!(rule.path().starts_with('/'), "{}", rule.path());
                    assert_eq!(
                        rule.found().is_none(),
                        rule.status() == edgeattest::policy::RuleStatus::Missing
                    );
                }
            }
            let all = decision.overall().iter().all(|r| r.passed())
                && decision.devices().iter().all(|d| d.passed());
            assert_eq!(decision.passed(), all && !decision.devices().is_empty());
        }
    }
}
