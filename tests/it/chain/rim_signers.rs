//! RIM signing chains (ds:X509Data of the RIM XML) against the embedded CoRIM root: the
//! interface the RIM module relies on.
#![cfg(not(target_arch = "wasm32"))]

use base64::Engine;
use edgeattest::chain::{
    verify_chain, ChainError, ChainOptions, ChainStatus, TimeCheck, TrustStore,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;

fn x509_data(path: &str) -> Vec<Vec<u8>> {
    let xml = std::fs::read_to_string(format!(
        "{}/tests/fixtures/nvidia/rims/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    xml.split("<ds:X509Certificate>")
        .skip(1)
        .map(|part| {
            let b64: String = part
                .split("</ds:X509Certificate>")
                .next()
                .unwrap()
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            base64::engine::general_purpose::STANDARD
                .decode(b64)
                .unwrap()
        })
        .collect()
}

#[test]
fn ls10_rim_chain_verifies() {
    let store = TrustStore::nvidia_rim().unwrap();
    let certs = x509_data("nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml");
    assert_eq!(certs.len(), 4);
    // 2027-01-01: inside every validity period.
    let chain = verify_chain(
        &certs,
        &store,
        UnixTime::from_secs(1_798_761_600).unwrap(),
        &ChainOptions::default(),
    )
    .unwrap();
    assert_eq!(chain.status(), ChainStatus::Valid);
    assert_eq!(chain.earliest_not_after_iso(), "2027-11-02T23:59:59Z");
    assert_eq!(
        chain.certificates()[0].common_name.as_deref(),
        Some("NVIDIA Reference Value L4 LS10")
    );
    // 2029: the signer expired; reported, or refused when enforced.
    let later = 1_861_920_000;
    let chain = verify_chain(
        &certs,
        &store,
        UnixTime::from_secs(later).unwrap(),
        &ChainOptions::default(),
    )
    .unwrap();
    assert_eq!(chain.status(), ChainStatus::Expired);
    let enforce = ChainOptions::default().with_time(TimeCheck::Enforce);
    let err = verify_chain(
        &certs,
        &store,
        UnixTime::from_secs(later).unwrap(),
        &enforce,
    )
    .unwrap_err();
    assert_eq!(err.code(), "ERR_CHAIN_EXPIRED");
}

#[test]
fn rim_chains_of_the_fixtures() {
    let store = TrustStore::nvidia_rim().unwrap();
    let now = 1_790_000_000;
    let ok = verify_chain(
        &x509_data("nvat/NV_GPU_DRIVER_GH100_550.144.03.xml"),
        &store,
        UnixTime::from_secs(now).unwrap(),
        &ChainOptions::default(),
    )
    .unwrap();
    assert_eq!(ok.certificates().len(), 4);
    // Only two certificates, not reaching the RIM root.
    let err = verify_chain(
        &x509_data("nvat/incorrect_cert_chain_driver_rim.xml"),
        &store,
        UnixTime::from_secs(now).unwrap(),
        &ChainOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            ChainError::IssuerNotFound { .. } | ChainError::UntrustedRoot { .. }
        ),
        "{err:?}"
    );
    // The device root does not anchor RIM chains.
    let device = TrustStore::nvidia_device_identity().unwrap();
    let err = verify_chain(
        &x509_data("nvat/NV_GPU_DRIVER_GH100_550.144.03.xml"),
        &device,
        UnixTime::from_secs(now).unwrap(),
        &ChainOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.code(), "ERR_CHAIN_UNTRUSTED_ROOT");
    // A wrong RIM root as the only anchor.
    let wrong = std::fs::read(format!(
        "{}/tests/fixtures/nvidia/rims/nvat/incorrect_rim_root.crt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let wrong = match core::str::from_utf8(&wrong) {
        Ok(text) if text.contains("BEGIN CERTIFICATE") => TrustStore::from_pem(text).unwrap(),
        _ => TrustStore::from_der(&[wrong]).unwrap(),
    };
    assert!(verify_chain(
        &x509_data("nvat/NV_GPU_DRIVER_GH100_550.144.03.xml"),
        &wrong,
        UnixTime::from_secs(now).unwrap(),
        &ChainOptions::default(),
    )
    .is_err());
}
