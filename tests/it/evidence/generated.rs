//! Evidence re-signed by a generated test leaf: the FWID check and the trust store option.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::attest::{Arch, FwidPolicy, Nonce};
use edgeattest::chain::{ChainError, ChainOptions, ChainStatus, TrustStore};
use edgeattest::evidence::{verify_evidence, DeviceInput, FwidCheck, VerifyContext, VerifyError};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;

const N931: &str = "931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb";

fn read(file: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/generated/{file}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn run(
    chain: &str,
    store: &TrustStore,
) -> Result<edgeattest::evidence::VerifiedEvidence, VerifyError> {
    let evidence = hex::decode(read("evidence_test_leaf.hex").trim()).unwrap();
    let pem = read(chain);
    let context = VerifyContext {
        arch: Arch::Hopper,
        nonce: Nonce::parse(N931).unwrap(),
        now: UnixTime::from_secs(1_790_000_000).unwrap(),
        trust_store: store,
        chain_options: ChainOptions::default(),
        fwid_policy: FwidPolicy::default(),
    };
    verify_evidence(
        DeviceInput {
            evidence: &evidence,
            certificate_pem: &pem,
        },
        &context,
    )
}

#[test]
fn evidence_under_a_configured_trust_store() {
    let store = TrustStore::from_pem(&read("test_root.pem")).unwrap();
    let device = run("chain_valid.pem", &store).unwrap();
    assert_eq!(device.fwid(), FwidCheck::Matched);
    assert_eq!(device.driver_version(), Some("550.90.07"));
    // The default NVIDIA store refuses the test PKI.
    let nvidia = TrustStore::nvidia_device_identity().unwrap();
    let err = run("chain_valid.pem", &nvidia).unwrap_err();
    assert!(
        matches!(err, VerifyError::Chain(ChainError::UntrustedRoot { .. })),
        "{err:?}"
    );
}

#[test]
fn fwid_mismatch_fails() {
    let store = TrustStore::from_pem(&read("test_root.pem")).unwrap();
    let err = run("chain_fwid_mismatch.pem", &store).unwrap_err();
    assert_eq!(err, VerifyError::FwidMismatch);
    assert_eq!(err.code(), "ERR_EVIDENCE_FWID_MISMATCH");
    assert_eq!(err.service_code(), 4016);
}

#[test]
fn expired_leaf_still_verifies_with_expired_status() {
    let store = TrustStore::from_pem(&read("test_root.pem")).unwrap();
    let device = run("chain_expired_leaf.pem", &store).unwrap();
    assert_eq!(device.chain_status(), ChainStatus::Expired);
    assert_eq!(device.chain_expiration(), "2022-01-01T00:00:00Z");
}

#[test]
fn chain_rule_failures_surface_through_evidence() {
    let store = TrustStore::from_pem(&read("test_root.pem")).unwrap();
    assert_eq!(
        run("chain_ca_without_keycertsign.pem", &store)
            .unwrap_err()
            .code(),
        "ERR_CHAIN_ISSUER_NO_KEY_CERT_SIGN"
    );
    assert_eq!(
        run("chain_pathlen_violation.pem", &store)
            .unwrap_err()
            .code(),
        "ERR_CHAIN_PATH_LEN"
    );
}
