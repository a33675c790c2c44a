//! Claim sets per version against the real service's tokens: the same names, the same types.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use edgeattest::attest::{ClaimsVersion, DeviceKind, Nonce};
use edgeattest::chain::RevocationStatus;
use edgeattest::service::{
    claims::{DeviceClaims, GpuSingleTokenV1, TokenTimes},
    CertStatus, ChainOutcome, DeviceOutcome, ErrorDetails, MeasurementOutcome, RimOutcome,
};
use serde_json::{json, Map, Value};

fn fixture_json(path: &str) -> Value {
    let full = format!(
        "{}/tests/fixtures/nvidia/{path}",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_slice(&std::fs::read(full).unwrap()).unwrap()
}

fn token_claims(token: &str) -> Map<String, Value> {
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}

fn keys(map: &Map<String, Value>) -> BTreeSet<String> {
    map.keys().cloned().collect()
}

fn times() -> TokenTimes {
    TokenTimes {
        iss: "https://edgeattest.invalid".into(),
        iat: 1_749_601_858,
        nbf: 1_749_601_858,
        exp: 1_749_605_458,
        jti: "833480c9-6796-4fe4-b6ad-e9a58d7a67b2".into(),
    }
}

fn chain(expiry: u64) -> ChainOutcome {
    ChainOutcome {
        status: CertStatus::Valid,
        ocsp: RevocationStatus::Good,
        earliest_expiry: edgeattest::UnixTime::from_secs(expiry),
        revocation_reason: None,
        revocation_time: None,
    }
}

fn rim(expiry: u64) -> RimOutcome {
    RimOutcome {
        fetched: true,
        schema_validated: Some(true),
        cert_chain: Some(chain(expiry)),
        signature_verified: Some(true),
        version_match: Some(true),
        measurements_available: Some(true),
    }
}

/// The outcome behind the real 3.0 Hopper token (fixtures nras/nvat/hopperClaimsv3_*).
fn hopper_success() -> DeviceOutcome {
    DeviceOutcome {
        kind: DeviceKind::Gpu,
        evidence_verified: true,
        arch_check: true,
        report_parsed: true,
        signature_verified: Some(true),
        nonce_match: Some(true),
        cert_chain: Some(chain(253_402_300_799)),
        fwid_match: Some(true),
        hwmodel: Some("GH100 A01 GSP BROM".into()),
        ueid: Some("478176379286082186618948445787393647364802107249".into()),
        oemid: Some("5703".into()),
        driver_version: Some("550.90.07".into()),
        firmware_version: Some("96.00.9F.00.01".into()),
        driver_rim: Some(rim(1_780_279_709)),
        firmware_rim: Some(rim(1_771_802_278)),
        index_no_conflict: Some(true),
        measurements: MeasurementOutcome::Match,
        opaque_mismatches: Vec::new(),
        attester_claims: Default::default(),
        switch_pdis: None,
        mode: None,
        switch_pdi: None,
        switch_gpu_pdis: None,
        secure_boot: Some(true),
        debug_status: Some("disabled".into()),
        warning: None,
        error: None,
    }
}

fn ls10_success() -> DeviceOutcome {
    DeviceOutcome {
        kind: DeviceKind::Switch,
        hwmodel: Some("LS_10 A01 FSP BROM".into()),
        ueid: Some("694931143880983876767046803400974855445978836716".into()),
        oemid: None,
        driver_version: None,
        firmware_version: Some("96.10.55.00.01".into()),
        driver_rim: None,
        firmware_rim: Some(rim(1_779_299_946)),
        index_no_conflict: None,
        ..hopper_success()
    }
}

fn nonce() -> Nonce {
    Nonce::parse("931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb").unwrap()
}

#[test]
fn gpu_claims_3_0_equal_the_real_token() {
    let real = fixture_json("nras/nvat/hopperClaimsv3_decoded.json")["GPU-0"]
        .as_object()
        .unwrap()
        .clone();
    let ours =
        DeviceClaims::build(&hopper_success(), ClaimsVersion::V3_0, &nonce(), times()).to_json();
    assert_eq!(keys(&ours), keys(&real));
    for (name, value) in &real {
        if matches!(name.as_str(), "iss" | "iat" | "nbf" | "exp" | "jti") {
            continue;
        }
        assert_eq!(ours.get(name), Some(value), "{name}");
    }
}

#[test]
fn switch_claims_3_0_equal_the_real_token() {
    let real = fixture_json("nras/nvat/switch_decoded.json")["SWITCH-0"]
        .as_object()
        .unwrap()
        .clone();
    let ours =
        DeviceClaims::build(&ls10_success(), ClaimsVersion::V3_0, &nonce(), times()).to_json();
    assert_eq!(keys(&ours), keys(&real));
    for (name, value) in &real {
        if matches!(name.as_str(), "iss" | "iat" | "nbf" | "exp" | "jti") {
            continue;
        }
        assert_eq!(ours.get(name), Some(value), "{name}");
    }
}

#[test]
fn gpu_claims_2_0_have_the_real_v3_token_names_and_types() {
    let response = fixture_json("nras/teep/v3_1gpu_success_20260629_response.json");
    let real = token_claims(response[1]["GPU-0"].as_str().unwrap());
    let ours =
        DeviceClaims::build(&hopper_success(), ClaimsVersion::V2_0, &nonce(), times()).to_json();
    assert_eq!(keys(&ours), keys(&real));
    for (name, value) in &real {
        let ours = &ours[name];
        assert_eq!(
            std::mem::discriminant(ours),
            std::mem::discriminant(value),
            "{name}: {ours} vs {value}"
        );
        if value.is_boolean() {
            assert_eq!(ours, value, "{name}");
        }
    }
}

#[test]
fn switch_claims_2_0_have_the_sample_names() {
    let sample = fixture_json("claims-samples/nvtrust/switch_detached_claims_remote.json")
        .as_object()
        .unwrap()
        .clone();
    let ours =
        DeviceClaims::build(&ls10_success(), ClaimsVersion::V2_0, &nonce(), times()).to_json();
    assert_eq!(keys(&ours), keys(&sample));
}

#[test]
fn claims_1_0_cover_the_v2_policy_names() {
    let policy = fixture_json("policies/nvtrust/remote_v2_NVGPURemotePolicyExample.json");
    let ours =
        DeviceClaims::build(&hopper_success(), ClaimsVersion::V1_0, &nonce(), times()).to_json();
    for (name, value) in policy["authorization-rules"]["detached-claims"]
        .as_object()
        .unwrap()
    {
        assert_eq!(ours.get(name), Some(value), "{name}");
    }
    let switch_policy = fixture_json("policies/nvtrust/remote_v2_NVSwitchRemotePolicyExample.json");
    let ours =
        DeviceClaims::build(&ls10_success(), ClaimsVersion::V1_0, &nonce(), times()).to_json();
    for (name, value) in switch_policy["authorization-rules"]["detached-claims"]
        .as_object()
        .unwrap()
    {
        assert_eq!(ours.get(name), Some(value), "{name}");
    }
}

#[test]
fn v1_single_token_satisfies_the_v1_policy() {
    let policy = fixture_json("policies/nvtrust/remote_v1_NVGPURemotePolicyExample.json");
    let token =
        serde_json::to_value(GpuSingleTokenV1::new(&hopper_success(), &nonce(), times())).unwrap();
    let rules = policy["authorization-rules"].as_object().unwrap();
    for (name, expected) in rules {
        match name.as_str() {
            // The policy's values are examples of another device; check presence and type.
            "eat_nonce"
            | "x-nvidia-gpu-driver-version"
            | "x-nvidia-gpu-vbios-version"
            | "hwmodel" => {
                assert!(token[name].is_string(), "{name}");
            }
            "x-nvidia-attestation-detailed-result" => {
                for (check, value) in expected.as_object().unwrap() {
                    assert_eq!(&token[name][check], value, "{check}");
                }
            }
            _ => assert_eq!(&token[name], expected, "{name}"),
        }
    }
    assert_eq!(token["x-nvidia-eat-ver"], "EAT-21");
}

#[test]
fn switch_claims_3_0_carry_nvats_pdi_members_when_the_evidence_has_them() {
    let mut outcome = ls10_success();
    // Without PPCIE data, no PDI member (NVAT writes them only when not empty): the real
    // service's set.
    let plain = DeviceClaims::build(&outcome, ClaimsVersion::V3_0, &nonce(), times()).to_json();
    assert!(!plain.contains_key("x-nvidia-switch-pdi"));
    assert!(!plain.contains_key("x-nvidia-switch-gpu-pdis"));

    // NVAT's forms: the own PDI as stored, upper-case hex; the GPU PDIs as stored, sorted,
    // without repeats.
    use edgeattest::service::claims::{switch_gpu_pdis_claim, switch_pdi_claim};
    assert_eq!(
        switch_pdi_claim(&[0x66, 0x6e, 0x93, 0xe1, 0x9d, 0xec, 0x7d, 0x2d]),
        "666E93E19DEC7D2D"
    );
    let gpus = [[0xf9; 8], [0x2e; 8], [0xf9; 8]];
    assert_eq!(
        switch_gpu_pdis_claim(&gpus),
        ["2E2E2E2E2E2E2E2E", "F9F9F9F9F9F9F9F9"]
    );
    outcome.switch_pdi = Some("666E93E19DEC7D2D".into());
    outcome.switch_gpu_pdis = Some(switch_gpu_pdis_claim(&gpus));
    let ours = DeviceClaims::build(&outcome, ClaimsVersion::V3_0, &nonce(), times()).to_json();
    let added: BTreeSet<_> = keys(&ours).difference(&keys(&plain)).cloned().collect();
    assert_eq!(
        added,
        ["x-nvidia-switch-gpu-pdis", "x-nvidia-switch-pdi"]
            .map(String::from)
            .into()
    );
    assert_eq!(ours["x-nvidia-switch-pdi"], "666E93E19DEC7D2D");
    assert_eq!(
        ours["x-nvidia-switch-gpu-pdis"],
        json!(["2E2E2E2E2E2E2E2E", "F9F9F9F9F9F9F9F9"])
    );
    // 2.0 is the real service's v3 token: no such member.
    let v2 = DeviceClaims::build(&outcome, ClaimsVersion::V2_0, &nonce(), times()).to_json();
    assert!(!v2.contains_key("x-nvidia-switch-pdi"));
}

#[test]
fn gpu_claims_4_0_add_the_records() {
    let mut outcome = hopper_success();
    let ours = DeviceClaims::build(&outcome, ClaimsVersion::V4_0, &nonce(), times()).to_json();
    let v3 = DeviceClaims::build(&outcome, ClaimsVersion::V3_0, &nonce(), times()).to_json();
    let added: BTreeSet<_> = keys(&ours).difference(&keys(&v3)).cloned().collect();
    assert_eq!(
        added,
        [
            "x-nvidia-attester-claims",
            "x-nvidia-device-type",
            "x-nvidia-gpu-claims-version",
            "x-nvidia-mismatch-measurement-records",
            "x-nvidia-mismatch-opaque-data-records"
        ]
        .map(String::from)
        .into()
    );
    assert_eq!(ours["x-nvidia-attester-claims"], json!({}));
    assert_eq!(ours["x-nvidia-mismatch-measurement-records"], Value::Null);

    outcome.measurements = MeasurementOutcome::Mismatch(vec![edgeattest::rim::MismatchRecord {
        index: 9,
        golden_size: 48,
        golden_value: "aa".repeat(48),
        runtime_size: 48,
        runtime_value: "bb".repeat(48),
        measurement_source: edgeattest::rim::MeasurementSource::Firmware,
    }]);
    outcome.secure_boot = None;
    outcome.debug_status = None;
    outcome.attester_claims = [("FSP_UCODE_MIN_SVN".to_string(), 3)].into();
    let ours = DeviceClaims::build(&outcome, ClaimsVersion::V4_0, &nonce(), times()).to_json();
    assert_eq!(ours["measres"], "fail");
    assert_eq!(ours["secboot"], Value::Null);
    assert_eq!(ours["x-nvidia-mismatch-measurement-records"][0]["index"], 9);
    assert_eq!(
        ours["x-nvidia-mismatch-measurement-records"][0]["measurementSource"],
        "Firmware"
    );
    assert_eq!(
        ours["x-nvidia-attester-claims"],
        json!({"FSP_UCODE_MIN_SVN": 3})
    );
}

#[test]
fn failures_per_version() {
    let mut outcome = hopper_success();
    outcome.nonce_match = Some(false);
    outcome.evidence_verified = false;
    outcome.secure_boot = None;
    outcome.debug_status = None;
    outcome.measurements = MeasurementOutcome::NotRun;
    outcome.error = Some(ErrorDetails {
        code: 4010,
        field_name: "nonce".into(),
        http_status: "400 BAD_REQUEST".into(),
        description: "Nonce from request is not matching with evidence nonce ".into(),
        message: "NONCE_NOT_MATCHING".into(),
    });
    // 2.0: only the times and the error, exactly as the recorded nonce-mismatch token.
    let response = fixture_json("nras/teep/v3_8gpu_nonce_mismatch_20260520_response.json");
    let real = token_claims(response[1]["GPU-0"].as_str().unwrap());
    let ours = DeviceClaims::build(&outcome, ClaimsVersion::V2_0, &nonce(), times()).to_json();
    assert_eq!(keys(&ours), keys(&real));
    assert_eq!(
        ours["x-nvidia-error-details"],
        real["x-nvidia-error-details"]
    );
    // 3.0: every claim, the failing ones false or null, plus the error.
    let ours = DeviceClaims::build(&outcome, ClaimsVersion::V3_0, &nonce(), times()).to_json();
    let real_v3 = fixture_json("nras/nvat/hopperClaimsv3_decoded.json")["GPU-0"]
        .as_object()
        .unwrap()
        .clone();
    let mut expected = keys(&real_v3);
    expected.insert("x-nvidia-error-details".into());
    assert_eq!(keys(&ours), expected);
    assert_eq!(ours["x-nvidia-gpu-attestation-report-nonce-match"], false);
    assert_eq!(ours["measres"], "fail");
    assert_eq!(ours["secboot"], Value::Null);
    assert_eq!(ours["dbgstat"], Value::Null);
}
