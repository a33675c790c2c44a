//! The claims → EAR mapping (`src/ear.rs`'s table) on real recorded results and on one-claim
//! changes of them; signing and verifying an EAR, and its refusals.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::crypto::SigningKey;
use edgeattest::ear::{policy_id, verify_ear, Ear, TrustTier, TrustVector, EAR_PROFILE};
use edgeattest::policy::{appraise, Policy};
use edgeattest::token::Signers;
use edgeattest::token::{assemble_jws, sign_jwt, VerifiedAttestationResult, VerifyOptions};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};

use crate::policy::signed::{jwks, key, recorded, resigned, KID};

use crate::token::teep::{claims, fixture};

fn vector(i: i8, c: i8, e: i8, h: i8) -> TrustVector {
    TrustVector {
        instance_identity: Some(i),
        configuration: Some(c),
        executables: Some(e),
        hardware: Some(h),
        ..TrustVector::default()
    }
}

/// The one submodule's (status, vector).
fn only(ear: &Ear) -> (TrustTier, TrustVector) {
    let [(_, appraisal)] = ear.submods() else {
        panic!("{} submodules", ear.submods().len())
    };
    (
        appraisal.status,
        appraisal.vector.clone().unwrap_or_default(),
    )
}

#[test]
fn real_passing_results_are_affirming_with_every_key_approved() {
    for name in ["switch", "hopperClaimsv3"] {
        let result = resigned(name, |_| {});
        let ear = Ear::from_result(&result, None, 1_800_000_000);
        assert_eq!(
            only(&ear),
            (TrustTier::Affirming, vector(2, 2, 2, 2)),
            "{name}"
        );
        assert!(ear.affirming());
        assert_eq!(
            ear.nonce(),
            result.overall().claims()["eat_nonce"].as_str(),
            "the nonce is the overall token's, verbatim"
        );
        let label = &ear.submods()[0].0;
        assert_eq!(
            label,
            if name == "switch" {
                "SWITCH-0"
            } else {
                "GPU-0"
            }
        );
    }
    // NRAS claims 2.0 (recorded 2026-06-29), 1 and 8 GPUs.
    for (name, count) in [
        ("v3_1gpu_success_20260629", 1),
        ("v3_8gpu_success_20260629", 8),
    ] {
        let ear = Ear::from_result(&recorded(name), None, 1_800_000_000);
        assert_eq!(ear.submods().len(), count);
        for (label, appraisal) in ear.submods() {
            assert_eq!(appraisal.status, TrustTier::Affirming, "{name} {label}");
            assert_eq!(appraisal.vector, Some(vector(2, 2, 2, 2)), "{name} {label}");
        }
    }
}

#[test]
fn a_result_nras_refused_is_contraindicated_on_every_device() {
    // 8 GPUs refused for a nonce mismatch: their tokens hold only the error, so no vector
    // key has evidence, and the status says the verifier failed them.
    let ear = Ear::from_result(
        &recorded("v3_8gpu_nonce_mismatch_20260520"),
        None,
        1_800_000_000,
    );
    assert_eq!(ear.submods().len(), 8);
    for (label, appraisal) in ear.submods() {
        assert_eq!(appraisal.status, TrustTier::Contraindicated, "{label}");
        assert_eq!(appraisal.vector, None, "{label}");
    }
    assert!(!ear.affirming());
    assert_eq!(ear.status(), TrustTier::Contraindicated);
}

type Edit = fn(&mut Map<String, Value>);

#[test]
fn one_changed_claim_moves_exactly_its_key() {
    // (what changed, the edit, the vector it gives); every one fails the device.
    let cases: [(&str, Edit, TrustVector); 10] = [
        (
            "measres fail",
            |c| drop(c.insert("measres".into(), json!("fail"))),
            vector(2, 2, 33, 2),
        ),
        (
            "driver RIM not fetched",
            |c| drop(c.insert("x-nvidia-gpu-driver-rim-fetched".into(), json!(false))),
            vector(2, 2, 33, 2),
        ),
        (
            "VBIOS RIM signature",
            |c| {
                drop(c.insert(
                    "x-nvidia-gpu-vbios-rim-signature-verified".into(),
                    json!(false),
                ))
            },
            vector(2, 2, 99, 2),
        ),
        (
            "driver RIM chain revoked",
            |c| {
                c["x-nvidia-gpu-driver-rim-cert-chain"]["x-nvidia-cert-ocsp-status"] =
                    json!("revoked")
            },
            vector(2, 2, 96, 2),
        ),
        (
            "driver RIM chain expired",
            |c| c["x-nvidia-gpu-driver-rim-cert-chain"]["x-nvidia-cert-status"] = json!("expired"),
            vector(2, 2, 32, 2),
        ),
        (
            "VBIOS RIM version",
            |c| drop(c.insert("x-nvidia-gpu-vbios-rim-version-match".into(), json!(false))),
            vector(2, 96, 2, 2),
        ),
        (
            "debug on",
            |c| drop(c.insert("dbgstat".into(), json!("enabled"))),
            vector(2, 96, 2, 2),
        ),
        (
            "report signature",
            |c| {
                drop(c.insert(
                    "x-nvidia-gpu-attestation-report-signature-verified".into(),
                    json!(false),
                ))
            },
            vector(99, 2, 2, 2),
        ),
        (
            "device chain invalid",
            |c| {
                c["x-nvidia-gpu-attestation-report-cert-chain"]["x-nvidia-cert-status"] =
                    json!("invalid")
            },
            vector(97, 2, 2, 97),
        ),
        (
            "architecture",
            |c| drop(c.insert("x-nvidia-gpu-arch-check".into(), json!(false))),
            vector(2, 2, 2, 97),
        ),
    ];
    for (what, edit, expected) in cases {
        let ear = Ear::from_result(&resigned("hopperClaimsv3", edit), None, 1_800_000_000);
        assert_eq!(only(&ear), (TrustTier::Contraindicated, expected), "{what}");
    }
    // Revocation not confirmed (OCSP unknown) is a warning in the vector, and NVIDIA's
    // verdict still passes the device: the status is the vector's.
    let unknown = resigned("hopperClaimsv3", |c| {
        c["x-nvidia-gpu-attestation-report-cert-chain"]["x-nvidia-cert-ocsp-status"] =
            json!("unknown");
    });
    let ear = Ear::from_result(&unknown, None, 1_800_000_000);
    assert_eq!(only(&ear), (TrustTier::Warning, vector(32, 2, 2, 2)));
    assert!(!ear.affirming());
}

#[test]
fn a_relying_party_policy_names_itself_and_a_device_it_rejects_is_contraindicated() {
    let result = resigned("hopperClaimsv3", |_| {});
    let pass = Policy::parse(&fixture(
        "policies/nvtrust/remote_v4_NVGPURemotePolicyExample.json",
    ))
    .unwrap();
    let id = policy_id(&pass);
    assert!(
        id.starts_with("tag:github.com,2026:edgeattest/policy/nv-json/4.0#sha384:"),
        "{id}"
    );
    let decision = appraise(&result, &pass).unwrap();
    let ear = Ear::from_result(&result, Some((&decision, &id)), 1_800_000_000);
    assert_eq!(ear.submods()[0].1.status, TrustTier::Affirming);
    assert_eq!(ear.submods()[0].1.policy_ids, std::slice::from_ref(&id));
    // The 3.0 policy pins claims 2.0: the device fails it, whatever its vector says.
    let fail = Policy::parse(&fixture(
        "policies/nvtrust/remote_v3_NVGPURemotePolicyExample.json",
    ))
    .unwrap();
    let decision = appraise(&result, &fail).unwrap();
    let other = policy_id(&fail);
    assert_ne!(other, id);
    let ear = Ear::from_result(&result, Some((&decision, &other)), 1_800_000_000);
    let (_, appraisal) = &ear.submods()[0];
    assert_eq!(appraisal.status, TrustTier::Contraindicated);
    assert_eq!(appraisal.vector, Some(vector(2, 2, 2, 2)));
    assert_eq!(appraisal.policy_ids, std::slice::from_ref(&other));
}

fn signed(ear: &Ear, key: &SigningKey) -> String {
    let input = ear.signing_input(KID).unwrap();
    assert_jws_header(&input);
    assemble_jws(&input, &key.sign(input.as_bytes())).unwrap()
}

fn assert_jws_header(input: &str) {
    let header = claims(&format!("x.{}", input.split('.').next().unwrap()));
    assert_eq!(header, json!({"kid": KID, "alg": "ES384"}));
}

#[test]
fn an_ear_verifies_and_every_tampering_is_refused_with_its_code() {
    let result = resigned("hopperClaimsv3", |_| {});
    let nonce = result.overall().claims()["eat_nonce"]
        .as_str()
        .unwrap()
        .to_owned();
    let now = 1_800_000_000;
    let ear = Ear::from_result(&result, None, now as i64);
    let token = signed(&ear, &key());
    let options = VerifyOptions::new()
        .signers(Signers::Any)
        .nonce(&nonce)
        .max_age(300);
    let verified = verify_ear(
        &token,
        &jwks(),
        &options,
        UnixTime::from_secs(now + 10).unwrap(),
    )
    .unwrap();
    assert_eq!(verified, ear);
    assert!(verified.affirming());

    let code = |token: &str, options: &VerifyOptions, now: u64| {
        verify_ear(token, &jwks(), options, UnixTime::from_secs(now).unwrap())
            .unwrap_err()
            .code()
    };
    let wrong_nonce = VerifyOptions::new()
        .signers(Signers::Any)
        .nonce(&"0".repeat(64));
    assert_eq!(code(&token, &wrong_nonce, now), "ERR_EAT_NONCE_MISMATCH");
    assert_eq!(code(&token, &options, now + 301), "ERR_JWT_EXPIRED");
    // A signature byte flipped.
    let mut tampered = token.clone().into_bytes();
    let at = tampered.len() - 10;
    tampered[at] = if tampered[at] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    assert_eq!(
        code(&tampered, &options, now),
        "ERR_JWS_SIGNATURE_VERIFICATION_FAILED"
    );
    // Another key with the same kid.
    let other = SigningKey::generate(&[0x46; 48]).unwrap();
    assert_eq!(
        code(&signed(&ear, &other), &options, now),
        "ERR_JWS_SIGNATURE_VERIFICATION_FAILED"
    );
    // Another profile, signed properly.
    let mut claims: Map<String, Value> = serde_json::from_str(&ear.to_json()).unwrap();
    claims.insert("eat_profile".into(), json!("tag:ietf.org,2026:rats/ear#03"));
    let token = sign_jwt(&claims, &key(), KID).unwrap();
    let error =
        verify_ear(&token, &jwks(), &options, UnixTime::from_secs(now).unwrap()).unwrap_err();
    assert_eq!(error.code(), "ERR_EAR_PROFILE");
    assert_eq!(error.field(), Some("eat_profile"));
    // A status no tier names.
    claims.insert("eat_profile".into(), json!(EAR_PROFILE));
    claims["submods"]["GPU-0"]["ear.status"] = json!("fine");
    let token = sign_jwt(&claims, &key(), KID).unwrap();
    let error =
        verify_ear(&token, &jwks(), &options, UnixTime::from_secs(now).unwrap()).unwrap_err();
    assert_eq!(error.code(), "ERR_EAR_SHAPE");
    assert_eq!(error.field(), Some("submods/GPU-0/ear.status"));
    // An ordinary NVIDIA token is no EAR.
    let device = claims_of_device(&result);
    let token = sign_jwt(&device, &key(), KID).unwrap();
    let plain = VerifyOptions::new().signers(Signers::Any);
    assert_eq!(code(&token, &plain, now), "ERR_JWT_CLAIM_VALIDATION_FAILED");
}

fn claims_of_device(result: &VerifiedAttestationResult) -> Map<String, Value> {
    let mut claims = result.devices()[0].token().claims().clone();
    claims.remove("exp");
    claims
}
