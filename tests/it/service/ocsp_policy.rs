//! NVIDIA's relying-party policies (`remote_v4_NVGPURemotePolicyExample.json`,
//! `remote_v4_NVSwitchRemotePolicyExample.json`) accept our tokens for devices that pass end
//! to end with every chain — device and RIM — asked about on a real responder (`openssl ocsp`
//! for the OCSP test PKI, `tests/common/ocsp_responder.rs`), and refuse what revocation
//! refused. The policies are read as NVIDIA's SDK reads them: every listed claim must equal
//! its value (objects member by member).
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::crypto::SigningKey;
use edgeattest::service::{Request, Service, ServiceConfig, OTHER_ROOT_WARNING};
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};

#[path = "../../common/ocsp_responder.rs"]
mod ocsp_responder;
use ocsp_responder::{attest_with, device, read, test_service, tokens, Mode, Responder};

/// The OCSP test service (`ocsp_responder::test_service`) with its issuer.
fn service(revoked_driver_signer: bool) -> Service {
    let config = ServiceConfig {
        rim_service_url: None,
        issuer: Some("https://attest.example".into()),
        ..ServiceConfig::default()
    };
    test_service(config, revoked_driver_signer)
}

fn request(path: &str, arch: &str, (evidence, chain): &(Vec<u8>, String)) -> Request {
    let body = json!({
        "nonce": hex::encode(&evidence[4..36]),
        "arch": arch,
        "claims_version": "3.0",
        "evidence_list": [{"evidence": STANDARD.encode(evidence), "certificate": STANDARD.encode(chain)}],
    });
    Request::new("POST", path).body(serde_json::to_vec(&body).unwrap())
}

/// The real LS10 96.10.55.00.01 transcript re-signed with the test PKI's switch leaf.
fn switch() -> (Vec<u8>, String) {
    let report =
        hex::decode(read("nvidia/evidence/switch/nvat_ls10_96.10.55.00.01_report.hex").trim())
            .unwrap();
    let key = SigningKey::from_pkcs8_pem(&read("generated/ocsp/leaf_switch_key.pem")).unwrap();
    let mut evidence = report[..report.len() - 96].to_vec();
    let signature = key.sign(&evidence);
    evidence.extend_from_slice(&signature);
    (evidence, read("generated/ocsp/chain_switch.pem"))
}

fn policy(name: &str) -> Value {
    let text = read(&format!("nvidia/policies/nvtrust/{name}"));
    serde_json::from_str::<Value>(&text).unwrap()["authorization-rules"].clone()
}

/// The claims of `claims` that differ from `policy`'s.
fn unmet(claims: &Map<String, Value>, policy: &Value) -> Vec<String> {
    fn walk(claims: &Value, policy: &Value, path: &str, out: &mut Vec<String>) {
        match policy {
            Value::Object(members) => {
                for (name, expected) in members {
                    walk(&claims[name], expected, &format!("{path}.{name}"), out);
                }
            }
            expected if claims != expected => out.push(format!("{path}: {claims} != {expected}")),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(&Value::Object(claims.clone()), policy, "", &mut out);
    out
}

#[test]
fn a_gpu_passing_with_every_chain_good_meets_the_remote_v4_gpu_policy() {
    let service = service(false);
    let (response, cacheable, asked) = attest_with(
        &service,
        &request("/v4/attest/gpu", "HOPPER", &device("good")),
        &Responder::new(Mode::Normal),
    );
    // Device chain: BROM, ICA, Identity; RIM chain (shared by both RIMs): signer, L3, CA.
    assert_eq!((asked, cacheable.len()), (6, 6));
    let (overall, devices) = tokens(&response);
    let gpu = &devices[0];
    assert_eq!(overall["x-nvidia-overall-att-result"], true, "{gpu:?}");
    // Nothing left unchecked; the only warning says the device is not NVIDIA's.
    assert_eq!(
        gpu["x-nvidia-attestation-warning"],
        OTHER_ROOT_WARNING.replace("{root}", "O=Test OCSP PKI,CN=Test OCSP Device Identity CA"),
        "{gpu:?}"
    );
    let rules = policy("remote_v4_NVGPURemotePolicyExample.json");
    assert_eq!(
        unmet(&overall, &rules["overall-claims"]),
        Vec::<String>::new()
    );
    assert_eq!(unmet(gpu, &rules["detached-claims"]), Vec::<String>::new());
}

#[test]
fn a_rim_signed_by_a_revoked_signer_fails_the_gpu_and_the_policy() {
    let service = service(true);
    let (response, _, _) = attest_with(
        &service,
        &request("/v4/attest/gpu", "HOPPER", &device("good")),
        &Responder::new(Mode::Normal),
    );
    let (overall, devices) = tokens(&response);
    assert_eq!(overall["x-nvidia-overall-att-result"], false);
    let rim_chain = &devices[0]["x-nvidia-gpu-driver-rim-cert-chain"];
    assert_eq!(
        rim_chain["x-nvidia-cert-ocsp-status"], "revoked",
        "{rim_chain}"
    );
    assert_eq!(rim_chain["x-nvidia-cert-status"], "revoked");
    assert_eq!(
        rim_chain["x-nvidia-cert-revocation-reason"],
        "keyCompromise"
    );
    let details = &devices[0]["x-nvidia-error-details"];
    assert_eq!(
        (&details["code"], &details["fieldName"]),
        (&json!(5002), &json!("rim")),
        "{details}"
    );
    let rules = policy("remote_v4_NVGPURemotePolicyExample.json");
    let failures = unmet(&devices[0], &rules["detached-claims"]);
    assert!(
        failures.iter().any(|f| f.contains("driver-rim-cert-chain")),
        "{failures:?}"
    );
    assert!(!unmet(&overall, &rules["overall-claims"]).is_empty());
}

#[test]
fn a_switch_passing_with_every_chain_good_meets_the_remote_v4_switch_policy() {
    let service = service(false);
    let (response, _, asked) = attest_with(
        &service,
        &request("/v4/attest/switch", "LS10", &switch()),
        &Responder::new(Mode::Normal),
    );
    assert_eq!(asked, 6);
    let (overall, devices) = tokens(&response);
    let ls10 = &devices[0];
    assert_eq!(overall["x-nvidia-overall-att-result"], true, "{ls10:?}");
    let rules = policy("remote_v4_NVSwitchRemotePolicyExample.json");
    assert_eq!(
        unmet(&overall, &rules["overall-claims"]),
        Vec::<String>::new()
    );
    assert_eq!(unmet(ls10, &rules["detached-claims"]), Vec::<String>::new());

    // Without the answers (a host that does not fetch), the policy refuses: "good" is required.
    let response = service.handle(
        &request("/v4/attest/switch", "LS10", &switch()),
        UnixTime::from_secs(ocsp_responder::now()).unwrap(),
        [1; 32],
    );
    let (_, devices) = tokens(&response);
    let failures = unmet(&devices[0], &rules["detached-claims"]);
    assert!(
        failures
            .iter()
            .any(|f| f.contains("x-nvidia-cert-ocsp-status")),
        "{failures:?}"
    );
}
