//! The two EAR dialects (`src/ear.rs`): the -04 JSON names written from the one model and read
//! back; a -04 JWT signed by Veraison's `ear` 0.6.0 read by ours; the reader's refusals
//! (float times, a top status better than the submodules, duplicate members, other
//! profiles, malformed nonces and policy ids).
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use edgeattest::ear::{
    verify_ear, Ear, EarDialect, EarEncoding, TrustTier, TrustVector, EAR_PROFILE_04,
};
use edgeattest::token::Signers;
use edgeattest::token::{sign_jwt, Jwks, VerifyOptions};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};

use crate::policy::signed::{jwks, key, resigned, KID};

/// §9 of the research brief: a -04 EAR signed (ES384) by Veraison's `ear` 0.6.0 with a
/// throwaway key, and that key's public JWK.
pub(crate) const VERAISON_JWT: &str = "eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzM4NCJ9.eyJlYXRfcHJvZmlsZSI6InRhZzppZXRmLm9yZywyMDI2OnJhdHMvZWFyIzA0IiwiaWF0IjoxNzgwMDAwMDAwLCJlYXJfdmVyaWZpZXJfaWQiOnsiZGV2ZWxvcGVyIjoiaHR0cHM6Ly9naXRodWIuY29tL2VkZ2VhdHRlc3QvZWRnZWF0dGVzdCIsImJ1aWxkIjoiZWRnZWF0dGVzdCAwLjIuMCJ9LCJzdWJtb2RzIjp7IkdQVS0wIjp7ImVhcl9zdGF0dXMiOiJhZmZpcm1pbmciLCJlYXJfdHJ1c3R3b3J0aGluZXNzX3ZlY3RvciI6eyJpbnN0YW5jZS1pZGVudGl0eSI6MiwiY29uZmlndXJhdGlvbiI6MiwiZXhlY3V0YWJsZXMiOjIsImhhcmR3YXJlIjoyfSwiZWF0X25vbmNlIjoia3gyTjBLM1NBNncifX0sImVhcl9zdGF0dXMiOiJhZmZpcm1pbmciLCJlYXRfbm9uY2UiOiJreDJOMEszU0E2d0JBZ01FQlFZSENBa0tDd3dORGc4UUVSSVRGQlVXRnhnIn0.CGpEsviybIsGBRkBFbvFhoYgpA5_JthjsD3AVIpb-Wfibsp4ygFGunM1gKdiCGxVONkqMyvYWwm-CckyCYa4OtznRchCALTa9epexPFpX-nv6cpB7tFgIgOsSAjStqvI";
pub(crate) const VERAISON_COSE_HEX: &str = "d28444a1013822a058b9bf190109781d7461673a696574662e6f72672c323032363a726174732f656172233034061a6a18a5001903eca200782868747470733a2f2f6769746875622e636f6d2f656467656174746573742f6564676561747465737401706564676561747465737420302e322e3019010aa1654750552d30bf1903e8021903e9bf0002010202020402ff0a48931d8dd0add203acff1903e8020a5820931d8dd0add203ac0102030405060708090a0b0c0d0e0f101112131415161718ff58605772c7356a57dc55ce1cfb4e1494146675b4c2a54ccd57bbf10a5e5be53173f1fa33e4c2e05e399b6b084f6f911b98f2747f29b6f7a671958da38f9a3b9152ab54c20228daa288a7e720f31bd85aa26a8183dd90f580b68a5c01a7c9f89d6641";
pub(crate) const VERAISON_JWK: &str = r#"{"kty": "EC", "crv": "P-384", "x": "nnHPrqtIJ53vg-1v5NAnVjSKrWxfNcbvcnWKQGSV32S-RPYqi2PEnf47YiVm0g8K", "y": "1wMh5DjcqC8_degYeTP0L6XvkGtCo2n7rRXnBKGS9f3-GAL9HfZHQxkL0PBGyDIe"}"#;
/// The sample's top-level nonce (32 bytes).
pub(crate) const VERAISON_NONCE: &str =
    "931d8dd0add203ac0102030405060708090a0b0c0d0e0f101112131415161718";
pub(crate) const VERAISON_IAT: u64 = 1_780_000_000;

pub(crate) fn veraison_jwks() -> Jwks {
    Jwks::parse(format!(r#"{{"keys":[{VERAISON_JWK}]}}"#).as_bytes()).unwrap()
}

fn approved() -> TrustVector {
    TrustVector {
        instance_identity: Some(2),
        configuration: Some(2),
        executables: Some(2),
        hardware: Some(2),
        ..TrustVector::default()
    }
}

fn any_signer() -> VerifyOptions {
    VerifyOptions::new().signers(Signers::Any)
}

#[test]
fn the_04_dialect_writes_the_drafts_names_and_reads_them_back() {
    let result = resigned("hopperClaimsv3", |_| {});
    let nonce = result.overall().claims()["eat_nonce"].as_str().unwrap();
    let now = 1_800_000_000;
    let veraison = Ear::from_result(&result, None, now);
    let ear = veraison.clone().into_dialect(EarDialect::Ietf04).unwrap();
    assert_eq!(ear.nonce(), Some(nonce), "the model keeps the nonce as hex");
    let json: Value = serde_json::from_str(&ear.to_json()).unwrap();
    let nonce_b64 = URL_SAFE_NO_PAD.encode(hex::decode(nonce).unwrap());
    assert_eq!(
        json,
        json!({
            "eat_profile": EAR_PROFILE_04,
            "iat": now,
            "ear_verifier_id": {"developer": "https://github.com/edgeattest/edgeattest",
                "build": format!("edgeattest {}", env!("CARGO_PKG_VERSION"))},
            "ear_status": "affirming",
            "eat_nonce": nonce_b64,
            "submods": {"GPU-0": {"ear_status": "affirming", "ear_trustworthiness_vector":
                {"instance-identity": 2, "configuration": 2, "executables": 2, "hardware": 2}}},
        })
    );
    // The veraison dialect's JSON is unchanged: dotted names, the nonce verbatim.
    let old: Value = serde_json::from_str(&veraison.to_json()).unwrap();
    assert_eq!(old["eat_nonce"], json!(nonce));
    assert!(old.get("ear_status").is_none() && old.get("ear.verifier-id").is_some());

    let token = sign_jwt(&json, &key(), KID).unwrap();
    let options = any_signer().nonce(nonce).max_age(60);
    let at = UnixTime::from_secs(now as u64 + 1).unwrap();
    let read = verify_ear(&token, &jwks(), &options, at).unwrap();
    assert_eq!(read, ear);
    assert_eq!(read.dialect(), EarDialect::Ietf04);
    // The relying party may also name the nonce as the claim's base64url.
    verify_ear(&token, &jwks(), &any_signer().nonce(&nonce_b64), at).unwrap();
    let wrong = any_signer().nonce(&"00".repeat(32));
    let error = verify_ear(&token, &jwks(), &wrong, at).unwrap_err();
    assert_eq!(error.code(), "ERR_EAT_NONCE_MISMATCH");
    let data = serde_json::to_value(read.data(EarEncoding::Jwt)).unwrap();
    assert_eq!(data["dialect"], "ietf-04");
    assert_eq!(data["encoding"], "jwt");
    assert_eq!(data["nonce"], json!(nonce));
}

#[test]
fn policy_ids_are_an_array_in_04_and_one_text_in_the_veraison_dialect() {
    let claims = |dialect: &str, policy: Value| {
        let (status, vector, policy_name, verifier) = if dialect == "04" {
            (
                "ear_status",
                "ear_trustworthiness_vector",
                "ear_appraisal_policy_ids",
                "ear_verifier_id",
            )
        } else {
            (
                "ear.status",
                "ear.trustworthiness-vector",
                "ear.appraisal-policy-id",
                "ear.verifier-id",
            )
        };
        let profile = if dialect == "04" {
            EAR_PROFILE_04
        } else {
            edgeattest::ear::EAR_PROFILE
        };
        let claims = json!({"eat_profile": profile, "iat": 1, verifier: {"developer": "d", "build": "b"},
            "submods": {"cpu0": {status: "warning", vector: {"hardware": 32}, policy_name: policy}}});
        claims.as_object().unwrap().clone()
    };
    let ear = Ear::from_claims(&claims("04", json!(["p1", "p2"]))).unwrap();
    assert_eq!(ear.submods()[0].1.policy_ids, ["p1", "p2"]);
    assert_eq!(ear.status(), TrustTier::Warning);
    let ear = Ear::from_claims(&claims("veraison", json!("p1"))).unwrap();
    assert_eq!(ear.submods()[0].1.policy_ids, ["p1"]);
    for (dialect, policy) in [
        ("04", json!("p1")),
        ("04", json!([])),
        ("04", json!([1])),
        ("veraison", json!(["p1"])),
    ] {
        let error = Ear::from_claims(&claims(dialect, policy.clone())).unwrap_err();
        assert_eq!(error.code(), "ERR_EAR_SHAPE", "{dialect} {policy}");
    }
}

#[test]
fn a_04_jwt_signed_by_veraisons_library_verifies() {
    let at = UnixTime::from_secs(VERAISON_IAT + 10).unwrap();
    let options = any_signer().nonce(VERAISON_NONCE).max_age(60);
    let ear = verify_ear(VERAISON_JWT, &veraison_jwks(), &options, at).unwrap();
    assert_eq!(ear.dialect(), EarDialect::Ietf04);
    assert_eq!(ear.nonce(), Some(VERAISON_NONCE));
    assert_eq!(ear.status(), TrustTier::Affirming);
    assert!(ear.affirming());
    let [(label, appraisal)] = ear.submods() else {
        panic!("one submodule")
    };
    assert_eq!(label, "GPU-0");
    assert_eq!(appraisal.vector, Some(approved()));
    assert_eq!(ear.verifier_id().build, "edgeattest 0.2.0");
    // A signature byte flipped.
    let mut tampered = VERAISON_JWT.to_owned().into_bytes();
    let i = tampered.len() - 5;
    tampered[i] = if tampered[i] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    let error = verify_ear(&tampered, &veraison_jwks(), &options, at).unwrap_err();
    assert_eq!(error.code(), "ERR_JWS_SIGNATURE_VERIFICATION_FAILED");
    // Our key set does not verify it.
    assert!(verify_ear(VERAISON_JWT, &jwks(), &options, at).is_err());
}

/// The -04 claims of a one-submodule EAR, edited.
fn claims_04(edit: impl Fn(&mut Map<String, Value>)) -> Map<String, Value> {
    let mut claims = json!({
        "eat_profile": EAR_PROFILE_04, "iat": 1_800_000_000,
        "ear_verifier_id": {"developer": "d", "build": "b"},
        "ear_status": "warning",
        "eat_nonce": URL_SAFE_NO_PAD.encode([7u8; 32]),
        "submods": {"GPU-0": {"ear_status": "warning"}},
    })
    .as_object()
    .unwrap()
    .clone();
    edit(&mut claims);
    claims
}

#[test]
fn the_reader_refuses_what_the_draft_refuses() {
    assert!(Ear::from_claims(&claims_04(|_| {})).is_ok());
    let refused = |edit: &dyn Fn(&mut Map<String, Value>)| {
        let error = Ear::from_claims(&claims_04(edit)).unwrap_err();
        (error.code(), error.field().map(str::to_owned))
    };
    let shape = |field: &str| ("ERR_EAR_SHAPE", Some(field.to_owned()));
    assert_eq!(
        refused(&|c| {
            c.insert("iat".into(), json!(1.8e9));
        }),
        shape("iat")
    );
    assert_eq!(
        refused(&|c| {
            c.insert("exp".into(), json!(1_900_000_000.5));
        }),
        shape("exp")
    );
    // The top status may not be better than the worst submodule's.
    assert_eq!(
        refused(&|c| {
            c.insert("ear_status".into(), json!("affirming"));
        }),
        shape("ear_status")
    );
    assert!(Ear::from_claims(&claims_04(|c| {
        c.insert("ear_status".into(), json!("contraindicated"));
    }))
    .is_ok());
    assert_eq!(
        refused(&|c| {
            c.insert("eat_profile".into(), json!("tag:ietf.org,2026:rats/ear#03"));
        }),
        ("ERR_EAR_PROFILE", Some("eat_profile".to_owned()))
    );
    // The nonce as hex text (this crate's veraison dialect) is 48 wrong bytes in -04: refused
    // only when it is not base64url of 8 to 64 bytes, so the length rule is what is checked.
    for nonce in [json!("AAAA"), json!("!!!!!!!!!!!!"), json!(7)] {
        assert_eq!(
            refused(&|c| {
                c.insert("eat_nonce".into(), nonce.clone());
            }),
            shape("eat_nonce")
        );
    }
    // The veraison dialect's names under the -04 profile.
    assert_eq!(
        refused(&|c| {
            let id = c.remove("ear_verifier_id").unwrap();
            c.insert("ear.verifier-id".into(), id);
        }),
        shape("ear_verifier_id")
    );
    assert_eq!(
        refused(&|c| {
            c.insert(
                "submods".into(),
                json!({"GPU-0": {"ear.status": "warning"}}),
            );
        }),
        shape("submods/GPU-0/ear_status")
    );
}

#[test]
fn a_signed_ear_with_a_duplicate_member_is_refused() {
    let payload = format!(
        r#"{{"eat_profile":"{EAR_PROFILE_04}","iat":1800000000,"iat":1800000001,"ear_verifier_id":{{"developer":"d","build":"b"}},"submods":{{"GPU-0":{{"ear_status":"affirming"}}}}}}"#
    );
    let header = URL_SAFE_NO_PAD.encode(format!(r#"{{"kid":"{KID}","alg":"ES384"}}"#));
    let input = format!("{header}.{}", URL_SAFE_NO_PAD.encode(&payload));
    let token = format!(
        "{input}.{}",
        URL_SAFE_NO_PAD.encode(key().sign(input.as_bytes()))
    );
    let at = UnixTime::from_secs(1_800_000_010).unwrap();
    let error = verify_ear(&token, &jwks(), &any_signer(), at).unwrap_err();
    assert_eq!(error.code(), "ERR_JSON_DUPLICATE_MEMBER", "{error}");
}
