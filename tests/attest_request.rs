//! Attest request validation and building against real recorded requests and evidence.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::std_instead_of_core,
    clippy::std_instead_of_alloc
)] // tests: fail loudly, use std

use std::path::PathBuf;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::attest::{
    validate_request, Arch, AttestRequestBuilder, ClaimsVersion, Endpoint, EvidenceInput, Nonce,
    RequestBody, RequestError, MAX_BODY_BYTES, MAX_EVIDENCE_BYTES, MAX_EVIDENCE_ITEMS,
};
use edgeattest::ErrorCode;
use serde_json::{json, Value};

fn fixture(path: &str) -> Vec<u8> {
    let full = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/nvidia")
        .join(path);
    std::fs::read(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

fn hex_fixture(path: &str) -> Vec<u8> {
    hex::decode(String::from_utf8(fixture(path)).unwrap().trim()).unwrap()
}

struct Sample {
    evidence: Vec<u8>,
    pem: String,
    nonce: Nonce,
}

fn hopper() -> Sample {
    let evidence = hex_fixture("evidence/hopper/nvat_hopper_535.86.09_report.hex");
    Sample {
        nonce: Nonce::from_bytes(evidence[4..36].try_into().unwrap()),
        pem: String::from_utf8(fixture(
            "evidence/hopper/nvat_hopper_535.86.09_certchain.pem",
        ))
        .unwrap(),
        evidence,
    }
}

fn switch() -> Sample {
    let evidence = hex_fixture("evidence/switch/nvat_ls10_96.10.55.00.01_report.hex");
    Sample {
        nonce: Nonce::from_bytes(evidence[4..36].try_into().unwrap()),
        pem: String::from_utf8(fixture(
            "evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem",
        ))
        .unwrap(),
        evidence,
    }
}

fn input(sample: &Sample) -> EvidenceInput<'_> {
    EvidenceInput {
        evidence: &sample.evidence,
        certificate_pem: &sample.pem,
        firmware_version: None,
    }
}

fn body_json(body: &RequestBody) -> Value {
    serde_json::from_str(&body.to_json()).unwrap()
}

fn error(endpoint: Endpoint, body: &Value) -> RequestError {
    validate_request(endpoint, body.to_string().as_bytes()).unwrap_err()
}

fn v4_gpu(sample: &Sample) -> Value {
    body_json(
        &AttestRequestBuilder::new(Endpoint::GpuV4, sample.nonce)
            .arch(Arch::Hopper)
            .evidence(input(sample))
            .build()
            .unwrap(),
    )
}

#[test]
fn recorded_real_v3_requests_validate() {
    for (name, devices) in [
        ("v3_1gpu_success_20260629_request.json", 1),
        ("v3_8gpu_success_20260629_request.json", 8),
        ("v3_8gpu_nonce_mismatch_20260520_request.json", 8),
    ] {
        let body = fixture(&format!("nras/teep/{name}"));
        let request = validate_request(Endpoint::GpuV3, &body).unwrap();
        let recorded: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(
            request.nonce().to_hex(),
            recorded["nonce"].as_str().unwrap(),
            "{name}"
        );
        assert_eq!(request.arch(), Arch::Hopper);
        assert_eq!(request.claims_version(), ClaimsVersion::V2_0);
        assert_eq!(request.devices().len(), devices, "{name}");
        for device in request.devices() {
            // A GET_MEASUREMENTS transcript: SPDM 1.1 request header, then the response.
            assert_eq!(&device.evidence()[..2], &[0x11, 0xe0], "{name}");
            assert!(device
                .certificate_pem()
                .starts_with("-----BEGIN CERTIFICATE-----"));
        }
        // The same body is refused by V4 only if it carries V4-incompatible members: it doesn't.
        assert_eq!(
            validate_request(Endpoint::GpuV4, &body)
                .unwrap()
                .claims_version(),
            ClaimsVersion::V3_0
        );
        // V2 wants `evidences`.
        assert_eq!(
            validate_request(Endpoint::GpuV2, &body).unwrap_err(),
            RequestError::UnexpectedField {
                field: "evidence_list".into()
            }
        );
    }
}

#[test]
fn serialized_sdk_evidence_builds_valid_v4_bodies() {
    for (file, endpoint, arch) in [
        (
            "evidence/serialized/nvat_multi_gpu_hopper.json",
            Endpoint::GpuV4,
            Arch::Hopper,
        ),
        (
            "evidence/serialized/nvtrust_ppcie_gpu_evidence_8gpu.json",
            Endpoint::GpuV4,
            Arch::Hopper,
        ),
        (
            "evidence/serialized/nvat_multi_switch_ls10.json",
            Endpoint::SwitchV4,
            Arch::Ls10,
        ),
        (
            "evidence/serialized/nvtrust_ppcie_switch_evidence_4sw.json",
            Endpoint::SwitchV4,
            Arch::Ls10,
        ),
    ] {
        let items: Vec<Value> = serde_json::from_slice(&fixture(file)).unwrap();
        let decoded: Vec<(Vec<u8>, String)> = items
            .iter()
            .map(|item| {
                (
                    STANDARD.decode(item["evidence"].as_str().unwrap()).unwrap(),
                    String::from_utf8(
                        STANDARD
                            .decode(item["certificate"].as_str().unwrap())
                            .unwrap(),
                    )
                    .unwrap(),
                )
            })
            .collect();
        let nonce = Nonce::parse(items[0]["nonce"].as_str().unwrap()).unwrap();
        let mut builder = AttestRequestBuilder::new(endpoint, nonce)
            .arch(arch)
            .claims_version(ClaimsVersion::V3_0);
        for (evidence, pem) in &decoded {
            assert_eq!(
                &evidence[4..36],
                nonce.as_bytes(),
                "{file}: the item's nonce is inside its evidence"
            );
            builder = builder.evidence(EvidenceInput {
                evidence,
                certificate_pem: pem,
                firmware_version: None,
            });
        }
        let body = builder.build().unwrap();
        let request = validate_request(endpoint, body.to_json().as_bytes()).unwrap();
        assert_eq!(request.devices().len(), items.len());
        for (device, (evidence, pem)) in request.devices().iter().zip(&decoded) {
            assert_eq!(device.evidence(), evidence.as_slice());
            assert_eq!(device.certificate_pem(), pem);
        }
    }
}

#[test]
fn every_endpoint_round_trips_its_encoding() {
    let gpu = hopper();
    let sw = switch();
    for endpoint in Endpoint::ALL {
        let sample = if endpoint.device_kind() == edgeattest::attest::DeviceKind::Gpu {
            &gpu
        } else {
            &sw
        };
        let mut builder = AttestRequestBuilder::new(endpoint, sample.nonce).evidence(input(sample));
        if endpoint.device_kind() == edgeattest::attest::DeviceKind::Gpu {
            builder = builder.arch(Arch::Hopper);
        }
        let body = builder.build().unwrap();
        let value = body_json(&body);
        let request = validate_request(endpoint, body.to_json().as_bytes()).unwrap();
        assert_eq!(
            request.devices()[0].evidence(),
            sample.evidence.as_slice(),
            "{endpoint}"
        );
        assert_eq!(
            request.devices()[0].certificate_pem(),
            sample.pem,
            "{endpoint}"
        );
        assert_eq!(request.claims_version(), endpoint.default_claims_version());
        assert_eq!(value["nonce"], sample.nonce.to_hex());

        // The encodings of spec §2, checked on the wire form.
        let certificate = STANDARD.encode(&sample.pem);
        match endpoint.version() {
            1 => {
                assert_eq!(
                    value["evidence"],
                    STANDARD.encode(hex::encode(&sample.evidence))
                );
                assert_eq!(value["certificate"], certificate);
            }
            2 => {
                assert_eq!(
                    value["evidences"][0]["evidence"],
                    STANDARD.encode(hex::encode(&sample.evidence))
                );
                assert_eq!(value["evidences"][0]["certificate"], certificate);
                assert_eq!(value.get("arch").is_some(), endpoint == Endpoint::GpuV2);
            }
            _ => {
                assert_eq!(
                    value["evidence_list"][0]["evidence"],
                    STANDARD.encode(&sample.evidence)
                );
                assert_eq!(value["evidence_list"][0]["certificate"], certificate);
                assert_eq!(
                    value["arch"],
                    if endpoint.device_kind() == edgeattest::attest::DeviceKind::Gpu {
                        "HOPPER"
                    } else {
                        "LS10"
                    }
                );
            }
        }
        assert!(value.get("claims_version").is_none());
    }
}

#[test]
fn claims_versions_per_endpoint() {
    let gpu = hopper();
    let sw = switch();
    let build = |endpoint: Endpoint, sample: &Sample, version| {
        let builder = AttestRequestBuilder::new(endpoint, sample.nonce)
            .evidence(input(sample))
            .claims_version(version);
        if endpoint.device_kind() == edgeattest::attest::DeviceKind::Gpu {
            builder.arch(Arch::Blackwell).build()
        } else {
            builder.build()
        }
    };
    for version in [
        ClaimsVersion::V2_0,
        ClaimsVersion::V3_0,
        ClaimsVersion::V4_0,
    ] {
        let body = build(Endpoint::GpuV4, &gpu, version).unwrap();
        assert_eq!(
            validate_request(Endpoint::GpuV4, body.to_json().as_bytes())
                .unwrap()
                .claims_version(),
            version
        );
    }
    assert!(build(Endpoint::SwitchV4, &sw, ClaimsVersion::V3_0).is_ok());
    assert_eq!(
        build(Endpoint::SwitchV4, &sw, ClaimsVersion::V4_0).unwrap_err(),
        RequestError::InvalidClaimsVersion {
            endpoint: Endpoint::SwitchV4,
            value: "4.0".into()
        }
    );
    assert_eq!(
        build(Endpoint::GpuV4, &gpu, ClaimsVersion::V1_0)
            .unwrap_err()
            .code(),
        "ERR_REQUEST_INVALID_CLAIMS_VERSION"
    );
    // Fixed-version endpoints accept only their own version.
    assert!(build(Endpoint::GpuV3, &gpu, ClaimsVersion::V2_0).is_ok());
    assert!(build(Endpoint::GpuV3, &gpu, ClaimsVersion::V3_0).is_err());
    assert!(build(Endpoint::GpuV2, &gpu, ClaimsVersion::V1_0).is_ok());
    assert_eq!(
        build(Endpoint::GpuV2, &gpu, ClaimsVersion::V2_0)
            .unwrap_err()
            .field(),
        Some("claims_version")
    );
    let mut v3 = v4_gpu(&gpu);
    v3["claims_version"] = json!("3.0");
    assert_eq!(
        error(Endpoint::GpuV3, &v3).code(),
        "ERR_REQUEST_INVALID_CLAIMS_VERSION"
    );
    v3["claims_version"] = json!("2.0");
    assert!(validate_request(Endpoint::GpuV3, v3.to_string().as_bytes()).is_ok());
    v3["claims_version"] = json!(3.0);
    assert_eq!(
        error(Endpoint::GpuV4, &v3),
        RequestError::WrongType {
            field: "claims_version".into(),
            expected: "string"
        }
    );
}

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
    let err = error(Endpoint::GpuV2, &v2);
    assert_eq!(
        err,
        RequestError::InvalidEvidenceHex {
            field: "evidences[0].evidence".into()
        }
    );
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
