//! Fuzz target body for OCSP responses: bytes a hostile responder, network or cache gives for
//! one request of the test PKI. Part of `harness.rs`.

use std::sync::OnceLock;

use edgeattest::chain::parse_pem_chain;
use edgeattest::ocsp::{check_response, fold_chain, ChainRevocation, OcspRequest};
use edgeattest::UnixTime;

use super::check;

/// When the committed seeds (the static responses of `tests/fixtures/generated/ocsp/responses`)
/// are current.
const NOW: UnixTime = UnixTime::from_secs(1_795_476_747).unwrap();

/// The nonce those responses echo for `brom_good`: SHA-256 of
/// `edgeattest ocsp fixture brom_good` (tests/common/ocsp_fixtures.rs).
const NONCE: &str = "fe0333dc529628f3d821bd81ed4eafebb3cae382527d3750aafaf855aa386516";

fn der(pem: &str) -> Vec<u8> {
    parse_pem_chain(pem)
        .expect("PEM")
        .into_iter()
        .next()
        .expect("a certificate")
}

fn request() -> &'static (OcspRequest, Vec<u8>) {
    static REQUEST: OnceLock<(OcspRequest, Vec<u8>)> = OnceLock::new();
    REQUEST.get_or_init(|| {
        let subject = der(include_str!("../../fixtures/generated/ocsp/brom_good.pem"));
        let issuer = der(include_str!("../../fixtures/generated/ocsp/ica.pem"));
        let nonce: [u8; 32] = hex::decode(NONCE)
            .expect("hex")
            .try_into()
            .expect("32 bytes");
        (
            OcspRequest::new(&subject, &issuer, nonce).expect("request"),
            issuer,
        )
    })
}

/// `ocsp_response`: a DER OCSPResponse for the test PKI's `brom_good` request. Checking it
/// must never panic, refusals carry `ERR_OCSP_*` codes, and an answer counts as good only
/// when every signature verified.
pub fn ocsp_response(data: &[u8]) {
    let (request, issuer) = request();
    let pending = check_response(data, request, request.nonce(), issuer, NOW);
    check(&pending);
    let Ok(pending) = pending else {
        return;
    };
    let refused = vec![false; pending.signature_checks().len()];
    let forged = pending.clone().finish(&refused);
    assert!(
        forged.is_err(),
        "an answer whose signatures fail is refused"
    );
    check(&forged);
    let checked = pending.verify_in_core();
    check(&checked);
    let folded = fold_chain(
        std::slice::from_ref(&checked),
        &edgeattest::ocsp::RevocationRule::default(),
        UnixTime::EPOCH,
    );
    if checked.is_err() {
        assert!(matches!(folded, ChainRevocation::Failed(_)), "{folded:?}");
    }
}

/// `ocsp_request`: `subject DER SEP issuer DER`, a certificate and its issuer as a hostile
/// chain gives them. Building the request never panics, a refusal is coded, and a request
/// is one DER SEQUENCE that names its subject and is built alike twice.
pub fn ocsp_request(data: &[u8]) {
    let parts = super::split(data, 2);
    let nonce = [7u8; 32];
    let built = OcspRequest::new(parts[0], parts[1], nonce);
    check(&built);
    let Ok(request) = built else {
        return;
    };
    assert_eq!(
        request.der().first(),
        Some(&0x30),
        "a request is a SEQUENCE"
    );
    assert_eq!(request.nonce(), &nonce);
    let again = OcspRequest::new(parts[0], parts[1], nonce).expect("built once, built twice");
    assert_eq!(again.der(), request.der());
    assert_eq!(again.cache_key(), request.cache_key());
}
