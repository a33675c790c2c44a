//! One decoding rule for evidence text (issue 17): the service refuses a field written in
//! another encoding than its generation's with ERR_EVIDENCE_ENCODING naming both; entries
//! that name no encoding accept hex, base64 and base64 of hex text alike — checked on
//! NVIDIA's recorded V3 request and the nvtrust `.hex` transcripts.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::attest::{
    decode_evidence_text, validate_request, Endpoint, EvidenceEncoding, EvidenceEncodingError,
    RequestError,
};
use edgeattest::evidence::{decode_generation1, decode_generation2, Transcript};
use edgeattest::ErrorCode;
use serde_json::{json, Value};

fn fixture(path: &str) -> String {
    let full = format!(
        "{}/tests/fixtures/nvidia/{path}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// NVIDIA's recorded V3 request (a real client's bytes).
fn recorded() -> Value {
    serde_json::from_str(&fixture("nras/teep/v3_1gpu_success_20260629_request.json")).unwrap()
}

/// An nvtrust transcript as hex text (with the file's newline).
fn hex_file() -> String {
    fixture("evidence/hopper/nvat_hopper_570.124.03_report.hex")
}

#[test]
fn nvidia_v3_requests_carry_base64_of_the_bytes() {
    let request = recorded();
    let text = request["evidence_list"][0]["evidence"].as_str().unwrap();
    assert_eq!(
        EvidenceEncoding::detect(text),
        Some(EvidenceEncoding::Base64)
    );
    let bytes = decode_evidence_text(text, None, "evidence").unwrap();
    assert_eq!(
        bytes,
        decode_evidence_text(text, Some(EvidenceEncoding::Base64), "evidence").unwrap()
    );
    // A real transcript: an SPDM GET_MEASUREMENTS request first.
    assert!(Transcript::parse(&bytes).is_ok());
    assert_eq!(bytes[1], 0xE0);
    // The service takes it as it is.
    let body = serde_json::to_vec(&request).unwrap();
    assert!(validate_request(Endpoint::GpuV3, &body).is_ok());
}

#[test]
fn any_encoding_is_accepted_where_none_is_named() {
    let hex_text = hex_file();
    let bytes = hex::decode(hex_text.trim()).unwrap();
    let forms = [
        (hex_text.clone(), EvidenceEncoding::Hex),
        (hex_text.trim().to_uppercase(), EvidenceEncoding::Hex),
        (STANDARD.encode(&bytes), EvidenceEncoding::Base64),
        (
            STANDARD.encode(&bytes).trim_end_matches('=').to_owned(),
            EvidenceEncoding::Base64,
        ),
        (
            STANDARD.encode(hex_text.as_bytes()),
            EvidenceEncoding::Base64Hex,
        ),
    ];
    for (text, encoding) in &forms {
        assert_eq!(
            EvidenceEncoding::detect(text),
            Some(*encoding),
            "{encoding}"
        );
        assert_eq!(
            decode_evidence_text(text, None, "e").unwrap(),
            bytes,
            "{encoding}"
        );
        // Named, it is the same bytes.
        assert_eq!(
            decode_evidence_text(text, Some(*encoding), "e").unwrap(),
            bytes,
            "{encoding}"
        );
    }
    // Neither hex nor base64.
    let error = decode_evidence_text("not evidence!", None, "evidence[0].evidence").unwrap_err();
    assert_eq!(error.code(), "ERR_EVIDENCE_ENCODING");
    assert_eq!(error.field(), Some("evidence[0].evidence"));
    assert_eq!(error.found, None);
    assert!(
        error.to_string().contains("neither hex nor base64"),
        "{error}"
    );
}

#[test]
fn a_named_encoding_refuses_the_others_naming_both() {
    let hex_text = hex_file();
    let bytes = hex::decode(hex_text.trim()).unwrap();
    let base64 = STANDARD.encode(&bytes);
    let base64_hex = STANDARD.encode(hex_text.as_bytes());
    let cases = [
        (&hex_text, EvidenceEncoding::Base64, EvidenceEncoding::Hex),
        (
            &base64_hex,
            EvidenceEncoding::Base64,
            EvidenceEncoding::Base64Hex,
        ),
        (&base64, EvidenceEncoding::Hex, EvidenceEncoding::Base64),
        (
            &base64,
            EvidenceEncoding::Base64Hex,
            EvidenceEncoding::Base64,
        ),
        (
            &hex_text,
            EvidenceEncoding::Base64Hex,
            EvidenceEncoding::Hex,
        ),
    ];
    for (text, expected, found) in cases {
        let error = decode_evidence_text(text, Some(expected), "f").unwrap_err();
        assert_eq!(
            error,
            EvidenceEncodingError {
                field: "f".into(),
                expected: Some(expected),
                found: Some(found),
            }
        );
        let message = error.to_string();
        assert!(message.contains(expected.describe()), "{message}");
        assert!(message.contains(found.describe()), "{message}");
    }
    // The evidence module's generation decoders follow the same rule.
    assert!(decode_generation2(&hex_text).is_err());
    assert!(decode_generation1(&base64).is_err());
    assert_eq!(decode_generation2(&base64).unwrap(), bytes);
    assert_eq!(decode_generation1(&base64_hex).unwrap(), bytes);
    // All-zero bytes (base64 `AAAA…`, hex characters but no decimal digit) stay base64.
    let zeros = STANDARD.encode([0u8; 96]);
    assert_eq!(
        decode_evidence_text(&zeros, Some(EvidenceEncoding::Base64), "f").unwrap(),
        [0u8; 96]
    );
}

#[test]
fn padding_never_changes_the_answer() {
    // Regression (fuzz smoke, evidence_decode): 47 bytes of hex text are 63 base64 characters
    // unpadded and 64 padded; the unpadded form was taken as base64 of bytes, the padded one
    // refused as base64 of hex text. Every length around the sniffing threshold, both ways.
    for len in 40..=52 {
        let hex_text: String = "0123456789abcdef".chars().cycle().take(len).collect();
        let padded = STANDARD.encode(hex_text.as_bytes());
        let unpadded = padded.trim_end_matches('=');
        for expected in [EvidenceEncoding::Base64, EvidenceEncoding::Base64Hex] {
            let a = decode_evidence_text(&padded, Some(expected), "f");
            let b = decode_evidence_text(unpadded, Some(expected), "f");
            assert_eq!(a, b, "{len} hex characters as {expected}");
        }
        // Both forms decode, under the rule for generation 2, to the bytes they carry when
        // short, and are refused as generation-1 text when long enough to tell.
        let as_bytes = decode_generation2(&padded);
        if len < 48 {
            assert_eq!(as_bytes.unwrap(), hex_text.as_bytes(), "{len}");
        } else {
            assert!(as_bytes.is_err(), "{len}");
        }
    }
}

#[test]
fn the_service_names_the_encoding_expected_and_found() {
    let hex_text = hex_file();
    let bytes = hex::decode(hex_text.trim()).unwrap();
    let mut request = recorded();
    let refuse = |endpoint: Endpoint, body: &Value| -> RequestError {
        validate_request(endpoint, &serde_json::to_vec(body).unwrap()).unwrap_err()
    };
    // V3 (generation 2, base64 of the bytes) sent hex text, or generation-1 text.
    for (text, found) in [
        (hex_text.trim().to_owned(), EvidenceEncoding::Hex),
        (
            STANDARD.encode(hex_text.as_bytes()),
            EvidenceEncoding::Base64Hex,
        ),
    ] {
        request["evidence_list"][0]["evidence"] = json!(text);
        let error = refuse(Endpoint::GpuV3, &request);
        assert_eq!(error.code(), "ERR_EVIDENCE_ENCODING");
        assert_eq!(error.field(), Some("evidence_list[0].evidence"));
        assert_eq!(error.service_code(), 4006);
        let message = error.to_string();
        assert!(message.contains("\"base64\", generation 2"), "{message}");
        assert!(message.contains(found.describe()), "{message}");
    }
    // V2 (generation 1, base64 of hex text) sent base64 of the bytes, or hex text.
    let certificate = request["evidence_list"][0]["certificate"].clone();
    for (text, found) in [
        (STANDARD.encode(&bytes), EvidenceEncoding::Base64),
        (hex_text.trim().to_owned(), EvidenceEncoding::Hex),
    ] {
        let v2 = json!({
            "nonce": request["nonce"], "arch": "HOPPER",
            "evidences": [{ "evidence": text, "certificate": certificate }],
        });
        let error = refuse(Endpoint::GpuV2, &v2);
        assert_eq!(error.code(), "ERR_EVIDENCE_ENCODING");
        assert_eq!(error.field(), Some("evidences[0].evidence"));
        assert!(error.to_string().contains(found.describe()), "{error}");
        assert!(error.to_string().contains("generation 1"), "{error}");
    }
    // Text in no encoding keeps its code.
    request["evidence_list"][0]["evidence"] = json!("not base64!");
    assert_eq!(
        refuse(Endpoint::GpuV3, &request).code(),
        "ERR_REQUEST_INVALID_BASE64"
    );
}
