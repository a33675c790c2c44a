//! RIM X509Data chains: status at `now` as the service reports it, wrong roots, broken
//! chains, expired signers.
//!
//! Shared with the wasm suites (`tests/wasm_node.rs`, `tests/wasm_browser.rs`), which include
//! this file as a module: `#[test]` is wasm-bindgen-test's there.
// Test helpers outside #[test] functions unwrap and panic on bad fixtures.

// Crate-level here; a wasm suite that includes this file uses its own (`crate::`).
#[path = "../../common/fixture_files.rs"]
mod fixture_files;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use edgeattest::chain::{verify_chain, ChainOptions, ChainStatus, TrustStore};
use edgeattest::rim::{verify_rim, RimCertStatus, RimError, RimTrust, NVIDIA_RIM_ROOT_PEM};
use edgeattest::UnixTime;

/// A fixture under `tests/fixtures/nvidia/`.
fn read(rel: &str) -> String {
    crate::fixture_files::text(&format!("nvidia/{rel}")).to_owned()
}

const DRIVER: &str = "rims/nvat/NV_GPU_DRIVER_GH100_550.144.03.xml";
/// 2025-06-01, inside the 550.144.03 signer's validity (2024-12-30 → 2026-12-30).
const JUNE_2025: UnixTime = UnixTime::from_secs(1_748_736_000).unwrap();
/// 2027-06-01.
const JUNE_2027: UnixTime = UnixTime::from_secs(1_811_808_000).unwrap();

#[test]
fn valid_then_expired_with_the_default_nvidia_root() {
    let xml = read(DRIVER);
    let rim = verify_rim(xml.as_bytes(), &RimTrust::nvidia(), JUNE_2025).unwrap();
    let chain = rim.cert_chain();
    assert_eq!(chain.status, RimCertStatus::Valid);
    assert!(rim.is_trusted());
    assert_eq!(chain.status.as_str(), "valid");
    // 2026-12-30T16:56:50Z: the signer's notAfter is the earliest.
    assert_eq!(chain.expiration, UnixTime::from_secs(1_798_649_810));
    assert_eq!(chain.subjects.len(), 4);
    assert_eq!(chain.subjects[0], "HCC RIM L4 Signer");
    assert_eq!(chain.ocsp_status.as_str(), "not-checked");

    let later = verify_rim(xml.as_bytes(), &RimTrust::nvidia(), JUNE_2027).unwrap();
    assert_eq!(later.cert_chain().status, RimCertStatus::Expired);
    assert!(!later.is_trusted());
    // Before the signer existed: not valid.
    let earlier = verify_rim(
        xml.as_bytes(),
        &RimTrust::nvidia(),
        UnixTime::from_secs(1_700_000_000).unwrap(),
    )
    .unwrap();
    assert_eq!(earlier.cert_chain().status, RimCertStatus::Invalid);
}

#[test]
fn nvtrust_prod_rims_expired_in_2025() {
    for name in [
        "1010_0200_882_96005E0001_PROD.swidtag",
        "Driver_RIM_test_no_gpu.swidtag",
    ] {
        let xml = read(&format!("rims/nvtrust/{name}"));
        // 2024-01-01: valid.
        let rim = verify_rim(
            xml.as_bytes(),
            &RimTrust::nvidia(),
            UnixTime::from_secs(1_704_067_200).unwrap(),
        )
        .unwrap();
        assert_eq!(rim.cert_chain().status, RimCertStatus::Valid, "{name}");
        let rim = verify_rim(xml.as_bytes(), &RimTrust::nvidia(), JUNE_2027).unwrap();
        assert_eq!(rim.cert_chain().status, RimCertStatus::Expired, "{name}");
    }
}

#[test]
fn ls10_rim_chain() {
    let xml = read("rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml");
    // 2027-01-01.
    let rim = verify_rim(
        xml.as_bytes(),
        &RimTrust::nvidia(),
        UnixTime::from_secs(1_798_761_600).unwrap(),
    )
    .unwrap();
    assert!(rim.is_trusted());
    assert_eq!(
        rim.cert_chain().subjects[0],
        "NVIDIA Reference Value L4 LS10"
    );
}

#[test]
fn wrong_root_makes_the_chain_invalid() {
    let wrong = RimTrust::from_pem(&read("rims/nvat/incorrect_rim_root.crt")).unwrap();
    let rim = verify_rim(read(DRIVER).as_bytes(), &wrong, JUNE_2025).unwrap();
    let chain = rim.cert_chain();
    assert_eq!(chain.status, RimCertStatus::Invalid);
    assert!(chain.error_code.unwrap().starts_with("ERR_CHAIN_"));
    assert!(chain.problem.is_some());
    assert_eq!(chain.expiration, None);
    assert!(!rim.is_trusted());
    // The device identity root is no RIM anchor either.
    let device_root = RimTrust::from_pem(&read("roots/nvidia_device_identity_ca.pem")).unwrap();
    let rim = verify_rim(read(DRIVER).as_bytes(), &device_root, JUNE_2025).unwrap();
    assert_eq!(rim.cert_chain().status, RimCertStatus::Invalid);
    // Not PEM at all.
    assert!(matches!(
        RimTrust::from_pem("nope"),
        Err(RimError::Certificate { .. })
    ));
}

#[test]
fn incorrect_chain_fixture_is_signed_but_untrusted() {
    // NVAT's incorrect_cert_chain_driver_rim.xml: a GB100 firmware RIM whose signature
    // verifies, with only 2 certificates that do not reach the RIM root.
    let xml = read("rims/nvat/incorrect_cert_chain_driver_rim.xml");
    let rim = verify_rim(xml.as_bytes(), &RimTrust::nvidia(), JUNE_2025).unwrap();
    assert_eq!(rim.certificates().len(), 2);
    assert_eq!(rim.cert_chain().status, RimCertStatus::Invalid);
    assert_eq!(rim.document().name, "GB100");
}

#[test]
fn expired_fixture_fails_at_the_digest_and_its_chain_is_expired() {
    // NVAT's "expired" RIM was edited after signing (lxml and xmlsec1 agree): it fails at
    // the digest before any chain question. Its X509Data chain on its own is expired after
    // its signer's one-day validity (2025-01-01 → 2025-01-02).
    let xml = read("rims/nvat/NV_GPU_DRIVER_GH100_570.124.03_expired.xml");
    assert_eq!(
        verify_rim(xml.as_bytes(), &RimTrust::nvidia(), JUNE_2025).unwrap_err(),
        RimError::DigestMismatch
    );
    use base64::Engine;
    let certs: Vec<Vec<u8>> = xml
        .split("<ds:X509Certificate>")
        .skip(1)
        .map(|part| {
            let b64: String = part
                .split("</ds:X509Certificate>")
                .next()
                .unwrap()
                .split_whitespace()
                .collect();
            base64::engine::general_purpose::STANDARD
                .decode(b64)
                .unwrap()
        })
        .collect();
    let chain = verify_chain(
        &certs,
        &TrustStore::nvidia_rim().unwrap(),
        JUNE_2025,
        &ChainOptions::default(),
    )
    .unwrap();
    assert_eq!(chain.status(), ChainStatus::Expired);
}

#[test]
fn default_trust_is_the_nvidia_rim_root() {
    assert!(NVIDIA_RIM_ROOT_PEM.contains("BEGIN CERTIFICATE"));
    let a = verify_rim(read(DRIVER).as_bytes(), &RimTrust::default(), JUNE_2025).unwrap();
    let b = verify_rim(
        read(DRIVER).as_bytes(),
        &RimTrust::from_pem(&read("roots/nvidia_rim_root_ca.pem")).unwrap(),
        JUNE_2025,
    )
    .unwrap();
    assert_eq!(a, b);
    assert!(a.is_trusted());
}
