//! The result shape is named by the caller, never guessed (issue 15 point 7): a detached
//! result's overall or device token re-wrapped as V1 `{"eat": token}` is refused, a V1
//! token must look like one, and no result reads as a pass with zero devices. Real TEEP
//! recordings and our own service's V1/V2 answers are the positive cases. The minted device
//! claims carry no certificate-chain claims, so the options allow unknown revocation (the
//! revocation rule is tested in `token::revocation_verdict`).
#![cfg(not(target_arch = "wasm32"))]

use std::fs;

use edgeattest::attest::Endpoint;
use edgeattest::chain::TrustStore;
use edgeattest::crypto::SigningKey;
use edgeattest::rim::RimTrust;
use edgeattest::service::{KeyRing, Request, Service, ServiceConfig};
use edgeattest::token::Signers;
use edgeattest::token::{
    create_detached_eat, create_v1_result, prepare_attestation_result, sign_jwt,
    verify_attestation_result, Jwks, JwksKey, ResultFormat, TokenError, VerifyOptions,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

const KID: &str = "kid-format";
const ISS: &str = "https://nras.example";
const NOW: u64 = 1_800_000_000;
const NONCE: &str = "931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb";
const CAPTURES: [&str; 3] = [
    "v3_1gpu_success_20260629",
    "v3_8gpu_success_20260629",
    "v3_8gpu_nonce_mismatch_20260520",
];

fn key() -> SigningKey {
    SigningKey::generate(&[0x31; 48]).unwrap()
}

fn jwks() -> Jwks {
    Jwks::new(vec![JwksKey::new(Some(KID.into()), key().public_key())]).unwrap()
}

fn v1() -> VerifyOptions {
    VerifyOptions::new()
        .signers(Signers::Any)
        .allow_unknown_revocation(true)
        .nonce(NONCE)
        .result_format(ResultFormat::V1)
}

fn times() -> Value {
    json!({"iss": ISS, "iat": NOW, "nbf": NOW, "exp": NOW + 3600, "eat_nonce": NONCE})
}

fn with(base: Value, extra: Value) -> Map<String, Value> {
    let mut map = base.as_object().unwrap().clone();
    map.extend(extra.as_object().unwrap().clone());
    map
}

/// A claims-1.0 V1 token as our service mints it (`GpuSingleTokenV1`): the GPU's claims plus
/// the service's verdict.
fn v1_claims(verdict: bool) -> Map<String, Value> {
    with(
        times(),
        json!({"sub": "NVIDIA-GPU-ATTESTATION", "x-nvidia-ver": "1.0", "x-nvidia-eat-ver": "EAT-21",
               "x-nvidia-overall-att-result": verdict, "measres": "comparison-successful"}),
    )
}

fn device_claims(i: usize) -> Map<String, Value> {
    with(
        times(),
        json!({"jti": format!("d{i}"), "measres": "success", "ueid": format!("{i}")}),
    )
}

fn detached(count: usize) -> String {
    let devices: Vec<(String, String)> = (0..count)
        .map(|i| {
            let token = sign_jwt(&device_claims(i), &key(), KID).unwrap();
            (format!("GPU-{i}"), token)
        })
        .collect();
    let overall = with(
        times(),
        json!({"sub": "NVIDIA-PLATFORM-ATTESTATION", "x-nvidia-overall-att-result": true}),
    );
    create_detached_eat(&overall, &devices, &key(), KID).unwrap()
}

fn err(result: &str, options: &VerifyOptions) -> TokenError {
    verify_attestation_result(
        result.as_bytes(),
        &jwks(),
        options,
        UnixTime::from_secs(NOW).unwrap(),
    )
    .unwrap_err()
}

fn teep(name: &str) -> Vec<u8> {
    fs::read(format!(
        "{}/tests/fixtures/nvidia/nras/teep/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn claims_of(token: &str) -> Value {
    use base64::Engine as _;
    let payload = token.split('.').nth(1).unwrap();
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload)
        .unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

#[test]
fn recorded_overall_token_rewrapped_as_v1_is_refused() {
    for name in CAPTURES {
        let response: Value =
            serde_json::from_slice(&teep(&format!("{name}_response.json"))).unwrap();
        let jwks = Jwks::parse(&teep(&format!("{name}_jwks.json"))).unwrap();
        let overall = response[0][1].as_str().unwrap();
        let now = claims_of(overall)["iat"].as_u64().unwrap();
        let rewrapped = create_v1_result(overall);
        // Expecting V1: the token is recognised as a detached result's overall token.
        let options = VerifyOptions::new()
            .signers(Signers::Any)
            .allow_unknown_revocation(true)
            .result_format(ResultFormat::V1);
        let error = verify_attestation_result(
            rewrapped.as_bytes(),
            &jwks,
            &options,
            UnixTime::from_secs(now).unwrap(),
        )
        .unwrap_err();
        assert_eq!(
            (error.code(), error.field()),
            ("ERR_EAT_V1_TOKEN_INVALID", Some("submods")),
            "{name}"
        );
        // By default (detached expected) the shape alone is refused, before any signature.
        let error = prepare_attestation_result(
            rewrapped.as_bytes(),
            &jwks,
            &VerifyOptions::new()
                .signers(Signers::Any)
                .allow_unknown_revocation(true),
            UnixTime::from_secs(now).unwrap(),
        )
        .unwrap_err();
        assert_eq!(
            error,
            TokenError::FormatMismatch {
                expected: ResultFormat::Detached,
                found: ResultFormat::V1
            }
        );
        assert_eq!(
            (error.code(), error.field()),
            ("ERR_EAT_FORMAT_MISMATCH", Some("result"))
        );
        // The recording itself still verifies, with the default shape.
        let verified = verify_attestation_result(
            &teep(&format!("{name}_response.json")),
            &jwks,
            &VerifyOptions::new()
                .signers(Signers::Any)
                .allow_unknown_revocation(true)
                .allow_failed_result(true),
            UnixTime::from_secs(now).unwrap(),
        )
        .unwrap();
        assert_eq!(verified.format(), ResultFormat::Detached);
        assert!(!verified.devices().is_empty());
    }
}

#[test]
fn recorded_device_tokens_as_v1_are_refused() {
    for name in CAPTURES {
        let response: Value =
            serde_json::from_slice(&teep(&format!("{name}_response.json"))).unwrap();
        let jwks = Jwks::parse(&teep(&format!("{name}_jwks.json"))).unwrap();
        let now = claims_of(response[0][1].as_str().unwrap())["iat"]
            .as_u64()
            .unwrap();
        for (label, token) in response[1].as_object().unwrap() {
            let rewrapped = create_v1_result(token.as_str().unwrap());
            let options = VerifyOptions::new()
                .signers(Signers::Any)
                .allow_unknown_revocation(true)
                .result_format(ResultFormat::V1);
            let error = verify_attestation_result(
                rewrapped.as_bytes(),
                &jwks,
                &options,
                UnixTime::from_secs(now).unwrap(),
            )
            .unwrap_err();
            assert_eq!(
                (error.code(), error.field()),
                (
                    "ERR_EAT_V1_TOKEN_INVALID",
                    Some("x-nvidia-overall-att-result")
                ),
                "{name} {label}"
            );
        }
    }
}

#[test]
fn minted_tokens_rewrapped_as_v1_are_refused() {
    let result: Value = serde_json::from_str(&detached(2)).unwrap();
    let overall = create_v1_result(result[0][1].as_str().unwrap());
    assert_eq!(
        err(&overall, &v1()),
        TokenError::V1TokenInvalid { claim: "submods" }
    );
    let device = create_v1_result(result[1]["GPU-1"].as_str().unwrap());
    assert_eq!(
        err(&device, &v1()),
        TokenError::V1TokenInvalid {
            claim: "x-nvidia-overall-att-result"
        }
    );
    // The verdict must be a boolean, not a look-alike.
    let text = sign_jwt(
        &with(times(), json!({"x-nvidia-overall-att-result": "true"})),
        &key(),
        KID,
    )
    .unwrap();
    assert_eq!(
        err(&create_v1_result(&text), &v1()).code(),
        "ERR_EAT_V1_TOKEN_INVALID"
    );
    // The V1 check is part of the overall verdict, after the signature: a forged token
    // fails on its signature first.
    let stranger = SigningKey::generate(&[0x55; 48]).unwrap();
    let forged = sign_jwt(&v1_claims(true), &stranger, KID).unwrap();
    assert_eq!(
        err(&create_v1_result(&forged), &v1()).code(),
        "ERR_JWS_SIGNATURE_VERIFICATION_FAILED"
    );
}

#[test]
fn genuine_v1_results_verify_only_when_v1_is_expected() {
    for verdict in [true, false] {
        let token = sign_jwt(&v1_claims(verdict), &key(), KID).unwrap();
        let result = create_v1_result(&token);
        let allowed = v1().allow_failed_result(true);
        let verified = verify_attestation_result(
            result.as_bytes(),
            &jwks(),
            &allowed,
            UnixTime::from_secs(NOW).unwrap(),
        )
        .unwrap();
        assert_eq!(verified.format(), ResultFormat::V1);
        assert_eq!(verified.overall_result(), Some(verdict));
        let default = verify_attestation_result(
            result.as_bytes(),
            &jwks(),
            &v1(),
            UnixTime::from_secs(NOW).unwrap(),
        );
        assert_eq!(default.is_ok(), verdict);
        assert!(verified.devices().is_empty());
        // The default expects the detached shape.
        assert_eq!(
            err(
                &result,
                &VerifyOptions::new()
                    .signers(Signers::Any)
                    .allow_unknown_revocation(true)
            ),
            TokenError::FormatMismatch {
                expected: ResultFormat::Detached,
                found: ResultFormat::V1
            }
        );
    }
}

#[test]
fn expecting_v1_refuses_a_detached_result() {
    let result = detached(2);
    let error = err(&result, &v1());
    assert_eq!(
        error,
        TokenError::FormatMismatch {
            expected: ResultFormat::V1,
            found: ResultFormat::Detached
        }
    );
    assert_eq!(error.code(), "ERR_EAT_FORMAT_MISMATCH");
    let verified = verify_attestation_result(
        result.as_bytes(),
        &jwks(),
        &VerifyOptions::new()
            .signers(Signers::Any)
            .allow_unknown_revocation(true)
            .nonce(NONCE),
        UnixTime::from_secs(NOW).unwrap(),
    )
    .unwrap();
    assert_eq!(verified.devices().len(), 2);
    assert_eq!(verified.overall_result(), Some(true));
}

#[test]
fn the_endpoint_names_the_shape() {
    for endpoint in Endpoint::ALL {
        let expected = if endpoint == Endpoint::GpuV1 {
            ResultFormat::V1
        } else {
            ResultFormat::Detached
        };
        assert_eq!(
            ResultFormat::for_endpoint(endpoint),
            expected,
            "{endpoint:?}"
        );
    }
    assert_eq!(ResultFormat::default(), ResultFormat::Detached);
    assert_eq!(VerifyOptions::new().result_format, ResultFormat::Detached);
    for format in [ResultFormat::V1, ResultFormat::Detached] {
        assert_eq!(ResultFormat::parse(format.as_str()), Some(format));
    }
    assert_eq!(ResultFormat::parse("V1"), None);
}

fn overall_with_submods(submods: Value) -> String {
    let claims = with(
        times(),
        json!({"x-nvidia-overall-att-result": true, "submods": submods}),
    );
    sign_jwt(&claims, &key(), KID).unwrap()
}

#[test]
fn a_detached_result_with_zero_devices_is_never_a_pass() {
    let options = VerifyOptions::new()
        .signers(Signers::Any)
        .allow_unknown_revocation(true)
        .nonce(NONCE);
    // No device token and nothing in submods: vacuously "true" before.
    let empty = json!([["JWT", overall_with_submods(json!({}))], {}]).to_string();
    let error = err(&empty, &options);
    assert_eq!(
        (error.code(), error.field()),
        ("ERR_EAT_NO_DEVICES", Some("result[1]"))
    );
    // submods names a device the result lacks, and no device token at all.
    let token = sign_jwt(&device_claims(0), &key(), KID).unwrap();
    let digest = hex::encode(Sha256::digest(token.as_bytes()));
    let named = json!({"GPU-0": ["DIGEST", ["SHA-256", digest]]});
    let none = json!([["JWT", overall_with_submods(named)], {}]).to_string();
    assert_eq!(err(&none, &options).code(), "ERR_EAT_NO_DEVICES");
    // A device token, but an empty submods binding nothing.
    let unbound = json!([["JWT", overall_with_submods(json!({}))], {"GPU-0": token}]).to_string();
    let error = err(&unbound, &options);
    assert_eq!(
        (error.code(), error.field()),
        ("ERR_EAT_NO_DEVICES", Some("submods"))
    );
}

fn service() -> Service {
    let keys = KeyRing::new(
        SigningKey::generate(&[7u8; 48]).unwrap(),
        Some("svc".into()),
    );
    let config = ServiceConfig {
        issuer: Some(ISS.into()),
        ..ServiceConfig::default()
    };
    Service::new(
        config,
        keys,
        TrustStore::nvidia_device_identity().unwrap(),
        RimTrust::nvidia(),
        1,
    )
}

#[test]
fn our_service_answers_verify_with_the_shape_of_their_endpoint() {
    use base64::engine::general_purpose::STANDARD;
    use base64::Engine as _;
    let dir = format!(
        "{}/tests/fixtures/nvidia/evidence/hopper",
        env!("CARGO_MANIFEST_DIR")
    );
    let hex_text = fs::read_to_string(format!("{dir}/nvat_hopper_535.86.09_report.hex")).unwrap();
    let evidence = hex::decode(hex_text.trim()).unwrap();
    let pem = fs::read(format!("{dir}/nvat_hopper_535.86.09_certchain.pem")).unwrap();
    let nonce = hex::encode(&evidence[4..36]);
    let item = json!({"evidence": STANDARD.encode(hex::encode(&evidence)), "certificate": STANDARD.encode(&pem)});
    let service = service();
    let jwks_response = service.handle(
        &Request::new("GET", "/.well-known/jwks.json"),
        UnixTime::from_secs(0).unwrap(),
        [0; 32],
    );
    let jwks = Jwks::parse(&jwks_response.body).unwrap();
    let bodies = [
        (
            Endpoint::GpuV1,
            json!({"nonce": nonce, "arch": "HOPPER", "evidence": item["evidence"], "certificate": item["certificate"]}),
        ),
        (
            Endpoint::GpuV2,
            json!({"nonce": nonce, "arch": "HOPPER", "evidences": [item]}),
        ),
    ];
    let now = 1_700_000_000;
    for (endpoint, body) in bodies {
        let request = Request::new("POST", endpoint.path())
            .header("content-type", "application/json")
            .body(body.to_string().into_bytes());
        let response = service.handle(&request, UnixTime::from_secs(now).unwrap(), [1; 32]);
        assert_eq!(response.status, 200, "{endpoint:?}");
        let expected = ResultFormat::for_endpoint(endpoint);
        let options = VerifyOptions::new()
            .signers(Signers::Any)
            .allow_unknown_revocation(true)
            .nonce(&nonce)
            .result_format(expected)
            .allow_failed_result(true);
        let verified = verify_attestation_result(
            &response.body,
            &jwks,
            &options,
            UnixTime::from_secs(now).unwrap(),
        )
        .unwrap();
        assert_eq!(verified.format(), expected);
        assert!(verified.overall_result().is_some());
        // The other shape is refused.
        let other = match expected {
            ResultFormat::V1 => ResultFormat::Detached,
            _ => ResultFormat::V1,
        };
        let options = VerifyOptions::new()
            .signers(Signers::Any)
            .allow_unknown_revocation(true)
            .nonce(&nonce)
            .result_format(other);
        assert_eq!(
            verify_attestation_result(
                &response.body,
                &jwks,
                &options,
                UnixTime::from_secs(now).unwrap()
            )
            .unwrap_err()
            .code(),
            "ERR_EAT_FORMAT_MISMATCH"
        );
    }
}
