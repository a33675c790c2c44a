//! The revocation time of a chain object (`x-edgeattest-cert-revocation-time`, claims 3.0/4.0)
//! as the relying party reads it: a grace period counts from it and never from the service's
//! warning prose; a `good` chain that carries it was accepted on hold; a member that is not an
//! RFC 3339 string makes the claims unreadable, never a pass.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::attest::ClaimsVersion;
use edgeattest::ocsp::{Relaxation, RevocationComponent, RevocationPolicy};
use edgeattest::service::ChainOutcome;
use edgeattest::{ErrorCode, UnixTime};
use serde_json::{json, Map, Value};

use super::appraisal::{device_claims, hopper_success, mint, options, verify};
use super::revocation_policy::{assert_relaxed, grace, hold, only};

/// A 3.0 pass of the Hopper whose device chain the service reports revoked an hour before
/// `IAT` (`keyCompromise`) and passed in its grace period: the chain object as the service's
/// claims writer writes it (with `x-edgeattest-cert-revocation-time` when `dated`), and the
/// service's grace-period warning.
fn revoked_in_grace(dated: bool) -> Map<String, Value> {
    use super::appraisal::{chain, IAT};
    use edgeattest::chain::RevocationStatus;
    use edgeattest::service::CertStatus;
    let at = UnixTime::from_secs(IAT - 3600).unwrap();
    let mut outcome = hopper_success();
    outcome.cert_chain = Some(ChainOutcome {
        ocsp: RevocationStatus::Revoked,
        revocation_reason: Some("keyCompromise".into()),
        revocation_time: dated.then_some(at),
        ..chain(CertStatus::Revoked, 253_402_300_799)
    });
    outcome.warning = Some(
        Relaxation::RevokedInGrace {
            reason: Some(edgeattest::ocsp::RevocationReason::KeyCompromise),
            at,
            until: at.saturating_add(7200),
        }
        .warning(RevocationComponent::DeviceChain),
    );
    device_claims(&outcome, ClaimsVersion::V3_0)
}

const DEVICE_CHAIN: &str = "x-nvidia-gpu-attestation-report-cert-chain";

#[test]
fn the_grace_period_counts_from_the_chains_revocation_time_member() {
    let claims = revoked_in_grace(true);
    assert_eq!(
        claims[DEVICE_CHAIN]["x-edgeattest-cert-revocation-time"],
        UnixTime::from_secs(super::appraisal::IAT - 3600)
            .unwrap()
            .to_string()
    );
    let result = mint(ClaimsVersion::V3_0, Some(true), &[("GPU-0", claims)]);
    // Revoked an hour before: a two-hour period covers now, a half-hour one does not.
    let device = RevocationComponent::DeviceChain;
    let inside = verify(&result, &options().revocation(only(device, grace(7200)))).unwrap();
    assert_relaxed(&inside, device, "revokedGracePeriod");
    let error = verify(&result, &options().revocation(only(device, grace(1800)))).unwrap_err();
    assert_eq!(error.code(), "ERR_ATTESTATION_FAILED");
    let (appraisal, _) = error.refused_result().unwrap();
    let reason = appraisal.devices()[0].reasons()[0].message();
    assert!(reason.contains("revokedGracePeriod ended at"), "{reason}");
    // Strict: refused.
    let strict = verify(&result, &options()).unwrap_err();
    assert_eq!(strict.code(), "ERR_ATTESTATION_FAILED");
}

#[test]
fn the_service_warning_alone_dates_no_revocation() {
    // The warning names the revocation time in prose; without the member it is not read.
    let claims = revoked_in_grace(false);
    assert!(claims[DEVICE_CHAIN]
        .get("x-edgeattest-cert-revocation-time")
        .is_none());
    let warning = claims["x-nvidia-attestation-warning"].as_str().unwrap();
    assert!(warning.contains("was revoked at 20"), "{warning}");
    let result = mint(ClaimsVersion::V3_0, Some(true), &[("GPU-0", claims)]);
    let policy = only(RevocationComponent::DeviceChain, grace(u64::from(u32::MAX)));
    let error = verify(&result, &options().revocation(policy)).unwrap_err();
    assert_eq!(error.code(), "ERR_ATTESTATION_FAILED");
    let (appraisal, _) = error.refused_result().unwrap();
    let reason = appraisal.devices()[0].reasons()[0].message();
    assert!(reason.contains("carry no revocation time"), "{reason}");
}

/// A 3.0 pass of the Hopper whose device chain reads `valid`/`good`, with the service's hold
/// warning (`warned`) and the chain's revocation time (`dated`).
fn good_chain(warned: bool, dated: bool) -> Map<String, Value> {
    let mut claims = device_claims(&hopper_success(), ClaimsVersion::V3_0);
    if warned {
        claims.insert(
            "x-nvidia-attestation-warning".into(),
            Relaxation::Held
                .warning(RevocationComponent::DeviceChain)
                .into(),
        );
    }
    if dated {
        claims[DEVICE_CHAIN].as_object_mut().unwrap().insert(
            "x-edgeattest-cert-revocation-time".into(),
            "2024-06-01T00:00:00Z".into(),
        );
    }
    claims
}

#[test]
fn an_accepted_hold_is_read_from_the_chains_revocation_time_not_the_warning() {
    let device = RevocationComponent::DeviceChain;
    // Dated: on hold, with or without the warning; it needs allowHold.
    for warned in [true, false] {
        let result = mint(
            ClaimsVersion::V3_0,
            Some(true),
            &[("GPU-0", good_chain(warned, true))],
        );
        let strict = verify(&result, &options()).unwrap_err();
        assert_eq!(
            strict.code(),
            "ERR_REVOCATION_UNCONFIRMED",
            "warned: {warned}"
        );
        let held = verify(&result, &options().revocation(only(device, hold()))).unwrap();
        assert_relaxed(&held, device, "allowHold");
    }
    // The warning alone is prose: the chain reads good.
    let result = mint(
        ClaimsVersion::V3_0,
        Some(true),
        &[("GPU-0", good_chain(true, false))],
    );
    let verified = verify(&result, &options()).unwrap();
    assert!(!verified.revocation_relaxed());
}

#[test]
fn a_malformed_revocation_time_makes_the_claims_unreadable() {
    let policy = RevocationPolicy {
        device_chain: grace(u64::from(u32::MAX)),
        ..RevocationPolicy::allow_unknown_everywhere()
    };
    for bad in [
        json!("2025-06-11 00:00:00Z"),
        json!("2025-06-11"),
        json!("yesterday"),
        json!(""),
        json!(1_749_598_258),
        json!(null),
        json!(true),
        json!({"at": "2025-06-11T00:00:00Z"}),
    ] {
        // On a revoked chain, and on a good one: never a silent pass.
        for revoked in [true, false] {
            let mut claims = if revoked {
                revoked_in_grace(true)
            } else {
                device_claims(&hopper_success(), ClaimsVersion::V3_0)
            };
            claims[DEVICE_CHAIN]
                .as_object_mut()
                .unwrap()
                .insert("x-edgeattest-cert-revocation-time".into(), bad.clone());
            let result = mint(ClaimsVersion::V3_0, Some(true), &[("GPU-0", claims)]);
            let error = verify(&result, &options().revocation(policy.clone())).unwrap_err();
            assert_eq!(error.code(), "ERR_EAT_CLAIMS_UNREADABLE", "{bad} {revoked}");
            let (appraisal, _) = error.refused_result().unwrap();
            let device = &appraisal.devices()[0];
            assert!(device.unreadable(), "{bad}");
            let reason = &device.reasons()[0];
            assert_eq!(reason.claim(), DEVICE_CHAIN);
            assert!(
                reason
                    .message()
                    .contains("x-edgeattest-cert-revocation-time"),
                "{}",
                reason.message()
            );
        }
    }
}
