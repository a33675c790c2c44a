//! Device certificate chains of the NVIDIA fixtures against the embedded Device Identity CA
//! (the expected verdicts: `tests/common/verdicts.rs`).
//!
//! Shared with the wasm suites (`tests/wasm_node.rs`, `tests/wasm_browser.rs`), which include
//! this file as a module: `#[test]` is wasm-bindgen-test's there.
// Test helpers outside #[test] functions, and wasm-bindgen tests, which clippy does not
// take for tests.

// Crate-level here; a wasm suite that includes this file uses its own (`crate::`).
#[path = "../../common/fixture_files.rs"]
mod fixture_files;
#[path = "../../common/verdicts.rs"]
mod verdicts;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use edgeattest::attest::{Arch, FwidSource};
use edgeattest::chain::{
    parse_pem_chain, verify_chain, verify_pem_chain, CertPosition, ChainError, ChainOptions,
    ChainPlan, ChainStatus, RevocationStatus, TimeCheck, TrustStore,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;

use crate::verdicts::{CHAINS, CHAINS_REFUSED, NOW};

/// A fixture under `tests/fixtures/nvidia/`.
fn fixture(path: &str) -> String {
    crate::fixture_files::text(&format!("nvidia/{path}")).to_owned()
}

#[test]
fn every_fixture_chain_verifies_to_the_embedded_root() {
    let store = TrustStore::nvidia_device_identity().unwrap();
    assert_eq!(store.len(), 1);
    for (path, hwmodel) in CHAINS {
        let chain = verify_pem_chain(
            &fixture(path),
            &store,
            UnixTime::from_secs(NOW).unwrap(),
            &ChainOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(chain.certificates().len(), 5, "{path}");
        assert_eq!(chain.hwmodel(), Some(hwmodel), "{path}");
        assert_eq!(chain.status(), ChainStatus::Valid);
        assert_eq!(chain.status().as_claim_str(), "valid");
        assert_eq!(chain.ocsp_status(), RevocationStatus::NotChecked);
        assert_eq!(chain.earliest_not_after_iso(), "9999-12-31T23:59:59Z");
        assert_eq!(chain.leaf_public_key_sec1().len(), 97);
        // The supplied root is the anchor itself.
        assert_eq!(
            chain.certificates().last().unwrap().position,
            CertPosition::Anchor(0)
        );
        // The FWID extension the chip's row names, and only that one.
        let chip = hwmodel.split(' ').next().unwrap();
        let row = Arch::of_chip(chip).unwrap().profile().chip(chip).unwrap();
        let tcb_info = row.fwid_source == FwidSource::TcbInfo;
        assert_eq!(chain.fwid_tcb_info().is_some(), tcb_info, "{path}");
        assert_eq!(chain.fwid_dice().is_some(), !tcb_info, "{path}");
    }
}

#[test]
fn ueid_and_hwmodel_match_the_real_service_tokens() {
    let store = TrustStore::nvidia_device_identity().unwrap();
    let opts = ChainOptions::default();
    let hopper = verify_pem_chain(
        &fixture(CHAINS[0].0),
        &store,
        UnixTime::from_secs(NOW).unwrap(),
        &opts,
    )
    .unwrap();
    // ueid of the real NRAS token nras/nvat/hopperClaimsv3_decoded.json.
    assert_eq!(
        hopper.ueid(),
        "478176379286082186618948445787393647364802107249"
    );
    assert_eq!(hopper.hwmodel_chip(), Some("GH100"));
    let switch = verify_pem_chain(
        &fixture(CHAINS[7].0),
        &store,
        UnixTime::from_secs(NOW).unwrap(),
        &opts,
    )
    .unwrap();
    assert_eq!(
        switch.ueid(),
        "694931143880983876767046803400974855445978836716"
    );
    assert_eq!(switch.hwmodel(), Some("LS_10 A01 FSP BROM"));
    let subjects: Vec<&str> = switch.subjects().collect();
    assert!(
        subjects[0].contains("CN=LS_10 A01 FSP FMC LF"),
        "{subjects:?}"
    );
    assert!(subjects[4].contains("CN=NVIDIA Device Identity CA"));
}

#[test]
fn chain_without_brom_certificate_fails() {
    let store = TrustStore::nvidia_device_identity().unwrap();
    let (path, code) = CHAINS_REFUSED[0];
    let err = verify_pem_chain(
        &fixture(path),
        &store,
        UnixTime::from_secs(NOW).unwrap(),
        &ChainOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        err,
        ChainError::IssuerNotFound {
            at: CertPosition::Chain(0)
        }
    );
    assert_eq!(err.code(), code);
}

#[test]
fn chain_without_its_root_still_reaches_the_anchor() {
    let store = TrustStore::nvidia_device_identity().unwrap();
    let ders = parse_pem_chain(&fixture(CHAINS[0].0)).unwrap();
    let chain = verify_chain(
        &ders[..4],
        &store,
        UnixTime::from_secs(NOW).unwrap(),
        &ChainOptions::default(),
    )
    .unwrap();
    assert_eq!(chain.certificates().len(), 5);
    assert_eq!(chain.supplied_len(), 4);
}

#[test]
fn a_flipped_signature_byte_in_any_link_fails() {
    let store = TrustStore::nvidia_device_identity().unwrap();
    let ders = parse_pem_chain(&fixture(CHAINS[0].0)).unwrap();
    for i in 0..4 {
        let mut tampered = ders.clone();
        let n = tampered[i].len();
        tampered[i][n - 3] ^= 0x01; // inside s of the ECDSA-Sig-Value
        let err = verify_chain(
            &tampered,
            &store,
            UnixTime::from_secs(NOW).unwrap(),
            &ChainOptions::default(),
        )
        .unwrap_err();
        assert_eq!(
            err,
            ChainError::SignatureInvalid {
                at: CertPosition::Chain(i)
            },
            "link {i}"
        );
    }
}

#[test]
fn signature_checks_are_data() {
    let store = TrustStore::nvidia_device_identity().unwrap();
    let ders = parse_pem_chain(&fixture(CHAINS[0].0)).unwrap();
    let plan = ChainPlan::new(
        &ders,
        &store,
        UnixTime::from_secs(NOW).unwrap(),
        &ChainOptions::default(),
    )
    .unwrap();
    // One check per link; the anchor's self-signature is not checked.
    assert_eq!(plan.signature_checks().len(), 4);
    assert!(plan.signature_checks().iter().all(|c| c.verify().is_ok()));
    assert_eq!(
        plan.clone().finish(&[true, true]).unwrap_err().code(),
        "ERR_CHAIN_VERDICT_COUNT"
    );
    assert_eq!(
        plan.clone().finish(&[true, true, false, true]).unwrap_err(),
        ChainError::SignatureInvalid {
            at: CertPosition::Chain(2)
        }
    );
    assert!(plan.finish(&[true; 4]).is_ok());
}

#[test]
fn time_is_reported_or_enforced() {
    let store = TrustStore::nvidia_device_identity().unwrap();
    let pem = fixture(CHAINS[0].0);
    // 2020-01-01: before the root's notBefore (2021-11-05).
    let early = 1_577_836_800;
    let chain = verify_pem_chain(
        &pem,
        &store,
        UnixTime::from_secs(early).unwrap(),
        &ChainOptions::default(),
    )
    .unwrap();
    assert_eq!(chain.status(), ChainStatus::NotYetValid);
    assert_eq!(chain.status().as_claim_str(), "invalid");
    let enforce = ChainOptions::default().with_time(TimeCheck::Enforce);
    let err =
        verify_pem_chain(&pem, &store, UnixTime::from_secs(early).unwrap(), &enforce).unwrap_err();
    assert_eq!(err.code(), "ERR_CHAIN_NOT_YET_VALID");
    assert!(verify_pem_chain(&pem, &store, UnixTime::from_secs(NOW).unwrap(), &enforce).is_ok());
}

#[test]
fn rim_root_is_not_a_device_anchor() {
    let store = TrustStore::nvidia_rim().unwrap();
    let err = verify_pem_chain(
        &fixture(CHAINS[0].0),
        &store,
        UnixTime::from_secs(NOW).unwrap(),
        &ChainOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        err,
        ChainError::UntrustedRoot {
            at: CertPosition::Chain(4)
        }
    );
}

#[test]
fn pem_errors() {
    assert_eq!(parse_pem_chain("nothing here"), Err(ChainError::Empty));
    assert_eq!(
        parse_pem_chain("-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----\n"),
        Err(ChainError::Pem { index: 0 })
    );
    let key = "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n";
    assert_eq!(parse_pem_chain(key), Err(ChainError::Pem { index: 0 }));
    let store = TrustStore::nvidia_device_identity().unwrap();
    let err = verify_chain(
        &[b"\x30\x03\x02\x01\x01".as_slice()],
        &store,
        UnixTime::from_secs(NOW).unwrap(),
        &ChainOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        err,
        ChainError::Malformed {
            at: CertPosition::Chain(0)
        }
    );
}

// Not in wasm: proptest seeds from the OS.
#[cfg(not(target_arch = "wasm32"))]
proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    /// Any single changed byte in any certificate of a real chain: a typed result, never a
    /// panic, and never a valid chain when the byte is in certificates 0–3. (A changed copy
    /// of the supplied root may still validate: the path closes at the pinned anchor and the
    /// supplied copy is not used, as NVIDIA's verifier substitutes its own root.)
    #[test]
    fn mutated_chains_never_panic(cert in 0usize..5, at in proptest::num::usize::ANY, value in proptest::num::u8::ANY) {
        let store = TrustStore::nvidia_device_identity().unwrap();
        let mut ders = parse_pem_chain(&fixture(CHAINS[1].0)).unwrap();
        let len = ders[cert].len();
        let at = at % len;
        let changed = ders[cert][at] != value;
        ders[cert][at] = value;
        let result = verify_chain(&ders, &store, UnixTime::from_secs(NOW).unwrap(), &ChainOptions::default());
        if changed && cert < 4 {
            proptest::prop_assert!(result.is_err(), "byte {} of certificate {} changed and the chain verified", at, cert);
        }
    }
}
