//! Real samples and helpers shared by `tests/it/attest/request.rs` and
//! `tests/it/attest/request_errors.rs`.
#![allow(dead_code)] // each test file uses part of it

use std::path::PathBuf;

use edgeattest::attest::{
    validate_request, Arch, AttestRequestBuilder, Endpoint, EvidenceInput, Nonce, RequestBody,
    RequestError,
};
use serde_json::Value;

pub(crate) fn fixture(path: &str) -> Vec<u8> {
    let full = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/nvidia")
        .join(path);
    std::fs::read(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

pub(crate) fn hex_fixture(path: &str) -> Vec<u8> {
    hex::decode(String::from_utf8(fixture(path)).unwrap().trim()).unwrap()
}

pub(crate) struct Sample {
    pub(crate) evidence: Vec<u8>,
    pub(crate) pem: String,
    pub(crate) nonce: Nonce,
}

pub(crate) fn hopper() -> Sample {
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

pub(crate) fn switch() -> Sample {
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

pub(crate) fn input(sample: &Sample) -> EvidenceInput<'_> {
    EvidenceInput {
        evidence: &sample.evidence,
        certificate_pem: &sample.pem,
        firmware_version: None,
    }
}

pub(crate) fn body_json(body: &RequestBody) -> Value {
    serde_json::from_str(&body.to_json()).unwrap()
}

pub(crate) fn error(endpoint: Endpoint, body: &Value) -> RequestError {
    validate_request(endpoint, body.to_string().as_bytes()).unwrap_err()
}

pub(crate) fn v4_gpu(sample: &Sample) -> Value {
    body_json(
        &AttestRequestBuilder::new(Endpoint::GpuV4, sample.nonce)
            .arch(Arch::Hopper)
            .evidence(input(sample))
            .build()
            .unwrap(),
    )
}
