//! The evidence entries' options with CMW-wrapped evidence: NVIDIA's real JSON CMW verified
//! as its transcript and chain are, the form in every report, and the CMW's own refusals
//! (nonce, chain given twice, device count) and a tampered transcript failing verification.
#![cfg(not(target_arch = "wasm32"))]

use base64::Engine;
use edgeattest::evidence::{DeviceResult, EvidenceOptions, OptionsError, VerifyError};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::{json, Value};

use super::support::{fsp_cmw, fsp_cmw_text, fsp_pem, fsp_transcript, FSP_NONCE};

fn clock() -> impl FnOnce(Option<&UnixTime>) -> Result<UnixTime, OptionsError> {
    UnixTime::given_or(UnixTime::EPOCH)
}

fn options(mut members: Value) -> EvidenceOptions {
    let defaults = json!({ "nonce": FSP_NONCE, "arch": "BLACKWELL", "now": 1_780_000_000 });
    for (key, value) in defaults.as_object().unwrap() {
        members
            .as_object_mut()
            .unwrap()
            .entry(key.clone())
            .or_insert(value.clone());
    }
    serde_json::from_value(members).unwrap()
}

fn verify(members: Value) -> Result<Result<Value, String>, (String, Option<String>)> {
    options(members)
        .verify_evidence(clock())
        .map(|device| {
            device
                .map(|v| serde_json::to_value(v.to_report()).unwrap())
                .map_err(|e: VerifyError| e.code().to_string())
        })
        .map_err(|e| (e.code().to_string(), e.field().map(String::from)))
}

fn b64u(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

#[test]
fn nvidias_cmw_verifies_as_its_transcript_and_chain_do() {
    let plain =
        verify(json!({ "evidence": hex::encode(fsp_transcript()), "certificate": fsp_pem() }))
            .unwrap()
            .unwrap();
    assert_eq!(plain["evidenceForm"], "plain");
    let wrapped = verify(json!({ "evidence": fsp_cmw_text() }))
        .unwrap()
        .unwrap();
    assert_eq!(wrapped["evidenceForm"], "json-cmw");
    assert_eq!(wrapped["profile"], "blackwell-fsp");
    // Everything else is the plain report's.
    let mut same = wrapped.clone();
    same["evidenceForm"] = json!("plain");
    assert_eq!(same, plain);
    // The CMW's bytes (a Uint8Array in JS) read as its text does.
    let bytes = verify(json!({ "evidence": fsp_cmw_text().into_bytes() }))
        .unwrap()
        .unwrap();
    assert_eq!(bytes["evidenceForm"], "json-cmw");
}

#[test]
fn a_tampered_transcript_inside_the_cmw_fails_verification() {
    let mut transcript = fsp_transcript();
    // A measurement byte of block 3, well inside the signed bytes.
    transcript[60] ^= 0x01;
    let mut cmw = fsp_cmw();
    cmw["gpu_0"]["evidence"][1] = json!(b64u(&transcript));
    let outcome = verify(json!({ "evidence": cmw.to_string() })).unwrap();
    assert_eq!(outcome, Err("ERR_EVIDENCE_SIGNATURE".to_string()));
}

#[test]
fn the_cmws_nonce_must_be_the_callers() {
    let mut cmw = fsp_cmw();
    cmw["nonce"] = json!([
        "application/octet-stream",
        b64u(&hex::decode(FSP_NONCE).unwrap())
    ]);
    let ok = verify(json!({ "evidence": cmw.to_string() })).unwrap();
    assert!(ok.is_ok(), "{ok:?}");
    cmw["nonce"] = json!(["application/octet-stream", b64u(&[7; 32])]);
    assert_eq!(
        verify(json!({ "evidence": cmw.to_string() })),
        Err(("ERR_CMW_NONCE_MISMATCH".into(), Some("nonce".into())))
    );
    // The caller's nonce is still required: a CMW's nonce is the attester's claim.
    let no_nonce: EvidenceOptions = serde_json::from_value(
        json!({ "evidence": fsp_cmw_text(), "arch": "BLACKWELL", "now": 1 }),
    )
    .unwrap();
    let error = no_nonce.verify_evidence(clock()).unwrap_err();
    assert_eq!(error.field(), Some("nonce"));
}

#[test]
fn the_chain_comes_from_the_cmw_or_the_caller_never_both() {
    assert_eq!(
        verify(json!({ "evidence": fsp_cmw_text(), "certificate": fsp_pem() })),
        Err(("ERR_INVALID_ARGUMENT".into(), Some("certificate".into())))
    );
    let record = json!([
        "application/vnd.nvidia.spdm-measurement-transcript",
        b64u(&fsp_transcript())
    ]);
    let report = verify(json!({ "evidence": record.to_string(), "certificate": fsp_pem() }))
        .unwrap()
        .unwrap();
    assert_eq!(report["evidenceForm"], "json-cmw");
    assert_eq!(
        verify(json!({ "evidence": record.to_string() })),
        Err(("ERR_INVALID_ARGUMENT".into(), Some("certificate".into())))
    );
}

#[test]
fn a_cmw_of_two_devices_is_a_batch_not_one_device() {
    let mut cmw = fsp_cmw();
    cmw["gpu_1"] = cmw["gpu_0"].clone();
    assert_eq!(
        verify(json!({ "evidence": cmw.to_string() })),
        Err(("ERR_CMW_DEVICE_COUNT".into(), None))
    );
    let plan = options(json!({ "evidence": cmw.to_string() }))
        .batch_plan(clock())
        .unwrap();
    let results = DeviceResult::list(plan.verify());
    let results = serde_json::to_value(results).unwrap();
    assert_eq!(results.as_array().unwrap().len(), 2);
    for result in results.as_array().unwrap() {
        assert_eq!(result["ok"], true, "{result}");
        assert_eq!(result["report"]["evidenceForm"], "json-cmw");
    }
    // Without `devices`, plain evidence is still no batch.
    let plain =
        options(json!({ "evidence": hex::encode(fsp_transcript()), "certificate": fsp_pem() }))
            .batch_plan(clock())
            .unwrap_err();
    assert_eq!(plain.field(), Some("devices"));
    // A device of `devices` may be a CMW too.
    let plan = options(json!({ "devices": [
        { "evidence": fsp_cmw_text() },
        { "evidence": hex::encode(fsp_transcript()), "certificate": fsp_pem() },
    ] }))
    .batch_plan(clock())
    .unwrap();
    let forms: Vec<_> = plan
        .verify()
        .into_iter()
        .map(|r| r.unwrap().evidence_form().as_str())
        .collect();
    assert_eq!(forms, ["json-cmw", "plain"]);
}

#[test]
fn the_report_takes_the_cmws_firmware_hint_and_form() {
    let report = options(json!({ "evidence": fsp_cmw_text() }))
        .report_plan(clock())
        .unwrap()
        .verify();
    let report = serde_json::to_value(report).unwrap();
    assert_eq!(report["evidence"]["evidenceForm"], "json-cmw", "{report}");
    // The hint `fwversion` 01.00.00.00.01 names the firmware RIM, as `firmwareVersion` does.
    assert_eq!(
        report["rims"]["firmware"]["id"],
        "NV_GPU_VBIOS_GB100_065C_0100000001"
    );
    let given = options(json!({ "evidence": fsp_cmw_text(), "firmwareVersion": "01.00.00.00.02" }))
        .report_plan(clock())
        .unwrap()
        .verify();
    let given = serde_json::to_value(given).unwrap();
    assert_eq!(
        given["rims"]["firmware"]["id"],
        "NV_GPU_VBIOS_GB100_065C_0100000002"
    );
}

#[test]
fn malformed_cmw_evidence_is_refused_with_its_code() {
    assert_eq!(
        verify(json!({ "evidence": "{\"gpu_0\": []}" })).map(|_| ()),
        Err(("ERR_CMW_SHAPE".into(), Some("gpu_0".into())))
    );
    let mut cmw = fsp_cmw();
    cmw["gpu_0"]["evidence"][1] = json!("not base64!");
    assert_eq!(
        verify(json!({ "evidence": cmw.to_string() })).map(|_| ()),
        Err(("ERR_CMW_BASE64".into(), Some("gpu_0.evidence".into())))
    );
}

#[test]
fn nvidias_cmw_as_cbor_verifies_as_bytes_or_base64() {
    use super::support::to_cbor;
    let cbor = to_cbor(&fsp_cmw()).encode();
    // The CBOR fixture the JS suites read is this re-encoding, byte for byte.
    let fixture = format!(
        "{}/tests/fixtures/vectors/cmw/nvidia-fsp-collection-DERIVED.cbor",
        env!("CARGO_MANIFEST_DIR")
    );
    assert_eq!(std::fs::read(&fixture).unwrap(), cbor, "{fixture}");
    let bytes = verify(json!({ "evidence": cbor.clone() }))
        .unwrap()
        .unwrap();
    assert_eq!(bytes["evidenceForm"], "cbor-cmw");
    let standard = base64::engine::general_purpose::STANDARD.encode(&cbor);
    let text = verify(json!({ "evidence": standard })).unwrap().unwrap();
    assert_eq!(text, bytes);
    // A tampered transcript inside the CBOR fails as it does in JSON.
    let mut transcript = fsp_transcript();
    transcript[60] ^= 0x01;
    let mut cmw = fsp_cmw();
    cmw["gpu_0"]["evidence"][1] = json!(b64u(&transcript));
    let tampered = verify(json!({ "evidence": to_cbor(&cmw).encode() })).unwrap();
    assert_eq!(tampered, Err("ERR_EVIDENCE_SIGNATURE".to_string()));
}
