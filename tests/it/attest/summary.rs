//! `validateAttestRequest`'s summary of a valid body, written by the core (`RequestSummary`),
//! on a real recorded request; an unknown path refused with the service's code.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::attest::{validate_request, Endpoint, RequestSummary};
use edgeattest::ErrorCode;
use serde_json::Value;

#[test]
fn the_summary_of_a_recorded_request() {
    let path = format!(
        "{}/tests/fixtures/nvidia/nras/teep/v3_8gpu_success_20260629_request.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let body = std::fs::read(path).unwrap();
    let recorded: Value = serde_json::from_slice(&body).unwrap();
    let endpoint = Endpoint::for_path("/v3/attest/gpu").unwrap();
    let request = validate_request(endpoint, &body).unwrap();
    let summary = serde_json::to_value(RequestSummary::new(&request)).unwrap();
    assert_eq!(summary["endpoint"], "/v3/attest/gpu");
    assert_eq!(summary["nonce"], recorded["nonce"]);
    assert_eq!(summary["arch"], "HOPPER");
    assert_eq!(summary["deprecated"], false);
    let devices = summary["devices"].as_array().unwrap();
    assert_eq!(devices.len(), 8);
    assert_eq!(devices[7]["label"], "GPU-7");
    assert!(devices[0]["evidenceBytes"].as_u64().unwrap() > 1000);
    assert_eq!(devices[0]["firmwareVersion"], Value::Null);
}

#[test]
fn an_unknown_path_is_the_services_unknown_endpoint() {
    let error = Endpoint::for_path("/v9/attest/gpu").unwrap_err();
    assert_eq!(error.code(), "ERR_REQUEST_UNKNOWN_ENDPOINT");
    assert_eq!(
        Endpoint::for_path("/v4/attest/switch"),
        Ok(Endpoint::SwitchV4)
    );
}
