//! The relying party's revocation policy (`VerifyOptions::revocation`, the JS `revocation`):
//! results minted by our own service with each chain status (the service's policy relaxed
//! for one component, its responder answering unknown, revoked an hour ago, or on hold) and
//! results minted here, verified under each component's rule: a chain that is not confirmed
//! `good` passes only when its component's rule accepts it, and the acceptance is reported
//! (`revocation_relaxed`, the device's warnings naming the component and the rule member).
#![cfg(not(target_arch = "wasm32"))]

use std::time::{SystemTime, UNIX_EPOCH};

use edgeattest::attest::ClaimsVersion;
use edgeattest::ocsp::{Relaxation, RevocationComponent, RevocationPolicy, RevocationRule};
use edgeattest::token::{
    verify_attestation_result, Jwks, Signers, TokenError, VerifiedAttestationResult, VerifyInput,
    VerifyOptions,
};
use edgeattest::{ErrorCode, UnixTime};
use serde_json::json;

use super::appraisal::{device_claims, hopper_success, mint, options, verify};
use crate::revocation_policy::{Outcome, Rule, SERVICE_COMPONENTS};
use crate::service::revocation_policy::{attest_response, policy_variable, REVOKED_AGE};

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// The service's passing result for `component` whose responder says `outcome`, the service
/// relaxed by `rule` for that component only.
fn minted(component: RevocationComponent, outcome: Outcome, rule: Rule) -> (Vec<u8>, Jwks) {
    let row = crate::revocation_policy::TABLE
        .iter()
        .find(|row| row.outcome == outcome && row.rule == rule)
        .expect("a row of the table");
    let variable = policy_variable(component, row);
    let tag = format!("rp-{}-{outcome:?}-{rule:?}", component.as_str());
    let (response, jwks) = attest_response(component, outcome, &variable, false, &tag);
    assert_eq!(response.status, 200);
    (response.body, jwks)
}

/// Verifies our service's result (its own key: `Signers::Any`) at the current time.
fn verify_ours(
    result: &[u8],
    jwks: &Jwks,
    policy: RevocationPolicy,
) -> Result<VerifiedAttestationResult, TokenError> {
    let options = VerifyOptions::new()
        .signers(Signers::Any)
        .revocation(policy);
    verify_attestation_result(result, jwks, &options, UnixTime::from_secs(now()).unwrap())
}

/// A policy with `rule` for `component` only.
pub(super) fn only(component: RevocationComponent, rule: RevocationRule) -> RevocationPolicy {
    let mut policy = RevocationPolicy::strict();
    match component {
        RevocationComponent::DeviceChain => policy.device_chain = rule,
        RevocationComponent::DriverRimChain => policy.driver_rim_chain = rule,
        RevocationComponent::VbiosRimChain => policy.vbios_rim_chain = rule,
        RevocationComponent::SwitchChain => policy.switch_chain = rule,
        RevocationComponent::SignerChain => policy.signer_chain = rule,
    }
    policy
}

/// The same rule for every component but `component`.
fn all_but(component: RevocationComponent, rule: RevocationRule) -> RevocationPolicy {
    let mut policy = RevocationPolicy {
        device_chain: rule,
        driver_rim_chain: rule,
        vbios_rim_chain: rule,
        switch_chain: rule,
        signer_chain: rule,
    };
    let strict = only(component, RevocationRule::default());
    match component {
        RevocationComponent::DeviceChain => policy.device_chain = strict.device_chain,
        RevocationComponent::DriverRimChain => policy.driver_rim_chain = strict.driver_rim_chain,
        RevocationComponent::VbiosRimChain => policy.vbios_rim_chain = strict.vbios_rim_chain,
        RevocationComponent::SwitchChain => policy.switch_chain = strict.switch_chain,
        RevocationComponent::SignerChain => policy.signer_chain = strict.signer_chain,
    }
    policy
}

fn unknown() -> RevocationRule {
    RevocationRule {
        allow_unknown: true,
        ..RevocationRule::default()
    }
}

pub(super) fn grace(seconds: u64) -> RevocationRule {
    RevocationRule {
        revoked_grace_period: Some(seconds),
        ..RevocationRule::default()
    }
}

pub(super) fn hold() -> RevocationRule {
    RevocationRule {
        allow_hold: true,
        ..RevocationRule::default()
    }
}

/// The accepted result is relaxed and one device warning names `component` and `member`.
pub(super) fn assert_relaxed(
    verified: &VerifiedAttestationResult,
    component: RevocationComponent,
    member: &str,
) {
    assert!(verified.revocation_relaxed(), "{component:?}");
    let appraisal = verified.appraisal();
    assert!(!appraisal.revocation_confirmed());
    let device = &appraisal.devices()[0];
    let said = device.revocation_relaxations();
    assert!(
        said.iter()
            .any(|s| s.contains(component.describe()) && s.contains(member)),
        "{component:?}: {said:?}"
    );
    assert!(
        device.warnings().iter().any(|w| said.contains(w)),
        "{:?}",
        device.warnings()
    );
    let json = serde_json::to_value(verified).unwrap();
    assert_eq!(json["revocationRelaxed"], true);
}

fn code(result: Result<VerifiedAttestationResult, TokenError>) -> &'static str {
    result.map(|_| ()).unwrap_err().code()
}

#[test]
fn an_unknown_chain_passes_only_with_its_components_allow_unknown() {
    for component in SERVICE_COMPONENTS {
        let (result, jwks) = minted(component, Outcome::Unknown, Rule::AllowUnknown);
        let strict = verify_ours(&result, &jwks, RevocationPolicy::strict());
        assert_eq!(code(strict), "ERR_REVOCATION_UNCONFIRMED", "{component:?}");
        let verified = verify_ours(&result, &jwks, only(component, unknown()))
            .unwrap_or_else(|e| panic!("{component:?}: {e}"));
        assert_relaxed(&verified, component, "allowUnknown");
        // Every other component's rule, however loose, does not relax this one.
        let everything = RevocationRule {
            allow_unknown: true,
            revoked_grace_period: Some(u64::from(u32::MAX)),
            allow_hold: true,
        };
        let other = verify_ours(&result, &jwks, all_but(component, everything));
        assert_eq!(code(other), "ERR_REVOCATION_UNCONFIRMED", "{component:?}");
        // Its own grace period and hold do not accept unknown.
        let wrong = RevocationRule {
            revoked_grace_period: Some(u64::from(u32::MAX)),
            allow_hold: true,
            ..RevocationRule::default()
        };
        let wrong = verify_ours(&result, &jwks, only(component, wrong));
        assert_eq!(code(wrong), "ERR_REVOCATION_UNCONFIRMED", "{component:?}");
    }
}

#[test]
fn an_unanswered_chain_is_unknown_to_the_relying_party() {
    let component = RevocationComponent::DeviceChain;
    let (result, jwks) = minted(component, Outcome::Unanswered, Rule::AllowUnknown);
    let strict = verify_ours(&result, &jwks, RevocationPolicy::strict());
    assert_eq!(code(strict), "ERR_REVOCATION_UNCONFIRMED");
    let verified = verify_ours(&result, &jwks, only(component, unknown())).unwrap();
    assert_relaxed(&verified, component, "allowUnknown");
}

#[test]
fn a_revoked_chain_passes_only_within_its_components_grace_period() {
    for component in SERVICE_COMPONENTS {
        let (result, jwks) = minted(component, Outcome::Revoked, Rule::GraceInside);
        // Strict, the revoked chain fails the device.
        let strict = verify_ours(&result, &jwks, RevocationPolicy::strict());
        assert_eq!(code(strict), "ERR_ATTESTATION_FAILED", "{component:?}");
        // Revoked an hour ago: a two-hour period covers now.
        let inside = verify_ours(&result, &jwks, only(component, grace(2 * REVOKED_AGE)))
            .unwrap_or_else(|e| panic!("{component:?}: {e}"));
        assert_relaxed(&inside, component, "revokedGracePeriod");
        let said = inside.appraisal().devices()[0]
            .revocation_relaxations()
            .join(" ");
        assert!(
            said.contains("keyCompromise") && said.contains("was revoked at 20"),
            "{said}"
        );
        assert!(inside.appraisal().passed());
        // A half-hour period ended before now: refused, and the reason says so.
        let error =
            verify_ours(&result, &jwks, only(component, grace(REVOKED_AGE / 2))).unwrap_err();
        assert_eq!(error.code(), "ERR_ATTESTATION_FAILED", "{component:?}");
        let (appraisal, _) = error.refused_result().unwrap();
        let reason = appraisal.devices()[0].reasons()[0].message();
        assert!(reason.contains("revokedGracePeriod ended at"), "{reason}");
        // allowUnknown and allowHold do not accept a revoked chain; nor another's period.
        for policy in [
            only(
                component,
                RevocationRule {
                    allow_unknown: true,
                    allow_hold: true,
                    ..RevocationRule::default()
                },
            ),
            all_but(component, grace(u64::from(u32::MAX))),
        ] {
            let error = verify_ours(&result, &jwks, policy);
            assert_eq!(code(error), "ERR_ATTESTATION_FAILED", "{component:?}");
        }
    }
}

#[test]
fn a_held_chain_passes_only_with_its_components_allow_hold() {
    for component in SERVICE_COMPONENTS {
        // The service accepted the hold (its chain reads `good`, its warning says hold).
        let (result, jwks) = minted(component, Outcome::Hold, Rule::AllowHold);
        let strict = verify_ours(&result, &jwks, RevocationPolicy::strict());
        assert_eq!(code(strict), "ERR_REVOCATION_UNCONFIRMED", "{component:?}");
        let verified = verify_ours(&result, &jwks, only(component, hold()))
            .unwrap_or_else(|e| panic!("{component:?}: {e}"));
        assert_relaxed(&verified, component, "allowHold");
        for policy in [
            only(component, unknown()),
            all_but(component, hold()),
            RevocationPolicy::allow_unknown_everywhere(),
        ] {
            let error = verify_ours(&result, &jwks, policy.clone());
            assert_eq!(
                code(error),
                "ERR_REVOCATION_UNCONFIRMED",
                "{component:?} {policy:?}"
            );
        }
    }
}

#[test]
fn a_good_chain_is_confirmed_under_any_policy() {
    let (result, jwks) = minted(
        RevocationComponent::DeviceChain,
        Outcome::Good,
        Rule::Strict,
    );
    for policy in [
        RevocationPolicy::strict(),
        RevocationPolicy::allow_unknown_everywhere(),
    ] {
        let verified = verify_ours(&result, &jwks, policy).unwrap();
        assert!(!verified.revocation_relaxed());
        assert!(verified.appraisal().revocation_confirmed());
    }
}

#[test]
fn the_recorded_nras_results_are_confirmed_and_never_relaxed() {
    for name in ["v3_1gpu_success_20260629", "v3_8gpu_success_20260629"] {
        let c = super::teep::capture(name);
        // Pinned to NVIDIA's attestation CA by default.
        let options = VerifyOptions::new()
            .issuer("https://nras.attestation.nvidia.com")
            .nonce(&c.nonce)
            .revocation(RevocationPolicy::allow_unknown_everywhere());
        let verified = verify_attestation_result(
            &c.response,
            &c.jwks,
            &options,
            UnixTime::from_secs(c.iat).unwrap(),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(verified.appraisal().revocation_confirmed(), "{name}");
        assert!(!verified.revocation_relaxed(), "{name}");
    }
}

/// A 2.0 (or 3.0) pass of the Hopper whose warning is a service's relaxation of `component`.
fn relaxed_by_service(version: ClaimsVersion, warning: &str) -> String {
    let mut claims = device_claims(&hopper_success(), version);
    claims.insert("x-nvidia-attestation-warning".into(), json!(warning));
    mint(version, Some(true), &[("GPU-0", claims)])
}

#[test]
fn claims_2_0_with_a_service_relaxation_are_unconfirmed_and_need_allow_unknown_everywhere() {
    let warnings = [
        Relaxation::Unknown.warning(RevocationComponent::DriverRimChain),
        Relaxation::Held.warning(RevocationComponent::DeviceChain),
        Relaxation::RevokedInGrace {
            reason: None,
            at: UnixTime::from_secs(1_749_600_000).unwrap(),
            until: UnixTime::from_secs(1_749_700_000).unwrap(),
        }
        .warning(RevocationComponent::VbiosRimChain),
    ];
    for warning in &warnings {
        let result = relaxed_by_service(ClaimsVersion::V2_0, warning);
        // Strict: not confirmed (the chain booleans are true, the warning says relaxed).
        let error = verify(&result, &options()).unwrap_err();
        assert_eq!(error.code(), "ERR_REVOCATION_UNCONFIRMED", "{warning}");
        // Every chain the token names must allow unknown.
        let verified = verify(
            &result,
            &options().revocation(RevocationPolicy::allow_unknown_everywhere()),
        )
        .unwrap();
        assert!(verified.revocation_relaxed());
        for component in [
            RevocationComponent::DeviceChain,
            RevocationComponent::DriverRimChain,
            RevocationComponent::VbiosRimChain,
        ] {
            let error = verify(
                &result,
                &options().revocation(all_but(component, unknown())),
            )
            .unwrap_err();
            assert_eq!(error.code(), "ERR_REVOCATION_UNCONFIRMED", "{component:?}");
        }
    }
    // Claims 2.0 without a relaxation warning stay confirmed.
    let plain = mint(
        ClaimsVersion::V2_0,
        Some(true),
        &[(
            "GPU-0",
            device_claims(&hopper_success(), ClaimsVersion::V2_0),
        )],
    );
    assert!(verify(&plain, &options())
        .unwrap()
        .appraisal()
        .revocation_confirmed());
}

#[test]
fn a_revoked_chain_whose_claims_carry_no_revocation_time_fails_under_a_grace_period() {
    let mut claims = device_claims(&hopper_success(), ClaimsVersion::V3_0);
    let chain = claims["x-nvidia-gpu-attestation-report-cert-chain"]
        .as_object_mut()
        .unwrap();
    chain.insert("x-nvidia-cert-status".into(), json!("revoked"));
    chain.insert("x-nvidia-cert-ocsp-status".into(), json!("revoked"));
    chain.insert(
        "x-nvidia-cert-revocation-reason".into(),
        json!("keyCompromise"),
    );
    let result = mint(
        ClaimsVersion::V3_0,
        Some(true),
        &[("GPU-0", claims.clone())],
    );
    let policy = only(RevocationComponent::DeviceChain, grace(u64::from(u32::MAX)));
    let error = verify(&result, &options().revocation(policy.clone())).unwrap_err();
    assert_eq!(error.code(), "ERR_ATTESTATION_FAILED");
    let (appraisal, _) = error.refused_result().unwrap();
    let reason = appraisal.devices()[0].reasons()[0].message();
    assert!(reason.contains("carry no revocation time"), "{reason}");
    // A held chain needs no time: allowHold accepts it.
    let chain = claims["x-nvidia-gpu-attestation-report-cert-chain"]
        .as_object_mut()
        .unwrap();
    chain.insert(
        "x-nvidia-cert-revocation-reason".into(),
        json!("certificateHold"),
    );
    let result = mint(ClaimsVersion::V3_0, Some(true), &[("GPU-0", claims)]);
    assert_eq!(
        verify(&result, &options()).unwrap_err().code(),
        "ERR_ATTESTATION_FAILED"
    );
    let verified = verify(
        &result,
        &options().revocation(only(RevocationComponent::DeviceChain, hold())),
    )
    .unwrap();
    assert!(verified.revocation_relaxed());
    assert!(verified.appraisal().passed());
}

#[test]
fn allow_unknown_revocation_is_the_shorthand_and_merges_into_a_policy() {
    // The shorthand alone is allowUnknown everywhere.
    let shorthand = VerifyOptions::new().allow_unknown_revocation(true);
    assert_eq!(
        shorthand.revocation_policy(),
        RevocationPolicy::allow_unknown_everywhere()
    );
    // Both given: every rule of the policy also allows unknown.
    let input: VerifyInput = serde_json::from_value(json!({
        "allowUnknownRevocation": true,
        "revocation": {"deviceChain": {"allowHold": true, "revokedGracePeriod": 60}}
    }))
    .unwrap();
    let merged = input.options().unwrap().revocation_policy();
    assert_eq!(
        merged.device_chain,
        RevocationRule {
            allow_unknown: true,
            revoked_grace_period: Some(60),
            allow_hold: true
        }
    );
    assert_eq!(merged.vbios_rim_chain, unknown());
    // Through the service's tokens: the shorthand accepts unknown, not a hold.
    let (result, jwks) = minted(
        RevocationComponent::DriverRimChain,
        Outcome::Unknown,
        Rule::AllowUnknown,
    );
    let at = UnixTime::from_secs(now()).unwrap();
    let options = shorthand.clone().signers(Signers::Any);
    let verified = verify_attestation_result(&result, &jwks, &options, at).unwrap();
    assert_relaxed(
        &verified,
        RevocationComponent::DriverRimChain,
        "allowUnknown",
    );
    let (held, jwks) = minted(
        RevocationComponent::DeviceChain,
        Outcome::Hold,
        Rule::AllowHold,
    );
    let error = verify_attestation_result(&held, &jwks, &options, at).unwrap_err();
    assert_eq!(error.code(), "ERR_REVOCATION_UNCONFIRMED");
}

#[test]
fn the_written_option_reads_the_policy_and_refuses_unknown_members() {
    let input: VerifyInput = serde_json::from_value(json!({
        "revocation": {"switchChain": {"allowUnknown": true}}
    }))
    .unwrap();
    let options = input.options().unwrap();
    assert_eq!(options.revocation.switch_chain, unknown());
    assert!(!options.allow_unknown_revocation);
    for bad in [
        json!({"revocation": {"gpuChain": {}}}),
        json!({"revocation": {"deviceChain": {"allowUnknown": 1}}}),
        json!({"revocation": true}),
    ] {
        assert!(
            serde_json::from_value::<VerifyInput>(bad.clone()).is_err(),
            "{bad}"
        );
    }
    // Absent: strict.
    let input: VerifyInput = serde_json::from_value(json!({})).unwrap();
    assert!(input.options().unwrap().revocation_policy().is_strict());
}
