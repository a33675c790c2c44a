//! What the service refuses: a changed measurement, a hint naming no RIM, a RIM version that
//! is not the hint's, a RIM chain ending at an untrusted root, an expired RIM chain.

use serde_json::{json, Value};

use super::{
    attest, block_value, fsp, fsp_service, generated, gsp, manifest, nvidia_devices, service,
    FSP_HINT, ISSUER,
};
use edgeattest::crypto::SigningKey;
use edgeattest::rim::RimTrust;
use edgeattest::service::{KeyRing, Service, ServiceConfig};

#[test]
fn a_changed_measurement_fails_with_its_index() {
    let attested = attest(
        &fsp_service("_mismatch_2"),
        "BLACKWELL",
        "4.0",
        &[fsp(Some(FSP_HINT))],
    );
    assert_eq!(attested.overall["x-nvidia-overall-att-result"], false);
    let gpu = &attested.devices[0];
    assert_eq!(gpu["measres"], "fail");
    assert_eq!(gpu["secboot"], Value::Null);
    assert_eq!(gpu["dbgstat"], Value::Null);
    let records = gpu["x-nvidia-mismatch-measurement-records"]
        .as_array()
        .unwrap();
    assert_eq!(records.len(), 1, "{records:?}");
    // RIM index 2 is SPDM block 3, a 48-byte digest; the golden value differs in its last bit.
    let block = block_value(&fsp(None).evidence, 3);
    let mut golden = block.clone();
    *golden.last_mut().unwrap() ^= 1;
    assert_eq!(
        records[0],
        json!({
            "index": 2, "goldenSize": 48, "goldenValue": hex::encode(&golden),
            "runtimeSize": 48, "runtimeValue": hex::encode(&block),
            "measurementSource": "Firmware",
        })
    );

    // A GSP driver measurement: the record says it came from the driver RIM.
    let driver = manifest("blackwell_gsp", "driver");
    let vbios = manifest("blackwell_gsp", "vbios");
    let service = service(
        nvidia_devices(),
        &[
            (&driver, &format!("{driver}_mismatch_22.xml")),
            (&vbios, &format!("{vbios}.xml")),
        ],
    );
    let attested = attest(&service, "BLACKWELL", "4.0", &[gsp()]);
    let gpu = &attested.devices[0];
    assert_eq!(gpu["measres"], "fail");
    let records = gpu["x-nvidia-mismatch-measurement-records"]
        .as_array()
        .unwrap();
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0]["index"], 22);
    assert_eq!(records[0]["measurementSource"], "Driver");
    assert_eq!(
        records[0]["runtimeValue"],
        hex::encode(block_value(&gsp().evidence, 23))
    );
}

#[test]
fn a_wrong_firmware_version_hint_finds_no_rim() {
    let attested = attest(
        &fsp_service(""),
        "BLACKWELL",
        "3.0",
        &[fsp(Some("01.00.00.00.02"))],
    );
    // The hint names another RIM, which the service does not have.
    assert_eq!(attested.fetched, ["NV_GPU_VBIOS_GB100_065C_0100000002"]);
    let gpu = &attested.devices[0];
    assert_eq!(gpu["x-nvidia-error-details"]["code"], 5009);
    assert_eq!(
        gpu["x-nvidia-error-details"]["message"],
        "RIM_BUNDLE_NOT_FOUND"
    );
    assert_eq!(gpu["x-nvidia-gpu-vbios-rim-fetched"], false);
    assert_eq!(attested.overall["x-nvidia-overall-att-result"], false);

    // Served that RIM under the other id anyway: the document is not the RIM that id names
    // (its version is not the id's), so it is refused before its measurements are compared.
    let mut service = fsp_service("");
    service.rims_mut().insert(
        "NV_GPU_VBIOS_GB100_065C_0100000002",
        generated(&format!("{}.xml", manifest("blackwell_fsp", "vbios"))),
    );
    let attested = attest(&service, "BLACKWELL", "3.0", &[fsp(Some("01.00.00.00.02"))]);
    let gpu = &attested.devices[0];
    assert_eq!(gpu["measres"], "fail");
    assert_eq!(
        gpu["x-nvidia-gpu-vbios-rim-version-match"],
        Value::Null,
        "{gpu:?}"
    );
    let details = gpu["x-nvidia-error-details"].to_string();
    assert!(
        details.contains("the RIM is not NV_GPU_VBIOS_GB100_065C_0100000002")
            && details.contains("another version"),
        "{gpu:?}"
    );
}

#[test]
fn a_rim_signed_under_an_untrusted_root_is_refused() {
    let attested = attest(
        &fsp_service("_untrusted_root"),
        "BLACKWELL",
        "3.0",
        &[fsp(Some(FSP_HINT))],
    );
    let gpu = &attested.devices[0];
    assert_eq!(gpu["x-nvidia-error-details"]["code"], 4015, "{gpu:?}");
    assert_eq!(
        gpu["x-nvidia-gpu-vbios-rim-cert-chain"]["x-nvidia-cert-status"],
        "invalid"
    );
    assert_eq!(gpu["secboot"], Value::Null);
    assert_eq!(attested.overall["x-nvidia-overall-att-result"], false);
    // The same document is refused without the extra anchor too: NVIDIA's root alone.
    let mut nvidia_only = Service::new(
        ServiceConfig {
            issuer: Some(ISSUER.into()),
            ocsp_url: None,
            ..ServiceConfig::default()
        },
        KeyRing::new(SigningKey::generate(&[5u8; 48]).unwrap(), None),
        nvidia_devices(),
        RimTrust::nvidia(),
        1,
    );
    let id = manifest("blackwell_fsp", "vbios");
    nvidia_only
        .rims_mut()
        .insert(&id, generated(&format!("{id}.xml")));
    let attested = attest(&nvidia_only, "BLACKWELL", "3.0", &[fsp(Some(FSP_HINT))]);
    assert_eq!(attested.devices[0]["x-nvidia-error-details"]["code"], 4015);
}

#[test]
fn an_expired_rim_chain_is_refused() {
    let attested = attest(
        &fsp_service("_expired_chain"),
        "BLACKWELL",
        "3.0",
        &[fsp(Some(FSP_HINT))],
    );
    let gpu = &attested.devices[0];
    assert_eq!(gpu["x-nvidia-error-details"]["code"], 4011, "{gpu:?}");
    assert_eq!(
        gpu["x-nvidia-gpu-vbios-rim-cert-chain"],
        json!({
            "x-nvidia-cert-status": "expired",
            "x-nvidia-cert-ocsp-status": "unknown",
            "x-nvidia-cert-expiration-date": "2024-06-01T00:00:00Z",
            "x-nvidia-cert-revocation-reason": null,
        })
    );
    assert_eq!(attested.overall["x-nvidia-overall-att-result"], false);
}
