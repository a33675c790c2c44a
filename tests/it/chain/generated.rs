//! Generated chains (tests/fixtures/generated): each path-validation rule fails on its own.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::chain::{
    parse_pem_chain, verify_pem_chain, CertPosition, ChainError, ChainOptions, ChainStatus,
    TimeCheck, TrustStore,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;

const NOW: UnixTime = UnixTime::from_secs(1_790_000_000).unwrap(); // 2026-09-21

fn read(file: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/generated/{file}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn test_store() -> TrustStore {
    TrustStore::from_pem(&read("test_root.pem")).unwrap()
}

fn check(file: &str, options: &ChainOptions) -> Result<ChainStatus, ChainError> {
    verify_pem_chain(&read(file), &test_store(), NOW, options).map(|c| c.status())
}

#[test]
fn the_valid_generated_chain_verifies() {
    let chain = verify_pem_chain(
        &read("chain_valid.pem"),
        &test_store(),
        NOW,
        &ChainOptions::default(),
    )
    .unwrap();
    assert_eq!(chain.status(), ChainStatus::Valid);
    assert_eq!(chain.hwmodel(), Some("GH100 A01 GSP BROM"));
    assert_eq!(chain.fwid_dice().map(|f| f.len()), Some(48));
    // Not under the NVIDIA root.
    let nvidia = TrustStore::nvidia_device_identity().unwrap();
    let err = verify_pem_chain(
        &read("chain_valid.pem"),
        &nvidia,
        NOW,
        &ChainOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        err,
        ChainError::UntrustedRoot {
            at: CertPosition::Chain(3)
        }
    );
}

#[test]
fn expired_and_not_yet_valid_are_reported_apart() {
    let report = ChainOptions::default();
    assert_eq!(
        check("chain_expired_leaf.pem", &report),
        Ok(ChainStatus::Expired)
    );
    assert_eq!(ChainStatus::Expired.as_claim_str(), "expired");
    let chain =
        verify_pem_chain(&read("chain_expired_leaf.pem"), &test_store(), NOW, &report).unwrap();
    assert_eq!(chain.earliest_not_after_iso(), "2022-01-01T00:00:00Z");
    assert_eq!(
        check("chain_not_yet_valid_leaf.pem", &report),
        Ok(ChainStatus::NotYetValid)
    );

    let enforce = ChainOptions::default().with_time(TimeCheck::Enforce);
    let err = check("chain_expired_leaf.pem", &enforce).unwrap_err();
    assert_eq!(
        err,
        ChainError::Expired {
            at: CertPosition::Chain(0),
            not_after: UnixTime::from_secs(1_640_995_200).unwrap()
        }
    );
    assert_eq!(err.code(), "ERR_CHAIN_EXPIRED");
    let err = check("chain_not_yet_valid_leaf.pem", &enforce).unwrap_err();
    assert_eq!(err.code(), "ERR_CHAIN_NOT_YET_VALID");
}

#[test]
fn ca_without_key_cert_sign_fails() {
    let err = check("chain_ca_without_keycertsign.pem", &ChainOptions::default()).unwrap_err();
    assert_eq!(
        err,
        ChainError::IssuerWithoutKeyCertSign {
            at: CertPosition::Chain(1)
        }
    );
    assert_eq!(err.code(), "ERR_CHAIN_ISSUER_NO_KEY_CERT_SIGN");
}

#[test]
fn path_len_violation_fails() {
    let err = check("chain_pathlen_violation.pem", &ChainOptions::default()).unwrap_err();
    assert_eq!(
        err,
        ChainError::PathLenExceeded {
            at: CertPosition::Chain(2)
        }
    );
    assert_eq!(err.code(), "ERR_CHAIN_PATH_LEN");
}

#[test]
fn chain_to_another_root_with_the_pinned_name_fails() {
    let nvidia = TrustStore::nvidia_device_identity().unwrap();
    let err = verify_pem_chain(
        &read("chain_other_root.pem"),
        &nvidia,
        NOW,
        &ChainOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        err,
        ChainError::UntrustedRoot {
            at: CertPosition::Chain(3)
        }
    );
    assert_eq!(err.code(), "ERR_CHAIN_UNTRUSTED_ROOT");
    // Without its own root, the ICA's issuer name matches the NVIDIA anchor but its key does not.
    let pem = read("chain_other_root.pem");
    let ders = edgeattest::chain::parse_pem_chain(&pem).unwrap();
    let err = edgeattest::chain::verify_chain(&ders[..3], &nvidia, NOW, &ChainOptions::default())
        .unwrap_err();
    assert_eq!(
        err,
        ChainError::IssuerNotFound {
            at: CertPosition::Chain(2)
        }
    );
}

#[test]
fn intermediate_limit_is_enforced() {
    let options = ChainOptions::default().with_max_intermediates(1);
    let err = check("chain_valid.pem", &options).unwrap_err();
    assert_eq!(err, ChainError::PathTooLong);
    assert!(check(
        "chain_valid.pem",
        &ChainOptions::default().with_max_intermediates(2)
    )
    .is_ok());
}

/// authorityKeyIdentifier that is not well-formed (read without x509-cert's `GeneralName`
/// decoder since issue 19): the anchor's profile refuses it, its signature being unchecked.
#[test]
fn a_malformed_authority_key_identifier_is_an_invalid_extension() {
    let root = parse_pem_chain(&read("test_root.pem")).unwrap().remove(0);
    // The AKI extension's OCTET STRING holds 30 16 80 14 <key id>.
    let at = root
        .windows(4)
        .position(|w| w == [0x30, 0x16, 0x80, 0x14])
        .expect("the root's authorityKeyIdentifier");
    for (offset, byte) in [
        (2, 0x83), // an element AuthorityKeyIdentifier does not have
        (2, 0x81), // authorityCertIssuer, primitive
        (2, 0xa1), // authorityCertIssuer holding the key id as GeneralNames
        (1, 0x17), // a SEQUENCE longer than its OCTET STRING
        (1, 0x15), // a SEQUENCE shorter than its element
    ] {
        let mut bad = root.clone();
        bad[at + offset] = byte;
        let store = TrustStore::from_der(&[bad]).unwrap();
        let err = verify_pem_chain(
            &read("chain_valid.pem"),
            &store,
            NOW,
            &ChainOptions::default(),
        )
        .unwrap_err();
        assert_eq!(
            err,
            ChainError::InvalidExtension {
                at: CertPosition::Anchor(0),
                oid: "2.5.29.35".into()
            },
            "byte {offset} = {byte:#04x}"
        );
    }
    // Unchanged, the same chain verifies against it.
    let store = TrustStore::from_der(&[root]).unwrap();
    assert!(verify_pem_chain(
        &read("chain_valid.pem"),
        &store,
        NOW,
        &ChainOptions::default()
    )
    .is_ok());
}
