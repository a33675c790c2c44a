//! The verdict rule and the appraisal: an authentic result whose service verdict is false (or
//! absent) is refused with its own code and keeps its appraisal; the appraisal reads the
//! reasons from the real service's tokens and from every claims version the service writes.
#![cfg(not(target_arch = "wasm32"))]

use std::fs;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use edgeattest::attest::{ClaimsVersion, DeviceKind, Nonce};
use edgeattest::chain::RevocationStatus;
use edgeattest::crypto::SigningKey;
use edgeattest::rim::{MeasurementSource, MismatchRecord};
use edgeattest::service::{
    claims::{DeviceClaims, GpuSingleTokenV1, OverallClaims, TokenTimes},
    CertStatus, ChainOutcome, DeviceOutcome, ErrorDetails, MeasurementOutcome, RimOutcome,
};
use edgeattest::token::{
    create_detached_eat, create_v1_result, sign_jwt, verify_attestation_result, Appraisal,
    DeviceAppraisal, Jwks, JwksKey, ResultFormat, Signers, TokenError, VerifiedAttestationResult,
    VerifyOptions,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};

use super::teep::capture;

pub(super) const KID: &str = "appraisal-test";
pub(super) const ISS: &str = "https://edgeattest.invalid";
pub(super) const IAT: u64 = 1_749_601_858;
pub(super) const NONCE: &str = "931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb";

// ---- fixtures -----------------------------------------------------------------------------

pub(super) fn fixture(path: &str) -> Vec<u8> {
    fs::read(format!(
        "{}/tests/fixtures/nvidia/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

pub(super) fn fixture_json(path: &str) -> Value {
    serde_json::from_slice(&fixture(path)).unwrap()
}

pub(super) fn nvidia_options(nonce: &str) -> VerifyOptions {
    VerifyOptions::new()
        .issuer("https://nras.attestation.nvidia.com")
        .nonce(nonce)
}

// ---- minted results over the service's claim sets -----------------------------------------

pub(super) fn key() -> SigningKey {
    SigningKey::generate(&[0x31; 48]).unwrap()
}

pub(super) fn jwks() -> Jwks {
    Jwks::new(vec![JwksKey::new(Some(KID.into()), key().public_key())]).unwrap()
}

/// The minted results' key carries no `x5c`: the options opt out of pinning.
pub(super) fn options() -> VerifyOptions {
    VerifyOptions::new()
        .issuer(ISS)
        .nonce(NONCE)
        .signers(Signers::Any)
}

pub(super) fn times() -> TokenTimes {
    TokenTimes {
        iss: ISS.into(),
        iat: IAT as i64,
        nbf: IAT as i64,
        exp: IAT as i64 + 3600,
        jti: "833480c9-6796-4fe4-b6ad-e9a58d7a67b2".into(),
    }
}

pub(super) fn nonce() -> Nonce {
    Nonce::parse(NONCE).unwrap()
}

pub(super) fn chain(status: CertStatus, expiry: u64) -> ChainOutcome {
    ChainOutcome {
        status,
        ocsp: RevocationStatus::Good,
        earliest_expiry: UnixTime::from_secs(expiry),
        revocation_reason: None,
        revocation_time: None,
    }
}

pub(super) fn rim(expiry: u64) -> RimOutcome {
    RimOutcome {
        fetched: true,
        schema_validated: Some(true),
        cert_chain: Some(chain(CertStatus::Valid, expiry)),
        signature_verified: Some(true),
        version_match: Some(true),
        measurements_available: Some(true),
    }
}

/// The outcome behind the real 3.0 Hopper token (fixtures nras/nvat/hopperClaimsv3_*).
pub(super) fn hopper_success() -> DeviceOutcome {
    DeviceOutcome {
        kind: DeviceKind::Gpu,
        evidence_verified: true,
        arch_check: true,
        report_parsed: true,
        signature_verified: Some(true),
        nonce_match: Some(true),
        cert_chain: Some(chain(CertStatus::Valid, 253_402_300_799)),
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

pub(super) fn ls10_success() -> DeviceOutcome {
    DeviceOutcome {
        kind: DeviceKind::Switch,
        hwmodel: Some("LS_10 A01 FSP BROM".into()),
        oemid: None,
        driver_version: None,
        firmware_version: Some("96.10.55.00.01".into()),
        driver_rim: None,
        firmware_rim: Some(rim(1_779_299_946)),
        index_no_conflict: None,
        ..hopper_success()
    }
}

pub(super) fn failed(mut outcome: DeviceOutcome, error: ErrorDetails) -> DeviceOutcome {
    outcome.secure_boot = None;
    outcome.debug_status = None;
    outcome.error = Some(error);
    outcome
}

pub(super) fn details(code: u16, field: &str, message: &str, description: &str) -> ErrorDetails {
    ErrorDetails {
        code,
        field_name: field.into(),
        http_status: "400 BAD_REQUEST".into(),
        description: description.into(),
        message: message.into(),
    }
}

/// The real service's nonce-mismatch failure (as in the recorded 8-GPU exchange).
pub(super) fn nonce_mismatch(outcome: DeviceOutcome) -> DeviceOutcome {
    let mut outcome = failed(
        outcome,
        details(
            4010,
            "nonce",
            "NONCE_NOT_MATCHING",
            "Nonce from request is not matching with evidence nonce ",
        ),
    );
    outcome.nonce_match = Some(false);
    outcome.evidence_verified = false;
    outcome.measurements = MeasurementOutcome::NotRun;
    outcome
}

/// Measurements 3, 5 and 9 of the driver RIM differ (no error: the comparison itself failed).
pub(super) fn mismatch(mut outcome: DeviceOutcome, source: MeasurementSource) -> DeviceOutcome {
    outcome.measurements = MeasurementOutcome::Mismatch(
        [3, 5, 9]
            .into_iter()
            .map(|index| MismatchRecord {
                index,
                golden_size: 48,
                golden_value: "aa".repeat(48),
                runtime_size: 48,
                runtime_value: "bb".repeat(48),
                measurement_source: source,
            })
            .collect(),
    );
    outcome.secure_boot = None;
    outcome.debug_status = None;
    outcome
}

/// The driver RIM's signing chain has expired (the service's 4011).
pub(super) fn expired_driver_rim(outcome: DeviceOutcome) -> DeviceOutcome {
    let mut outcome = failed(
        outcome,
        details(
            4011,
            "rim",
            "CERTIFICATE_EXPIRED",
            "RIM signing certificate chain has expired",
        ),
    );
    if let Some(rim) = outcome.driver_rim.as_mut() {
        rim.cert_chain = Some(chain(CertStatus::Expired, 1_735_776_000));
    }
    outcome
}

pub(super) fn device_claims(outcome: &DeviceOutcome, version: ClaimsVersion) -> Map<String, Value> {
    DeviceClaims::build(outcome, version, &nonce(), times()).to_json()
}

pub(super) fn overall(version: ClaimsVersion, verdict: Option<bool>) -> Map<String, Value> {
    let mut claims =
        OverallClaims::new(times(), version, verdict.unwrap_or(false), NONCE.into()).to_json();
    if verdict.is_none() {
        claims.remove("x-nvidia-overall-att-result");
    }
    claims
}

pub(super) fn mint(
    version: ClaimsVersion,
    verdict: Option<bool>,
    devices: &[(&str, Map<String, Value>)],
) -> String {
    let tokens: Vec<(String, String)> = devices
        .iter()
        .map(|(label, claims)| ((*label).to_owned(), sign_jwt(claims, &key(), KID).unwrap()))
        .collect();
    create_detached_eat(&overall(version, verdict), &tokens, &key(), KID).unwrap()
}

pub(super) fn verify(
    result: &str,
    options: &VerifyOptions,
) -> Result<VerifiedAttestationResult, TokenError> {
    verify_attestation_result(
        result.as_bytes(),
        &jwks(),
        options,
        UnixTime::from_secs(IAT).unwrap(),
    )
}

/// The refusal's code, appraisal and result.
pub(super) fn refused(
    result: &str,
) -> (&'static str, Appraisal, VerifiedAttestationResult, String) {
    let error = verify(result, &options()).unwrap_err();
    let (appraisal, verified) = error.refused_result().expect("a verdict refusal");
    (
        error.code(),
        appraisal.clone(),
        verified.clone(),
        error.to_string(),
    )
}

pub(super) fn claims_in(device: &DeviceAppraisal) -> Vec<&str> {
    device.reasons().iter().map(|r| r.claim()).collect()
}

// ---- the real service's results -----------------------------------------------------------

#[test]
fn recorded_passes_verify_by_default_and_appraise_as_passed() {
    for name in ["v3_1gpu_success_20260629", "v3_8gpu_success_20260629"] {
        let c = capture(name);
        let verified = verify_attestation_result(
            &c.response,
            &c.jwks,
            &nvidia_options(&c.nonce),
            UnixTime::from_secs(c.iat).unwrap(),
        )
        .unwrap();
        let appraisal = verified.appraisal();
        assert!(appraisal.passed(), "{name}");
        assert_eq!(appraisal.overall_result(), Some(true));
        assert_eq!(appraisal.devices().len(), verified.devices().len());
        for device in appraisal.devices() {
            assert_eq!(device.passed(), Some(true), "{name} {}", device.label());
            assert!(device.reasons().is_empty());
        }
        assert_eq!(appraisal.first_failure(), None);
    }
}

#[test]
fn recorded_failure_is_refused_with_its_appraisal_and_result() {
    let c = capture("v3_8gpu_nonce_mismatch_20260520");
    let error = verify_attestation_result(
        &c.response,
        &c.jwks,
        &nvidia_options(&c.nonce),
        UnixTime::from_secs(c.iat).unwrap(),
    )
    .unwrap_err();
    assert_eq!(error.code(), "ERR_ATTESTATION_FAILED");
    let (appraisal, result) = error.refused_result().unwrap();
    assert!(!appraisal.passed());
    assert_eq!(appraisal.overall_result(), Some(false));
    assert_eq!(result.devices().len(), 8);
    assert_eq!(appraisal.devices().len(), 8);
    let first = &result.devices()[0];
    assert_eq!(error.field(), Some(first.label()));
    for device in appraisal.devices() {
        assert_eq!(device.passed(), Some(false));
        let [reason] = device.reasons() else {
            panic!("{:?}", device.reasons())
        };
        assert_eq!(reason.claim(), "x-nvidia-error-details");
        assert_eq!(reason.value()["code"], 4010);
        assert_eq!(
            reason.message(),
            "the service reported error 4010 NONCE_NOT_MATCHING: Nonce from request is not \
             matching with evidence nonce"
        );
    }
    let message = error.to_string();
    assert!(
        message.starts_with(&format!("the attestation failed: {}: ", first.label())),
        "{message}"
    );
    assert!(message.contains("NONCE_NOT_MATCHING"), "{message}");

    // Allowed: the same result, resolved, with the same appraisal.
    let allowed = verify_attestation_result(
        &c.response,
        &c.jwks,
        &nvidia_options(&c.nonce).allow_failed_result(true),
        UnixTime::from_secs(c.iat).unwrap(),
    )
    .unwrap();
    assert_eq!(&allowed, result);
    assert_eq!(&allowed.appraisal(), appraisal);
}

#[test]
fn a_forged_failure_fails_with_its_own_code_never_the_verdict_code() {
    let c = capture("v3_8gpu_nonce_mismatch_20260520");
    let mut result: Value = serde_json::from_slice(&c.response).unwrap();
    // Flip one byte of the overall signature.
    let overall = result[0][1].as_str().unwrap().to_owned();
    let (head, signature) = overall.rsplit_once('.').unwrap();
    let mut bytes = URL_SAFE_NO_PAD.decode(signature).unwrap();
    bytes[10] ^= 1;
    result[0][1] = format!("{head}.{}", URL_SAFE_NO_PAD.encode(bytes)).into();
    for allow in [false, true] {
        let options = nvidia_options(&c.nonce).allow_failed_result(allow);
        let error = verify_attestation_result(
            result.to_string().as_bytes(),
            &c.jwks,
            &options,
            UnixTime::from_secs(c.iat).unwrap(),
        )
        .unwrap_err();
        assert_eq!(error.code(), "ERR_JWS_SIGNATURE_VERIFICATION_FAILED");
        assert!(error.refused_result().is_none());
    }
    // Expired: the token's own code, not the verdict's.
    let error = verify_attestation_result(
        &c.response,
        &c.jwks,
        &nvidia_options(&c.nonce),
        UnixTime::from_secs(c.iat + 3600).unwrap(),
    )
    .unwrap_err();
    assert_eq!(error.code(), "ERR_JWT_EXPIRED");
}

#[test]
fn real_claims_3_0_tokens_appraise_as_passed_and_their_failures_in_words() {
    // NVIDIA's production GPU token and staging switch token (no JWKS: read as claims).
    let gpu = fixture_json("nras/nvat/hopperClaimsv3_decoded.json")["GPU-0"]
        .as_object()
        .unwrap()
        .clone();
    let switch = fixture_json("nras/nvat/switch_decoded.json")["SWITCH-0"]
        .as_object()
        .unwrap()
        .clone();
    for (label, claims) in [("GPU-0", &gpu), ("SWITCH-0", &switch)] {
        let device = DeviceAppraisal::from_claims(label, claims);
        assert_eq!(device.passed(), Some(true), "{label}");
        assert!(device.reasons().is_empty(), "{:?}", device.reasons());
    }

    let mut expired = gpu.clone();
    expired["x-nvidia-gpu-driver-rim-cert-chain"]["x-nvidia-cert-status"] = "expired".into();
    let device = DeviceAppraisal::from_claims("GPU-0", &expired);
    assert_eq!(device.passed(), Some(false));
    assert_eq!(
        device.reasons()[0].message(),
        "the driver RIM's signing certificate chain has expired (2026-06-01T02:08:29Z)"
    );

    let mut revoked = switch.clone();
    revoked["x-nvidia-switch-attestation-report-cert-chain"]["x-nvidia-cert-ocsp-status"] =
        "revoked".into();
    revoked["x-nvidia-switch-attestation-report-cert-chain"]["x-nvidia-cert-revocation-reason"] =
        "keyCompromise".into();
    let device = DeviceAppraisal::from_claims("SWITCH-0", &revoked);
    assert_eq!(
        claims_in(&device),
        ["x-nvidia-switch-attestation-report-cert-chain"]
    );
    assert_eq!(
        device.reasons()[0].message(),
        "the device certificate chain has been revoked (keyCompromise)"
    );

    let mut unsigned = switch;
    unsigned["x-nvidia-switch-bios-rim-signature-verified"] = false.into();
    unsigned["measres"] = "fail".into();
    let device = DeviceAppraisal::from_claims("SWITCH-0", &unsigned);
    assert_eq!(
        claims_in(&device),
        ["x-nvidia-switch-bios-rim-signature-verified", "measres"]
    );
    assert_eq!(
        device.reasons()[0].message(),
        "the BIOS RIM's signature did not verify"
    );
}

// ---- every claims version -----------------------------------------------------------------

#[test]
fn the_v1_single_token_is_appraised_as_its_gpu() {
    for (outcome, passed) in [
        (hopper_success(), true),
        (
            mismatch(hopper_success(), MeasurementSource::Firmware),
            false,
        ),
    ] {
        let token = GpuSingleTokenV1::new(&outcome, &nonce(), times());
        let token = sign_jwt(&token, &key(), KID).unwrap();
        let result = create_v1_result(&token);
        let v1 = options().result_format(ResultFormat::V1);
        match verify(&result, &v1) {
            Ok(verified) => {
                assert!(passed);
                let appraisal = verified.appraisal();
                assert!(appraisal.passed());
                assert_eq!(appraisal.devices()[0].label(), "GPU-0");
            }
            Err(error) => {
                assert!(!passed);
                assert_eq!(error.code(), "ERR_ATTESTATION_FAILED");
                let (appraisal, _) = error.refused_result().unwrap();
                let device = &appraisal.devices()[0];
                assert_eq!(device.label(), "GPU-0");
                // The grouped check (x-nvidia-attestation-detailed-result) is read too.
                assert_eq!(
                    claims_in(device),
                    [
                        "x-nvidia-mismatch-measurement-records",
                        "x-nvidia-gpu-measurements-match",
                        "measres"
                    ]
                );
                assert_eq!(
                    device.reasons()[0].message(),
                    "3 measurements differ from the VBIOS RIM: indices 3, 5, 9"
                );
            }
        }
    }
}

// ---- the verdict rule ---------------------------------------------------------------------

#[test]
fn a_missing_verdict_is_refused_and_allowed_only_on_request() {
    let claims = device_claims(&hopper_success(), ClaimsVersion::V3_0);
    let result = mint(ClaimsVersion::V3_0, None, &[("GPU-0", claims)]);
    let (code, appraisal, verified, message) = refused(&result);
    assert_eq!(code, "ERR_ATTESTATION_RESULT_MISSING");
    assert_eq!(appraisal.overall_result(), None);
    assert!(!appraisal.passed());
    // The device itself says it passed; the result still has no verdict.
    assert_eq!(appraisal.devices()[0].passed(), Some(true));
    assert_eq!(verified.overall_result(), None);
    assert_eq!(message, "the attestation result carries no overall verdict");

    let allowed = verify(&result, &options().allow_failed_result(true)).unwrap();
    assert_eq!(allowed.overall_result(), None);
    assert!(!allowed.appraisal().passed());
}

#[test]
fn a_device_that_says_it_failed_under_an_overall_pass_is_refused() {
    let failed = device_claims(
        &mismatch(hopper_success(), MeasurementSource::Driver),
        ClaimsVersion::V4_0,
    );
    let passed = device_claims(&hopper_success(), ClaimsVersion::V4_0);
    let result = mint(
        ClaimsVersion::V4_0,
        Some(true),
        &[("GPU-0", passed), ("GPU-1", failed)],
    );
    let (code, appraisal, _, message) = refused(&result);
    assert_eq!(code, "ERR_ATTESTATION_FAILED");
    assert_eq!(appraisal.overall_result(), Some(true));
    assert_eq!(appraisal.devices()[0].passed(), Some(true));
    assert_eq!(appraisal.devices()[1].passed(), Some(false));
    assert_eq!(
        message,
        "a device of the attestation failed: GPU-1: 3 measurements differ from the driver RIM: \
         indices 3, 5, 9"
    );
}

#[test]
fn failures_are_ordered_most_decisive_first() {
    // A 3.0 token where the evidence, a RIM and the platform state all failed.
    let mut claims = device_claims(&hopper_success(), ClaimsVersion::V3_0);
    claims["dbgstat"] = "enabled".into();
    claims["x-nvidia-gpu-vbios-rim-version-match"] = false.into();
    claims["x-nvidia-gpu-attestation-report-signature-verified"] = false.into();
    claims["measres"] = "fail".into();
    claims.insert(
        "x-nvidia-error-details".into(),
        json!({"code": 4003, "fieldName": "evidence", "httpStatus": "400 BAD_REQUEST",
            "description": "", "message": "INVALID_SIGNATURE"}),
    );
    let device = DeviceAppraisal::from_claims("GPU-0", &claims);
    assert_eq!(
        claims_in(&device),
        [
            "x-nvidia-error-details",
            "x-nvidia-gpu-attestation-report-signature-verified",
            "x-nvidia-gpu-vbios-rim-version-match",
            "measres",
            "dbgstat",
        ]
    );
    let messages: Vec<&str> = device.reasons().iter().map(|r| r.message()).collect();
    assert_eq!(
        messages,
        [
            "the service reported error 4003 INVALID_SIGNATURE",
            "the attestation report's signature did not verify",
            "the VBIOS RIM's version differs from the version in the attestation report",
            "the measurement comparison did not succeed (fail)",
            "debug mode is not disabled (enabled)",
        ]
    );
}

#[test]
fn a_token_that_says_nothing_fails_as_unreadable() {
    // No verdict claim (neither measres nor x-nvidia-error-details): it cannot be read.
    let device = DeviceAppraisal::from_claims("GPU-0", &Map::new());
    assert_eq!(device.passed(), Some(false));
    assert!(device.unreadable());
    assert_eq!(claims_in(&device), ["measres"]);
    // `null` means "not computed", not "failed".
    let mut claims = device_claims(&hopper_success(), ClaimsVersion::V3_0);
    claims["x-nvidia-gpu-driver-rim-cert-chain"] = Value::Null;
    claims["secboot"] = Value::Null;
    let device = DeviceAppraisal::from_claims("GPU-0", &claims);
    assert_eq!(device.passed(), Some(true));
}
