//! Attest request refusals: one typed error with a stable code and the field per violation,
//! against real evidence (the valid requests: `tests/it/attest/request.rs`).
#![cfg(not(target_arch = "wasm32"))]

#[path = "../../common/attest_samples.rs"]
mod samples;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::attest::{
    validate_request, Arch, AttestRequestBuilder, Endpoint, EvidenceEncoding,
    EvidenceEncodingError, EvidenceInput, Nonce, RequestError, MAX_BODY_BYTES, MAX_EVIDENCE_BYTES,
    MAX_EVIDENCE_ITEMS,
};
use edgeattest::ErrorCode;
use samples::{body_json, error, hopper, input, switch, v4_gpu};
use serde_json::{json, Value};

#[test]
fn nonce_errors() {
    let gpu = hopper();
    let mut body = v4_gpu(&gpu);
    for (bad, code) in [
        (json!("abc"), "ERR_REQUEST_INVALID_NONCE"),
        (json!("g".repeat(64)), "ERR_REQUEST_INVALID_NONCE"),
        (
            json!(format!("{}00", gpu.nonce.to_hex())),
            "ERR_REQUEST_INVALID_NONCE",
        ),
        (json!(42), "ERR_REQUEST_WRONG_TYPE"),
        (Value::Null, "ERR_REQUEST_MISSING_FIELD"),
    ] {
        body["nonce"] = bad;
        let err = error(Endpoint::GpuV4, &body);
        assert_eq!(err.code(), code);
        assert_eq!(err.field(), Some("nonce"));
        assert_eq!(
            err.service_code(),
            if code == "ERR_REQUEST_INVALID_NONCE" {
                4003
            } else {
                4002
            }
        );
    }
    body.as_object_mut().unwrap().remove("nonce");
    assert_eq!(
        error(Endpoint::GpuV4, &body),
        RequestError::MissingField {
            field: "nonce".into()
        }
    );
    // Upper case is read; tokens carry lowercase.
    body["nonce"] = json!(gpu.nonce.to_hex().to_uppercase());
    assert_eq!(
        validate_request(Endpoint::GpuV4, body.to_string().as_bytes())
            .unwrap()
            .nonce(),
        &gpu.nonce
    );
}

#[test]
fn arch_errors() {
    let gpu = hopper();
    let sw = switch();
    let mut body = v4_gpu(&gpu);
    body["arch"] = json!("LS10");
    let err = error(Endpoint::GpuV4, &body);
    assert_eq!(
        err,
        RequestError::InvalidArch {
            endpoint: Endpoint::GpuV4,
            value: "LS10".into()
        }
    );
    assert_eq!((err.field(), err.service_code()), (Some("arch"), 4004));
    body["arch"] = json!("hopper");
    assert_eq!(
        error(Endpoint::GpuV4, &body).code(),
        "ERR_REQUEST_INVALID_ARCH"
    );
    body.as_object_mut().unwrap().remove("arch");
    assert_eq!(
        error(Endpoint::GpuV4, &body),
        RequestError::MissingField {
            field: "arch".into()
        }
    );

    let mut switch_body = body_json(
        &AttestRequestBuilder::new(Endpoint::SwitchV4, sw.nonce)
            .evidence(input(&sw))
            .build()
            .unwrap(),
    );
    switch_body["arch"] = json!("HOPPER");
    let err = error(Endpoint::SwitchV4, &switch_body);
    assert_eq!(
        (err.code(), err.service_code()),
        ("ERR_REQUEST_INVALID_ARCH", 4017)
    );

    // Switch V2 has no arch member at all.
    let mut v2 = body_json(
        &AttestRequestBuilder::new(Endpoint::SwitchV2, sw.nonce)
            .evidence(input(&sw))
            .build()
            .unwrap(),
    );
    assert!(v2.get("arch").is_none());
    assert_eq!(
        validate_request(Endpoint::SwitchV2, v2.to_string().as_bytes())
            .unwrap()
            .arch(),
        Arch::Ls10
    );
    v2["arch"] = json!("LS10");
    assert_eq!(
        error(Endpoint::SwitchV2, &v2),
        RequestError::UnexpectedField {
            field: "arch".into()
        }
    );
    // The builder refuses a GPU without arch.
    assert_eq!(
        AttestRequestBuilder::new(Endpoint::GpuV3, gpu.nonce)
            .evidence(input(&gpu))
            .build()
            .unwrap_err(),
        RequestError::MissingField {
            field: "arch".into()
        }
    );
}

#[test]
fn evidence_list_errors() {
    let gpu = hopper();
    let mut body = v4_gpu(&gpu);
    let item = body["evidence_list"][0].clone();

    body["evidence_list"] = json!([]);
    assert_eq!(
        error(Endpoint::GpuV4, &body),
        RequestError::EmptyEvidenceList {
            field: "evidence_list".into()
        }
    );
    body["evidence_list"] = json!({});
    assert_eq!(
        error(Endpoint::GpuV4, &body).code(),
        "ERR_REQUEST_WRONG_TYPE"
    );
    body["evidence_list"] = json!([item, 7]);
    assert_eq!(
        error(Endpoint::GpuV4, &body),
        RequestError::NotAnObject {
            field: "evidence_list[1]".into()
        }
    );
    body["evidence_list"] = Value::Array(vec![item.clone(); MAX_EVIDENCE_ITEMS + 1]);
    assert_eq!(
        error(Endpoint::GpuV4, &body),
        RequestError::TooManyEvidenceItems {
            field: "evidence_list".into(),
            count: MAX_EVIDENCE_ITEMS + 1,
            limit: MAX_EVIDENCE_ITEMS
        }
    );
    body["evidence_list"] = Value::Array(vec![item.clone(); MAX_EVIDENCE_ITEMS]);
    assert_eq!(
        validate_request(Endpoint::GpuV4, body.to_string().as_bytes())
            .unwrap()
            .devices()
            .len(),
        MAX_EVIDENCE_ITEMS
    );

    let mut check = |patch: &dyn Fn(&mut Value), expected: RequestError| {
        let mut changed = item.clone();
        patch(&mut changed);
        body["evidence_list"] = json!([item.clone(), changed]);
        assert_eq!(error(Endpoint::GpuV4, &body), expected);
    };
    let field = |name: &str| format!("evidence_list[1].{name}");
    check(
        &|i| {
            i.as_object_mut().unwrap().remove("evidence");
        },
        RequestError::MissingField {
            field: field("evidence"),
        },
    );
    check(
        &|i| {
            i.as_object_mut().unwrap().remove("certificate");
        },
        RequestError::MissingField {
            field: field("certificate"),
        },
    );
    check(
        &|i| i["evidence"] = json!(["x"]),
        RequestError::WrongType {
            field: field("evidence"),
            expected: "string",
        },
    );
    check(
        &|i| i["evidence"] = json!("not base64!"),
        RequestError::InvalidBase64 {
            field: field("evidence"),
        },
    );
    // The URL-safe alphabet and embedded whitespace are not standard base64.
    check(
        &|i| i["evidence"] = json!("ab-_"),
        RequestError::InvalidBase64 {
            field: field("evidence"),
        },
    );
    check(
        &|i| i["evidence"] = json!("YWJj\nZGVm"),
        RequestError::InvalidBase64 {
            field: field("evidence"),
        },
    );
    check(
        &|i| i["certificate"] = json!(STANDARD.encode("no pem here")),
        RequestError::InvalidCertificateText {
            field: field("certificate"),
        },
    );
    check(
        &|i| i["certificate"] = json!(STANDARD.encode([0xff, 0xfe, 0x00])),
        RequestError::InvalidCertificateText {
            field: field("certificate"),
        },
    );
    check(
        &|i| i["evidence"] = json!(STANDARD.encode(vec![0u8; MAX_EVIDENCE_BYTES + 1])),
        RequestError::ItemTooLarge {
            field: field("evidence"),
            limit: MAX_EVIDENCE_BYTES,
        },
    );
    check(
        &|i| i["firmware_version"] = json!("96.00.XX"),
        RequestError::InvalidFirmwareVersion {
            field: field("firmware_version"),
        },
    );
    check(
        &|i| i["firmware_version"] = json!(96),
        RequestError::WrongType {
            field: field("firmware_version"),
            expected: "string",
        },
    );

    // Padding is optional; a firmware version is kept; unknown item members are ignored.
    let mut ok = item.clone();
    ok["evidence"] = json!(STANDARD.encode(&gpu.evidence).trim_end_matches('='));
    ok["firmware_version"] = json!("96.00.5E.00.01");
    ok["arch"] = json!("HOPPER");
    body["evidence_list"] = json!([ok]);
    let request = validate_request(Endpoint::GpuV4, body.to_string().as_bytes()).unwrap();
    assert_eq!(request.devices()[0].evidence(), gpu.evidence.as_slice());
    assert_eq!(
        request.devices()[0].firmware_version().unwrap().as_str(),
        "96.00.5E.00.01"
    );
}

#[test]
fn generation_one_errors() {
    let gpu = hopper();
    let mut v2 = body_json(
        &AttestRequestBuilder::new(Endpoint::GpuV2, gpu.nonce)
            .arch(Arch::Hopper)
            .evidence(input(&gpu))
            .build()
            .unwrap(),
    );
    // Raw bytes where hex text is expected.
    v2["evidences"][0]["evidence"] = json!(STANDARD.encode(&gpu.evidence));
    // Named as such: the encoding expected and the one found (ERR_EVIDENCE_ENCODING).
    let err = error(Endpoint::GpuV2, &v2);
    assert_eq!(
        err,
        RequestError::EvidenceEncoding(EvidenceEncodingError {
            field: "evidences[0].evidence".into(),
            expected: Some(EvidenceEncoding::Base64Hex),
            found: Some(EvidenceEncoding::Base64),
        })
    );
    assert_eq!(err.code(), "ERR_EVIDENCE_ENCODING");
    assert_eq!(err.service_code(), 4006);
    // Odd-length hex.
    v2["evidences"][0]["evidence"] = json!(STANDARD.encode("abc"));
    assert_eq!(
        error(Endpoint::GpuV2, &v2).code(),
        "ERR_REQUEST_INVALID_EVIDENCE_HEX"
    );
    // A trailing newline, as in the SDK's files, is fine; upper-case hex too.
    v2["evidences"][0]["evidence"] =
        json!(STANDARD.encode(format!("{}\n", hex::encode_upper(&gpu.evidence))));
    assert_eq!(
        validate_request(Endpoint::GpuV2, v2.to_string().as_bytes())
            .unwrap()
            .devices()[0]
            .evidence(),
        gpu.evidence.as_slice()
    );
    // Generation-1 items carry no firmware version.
    assert_eq!(
        AttestRequestBuilder::new(Endpoint::GpuV2, gpu.nonce)
            .arch(Arch::Hopper)
            .evidence(EvidenceInput {
                firmware_version: Some("96.00.5E.00.01"),
                ..input(&gpu)
            })
            .build()
            .unwrap_err(),
        RequestError::UnexpectedField {
            field: "evidences[0].firmware_version".into()
        }
    );

    // V1: exactly one device, at the top level.
    let v1 = body_json(
        &AttestRequestBuilder::new(Endpoint::GpuV1, gpu.nonce)
            .arch(Arch::Hopper)
            .evidence(input(&gpu))
            .build()
            .unwrap(),
    );
    let mut without = v1.clone();
    without.as_object_mut().unwrap().remove("certificate");
    assert_eq!(
        error(Endpoint::GpuV1, &without),
        RequestError::MissingField {
            field: "certificate".into()
        }
    );
    let mut listy = v1.clone();
    listy["evidence_list"] = json!([]);
    assert_eq!(
        error(Endpoint::GpuV1, &listy),
        RequestError::UnexpectedField {
            field: "evidence_list".into()
        }
    );
    assert_eq!(
        AttestRequestBuilder::new(Endpoint::GpuV1, gpu.nonce)
            .arch(Arch::Hopper)
            .build()
            .unwrap_err(),
        RequestError::MissingField {
            field: "evidence".into()
        }
    );
    assert_eq!(
        AttestRequestBuilder::new(Endpoint::GpuV1, gpu.nonce)
            .arch(Arch::Hopper)
            .evidence(input(&gpu))
            .evidence(input(&gpu))
            .build()
            .unwrap_err()
            .code(),
        "ERR_REQUEST_TOO_MANY_EVIDENCE_ITEMS"
    );
}

#[test]
fn body_level_errors() {
    let gpu = hopper();
    let endpoint = Endpoint::GpuV4;
    assert_eq!(
        validate_request(endpoint, b"").unwrap_err(),
        RequestError::EmptyBody
    );
    assert_eq!(
        validate_request(endpoint, b" \n\t")
            .unwrap_err()
            .service_code(),
        4001
    );
    assert_eq!(
        validate_request(endpoint, b"{\"nonce\":")
            .unwrap_err()
            .code(),
        "ERR_REQUEST_MALFORMED_JSON"
    );
    assert_eq!(
        validate_request(endpoint, b"[]").unwrap_err(),
        RequestError::NotAnObject { field: "$".into() }
    );
    assert_eq!(
        validate_request(endpoint, b"\"text\"").unwrap_err().code(),
        "ERR_REQUEST_NOT_OBJECT"
    );
    let duplicate = format!(r#"{{"nonce":"{0}","nonce":"{0}"}}"#, gpu.nonce);
    let err = validate_request(endpoint, duplicate.as_bytes()).unwrap_err();
    assert_eq!(
        (err.code(), err.field()),
        ("ERR_REQUEST_DUPLICATE_MEMBER", Some("nonce"))
    );
    let deep = format!(r#"{{"x":{}{}}}"#, "[".repeat(40), "]".repeat(40));
    assert_eq!(
        validate_request(endpoint, deep.as_bytes())
            .unwrap_err()
            .code(),
        "ERR_REQUEST_TOO_DEEP"
    );
    let huge = vec![b' '; MAX_BODY_BYTES + 1];
    assert_eq!(
        validate_request(endpoint, &huge).unwrap_err(),
        RequestError::BodyTooLarge {
            limit: MAX_BODY_BYTES,
            size: MAX_BODY_BYTES + 1
        }
    );
    let mut body = v4_gpu(&gpu);
    body["evidences"] = json!([]);
    assert_eq!(
        error(endpoint, &body),
        RequestError::UnexpectedField {
            field: "evidences".into()
        }
    );
    let mut body = v4_gpu(&gpu);
    body.as_object_mut().unwrap().remove("evidence_list");
    assert_eq!(
        error(endpoint, &body),
        RequestError::MissingField {
            field: "evidence_list".into()
        }
    );
    let mut body = v4_gpu(&gpu);
    body["certificate"] = json!("x");
    assert_eq!(
        error(endpoint, &body).code(),
        "ERR_REQUEST_UNEXPECTED_FIELD"
    );
    // Unknown members are ignored.
    let mut body = v4_gpu(&gpu);
    body["client"] = json!({"name": "test"});
    assert!(validate_request(endpoint, body.to_string().as_bytes()).is_ok());
}

#[test]
fn every_code_is_distinct_and_displayed() {
    let errors = [
        RequestError::BodyTooLarge { limit: 1, size: 2 },
        RequestError::EmptyBody,
        RequestError::EmptyEvidenceList { field: "f".into() },
        RequestError::InvalidBase64 { field: "f".into() },
        RequestError::InvalidCertificateText { field: "f".into() },
        RequestError::InvalidArch {
            endpoint: Endpoint::SwitchV3,
            value: "x".into(),
        },
        RequestError::InvalidClaimsVersion {
            endpoint: Endpoint::GpuV3,
            value: "x".into(),
        },
        RequestError::InvalidEvidenceHex { field: "f".into() },
        RequestError::InvalidFirmwareVersion { field: "f".into() },
        RequestError::InvalidNonce {
            problem: Nonce::parse("x").unwrap_err(),
        },
        RequestError::ItemTooLarge {
            field: "f".into(),
            limit: 1,
        },
        RequestError::Json(edgeattest::json::JsonError::Syntax { line: 1, column: 1 }),
        RequestError::Json(edgeattest::json::JsonError::DuplicateMember { name: "a".into() }),
        RequestError::Json(edgeattest::json::JsonError::TooDeep),
        RequestError::MissingField { field: "f".into() },
        RequestError::NotAnObject { field: "f".into() },
        RequestError::TooManyEvidenceItems {
            field: "f".into(),
            count: 2,
            limit: 1,
        },
        RequestError::UnexpectedField { field: "f".into() },
        RequestError::UnknownEndpoint { path: "/x".into() },
        RequestError::WrongType {
            field: "f".into(),
            expected: "string",
        },
    ];
    let mut codes: Vec<_> = errors.iter().map(ErrorCode::code).collect();
    assert!(codes.iter().all(|c| c.starts_with("ERR_REQUEST_")));
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), errors.len());
    for error in &errors {
        assert!(!error.to_string().is_empty());
    }
    assert_eq!(
        errors[5].to_string(),
        "arch \"x\" is not accepted by /v3/attest/switch; expected one of \"LS10\""
    );
    assert_eq!(
        errors[6].to_string(),
        "claims_version \"x\" is not accepted by /v3/attest/gpu; expected \"2.0\" or no claims_version"
    );
}
