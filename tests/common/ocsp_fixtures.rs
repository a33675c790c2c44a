//! The OCSP test PKI (`tests/fixtures/generated/ocsp/`, from `generate_ocsp.py`) and the
//! static responses made from our requests (`…/ocsp/responses/`, from its `generate.py`),
//! shared by the OCSP test files.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use edgeattest::chain::parse_pem_chain;
use edgeattest::ocsp::{OcspRequest, NONCE_LEN};
use sha2::{Digest, Sha256};

/// (request name, subject file, issuer file): every certificate the OCSP tests ask about.
pub(crate) const REQUESTS: [(&str, &str, &str); 10] = [
    ("brom_good", "brom_good.pem", "ica.pem"),
    ("brom_revoked", "brom_revoked.pem", "ica.pem"),
    ("brom_unknown", "brom_unknown.pem", "ica.pem"),
    ("brom_hold", "brom_hold.pem", "ica.pem"),
    ("ica", "ica.pem", "identity.pem"),
    ("identity", "identity.pem", "root.pem"),
    ("rim_signer", "rim_signer.pem", "rim_l3.pem"),
    ("rim_signer_revoked", "rim_signer_revoked.pem", "rim_l3.pem"),
    ("rim_l3", "rim_l3.pem", "rim_ca.pem"),
    ("rim_ca", "rim_ca.pem", "rim_root.pem"),
];

/// A file of the test PKI folder.
pub(crate) fn pki(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/generated/ocsp")
        .join(file)
}

/// The first certificate of a PEM file of the test PKI, DER.
pub(crate) fn der(file: &str) -> Vec<u8> {
    chain(file).into_iter().next().expect("one certificate")
}

/// Every certificate of a PEM file of the test PKI, DER, in order.
pub(crate) fn chain(file: &str) -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(pki(file)).expect("PKI file");
    parse_pem_chain(&text).expect("PEM")
}

/// The fixed nonce of a named request: SHA-256 of its name (distinct, reproducible;
/// `generate.py` computes the same).
pub(crate) fn nonce(name: &str) -> [u8; NONCE_LEN] {
    Sha256::digest(format!("edgeattest ocsp fixture {name}")).into()
}

/// The subject and issuer files of a named request.
pub(crate) fn files(name: &str) -> (&'static str, &'static str) {
    let (_, subject, issuer) = REQUESTS
        .iter()
        .find(|r| r.0 == name)
        .expect("a named request");
    (subject, issuer)
}

/// The named request, as the fixtures' responses answer it.
pub(crate) fn request(name: &str) -> OcspRequest {
    let (subject, issuer) = files(name);
    OcspRequest::new(&der(subject), &der(issuer), nonce(name)).expect("request")
}

/// A static response and its manifest entry.
pub(crate) struct Fixture {
    pub(crate) bytes: Vec<u8>,
    pub(crate) request: String,
    pub(crate) issuer: Vec<u8>,
    pub(crate) this_update: u64,
    /// A time at which the response is current.
    pub(crate) now: u64,
}

pub(crate) fn response(file: &str) -> Fixture {
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(pki("responses/manifest.json")).expect("manifest"),
    )
    .expect("JSON");
    let entry = &manifest[file];
    Fixture {
        bytes: std::fs::read(pki(&format!("responses/{file}"))).expect("response"),
        request: entry["request"].as_str().expect("request").to_string(),
        issuer: der(entry["issuer"].as_str().expect("issuer")),
        this_update: entry["this_update"].as_u64().expect("this_update"),
        now: entry["now"].as_u64().expect("now"),
    }
}
