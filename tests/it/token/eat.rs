//! Detached EAT results minted here: shape, digests, round trips through the verifier, and
//! every way a result can be wrong.
//! Their device claims carry no certificate-chain claims, so the options allow unknown
//! revocation (the revocation rule is tested in `token::revocation_verdict`).
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use edgeattest::crypto::SigningKey;
use edgeattest::token::Signers;
use edgeattest::token::{
    assemble_detached_eat, create_detached_eat, create_v1_result, detached_eat_signing_input,
    prepare_attestation_result, sign_jwt, verify_attestation_result, AttestationResult, Jwks,
    JwksKey, ResultFormat, TokenError, VerifyOptions, MAX_DEVICES,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

const KID: &str = "nv-eat-kid-test-1";
const ISS: &str = "https://nras.example";
const NOW: u64 = 1_800_000_000;
const NONCE: &str = "931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb";

fn key() -> SigningKey {
    SigningKey::generate(&[0x24; 48]).unwrap()
}

fn jwks() -> Jwks {
    Jwks::new(vec![JwksKey::new(Some(KID.into()), key().public_key())]).unwrap()
}

fn options() -> VerifyOptions {
    VerifyOptions::new()
        .signers(Signers::Any)
        .allow_unknown_revocation(true)
        .issuer(ISS)
        .nonce(NONCE)
        .require("submods")
        .require("x-nvidia-overall-att-result")
}

fn device_claims(i: usize, nonce: &str) -> Value {
    json!({
        "iss": ISS, "iat": NOW, "nbf": NOW, "exp": NOW + 3600, "jti": format!("jti-{i}"),
        "eat_nonce": nonce, "measres": "success", "ueid": format!("{}", 1000 + i),
        "x-nvidia-gpu-arch-check": true,
    })
}

fn overall_claims(nonce: &str) -> Map<String, Value> {
    json!({
        "sub": "NVIDIA-PLATFORM-ATTESTATION", "x-nvidia-ver": "2.0", "nbf": NOW, "iss": ISS,
        "x-nvidia-overall-att-result": true, "eat_nonce": nonce, "exp": NOW + 3600, "iat": NOW,
        "jti": "overall",
    })
    .as_object()
    .unwrap()
    .clone()
}

fn devices(count: usize, nonce: &str) -> Vec<(String, String)> {
    (0..count)
        .map(|i| {
            (
                format!("GPU-{i}"),
                sign_jwt(&device_claims(i, nonce), &key(), KID).unwrap(),
            )
        })
        .collect()
}

fn mint(count: usize) -> String {
    create_detached_eat(&overall_claims(NONCE), &devices(count, NONCE), &key(), KID).unwrap()
}

fn claims_of(token: &str) -> Value {
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}

fn verify(result: &str) -> Result<(), TokenError> {
    verify_attestation_result(
        result.as_bytes(),
        &jwks(),
        &options(),
        UnixTime::from_secs(NOW).unwrap(),
    )
    .map(|_| ())
}

#[test]
fn minted_result_has_the_service_shape() {
    let text = mint(8);
    let value: Value = serde_json::from_str(&text).unwrap();
    let parts = value.as_array().unwrap();
    assert_eq!(parts.len(), 2);
    assert_eq!(parts[0][0], "JWT");
    let overall = parts[0][1].as_str().unwrap();
    let devices = parts[1].as_object().unwrap();
    assert_eq!(devices.len(), 8);
    let submods = claims_of(overall)["submods"].clone();
    for (label, token) in devices {
        let hex = hex::encode(Sha256::digest(token.as_str().unwrap().as_bytes()));
        assert_eq!(submods[label], json!(["DIGEST", ["SHA-256", hex]]));
    }
    let header = URL_SAFE_NO_PAD
        .decode(overall.split('.').next().unwrap())
        .unwrap();
    assert_eq!(
        header,
        format!(r#"{{"kid":"{KID}","alg":"ES384"}}"#).as_bytes()
    );
}

#[test]
fn minted_results_verify() {
    for count in [1, 2, 8] {
        let verified = verify_attestation_result(
            mint(count).as_bytes(),
            &jwks(),
            &options(),
            UnixTime::from_secs(NOW).unwrap(),
        )
        .unwrap();
        assert_eq!(verified.format(), ResultFormat::Detached);
        assert_eq!(verified.devices().len(), count);
        assert_eq!(verified.overall_result(), Some(true));
        let gpu0 = verified.device("GPU-0").unwrap();
        assert_eq!(gpu0.token().claim("ueid").unwrap(), "1000");
        assert_eq!(gpu0.digest().len(), 64);
    }
}

#[test]
fn two_phase_minting_matches_one_shot() {
    let devices = devices(3, NONCE);
    let input = detached_eat_signing_input(&overall_claims(NONCE), &devices, KID).unwrap();
    let assembled = assemble_detached_eat(&input, &key().sign(input.as_bytes()), &devices).unwrap();
    // Deterministic signatures: the same bytes as the one-shot path.
    assert_eq!(
        assembled,
        create_detached_eat(&overall_claims(NONCE), &devices, &key(), KID).unwrap()
    );
    assert_eq!(
        assemble_detached_eat(&input, &[0u8; 96], &devices)
            .unwrap_err()
            .code(),
        "ERR_JWS_SIGNATURE_MALFORMED"
    );
}

#[test]
fn device_swapped_in_from_another_minted_result_is_refused() {
    let a = mint(2);
    let other = devices(2, &"11".repeat(32));
    let mut value: Value = serde_json::from_str(&a).unwrap();
    value[1]["GPU-1"] = Value::String(other[1].1.clone());
    let err = verify(&value.to_string()).unwrap_err();
    assert_eq!(
        (err.code(), err.field()),
        ("ERR_EAT_DIGEST_MISMATCH", Some("GPU-1"))
    );
}

#[test]
fn a_signed_but_wrong_digest_is_refused() {
    // A buggy or malicious signer: the digest is signed, but not of this token.
    let devices = devices(2, NONCE);
    let mut claims = overall_claims(NONCE);
    claims.insert(
        "submods".into(),
        json!({
            "GPU-0": ["DIGEST", ["SHA-256", hex::encode(Sha256::digest(devices[0].1.as_bytes()))]],
            "GPU-1": ["DIGEST", ["SHA-256", "00".repeat(32)]],
        }),
    );
    let overall = sign_jwt(&claims, &key(), KID).unwrap();
    let result = json!([["JWT", overall], {"GPU-0": devices[0].1, "GPU-1": devices[1].1}]);
    assert_eq!(
        verify(&result.to_string()),
        Err(TokenError::DigestMismatch {
            label: "GPU-1".into()
        })
    );
}

fn with_submods(submods: Value, devices: &[(String, String)]) -> String {
    let mut claims = overall_claims(NONCE);
    claims.insert("submods".into(), submods);
    let overall = sign_jwt(&claims, &key(), KID).unwrap();
    let map: Map<String, Value> = devices
        .iter()
        .map(|(l, t)| (l.clone(), Value::String(t.clone())))
        .collect();
    json!([["JWT", overall], map]).to_string()
}

#[test]
fn submods_entries_are_checked() {
    let devices = devices(1, NONCE);
    let token = &devices[0].1;
    let sha256 = hex::encode(Sha256::digest(token.as_bytes()));
    let sha384 = hex::encode(sha2::Sha384::digest(token.as_bytes()));
    assert_eq!(
        verify(&with_submods(
            json!({"GPU-0": ["DIGEST", ["SHA-384", sha384]]}),
            &devices
        )),
        Ok(())
    );
    let cases = [
        (
            json!({"GPU-0": ["DIGEST", ["SHA-256", sha256.to_uppercase()]]}),
            "ERR_EAT_SUBMOD_INVALID",
        ),
        (
            json!({"GPU-0": ["DIGEST", ["SHA-256", &sha256[..62]]]}),
            "ERR_EAT_SUBMOD_INVALID",
        ),
        (
            json!({"GPU-0": ["DIGEST", ["SHA256", sha256]]}),
            "ERR_EAT_DIGEST_ALGORITHM_UNSUPPORTED",
        ),
        (
            json!({"GPU-0": ["DIGEST", ["MD5", sha256]]}),
            "ERR_EAT_DIGEST_ALGORITHM_UNSUPPORTED",
        ),
        (json!({"GPU-0": ["JWT", token]}), "ERR_EAT_SUBMOD_INVALID"),
        (json!({"GPU-0": {"ueid": "x"}}), "ERR_EAT_SUBMOD_INVALID"),
        (
            json!({"GPU-0": ["DIGEST", ["SHA-256", sha256], 1]}),
            "ERR_EAT_SUBMOD_INVALID",
        ),
        (json!("GPU-0"), "ERR_EAT_SUBMOD_INVALID"),
        (json!({}), "ERR_EAT_NO_DEVICES"),
    ];
    for (submods, expected) in cases {
        let err = verify(&with_submods(submods.clone(), &devices)).unwrap_err();
        assert_eq!(err.code(), expected, "{submods}");
    }
    // No device at all: a detached result binds at least one.
    assert_eq!(
        verify(&with_submods(json!({}), &[])).unwrap_err().code(),
        "ERR_EAT_NO_DEVICES"
    );
    // A device token the overall token does not name.
    let sha_only_gpu0 = json!({"GPU-0": ["DIGEST", ["SHA-256", sha256]]});
    let mut two = devices.clone();
    two.push(("GPU-1".into(), token.clone()));
    assert_eq!(
        verify(&with_submods(sha_only_gpu0, &two)),
        Err(TokenError::DeviceUnexpected {
            label: "GPU-1".into()
        })
    );
    // Missing submods entirely.
    let overall = sign_jwt(&overall_claims(NONCE), &key(), KID).unwrap();
    let result = json!([["JWT", overall], {"GPU-0": token}]).to_string();
    let err = verify_attestation_result(
        result.as_bytes(),
        &jwks(),
        &VerifyOptions::new()
            .signers(Signers::Any)
            .allow_unknown_revocation(true),
        UnixTime::from_secs(NOW).unwrap(),
    )
    .unwrap_err();
    assert_eq!(
        (err.code(), err.field()),
        ("ERR_EAT_SUBMOD_INVALID", Some("submods"))
    );
}

#[test]
fn device_token_failures_name_the_device() {
    // A device token with another nonce.
    let mut devices = devices(3, NONCE);
    devices[2].1 = sign_jwt(&device_claims(2, &"22".repeat(32)), &key(), KID).unwrap();
    let result = create_detached_eat(&overall_claims(NONCE), &devices, &key(), KID).unwrap();
    let err = verify(&result).unwrap_err();
    assert_eq!(
        (err.code(), err.field()),
        ("ERR_EAT_NONCE_MISMATCH", Some("GPU-2"))
    );
    assert_eq!(err.innermost(), &TokenError::NonceMismatch);

    // A device token that expired earlier than the overall token.
    let mut claims = device_claims(1, NONCE);
    claims["exp"] = json!(NOW - 1);
    let mut devices = self::devices(2, NONCE);
    devices[1].1 = sign_jwt(&claims, &key(), KID).unwrap();
    let result = create_detached_eat(&overall_claims(NONCE), &devices, &key(), KID).unwrap();
    let err = verify(&result).unwrap_err();
    assert_eq!(
        (err.code(), err.field()),
        ("ERR_JWT_EXPIRED", Some("GPU-1"))
    );

    // A device token signed by a key outside the JWKS.
    let stranger = SigningKey::generate(&[0x77; 48]).unwrap();
    let mut devices = self::devices(2, NONCE);
    devices[0].1 = sign_jwt(&device_claims(0, NONCE), &stranger, "stranger").unwrap();
    let result = create_detached_eat(&overall_claims(NONCE), &devices, &key(), KID).unwrap();
    let err = verify(&result).unwrap_err();
    assert_eq!(
        (err.code(), err.field()),
        ("ERR_JWKS_NO_MATCHING_KEY", Some("GPU-0"))
    );

    // A device token with a forged signature under the right kid.
    devices[0].1 = sign_jwt(&device_claims(0, NONCE), &stranger, KID).unwrap();
    let result = create_detached_eat(&overall_claims(NONCE), &devices, &key(), KID).unwrap();
    let err = verify(&result).unwrap_err();
    assert_eq!(
        (err.code(), err.field()),
        ("ERR_JWS_SIGNATURE_VERIFICATION_FAILED", Some("GPU-0"))
    );
}

#[test]
fn result_shapes_are_strict() {
    let token = sign_jwt(&overall_claims(NONCE), &key(), KID).unwrap();
    let cases = [
        json!([]),
        json!([["JWT", token]]),
        json!([["JWT", token], {}, {}]),
        json!([["JWS", token], {}]),
        json!([["JWT", token, "x"], {}]),
        json!([["JWT", 1], {}]),
        json!([["JWT", token], []]),
        json!([["JWT", token], {"GPU-0": 1}]),
        json!([["JWT", token], {"": token}]),
        json!({"eat": token, "x": 1}),
        json!({"jwt": token}),
        json!("x"),
    ];
    for case in cases {
        let err = verify(&case.to_string()).unwrap_err();
        assert_eq!(err.code(), "ERR_EAT_RESULT_INVALID", "{case}");
    }
    let dup = format!(r#"[["JWT","{token}"],{{"GPU-0":"a.b.c","GPU-0":"a.b.c"}}]"#);
    assert_eq!(
        verify(&dup).unwrap_err().code(),
        "ERR_JSON_DUPLICATE_MEMBER"
    );
    let many: Map<String, Value> = (0..=MAX_DEVICES)
        .map(|i| (format!("GPU-{i}"), Value::String("a.b.c".into())))
        .collect();
    let too_many = json!([["JWT", token], many]).to_string();
    assert_eq!(
        verify(&too_many).unwrap_err().code(),
        "ERR_EAT_TOO_MANY_DEVICES"
    );
    let huge = " ".repeat(edgeattest::token::MAX_RESULT_BYTES + 1);
    assert_eq!(verify(&huge).unwrap_err().code(), "ERR_JWS_TOO_LARGE");
}

#[test]
fn minting_refuses_bad_device_lists() {
    let devices = devices(2, NONCE);
    let claims = overall_claims(NONCE);
    let dup = vec![devices[0].clone(), devices[0].clone()];
    let not_jws = vec![("GPU-0".to_owned(), "not a token".to_owned())];
    let empty_label = vec![(String::new(), devices[0].1.clone())];
    for bad in [vec![], dup, not_jws, empty_label] {
        let err = create_detached_eat(&claims, &bad, &key(), KID).unwrap_err();
        assert_eq!(err.code(), "ERR_EAT_RESULT_INVALID");
    }
}

#[test]
fn v1_results_round_trip() {
    // A V1 token carries the GPU's verdict claim too.
    let mut claims = overall_claims(NONCE);
    claims.insert("measres".into(), json!("comparison-successful"));
    let token = sign_jwt(&claims, &key(), KID).unwrap();
    let result = create_v1_result(&token);
    assert_eq!(result, format!(r#"{{"eat":"{token}"}}"#));
    let v1 = VerifyOptions::new()
        .signers(Signers::Any)
        .allow_unknown_revocation(true)
        .result_format(ResultFormat::V1);
    let verified = verify_attestation_result(
        result.as_bytes(),
        &jwks(),
        &v1.clone().nonce(NONCE),
        UnixTime::from_secs(NOW).unwrap(),
    )
    .unwrap();
    assert_eq!(verified.format(), ResultFormat::V1);
    assert!(verified.devices().is_empty());
    let parsed = AttestationResult::parse(result.as_bytes()).unwrap();
    assert_eq!(parsed.to_json(), result);
    let prepared = prepare_attestation_result(
        result.as_bytes(),
        &jwks(),
        &v1,
        UnixTime::from_secs(NOW).unwrap(),
    )
    .unwrap();
    assert_eq!(prepared.signature_checks().len(), 1);
}

#[test]
fn parsed_results_serialise_back_unchanged() {
    let text = mint(4);
    let parsed = AttestationResult::parse(text.as_bytes()).unwrap();
    assert_eq!(parsed.to_json(), text);
    assert_eq!(parsed.devices().len(), 4);
}

#[test]
fn jwks_of_minting_keys_round_trips() {
    let keys: Vec<JwksKey> = (0..4u8)
        .map(|i| {
            JwksKey::new(
                Some(format!("kid-{i}")),
                SigningKey::generate(&[i + 1; 48]).unwrap().public_key(),
            )
            .with_x5c(vec!["MIIB".into()])
        })
        .collect();
    let jwks = Jwks::new(keys).unwrap();
    let text = jwks.to_json();
    assert!(text
        .starts_with(r#"{"keys":[{"kty":"EC","crv":"P-384","kid":"kid-0","x5c":["MIIB"],"x":""#));
    assert_eq!(Jwks::parse(text.as_bytes()).unwrap(), jwks);
}

#[test]
fn the_report_gives_every_token_its_verdict() {
    let stranger = SigningKey::generate(&[0x78; 48]).unwrap();
    let mut devices = devices(4, NONCE);
    // GPU-1: forged signature under the right kid; GPU-2: a kid outside the JWKS.
    devices[1].1 = sign_jwt(&device_claims(1, NONCE), &stranger, KID).unwrap();
    devices[2].1 = sign_jwt(&device_claims(2, NONCE), &stranger, "elsewhere").unwrap();
    let result = create_detached_eat(&overall_claims(NONCE), &devices, &key(), KID).unwrap();
    // The result carries GPU-0..2 only: GPU-3 is named in submods but missing.
    let mut value: Value = serde_json::from_str(&result).unwrap();
    value[1].as_object_mut().unwrap().shift_remove("GPU-3");
    let prepared = prepare_attestation_result(
        value.to_string().as_bytes(),
        &jwks(),
        &options(),
        UnixTime::from_secs(NOW).unwrap(),
    )
    .unwrap();
    // No signature check for the token whose key is unknown.
    assert_eq!(prepared.signature_checks().len(), 3);
    let report = prepared.verify_report();
    assert!(report.overall().is_ok());
    let verdicts: Vec<(&str, Option<&'static str>, bool)> = report
        .devices()
        .iter()
        .map(|d| {
            (
                d.label(),
                d.outcome().err().map(|e| e.code()),
                d.digest().is_some(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            ("GPU-0", None, true),
            ("GPU-1", Some("ERR_JWS_SIGNATURE_VERIFICATION_FAILED"), true),
            ("GPU-2", Some("ERR_JWKS_NO_MATCHING_KEY"), false),
            ("GPU-3", Some("ERR_EAT_DEVICE_MISSING"), false),
        ]
    );
    // The strict answer: the missing device first, then devices in document order.
    assert_eq!(
        report.first_error(),
        Some(TokenError::DeviceMissing {
            label: "GPU-3".into()
        })
    );
    assert!(report.into_verified().is_err());
}

#[test]
fn devices_get_standalone_verdicts_when_the_overall_token_fails() {
    let text = mint(2);
    let other_nonce = "33".repeat(32);
    let other = VerifyOptions::new()
        .signers(Signers::Any)
        .allow_unknown_revocation(true)
        .nonce(&other_nonce);
    let report = prepare_attestation_result(
        text.as_bytes(),
        &jwks(),
        &other,
        UnixTime::from_secs(NOW).unwrap(),
    )
    .unwrap()
    .verify_report();
    assert_eq!(report.overall().unwrap_err(), &TokenError::NonceMismatch);
    for device in report.devices() {
        // Each device token also carries the other nonce; nothing is bound (no digest).
        assert_eq!(device.outcome().unwrap_err(), &TokenError::NonceMismatch);
        assert_eq!(device.digest(), None);
    }
    assert_eq!(report.first_error(), Some(TokenError::NonceMismatch));
    // A good result: every verdict good, and the proof type follows.
    let report = prepare_attestation_result(
        text.as_bytes(),
        &jwks(),
        &options(),
        UnixTime::from_secs(NOW).unwrap(),
    )
    .unwrap()
    .verify_report();
    assert!(report.devices().iter().all(|d| d.outcome().is_ok()));
    assert_eq!(report.into_verified().unwrap().devices().len(), 2);
}
