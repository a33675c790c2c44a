//! Fuzz target body for Rego policies (feature `rego`): a hostile policy text applied, under
//! its budgets, to a result whose claims are fuzzed too (signed by the harness, so that the
//! policy's input takes any shape verification lets through). Part of `harness.rs`.

use edgeattest::policy::{appraise_rego, RegoPolicy, MAX_REGO_LINES};
use edgeattest::token::Signers;
use edgeattest::token::{create_detached_eat, sign_jwt, verify_attestation_result, VerifyOptions};
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};

use super::{check, fuzz_jwks, split, token_signing_key, FUZZ_KID, FUZZ_NONCE, NOW};

/// `claims` (an object, or none) over the harness's issuer, times and nonce (the claims win).
fn claims(bytes: &[u8]) -> Map<String, Value> {
    let mut all = json!({
        "iss": "https://edgeattest.invalid", "iat": NOW, "nbf": NOW, "exp": NOW + 600,
        "eat_nonce": FUZZ_NONCE,
    });
    let all_claims = all.as_object_mut().expect("object");
    if let Ok(Value::Object(fuzzed)) = serde_json::from_slice::<Value>(bytes) {
        all_claims.extend(fuzzed);
    }
    all_claims.clone()
}

/// `rego_policy`: `policy text SEP device claims SEP overall claims`. Parsing and applying
/// never panic, every refusal is coded, and a decision covers every device of the result.
pub fn rego_policy(data: &[u8]) {
    let parts = split(data, 3);
    let parsed = RegoPolicy::parse(parts[0]);
    check(&parsed);
    let Ok(policy) = parsed else {
        return;
    };
    assert!(parts[0].split(|b| *b == b'\n').count() <= MAX_REGO_LINES + 1);
    let key = token_signing_key();
    let Ok(device) = sign_jwt(&claims(parts[1]), &key, FUZZ_KID) else {
        return;
    };
    let devices = [("GPU-0".to_owned(), device)];
    let Ok(result) = create_detached_eat(&claims(parts[2]), &devices, &key, FUZZ_KID) else {
        return;
    };
    let options = VerifyOptions::new()
        .signers(Signers::Any)
        .nonce(FUZZ_NONCE)
        .allow_failed_result(true);
    let verified = verify_attestation_result(
        result.as_bytes(),
        &fuzz_jwks(),
        &options,
        UnixTime::from_secs(NOW).unwrap(),
    );
    check(&verified);
    let Ok(verified) = verified else {
        return;
    };
    let decision = appraise_rego(&verified, &policy);
    check(&decision);
    if let Ok(decision) = decision {
        assert_eq!(decision.devices().len(), verified.devices().len());
    }
}
