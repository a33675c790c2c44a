//! Real attestation-service exchanges (TEEP recordings, API v3): every result verifies with
//! the JWKS fetched with it at its recorded time, and fails with the expiry code an hour
//! later; tampering of every kind is caught with its own code.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use edgeattest::token::{
    prepare_attestation_result, verify_attestation_result, verify_jwt, Jwks, JwksKey, ResultFormat,
    TokenError, VerifyOptions,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::Value;

use super::teep::{capture, claims as claims_of, Capture};

const ISSUER: &str = "https://nras.attestation.nvidia.com";
const CAPTURES: [&str; 3] = [
    "v3_1gpu_success_20260629",
    "v3_8gpu_success_20260629",
    "v3_8gpu_nonce_mismatch_20260520",
];

fn options(nonce: &str) -> VerifyOptions {
    let mut options = VerifyOptions::new().issuer(ISSUER).nonce(nonce);
    for claim in [
        "sub",
        "iat",
        "exp",
        "jti",
        "iss",
        "x-nvidia-ver",
        "x-nvidia-overall-att-result",
        "eat_nonce",
        "submods",
    ] {
        options = options.require(claim);
    }
    options
}

fn result_value(capture: &Capture) -> Value {
    serde_json::from_slice(&capture.response).unwrap()
}

fn code(result: Result<impl core::fmt::Debug, TokenError>) -> (&'static str, Option<String>) {
    let err = result.unwrap_err();
    (err.code(), err.field().map(str::to_owned))
}

#[test]
fn recorded_results_verify_at_their_time() {
    let expected_devices = [1, 8, 8];
    let expected_verdicts = [true, true, false];
    for ((name, devices), verdict) in CAPTURES.iter().zip(expected_devices).zip(expected_verdicts) {
        let c = capture(name);
        // The failed capture is refused by default (tests/it/token/appraisal.rs); read it here.
        let allowed = options(&c.nonce).allow_failed_result(true);
        let verified = verify_attestation_result(
            &c.response,
            &c.jwks,
            &allowed,
            UnixTime::from_secs(c.iat).unwrap(),
        )
        .unwrap();
        assert_eq!(verified.format(), ResultFormat::Detached);
        assert_eq!(verified.devices().len(), devices, "{name}");
        assert_eq!(verified.overall_result(), Some(verdict), "{name}");
        assert_eq!(
            verified
                .overall()
                .claim("eat_nonce")
                .and_then(Value::as_str),
            Some(c.nonce.as_str())
        );
        assert!(verified
            .overall()
            .kid()
            .unwrap()
            .starts_with("nv-eat-kid-prod-"));
        for device in verified.devices() {
            assert!(device.label().starts_with("GPU-"));
            assert_eq!(device.digest().len(), 64);
            if verdict {
                assert_eq!(
                    device.token().claim("eat_nonce").and_then(Value::as_str),
                    Some(c.nonce.as_str())
                );
            } else {
                // Failed devices carry error details and no nonce.
                let details = device.token().claim("x-nvidia-error-details").unwrap();
                assert_eq!(details["code"], 4010);
                assert!(device.token().claim("eat_nonce").is_none());
            }
        }
        // Last second of validity, with and without leeway.
        let exp = c.iat + 3600;
        assert!(verify_attestation_result(
            &c.response,
            &c.jwks,
            &allowed,
            UnixTime::from_secs(exp - 1).unwrap()
        )
        .is_ok());
        assert!(verify_attestation_result(
            &c.response,
            &c.jwks,
            &allowed.clone().leeway(60),
            UnixTime::from_secs(exp + 59).unwrap()
        )
        .is_ok());
    }
}

#[test]
fn recorded_results_expire_an_hour_later() {
    for name in CAPTURES {
        let c = capture(name);
        for later in [c.iat + 3600, c.iat + 3600 + 1, c.iat + 7200] {
            assert_eq!(
                code(verify_attestation_result(
                    &c.response,
                    &c.jwks,
                    &options(&c.nonce),
                    UnixTime::from_secs(later).unwrap()
                )),
                ("ERR_JWT_EXPIRED", Some("exp".into())),
                "{name} at {later}"
            );
        }
        // Before nbf: not yet valid.
        assert_eq!(
            code(verify_attestation_result(
                &c.response,
                &c.jwks,
                &options(&c.nonce),
                UnixTime::from_secs(c.iat - 1).unwrap()
            )),
            ("ERR_JWT_CLAIM_VALIDATION_FAILED", Some("iat".into()))
        );
    }
}

#[test]
fn each_device_token_verifies_alone() {
    let c = capture("v3_8gpu_success_20260629");
    let result = result_value(&c);
    for (label, token) in result[1].as_object().unwrap() {
        let jwt = verify_jwt(
            token.as_str().unwrap(),
            &c.jwks,
            &VerifyOptions::new()
                .issuer(ISSUER)
                .nonce(&c.nonce)
                .require("ueid"),
            UnixTime::from_secs(c.iat).unwrap(),
        )
        .unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!(jwt.claim("iss").unwrap(), ISSUER);
        assert_eq!(
            jwt.claim("x-nvidia-gpu-arch-check"),
            Some(&Value::Bool(true))
        );
    }
}

#[test]
fn wrong_nonce_issuer_and_jwks_are_refused() {
    let c = capture("v3_1gpu_success_20260629");
    let other_nonce = "00".repeat(32);
    assert_eq!(
        code(verify_attestation_result(
            &c.response,
            &c.jwks,
            &options(&other_nonce),
            UnixTime::from_secs(c.iat).unwrap()
        )),
        ("ERR_EAT_NONCE_MISMATCH", Some("eat_nonce".into()))
    );
    let staging = VerifyOptions::new().issuer("https://nras.attestation-stg.nvidia.com");
    assert_eq!(
        code(verify_attestation_result(
            &c.response,
            &c.jwks,
            &staging,
            UnixTime::from_secs(c.iat).unwrap()
        )),
        ("ERR_JWT_CLAIM_VALIDATION_FAILED", Some("iss".into()))
    );
    // The JWKS of May does not hold the June signing key.
    let may = capture("v3_8gpu_nonce_mismatch_20260520");
    assert_eq!(
        code(verify_attestation_result(
            &c.response,
            &may.jwks,
            &options(&c.nonce),
            UnixTime::from_secs(c.iat).unwrap()
        )),
        ("ERR_JWKS_NO_MATCHING_KEY", Some("kid".into()))
    );
}

#[test]
fn device_token_swapped_in_from_another_result_is_refused() {
    let one = capture("v3_1gpu_success_20260629");
    let eight = capture("v3_8gpu_success_20260629");
    let mut result = result_value(&one);
    let foreign = result_value(&eight)[1]["GPU-0"].clone();
    result[1]["GPU-0"] = foreign;
    let bytes = serde_json::to_vec(&result).unwrap();
    // The foreign token is genuine (same key, valid signature), only its digest differs.
    assert_eq!(
        code(verify_attestation_result(
            &bytes,
            &one.jwks,
            &options(&one.nonce),
            UnixTime::from_secs(one.iat).unwrap()
        )),
        ("ERR_EAT_DIGEST_MISMATCH", Some("GPU-0".into()))
    );
}

#[test]
fn tampered_submods_digest_breaks_the_overall_signature() {
    let c = capture("v3_1gpu_success_20260629");
    let mut result = result_value(&c);
    let overall = result[0][1].as_str().unwrap().to_owned();
    let mut claims = claims_of(&overall);
    let digest = claims["submods"]["GPU-0"][1][1]
        .as_str()
        .unwrap()
        .to_owned();
    let flipped = if digest.starts_with('0') { "1" } else { "0" };
    claims["submods"]["GPU-0"][1][1] = Value::String(format!("{flipped}{}", &digest[1..]));
    let parts: Vec<&str> = overall.split('.').collect();
    let forged = format!(
        "{}.{}.{}",
        parts[0],
        URL_SAFE_NO_PAD.encode(serde_json::to_vec(&claims).unwrap()),
        parts[2]
    );
    result[0][1] = Value::String(forged);
    let bytes = serde_json::to_vec(&result).unwrap();
    assert_eq!(
        code(verify_attestation_result(
            &bytes,
            &c.jwks,
            &options(&c.nonce),
            UnixTime::from_secs(c.iat).unwrap()
        )),
        (
            "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
            Some("signature".into())
        )
    );
}

#[test]
fn missing_and_extra_devices_are_refused() {
    let c = capture("v3_8gpu_success_20260629");
    let mut result = result_value(&c);
    result[1].as_object_mut().unwrap().shift_remove("GPU-3");
    let bytes = serde_json::to_vec(&result).unwrap();
    assert_eq!(
        code(verify_attestation_result(
            &bytes,
            &c.jwks,
            &options(&c.nonce),
            UnixTime::from_secs(c.iat).unwrap()
        )),
        ("ERR_EAT_DEVICE_MISSING", Some("GPU-3".into()))
    );

    let mut result = result_value(&c);
    let copy = result[1]["GPU-2"].clone();
    result[1]["GPU-8"] = copy;
    let bytes = serde_json::to_vec(&result).unwrap();
    assert_eq!(
        code(verify_attestation_result(
            &bytes,
            &c.jwks,
            &options(&c.nonce),
            UnixTime::from_secs(c.iat).unwrap()
        )),
        ("ERR_EAT_DEVICE_UNEXPECTED", Some("GPU-8".into()))
    );

    // Two labels swapped: each digest now names the other token.
    let mut result = result_value(&c);
    let (a, b) = (result[1]["GPU-1"].clone(), result[1]["GPU-2"].clone());
    result[1]["GPU-1"] = b;
    result[1]["GPU-2"] = a;
    let bytes = serde_json::to_vec(&result).unwrap();
    assert_eq!(
        code(verify_attestation_result(
            &bytes,
            &c.jwks,
            &options(&c.nonce),
            UnixTime::from_secs(c.iat).unwrap()
        ))
        .0,
        "ERR_EAT_DIGEST_MISMATCH"
    );
}

#[test]
fn two_phase_verdicts_are_attributed_to_their_token() {
    let c = capture("v3_8gpu_success_20260629");
    let prepared = prepare_attestation_result(
        &c.response,
        &c.jwks,
        &options(&c.nonce),
        UnixTime::from_secs(c.iat).unwrap(),
    )
    .unwrap();
    let checks = prepared.signature_checks();
    assert_eq!(checks.len(), 9);
    let verdicts: Vec<bool> = checks.iter().map(|check| check.verify().is_ok()).collect();
    assert!(verdicts.iter().all(|v| *v));
    for check in checks {
        assert_eq!(check.public_key_sec1.len(), 97);
        assert_eq!(check.signature.len(), 96);
    }
    assert!(prepared.clone().finish(&verdicts).is_ok());

    let result = result_value(&c);
    let third_label = result[1]
        .as_object()
        .unwrap()
        .keys()
        .nth(2)
        .unwrap()
        .clone();
    let mut one_bad = verdicts.clone();
    one_bad[3] = false;
    let err = prepared.clone().finish(&one_bad).unwrap_err();
    assert_eq!(err.code(), "ERR_JWS_SIGNATURE_VERIFICATION_FAILED");
    assert_eq!(err.field(), Some(third_label.as_str()));
    assert_eq!(err.innermost(), &TokenError::SignatureVerificationFailed);

    let mut overall_bad = verdicts.clone();
    overall_bad[0] = false;
    assert_eq!(
        prepared.clone().finish(&overall_bad),
        Err(TokenError::SignatureVerificationFailed)
    );
    assert_eq!(
        prepared.finish(&verdicts[..8]).unwrap_err().code(),
        "ERR_VERDICT_COUNT"
    );
}

#[test]
fn recorded_jwks_round_trips() {
    let text = super::teep::fixture("nras/teep/v3_1gpu_success_20260629_jwks.json");
    let jwks = Jwks::parse(&text).unwrap();
    let raw: Value = serde_json::from_slice(&text).unwrap();
    assert_eq!(jwks.keys().len(), raw["keys"].as_array().unwrap().len());
    // Our serialisation is the service's, member for member and in order.
    let ours: Value = serde_json::from_str(&jwks.to_json()).unwrap();
    assert_eq!(
        serde_json::to_string(&ours).unwrap(),
        serde_json::to_string(&raw).unwrap()
    );
    let kid = "nv-eat-kid-prod-20260628170000087-6f27a971-6e29-42d6-afb9-8e3fbb17fa25";
    assert_eq!(jwks.select(Some(kid)).unwrap().kid(), Some(kid));
    assert_eq!(jwks.select(Some(kid)).unwrap().x5c().unwrap().len(), 2);
    assert_eq!(
        jwks.select(None).unwrap_err(),
        TokenError::MultipleMatchingKeys
    );
}

#[test]
fn recorded_jwks_keys_are_their_x5c_leaf_keys() {
    for name in CAPTURES {
        let jwks = capture(name).jwks;
        assert!(jwks.keys().len() >= 32, "{name}");
        for key in jwks.keys() {
            assert_eq!(
                key.x5c_leaf_matches(),
                Ok(Some(true)),
                "{name} {:?}",
                key.kid()
            );
        }
    }
    // Another key's certificate does not match; a key without x5c says nothing.
    let jwks = capture(CAPTURES[0]).jwks;
    let (a, b) = (&jwks.keys()[0], &jwks.keys()[1]);
    let swapped = JwksKey::new(a.kid().map(str::to_owned), *a.public_key())
        .with_x5c(b.x5c().unwrap().to_vec());
    assert_eq!(swapped.x5c_leaf_matches(), Ok(Some(false)));
    assert_eq!(
        JwksKey::new(None, *a.public_key()).x5c_leaf_matches(),
        Ok(None)
    );
    let garbage = JwksKey::new(None, *a.public_key()).with_x5c(vec!["bm90IGEgY2VydA==".into()]);
    assert_eq!(
        garbage.x5c_leaf_matches().unwrap_err().code(),
        "ERR_JWKS_INVALID"
    );
}

#[test]
fn minted_header_matches_the_service_header() {
    let c = capture("v3_1gpu_success_20260629");
    let result = result_value(&c);
    let token = result[0][1].as_str().unwrap();
    let header = URL_SAFE_NO_PAD
        .decode(token.split('.').next().unwrap())
        .unwrap();
    let key = edgeattest::crypto::SigningKey::generate(&[5u8; 48]).unwrap();
    let kid = "nv-eat-kid-prod-20260628170000087-6f27a971-6e29-42d6-afb9-8e3fbb17fa25";
    let ours = edgeattest::token::sign_jwt(&serde_json::json!({"a": 1}), &key, kid).unwrap();
    let our_header = URL_SAFE_NO_PAD
        .decode(ours.split('.').next().unwrap())
        .unwrap();
    assert_eq!(our_header, header);
}
