//! The chips of a family run through the same rows without a real device: test chains named as
//! NVIDIA names the Blackwell chips (`tests/fixtures/generated/generate_keyed_family.py`) and
//! the RTX PRO 6000 transcript's tag layout (`CHIP_INFO` `GB202`, opaque data version 1),
//! re-signed with the chains' keys, edited where a case needs another `CHIP_INFO`. The chip's
//! row decides the FWID extension and the RIM chip; a chip of no row is refused with 4004,
//! named.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use edgeattest::attest::{Arch, EvidenceProfile, FwidPolicy, Nonce};
use edgeattest::chain::{ChainOptions, TrustStore};
use edgeattest::crypto::SigningKey;
use edgeattest::evidence::{
    device_rims, tag, verify_evidence, DeviceInput, FwidCheck, VerifiedEvidence, VerifyContext,
    VerifyError,
};
use edgeattest::rim::{RimIdError, RimTrust};
use edgeattest::service::{KeyRing, Request, Service, ServiceConfig};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::{json, Value};

use super::edit::{rewrite_opaque, set};

const NOW: UnixTime = UnixTime::from_secs(1_790_000_000).unwrap();

fn fixture(path: &str) -> String {
    let full = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// The RTX PRO 6000 transcript: its blocks and opaque layout, re-signed below.
fn gb202_layout() -> Vec<u8> {
    hex::decode(fixture("nvidia/evidence/blackwell/trustee_gb202_595.58.03_report.hex").trim())
        .unwrap()
}

struct Device {
    chain: String,
    key: SigningKey,
}

fn device(stem: &str) -> Device {
    let file = |suffix: &str| fixture(&format!("generated/keyed_family/{stem}_{suffix}.pem"));
    Device {
        chain: file("chain"),
        key: SigningKey::from_pkcs8_pem(&file("leaf_key")).unwrap(),
    }
}

fn root() -> TrustStore {
    TrustStore::from_pem(&fixture("generated/keyed_family/root.pem")).unwrap()
}

/// `transcript` with opaque `tag` set to `value` (or removed), re-signed with `key`.
fn with_tag(transcript: &[u8], tag: u16, value: Option<&[u8]>, key: &SigningKey) -> Vec<u8> {
    rewrite_opaque(
        transcript,
        |entries| set(entries, tag, value.map(<[u8]>::to_vec)),
        key,
    )
}

/// The layout re-signed with `device`'s key, `CHIP_INFO` as given.
fn evidence(device: &Device, chip_info: Option<&[u8]>) -> Vec<u8> {
    with_tag(&gb202_layout(), tag::CHIP_INFO, chip_info, &device.key)
}

fn verify(transcript: &[u8], chain: &str) -> Result<VerifiedEvidence, VerifyError> {
    let store = root();
    verify_evidence(
        DeviceInput {
            evidence: transcript,
            certificate_pem: chain,
        },
        &VerifyContext {
            arch: Arch::Blackwell,
            nonce: Nonce::from_bytes(transcript[4..36].try_into().unwrap()),
            now: NOW,
            trust_store: &store,
            chain_options: ChainOptions::default(),
            fwid_policy: FwidPolicy::Require,
        },
    )
}

const VBIOS_RIM: &str = "NV_GPU_VBIOS_G153_0210_895_9802810001";

#[test]
fn a_gb20x_chain_and_the_gb202_layout_verify_by_the_gb20x_row() {
    let d = device("gb20x_gsp");
    // The layout as the device reports it: CHIP_INFO `GB202\0`.
    let verified = verify(&evidence(&d, Some(b"GB202\0")), &d.chain).unwrap();
    assert_eq!(verified.chain().hwmodel(), Some("GB20X A01 GSP BROM"));
    assert_eq!(verified.profile(), EvidenceProfile::BlackwellGsp);
    // The GB20X row's FWID source: TcbInfo 2.23.133.5.4.1.1, compared and matched.
    let row = Arch::Blackwell.profile().chip("GB20X").unwrap();
    assert_eq!(
        verified.chain().fwid_tcb_info().as_deref(),
        verified.transcript().response.opaque.fwid().unwrap()
    );
    assert_eq!(verified.fwid(), FwidCheck::Matched);
    assert_eq!(row.rim_chip, None);
    let rims = device_rims(&verified, None);
    assert_eq!(rims.runtime.chip_info.as_deref(), Some("GB202"));
    assert_eq!(
        rims.driver,
        Some(Some("NV_GPU_CC_DRIVER_GB202_595.58.03".into()))
    );
    assert_eq!(rims.firmware.as_deref(), Some(VBIOS_RIM));
}

#[test]
fn a_gb20x_device_without_chip_info_names_no_driver_rim() {
    // GB20X names several dies: no RIM chip is guessed (NVIDIA's C++ SDK would ask for a GB100
    // driver RIM here; its Python verifier and Google's would fail on the missing tag).
    let d = device("gb20x_gsp");
    let verified = verify(&evidence(&d, None), &d.chain).unwrap();
    let rims = device_rims(&verified, None);
    assert_eq!(rims.driver, Some(None));
    assert_eq!(
        Arch::Blackwell.profile().driver_rim_id(&rims.runtime),
        Err(RimIdError::Missing { field: "chip_info" })
    );
    // The firmware RIM does not depend on the chip.
    assert_eq!(rims.firmware.as_deref(), Some(VBIOS_RIM));
}

#[test]
fn a_gb110_device_names_gb110_rims_with_or_without_chip_info() {
    let d = device("gb110_gsp");
    for chip_info in [None, Some(&b"GB110\0"[..])] {
        let verified = verify(&evidence(&d, chip_info), &d.chain).unwrap();
        assert_eq!(verified.chain().hwmodel(), Some("GB110 A01 GSP BROM"));
        assert_eq!(verified.fwid(), FwidCheck::Matched);
        assert_eq!(
            device_rims(&verified, None).driver,
            Some(Some("NV_GPU_CC_DRIVER_GB110_595.58.03".into())),
            "{chip_info:?}"
        );
    }
}

#[test]
fn a_chip_of_no_row_is_refused_with_4004_naming_it_and_the_rows() {
    let d = device("gb20y_gsp");
    let error = verify(&evidence(&d, Some(b"GB202\0")), &d.chain).unwrap_err();
    assert_eq!(
        error,
        VerifyError::ArchMismatch {
            found: Some("GB20Y".into())
        }
    );
    assert_eq!(error.service_code(), 4004);
    assert_eq!(error.code(), "ERR_EVIDENCE_ARCH_MISMATCH");
    let message = error.to_string();
    assert!(message.contains("GB20Y"), "{message}");
    assert!(
        message.contains("HOPPER (GH100), BLACKWELL (GB100, GB20X, GB110), LS10 (LS_10)"),
        "{message}"
    );
    // A chip of another row keeps its own message.
    assert_eq!(
        VerifyError::ArchMismatch {
            found: Some("GH100".into())
        }
        .to_string(),
        "the device is a GH100, not the requested arch"
    );
}

#[test]
fn the_service_refuses_a_chip_of_no_row_with_4004_in_the_device_token() {
    let config = ServiceConfig {
        issuer: Some("https://edgeattest.test".into()),
        ocsp_url: None,
        ..ServiceConfig::default()
    };
    let service = Service::new(
        config,
        KeyRing::new(SigningKey::generate(&[3u8; 48]).unwrap(), None),
        root(),
        RimTrust::nvidia(),
        1,
    );
    let d = device("gb20y_gsp");
    let transcript = evidence(&d, Some(b"GB202\0"));
    let body = json!({
        "nonce": hex::encode(&transcript[4..36]),
        "arch": "BLACKWELL",
        "claims_version": "3.0",
        "evidence_list": [{
            "evidence": STANDARD.encode(&transcript),
            "certificate": STANDARD.encode(&d.chain),
        }],
    });
    let request = Request::new("POST", "/v4/attest/gpu").body(serde_json::to_vec(&body).unwrap());
    let response = service.handle(&request, NOW, [7; 32]);
    assert_eq!(response.status, 200);
    let result: Value = serde_json::from_slice(&response.body).unwrap();
    let claims = |token: &Value| -> Value {
        let payload = token.as_str().unwrap().split('.').nth(1).unwrap();
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
    };
    assert_eq!(claims(&result[0][1])["x-nvidia-overall-att-result"], false);
    let device = claims(&result[1]["GPU-0"]);
    let details = &device["x-nvidia-error-details"];
    assert_eq!(details["code"], 4004, "{details}");
    let message = details.to_string();
    assert!(
        message.contains("GB20Y") && message.contains("BLACKWELL (GB100, GB20X, GB110)"),
        "{message}"
    );
}
