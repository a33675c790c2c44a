//! The two ways into a node's topology besides the Rust types: the evidence options
//! (`checkTopology`'s JSON) and the join of a GPU result and a switch result that the service
//! issued for the real PPCIE node (8 Hopper GPUs, 4 LS10 switches, one nonce).
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use edgeattest::chain::TrustStore;
use edgeattest::crypto::SigningKey;
use edgeattest::evidence::{
    check_topology, OptionsError, ResultClaims, TopologyError, TopologyEvidenceOptions,
    TopologyInput, TopologyOptions, TopologyRule, TopologyVerdict,
};
use edgeattest::rim::RimTrust;
use edgeattest::service::{KeyRing, Request, Service, ServiceConfig};
use edgeattest::{ErrorCode, UnixTime};
use serde_json::{json, Map, Value};

use crate::verdicts::NOW;

type Claims = Map<String, Value>;

fn fixture(path: &str) -> String {
    let full = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// A real fixture file's devices as evidence options' `devices`, and their nonce.
fn devices(file: &str) -> (Vec<Value>, String) {
    let list: Value =
        serde_json::from_str(&fixture(&format!("nvidia/evidence/serialized/{file}"))).unwrap();
    let items = list.as_array().unwrap();
    let devices = items
        .iter()
        .map(|item| {
            let pem = STANDARD
                .decode(item["certificate"].as_str().unwrap())
                .unwrap();
            json!({"evidence": item["evidence"], "certificate": String::from_utf8(pem).unwrap()})
        })
        .collect();
    (devices, items[0]["nonce"].as_str().unwrap().to_owned())
}

fn gpus() -> (Vec<Value>, String) {
    devices("nvtrust_ppcie_gpu_evidence_8gpu.json")
}

fn switches() -> (Vec<Value>, String) {
    devices("nvtrust_ppcie_switch_evidence_4sw.json")
}

/// The evidence options error as the binding sees it: options or topology.
#[derive(Debug)]
enum Refused {
    Options(OptionsError),
    Topology(TopologyError),
}

impl From<OptionsError> for Refused {
    fn from(error: OptionsError) -> Self {
        Self::Options(error)
    }
}

impl From<TopologyError> for Refused {
    fn from(error: TopologyError) -> Self {
        Self::Topology(error)
    }
}

fn check(options: Value) -> Result<edgeattest::evidence::TopologyReport, Refused> {
    let options: TopologyEvidenceOptions = serde_json::from_value(options).unwrap();
    options.check(UnixTime::given_or::<Refused>(
        UnixTime::from_secs(NOW).unwrap(),
    ))
}

#[test]
fn the_evidence_options_verify_each_device_then_check_the_node() {
    let ((gpus, nonce), (switches, _)) = (gpus(), switches());
    let report = check(json!({
        "gpus": {"devices": gpus, "nonce": nonce, "arch": "HOPPER"},
        "switches": {"devices": switches, "nonce": nonce, "arch": "LS10"},
    }))
    .unwrap();
    assert_eq!(report.verdict, TopologyVerdict::Passed);
    assert_eq!(report.gpus[0].label, "GPU-0");
    assert_eq!(report.switches[3].label, "SWITCH-3");

    // The counts are the caller's: a node of 8 + 3 fails with one switch short.
    let report = check(json!({
        "gpus": {"devices": gpus, "nonce": nonce, "arch": "HOPPER"},
        "switches": {"devices": &switches[..3], "nonce": nonce, "arch": "LS10"},
    }))
    .unwrap();
    assert_eq!(report.verdict, TopologyVerdict::Failed);
    assert!(report.failed_rules.contains(&TopologyRule::SwitchCount));
    let report = check(json!({
        "gpus": {"devices": gpus, "nonce": nonce, "arch": "HOPPER"},
        "switches": {"devices": &switches[..3], "nonce": nonce, "arch": "LS10"},
        "expectedSwitches": 3,
    }))
    .unwrap();
    assert!(!report.failed_rules.contains(&TopologyRule::SwitchCount));
}

#[test]
fn a_device_that_does_not_verify_stops_the_check_with_its_own_code() {
    let ((mut gpus, nonce), (switches, _)) = (gpus(), switches());
    // GPU-5's transcript with a byte of its signature flipped.
    let mut bytes = STANDARD
        .decode(gpus[5]["evidence"].as_str().unwrap())
        .unwrap();
    let at = bytes.len() - 10;
    bytes[at] ^= 1;
    gpus[5]["evidence"] = json!(STANDARD.encode(&bytes));
    let Err(Refused::Topology(error)) = check(json!({
        "gpus": {"devices": gpus, "nonce": nonce, "arch": "HOPPER"},
        "switches": {"devices": switches, "nonce": nonce, "arch": "LS10"},
    })) else {
        panic!("a tampered GPU passed");
    };
    assert_eq!(error.code(), "ERR_EVIDENCE_SIGNATURE", "{error}");
    assert!(error.to_string().starts_with("GPU-5: "), "{error}");

    // The switches given as GPUs: refused by kind, not checked as GPUs.
    let Err(Refused::Topology(error)) = check(json!({
        "gpus": {"devices": switches, "nonce": nonce, "arch": "LS10"},
        "switches": {"devices": switches, "nonce": nonce, "arch": "LS10"},
    })) else {
        panic!("switches passed as GPUs");
    };
    assert_eq!(error.code(), "ERR_TOPOLOGY_WRONG_DEVICE");
}

#[test]
fn a_malformed_batch_names_its_member_under_its_kind() {
    let (switches, nonce) = switches();
    let Err(Refused::Options(error)) = check(json!({
        "gpus": {"devices": [{"certificate": "x"}], "nonce": nonce, "arch": "HOPPER"},
        "switches": {"devices": switches, "nonce": nonce, "arch": "LS10"},
    })) else {
        panic!("a device without evidence was read");
    };
    assert_eq!(error.code(), "ERR_INVALID_ARGUMENT");
    assert!(
        error.to_string().starts_with("gpus.devices[0].evidence "),
        "{error}"
    );
    // Unknown members are refused, as every options type of the evidence entries.
    let refused: Result<TopologyEvidenceOptions, _> =
        serde_json::from_value(json!({"gpus": {}, "switches": {}, "expected": 8}));
    assert!(refused.is_err());
}

// The join of two results the service issued.

fn service() -> Service {
    let config = ServiceConfig {
        issuer: Some("https://edgeattest.test".into()),
        ocsp_url: None,
        ..ServiceConfig::default()
    };
    Service::new(
        config,
        KeyRing::new(SigningKey::generate(&[6u8; 48]).unwrap(), None),
        TrustStore::nvidia_device_identity().unwrap(),
        RimTrust::nvidia(),
        1,
    )
}

/// The overall and device claims of the service's answer to `path` for `devices`.
fn attest(path: &str, arch: &str, version: &str, devices: &[Value], nonce: &str) -> Vec<Claims> {
    let list: Vec<Value> = devices
        .iter()
        .map(|d| {
            json!({"evidence": d["evidence"],
                "certificate": STANDARD.encode(d["certificate"].as_str().unwrap())})
        })
        .collect();
    let body =
        json!({"nonce": nonce, "arch": arch, "claims_version": version, "evidence_list": list});
    let request = Request::new("POST", path).body(serde_json::to_vec(&body).unwrap());
    let response = service().handle(&request, UnixTime::from_secs(NOW).unwrap(), [7; 32]);
    assert_eq!(
        response.status,
        200,
        "{}",
        String::from_utf8_lossy(&response.body)
    );
    let result: Value = serde_json::from_slice(&response.body).unwrap();
    let decode = |token: &Value| -> Claims {
        let payload = token.as_str().unwrap().split('.').nth(1).unwrap();
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
    };
    let mut claims = vec![decode(&result[0][1])];
    claims.extend(result[1].as_object().unwrap().values().map(decode));
    claims
}

fn labelled<'a>(claims: &'a [Claims], prefix: &str) -> Vec<(String, &'a Claims)> {
    claims[1..]
        .iter()
        .enumerate()
        .map(|(i, c)| (format!("{prefix}-{i}"), c))
        .collect()
}

fn join(gpus: &[Claims], switches: &[Claims]) -> Result<TopologyInput, TopologyError> {
    let gpu_labels = labelled(gpus, "GPU");
    let switch_labels = labelled(switches, "SWITCH");
    let gpu_devices: Vec<(&str, &Claims)> =
        gpu_labels.iter().map(|(l, c)| (l.as_str(), *c)).collect();
    let switch_devices: Vec<(&str, &Claims)> = switch_labels
        .iter()
        .map(|(l, c)| (l.as_str(), *c))
        .collect();
    TopologyInput::from_results(
        ResultClaims {
            overall: &gpus[0],
            devices: &gpu_devices,
        },
        ResultClaims {
            overall: &switches[0],
            devices: &switch_devices,
        },
    )
}

#[test]
fn the_services_claims_carry_the_links_a_relying_party_joins() {
    let ((gpu_devices, nonce), (switch_devices, _)) = (gpus(), switches());
    let mut gpus = attest("/v4/attest/gpu", "HOPPER", "4.0", &gpu_devices, &nonce);
    let mut switches = attest("/v4/attest/switch", "LS10", "3.0", &switch_devices, &nonce);
    // No RIMs for this node are public: the service fails it, and the join refuses it.
    assert_eq!(gpus[0]["x-nvidia-overall-att-result"], false);
    assert!(matches!(
        join(&gpus, &switches),
        Err(TopologyError::ResultFailed { result: "GPU" })
    ));
    assert_eq!(
        join(&gpus, &switches).unwrap_err().code(),
        "ERR_TOPOLOGY_RESULT_FAILED"
    );
    // The claims the join reads are the service's: GPU 4.0 and switch 3.0.
    assert_eq!(
        gpus[1]["x-nvidia-gpu-switch-pdis"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
    assert_eq!(
        switches[1]["x-nvidia-switch-gpu-pdis"]
            .as_array()
            .unwrap()
            .len(),
        8
    );
    assert!(switches[1]["x-nvidia-switch-pdi"].is_string());

    // With both verdicts true (as collateral would make them), the service's own link claims
    // give NVIDIA's rules a pass; the GPUs' PDIs are not in any claim.
    gpus[0].insert("x-nvidia-overall-att-result".into(), json!(true));
    switches[0].insert("x-nvidia-overall-att-result".into(), json!(true));
    let input = join(&gpus, &switches).unwrap();
    let options = TopologyOptions {
        match_gpu_pdis: false,
        ..TopologyOptions::default()
    };
    let report = check_topology(&input, &options).unwrap();
    assert_eq!(
        report.verdict,
        TopologyVerdict::Passed,
        "{:?}",
        report.failed_rules
    );
    assert_eq!(report.gpus[7].label, "GPU-7");

    // A switch result from another nonce is another moment: refused.
    switches[0].insert("eat_nonce".into(), json!("00".repeat(32)));
    assert_eq!(
        join(&gpus, &switches).unwrap_err().code(),
        "ERR_TOPOLOGY_NONCE_MISMATCH"
    );
    switches[0].remove("eat_nonce");
    assert!(matches!(
        join(&gpus, &switches),
        Err(TopologyError::NonceMismatch)
    ));
    // Results swapped: a switch token is not a GPU.
    switches[0].insert("eat_nonce".into(), json!(nonce));
    assert_eq!(
        join(&switches, &gpus).unwrap_err().code(),
        "ERR_TOPOLOGY_WRONG_DEVICE"
    );
}
