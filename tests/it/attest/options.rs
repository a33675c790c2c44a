//! `buildAttestRequest`'s options read by the core from JSON (`AttestRequestOptions` through
//! serde_json) on a real transcript: the body it builds validates as the service validates
//! it, randomness is asked for only when no nonce is given, and refusals name the member.
#![cfg(not(target_arch = "wasm32"))]

use std::cell::Cell;

use edgeattest::{
    validate_request, AttestRequestOptions, Endpoint, ErrorCode, Nonce, OptionsError,
    RequestSummary,
};
use serde_json::{json, Value};

fn fixture(path: &str) -> String {
    let full = format!(
        "{}/tests/fixtures/nvidia/{path}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn hopper_options(more: Value) -> AttestRequestOptions {
    let mut options = json!({
        "endpoint": "/v4/attest/gpu",
        "arch": "HOPPER",
        "evidence": [{
            "evidence": fixture("evidence/hopper/nvtrust_hopper_550.90.07_report.hex").trim(),
            "certificate": fixture("evidence/hopper/nvtrust_hopper_550.90.07_certchain.pem"),
        }],
    });
    for (key, value) in more.as_object().unwrap() {
        options[key] = value.clone();
    }
    serde_json::from_value(options).unwrap()
}

fn no_randomness() -> Result<Nonce, OptionsError> {
    panic!("randomness asked for although a nonce was given")
}

#[test]
fn a_built_body_validates_with_the_nonce_given() {
    let nonce = "931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb";
    let body = hopper_options(json!({ "nonce": nonce, "claimsVersion": "4.0" }))
        .build(no_randomness)
        .unwrap();
    let request = validate_request(Endpoint::GpuV4, body.to_json().as_bytes()).unwrap();
    let summary = serde_json::to_value(RequestSummary::new(&request)).unwrap();
    assert_eq!(summary["nonce"], nonce);
    assert_eq!(summary["claimsVersion"], "4.0");
    assert_eq!(summary["devices"][0]["label"], "GPU-0");
    assert_eq!(summary["devices"][0]["firmwareVersion"], Value::Null);
}

#[test]
fn randomness_is_asked_for_once_and_only_without_a_nonce() {
    let asked = Cell::new(0);
    let random = || {
        asked.set(asked.get() + 1);
        Ok::<_, OptionsError>(Nonce::from_bytes([7; 32]))
    };
    let body = hopper_options(json!({})).build(random).unwrap();
    assert_eq!(asked.get(), 1);
    let request = validate_request(Endpoint::GpuV4, body.to_json().as_bytes()).unwrap();
    assert_eq!(request.nonce().to_hex(), "07".repeat(32));
}

#[test]
fn refusals_have_the_services_codes_and_name_the_member() {
    let refused = |more: Value| {
        let error = hopper_options(more).build(no_randomness).unwrap_err();
        (error.code(), error.field().map(String::from))
    };
    let nonce = json!("00".repeat(32));
    assert_eq!(
        refused(json!({ "nonce": "xyz" })),
        ("ERR_REQUEST_INVALID_NONCE", Some("nonce".into()))
    );
    assert_eq!(
        refused(json!({ "nonce": nonce, "endpoint": "/v9/attest/gpu" })).0,
        "ERR_REQUEST_UNKNOWN_ENDPOINT"
    );
    assert_eq!(
        refused(json!({ "nonce": nonce, "arch": "VOLTA" })),
        ("ERR_REQUEST_INVALID_ARCH", Some("arch".into()))
    );
    assert_eq!(
        refused(json!({ "nonce": nonce, "evidence": [{ "evidence": "00" }] })),
        (
            "ERR_INVALID_ARGUMENT",
            Some("evidence[0].certificate".into())
        )
    );
    assert_eq!(
        refused(json!({ "nonce": nonce, "evidenceEncoding": "base64" })),
        ("ERR_EVIDENCE_ENCODING", Some("evidence[0].evidence".into()))
    );
    assert_eq!(
        refused(json!({ "nonce": nonce, "evidenceEncoding": "rot13" })),
        ("ERR_INVALID_ARGUMENT", Some("evidenceEncoding".into()))
    );
    let options: AttestRequestOptions = serde_json::from_value(json!({})).unwrap();
    let error = options.build(no_randomness).unwrap_err();
    assert_eq!(
        (error.code(), error.field()),
        ("ERR_INVALID_ARGUMENT", Some("endpoint"))
    );
}
