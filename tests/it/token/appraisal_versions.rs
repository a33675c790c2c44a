//! Every claims version the service writes (GPU 1.0–4.0, switch 1.0–3.0) appraises as the
//! device's outcome says: passed, a nonce mismatch named first, a measurement mismatch, an
//! expired RIM chain. The helpers are `appraisal.rs`'s.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::attest::{ClaimsVersion, DeviceKind};
use edgeattest::rim::MeasurementSource;
use edgeattest::service::DeviceOutcome;
use serde_json::Value;

use super::appraisal::*;

const GPU_VERSIONS: [ClaimsVersion; 4] = [
    ClaimsVersion::V1_0,
    ClaimsVersion::V2_0,
    ClaimsVersion::V3_0,
    ClaimsVersion::V4_0,
];
const SWITCH_VERSIONS: [ClaimsVersion; 3] = [
    ClaimsVersion::V1_0,
    ClaimsVersion::V2_0,
    ClaimsVersion::V3_0,
];

fn every_version() -> Vec<(&'static str, ClaimsVersion, DeviceOutcome)> {
    let mut all = Vec::new();
    for version in GPU_VERSIONS {
        all.push(("GPU-0", version, hopper_success()));
    }
    for version in SWITCH_VERSIONS {
        all.push(("SWITCH-0", version, ls10_success()));
    }
    all
}

#[test]
fn every_version_passes_when_the_device_passed() {
    for (label, version, outcome) in every_version() {
        let result = mint(
            version,
            Some(true),
            &[(label, device_claims(&outcome, version))],
        );
        let verified = verify(&result, &options()).unwrap();
        let appraisal = verified.appraisal();
        assert!(appraisal.passed(), "{label} {version:?}");
        assert_eq!(appraisal.devices()[0].passed(), Some(true));
        assert!(appraisal.devices()[0].reasons().is_empty());
    }
}

#[test]
fn every_version_refuses_a_nonce_mismatch_and_names_it_first() {
    for (label, version, outcome) in every_version() {
        let result = mint(
            version,
            Some(false),
            &[(label, device_claims(&nonce_mismatch(outcome), version))],
        );
        let (code, appraisal, verified, message) = refused(&result);
        assert_eq!(code, "ERR_ATTESTATION_FAILED", "{label} {version:?}");
        assert_eq!(verified.devices()[0].label(), label);
        let device = &appraisal.devices()[0];
        assert_eq!(device.passed(), Some(false));
        let first = &device.reasons()[0];
        assert_eq!(first.claim(), "x-nvidia-error-details", "{version:?}");
        assert!(first.message().contains("4010 NONCE_NOT_MATCHING"));
        assert!(message.contains(&format!("{label}: the service reported error 4010")));
        // 3.0 keeps every claim: the nonce check follows, in words.
        if version == ClaimsVersion::V3_0 || version == ClaimsVersion::V4_0 {
            let nonce = device
                .reasons()
                .iter()
                .find(|r| r.claim().ends_with("-attestation-report-nonce-match"))
                .unwrap();
            assert_eq!(
                nonce.message(),
                "the attestation report's nonce differs from the request's"
            );
            assert_eq!(nonce.value(), &Value::Bool(false));
            assert_eq!(device.reasons().last().unwrap().claim(), "measres");
        }
    }
}

#[test]
fn every_version_refuses_a_measurement_mismatch() {
    for (label, version, outcome) in every_version() {
        let source = match outcome.kind {
            DeviceKind::Switch => MeasurementSource::Firmware,
            _ => MeasurementSource::Driver,
        };
        let claims = device_claims(&mismatch(outcome, source), version);
        let result = mint(version, Some(false), &[(label, claims)]);
        let (code, appraisal, _, _) = refused(&result);
        assert_eq!(code, "ERR_ATTESTATION_FAILED");
        let device = &appraisal.devices()[0];
        let claims = claims_in(device);
        // Most decisive first: the records, then the 1.0 flag, then measres.
        let expected: Vec<&str> = match (label, version) {
            ("GPU-0", ClaimsVersion::V1_0) => vec![
                "x-nvidia-mismatch-measurement-records",
                "x-nvidia-gpu-measurements-match",
                "measres",
            ],
            ("GPU-0", ClaimsVersion::V4_0) => {
                vec!["x-nvidia-mismatch-measurement-records", "measres"]
            }
            ("SWITCH-0", ClaimsVersion::V1_0) => {
                vec!["x-nvidia-switch-measurements-match", "measres"]
            }
            _ => vec!["measres"],
        };
        assert_eq!(claims, expected, "{label} {version:?}");
        if expected[0] == "x-nvidia-mismatch-measurement-records" {
            assert_eq!(
                device.reasons()[0].message(),
                "3 measurements differ from the driver RIM: indices 3, 5, 9"
            );
        }
        assert_eq!(
            device.reasons().last().unwrap().message(),
            if version == ClaimsVersion::V1_0 {
                "the measurement comparison did not succeed (comparison-fail)"
            } else {
                "the measurement comparison did not succeed (fail)"
            }
        );
    }
}

#[test]
fn an_expired_rim_chain_reads_as_expired_in_claims_3_0_and_4_0() {
    for version in [ClaimsVersion::V3_0, ClaimsVersion::V4_0] {
        let claims = device_claims(&expired_driver_rim(hopper_success()), version);
        let result = mint(version, Some(false), &[("GPU-0", claims)]);
        let (_, appraisal, _, _) = refused(&result);
        let device = &appraisal.devices()[0];
        assert_eq!(
            claims_in(device),
            [
                "x-nvidia-error-details",
                "x-nvidia-gpu-driver-rim-cert-chain",
                "measres"
            ]
        );
        assert_eq!(
            device.reasons()[1].message(),
            "the driver RIM's signing certificate chain has expired (2025-01-02T00:00:00Z)"
        );
    }
}
