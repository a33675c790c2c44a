//! NVIDIA's own Rego policies (`tests/fixtures/nvidia/policies/nvat/`: the SDK's built-in
//! overall-result policy and its relying-party examples, all in Rego v0 syntax) run unchanged:
//! each is read as v0, and each allows exactly what it says on NVIDIA's recorded Hopper and
//! LS10 claims, with NVAT's OCSP members added and one claim edited at a time.
#![cfg(all(not(target_arch = "wasm32"), feature = "rego"))]

use edgeattest::policy::{appraise_rego, RegoPolicy, RegoSyntax};
use edgeattest::token::VerifiedAttestationResult;
use edgeattest::ErrorCode;
use serde_json::{json, Map, Value};

use super::nvidia::with_revocation_time;
use super::rego_nvidia::rego_text;
use super::signed::{recorded, resigned};
use crate::token::teep::fixture;

/// The SDK's overall policy (`claims_evaluator.cpp`), then the examples that widen it.
const OVERALL: &str = "overall_result_evaluator";
const WIDENING: [&str; 5] = [
    "allow_gpu_driver_rim_cert_expired",
    "allow_gpu_driver_rim_cert_revoked",
    "allow_gpu_driver_rim_cert_unknown",
    "allow_gpu_measurement_mismatch_index_7",
    "allow_trust_outpost_ocsp",
];
const PERMISSIVE_GPU: &str = "rp-policy-permissive";
const PERMISSIVE_SWITCH: &str = "switch_relying_party_policy";

fn nvat_policy(name: &str) -> RegoPolicy {
    let policy = RegoPolicy::parse(&fixture(&format!("policies/nvat/{name}.rego")))
        .unwrap_or_else(|e| panic!("{name}: {} {e}", e.code()));
    assert_eq!(policy.syntax(), RegoSyntax::V0, "{name}");
    policy
}

fn passes(name: &str, result: &VerifiedAttestationResult) -> bool {
    let decision = appraise_rego(result, &nvat_policy(name)).unwrap();
    // NVIDIA's policies give no reasons: every device shares the one verdict.
    assert!(decision
        .devices()
        .iter()
        .all(|d| d.passed() == decision.passed()));
    decision.passed()
}

/// The members NVIDIA's SDK adds to every certificate-chain claim (`claims.h`) and that its
/// policies require; NRAS's claims up to 3.0 lack them.
fn with_nvat_ocsp_members(device: &mut Map<String, Value>) {
    for (name, value) in device.iter_mut() {
        if name.ends_with("-cert-chain") {
            let chain = value.as_object_mut().unwrap();
            chain.insert("x-nvidia-cert-ocsp-nonce-matches".into(), json!(true));
            chain.insert("x-nvidia-cert-ocsp-response-valid".into(), json!(true));
        }
    }
}

fn chain_member(device: &mut Map<String, Value>, chain: &str, member: &str, value: Value) {
    device[chain].as_object_mut().unwrap()[member] = value;
}

const DRIVER: &str = "x-nvidia-gpu-driver-rim-cert-chain";
const VBIOS: &str = "x-nvidia-gpu-vbios-rim-cert-chain";
const REPORT: &str = "x-nvidia-gpu-attestation-report-cert-chain";

fn mismatches(device: &mut Map<String, Value>, indices: &[u64]) {
    device.insert("measres".into(), json!("fail"));
    let records: Vec<Value> = indices.iter().map(|i| json!({ "index": i })).collect();
    device.insert(
        "x-nvidia-mismatch-measurement-records".into(),
        Value::Array(records),
    );
}

#[test]
fn nvidias_policies_read_as_v0_and_the_translations_as_v1() {
    for name in [OVERALL, PERMISSIVE_GPU, PERMISSIVE_SWITCH]
        .into_iter()
        .chain(WIDENING)
    {
        nvat_policy(name);
    }
    let translation = RegoPolicy::parse(&rego_text("minimum_driver_version")).unwrap();
    assert_eq!(translation.syntax(), RegoSyntax::V1);
}

#[test]
fn each_example_widens_exactly_its_own_check() {
    type Edit = fn(&mut Map<String, Value>);
    // (the edit to the recorded Hopper, the policies that still pass).
    let cases: [(&str, Edit, &[&str]); 11] = [
        (
            "as recorded",
            |_| {},
            &[
                OVERALL,
                WIDENING[0],
                WIDENING[1],
                WIDENING[2],
                WIDENING[3],
                WIDENING[4],
            ],
        ),
        (
            "driver RIM chain expired",
            |d| chain_member(d, DRIVER, "x-nvidia-cert-status", json!("expired")),
            &[WIDENING[0]],
        ),
        (
            "driver RIM revoked",
            |d| chain_member(d, DRIVER, "x-nvidia-cert-ocsp-status", json!("revoked")),
            &[WIDENING[1]],
        ),
        // Our service's revocation time changes no verdict of NVIDIA's policies.
        (
            "every chain dated by x-edgeattest-cert-revocation-time",
            with_revocation_time,
            &[
                OVERALL,
                WIDENING[0],
                WIDENING[1],
                WIDENING[2],
                WIDENING[3],
                WIDENING[4],
            ],
        ),
        (
            "driver RIM revoked, dated by x-edgeattest-cert-revocation-time",
            |d| {
                with_revocation_time(d);
                chain_member(d, DRIVER, "x-nvidia-cert-ocsp-status", json!("revoked"));
            },
            &[WIDENING[1]],
        ),
        (
            "driver RIM OCSP unknown",
            |d| chain_member(d, DRIVER, "x-nvidia-cert-ocsp-status", json!("unknown")),
            &[WIDENING[2]],
        ),
        (
            "VBIOS RIM revoked",
            |d| chain_member(d, VBIOS, "x-nvidia-cert-ocsp-status", json!("revoked")),
            &[],
        ),
        (
            "mismatch at index 7",
            |d| mismatches(d, &[7]),
            &[WIDENING[3]],
        ),
        ("mismatch at 7 and 9", |d| mismatches(d, &[7, 9]), &[]),
        (
            "cached OCSP (nonce differs)",
            |d| chain_member(d, REPORT, "x-nvidia-cert-ocsp-nonce-matches", json!(false)),
            &[WIDENING[4]],
        ),
        (
            "OCSP response invalid",
            |d| chain_member(d, REPORT, "x-nvidia-cert-ocsp-response-valid", json!(false)),
            &[],
        ),
    ];
    for (what, edit, passing) in cases {
        let result = resigned("hopperClaimsv3", |device| {
            with_nvat_ocsp_members(device);
            edit(device);
        });
        for name in core::iter::once(OVERALL).chain(WIDENING) {
            assert_eq!(
                passes(name, &result),
                passing.contains(&name),
                "{name} on the Hopper claims, {what}"
            );
        }
    }
}

#[test]
fn the_switch_passes_and_the_gpu_allowances_do_not_apply_to_it() {
    let switch = resigned("switch", with_nvat_ocsp_members);
    for name in core::iter::once(OVERALL).chain(WIDENING) {
        assert!(passes(name, &switch), "{name} on the LS10 claims");
    }
    let mismatched = resigned("switch", |device| {
        with_nvat_ocsp_members(device);
        mismatches(device, &[7]);
    });
    for name in core::iter::once(OVERALL).chain(WIDENING) {
        assert!(
            !passes(name, &mismatched),
            "{name}: a switch mismatch at index 7"
        );
    }
}

#[test]
fn the_overall_policy_needs_nvats_ocsp_members() {
    // NRAS's claims as recorded lack `x-nvidia-cert-ocsp-nonce-matches`: NVIDIA's policies,
    // written for its SDK's claims, refuse them rather than pass them.
    assert!(!passes(OVERALL, &resigned("hopperClaimsv3", |_| {})));
    assert!(!passes(OVERALL, &resigned("switch", |_| {})));
    assert!(!passes(OVERALL, &recorded("v3_8gpu_success_20260629")));
}

#[test]
fn the_permissive_policies_check_the_device_type() {
    let hopper = resigned("hopperClaimsv3", |_| {});
    let switch = resigned("switch", |_| {});
    let eight_gpus = recorded("v3_8gpu_success_20260629");
    assert!(passes(PERMISSIVE_GPU, &hopper));
    assert!(passes(PERMISSIVE_GPU, &eight_gpus));
    assert!(!passes(PERMISSIVE_GPU, &switch));
    assert!(passes(PERMISSIVE_SWITCH, &switch));
    assert!(!passes(PERMISSIVE_SWITCH, &hopper));
    let debug = resigned("hopperClaimsv3", |d| {
        d.insert("dbgstat".into(), json!("enabled"));
    });
    assert!(!passes(PERMISSIVE_GPU, &debug));
}

#[test]
fn v0_policies_meet_the_same_budgets() {
    let refused = |text: &str| RegoPolicy::parse(text.as_bytes()).unwrap_err().code();
    let v0 = "package policy\nimport future.keywords.every\ndefault nv_match := false\n";
    assert_eq!(
        refused(&format!(
            "{v0}nv_match {{ count(numbers.range(1, 100000000)) > 0 }}\n"
        )),
        "ERR_REGO_BUILTIN"
    );
    assert_eq!(
        refused(&format!(
            "{v0}nv_match {{ x := [[[[[[[[[1]]]]]]]]]; count(x) > 0 }}\n"
        )),
        "ERR_REGO_TOO_DEEP"
    );
    // Recursion is refused when compiled, or stopped by the VM when run.
    let looping =
        RegoPolicy::parse(format!("{v0}nv_match {{ a }}\na {{ b }}\nb {{ a }}\n").as_bytes())
            .and_then(|policy| appraise_rego(&resigned("hopperClaimsv3", |_| {}), &policy));
    let code = looping.unwrap_err().code();
    assert!(
        matches!(code, "ERR_REGO_RECURSION" | "ERR_REGO_BUDGET"),
        "{code}"
    );
    // Nested `every` over a 26^4 cross product, in v0 syntax: the same VM, the same count.
    let every = format!(
        "{v0}letters := split(\"abcdefghijklmnopqrstuvwxyz\", \"\")\n\
         nv_match {{ every a in letters {{ every b in letters {{ every c in letters {{\n\
         every d in letters {{ a != concat_free(b, c, d) }} }} }} }} }}\n\
         concat_free(b, c, d) := \"-\" {{ b; c; d }}\n"
    );
    let policy = RegoPolicy::parse(every.as_bytes()).unwrap();
    assert_eq!(policy.syntax(), RegoSyntax::V0);
    let error = appraise_rego(&resigned("hopperClaimsv3", |_| {}), &policy).unwrap_err();
    assert_eq!(error.code(), "ERR_REGO_BUDGET");
}

#[test]
fn text_that_is_neither_v1_nor_v0_names_both_readings() {
    let error = RegoPolicy::parse(b"package policy\nnv_match {{ true\n").unwrap_err();
    assert_eq!(error.code(), "ERR_REGO_PARSE");
    let message = error.to_string();
    assert!(message.contains("as Rego v0:"), "{message}");
}
