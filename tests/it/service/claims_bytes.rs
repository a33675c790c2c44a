//! The bytes of every claims version, pinned: each claim in its place and order, with the
//! value read from the right field of the outcome. The outcomes give every field a value of
//! its own, so a claim that reads the wrong field changes the bytes. Run with
//! `EDGEATTEST_BLESS=1` to rewrite `tests/fixtures/claims/bytes.txt` after a deliberate
//! change of the claims.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::attest::{ClaimsVersion, DeviceKind, Nonce};
use edgeattest::chain::RevocationStatus;
use edgeattest::service::{
    claims::{DeviceClaims, GpuSingleTokenV1, TokenTimes},
    CertStatus, ChainOutcome, DeviceOutcome, ErrorDetails, MeasurementOutcome, RimOutcome,
};

fn times() -> TokenTimes {
    TokenTimes {
        iss: "https://edgeattest.invalid".into(),
        iat: 1_749_601_858,
        nbf: 1_749_601_858,
        exp: 1_749_605_458,
        jti: "833480c9-6796-4fe4-b6ad-e9a58d7a67b2".into(),
    }
}

/// A RIM whose flags differ from each other (`bits` picks which are true).
fn rim(bits: u8, expiry: u64) -> RimOutcome {
    let bit = |n: u8| Some(bits & (1 << n) != 0);
    RimOutcome {
        fetched: bits & 1 != 0,
        schema_validated: bit(1),
        cert_chain: Some(ChainOutcome {
            status: if bits & 4 != 0 {
                CertStatus::Valid
            } else {
                CertStatus::Expired
            },
            ocsp: RevocationStatus::Good,
            earliest_expiry: edgeattest::UnixTime::from_secs(expiry),
            revocation_reason: None,
            revocation_time: None,
        }),
        signature_verified: bit(3),
        version_match: bit(4),
        measurements_available: bit(5),
    }
}

fn outcome(kind: DeviceKind, passed: bool, with_error: bool) -> DeviceOutcome {
    DeviceOutcome {
        kind,
        evidence_verified: passed,
        arch_check: passed,
        report_parsed: true,
        signature_verified: Some(passed),
        nonce_match: Some(!passed),
        cert_chain: Some(ChainOutcome {
            status: CertStatus::Revoked,
            ocsp: RevocationStatus::Revoked,
            earliest_expiry: edgeattest::UnixTime::from_secs(1_900_000_000),
            revocation_reason: Some("keyCompromise".into()),
            revocation_time: None,
        }),
        fwid_match: Some(passed),
        hwmodel: Some("HWMODEL".into()),
        ueid: Some("12345".into()),
        oemid: Some("OEMID".into()),
        driver_version: Some("DRIVER".into()),
        firmware_version: Some("FIRMWARE".into()),
        driver_rim: Some(rim(0b10_1011, 1_800_000_000)),
        firmware_rim: Some(rim(0b01_0101, 1_800_000_001)),
        index_no_conflict: Some(!passed),
        measurements: if passed {
            MeasurementOutcome::Match
        } else {
            MeasurementOutcome::NotRun
        },
        opaque_mismatches: Vec::new(),
        attester_claims: [("OEM_CLAIM".to_owned(), 7)].into_iter().collect(),
        switch_pdis: Some(vec!["AB".into()]),
        mode: Some("spt"),
        switch_pdi: None,
        switch_gpu_pdis: None,
        secure_boot: Some(passed),
        debug_status: Some("DBG".into()),
        warning: Some("WARNING".into()),
        error: with_error.then(|| ErrorDetails {
            code: 5002,
            field_name: "certificate".into(),
            http_status: "400".into(),
            description: "CERTIFICATE_STATUS_REVOKED".into(),
            message: "revoked".into(),
        }),
    }
}

fn rendered() -> String {
    let nonce =
        Nonce::parse("931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb").unwrap();
    let versions = [
        ("1.0", ClaimsVersion::V1_0),
        ("2.0", ClaimsVersion::V2_0),
        ("3.0", ClaimsVersion::V3_0),
        ("4.0", ClaimsVersion::V4_0),
    ];
    let mut out = String::new();
    for (kind_name, kind) in [("gpu", DeviceKind::Gpu), ("switch", DeviceKind::Switch)] {
        // Failed without an error shows the full claims of 1.0 and 2.0 failing; with one, the
        // error-only token.
        for (passed, with_error) in [(true, false), (false, false), (false, true)] {
            let outcome = outcome(kind, passed, with_error);
            for (name, version) in versions {
                let claims = DeviceClaims::build(&outcome, version, &nonce, times()).to_json();
                let text = serde_json::to_string(&claims).unwrap();
                out.push_str(&format!(
                    "{kind_name} {name} passed={passed} error={with_error}\n{text}\n"
                ));
            }
            if kind == DeviceKind::Gpu {
                let token = GpuSingleTokenV1::new(&outcome, &nonce, times());
                let text = serde_json::to_string(&token).unwrap();
                out.push_str(&format!(
                    "gpu single-token passed={passed} error={with_error}\n{text}\n"
                ));
            }
        }
    }
    out
}

#[test]
fn every_claims_version_keeps_its_bytes() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/claims/bytes.txt"
    );
    let rendered = rendered();
    if std::env::var_os("EDGEATTEST_BLESS").is_some() {
        std::fs::write(file, &rendered).unwrap();
        return;
    }
    let pinned = std::fs::read_to_string(file).unwrap();
    for (got, want) in rendered.lines().zip(pinned.lines()) {
        assert_eq!(got, want);
    }
    assert_eq!(rendered.lines().count(), pinned.lines().count());
}

/// The minter signs the typed claims (`DeviceClaims: Serialize`) without building their JSON
/// object first: the signing input is byte for byte the one of the object, for every claims
/// version, device kind and outcome, and its payload is the pinned text.
#[test]
fn the_claims_sign_as_their_json_object() {
    use edgeattest::token::jwt_signing_input;
    let nonce =
        Nonce::parse("931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb").unwrap();
    let versions = [
        ClaimsVersion::V1_0,
        ClaimsVersion::V2_0,
        ClaimsVersion::V3_0,
        ClaimsVersion::V4_0,
    ];
    let mut compared = 0;
    for kind in [DeviceKind::Gpu, DeviceKind::Switch] {
        for (passed, with_error) in [(true, false), (false, false), (false, true)] {
            let outcome = outcome(kind, passed, with_error);
            for version in versions {
                let claims = DeviceClaims::build(&outcome, version, &nonce, times());
                let object = claims.to_json();
                let direct = jwt_signing_input(&claims, "kid-1").unwrap();
                assert_eq!(direct, jwt_signing_input(&object, "kid-1").unwrap());
                let payload = direct.split('.').nth(1).unwrap();
                let payload = base64::Engine::decode(
                    &base64::engine::general_purpose::URL_SAFE_NO_PAD,
                    payload,
                )
                .unwrap();
                assert_eq!(payload, serde_json::to_vec(&object).unwrap());
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 24);
}

/// What is not a JSON object has no signing input, written straight or not.
#[test]
fn only_an_object_has_a_signing_input() {
    use edgeattest::token::jwt_signing_input;
    for value in [
        serde_json::json!([1, 2]),
        serde_json::json!("text"),
        serde_json::json!(null),
        serde_json::json!(7),
    ] {
        let error = jwt_signing_input(&value, "kid-1").unwrap_err();
        assert_eq!(edgeattest::ErrorCode::code(&error), "ERR_JWT_INVALID");
    }
    assert_eq!(
        jwt_signing_input(&[("a", 1)], "k").map_err(|e| edgeattest::ErrorCode::code(&e)),
        Err("ERR_JWT_INVALID")
    );
    assert!(jwt_signing_input(&serde_json::json!({}), "kid-1").is_ok());
}
