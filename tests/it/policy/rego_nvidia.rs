//! The Rego translations of NVIDIA's JSON policies (`tests/fixtures/policies/rego/`) agree
//! with the JSON evaluation, device by device and rule by rule: on the recorded NRAS results,
//! on NVIDIA's recorded Hopper and LS10 claims re-signed, on a device generated from each
//! policy's own rules (which passes), and on that device with each claim changed in turn
//! (which fails exactly that rule). Plus the minimum-driver example.
#![cfg(all(not(target_arch = "wasm32"), feature = "rego"))]

use edgeattest::crypto::SigningKey;
use edgeattest::policy::{
    appraise, appraise_rego, Policy, PolicyDecision, PolicyVersion, RegoPolicy, RuleStatus,
};
use edgeattest::token::Signers;
use edgeattest::token::{
    create_detached_eat, create_v1_result, sign_jwt, verify_attestation_result, Jwks, JwksKey,
    ResultFormat, VerifiedAttestationResult, VerifyOptions,
};
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};

use super::signed::{recorded, resigned};

use crate::token::teep::fixture;

const NAMES: [&str; 13] = [
    "local_NVGPULocalPolicyClaimsV3Example",
    "local_NVGPULocalPolicyExample",
    "local_NVGPULocalv4PolicyExample",
    "local_NVSwitchLocalPolicyExample",
    "local_NVSwitchLocalv4PolicyExample",
    "remote_v1_NVGPULocalPolicyExample",
    "remote_v1_NVGPURemotePolicyExample",
    "remote_v2_NVGPURemotePolicyExample",
    "remote_v2_NVSwitchRemotePolicyExample",
    "remote_v3_NVGPURemotePolicyExample",
    "remote_v3_NVSwitchRemotePolicyExample",
    "remote_v4_NVGPURemotePolicyExample",
    "remote_v4_NVSwitchRemotePolicyExample",
];

fn json_policy(name: &str) -> Policy {
    Policy::parse(&fixture(&format!("policies/nvtrust/{name}.json"))).unwrap()
}

pub(crate) fn rego_text(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/policies/rego/{name}.rego",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn rego_policy(name: &str) -> RegoPolicy {
    RegoPolicy::parse(&rego_text(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// (scope, path, expected, found, status) of every failed rule, sorted.
type Failure = (Option<String>, String, Value, Option<Value>, RuleStatus);

fn failures(decision: &PolicyDecision) -> Vec<Failure> {
    let mut out: Vec<Failure> = decision
        .failures()
        .map(|(scope, rule)| {
            (
                scope.map(String::from),
                rule.path().to_owned(),
                rule.expected().clone(),
                rule.found().cloned(),
                rule.status(),
            )
        })
        .collect();
    out.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    out
}

/// The JSON policy and its translation decide alike: overall, per device, and every failed
/// rule with its expected and found values. Returns the JSON decision.
fn agree(name: &str, result: &VerifiedAttestationResult) -> PolicyDecision {
    let json = appraise(result, &json_policy(name)).unwrap();
    let rego = appraise_rego(result, &rego_policy(name)).unwrap();
    assert_eq!(rego.version(), PolicyVersion::Rego);
    assert_eq!(rego.passed(), json.passed(), "{name}");
    let labels = |d: &PolicyDecision| -> Vec<(String, bool)> {
        d.devices()
            .iter()
            .map(|d| (d.label().to_owned(), d.passed()))
            .collect()
    };
    assert_eq!(labels(&rego), labels(&json), "{name}");
    assert_eq!(failures(&rego), failures(&json), "{name}");
    json
}

const KID: &str = "rego-test";
const NONCE: &str = "931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb";
const IAT: u64 = 1_749_601_858;

fn key() -> SigningKey {
    SigningKey::generate(&[0x61; 48]).unwrap()
}

fn verify(result: &str, issuer: &str, format: ResultFormat) -> VerifiedAttestationResult {
    let jwks = Jwks::new(vec![JwksKey::new(Some(KID.into()), key().public_key())]).unwrap();
    let options = VerifyOptions::new()
        .signers(Signers::Any)
        .issuer(issuer)
        .nonce(NONCE)
        .result_format(format)
        .allow_failed_result(true)
        .allow_unknown_revocation(true);
    verify_attestation_result(
        result.as_bytes(),
        &jwks,
        &options,
        UnixTime::from_secs(IAT).unwrap(),
    )
    .unwrap()
}

fn with_times(mut claims: Map<String, Value>, issuer: &str) -> Map<String, Value> {
    for (name, value) in [
        ("iat", json!(IAT)),
        ("nbf", json!(IAT)),
        ("exp", json!(IAT + 600)),
        ("eat_nonce", json!(NONCE)),
    ] {
        claims.insert(name.into(), value);
    }
    claims.insert("iss".into(), json!(issuer));
    claims
}

/// A detached result of the given overall claims and devices, signed by the test key.
fn detached(
    overall: Map<String, Value>,
    devices: &[(&str, Map<String, Value>)],
) -> VerifiedAttestationResult {
    let issuer = overall
        .get("iss")
        .and_then(Value::as_str)
        .unwrap_or("https://edgeattest.invalid")
        .to_owned();
    let key = key();
    let devices: Vec<(String, String)> = devices
        .iter()
        .map(|(label, claims)| {
            let mut claims = claims.clone();
            claims.remove("eat_nonce");
            let token = sign_jwt(&with_times(claims, &issuer), &key, KID).unwrap();
            ((*label).to_owned(), token)
        })
        .collect();
    let overall = with_times(overall, &issuer);
    let result = create_detached_eat(&overall, &devices, &key, KID).unwrap();
    verify(&result, &issuer, ResultFormat::Detached)
}

fn v1(mut claims: Map<String, Value>) -> VerifiedAttestationResult {
    claims.remove("eat_nonce");
    // A V1 token carries the verdict (the verifier requires it).
    claims
        .entry("x-nvidia-overall-att-result")
        .or_insert(json!(true));
    let issuer = claims
        .get("iss")
        .and_then(Value::as_str)
        .unwrap_or("https://edgeattest.invalid")
        .to_owned();
    let issuer = issuer.as_str();
    let claims = with_times(claims, issuer);
    let token = sign_jwt(&claims, &key(), KID).unwrap();
    verify(&create_v1_result(&token), issuer, ResultFormat::V1)
}

#[test]
fn every_translation_compiles_and_lists_its_failures() {
    for name in NAMES {
        assert!(rego_policy(name).has_reasons(), "{name}");
    }
}

#[test]
fn translations_agree_on_the_recorded_results() {
    let results = [
        recorded("v3_1gpu_success_20260629"),
        recorded("v3_8gpu_success_20260629"),
        recorded("v3_8gpu_nonce_mismatch_20260520"),
        resigned("hopperClaimsv3", |_| {}),
        resigned("switch", |_| {}),
    ];
    let mut passed = 0;
    for name in NAMES.iter().filter(|n| !n.starts_with("remote_v1")) {
        for result in &results {
            passed += usize::from(agree(name, result).passed());
        }
    }
    // The matching pairs pass (nvidia.rs: remote v3 × 2 real results, remote v4 GPU × Hopper,
    // remote v4 switch × LS10, and the local 4.0 examples, which differ only in `iss`, fail).
    assert_eq!(passed, 4);
}

#[test]
fn translations_agree_when_one_recorded_claim_changes() {
    type Edit = fn(&mut Map<String, Value>);
    let edits: [Edit; 5] = [
        |c| drop(c.insert("measres".into(), json!("fail"))),
        |c| c["x-nvidia-gpu-driver-rim-cert-chain"]["x-nvidia-cert-ocsp-status"] = json!("revoked"),
        |c| drop(c.insert("x-nvidia-gpu-arch-check".into(), json!(1))),
        |c| drop(c.remove("x-nvidia-gpu-vbios-index-no-conflict")),
        // A certificate chain that is not an object: its rules fail with what is there.
        |c| drop(c.insert("x-nvidia-gpu-driver-rim-cert-chain".into(), json!("valid"))),
    ];
    for edit in edits {
        let result = resigned("hopperClaimsv3", edit);
        let decision = agree("remote_v4_NVGPURemotePolicyExample", &result);
        assert!(!decision.passed());
        agree("local_NVGPULocalv4PolicyExample", &result);
    }
}

/// Claims that meet every rule of `rules` (the expected values, nested as written).
fn meeting(rules: &Map<String, Value>) -> Map<String, Value> {
    rules.clone()
}

/// The leaf paths of `rules`, as name lists.
fn leaves(rules: &Map<String, Value>, at: &[String], out: &mut Vec<Vec<String>>) {
    for (name, rule) in rules {
        let mut path = at.to_vec();
        path.push(name.clone());
        match rule {
            Value::Object(members) => leaves(members, &path, out),
            _ => out.push(path),
        }
    }
}

/// `claims` with the claim at `path` changed to another value of another type.
fn changed(claims: &Map<String, Value>, path: &[String]) -> Map<String, Value> {
    let mut claims = Value::Object(claims.clone());
    let mut at = &mut claims;
    for name in path {
        at = &mut at[name];
    }
    *at = match at {
        Value::Bool(b) => json!(if *b { 1 } else { 0 }),
        Value::String(s) => json!(s.to_lowercase() + "-changed"),
        _ => json!(null),
    };
    claims.as_object().unwrap().clone()
}

fn without(claims: &Map<String, Value>, path: &[String]) -> Map<String, Value> {
    let mut claims = Value::Object(claims.clone());
    let mut at = &mut claims;
    for name in &path[..path.len() - 1] {
        at = &mut at[name];
    }
    at.as_object_mut().unwrap().remove(&path[path.len() - 1]);
    claims.as_object().unwrap().clone()
}

#[test]
fn translations_agree_on_a_generated_device_and_each_claim_changed_or_removed() {
    for name in NAMES {
        let policy: Value =
            serde_json::from_slice(&fixture(&format!("policies/nvtrust/{name}.json"))).unwrap();
        let rules = policy["authorization-rules"].as_object().unwrap();
        let v1_policy = policy["version"] == "1.0";
        let (overall, device) = if v1_policy {
            (Map::new(), meeting(rules))
        } else {
            let mut overall = meeting(rules["overall-claims"].as_object().unwrap());
            overall.remove("eat_nonce");
            (
                overall,
                meeting(rules["detached-claims"].as_object().unwrap()),
            )
        };
        let make = |overall: &Map<String, Value>, device: &Map<String, Value>| {
            if v1_policy {
                v1(device.clone())
            } else {
                detached(
                    overall.clone(),
                    &[
                        ("GPU-0", device.clone()),
                        ("GPU-1", meeting(&device_rules(rules))),
                    ],
                )
            }
        };
        // The generated result passes (the 1.0 remote example pins an upper-case nonce the
        // verifier's own check would refuse: its nonce rule is left to the changes below).
        let base = make(&overall, &device);
        let decision = agree(name, &base);
        if !name.starts_with("remote_v1_NVGPURemote") {
            assert!(decision.passed(), "{name}");
        }
        let mut paths = Vec::new();
        leaves(
            if v1_policy {
                rules
            } else {
                rules["detached-claims"].as_object().unwrap()
            },
            &[],
            &mut paths,
        );
        for path in &paths {
            if path[0] == "eat_nonce" || path[0] == "iss" {
                continue;
            }
            for edited in [changed(&device, path), without(&device, path)] {
                let decision = agree(name, &make(&overall, &edited));
                assert!(!decision.passed(), "{name} {path:?}");
            }
        }
    }
}

fn device_rules(rules: &Map<String, Value>) -> Map<String, Value> {
    match rules.get("detached-claims") {
        Some(Value::Object(detached)) => detached.clone(),
        _ => rules.clone(),
    }
}

#[test]
fn the_minimum_driver_example_compares_components_as_numbers() {
    let policy = rego_policy("minimum_driver_version");
    let hopper = resigned("hopperClaimsv3", |_| {});
    // 550.90.07 ≥ 535.104.05 (as strings, "550.90" < "535.104" would not hold either way;
    // as semver both are invalid: leading zeros).
    let decision = appraise_rego(&hopper, &policy).unwrap();
    assert!(decision.passed(), "{:?}", failures(&decision));
    for (version, passes) in [
        ("535.104.05", true),
        ("535.104.5", true),
        ("535.104.4", false),
        ("535.99.99", false),
        ("535.1040.0", true),
        ("9.999.999", false),
        ("1000.0.0", true),
        ("535.104", false),
        ("535.104.05.1", true),
        ("535.x.05", false),
        ("", false),
    ] {
        let result = resigned("hopperClaimsv3", |c| {
            c.insert("x-nvidia-gpu-driver-version".into(), json!(version));
        });
        let decision = appraise_rego(&result, &policy).unwrap();
        assert_eq!(decision.passed(), passes, "{version}");
        if !passes {
            assert_eq!(
                failures(&decision),
                [(
                    Some("GPU-0".into()),
                    "/x-nvidia-gpu-driver-version".into(),
                    json!({"minimum": "535.104.05"}),
                    Some(json!(version)),
                    RuleStatus::Mismatch
                )]
            );
        }
    }
    let missing = resigned("hopperClaimsv3", |c| {
        c.remove("x-nvidia-gpu-driver-version");
    });
    let decision = appraise_rego(&missing, &policy).unwrap();
    assert!(!decision.passed());
    assert_eq!(
        decision.missing().collect::<Vec<_>>(),
        [(Some("GPU-0"), "/x-nvidia-gpu-driver-version")]
    );
    // A number is not a version.
    let number = resigned("hopperClaimsv3", |c| {
        c.insert("x-nvidia-gpu-driver-version".into(), json!(550));
    });
    assert!(!appraise_rego(&number, &policy).unwrap().passed());
    // A switch has no driver: nothing to hold it to.
    assert!(appraise_rego(&resigned("switch", |_| {}), &policy)
        .unwrap()
        .passed());
}
