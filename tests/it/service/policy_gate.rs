//! The service enforcing a relying-party policy (the `policy` option): a device that passes
//! NVIDIA's checks but fails the policy's device rules fails with 4091 and the failed rules
//! in its error details; a device that failed already keeps its own failure; without a
//! policy nothing changes. End to end on the OCSP test PKI (`tests/common/ocsp_responder.rs`).
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::crypto::SigningKey;
use edgeattest::policy::Policy;
use edgeattest::service::{Service, ServiceConfig, ServiceOptions, POLICY_NOT_MET_CODE};
use edgeattest::ErrorCode;
use serde_json::{json, Value};

#[path = "../../common/ocsp_responder.rs"]
mod ocsp_responder;
use ocsp_responder::{attest_with, device_request, read, test_service, tokens, Mode, Responder};

/// The OCSP test service (`ocsp_responder::test_service`) enforcing `policy`.
fn service(policy: Option<&str>, revoked_driver_signer: bool) -> Service {
    let config = ServiceConfig {
        rim_service_url: None,
        issuer: Some("https://attest.example".into()),
        policy: policy.map(|text| Policy::parse(text.as_bytes()).unwrap()),
        ..ServiceConfig::default()
    };
    test_service(config, revoked_driver_signer)
}

fn attest(service: &Service) -> (Value, Value) {
    let request = device_request("good");
    let (response, _, _) = attest_with(service, &request, &Responder::new(Mode::Normal));
    let (overall, devices) = tokens(&response);
    (Value::Object(overall), Value::Object(devices[0].clone()))
}

fn v4(detached: Value) -> String {
    json!({"version": "4.0", "authorization-rules": {
        "type": "JWT", "overall-claims": {"x-nvidia-ver": "3.0"}, "detached-claims": detached}})
    .to_string()
}

#[test]
fn a_policy_the_device_meets_changes_nothing() {
    let nvidia = read("nvidia/policies/nvtrust/remote_v4_NVGPURemotePolicyExample.json");
    let (overall, gpu) = attest(&service(Some(&nvidia), false));
    assert_eq!(overall["x-nvidia-overall-att-result"], true, "{gpu}");
    assert_eq!(gpu["x-nvidia-error-details"], Value::Null, "{gpu}");
    let (_, without) = attest(&service(None, false));
    // The same claims but for the per-token values: jti, and the times (the responder
    // helper runs on the wall clock, so the two attestations may be a second apart).
    let strip = |mut claims: Value| {
        for name in ["jti", "iat", "nbf", "exp"] {
            claims.as_object_mut().unwrap().remove(name);
        }
        claims
    };
    assert_eq!(strip(gpu), strip(without));
}

#[test]
fn a_device_that_fails_the_policy_fails_with_its_rules_named() {
    let policy = v4(json!({
        "measres": "success",
        "x-nvidia-gpu-driver-version": "999.0",
        "x-nvidia-gpu-vbios-rim-cert-chain": {"x-nvidia-cert-ocsp-status": "good"},
        "x-nvidia-no-such-claim": true,
    }));
    let (overall, gpu) = attest(&service(Some(&policy), false));
    assert_eq!(overall["x-nvidia-overall-att-result"], false);
    // The device failed, as any failed device reads (measres "fail"); its claims stay.
    assert_eq!(gpu["measres"], "fail");
    assert_eq!(gpu["x-nvidia-gpu-driver-version"], "550.90.07");
    let details = &gpu["x-nvidia-error-details"];
    assert_eq!(details["code"], json!(POLICY_NOT_MET_CODE));
    assert_eq!(details["fieldName"], "policy");
    assert_eq!(details["message"], "RELYING_PARTY_POLICY_NOT_MET");
    assert_eq!(
        details["description"],
        "the relying-party policy is not met: /x-nvidia-gpu-driver-version is \"550.90.07\", \
         expected \"999.0\"; /x-nvidia-no-such-claim missing (expected true)",
        "{details}"
    );
}

#[test]
fn a_device_that_failed_already_keeps_its_own_failure() {
    let policy = v4(json!({"x-nvidia-gpu-driver-version": "999.0"}));
    let (overall, gpu) = attest(&service(Some(&policy), true));
    assert_eq!(overall["x-nvidia-overall-att-result"], false);
    assert_eq!(gpu["x-nvidia-error-details"]["code"], json!(5002), "{gpu}");
}

#[test]
fn a_policy_for_v1_results_fails_every_detached_device() {
    let policy = read("nvidia/policies/nvtrust/remote_v1_NVGPURemotePolicyExample.json");
    let (overall, gpu) = attest(&service(Some(&policy), false));
    assert_eq!(overall["x-nvidia-overall-att-result"], false);
    let description = gpu["x-nvidia-error-details"]["description"]
        .as_str()
        .unwrap();
    assert!(
        description.starts_with("the relying-party policy does not apply: a version 1.0 policy"),
        "{description}"
    );
}

#[test]
fn a_malformed_policy_option_names_the_option() {
    let key = SigningKey::generate(&[7u8; 48]).unwrap().to_pkcs8_pem();
    for (text, code) in [
        ("{", "ERR_JSON_SYNTAX"),
        (
            r#"{"version": "5.0", "authorization-rules": {}}"#,
            "ERR_POLICY_UNKNOWN_VERSION",
        ),
        (
            r#"{"version": "4.0", "authorization-rules": {"type": "JWT"}}"#,
            "ERR_POLICY_SHAPE",
        ),
    ] {
        let options = ServiceOptions {
            signing_key: Some(key.clone()),
            policy: Some(text.into()),
            ..ServiceOptions::default()
        };
        let error = options.build().map(|_| ()).unwrap_err();
        assert_eq!(
            (error.code(), error.field()),
            (code, Some("policy")),
            "{text}"
        );
    }
    let nvidia = read("nvidia/policies/nvtrust/remote_v4_NVGPURemotePolicyExample.json");
    let options = ServiceOptions {
        signing_key: Some(key),
        policy: Some(nvidia),
        ..ServiceOptions::default()
    };
    assert!(options.build().is_ok());
}
