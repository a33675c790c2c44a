//! NVIDIA's JSON policies (nvtrust's examples, `tests/fixtures/nvidia/policies/nvtrust/`)
//! against real results: the recorded NRAS exchanges, verified under their own JWKS, and the
//! recorded claims of a Hopper GPU and an LS10 switch (`nras/nvat/`, which come without a
//! JWKS: their claims are re-signed here with a test key, unchanged).
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::policy::{appraise, Policy, PolicyDecision, PolicyVersion, RuleStatus};
use edgeattest::ErrorCode;
use serde_json::{json, Map, Value};

use super::signed::{recorded, resigned};

use crate::token::teep::fixture;

/// Every policy example nvtrust ships, with its version and leaf rule count.
const POLICIES: [(&str, PolicyVersion, usize); 13] = [
    (
        "local_NVGPULocalPolicyClaimsV3Example",
        PolicyVersion::V3,
        17,
    ),
    ("local_NVGPULocalPolicyExample", PolicyVersion::V3, 20),
    ("local_NVGPULocalv4PolicyExample", PolicyVersion::V4, 26),
    ("local_NVSwitchLocalPolicyExample", PolicyVersion::V3, 14),
    ("local_NVSwitchLocalv4PolicyExample", PolicyVersion::V4, 18),
    ("remote_v1_NVGPULocalPolicyExample", PolicyVersion::V1, 28),
    ("remote_v1_NVGPURemotePolicyExample", PolicyVersion::V1, 25),
    ("remote_v2_NVGPURemotePolicyExample", PolicyVersion::V2, 18),
    (
        "remote_v2_NVSwitchRemotePolicyExample",
        PolicyVersion::V2,
        13,
    ),
    ("remote_v3_NVGPURemotePolicyExample", PolicyVersion::V3, 19),
    (
        "remote_v3_NVSwitchRemotePolicyExample",
        PolicyVersion::V3,
        13,
    ),
    ("remote_v4_NVGPURemotePolicyExample", PolicyVersion::V4, 25),
    (
        "remote_v4_NVSwitchRemotePolicyExample",
        PolicyVersion::V4,
        17,
    ),
];

fn policy(name: &str) -> Policy {
    Policy::parse(&fixture(&format!("policies/nvtrust/{name}.json"))).unwrap()
}

/// The rules that did not pass: (scope, path, status).
fn failures(decision: &PolicyDecision) -> Vec<(Option<String>, String, RuleStatus)> {
    decision
        .failures()
        .map(|(scope, rule)| {
            (
                scope.map(String::from),
                rule.path().to_owned(),
                rule.status(),
            )
        })
        .collect()
}

#[test]
fn every_nvidia_example_reads_with_its_version_and_rules() {
    for (name, version, rules) in POLICIES {
        let policy = policy(name);
        assert_eq!(policy.version(), version, "{name}");
        assert_eq!(policy.rule_count(), rules, "{name}");
        assert_eq!(
            policy.detached_rules().is_some(),
            version != PolicyVersion::V1
        );
    }
}

#[test]
fn the_matching_examples_pass_the_real_results() {
    // Claims 2.0 (NRAS V3 as recorded 2026-06-29) with the 3.0 remote policy; claims 3.0 of a
    // Hopper GPU and of an LS10 switch with the 4.0 remote policies.
    let cases = [
        (
            recorded("v3_1gpu_success_20260629"),
            "remote_v3_NVGPURemotePolicyExample",
        ),
        (
            recorded("v3_8gpu_success_20260629"),
            "remote_v3_NVGPURemotePolicyExample",
        ),
        (
            resigned("hopperClaimsv3", |_| {}),
            "remote_v4_NVGPURemotePolicyExample",
        ),
        (
            resigned("switch", |_| {}),
            "remote_v4_NVSwitchRemotePolicyExample",
        ),
    ];
    for (result, name) in cases {
        let decision = appraise(&result, &policy(name)).unwrap();
        assert!(decision.passed(), "{name}: {:?}", failures(&decision));
        assert_eq!(decision.devices().len(), result.devices().len());
        let device_rules = policy(name).rule_count() - decision.overall().len();
        for device in decision.devices() {
            assert!(device.passed());
            assert_eq!(device.rules().len(), device_rules, "{name}");
        }
        assert_eq!(decision.missing().count(), 0);
    }
}

#[test]
fn a_refused_result_fails_exactly_the_rules_its_tokens_contradict() {
    // NRAS refused all 8 GPUs for a nonce mismatch: the overall verdict is false and each
    // device token carries only the error, so every device rule is missing.
    let result = recorded("v3_8gpu_nonce_mismatch_20260520");
    let policy = policy("remote_v3_NVGPURemotePolicyExample");
    let decision = appraise(&result, &policy).unwrap();
    assert!(!decision.passed());
    let overall: Vec<_> = decision.overall().iter().filter(|r| !r.passed()).collect();
    assert_eq!(overall.len(), 1);
    assert_eq!(overall[0].path(), "/x-nvidia-overall-att-result");
    assert_eq!(overall[0].found(), Some(&json!(false)));
    assert_eq!(overall[0].status(), RuleStatus::Mismatch);
    assert_eq!(decision.devices().len(), 8);
    let detached = policy.detached_rules().unwrap().len();
    for device in decision.devices() {
        assert!(!device.passed());
        assert_eq!(device.rules().len(), detached);
        assert!(device
            .rules()
            .iter()
            .all(|r| r.status() == RuleStatus::Missing));
    }
    assert_eq!(decision.missing().count(), 8 * detached);
}

#[test]
fn policies_for_another_claims_version_or_verifier_fail_where_they_differ() {
    let hopper = resigned("hopperClaimsv3", |_| {});
    // The 3.0 remote policy pins claims 2.0 and names three 2.0-only claims.
    let decision = appraise(&hopper, &policy("remote_v3_NVGPURemotePolicyExample")).unwrap();
    let gpu = Some("GPU-0".to_owned());
    assert_eq!(
        failures(&decision),
        [
            (None, "/x-nvidia-ver".into(), RuleStatus::Mismatch),
            (
                gpu.clone(),
                "/x-nvidia-gpu-attestation-report-cert-chain-validated".into(),
                RuleStatus::Missing
            ),
            (
                gpu.clone(),
                "/x-nvidia-gpu-driver-rim-cert-validated".into(),
                RuleStatus::Missing
            ),
            (
                gpu.clone(),
                "/x-nvidia-gpu-vbios-rim-cert-validated".into(),
                RuleStatus::Missing
            ),
        ]
    );
    // A local verifier's policy: only the issuer differs from a real NRAS 2.0 result.
    let real = recorded("v3_1gpu_success_20260629");
    let decision = appraise(&real, &policy("local_NVGPULocalPolicyClaimsV3Example")).unwrap();
    assert_eq!(
        failures(&decision),
        [(None, "/iss".into(), RuleStatus::Mismatch)]
    );
    assert_eq!(
        decision.overall()[0].expected(),
        &json!("LOCAL_GPU_VERIFIER")
    );
    // A GPU policy on a switch: every GPU claim is missing, nothing else fails.
    let switch = resigned("switch", |_| {});
    let decision = appraise(&switch, &policy("remote_v4_NVGPURemotePolicyExample")).unwrap();
    let failed = failures(&decision);
    assert_eq!(failed.len(), 22);
    assert!(failed
        .iter()
        .all(|(scope, path, status)| scope.as_deref() == Some("SWITCH-0")
            && path.starts_with("/x-nvidia-gpu-")
            && *status == RuleStatus::Missing));
}

/// A change to one device's claims.
type Edit = fn(&mut Map<String, Value>);

#[test]
fn one_changed_claim_fails_exactly_its_rule() {
    let policy = policy("remote_v4_NVGPURemotePolicyExample");
    let cases: [(&str, Edit, Value); 4] = [
        (
            "/measres",
            |c| drop(c.insert("measres".into(), json!("fail"))),
            json!("fail"),
        ),
        (
            "/x-nvidia-gpu-driver-rim-cert-chain/x-nvidia-cert-ocsp-status",
            |c| {
                c["x-nvidia-gpu-driver-rim-cert-chain"]["x-nvidia-cert-ocsp-status"] =
                    json!("revoked")
            },
            json!("revoked"),
        ),
        // `true` is not `1` (nvtrust's Python comparison says it is).
        (
            "/x-nvidia-gpu-arch-check",
            |c| drop(c.insert("x-nvidia-gpu-arch-check".into(), json!(1))),
            json!(1),
        ),
        (
            "/x-nvidia-gpu-vbios-index-no-conflict",
            |c| drop(c.remove("x-nvidia-gpu-vbios-index-no-conflict")),
            Value::Null,
        ),
    ];
    for (path, edit, found) in cases {
        let decision = appraise(&resigned("hopperClaimsv3", edit), &policy).unwrap();
        assert!(!decision.passed(), "{path}");
        let failed: Vec<_> = decision.failures().collect();
        assert_eq!(failed.len(), 1, "{path}: {:?}", failures(&decision));
        let (scope, rule) = failed[0];
        assert_eq!((scope, rule.path()), (Some("GPU-0"), path));
        if found.is_null() {
            assert_eq!(rule.status(), RuleStatus::Missing);
            assert_eq!(rule.found(), None);
            assert_eq!(
                decision.missing().collect::<Vec<_>>(),
                [(Some("GPU-0"), path)]
            );
        } else {
            assert_eq!(rule.status(), RuleStatus::Mismatch);
            assert_eq!(rule.found(), Some(&found));
        }
    }
}

/// Our service's chain member (`x-edgeattest-cert-revocation-time`) on every chain object (a
/// chain passed on hold, in its grace period or refused as revoked carries it).
pub(super) fn with_revocation_time(device: &mut Map<String, Value>) {
    for (name, value) in device.iter_mut() {
        if name.ends_with("-cert-chain") {
            value.as_object_mut().unwrap().insert(
                "x-edgeattest-cert-revocation-time".into(),
                json!("2026-06-28T12:00:00Z"),
            );
        }
    }
}

#[test]
fn our_revocation_time_member_changes_no_verdict_of_nvidias_policies() {
    let policy = policy("remote_v4_NVGPURemotePolicyExample");
    // Every chain carries the member (as a chain passed on hold does): still passes.
    let dated = resigned("hopperClaimsv3", with_revocation_time);
    let decision = appraise(&dated, &policy).unwrap();
    assert!(decision.passed(), "{:?}", failures(&decision));
    // A revoked driver RIM chain with it fails its OCSP rule only, as without it.
    let revoked = resigned("hopperClaimsv3", |c| {
        with_revocation_time(c);
        c["x-nvidia-gpu-driver-rim-cert-chain"]["x-nvidia-cert-ocsp-status"] = json!("revoked");
    });
    let decision = appraise(&revoked, &policy).unwrap();
    assert_eq!(
        failures(&decision),
        [(
            Some("GPU-0".to_owned()),
            "/x-nvidia-gpu-driver-rim-cert-chain/x-nvidia-cert-ocsp-status".into(),
            RuleStatus::Mismatch
        )]
    );
}

#[test]
fn a_policy_for_the_other_result_format_is_refused() {
    let detached = recorded("v3_1gpu_success_20260629");
    let v1 = policy("remote_v1_NVGPURemotePolicyExample");
    let error = appraise(&detached, &v1).unwrap_err();
    assert_eq!(error.code(), "ERR_POLICY_RESULT_FORMAT");
    assert!(error.to_string().contains("1.0"), "{error}");
}
