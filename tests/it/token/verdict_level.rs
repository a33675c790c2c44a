//! The one verdict scale (`VerdictLevel`), decided in the core from real tokens: NVIDIA's
//! recorded results (passed at their recorded time, expired now, answered to another nonce,
//! forged by one flipped signature byte, a recorded failure) and the service's own claim sets
//! minted here (passed with warnings: a chain ending at a test PKI's root, revocation not
//! checked). A token failure's level is the worst of every token's; the page shows these
//! levels and nothing else.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::attest::ClaimsVersion;
use edgeattest::chain::RevocationStatus;
use edgeattest::service::{OTHER_ROOT_WARNING, REVOCATION_WARNING};
use edgeattest::token::{
    prepare_attestation_result, verify_attestation_result, AttestationReport, Jwks, TokenError,
    VerdictLevel, VerifyOptions,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::Value;

use super::appraisal::{device_claims, hopper_success, mint, nvidia_options, options, verify};
use super::teep::{capture, Capture};

/// Two days: every recorded token's `exp` (`iat` + at most one day) has passed.
const LATER: u64 = 2 * 86_400;

/// Every token's verdict, the signatures checked in software.
fn report(result: &[u8], jwks: &Jwks, options: &VerifyOptions, now: u64) -> AttestationReport {
    let prepared =
        prepare_attestation_result(result, jwks, options, UnixTime::from_secs(now).unwrap())
            .unwrap();
    let verdicts: Vec<bool> = prepared
        .signature_checks()
        .iter()
        .map(|c| c.verify().is_ok())
        .collect();
    prepared.report(&verdicts).unwrap()
}

/// The level verifyAttestationResult's answer has: the appraisal's, or the error's.
fn level_of(
    answer: Result<edgeattest::token::VerifiedAttestationResult, TokenError>,
) -> VerdictLevel {
    match answer {
        Ok(verified) => verified.appraisal().level(),
        Err(error) => VerdictLevel::of_error(&error).unwrap_or_else(|| panic!("{error}")),
    }
}

fn recorded(c: &Capture, nonce: &str, now: u64) -> VerdictLevel {
    let options = nvidia_options(nonce).allow_failed_result(true);
    let by_error = level_of(verify_attestation_result(
        &c.response,
        &c.jwks,
        &options,
        UnixTime::from_secs(now).unwrap(),
    ));
    let report = report(&c.response, &c.jwks, &options, now);
    if let Some(level) = VerdictLevel::of_token_failures(&report) {
        assert_eq!(level, by_error, "the report and the error disagree");
    } else {
        assert!(by_error >= VerdictLevel::Failed);
    }
    by_error
}

/// The recorded result with one byte of the overall token's signature changed.
fn forged(c: &Capture) -> Vec<u8> {
    let mut result: Value = serde_json::from_slice(&c.response).unwrap();
    let token = result[0][1].as_str().unwrap().to_owned();
    let last = token.chars().last().unwrap();
    let flipped = if last == 'A' { 'B' } else { 'A' };
    result[0][1] = Value::from(format!("{}{flipped}", &token[..token.len() - 1]));
    serde_json::to_vec(&result).unwrap()
}

#[test]
fn a_recorded_pass_is_passed_at_its_recorded_time_and_expired_later() {
    for name in ["v3_1gpu_success_20260629", "v3_8gpu_success_20260629"] {
        let c = capture(name);
        assert_eq!(
            recorded(&c, &c.nonce, c.iat),
            VerdictLevel::Passed,
            "{name}"
        );
        assert_eq!(
            recorded(&c, &c.nonce, c.iat + LATER),
            VerdictLevel::Expired,
            "{name}"
        );
    }
}

#[test]
fn a_recorded_result_checked_against_another_nonce_is_wrong_nonce_not_forged() {
    let c = capture("v3_1gpu_success_20260629");
    let typo = format!("{}0", &c.nonce[..c.nonce.len() - 1]);
    assert_ne!(typo, c.nonce);
    assert_eq!(recorded(&c, &typo, c.iat), VerdictLevel::WrongNonce);
    let error = verify_attestation_result(
        &c.response,
        &c.jwks,
        &nvidia_options(&typo),
        UnixTime::from_secs(c.iat).unwrap(),
    )
    .unwrap_err();
    assert_eq!(error.code(), "ERR_EAT_NONCE_MISMATCH");
}

#[test]
fn one_changed_signature_byte_is_forged_even_when_also_expired_or_another_nonce() {
    let c = capture("v3_1gpu_success_20260629");
    let result = forged(&c);
    let typo = format!("{}0", &c.nonce[..c.nonce.len() - 1]);
    for (nonce, now) in [(&c.nonce, c.iat), (&typo, c.iat), (&c.nonce, c.iat + LATER)] {
        let options = nvidia_options(nonce);
        let error = verify_attestation_result(
            &result,
            &c.jwks,
            &options,
            UnixTime::from_secs(now).unwrap(),
        )
        .unwrap_err();
        assert_eq!(error.code(), "ERR_JWS_SIGNATURE_VERIFICATION_FAILED");
        assert_eq!(VerdictLevel::of_error(&error), Some(VerdictLevel::Forged));
        let report = report(&result, &c.jwks, &options, now);
        assert_eq!(
            VerdictLevel::of_token_failures(&report),
            Some(VerdictLevel::Forged),
            "the worst token failure decides"
        );
    }
    // Another service's key set: no key for the kid.
    let other = capture("v3_8gpu_nonce_mismatch_20260520");
    let error = verify_attestation_result(
        &c.response,
        &other.jwks,
        &nvidia_options(&c.nonce),
        UnixTime::from_secs(c.iat).unwrap(),
    )
    .unwrap_err();
    assert_eq!(
        VerdictLevel::of_error(&error),
        Some(VerdictLevel::Forged),
        "{error}"
    );
}

#[test]
fn a_recorded_failure_is_failed_authentic_and_not_wrong_nonce() {
    // NRAS's verdict is false (the evidence answered another nonce); the result itself is
    // authentic and answers the request's nonce.
    let c = capture("v3_8gpu_nonce_mismatch_20260520");
    assert_eq!(recorded(&c, &c.nonce, c.iat), VerdictLevel::Failed);
    let error = verify_attestation_result(
        &c.response,
        &c.jwks,
        &nvidia_options(&c.nonce),
        UnixTime::from_secs(c.iat).unwrap(),
    )
    .unwrap_err();
    assert_eq!(error.code(), "ERR_ATTESTATION_FAILED");
    assert_eq!(VerdictLevel::of_error(&error), Some(VerdictLevel::Failed));
}

#[test]
fn a_pass_with_device_warnings_is_passed_with_warnings_and_carries_them_per_device() {
    let version = ClaimsVersion::V3_0;
    // A chain that ends at a test PKI's root: the service passes it and says so.
    let mut test_pki = hopper_success();
    let warning = OTHER_ROOT_WARNING.replace("{root}", "CN=edgeattest TEST PKI root");
    test_pki.warning = Some(warning.clone());
    let result = mint(
        version,
        Some(true),
        &[
            ("GPU-0", device_claims(&test_pki, version)),
            ("GPU-1", device_claims(&hopper_success(), version)),
        ],
    );
    let verified = verify(&result, &options()).unwrap();
    let appraisal = verified.appraisal();
    assert_eq!(appraisal.level(), VerdictLevel::PassedWithWarnings);
    assert_eq!(appraisal.devices()[0].warnings(), [warning.as_str()]);
    assert!(appraisal.devices()[1].warnings().is_empty());
    let json = serde_json::to_value(&verified).unwrap();
    assert_eq!(json["appraisal"]["level"], "passed-with-warnings");
    assert_eq!(
        json["appraisal"]["devices"][0]["warnings"][0],
        warning.as_str()
    );
    assert_eq!(
        json["appraisal"]["devices"][1]["warnings"],
        Value::Array(vec![])
    );

    // Revocation not checked: refused by default, its level still says what it is.
    let mut unchecked = hopper_success();
    if let Some(chain) = unchecked.cert_chain.as_mut() {
        chain.ocsp = RevocationStatus::Unknown;
    }
    unchecked.warning = Some(REVOCATION_WARNING.into());
    let result = mint(
        version,
        Some(true),
        &[("GPU-0", device_claims(&unchecked, version))],
    );
    let error = verify(&result, &options()).unwrap_err();
    assert_eq!(error.code(), "ERR_REVOCATION_UNCONFIRMED");
    assert_eq!(
        VerdictLevel::of_error(&error),
        Some(VerdictLevel::PassedWithWarnings)
    );
    let relaxed = verify(&result, &options().allow_unknown_revocation(true)).unwrap();
    let appraisal = relaxed.appraisal();
    assert_eq!(appraisal.level(), VerdictLevel::PassedWithWarnings);
    // The service's words, once: not repeated by the relying party's own.
    assert_eq!(appraisal.devices()[0].warnings(), [REVOCATION_WARNING]);

    // A plain pass has no warning.
    let result = mint(
        version,
        Some(true),
        &[("GPU-0", device_claims(&hopper_success(), version))],
    );
    assert_eq!(
        verify(&result, &options()).unwrap().appraisal().level(),
        VerdictLevel::Passed
    );
}

#[test]
fn chains_not_confirmed_without_the_services_words_get_the_relying_partys_warning() {
    let version = ClaimsVersion::V3_0;
    let mut unknown = hopper_success();
    if let Some(chain) = unknown.cert_chain.as_mut() {
        chain.ocsp = RevocationStatus::Unknown;
    }
    unknown.warning = None;
    let result = mint(
        version,
        Some(true),
        &[("GPU-0", device_claims(&unknown, version))],
    );
    let verified = verify(&result, &options().allow_unknown_revocation(true)).unwrap();
    let warnings = verified.appraisal().devices()[0].warnings().to_vec();
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].contains("revocation is not confirmed"),
        "{warnings:?}"
    );
}

#[test]
fn the_levels_are_ordered_worst_first_and_only_two_pass() {
    let all = VerdictLevel::ALL;
    assert!(all.windows(2).all(|w| w[0] < w[1]));
    let passing: Vec<_> = all
        .iter()
        .filter(|l| l.is_pass())
        .map(|l| l.as_str())
        .collect();
    assert_eq!(passing, ["passed-with-warnings", "passed"]);
    let names: Vec<_> = all.iter().map(|l| l.as_str()).collect();
    assert_eq!(
        names,
        [
            "forged",
            "wrong-nonce",
            "expired",
            "failed",
            "passed-with-warnings",
            "passed"
        ]
    );
}
