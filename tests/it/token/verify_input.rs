//! The written verification options (`VerifyInput`, the JS `VerifyOptions`) read from JSON with
//! `serde_json` and run against recorded NRAS results and their JWKS: the same rule the JS
//! binding reads them with. Also the one verification type on `Deferred` (`PreparedToken`),
//! the serde shapes the JS API returns, and the one key-text rule.
#![cfg(not(target_arch = "wasm32"))]

use std::fs;
use std::path::PathBuf;

use edgeattest::crypto::{Deferred, PublicKey, SigningKey};
use edgeattest::token::{PreparedToken, TokenError, TokenVerdict, VerifyInput};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::{json, Value};

use super::teep::{capture, Capture};

const ISSUER: &str = "https://nras.attestation.nvidia.com";
const PASS_1GPU: &str = "v3_1gpu_success_20260629";
const PASS_8GPU: &str = "v3_8gpu_success_20260629";
const FAILED_8GPU: &str = "v3_8gpu_nonce_mismatch_20260520";

fn fixture(path: &str) -> Vec<u8> {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests/fixtures", path]
        .iter()
        .collect();
    fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn input(options: Value) -> VerifyInput {
    serde_json::from_value(options).unwrap()
}

/// Verifies `c` with the options written as JSON, at `now`, with the software backend; the
/// result in the JS shape.
fn verify(c: &Capture, options: Value, now: u64) -> Result<Value, TokenError> {
    let prepared = input(options).prepare_attestation_result(
        &c.response,
        &c.jwks,
        UnixTime::from_secs(now).unwrap(),
    )?;
    match PreparedToken::from(prepared).finish_in_software()? {
        TokenVerdict::Result(report) => Ok(serde_json::to_value(report.into_verified()?).unwrap()),
        TokenVerdict::Jwt(_) => panic!("a result verified as a JWT"),
    }
}

fn refusal(result: Result<Value, TokenError>) -> (&'static str, Option<String>) {
    let error = result.unwrap_err();
    (error.code(), error.field().map(str::to_owned))
}

#[test]
fn recorded_results_verify_with_options_written_as_json() {
    for (name, devices) in [(PASS_1GPU, 1), (PASS_8GPU, 8)] {
        let c = capture(name);
        let options = json!({
            "issuer": ISSUER,
            "nonce": c.nonce,
            "requiredClaims": ["iat", "exp", "eat_nonce", "submods", "x-nvidia-overall-att-result"],
            "endpoint": "/v3/attest/gpu",
            // `now` is declared (the caller reads it); a host's own members are not.
            "now": 1,
        });
        let verified = verify(&c, options, c.iat).unwrap();
        // The one shape the JS API resolves with.
        let keys = crate::keys(&verified);
        assert_eq!(
            keys,
            [
                "format",
                "overall",
                "devices",
                "overallResult",
                "evidenceForm",
                "appraisal",
                "revocationRelaxed",
                "signer"
            ]
        );
        // Pinned by default to NVIDIA's intermediate 004, the path leaf first.
        assert_eq!(verified["signer"]["pinned"], true);
        assert_eq!(
            verified["signer"]["anchor"],
            "spkiSha256:fd32837f954e2c45db073105166dfe6985ae0480bb113fba63b091a75affe896"
        );
        assert_eq!(
            verified["signer"]["chain"][1]["subject"],
            "C=US,O=NVIDIA Corporation,CN=NVIDIA Attestation Service GPU Intermediate 004"
        );
        assert_eq!(verified["format"], "detached");
        assert_eq!(verified["overallResult"], true);
        // NRAS's tokens never name a form: plain.
        assert_eq!(verified["evidenceForm"], "plain");
        assert_eq!(verified["appraisal"]["passed"], true);
        assert_eq!(
            verified["overall"]["payload"]["eat_nonce"],
            c.nonce.as_str()
        );
        assert!(verified["overall"]["kid"]
            .as_str()
            .unwrap()
            .starts_with("nv-eat-kid-prod-"));
        let list = verified["devices"].as_array().unwrap();
        assert_eq!(list.len(), devices, "{name}");
        for device in list {
            let keys = crate::keys(device);
            assert_eq!(
                keys,
                [
                    "label",
                    "digest",
                    "payload",
                    "protectedHeader",
                    "kid",
                    "signer"
                ]
            );
            assert_eq!(device["signer"], verified["signer"]);
            assert_eq!(device["digest"].as_str().unwrap().len(), 64);
            assert_eq!(device["protectedHeader"]["alg"], "ES384");
        }
        let appraised = verified["appraisal"]["devices"].as_array().unwrap();
        assert_eq!(appraised.len(), devices);
        assert!(appraised
            .iter()
            .all(|d| d["passed"] == true && d["reasons"] == json!([])));
    }
}

#[test]
fn issuer_and_audience_are_one_or_many_and_checked() {
    let c = capture(PASS_1GPU);
    for issuer in [json!(ISSUER), json!(["https://other.example", ISSUER])] {
        assert!(verify(&c, json!({ "issuer": issuer, "nonce": c.nonce }), c.iat).is_ok());
    }
    for issuer in [
        json!("https://other.example"),
        json!(["https://other.example"]),
    ] {
        assert_eq!(
            refusal(verify(
                &c,
                json!({ "issuer": issuer, "nonce": c.nonce }),
                c.iat
            )),
            ("ERR_JWT_CLAIM_VALIDATION_FAILED", Some("iss".into()))
        );
    }
    assert_eq!(
        refusal(verify(
            &c,
            json!({ "audience": "someone", "nonce": c.nonce }),
            c.iat
        )),
        ("ERR_JWT_CLAIM_VALIDATION_FAILED", Some("aud".into()))
    );
    // null is absent, as in JS.
    assert!(verify(&c, json!({ "issuer": null, "nonce": c.nonce }), c.iat).is_ok());
    // A member the options do not declare (a misspelling, a host's own `backend`) is refused.
    for bad in [
        json!({ "issuer": 7 }),
        json!({ "audience": [ISSUER, 7] }),
        json!({ "isuer": ISSUER }),
        json!({ "backend": "software" }),
    ] {
        assert!(
            serde_json::from_value::<VerifyInput>(bad.clone()).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn the_nonce_is_checked() {
    let c = capture(PASS_8GPU);
    assert_eq!(
        refusal(verify(&c, json!({ "nonce": "00".repeat(32) }), c.iat)),
        ("ERR_EAT_NONCE_MISMATCH", Some("eat_nonce".into()))
    );
}

#[test]
fn clock_tolerance_and_maximum_age_are_seconds() {
    let c = capture(PASS_1GPU);
    let expiry = c.iat + 3600;
    let at = |options: Value, now| refusal(verify(&c, options, now));
    assert_eq!(
        at(json!({}), expiry + 30),
        ("ERR_JWT_EXPIRED", Some("exp".into()))
    );
    assert!(verify(&c, json!({ "clockTolerance": 60 }), expiry + 30).is_ok());
    // Fractions are dropped: 30.9 tolerates 30 seconds, not 31 (a token is good while
    // `now < exp + tolerance`).
    assert!(verify(&c, json!({ "clockTolerance": 30.9 }), expiry + 29).is_ok());
    assert_eq!(
        at(json!({ "clockTolerance": 30.9 }), expiry + 30).0,
        "ERR_JWT_EXPIRED"
    );
    assert!(verify(&c, json!({ "clockTolerance": 31 }), expiry + 30).is_ok());
    assert_eq!(
        at(json!({ "maxTokenAge": 10 }), c.iat + 11),
        ("ERR_JWT_EXPIRED", Some("iat".into()))
    );
    assert!(verify(&c, json!({ "maxTokenAge": 10 }), c.iat + 10).is_ok());
    for bad in [-1.0, 9.0e15, f64::MAX] {
        let error = serde_json::from_value::<VerifyInput>(json!({ "clockTolerance": bad }));
        assert!(error
            .unwrap_err()
            .to_string()
            .contains("non-negative number of seconds"));
    }
    assert!(serde_json::from_value::<VerifyInput>(json!({ "maxTokenAge": "10" })).is_err());
}

#[test]
fn the_result_shape_comes_from_format_or_endpoint_never_a_guess() {
    let c = capture(PASS_1GPU);
    let nonce = &c.nonce;
    for options in [
        json!({}),
        json!({ "format": "detached" }),
        json!({ "endpoint": "/v4/attest/gpu/" }),
    ] {
        let mut options = options;
        options["nonce"] = json!(nonce);
        assert!(verify(&c, options.clone(), c.iat).is_ok(), "{options}");
    }
    // A detached result where V1 is expected is refused, not re-read.
    for options in [
        json!({ "format": "v1" }),
        json!({ "endpoint": "/v1/attest/gpu" }),
    ] {
        assert_eq!(
            refusal(verify(&c, options, c.iat)).0,
            "ERR_EAT_FORMAT_MISMATCH"
        );
    }
    // Bad options are ERR_INVALID_ARGUMENT naming the option, before the result is read.
    for (options, field, message) in [
        (
            json!({ "format": "V1" }),
            "format",
            "format must be 'v1' or 'detached'",
        ),
        (
            json!({ "endpoint": "/v9/attest/gpu" }),
            "endpoint",
            "endpoint must be an attest endpoint path",
        ),
        (
            json!({ "format": "detached", "endpoint": "/v1/attest/gpu" }),
            "format",
            "format must be the shape the endpoint answers with",
        ),
    ] {
        let error = input(options.clone())
            .prepare_attestation_result(
                b"not even JSON",
                &c.jwks,
                UnixTime::from_secs(c.iat).unwrap(),
            )
            .unwrap_err();
        assert_eq!(
            (error.code(), error.field()),
            ("ERR_INVALID_ARGUMENT", Some(field)),
            "{options}"
        );
        assert_eq!(error.to_string(), message);
    }
}

#[test]
fn a_failed_verdict_is_refused_unless_allowed() {
    let c = capture(FAILED_8GPU);
    let options = json!({ "issuer": ISSUER, "nonce": c.nonce });
    let error = verify(&c, options.clone(), c.iat).unwrap_err();
    assert_eq!(error.code(), "ERR_ATTESTATION_FAILED");
    let (appraisal, result) = error.refused_result().unwrap();
    let written = serde_json::to_value(result).unwrap();
    assert_eq!(written["overallResult"], false);
    assert_eq!(
        written["appraisal"],
        serde_json::to_value(appraisal).unwrap()
    );
    assert_eq!(written["appraisal"]["passed"], false);
    let reason = &written["appraisal"]["devices"][0]["reasons"][0];
    assert!(
        reason["claim"].is_string() && reason["message"].is_string(),
        "{reason}"
    );

    let mut allowed = options;
    allowed["allowFailedResult"] = json!(true);
    let verified = verify(&c, allowed, c.iat).unwrap();
    assert_eq!(verified["appraisal"]["passed"], false);
    assert_eq!(verified["devices"].as_array().unwrap().len(), 8);
}

#[test]
fn prepared_tokens_complete_through_deferred_with_every_verdict_reported() {
    let c = capture(PASS_8GPU);
    let prepare = || {
        PreparedToken::from(
            input(json!({ "nonce": c.nonce }))
                .prepare_attestation_result(
                    &c.response,
                    &c.jwks,
                    UnixTime::from_secs(c.iat).unwrap(),
                )
                .unwrap(),
        )
    };
    assert_eq!(prepare().signature_checks().len(), 9);
    // A verdict count that does not match is an error, never a pass.
    let error = prepare().finish(&[true; 8]).unwrap_err();
    assert_eq!(error.code(), "ERR_VERDICT_COUNT");
    // A refused device signature: the report says which, in the JS `verdicts` shape.
    let mut verdicts = [true; 9];
    verdicts[3] = false;
    let TokenVerdict::Result(report) = prepare().finish(&verdicts).unwrap() else {
        panic!("not a result");
    };
    let first = report.first_error().unwrap();
    assert_eq!(first.code(), "ERR_JWS_SIGNATURE_VERIFICATION_FAILED");
    let written = serde_json::to_value(&report).unwrap();
    let list = written.as_array().unwrap();
    assert_eq!(list.len(), 9);
    assert_eq!(list[0]["label"], Value::Null);
    assert_eq!(list[0]["verified"], true);
    let failed: Vec<&Value> = list.iter().filter(|v| v["verified"] == false).collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["code"], "ERR_JWS_SIGNATURE_VERIFICATION_FAILED");
    assert_eq!(failed[0]["field"], "signature");
    assert_eq!(failed[0]["payload"], Value::Null);
    assert_eq!(first.field(), failed[0]["label"].as_str());

    // A single device token as a JWT: the same options type, the JWT shape.
    let result: Value = serde_json::from_slice(&c.response).unwrap();
    let (label, token) = result[1].as_object().unwrap().iter().next().unwrap();
    let jwt = input(json!({ "issuer": [ISSUER], "nonce": c.nonce }))
        .prepare_jwt(
            token.as_str().unwrap(),
            &c.jwks,
            UnixTime::from_secs(c.iat).unwrap(),
        )
        .unwrap();
    let TokenVerdict::Jwt(verified) = PreparedToken::from(jwt).finish_in_software().unwrap() else {
        panic!("not a JWT");
    };
    let written = serde_json::to_value(&verified).unwrap();
    let keys = crate::keys(&written);
    assert_eq!(
        keys,
        ["payload", "protectedHeader", "kid", "signer"],
        "{label}"
    );
    assert_eq!(written["payload"]["eat_nonce"], c.nonce.as_str());
    let jwt = input(json!({}))
        .prepare_jwt(
            token.as_str().unwrap(),
            &c.jwks,
            UnixTime::from_secs(c.iat).unwrap(),
        )
        .unwrap();
    let error = PreparedToken::from(jwt).finish(&[false]).unwrap_err();
    assert_eq!(error.code(), "ERR_JWS_SIGNATURE_VERIFICATION_FAILED");
}

#[test]
fn key_text_is_read_by_one_rule() {
    let pem = String::from_utf8(fixture("generated/token_signing_key.pem")).unwrap();
    let key = SigningKey::from_text(&pem).unwrap();
    assert_eq!(key, SigningKey::from_pkcs8_pem(&pem).unwrap());
    let jwk = key.to_jwk(Some("k")).to_value().to_string();
    // A JWK is told by its leading `{` (whitespace before it allowed), everything else is PEM.
    assert_eq!(SigningKey::from_text(&format!("\n  {jwk}")).unwrap(), key);
    let public = key.public_key();
    assert_eq!(PublicKey::from_text(&public.to_spki_pem()).unwrap(), public);
    let public_jwk = public.to_jwk(None).to_value().to_string();
    assert_eq!(PublicKey::from_text(&public_jwk).unwrap(), public);
    for (text, code) in [
        ("", "ERR_KEY_ENCODING_INVALID"),
        ("not a key", "ERR_KEY_ENCODING_INVALID"),
        (
            "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
            "ERR_KEY_ENCODING_INVALID",
        ),
        ("{not json", "ERR_JWK_INVALID"),
        (r#"{"kty":"EC","crv":"P-256"}"#, "ERR_JWK_UNSUPPORTED"),
    ] {
        assert_eq!(
            SigningKey::from_text(text).unwrap_err().code(),
            code,
            "{text:?}"
        );
    }
    // A public key is not a private one, in either form.
    assert_eq!(
        SigningKey::from_text(&public_jwk).unwrap_err().code(),
        "ERR_JWK_INVALID"
    );
    assert_eq!(
        SigningKey::from_text(&public.to_spki_pem())
            .unwrap_err()
            .code(),
        "ERR_KEY_ENCODING_INVALID"
    );
    // The private JWK's public half must be d's point.
    let other = SigningKey::generate(&[7u8; 96])
        .unwrap()
        .public_key()
        .to_jwk(None)
        .to_value();
    let mut mixed = key.to_jwk(None).to_value();
    mixed["x"] = other["x"].clone();
    mixed["y"] = other["y"].clone();
    assert_eq!(
        SigningKey::from_text(&mixed.to_string())
            .unwrap_err()
            .code(),
        "ERR_JWK_KEY_MISMATCH"
    );
}

/// Each verdict carries the check it failed, why in words, and the checks that held before
/// it: the core decides them, a host (the page) only lays them out.
#[test]
fn every_failed_verdict_names_its_check_and_says_why() {
    let c = capture(PASS_8GPU);
    let verdicts_of = |options: Value, now: u64, refuse: Option<usize>| {
        let prepared = PreparedToken::from(
            input(options)
                .prepare_attestation_result(&c.response, &c.jwks, UnixTime::from_secs(now).unwrap())
                .unwrap(),
        );
        let mut verdicts = vec![true; prepared.signature_checks().len()];
        if let Some(index) = refuse {
            verdicts[index] = false;
        }
        let TokenVerdict::Result(report) = prepared.finish(&verdicts).unwrap() else {
            panic!("not a result");
        };
        serde_json::to_value(&report).unwrap()
    };
    let failed = |list: &Value| -> Vec<Value> {
        let list = list.as_array().unwrap().iter();
        list.filter(|v| v["verified"] == false).cloned().collect()
    };
    // A refused signature: the digest held, nothing after the signature was reached.
    let list = verdicts_of(json!({ "nonce": c.nonce }), c.iat, Some(3));
    let [one] = failed(&list).try_into().unwrap();
    assert_eq!(one["stage"], "signature");
    assert_eq!(
        one["message"],
        "the signature does not verify with the key of its kid"
    );
    assert_eq!(one["held"], json!(["digest"]));
    // A verified token: no check failed, every one held.
    let ok = &list[0];
    assert_eq!(
        (ok["stage"].clone(), ok["message"].clone()),
        (Value::Null, Value::Null)
    );
    assert_eq!(
        ok["held"],
        json!(["digest", "signature", "claims", "time", "nonce"])
    );
    // Expired: the time check failed, after the claims (the words already name `exp`).
    let list = verdicts_of(json!({ "nonce": c.nonce }), c.iat + 10 * 365 * 86_400, None);
    let expired = failed(&list);
    assert!(!expired.is_empty());
    for verdict in &expired {
        assert_eq!(verdict["code"], "ERR_JWT_EXPIRED");
        assert_eq!(verdict["stage"], "time");
        assert_eq!(verdict["message"], "expired at the time of the check");
        assert_eq!(verdict["held"], json!(["digest", "signature", "claims"]));
    }
    // Another nonce: the nonce check, the last.
    let other = "00".repeat(32);
    let list = verdicts_of(json!({ "nonce": other }), c.iat, None);
    let wrong = failed(&list);
    assert!(!wrong.is_empty());
    assert!(wrong.iter().all(|v| v["stage"] == "nonce"), "{wrong:?}");
    assert_eq!(wrong[0]["message"], "eat_nonce is not the expected nonce");
}
