//! A Rego policy is compiled once and applied to many results: a policy parsed once decides
//! every result as a policy parsed for that result does (every bundled policy, results that
//! pass and fail, in turn and again), and every appraisal of it gets the whole budget, no
//! more: a hostile policy is refused at every call, and a policy that spends more than half
//! the budget passes at every call.
#![cfg(all(not(target_arch = "wasm32"), feature = "rego"))]

use edgeattest::policy::{appraise_rego, PolicyDecision, RegoError, RegoPolicy};
use edgeattest::token::VerifiedAttestationResult;
use edgeattest::ErrorCode;
use serde_json::{json, Map, Value};

use super::signed::{detached, recorded, resigned};

/// Every `.rego` file of a fixtures folder: (name, text).
fn policies(folder: &str) -> Vec<(String, Vec<u8>)> {
    let dir = format!("{}/tests/fixtures/{folder}", env!("CARGO_MANIFEST_DIR"));
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rego"))
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// The members NVIDIA's SDK adds to every certificate-chain claim, which its policies need.
fn with_sdk_members(device: &mut Map<String, Value>) {
    for (name, value) in device.iter_mut() {
        if name.ends_with("-cert-chain") {
            let chain = value.as_object_mut().unwrap();
            chain.insert("x-nvidia-cert-ocsp-nonce-matches".into(), json!(true));
            chain.insert("x-nvidia-cert-ocsp-response-valid".into(), json!(true));
        }
    }
}

/// Results that the bundled policies pass and fail: recorded (one that NRAS refused), and
/// recorded claims re-signed, as they are and with a claim changed or removed.
fn results() -> Vec<VerifiedAttestationResult> {
    vec![
        recorded("v3_1gpu_success_20260629"),
        recorded("v3_8gpu_success_20260629"),
        recorded("v3_8gpu_nonce_mismatch_20260520"),
        resigned("hopperClaimsv3", |_| {}),
        resigned("hopperClaimsv3", with_sdk_members),
        resigned("hopperClaimsv3", |c| {
            drop(c.insert("measres".into(), json!("fail")))
        }),
        resigned("hopperClaimsv3", |c| {
            drop(c.remove("x-nvidia-gpu-arch-check"))
        }),
        resigned("hopperClaimsv3", |c| {
            with_sdk_members(c);
            c["x-nvidia-gpu-driver-rim-cert-chain"]["x-nvidia-cert-ocsp-status"] = json!("revoked");
        }),
        resigned("hopperClaimsv3", |c| {
            drop(c.insert("x-nvidia-gpu-driver-version".into(), json!("535.104.4")))
        }),
        resigned("switch", |_| {}),
        resigned("switch", with_sdk_members),
    ]
}

#[test]
fn a_policy_parsed_once_decides_as_one_parsed_for_each_result() {
    let results = results();
    let mut all = policies("policies/rego");
    all.extend(policies("nvidia/policies/nvat"));
    assert!(all.len() >= 20, "{}", all.len());
    let (mut passed, mut failed) = (0, 0);
    for (name, text) in &all {
        let prepared = RegoPolicy::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Each result in turn, twice: the second round follows every other result.
        for round in 0..2 {
            for (i, result) in results.iter().enumerate() {
                let fresh = appraise_rego(result, &RegoPolicy::parse(text).unwrap());
                let reused = appraise_rego(result, &prepared);
                assert_eq!(reused, fresh, "{name}, result {i}, round {round}");
                if round == 0 {
                    match fresh {
                        Ok(decision) if decision.passed() => passed += 1,
                        Ok(_) => failed += 1,
                        Err(error) => panic!("{name}, result {i}: {error}"),
                    }
                }
            }
        }
    }
    // Both outcomes, many times each.
    assert!(
        passed >= 15 && failed >= 150,
        "{passed} passed, {failed} failed"
    );
}

#[test]
fn one_policy_decides_a_stream_of_passing_and_failing_results() {
    let policy = RegoPolicy::parse(&super::rego_nvidia::rego_text(
        "remote_v4_NVGPURemotePolicyExample",
    ))
    .unwrap();
    let good = resigned("hopperClaimsv3", |_| {});
    let bad = resigned("hopperClaimsv3", |c| {
        c["x-nvidia-gpu-vbios-rim-cert-chain"]["x-nvidia-cert-status"] = json!("expired")
    });
    let first_good = appraise_rego(&good, &policy).unwrap();
    let first_bad = appraise_rego(&bad, &policy).unwrap();
    assert!(first_good.passed() && !first_bad.passed());
    let failed: Vec<_> = first_bad.devices()[0]
        .rules()
        .iter()
        .map(|r| r.path())
        .collect();
    assert_eq!(
        failed,
        ["/x-nvidia-gpu-vbios-rim-cert-chain/x-nvidia-cert-status"]
    );
    for i in 0..100 {
        let (result, expected) = if i % 3 == 0 {
            (&bad, &first_bad)
        } else {
            (&good, &first_good)
        };
        assert_eq!(
            &appraise_rego(result, &policy).unwrap(),
            expected,
            "call {i}"
        );
    }
    // A clone shares the compiled program and decides the same.
    assert_eq!(appraise_rego(&bad, &policy.clone()).unwrap(), first_bad);
}

fn rego(body: &str) -> RegoPolicy {
    RegoPolicy::parse(format!("package policy\nimport rego.v1\n{body}\n").as_bytes()).unwrap()
}

fn small() -> VerifiedAttestationResult {
    detached(
        json!({"x-nvidia-overall-att-result": true}),
        &[("GPU-0", json!({"measres": "success"}))],
    )
}

fn code(outcome: Result<PolicyDecision, RegoError>) -> &'static str {
    match outcome {
        Ok(_) => "passed",
        Err(error) => error.code(),
    }
}

/// 26 letters: nested loops over them.
const LETTERS: &str = r#"l := split("abcdefghijklmnopqrstuvwxyz", "")"#;
/// 40 letters: three nested loops over them are 64,000 steps, more than half the instruction
/// budget and less than all of it.
const FORTY: &str = r#"l := split("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN", "")"#;

#[test]
fn every_appraisal_of_a_prepared_policy_gets_the_whole_budget_and_no_more() {
    let result = small();
    // Refused at every call: a value doubled by sharing and compared (the cost budget), and
    // a loop of 26^4 steps (the instruction budget).
    let mut doubling = String::from("a0 := [1, 2]\nb0 := [1, 2]\n");
    for i in 1..=40 {
        let j = i - 1;
        doubling.push_str(&format!("a{i} := [a{j}, a{j}]\nb{i} := [b{j}, b{j}]\n"));
    }
    doubling.push_str("nv_match if a40 == b40");
    let steps = format!(
        "{LETTERS}\nnv_match if {{ every a in l {{ every b in l {{ every c in l {{ every d in l {{ a != \"-\" }} }} }} }} }}"
    );
    for hostile in [rego(&doubling), rego(&steps)] {
        for call in 0..3 {
            assert_eq!(
                code(appraise_rego(&result, &hostile)),
                "ERR_REGO_BUDGET",
                "call {call}"
            );
        }
    }
    // A loop that spends more than half the budget: done twice in one appraisal it is
    // refused, done once it passes, at every call (no call inherits what another spent).
    let once = format!(
        "{FORTY}\nloop(x) if {{ every a in l {{ every b in l {{ every c in l {{ a != x }} }} }} }}\n"
    );
    let twice = rego(&format!("{once}nv_match if {{ loop(\"-\"); loop(\"+\") }}"));
    assert_eq!(code(appraise_rego(&result, &twice)), "ERR_REGO_BUDGET");
    let once = rego(&format!("{once}nv_match if loop(\"-\")"));
    for call in 0..5 {
        assert_eq!(code(appraise_rego(&result, &once)), "passed", "call {call}");
    }
}
