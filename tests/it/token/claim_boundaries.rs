//! The claim checks of ES384 JWT verification at their boundaries: times, issuer, subject,
//! nonce and `typ`, each failure with its claim and reason.
//!
//! Shared with the wasm suites (`tests/wasm_node.rs`, `tests/wasm_browser.rs`), which include
//! this file as a module: `#[test]` is wasm-bindgen-test's there.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use edgeattest::token::Signers;
use edgeattest::token::{sign_jwt, verify_jwt, ClaimReason, TokenError, VerifyOptions};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::json;

use super::jwt_helpers::{good_claims, jwks, key, raw, KID, NOW};

fn check(claims: serde_json::Value, options: &VerifyOptions, now: u64) -> Result<(), TokenError> {
    let token = sign_jwt(&claims, &key(), KID).unwrap();
    verify_jwt(&token, &jwks(), options, UnixTime::from_secs(now).unwrap()).map(|_| ())
}

fn claim_failed(claim: &str, reason: ClaimReason) -> Result<(), TokenError> {
    Err(TokenError::ClaimValidation {
        claim: claim.into(),
        reason,
    })
}

#[test]
fn time_claims_at_their_boundaries() {
    let none = VerifyOptions::new().signers(Signers::Any);
    let exp = json!({ "exp": NOW });
    assert_eq!(check(exp.clone(), &none, NOW - 1), Ok(()));
    assert_eq!(
        check(exp.clone(), &none, NOW),
        Err(TokenError::Expired { claim: "exp" })
    );
    assert_eq!(
        check(exp.clone(), &none.clone().leeway(10), NOW + 9),
        Ok(())
    );
    assert_eq!(
        check(exp, &none.clone().leeway(10), NOW + 10),
        Err(TokenError::Expired { claim: "exp" })
    );
    let nbf = json!({ "nbf": NOW });
    assert_eq!(check(nbf.clone(), &none, NOW), Ok(()));
    assert_eq!(
        check(nbf.clone(), &none, NOW - 1),
        claim_failed("nbf", ClaimReason::CheckFailed)
    );
    assert_eq!(check(nbf, &none.clone().leeway(1), NOW - 1), Ok(()));
    let iat = json!({ "iat": NOW });
    assert_eq!(
        check(iat.clone(), &none, NOW - 1),
        claim_failed("iat", ClaimReason::CheckFailed)
    );
    let aged = none.clone().max_age(300);
    assert_eq!(check(iat.clone(), &aged, NOW + 300), Ok(()));
    assert_eq!(
        check(iat, &aged, NOW + 301),
        Err(TokenError::Expired { claim: "iat" })
    );
    assert_eq!(
        check(json!({}), &aged, NOW),
        claim_failed("iat", ClaimReason::Missing)
    );
    assert_eq!(
        check(json!({ "exp": "soon" }), &none, NOW),
        claim_failed("exp", ClaimReason::Invalid)
    );
    assert_eq!(
        check(json!({ "exp": (NOW as f64) + 0.5 }), &none, NOW),
        Ok(())
    );
    assert_eq!(
        check(json!({ "exp": (NOW as f64) - 0.5 }), &none, NOW),
        Err(TokenError::Expired { claim: "exp" })
    );
    assert_eq!(
        check(json!({ "nbf": (NOW as f64) + 0.5 }), &none, NOW),
        claim_failed("nbf", ClaimReason::CheckFailed)
    );
    assert_eq!(
        check(json!({ "iat": (NOW as f64) - 300.5 }), &aged, NOW),
        Err(TokenError::Expired { claim: "iat" })
    );
    assert_eq!(
        check(json!({ "iat": (NOW as f64) - 299.5 }), &aged, NOW),
        Ok(())
    );
    assert_eq!(
        check(json!({ "exp": -1 }), &none, NOW),
        Err(TokenError::Expired { claim: "exp" })
    );
    assert_eq!(check(json!({ "exp": u64::MAX }), &none, NOW), Ok(()));
}

#[test]
fn issuer_subject_nonce_required_and_typ() {
    let opts = VerifyOptions::new()
        .signers(Signers::Any)
        .issuer("https://a.example")
        .issuer("https://issuer.example");
    assert_eq!(check(good_claims(), &opts, NOW), Ok(()));
    assert_eq!(
        check(
            good_claims(),
            &VerifyOptions::new()
                .signers(Signers::Any)
                .issuer("https://a.example"),
            NOW
        ),
        claim_failed("iss", ClaimReason::CheckFailed)
    );
    assert_eq!(
        check(json!({}), &opts, NOW),
        claim_failed("iss", ClaimReason::Missing)
    );
    assert_eq!(
        check(
            json!({"sub": "x"}),
            &VerifyOptions::new().signers(Signers::Any).subject("y"),
            NOW
        ),
        claim_failed("sub", ClaimReason::CheckFailed)
    );

    let aud = VerifyOptions::new().signers(Signers::Any).audience("rp-1");
    assert_eq!(check(json!({"aud": "rp-1"}), &aud, NOW), Ok(()));
    assert_eq!(check(json!({"aud": ["x", "rp-1"]}), &aud, NOW), Ok(()));
    assert_eq!(
        check(json!({"aud": "rp-2"}), &aud, NOW),
        claim_failed("aud", ClaimReason::CheckFailed)
    );
    assert_eq!(
        check(json!({"aud": ["rp-2"]}), &aud, NOW),
        claim_failed("aud", ClaimReason::CheckFailed)
    );
    assert_eq!(
        check(json!({}), &aud, NOW),
        claim_failed("aud", ClaimReason::Missing)
    );
    assert_eq!(
        check(
            json!({"aud": "anything"}),
            &VerifyOptions::new().signers(Signers::Any),
            NOW
        ),
        Ok(())
    );

    let nonce = VerifyOptions::new().signers(Signers::Any).nonce("abc");
    assert_eq!(check(good_claims(), &nonce, NOW), Ok(()));
    assert_eq!(
        check(json!({"eat_nonce": ["x", "abc"]}), &nonce, NOW),
        Ok(())
    );
    let err = check(json!({"eat_nonce": "abd"}), &nonce, NOW).unwrap_err();
    assert_eq!(
        (err.code(), err.field()),
        ("ERR_EAT_NONCE_MISMATCH", Some("eat_nonce"))
    );
    assert_eq!(
        check(json!({"eat_nonce": ["x"]}), &nonce, NOW),
        Err(TokenError::NonceMismatch)
    );
    assert_eq!(
        check(json!({}), &nonce, NOW),
        claim_failed("eat_nonce", ClaimReason::Missing)
    );
    assert_eq!(
        check(json!({"eat_nonce": 5}), &nonce, NOW),
        claim_failed("eat_nonce", ClaimReason::Invalid)
    );

    let required = VerifyOptions::new()
        .signers(Signers::Any)
        .require("jti")
        .require("ueid");
    assert_eq!(
        check(json!({"jti": 1, "ueid": "u"}), &required, NOW),
        Ok(())
    );
    assert_eq!(
        check(json!({"jti": 1}), &required, NOW),
        claim_failed("ueid", ClaimReason::Missing)
    );

    let typ = VerifyOptions::new().signers(Signers::Any).typ("eat+jwt");
    let with_typ = raw(
        &format!(r#"{{"kid":"{KID}","alg":"ES384","typ":"application/EAT+JWT"}}"#),
        "{}",
    );
    assert!(verify_jwt(&with_typ, &jwks(), &typ, UnixTime::from_secs(NOW).unwrap()).is_ok());
    let without = sign_jwt(&json!({}), &key(), KID).unwrap();
    let err = verify_jwt(&without, &jwks(), &typ, UnixTime::from_secs(NOW).unwrap()).unwrap_err();
    assert_eq!(
        (err.code(), err.field()),
        ("ERR_JWT_CLAIM_VALIDATION_FAILED", Some("typ"))
    );
}
