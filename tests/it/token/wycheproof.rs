//! Wycheproof vectors through the token layer: every ECDSA P-384/SHA-384 vector (P1363 and
//! DER files) through the software verifier and the JWS signature rules, the JWS and JWK
//! files' generic rules, and the P-384 WebCrypto JWKs for on-curve checks.
//!
//! Shared with the wasm suites (`tests/wasm_node.rs`, `tests/wasm_browser.rs`), which include
//! this file as a module: `#[test]` is wasm-bindgen-test's there; the same vectors go through
//! WebCrypto in `tests/common/wasm_webcrypto.rs`.

// Crate-level here; a wasm suite that includes this file uses its own (`crate::`).
#[path = "../../common/fixture_files.rs"]
mod fixture_files;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use edgeattest::crypto::{verify_p384_sha384, PublicKey, SignatureError, SigningKey};
use edgeattest::token::Signers;
use edgeattest::token::{verify_jwt, Jwks, JwksKey, TokenError, VerifyOptions};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::Value;

/// The order of the P-384 group.
const N: &str = "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973";

fn vectors(name: &str) -> Value {
    serde_json::from_slice(crate::fixture_files::bytes(&format!(
        "vectors/wycheproof/{name}"
    )))
    .unwrap()
}

fn hex_field(value: &Value) -> Vec<u8> {
    hex::decode(value.as_str().unwrap()).unwrap()
}

/// Whether a raw signature is 96 bytes with r and s in [1, n−1], decided here without the
/// crate under test.
fn in_range(sig: &[u8]) -> bool {
    let n = hex::decode(N).unwrap();
    sig.len() == 96
        && sig
            .chunks(48)
            .all(|half| half.iter().any(|b| *b != 0) && half < n.as_slice())
}

fn jws_with_signature(sig: &[u8]) -> String {
    format!(
        "{}.{}.{}",
        URL_SAFE_NO_PAD.encode(br#"{"alg":"ES384"}"#),
        URL_SAFE_NO_PAD.encode(b"{}"),
        URL_SAFE_NO_PAD.encode(sig)
    )
}

#[test]
fn p1363_vectors_through_the_software_verifier_and_the_jws_rules() {
    let file = vectors("ecdsa_secp384r1_sha384_p1363_test.json");
    let (mut valid, mut invalid, mut high_s) = (0, 0, 0);
    let n = hex::decode(N).unwrap();
    for group in file["testGroups"].as_array().unwrap() {
        let sec1 = hex_field(&group["publicKey"]["uncompressed"]);
        let key = PublicKey::from_sec1(&sec1).unwrap();
        // The group's JWK and SPKI PEM import to the same key.
        if let Some(jwk) = group.get("publicKeyJwk") {
            let imported = PublicKey::from_jwk(jwk.as_object().unwrap()).unwrap();
            assert_eq!(imported, key);
            assert_eq!(imported.to_jwk(None).x, jwk["x"].as_str().unwrap());
        }
        assert_eq!(
            PublicKey::from_spki_pem(group["publicKeyPem"].as_str().unwrap()).unwrap(),
            key
        );
        let jwks = Jwks::new(vec![JwksKey::new(None, key)]).unwrap();
        for test in group["tests"].as_array().unwrap() {
            let id = &test["tcId"];
            let msg = hex_field(&test["msg"]);
            let sig = hex_field(&test["sig"]);
            let expected_valid = test["result"] == "valid";
            let result = verify_p384_sha384(&sec1, &msg, &sig);
            assert_eq!(result.is_ok(), expected_valid, "tcId {id}");
            assert_eq!(
                key.signature_check(&msg, &sig).verify().is_ok(),
                expected_valid
            );
            if expected_valid {
                valid += 1;
                // s > n/2: high S is valid and accepted.
                let s = &sig[48..];
                let half_n: Vec<u8> = {
                    let mut carry = 0u16;
                    n.iter()
                        .map(|b| {
                            let v = (carry << 8) | u16::from(*b);
                            carry = v & 1;
                            (v >> 1) as u8
                        })
                        .collect()
                };
                if s > half_n.as_slice() {
                    high_s += 1;
                }
            } else {
                invalid += 1;
                assert_eq!(result, Err(SignatureError::Invalid), "tcId {id}");
            }
            // As a JWS signature over another message: malformed when not 96 bytes in
            // range, otherwise a plain verification failure — never accepted.
            let err = verify_jwt(
                &jws_with_signature(&sig),
                &jwks,
                &VerifyOptions::new().signers(Signers::Any),
                UnixTime::from_secs(0).unwrap(),
            )
            .unwrap_err();
            let expected = if in_range(&sig) {
                TokenError::SignatureVerificationFailed
            } else {
                TokenError::SignatureMalformed
            };
            assert_eq!(err, expected, "tcId {id}");
        }
    }
    assert_eq!((valid, invalid), (193, 87));
    assert_eq!(high_s, 88);
}

#[test]
fn der_vectors_are_refused_by_the_jws_path_and_agree_once_converted() {
    let file = vectors("ecdsa_secp384r1_sha384_test.json");
    let (mut valid, mut total) = (0, 0);
    for group in file["testGroups"].as_array().unwrap() {
        let sec1 = hex_field(&group["publicKey"]["uncompressed"]);
        let key = PublicKey::from_sec1(&sec1).unwrap();
        assert_eq!(
            PublicKey::from_spki_der(&hex_field(&group["publicKeyDer"])).unwrap(),
            key
        );
        let jwks = Jwks::new(vec![JwksKey::new(None, key)]).unwrap();
        for test in group["tests"].as_array().unwrap() {
            total += 1;
            let id = &test["tcId"];
            let msg = hex_field(&test["msg"]);
            let der = hex_field(&test["sig"]);
            // A DER signature is never an ES384 signature.
            assert!(verify_p384_sha384(&sec1, &msg, &der).is_err(), "tcId {id}");
            let err = verify_jwt(
                &jws_with_signature(&der),
                &jwks,
                &VerifyOptions::new().signers(Signers::Any),
                UnixTime::from_secs(0).unwrap(),
            )
            .unwrap_err();
            assert!(
                matches!(
                    err,
                    TokenError::SignatureMalformed | TokenError::SignatureVerificationFailed
                ),
                "tcId {id}: {err:?}"
            );
            // Strict DER decoding (p384's) then our raw verifier agrees with the verdict.
            let converted = p384::ecdsa::Signature::from_der(&der)
                .ok()
                .map(|sig| sig.to_bytes().to_vec());
            let ours = converted
                .as_ref()
                .is_some_and(|raw| verify_p384_sha384(&sec1, &msg, raw).is_ok());
            assert_eq!(ours, test["result"] == "valid", "tcId {id}");
            if ours {
                valid += 1;
            }
        }
    }
    assert_eq!((total, valid), (504, 194));
}

#[test]
fn jws_file_generic_rules() {
    let file = vectors("json_web_signature_test.json");
    let (mut total, mut unsecured) = (0, 0);
    for group in file["testGroups"].as_array().unwrap() {
        // None of the file's keys is P-384: they are dropped from the set.
        let jwks = match group.get("public") {
            Some(jwk) => Jwks::from_value(&serde_json::json!({ "keys": [jwk] })).unwrap(),
            None => Jwks::default(),
        };
        assert!(jwks.keys().is_empty());
        for test in group["tests"].as_array().unwrap() {
            total += 1;
            let id = &test["tcId"];
            let Some(jws) = test["jws"].as_str() else {
                continue;
            };
            let err = verify_jwt(
                jws,
                &jwks,
                &VerifyOptions::new().signers(Signers::Any),
                UnixTime::from_secs(0).unwrap(),
            )
            .unwrap_err();
            let flags = test["flags"].as_array().cloned().unwrap_or_default();
            if flags.iter().any(|f| f == "AlgIsNone") {
                assert_eq!(err, TokenError::Unsecured, "tcId {id}");
                unsecured += 1;
            } else {
                assert!(
                    matches!(
                        err.code(),
                        "ERR_JOSE_ALG_NOT_ALLOWED"
                            | "ERR_JWS_UNSECURED"
                            | "ERR_JWS_INVALID"
                            | "ERR_JWS_INVALID_BASE64"
                            | "ERR_JSON_SYNTAX"
                    ),
                    "tcId {id}: {err:?}"
                );
            }
        }
    }
    assert_eq!(total, 401);
    assert!(unsecured >= 2);
}

#[test]
fn jwk_file_key_set_rules() {
    let file = vectors("json_web_key_test.json");
    let mut checked = 0;
    for group in file["testGroups"].as_array().unwrap() {
        let comment = group["comment"].as_str().unwrap();
        for set in ["public", "private"] {
            let Some(keys) = group.get(set) else {
                continue;
            };
            checked += 1;
            let parsed = Jwks::from_value(keys);
            let has_private = keys["keys"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k.get("d").is_some() || k.get("k").is_some());
            match (comment, parsed) {
                // Private or secret material in a verification set: refused outright.
                (_, Err(TokenError::JwksInvalid { field })) if has_private => {
                    assert!(field.ends_with(".d") || field.ends_with(".k"), "{comment}");
                }
                // crv P-384 declared with P-256 coordinates.
                ("wrong_curve", Err(err)) => {
                    assert_eq!(err.code(), "ERR_JWK_INVALID", "{comment}");
                }
                (_, Ok(jwks)) => {
                    assert!(!has_private, "{comment}");
                    assert!(jwks.keys().is_empty(), "{comment}: no ES384 key");
                    for test in group["tests"].as_array().unwrap() {
                        let jws = test["jws"].as_str().unwrap();
                        assert!(verify_jwt(
                            jws,
                            &jwks,
                            &VerifyOptions::new().signers(Signers::Any),
                            UnixTime::from_secs(0).unwrap()
                        )
                        .is_err());
                    }
                }
                (_, Err(err)) => panic!("{comment}/{set}: {err:?}"),
            }
        }
    }
    assert!(checked >= 26);
    // DuplicateKid in a public P-384 set is refused as such.
    let a = SigningKey::generate(&[1u8; 48]).unwrap().public_key();
    let b = SigningKey::generate(&[2u8; 48]).unwrap().public_key();
    let set = serde_json::json!({"keys": [a.to_jwk(Some("k")).to_value(), b.to_jwk(Some("k")).to_value()]});
    assert_eq!(
        Jwks::from_value(&set),
        Err(TokenError::JwksInvalid {
            field: "keys[1].kid".into()
        })
    );
}

#[test]
fn webcrypto_jwks_on_curve_checks() {
    let file = vectors("ecdh_secp384r1_webcrypto_test.json");
    let (mut accepted, mut refused) = (0, 0);
    for group in file["testGroups"].as_array().unwrap() {
        for test in group["tests"].as_array().unwrap() {
            let id = &test["tcId"];
            let public = test["public"].as_object().unwrap();
            let result = PublicKey::from_jwk(public);
            if test["result"] == "valid" {
                result.unwrap_or_else(|e| panic!("tcId {id}: {e}"));
                accepted += 1;
            } else {
                let err = result.unwrap_err();
                assert!(
                    matches!(
                        err.code(),
                        "ERR_KEY_NOT_ON_CURVE" | "ERR_JWK_UNSUPPORTED" | "ERR_JWK_INVALID"
                    ),
                    "tcId {id}: {err:?}"
                );
                refused += 1;
            }
            // The private JWKs are consistent P-384 keys.
            let private = SigningKey::from_jwk(test["private"].as_object().unwrap()).unwrap();
            let again = SigningKey::from_jwk(private.to_jwk(None).to_value().as_object().unwrap());
            assert_eq!(again.unwrap(), private);
        }
    }
    assert_eq!((accepted, refused), (771, 23));
}
