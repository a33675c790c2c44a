//! A CMW as an attest request's `evidence_list` (V3, V4): NVIDIA's verifier input, JSON
//! inline or base64 of either serialisation, read into the devices the item array gives.
#![cfg(not(target_arch = "wasm32"))]

use base64::Engine;
use edgeattest::attest::{validate_request, Endpoint};
use edgeattest::cmw::EvidenceForm;
use edgeattest::ErrorCode;
use serde_json::{json, Value};

use super::support::{fsp_cmw, fsp_pem, fsp_transcript, to_cbor, FSP_NONCE};

fn body(evidence_list: Value) -> Vec<u8> {
    json!({ "nonce": FSP_NONCE, "arch": "BLACKWELL", "evidence_list": evidence_list })
        .to_string()
        .into_bytes()
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[test]
fn a_cmw_evidence_list_gives_the_devices_of_the_item_array() {
    let plain = validate_request(
        Endpoint::GpuV4,
        &body(json!([{
            "evidence": b64(&fsp_transcript()),
            "certificate": b64(fsp_pem().as_bytes()),
            "firmware_version": "01.00.00.00.01",
        }])),
    )
    .unwrap();
    assert_eq!(plain.evidence_form(), EvidenceForm::Plain);
    let inline = validate_request(Endpoint::GpuV4, &body(fsp_cmw())).unwrap();
    assert_eq!(inline.evidence_form(), EvidenceForm::JsonCmw);
    assert_eq!(inline.devices(), plain.devices());
    let json_text = validate_request(
        Endpoint::GpuV3,
        &body(json!(b64(fsp_cmw().to_string().as_bytes()))),
    )
    .unwrap();
    assert_eq!(json_text.devices(), plain.devices());
    let cbor = validate_request(
        Endpoint::GpuV4,
        &body(json!(b64(&to_cbor(&fsp_cmw()).encode()))),
    )
    .unwrap();
    assert_eq!(cbor.evidence_form(), EvidenceForm::CborCmw);
    assert_eq!(cbor.devices(), plain.devices());
}

#[test]
fn a_cmw_evidence_list_is_held_to_the_item_rules() {
    let refused = |evidence_list: Value, endpoint: Endpoint| {
        let error = validate_request(endpoint, &body(evidence_list)).unwrap_err();
        (error.code(), error.field().map(String::from))
    };
    let mut other_nonce = fsp_cmw();
    other_nonce["nonce"] = json!([
        "application/octet-stream",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode([7u8; 32])
    ]);
    assert_eq!(
        refused(other_nonce, Endpoint::GpuV4),
        ("ERR_CMW_NONCE_MISMATCH", Some("nonce".into()))
    );
    let mut no_chain = fsp_cmw();
    no_chain["gpu_0"]
        .as_object_mut()
        .unwrap()
        .shift_remove("certificate");
    assert_eq!(
        refused(no_chain, Endpoint::GpuV4),
        (
            "ERR_REQUEST_MISSING_FIELD",
            Some("evidence_list.gpu_0.certificate".into())
        )
    );
    let mut bad_hint = fsp_cmw();
    bad_hint["gpu_0"]["hints"][1] = json!(base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(br#"{"fwversion":"not a version"}"#));
    assert_eq!(
        refused(bad_hint, Endpoint::GpuV4),
        (
            "ERR_REQUEST_INVALID_FIRMWARE_VERSION",
            Some("evidence_list.gpu_0.hints".into())
        )
    );
    let mut foreign = fsp_cmw();
    foreign["cpu_0"] = json!(["application/vnd.example.tdx-quote", "YQ"]);
    assert_eq!(
        refused(foreign, Endpoint::GpuV4),
        ("ERR_CMW_PROFILE", Some("cpu_0".into()))
    );
    assert_eq!(
        refused(json!("not base64!"), Endpoint::GpuV4),
        ("ERR_REQUEST_INVALID_BASE64", Some("evidence_list".into()))
    );
    // Generation-1 endpoints keep their array.
    let v2 = json!({ "nonce": FSP_NONCE, "arch": "BLACKWELL", "evidences": fsp_cmw() });
    let error = validate_request(Endpoint::GpuV2, v2.to_string().as_bytes()).unwrap_err();
    assert_eq!(error.code(), "ERR_REQUEST_WRONG_TYPE");
}
