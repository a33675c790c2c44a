//! Attacks on ES384 JWS/JWT verification, each refused with its own code (the claim checks
//! at their boundaries are `claim_boundaries.rs`).
//!
//! Shared with the wasm suites (`tests/wasm_node.rs`, `tests/wasm_browser.rs`), which include
//! this file as a module: `#[test]` is wasm-bindgen-test's there.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use edgeattest::crypto::SigningKey;
use edgeattest::token::Signers;
use edgeattest::token::{
    sign_jwt, verify_jwt, Jwks, JwksKey, TokenError, VerifyOptions, MAX_TOKEN_BYTES,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::json;
use sha2::{Digest, Sha384};

use super::jwt_helpers::{b64, good_claims, jwks, key, raw, KID, NOW};

fn verify(token: &str) -> Result<(), TokenError> {
    verify_jwt(
        token,
        &jwks(),
        &VerifyOptions::new().signers(Signers::Any),
        UnixTime::from_secs(NOW).unwrap(),
    )
    .map(|_| ())
}

fn code(result: Result<(), TokenError>) -> &'static str {
    result.unwrap_err().code()
}

fn hmac_sha384(key: &[u8], message: &[u8]) -> Vec<u8> {
    let mut block = [0u8; 128];
    if key.len() > 128 {
        block[..48].copy_from_slice(&Sha384::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let inner: Vec<u8> = block.iter().map(|b| b ^ 0x36).collect();
    let outer: Vec<u8> = block.iter().map(|b| b ^ 0x5c).collect();
    let inner_hash = Sha384::new()
        .chain_update(&inner)
        .chain_update(message)
        .finalize();
    Sha384::new()
        .chain_update(&outer)
        .chain_update(inner_hash)
        .finalize()
        .to_vec()
}

#[test]
fn a_good_token_verifies() {
    let token = sign_jwt(&good_claims(), &key(), KID).unwrap();
    let jwt = verify_jwt(
        &token,
        &jwks(),
        &VerifyOptions::new().signers(Signers::Any),
        UnixTime::from_secs(NOW).unwrap(),
    )
    .unwrap();
    assert_eq!(jwt.kid(), Some(KID));
    assert_eq!(jwt.claim("eat_nonce").unwrap(), "abc");
    assert_eq!(jwt.header().len(), 2);
}

#[test]
fn alg_none_is_refused() {
    for alg in ["none", "NONE", "None"] {
        let header = format!(r#"{{"kid":"{KID}","alg":"{alg}"}}"#);
        let token = format!("{}.{}.", b64(header.as_bytes()), b64(b"{}"));
        assert_eq!(verify(&token), Err(TokenError::Unsecured), "{alg}");
        assert_eq!(code(verify(&token)), "ERR_JWS_UNSECURED");
    }
}

#[test]
fn hs384_keyed_with_the_public_key_is_refused() {
    let public_pem = key().public_key().to_spki_pem();
    let jwk_text = serde_json::to_vec(&key().public_key().to_jwk(Some(KID))).unwrap();
    for secret in [
        public_pem.as_bytes(),
        jwk_text.as_slice(),
        &key().public_key().to_sec1(),
    ] {
        let input = format!(
            "{}.{}",
            b64(format!(r#"{{"kid":"{KID}","alg":"HS384"}}"#).as_bytes()),
            b64(good_claims().to_string().as_bytes())
        );
        let token = format!("{input}.{}", b64(&hmac_sha384(secret, input.as_bytes())));
        assert_eq!(
            verify(&token),
            Err(TokenError::AlgorithmNotAllowed {
                alg: "HS384".into()
            })
        );
        assert_eq!(code(verify(&token)), "ERR_JOSE_ALG_NOT_ALLOWED");
    }
    for alg in ["ES256", "ES512", "RS384", "PS384", "es384", ""] {
        let token = raw(&format!(r#"{{"kid":"{KID}","alg":"{alg}"}}"#), "{}");
        assert_eq!(code(verify(&token)), "ERR_JOSE_ALG_NOT_ALLOWED", "{alg:?}");
    }
    let token = raw(&format!(r#"{{"kid":"{KID}"}}"#), "{}");
    assert_eq!(code(verify(&token)), "ERR_JWS_INVALID");
}

#[test]
fn out_of_range_and_der_signatures_are_malformed() {
    let n = hex::decode("ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973").unwrap();
    let good = sign_jwt(&good_claims(), &key(), KID).unwrap();
    let input = good.rsplit_once('.').unwrap().0.to_owned();
    let sig = URL_SAFE_NO_PAD
        .decode(good.rsplit_once('.').unwrap().1)
        .unwrap();
    let (r, s) = sig.split_at(48);
    let zero = [0u8; 48];
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("r = s = 0", [zero, zero].concat()),
        ("r = 0", [&zero[..], s].concat()),
        ("s = 0", [r, &zero[..]].concat()),
        ("r = n", [&n[..], s].concat()),
        ("s = n", [r, &n[..]].concat()),
        ("s = 2^384-1", [r, &[0xff; 48][..]].concat()),
        (
            "DER",
            p384::ecdsa::Signature::from_slice(&sig)
                .unwrap()
                .to_der()
                .as_bytes()
                .to_vec(),
        ),
        ("short", sig[..95].to_vec()),
        ("long", [&sig[..], &[0]].concat()),
        ("empty", Vec::new()),
    ];
    for (name, bad) in cases {
        let token = format!("{input}.{}", b64(&bad));
        assert_eq!(
            verify(&token),
            Err(TokenError::SignatureMalformed),
            "{name}"
        );
        assert_eq!(code(verify(&token)), "ERR_JWS_SIGNATURE_MALFORMED");
    }
}

#[test]
fn high_s_signatures_are_accepted() {
    use p384::elliptic_curve::scalar::IsHigh;
    let good = sign_jwt(&good_claims(), &key(), KID).unwrap();
    let (input, sig) = good.rsplit_once('.').unwrap();
    let sig = p384::ecdsa::Signature::from_slice(&URL_SAFE_NO_PAD.decode(sig).unwrap()).unwrap();
    assert!(!bool::from(sig.s().is_high()), "we mint low S");
    let high =
        p384::ecdsa::Signature::from_scalars(sig.r().to_bytes(), (-*sig.s()).to_bytes()).unwrap();
    assert!(bool::from(high.s().is_high()));
    let token = format!("{input}.{}", b64(&high.to_bytes()));
    assert_eq!(verify(&token), Ok(()));
}

#[test]
fn tampering_fails_verification() {
    let good = sign_jwt(&good_claims(), &key(), KID).unwrap();
    let parts: Vec<&str> = good.split('.').collect();
    let other = b64(json!({"iss": "https://evil.example", "exp": NOW + 3600})
        .to_string()
        .as_bytes());
    let token = format!("{}.{}.{}", parts[0], other, parts[2]);
    assert_eq!(verify(&token), Err(TokenError::SignatureVerificationFailed));
    assert_eq!(
        code(verify(&token)),
        "ERR_JWS_SIGNATURE_VERIFICATION_FAILED"
    );
    // A token of another key with our kid.
    let stranger = SigningKey::generate(&[0x43; 48]).unwrap();
    let token = sign_jwt(&good_claims(), &stranger, KID).unwrap();
    assert_eq!(verify(&token), Err(TokenError::SignatureVerificationFailed));
}

#[test]
fn unknown_or_ambiguous_kid_is_refused() {
    let token = sign_jwt(&good_claims(), &key(), "other-kid").unwrap();
    assert_eq!(
        verify(&token),
        Err(TokenError::NoMatchingKey {
            kid: Some("other-kid".into())
        })
    );
    assert_eq!(code(verify(&token)), "ERR_JWKS_NO_MATCHING_KEY");
    let no_kid = raw(r#"{"alg":"ES384"}"#, &good_claims().to_string());
    assert_eq!(verify(&no_kid), Ok(()), "a one-key set needs no kid");
    let two = Jwks::new(vec![
        JwksKey::new(Some(KID.into()), key().public_key()),
        JwksKey::new(
            Some("second".into()),
            SigningKey::generate(&[9; 48]).unwrap().public_key(),
        ),
    ])
    .unwrap();
    let err = verify_jwt(
        &no_kid,
        &two,
        &VerifyOptions::new().signers(Signers::Any),
        UnixTime::from_secs(NOW).unwrap(),
    )
    .unwrap_err();
    assert_eq!(err.code(), "ERR_JWKS_MULTIPLE_MATCHING_KEYS");
    let err = verify_jwt(
        &no_kid,
        &Jwks::default(),
        &VerifyOptions::new().signers(Signers::Any),
        UnixTime::from_secs(NOW).unwrap(),
    )
    .unwrap_err();
    assert_eq!(err.code(), "ERR_JWKS_NO_MATCHING_KEY");
    let numeric = raw(r#"{"kid":7,"alg":"ES384"}"#, "{}");
    assert_eq!(code(verify(&numeric)), "ERR_JWS_INVALID");
}

#[test]
fn crit_is_refused_unless_understood() {
    let claims = good_claims().to_string();
    let unknown = raw(
        &format!(r#"{{"kid":"{KID}","alg":"ES384","crit":["x-ext"],"x-ext":1}}"#),
        &claims,
    );
    assert_eq!(
        verify(&unknown),
        Err(TokenError::CritUnsupported {
            name: "x-ext".into()
        })
    );
    assert_eq!(code(verify(&unknown)), "ERR_JWS_CRIT_UNSUPPORTED");
    let understood = VerifyOptions::new()
        .signers(Signers::Any)
        .understand_crit("x-ext");
    assert!(verify_jwt(
        &unknown,
        &jwks(),
        &understood,
        UnixTime::from_secs(NOW).unwrap()
    )
    .is_ok());
    // Understood but absent from the header.
    let absent = raw(
        &format!(r#"{{"kid":"{KID}","alg":"ES384","crit":["x-ext"]}}"#),
        &claims,
    );
    assert_eq!(
        verify_jwt(
            &absent,
            &jwks(),
            &understood,
            UnixTime::from_secs(NOW).unwrap()
        )
        .unwrap_err()
        .code(),
        "ERR_JWS_CRIT_UNSUPPORTED"
    );
    // b64 is not understood by default either.
    let b64_crit = raw(
        &format!(r#"{{"kid":"{KID}","alg":"ES384","crit":["b64"],"b64":false}}"#),
        &claims,
    );
    assert_eq!(code(verify(&b64_crit)), "ERR_JWS_CRIT_UNSUPPORTED");
    for crit in [
        r#"[]"#,
        r#""x""#,
        r#"[""]"#,
        r#"["alg"]"#,
        r#"["x","x"]"#,
        r#"[1]"#,
    ] {
        let token = raw(
            &format!(r#"{{"kid":"{KID}","alg":"ES384","crit":{crit},"x":1}}"#),
            &claims,
        );
        assert_eq!(
            verify_jwt(
                &token,
                &jwks(),
                &VerifyOptions::new()
                    .signers(Signers::Any)
                    .understand_crit("x"),
                UnixTime::from_secs(NOW).unwrap()
            ),
            Err(TokenError::Malformed {
                field: "header.crit"
            }),
            "{crit}"
        );
    }
}

#[test]
fn duplicate_members_are_refused() {
    let header = raw(
        &format!(r#"{{"kid":"{KID}","alg":"ES384","alg":"ES384"}}"#),
        "{}",
    );
    let err = verify(&header).unwrap_err();
    assert_eq!(
        (err.code(), err.field()),
        ("ERR_JSON_DUPLICATE_MEMBER", Some("header"))
    );
    let claims = raw(
        &format!(r#"{{"kid":"{KID}","alg":"ES384"}}"#),
        r#"{"iss":"a","exp":1,"exp":99999999999}"#,
    );
    let err = verify(&claims).unwrap_err();
    assert_eq!(
        (err.code(), err.field()),
        ("ERR_JSON_DUPLICATE_MEMBER", Some("claims"))
    );
    let kid_twice = raw(
        &format!(r#"{{"kid":"{KID}","kid":"other","alg":"ES384"}}"#),
        "{}",
    );
    assert_eq!(code(verify(&kid_twice)), "ERR_JSON_DUPLICATE_MEMBER");
}

#[test]
fn oversize_tokens_are_refused_before_decoding() {
    let padding = "x".repeat(MAX_TOKEN_BYTES);
    let token = sign_jwt(&json!({ "pad": padding }), &key(), KID).unwrap();
    let err = verify(&token).unwrap_err();
    assert_eq!(
        (err.code(), err.field()),
        ("ERR_JWS_TOO_LARGE", Some("token"))
    );
    // Just below the cap is fine.
    let fits = sign_jwt(
        &json!({ "pad": "x".repeat(MAX_TOKEN_BYTES / 2) }),
        &key(),
        KID,
    )
    .unwrap();
    assert_eq!(verify(&fits), Ok(()));
    let long_header = format!("{}.e30.", "e".repeat(5000));
    assert_eq!(code(verify(&long_header)), "ERR_JWS_TOO_LARGE");
    let dots = ".".repeat(MAX_TOKEN_BYTES - 1);
    assert_eq!(code(verify(&dots)), "ERR_JWS_INVALID");
}

#[test]
fn bad_base64_is_refused() {
    let good = sign_jwt(&good_claims(), &key(), KID).unwrap();
    let parts: Vec<&str> = good.split('.').collect();
    let cases = [
        (format!("{}=.{}.{}", parts[0], parts[1], parts[2]), "header"),
        (
            format!("{}.{}=.{}", parts[0], parts[1], parts[2]),
            "payload",
        ),
        (
            format!("{}.{}.{}==", parts[0], parts[1], parts[2]),
            "signature",
        ),
        (
            format!("{}.{}+.{}", parts[0], parts[1], parts[2]),
            "payload",
        ),
        (
            format!(
                "{}.{}.{}",
                parts[0],
                parts[1],
                parts[2].replace('-', "+").replace('_', "/")
            ),
            "signature",
        ),
        (format!("{} .{}.{}", parts[0], parts[1], parts[2]), "header"),
    ];
    for (token, part) in cases {
        if token == good {
            continue;
        }
        let err = verify(&token).unwrap_err();
        assert_eq!(
            (err.code(), err.field()),
            ("ERR_JWS_INVALID_BASE64", Some(part)),
            "{token}"
        );
    }
    for token in ["", "a", "a.b", "a.b.c.d", "..", "..."] {
        assert!(verify(token).is_err(), "{token:?}");
    }
    assert_eq!(code(verify("a.b.c.d")), "ERR_JWS_INVALID");
}

#[test]
fn non_object_payloads_and_b64_false_are_not_jwts() {
    let array = raw(&format!(r#"{{"kid":"{KID}","alg":"ES384"}}"#), "[1,2]");
    assert_eq!(code(verify(&array)), "ERR_JWT_INVALID");
    let b64_false = raw(
        &format!(r#"{{"kid":"{KID}","alg":"ES384","b64":false}}"#),
        "{}",
    );
    assert_eq!(code(verify(&b64_false)), "ERR_JWT_INVALID");
    let header_array = raw("[]", "{}");
    assert_eq!(code(verify(&header_array)), "ERR_JWS_INVALID");
    assert!(sign_jwt(&json!([1]), &key(), KID).is_err());
}

#[test]
fn signature_errors_come_before_claim_errors() {
    // An expired token with a bad signature reports the signature, as jose does.
    let stranger = SigningKey::generate(&[0x44; 48]).unwrap();
    let token = sign_jwt(&json!({"exp": 1}), &stranger, KID).unwrap();
    assert_eq!(verify(&token), Err(TokenError::SignatureVerificationFailed));
}
