//! Composite EARs (`src/ear/composite.rs`): our GPU submodules beside a foreign CPU
//! appraisal, signed by the composing verifier; the status is the worst of all, and the
//! verifier requires the GPU submodules and a foreign one.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::ear::{
    compose_ear, verify_composite_ear, Ear, EarAppraisal, EarDialect, EarEncoding, TrustTier,
    TrustVector, VerifierId,
};
use edgeattest::token::assemble_jws;
use edgeattest::token::Signers;
use edgeattest::token::VerifyOptions;
use edgeattest::ErrorCode;
use edgeattest::UnixTime;

use crate::policy::signed::{jwks, key, resigned, KID};

fn cpu(status: TrustTier, value: i8) -> EarAppraisal {
    EarAppraisal {
        status,
        vector: Some(TrustVector {
            hardware: Some(value),
            executables: Some(value),
            ..TrustVector::default()
        }),
        policy_ids: vec!["trustee/ear_default_policy_cpu".into()],
    }
}

fn trustee() -> VerifierId {
    VerifierId {
        developer: "https://confidentialcontainers.org".into(),
        build: "test".into(),
    }
}

#[test]
fn a_composite_holds_both_and_is_worth_its_worst_part() {
    let result = resigned("hopperClaimsv3", |_| {});
    let nonce = result.overall().claims()["eat_nonce"].as_str().unwrap();
    let gpus = Ear::from_result(&result, None, 1_800_000_000);
    let relabel = |label: &str| Some(label.replace("GPU-", "gpu").to_lowercase());
    let now = UnixTime::from_secs(1_800_000_010).unwrap();
    let options = VerifyOptions::new().signers(Signers::Any).nonce(nonce);
    for (cpu_status, value, whole) in [
        (TrustTier::Affirming, 2, TrustTier::Affirming),
        (TrustTier::Warning, 32, TrustTier::Warning),
        (TrustTier::Contraindicated, 96, TrustTier::Contraindicated),
    ] {
        let foreign = vec![("cpu0".to_owned(), cpu(cpu_status, value))];
        let ear = compose_ear(
            &gpus,
            &relabel,
            foreign,
            EarDialect::Ietf04,
            1_800_000_000,
            Some(nonce.into()),
            trustee(),
        )
        .unwrap();
        assert_eq!(ear.status(), whole);
        let labels: Vec<&str> = ear.submods().iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(labels, ["gpu0", "cpu0"]);
        // Signed by the composing verifier, as a JWT and as a CWT.
        let input = ear.signing_input(KID).unwrap();
        let jwt = assemble_jws(&input, &key().sign(input.as_bytes())).unwrap();
        let cwt_input = ear.cwt_to_be_signed(KID).unwrap();
        let cwt = cwt_input
            .assemble(&key().sign(cwt_input.to_be_signed()))
            .unwrap();
        for (token, encoding) in [
            (jwt.as_bytes(), EarEncoding::Jwt),
            (&cwt[..], EarEncoding::Cwt),
        ] {
            let read =
                verify_composite_ear(token, encoding, &jwks(), &options, now, &["gpu0"]).unwrap();
            // A CWT's map is written in key order (deterministic CBOR): compare by label.
            let sorted = |ear: &Ear| {
                let mut submods = ear.submods().to_vec();
                submods.sort_by(|a, b| a.0.cmp(&b.0));
                submods
            };
            assert_eq!(sorted(&read), sorted(&ear));
            assert_eq!(read.status(), ear.status());
            assert_eq!(read.nonce(), ear.nonce());
            assert_eq!(read.verifier_id(), &trustee());
            let error = verify_composite_ear(token, encoding, &jwks(), &options, now, &["gpu1"])
                .unwrap_err();
            assert_eq!(error.field(), Some("submods/gpu1"));
            let error =
                verify_composite_ear(token, encoding, &jwks(), &options, now, &["gpu0", "cpu0"])
                    .unwrap_err();
            assert_eq!(error.code(), "ERR_EAR_SHAPE", "no foreign submodule left");
        }
    }
    // A foreign label that is already ours.
    let clash = vec![("GPU-0".to_owned(), cpu(TrustTier::Affirming, 2))];
    let error = compose_ear(
        &gpus,
        &|_| None,
        clash,
        EarDialect::Ietf04,
        1,
        None,
        trustee(),
    )
    .unwrap_err();
    assert_eq!(error.field(), Some("submods"));
}
