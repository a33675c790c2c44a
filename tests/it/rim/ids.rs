//! RIM ids from evidence values and the RIM service envelope.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions unwrap and panic on bad fixtures.

use std::fs;
use std::path::Path;

use base64::Engine;
use edgeattest::attest::Arch;
use edgeattest::rim::{
    apsku_from_block, driver_rim_id, firmware_rim_id, open_envelope, verify_rim, EnvelopeError,
    RimIdError, RimTrust, RuntimeEvidence,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use sha2::Digest;

fn fixture(rel: &str) -> String {
    fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/nvidia")
            .join(rel),
    )
    .unwrap()
}

fn gpu(driver: &str, vbios: &str, project: &str, sku: &str, chip: &str) -> RuntimeEvidence {
    RuntimeEvidence {
        driver_version: Some(driver.into()),
        vbios_version: Some(vbios.into()),
        project: Some(project.into()),
        project_sku: Some(sku.into()),
        chip_sku: Some(chip.into()),
        ..RuntimeEvidence::default()
    }
}

#[test]
fn hopper_ids() {
    // Values of nvat_hopper_580.159.03_report.hex (NUL terminators as in the evidence).
    let ev = gpu(
        "580.159.03\0",
        "96.00.74.00.20",
        "1010\0",
        "0205\0",
        "862\0\0\0\0\0\0",
    );
    assert_eq!(
        driver_rim_id(Arch::Hopper, &ev).unwrap(),
        "NV_GPU_DRIVER_GH100_580.159.03"
    );
    assert_eq!(
        firmware_rim_id(Arch::Hopper, &ev).unwrap(),
        "NV_GPU_VBIOS_1010_0205_862_9600740020"
    );
    // The nvtrust sample RIMs are named after these ids.
    let ev = gpu("545.00", "96.00.5E.00.01", "1010", "0200", "882");
    assert_eq!(
        firmware_rim_id(Arch::Hopper, &ev).unwrap(),
        "NV_GPU_VBIOS_1010_0200_882_96005E0001"
    );
    let ev = gpu("560.00", "96.00.a5.00.01", "G520", "0200", "885");
    assert_eq!(
        firmware_rim_id(Arch::Hopper, &ev).unwrap(),
        "NV_GPU_VBIOS_G520_0200_885_9600A50001"
    );
}

#[test]
fn blackwell_driver_id_with_and_without_chip_info() {
    // nvat_blackwell_575.32_report.hex has no CHIP_INFO: the GB100 fallback.
    let mut ev = gpu("575.32", "97.00.88.00.0F", "G525", "0220", "886");
    assert_eq!(
        driver_rim_id(Arch::Blackwell, &ev).unwrap(),
        "NV_GPU_CC_DRIVER_GB100_575.32"
    );
    assert_eq!(
        firmware_rim_id(Arch::Blackwell, &ev).unwrap(),
        "NV_GPU_VBIOS_G525_0220_886_970088000F"
    );
    ev.chip_info = Some("GB202\0".into());
    assert_eq!(
        driver_rim_id(Arch::Blackwell, &ev).unwrap(),
        "NV_GPU_CC_DRIVER_GB202_575.32"
    );
    ev.chip_info = Some("GB1/../x".into());
    assert_eq!(
        driver_rim_id(Arch::Blackwell, &ev).unwrap_err(),
        RimIdError::Invalid { field: "chip_info" }
    );
}

#[test]
fn ls10_ids_use_constants() {
    let ev = RuntimeEvidence {
        vbios_version: Some("96.10.55.00.01".into()),
        ..RuntimeEvidence::default()
    };
    assert_eq!(
        firmware_rim_id(Arch::Ls10, &ev).unwrap(),
        "NV_SWITCH_BIOS_5612_0002_890_9610550001"
    );
    let err = driver_rim_id(Arch::Ls10, &gpu("1", "1", "1", "1", "1")).unwrap_err();
    assert_eq!(err, RimIdError::NotApplicable);
    assert_eq!(err.code(), "ERR_RIM_ID_NOT_APPLICABLE");
}

#[test]
fn blackwell_fsp_id_from_apsku_and_hint() {
    // The FSP transcript of the CMW sample: block 52 carries APSKU = 0x065C, and the CMW
    // hints member carries {"fwversion":"01.00.00.00.01"}.
    let cmw: serde_json::Value = serde_json::from_str(&fixture(
        "evidence/blackwell/nvat_blackwell_fsp_evidence.cmw.json",
    ))
    .unwrap();
    let b64url = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let hints = b64url
        .decode(cmw["gpu_0"]["hints"][1].as_str().unwrap())
        .unwrap();
    let hint: serde_json::Value = serde_json::from_slice(&hints).unwrap();
    let report =
        hex::decode(fixture("evidence/blackwell/nvat_blackwell_fsp_DERIVED_report.hex").trim())
            .unwrap();
    let apsku = apsku_from_block(&report).unwrap();
    assert_eq!(apsku, 0x065C);
    let ev = RuntimeEvidence {
        hwmodel: Some("GB100".into()),
        apsku: Some(apsku),
        firmware_version_hint: Some(hint["fwversion"].as_str().unwrap().into()),
        ..RuntimeEvidence::default()
    };
    assert_eq!(
        firmware_rim_id(Arch::Blackwell, &ev).unwrap(),
        "NV_GPU_VBIOS_GB100_065C_0100000001"
    );
    let no_hint = RuntimeEvidence {
        firmware_version_hint: None,
        ..ev
    };
    assert_eq!(
        firmware_rim_id(Arch::Blackwell, &no_hint).unwrap_err(),
        RimIdError::Missing {
            field: "firmware_version_hint"
        }
    );
    assert_eq!(apsku_from_block(b"xxAPSKU\x01"), None);
    assert_eq!(apsku_from_block(b"APSK"), None);
}

#[test]
fn missing_inputs_are_named() {
    let mut ev = gpu("550.90.07", "96.00.9F.00.01", "1010", "0200", "882");
    ev.project_sku = None;
    let err = firmware_rim_id(Arch::Hopper, &ev).unwrap_err();
    assert_eq!(
        err,
        RimIdError::Missing {
            field: "project_sku"
        }
    );
    assert_eq!(err.field(), Some("project_sku"));
    ev.driver_version = Some("\0".into());
    assert_eq!(
        driver_rim_id(Arch::Hopper, &ev).unwrap_err(),
        RimIdError::Missing {
            field: "driver_version"
        }
    );
    ev.driver_version = Some("550 90".into());
    assert_eq!(
        driver_rim_id(Arch::Hopper, &ev).unwrap_err(),
        RimIdError::Invalid {
            field: "driver_version"
        }
    );
}

// ---- RIM service envelope ----

fn envelope(id: &str, rim: &[u8], sha256: Option<String>) -> String {
    let mut body = serde_json::json!({
        "id": id,
        "rim": base64::engine::general_purpose::STANDARD.encode(rim),
        "last_updated": "2025-03-14T15:09:03.011000",
        "rim_format": "TCG",
        "request_id": "ca80a80a-054c-476e-bdd2-7be7e3047fe5",
    });
    if let Some(sha) = sha256 {
        body["sha256"] = sha.into();
    }
    body.to_string()
}

const ID: &str = "NV_GPU_DRIVER_GH100_550.144.03";

#[test]
fn envelope_round_trip_into_verification() {
    let xml = fixture("rims/nvat/NV_GPU_DRIVER_GH100_550.144.03.xml");
    let sha = hex::encode(sha2::Sha256::digest(xml.as_bytes()));
    let opened = open_envelope(
        envelope(ID, xml.as_bytes(), Some(sha.to_uppercase())).as_bytes(),
        ID,
    )
    .unwrap();
    assert_eq!(opened.id, ID);
    assert_eq!(opened.rim, xml.as_bytes());
    assert_eq!(opened.rim_format.as_deref(), Some("TCG"));
    let verified = verify_rim(
        &opened.rim,
        &RimTrust::nvidia(),
        UnixTime::from_secs(1_700_000_000).unwrap(),
    )
    .unwrap();
    assert_eq!(verified.document().meta.colloquial_version, "550.144.03");
    // sha256 is optional.
    open_envelope(envelope(ID, xml.as_bytes(), None).as_bytes(), ID).unwrap();
}

#[test]
fn envelope_sha256_is_over_the_decoded_document() {
    // A real RIM service response published for a CX7 CoRIM (rim_format CORIM): its sha256
    // is the SHA-256 of the base64-decoded rim member.
    let body = r#"{"id":"NV_NIC_FIRMWARE_CX7_28.39.4082-LTS_MCX713104AC-ADA","rim":"2QH02QH20oRYJ6MBOCIDdGFwcGxpY2F0aW9uL3JpbStjYm9yCEuhAKEAZk5WSURJQaBZAgSjAHVDb25uZWN0WC03XzI4LjM5LjQwODIBgVkBcdkB+qIBoQB4HTE1YjMxMDIxMTViMzAwMzMwMC0yOC4zOS40MDgyBKEAgYKhAKEBZk5WSURJQYWiAAEBoQTZAjBEAAAAAaIAAgGhAoGCCFhA+Pbqb6A7sI/P+yi9TNpmpvRq2y663lImANDUpG/fPrwl4XwtejknxYHksQrRlzhZsGTFGpggtB97+nKfIBJCqKIAAwGhAoGCCFhABZivjjixqOC5Y7vbRAW4/tThRa+G0D+qAFjM38dZCesxwRfIGeAqdMOraiM+nZsPKXbPDKqoiVk1Myv4XpBvKKIABAGhAoGCCFhAUs8XLrAtyhkdQF5Z+hd5cbzmR5AvAKxUcLG5mPKpvN73yu/r6d9+hD6ZhqhZwRQh4WK6YtkAVhmsBpMNjeGGt6IABQGhAoGCCFhAasLtx3Usohqois5AevVNWPEJirPftdBjju7Leo92GlkDMjv0fb7tLY097SKVGZQM31GbhTdvtJKtX96m/EhhnQKBogDYIHhJaHR0cHM6Ly9kb2NzLm5kaXMubnZpZGlhLmNvbS9jZXJ0cy9jb3JpbS9udmlkaWEtY29yaW0tc2lnbmVyLWN4Ny1pZC0yLnBlbQGCAVggtQc94Np0/NmSqwaRMVxenH0jnVne/+1CvATlaonzn1pYYOCxC2S5wwewgk0ji4B+oNkTA1XakCk1BWCto8Fg5ra1EKh3evwp9Z9gcESE6pCX4L5d0AmPT4sqkP5O+hUaWUlIWv9M/1Dk/UKd6HghSJXOTeJo4wAMcQXQ8lXU0pDCNA==","sha256":"ca3f3a12d38746dfa9168a3ecd39be4aabb57aab94b83f3b771482e2c3c89e02","last_updated":"2025-03-14T15:09:03.011000","rim_format":"CORIM","request_id":"ca80a80a-054c-476e-bdd2-7be7e3047fe5"}"#;
    let opened = open_envelope(
        body.as_bytes(),
        "NV_NIC_FIRMWARE_CX7_28.39.4082-LTS_MCX713104AC-ADA",
    )
    .unwrap();
    assert_eq!(opened.rim_format.as_deref(), Some("CORIM"));
    assert_eq!(opened.rim.len(), 667);
    // A CoRIM is not a SWID document.
    assert!(verify_rim(
        &opened.rim,
        &RimTrust::nvidia(),
        UnixTime::from_secs(0).unwrap()
    )
    .is_err());
}

#[test]
fn envelope_checks() {
    let xml = b"<x/>";
    let sha = hex::encode(sha2::Sha256::digest(xml));
    let err =
        open_envelope(envelope("NV_OTHER", xml, Some(sha.clone())).as_bytes(), ID).unwrap_err();
    assert!(matches!(err, EnvelopeError::IdMismatch { .. }));
    assert_eq!(err.code(), "ERR_RIM_ENVELOPE_ID_MISMATCH");

    let err = open_envelope(
        envelope(ID, xml, Some(hex::encode([0u8; 32]))).as_bytes(),
        ID,
    )
    .unwrap_err();
    assert_eq!(err, EnvelopeError::Sha256Mismatch);
    let err = open_envelope(envelope(ID, xml, Some("zz".into())).as_bytes(), ID).unwrap_err();
    assert_eq!(err, EnvelopeError::Sha256Mismatch);

    let body = format!(r#"{{"id":"{ID}","rim":"not base64!"}}"#);
    assert_eq!(
        open_envelope(body.as_bytes(), ID).unwrap_err(),
        EnvelopeError::InvalidBase64
    );
    let body = format!(r#"{{"id":"{ID}"}}"#);
    assert_eq!(
        open_envelope(body.as_bytes(), ID).unwrap_err(),
        EnvelopeError::MissingField { field: "rim" }
    );
    let body = format!(r#"{{"id":"{ID}","id":"{ID}","rim":""}}"#);
    assert_eq!(
        open_envelope(body.as_bytes(), ID).unwrap_err().code(),
        "ERR_RIM_ENVELOPE_JSON"
    );
    let body = r#"{"id":5,"rim":""}"#;
    assert_eq!(
        open_envelope(body.as_bytes(), ID).unwrap_err(),
        EnvelopeError::MissingField { field: "id" }
    );
    assert!(open_envelope(b"[]", ID).is_err());
}

fn transcript(rel: &str) -> edgeattest::evidence::Transcript {
    let bytes = hex::decode(fixture(rel).trim()).unwrap();
    edgeattest::evidence::Transcript::parse(&bytes).unwrap()
}

#[test]
fn runtime_values_read_from_real_transcripts() {
    use edgeattest::attest::DeviceKind;
    // The Hopper transcript of the table in `hopper_ids`: the same values, read by the core.
    let ev = RuntimeEvidence::from_transcript(
        &transcript("evidence/hopper/nvat_hopper_580.159.03_report.hex"),
        DeviceKind::Gpu,
        Some("GH100".into()),
        None,
    );
    assert_eq!(
        driver_rim_id(Arch::Hopper, &ev).unwrap(),
        "NV_GPU_DRIVER_GH100_580.159.03"
    );
    assert_eq!(
        firmware_rim_id(Arch::Hopper, &ev).unwrap(),
        "NV_GPU_VBIOS_1010_0205_862_9600740020"
    );
    assert_eq!(ev.measurements.len(), 64);
    assert!(ev.nvdec0_status.is_some());
    assert_eq!(ev.hwmodel.as_deref(), Some("GH100"));
    assert_eq!(
        ev.apsku, None,
        "Hopper evidence has no FSP identifier block"
    );

    let ev = RuntimeEvidence::from_transcript(
        &transcript("evidence/switch/nvat_ls10_96.10.55.00.01_report.hex"),
        DeviceKind::Switch,
        None,
        None,
    );
    assert_eq!(ev.vbios_version.as_deref(), Some("96.10.55.00.01"));
    assert_eq!(ev.driver_version, None);
    assert_eq!(
        firmware_rim_id(Arch::Ls10, &ev).unwrap(),
        "NV_SWITCH_BIOS_5612_0002_890_9610550001"
    );
}
