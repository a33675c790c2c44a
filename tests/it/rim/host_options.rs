//! The RIM options, ids, comparison report and envelope as hosts read and write them
//! (`rim::RimOptions`, `rim::RimIds`, `Comparison::report`, `RimEnvelope`), driven from
//! JSON: the rules the JS `verifyRim`, `rimIds`, `compareSwitchRim` and `openRimEnvelope`
//! run.
#![cfg(not(target_arch = "wasm32"))]

use std::fs;
use std::path::Path;

use base64::Engine;
use edgeattest::attest::Arch;
use edgeattest::rim::{compare_switch, open_envelope, RimIds, RimOptions, RuntimeEvidence};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::json;

/// 2025-07-01, inside the validity of the 550.144.03 driver RIM's signer chain.
const GH100_NOW: UnixTime = UnixTime::from_secs(1_751_328_000).unwrap();
/// 2026-07-01, inside the validity of the LS10 RIM's signer chain.
const LS10_NOW: UnixTime = UnixTime::from_secs(1_782_864_000).unwrap();

fn fixture(rel: &str) -> Vec<u8> {
    fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(rel),
    )
    .unwrap()
}

const DRIVER: &str = "nvidia/rims/nvat/NV_GPU_DRIVER_GH100_550.144.03.xml";
const SWITCH: &str = "nvidia/rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml";

fn options(value: serde_json::Value) -> RimOptions {
    serde_json::from_value(value).unwrap()
}

#[test]
fn rim_options_default_to_nvidias_root_and_take_other_anchors() {
    let xml = fixture(DRIVER);
    let nvidia = options(json!({})).verify(&xml, GH100_NOW).unwrap();
    assert!(nvidia.is_trusted());
    // `now` is the caller's argument, not an option: a member named so is not read.
    let ignored = options(json!({ "now": 0 }))
        .verify(&xml, GH100_NOW)
        .unwrap();
    assert!(ignored.is_trusted());

    let other = String::from_utf8(fixture("nvidia/rims/nvat/incorrect_rim_root.crt")).unwrap();
    let foreign = options(json!({ "trustAnchorPem": other }));
    assert!(!foreign.verify(&xml, GH100_NOW).unwrap().is_trusted());
    // prepare + finish in software agrees with verify.
    let pending = options(json!({})).prepare(&xml, GH100_NOW).unwrap();
    assert_eq!(
        pending.unverified_document().meta.colloquial_version,
        "550.144.03"
    );
}

#[test]
fn bad_rim_options_are_refused() {
    let junk = options(json!({ "trustAnchorPem": "not a certificate" }));
    let error = junk.verify(&fixture(DRIVER), GH100_NOW).unwrap_err();
    assert_eq!(error.code(), "ERR_RIM_CERTIFICATE");
    assert!(junk.trust().is_err());
    for bad in [json!({ "trustAnchorPem": 5 }), json!([]), json!("x")] {
        assert!(
            serde_json::from_value::<RimOptions>(bad.clone()).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn rim_ids_are_written_with_a_null_driver_for_switches() {
    let gpu = RuntimeEvidence {
        driver_version: Some("550.144.03\0".into()),
        vbios_version: Some("96.00.5E.00.01".into()),
        project: Some("1010".into()),
        project_sku: Some("0200".into()),
        chip_sku: Some("882".into()),
        ..RuntimeEvidence::default()
    };
    assert_eq!(
        serde_json::to_value(RimIds::of(Arch::Hopper, &gpu).unwrap()).unwrap(),
        json!({ "driver": "NV_GPU_DRIVER_GH100_550.144.03", "firmware": "NV_GPU_VBIOS_1010_0200_882_96005E0001" })
    );
    let switch = RuntimeEvidence {
        vbios_version: Some("96.10.55.00.01".into()),
        ..RuntimeEvidence::default()
    };
    assert_eq!(
        serde_json::to_value(RimIds::of(Arch::Ls10, &switch).unwrap()).unwrap(),
        json!({ "driver": null, "firmware": "NV_SWITCH_BIOS_5612_0002_890_9610550001" })
    );
    // A GPU without its driver version has no driver id: an error naming it, not a null.
    let missing = RimIds::of(Arch::Hopper, &switch).unwrap_err();
    assert_eq!(missing.code(), "ERR_RIM_ID_MISSING_INPUT");
}

#[test]
fn a_comparison_report_spells_out_its_verdicts() {
    let rim = options(json!({}))
        .verify(&fixture(SWITCH), LS10_NOW)
        .unwrap();
    let empty = compare_switch(rim.document(), &RuntimeEvidence::default()).unwrap();
    let written = serde_json::to_value(empty.report()).unwrap();
    assert_eq!(written["measres"], "fail");
    assert_eq!(written["allMatch"], false);
    assert_eq!(written["measurementsMatch"], false);
    assert!(written["mismatches"].as_array().unwrap().len() > 10);
    assert!(written.get("driverVersion").is_some() && written.get("firmwareVersion").is_some());
}

#[test]
fn an_envelope_is_written_with_its_document_as_bytes() {
    let document = b"<SoftwareIdentity/>";
    let body = json!({
        "id": "NV_X", "rim": base64::engine::general_purpose::STANDARD.encode(document),
        "rim_format": "TCG", "request_id": "r1",
    });
    let envelope = open_envelope(body.to_string().as_bytes(), "NV_X").unwrap();
    let written = serde_json::to_value(&envelope).unwrap();
    assert_eq!(written["rim"], json!(document.to_vec()));
    assert_eq!(written["rimFormat"], "TCG");
    assert_eq!(written["lastUpdated"], serde_json::Value::Null);
    assert_eq!(written["requestId"], "r1");
    let wrong = open_envelope(body.to_string().as_bytes(), "NV_Y").unwrap_err();
    assert_eq!(wrong.code(), "ERR_RIM_ENVELOPE_ID_MISMATCH");
}
