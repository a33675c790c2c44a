//! OCSP requests (`OcspRequest`, `chain_requests`): the DER our code sends, checked against
//! what OpenSSL read from the same bytes (`openssl ocsp -reqin … -req_text`, recorded by
//! `tests/fixtures/generated/ocsp/responses/generate.py`), against the test PKI's own data
//! (`responders.json` key hashes, `index_*.txt` serials), and which certificates are asked
//! about.
//!
//! The request fixtures are written by this file's ignored test `write_request_fixtures`
//! (the generator runs it), so that the static responses echo our nonces.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::ocsp::{
    chain_requests, ocsp_targets, ChainKind, OcspError, OcspRequest, NONCE_LEN,
};
use edgeattest::ErrorCode;

#[path = "../../common/ocsp_fixtures.rs"]
mod fixtures;
use fixtures::{chain, der, nonce, pki, request, REQUESTS};

#[test]
#[ignore = "writes the request fixtures; run by responses/generate.py"]
fn write_request_fixtures() {
    for (name, _, _) in REQUESTS {
        let path = pki(&format!("responses/requests/{name}.der"));
        std::fs::write(path, request(name).der()).expect("write");
    }
}

#[test]
fn requests_are_byte_identical_to_the_fixtures_the_responses_answer() {
    for (name, _, _) in REQUESTS {
        let committed = std::fs::read(pki(&format!("responses/requests/{name}.der")))
            .expect("committed request");
        assert_eq!(request(name).der(), committed.as_slice(), "{name}");
    }
}

/// The value of a `Key: value` line of OpenSSL's `-req_text` output (long hex values are
/// continued with a trailing backslash), lower case without separators.
fn openssl_field(text: &str, key: &str) -> String {
    let joined = text.replace("\\\n", "");
    let line = joined
        .lines()
        .find(|l| l.trim_start().starts_with(key))
        .unwrap_or_else(|| panic!("{key} in {text}"));
    let (_, value) = line.split_once(':').expect("key: value");
    value.trim().replace(':', "").to_lowercase()
}

#[test]
fn openssl_reads_our_request_as_intended() {
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(pki("responders.json")).expect("json"))
            .expect("manifest");
    for (name, _, issuer_file) in REQUESTS {
        let text = std::fs::read_to_string(pki(&format!("responses/requests/{name}.txt")))
            .expect("openssl -req_text output, recorded by generate.py");
        let request = request(name);
        let ca = issuer_file.trim_end_matches(".pem");
        let expected_key_hash = manifest[ca]["issuer_key_hash"]["sha384"]
            .as_str()
            .expect("sha384 key hash");
        assert!(text.contains("Hash Algorithm: sha384"), "{name}: {text}");
        assert_eq!(
            openssl_field(&text, "Issuer Key Hash"),
            expected_key_hash,
            "{name}"
        );
        assert_eq!(
            hex::encode(request.cert_id().issuer_key_hash()),
            expected_key_hash,
            "{name}"
        );
        assert_eq!(
            openssl_field(&text, "Issuer Name Hash"),
            hex::encode(request.cert_id().issuer_name_hash()),
            "{name}"
        );
        let serial = openssl_field(&text, "Serial Number");
        assert_eq!(serial, hex::encode(request.cert_id().serial()), "{name}");
        // The nonce: OpenSSL prints the extension value, OCTET STRING (04 20) then the nonce.
        assert!(text.contains("OCSP Nonce"), "{name}: {text}");
        let printed: String = text
            .split("OCSP Nonce:")
            .nth(1)
            .expect("nonce")
            .lines()
            .nth(1)
            .expect("nonce value")
            .trim()
            .to_lowercase();
        assert_eq!(
            printed,
            format!("0420{}", hex::encode(nonce(name))),
            "{name}"
        );
    }
}

#[test]
fn serials_and_cache_keys_match_the_responder_index() {
    // The index lists the serial in upper-case hex (even length), as `openssl ca` writes it.
    let index = std::fs::read_to_string(pki("index_ica.txt")).expect("index");
    for status in ["good", "revoked", "hold"] {
        let request = request(&format!("brom_{status}"));
        let line = index
            .lines()
            .find(|l| l.ends_with(&format!("PKI {status}")))
            .expect("index line");
        let serial = line.split('\t').nth(3).expect("serial").to_lowercase();
        let key = request.cache_key();
        assert_eq!(
            key,
            format!(
                "sha384:{}:{serial}",
                hex::encode(request.cert_id().issuer_key_hash())
            )
        );
        assert!(key.starts_with("sha384:48566632b5b579b7"), "{key}");
    }
    // The cache key names the certificate, not the request: a new nonce keeps it.
    let (subject, issuer) = (der("brom_good.pem"), der("ica.pem"));
    let a = OcspRequest::new(&subject, &issuer, [1; NONCE_LEN]).expect("a");
    let b = OcspRequest::new(&subject, &issuer, [2; NONCE_LEN]).expect("b");
    assert_eq!(a.cache_key(), b.cache_key());
    assert_ne!(a.der(), b.der());
    assert_eq!(a.nonce(), &[1; NONCE_LEN]);
}

#[test]
fn which_certificates_are_asked_about() {
    // Device chains: not the leaf (0), not the root (4).
    assert_eq!(ocsp_targets(5, ChainKind::Device), 1..4);
    // RIM chains: the signer too, not the root.
    assert_eq!(ocsp_targets(4, ChainKind::Rim), 0..3);
    for kind in [ChainKind::Device, ChainKind::Rim] {
        assert!(ocsp_targets(0, kind).is_empty());
        assert!(ocsp_targets(1, kind).is_empty());
    }
    assert!(ocsp_targets(2, ChainKind::Device).is_empty());
    assert_eq!(ocsp_targets(2, ChainKind::Rim), 0..1);
}

#[test]
fn chain_requests_follow_the_chain_with_fresh_nonces() {
    let device = chain("chain_good.pem");
    let mut counter = 0u8;
    let requests = chain_requests(&device, ChainKind::Device, || {
        counter += 1;
        [counter; NONCE_LEN]
    })
    .expect("requests");
    let expected = [request("brom_good"), request("ica"), request("identity")];
    assert_eq!(requests.len(), 3);
    for (i, (got, want)) in requests.iter().zip(&expected).enumerate() {
        assert_eq!(got.cert_id(), want.cert_id(), "request {i}");
        assert_eq!(
            got.nonce(),
            &[u8::try_from(i + 1).expect("small"); NONCE_LEN]
        );
    }

    let rim = chain("rim_signer_chain.pem");
    let requests = chain_requests(&rim, ChainKind::Rim, || [0; NONCE_LEN]).expect("requests");
    let names: Vec<_> = requests.iter().map(|r| r.cert_id().clone()).collect();
    assert_eq!(
        names,
        [
            request("rim_signer").cert_id().clone(),
            request("rim_l3").cert_id().clone(),
            request("rim_ca").cert_id().clone(),
        ]
    );
}

#[test]
fn a_request_needs_a_certificate_and_its_issuer() {
    let (subject, issuer) = (der("brom_good.pem"), der("ica.pem"));
    let code = |r: Result<OcspRequest, OcspError>| r.map(|_| ()).unwrap_err().code();
    assert_eq!(
        code(OcspRequest::new(b"not DER", &issuer, [0; NONCE_LEN])),
        "ERR_OCSP_INVALID_CERTIFICATE"
    );
    assert_eq!(
        OcspRequest::new(&subject, b"\x30\x00", [0; NONCE_LEN]).unwrap_err(),
        OcspError::InvalidCertificate { which: "issuer" }
    );
    // brom_good is not issued by identity: its issuer name differs.
    assert_eq!(
        OcspRequest::new(&subject, &der("identity.pem"), [0; NONCE_LEN]).unwrap_err(),
        OcspError::InvalidCertificate { which: "subject" }
    );
    // Truncated subject.
    assert_eq!(
        code(OcspRequest::new(
            &subject[..subject.len() - 1],
            &issuer,
            [0; NONCE_LEN]
        )),
        "ERR_OCSP_INVALID_CERTIFICATE"
    );
    // A chain too short to hold the issuer of a target.
    let short = vec![subject.clone(), issuer.clone()];
    assert!(chain_requests(&short, ChainKind::Device, || [0; NONCE_LEN])
        .expect("nothing to ask")
        .is_empty());
}
