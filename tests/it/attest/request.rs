//! Attest requests that validate and build: real recorded requests, SDK evidence, every
//! endpoint's encoding and claims versions (the refusals: `tests/it/attest/request_errors.rs`).
#![cfg(not(target_arch = "wasm32"))]

#[path = "../../common/attest_samples.rs"]
mod samples;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::attest::{
    validate_request, Arch, AttestRequestBuilder, ClaimsVersion, Endpoint, EvidenceInput, Nonce,
    RequestError,
};
use edgeattest::ErrorCode;
use samples::{body_json, error, fixture, hopper, input, switch, v4_gpu, Sample};
use serde_json::{json, Value};

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
