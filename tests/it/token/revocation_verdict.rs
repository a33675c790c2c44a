//! The relying party's revocation and readability rules: a passing result whose chains are
//! not confirmed `good` is refused (`ERR_REVOCATION_UNCONFIRMED`) unless the caller allows
//! unknown revocation, and then says it was relaxed; a device token whose claims do not read
//! as its claims version defines them (a check of the wrong type, no verdict claim) is
//! refused with `ERR_EAT_CLAIMS_UNREADABLE` and fails with that reason. The tokens are the
//! service's own claim sets (`DeviceClaims::build`), minted and signed here.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::attest::ClaimsVersion;
use edgeattest::chain::RevocationStatus;
use edgeattest::service::REVOCATION_WARNING;
use edgeattest::ErrorCode;
use serde_json::{json, Map, Value};

use super::appraisal::{
    device_claims, hopper_success, ls10_success, mint, options, refused, verify,
};

fn unchecked_hopper() -> edgeattest::service::DeviceOutcome {
    let mut outcome = hopper_success();
    for chain in [
        outcome.cert_chain.as_mut(),
        outcome
            .driver_rim
            .as_mut()
            .and_then(|r| r.cert_chain.as_mut()),
        outcome
            .firmware_rim
            .as_mut()
            .and_then(|r| r.cert_chain.as_mut()),
    ]
    .into_iter()
    .flatten()
    {
        chain.ocsp = RevocationStatus::Unknown;
    }
    outcome.warning = Some(REVOCATION_WARNING.into());
    outcome
}

#[test]
fn a_pass_with_every_chain_good_is_confirmed_and_not_relaxed() {
    for version in [
        ClaimsVersion::V2_0,
        ClaimsVersion::V3_0,
        ClaimsVersion::V4_0,
    ] {
        let result = mint(
            version,
            Some(true),
            &[("GPU-0", device_claims(&hopper_success(), version))],
        );
        let verified = verify(&result, &options()).unwrap_or_else(|e| panic!("{version}: {e}"));
        assert!(verified.appraisal().revocation_confirmed(), "{version}");
        assert!(!verified.revocation_relaxed());
        let json = serde_json::to_value(&verified).unwrap();
        assert_eq!(json["revocationRelaxed"], false);
        assert_eq!(json["appraisal"]["revocationConfirmed"], true);
    }
    let switch = mint(
        ClaimsVersion::V3_0,
        Some(true),
        &[(
            "SWITCH-0",
            device_claims(&ls10_success(), ClaimsVersion::V3_0),
        )],
    );
    assert!(verify(&switch, &options())
        .unwrap()
        .appraisal()
        .revocation_confirmed());
}

#[test]
fn a_pass_whose_chains_are_not_confirmed_is_refused_unless_allowed() {
    for version in [
        ClaimsVersion::V2_0,
        ClaimsVersion::V3_0,
        ClaimsVersion::V4_0,
    ] {
        let result = mint(
            version,
            Some(true),
            &[
                ("GPU-0", device_claims(&hopper_success(), version)),
                ("GPU-1", device_claims(&unchecked_hopper(), version)),
            ],
        );
        let (code, appraisal, _, message) = refused(&result);
        assert_eq!(code, "ERR_REVOCATION_UNCONFIRMED", "{version}");
        assert!(
            appraisal.passed(),
            "{version}: the service's verdict is a pass"
        );
        assert!(!appraisal.revocation_confirmed());
        let confirmed: Vec<bool> = appraisal
            .devices()
            .iter()
            .map(|d| d.revocation_confirmed())
            .collect();
        assert_eq!(confirmed, [true, false], "{version}");
        assert!(message.contains("GPU-1"), "{message}");
        let error = verify(&result, &options()).unwrap_err();
        assert_eq!(error.field(), Some("GPU-1"));
        // allowFailedResult does not accept it: the result did not fail.
        let error = verify(&result, &options().allow_failed_result(true)).unwrap_err();
        assert_eq!(error.code(), "ERR_REVOCATION_UNCONFIRMED");
        // The opt-in accepts it, and the result says it was relaxed.
        let verified = verify(&result, &options().allow_unknown_revocation(true)).unwrap();
        assert!(verified.revocation_relaxed());
        assert_eq!(
            serde_json::to_value(&verified).unwrap()["revocationRelaxed"],
            true
        );
    }
}

#[test]
fn chain_objects_other_than_valid_and_good_confirm_nothing() {
    for (member, value) in [
        (Some("x-nvidia-cert-ocsp-status"), json!("unknown")),
        (Some("x-nvidia-cert-ocsp-status"), json!("not-checked")),
        (None, Value::Null),
    ] {
        for chain in [
            "x-nvidia-gpu-attestation-report-cert-chain",
            "x-nvidia-gpu-driver-rim-cert-chain",
        ] {
            let mut claims = device_claims(&hopper_success(), ClaimsVersion::V3_0);
            match member {
                Some(member) => claims[chain][member] = value.clone(),
                None => claims[chain] = value.clone(),
            }
            let result = mint(ClaimsVersion::V3_0, Some(true), &[("GPU-0", claims)]);
            let error = verify(&result, &options()).unwrap_err();
            assert_eq!(
                error.code(),
                "ERR_REVOCATION_UNCONFIRMED",
                "{chain} {value}"
            );
        }
    }
    // No chain claim at all confirms nothing either.
    let mut claims = device_claims(&hopper_success(), ClaimsVersion::V3_0);
    claims.retain(|name, _| !name.contains("cert-chain"));
    let result = mint(ClaimsVersion::V3_0, Some(true), &[("GPU-0", claims)]);
    assert_eq!(
        verify(&result, &options()).unwrap_err().code(),
        "ERR_REVOCATION_UNCONFIRMED"
    );
}

/// An edit of a device token's claims.
type Edit = Box<dyn Fn(&mut Map<String, Value>)>;

/// Claims 3.0 of the passing Hopper with `edit` applied.
fn edited(edit: impl FnOnce(&mut Map<String, Value>)) -> String {
    let mut claims = device_claims(&hopper_success(), ClaimsVersion::V3_0);
    edit(&mut claims);
    mint(ClaimsVersion::V3_0, Some(true), &[("GPU-0", claims)])
}

#[test]
fn claims_of_the_wrong_type_are_refused_as_unreadable_and_fail_the_device() {
    let cases: [(&str, Edit); 5] = [
        (
            "x-nvidia-gpu-arch-check",
            Box::new(|c| {
                c.insert("x-nvidia-gpu-arch-check".into(), json!("false"));
            }),
        ),
        (
            "x-nvidia-error-details",
            Box::new(|c| {
                c.insert("x-nvidia-error-details".into(), json!("boom"));
            }),
        ),
        (
            "secboot",
            Box::new(|c| {
                c.insert("secboot".into(), json!(1));
            }),
        ),
        (
            "x-nvidia-gpu-attestation-report-cert-chain",
            Box::new(|c| {
                c.insert(
                    "x-nvidia-gpu-attestation-report-cert-chain".into(),
                    json!("valid"),
                );
            }),
        ),
        // A claim 3.0 does not define: the 2.0 chain boolean.
        (
            "x-nvidia-gpu-attestation-report-cert-chain-validated",
            Box::new(|c| {
                c.insert(
                    "x-nvidia-gpu-attestation-report-cert-chain-validated".into(),
                    json!(true),
                );
            }),
        ),
    ];
    for (claim, edit) in cases {
        let result = edited(edit);
        let (code, appraisal, _, _) = refused(&result);
        assert_eq!(code, "ERR_EAT_CLAIMS_UNREADABLE", "{claim}");
        assert!(!appraisal.passed(), "{claim}");
        let device = &appraisal.devices()[0];
        assert_eq!(device.passed(), Some(false), "{claim}");
        assert!(device.unreadable());
        assert_eq!(device.reasons()[0].claim(), claim);
        assert!(
            device.reasons()[0].message().contains("does not read"),
            "{claim}"
        );
        let error = verify(&result, &options()).unwrap_err();
        assert_eq!(error.field(), Some("GPU-0"));
        // Neither opt-in makes it a pass; allowFailedResult resolves it as a failure.
        let error = verify(&result, &options().allow_unknown_revocation(true)).unwrap_err();
        assert_eq!(error.code(), "ERR_EAT_CLAIMS_UNREADABLE");
        let verified = verify(&result, &options().allow_failed_result(true)).unwrap();
        assert!(!verified.appraisal().passed());
    }
}

#[test]
fn a_device_token_without_verdict_claims_is_refused_as_unreadable() {
    // Only the token times and the nonce: no check, no measres, no error details.
    let result = edited(|claims| {
        claims.retain(|name, _| {
            ["iss", "iat", "nbf", "exp", "jti", "eat_nonce"].contains(&name.as_str())
        });
    });
    let (code, appraisal, _, message) = refused(&result);
    assert_eq!(code, "ERR_EAT_CLAIMS_UNREADABLE");
    assert_eq!(appraisal.devices()[0].passed(), Some(false));
    assert_eq!(appraisal.devices()[0].reasons()[0].claim(), "measres");
    assert!(message.contains("no verdict"), "{message}");
}

#[test]
fn an_unknown_claims_version_reads_nothing() {
    let mut claims = device_claims(&hopper_success(), ClaimsVersion::V3_0);
    claims.insert("x-nvidia-gpu-claims-version".into(), json!("9.0"));
    let result = mint(
        ClaimsVersion::V4_0,
        Some(true),
        &[("GPU-0", claims.clone())],
    );
    // The overall token names 4.0: the device's own claim is not consulted.
    assert!(verify(&result, &options()).is_ok());
    // Without the overall token's version, the device's 9.0 does not read.
    let devices = [("GPU-0", claims)];
    let tokens: Vec<(String, String)> = devices
        .iter()
        .map(|(label, claims)| {
            (
                (*label).to_owned(),
                edgeattest::token::sign_jwt(
                    claims,
                    &super::appraisal::key(),
                    super::appraisal::KID,
                )
                .unwrap(),
            )
        })
        .collect();
    let mut overall = super::appraisal::overall(ClaimsVersion::V3_0, Some(true));
    overall.remove("x-nvidia-ver");
    let result = edgeattest::token::create_detached_eat(
        &overall,
        &tokens,
        &super::appraisal::key(),
        super::appraisal::KID,
    )
    .unwrap();
    let (code, appraisal, _, _) = refused(&result);
    assert_eq!(code, "ERR_EAT_CLAIMS_UNREADABLE");
    assert_eq!(
        appraisal.devices()[0].reasons()[0].claim(),
        "x-nvidia-gpu-claims-version"
    );
}
