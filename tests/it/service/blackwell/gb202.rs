//! The RTX PRO 6000 Blackwell Server Edition (chip word `GB20X`, `CHIP_INFO` `GB202`) end to end
//! through the service, on its real report and NVIDIA chain. NVIDIA publishes no RIM the
//! fixtures could hold for it, so its RIMs are the generated ones of
//! `tests/fixtures/generated/blackwell/generate_gb202.py`, signed by the suite's test RIM PKI
//! (trusted as an extra RIM anchor, as for the GB100 sample): the device is NVIDIA's, its
//! reference values are the test's.

use super::*;

fn gb202() -> Item {
    Item {
        evidence: hex_report("blackwell/trustee_gb202_595.58.03_report.hex"),
        chain: text("nvidia/evidence/blackwell/trustee_gb202_595.58.03_certchain.pem"),
        hint: None,
    }
}

fn ids() -> (String, String) {
    (
        manifest("blackwell_gb202", "driver"),
        manifest("blackwell_gb202", "vbios"),
    )
}

#[test]
fn the_rtx_pro_6000_passes_with_rims_named_by_its_chip_info() {
    let (driver, vbios) = ids();
    assert_eq!(driver, "NV_GPU_CC_DRIVER_GB202_595.58.03");
    assert_eq!(vbios, "NV_GPU_VBIOS_G153_0210_895_9802810001");
    // An empty store asks for exactly the ids the generator derived on its own, before and
    // after verification.
    let empty = service(nvidia_devices(), &[]);
    let request = request("BLACKWELL", "3.0", &[gb202()]);
    assert_eq!(
        empty.missing_rims(&request),
        [driver.clone(), vbios.clone()]
    );
    assert_eq!(
        attest(&empty, "BLACKWELL", "3.0", &[gb202()]).fetched,
        [driver.clone(), vbios.clone()]
    );
    let service = service(
        nvidia_devices(),
        &[
            (&driver, &format!("{driver}.xml")),
            (&vbios, &format!("{vbios}.xml")),
        ],
    );
    for version in ["3.0", "4.0"] {
        let attested = attest(&service, "BLACKWELL", version, &[gb202()]);
        assert!(attested.fetched.is_empty());
        assert_eq!(attested.overall["x-nvidia-overall-att-result"], true);
        let gpu = &attested.devices[0];
        assert!(gpu.get("x-nvidia-error-details").is_none(), "{gpu:?}");
        for (claim, value) in [
            ("measres", json!("success")),
            ("hwmodel", json!("GB20X")),
            (
                "ueid",
                json!("408762037488965241743361667085904172082023387885"),
            ),
            ("x-nvidia-gpu-driver-version", json!("595.58.03")),
            ("x-nvidia-gpu-vbios-version", json!("98.02.81.00.01")),
            ("x-nvidia-gpu-driver-rim-fetched", json!(true)),
            ("x-nvidia-gpu-driver-rim-version-match", json!(true)),
            ("x-nvidia-gpu-vbios-rim-fetched", json!(true)),
            ("x-nvidia-gpu-vbios-rim-version-match", json!(true)),
            (
                "x-nvidia-gpu-attestation-report-cert-chain-fwid-match",
                json!(true),
            ),
            ("x-nvidia-gpu-arch-check", json!(true)),
        ] {
            assert_eq!(gpu[claim], value, "{version} {claim}");
        }
    }
}

#[test]
fn a_changed_driver_measurement_at_index_52_fails_the_rtx_pro_6000() {
    let (driver, vbios) = ids();
    let service = service(
        nvidia_devices(),
        &[
            (&driver, &format!("{driver}_mismatch_52.xml")),
            (&vbios, &format!("{vbios}.xml")),
        ],
    );
    let attested = attest(&service, "BLACKWELL", "4.0", &[gb202()]);
    assert_eq!(attested.overall["x-nvidia-overall-att-result"], false);
    let gpu = &attested.devices[0];
    assert_eq!(gpu["measres"], "fail");
    let records = &gpu["x-nvidia-mismatch-measurement-records"];
    assert_eq!(records.as_array().map(Vec::len), Some(1), "{records}");
    assert_eq!(records[0]["index"], 52, "{records}");
    assert_eq!(records[0]["measurementSource"], "Driver", "{records}");
}

#[test]
fn rims_known_only_by_their_content_are_found_for_blackwell_ids() {
    // Documents added without their ids (a folder of files named otherwise) are found by what
    // they say: a GB202 driver RIM for the GB202 id, GPU firmware RIMs of Blackwell boards for
    // their VBIOS ids — not only of GH100 ones.
    let (driver, vbios) = ids();
    let gb100_vbios = manifest("blackwell_gsp", "vbios");
    let mut service = service(nvidia_devices(), &[]);
    for (name, file) in [
        ("rtx-pro-6000-driver.xml", format!("{driver}.xml")),
        ("rtx-pro-6000-vbios.xml", format!("{vbios}.xml")),
        ("b200-vbios.xml", format!("{gb100_vbios}.xml")),
    ] {
        service
            .rims_mut()
            .insert_named(name, generated(&file))
            .unwrap();
    }
    for id in [&driver, &vbios, &gb100_vbios] {
        assert!(service.rims_mut().contains(id), "{id}");
    }
    // A driver id of another chip, a firmware id of another version, a switch id: not these.
    for id in [
        "NV_GPU_CC_DRIVER_GB110_595.58.03",
        "NV_GPU_DRIVER_GH100_595.58.03",
        "NV_GPU_VBIOS_G153_0210_895_9802810002",
        "NV_SWITCH_BIOS_5612_0002_890_9802810001",
    ] {
        assert!(!service.rims_mut().contains(id), "{id}");
    }
    let attested = attest(&service, "BLACKWELL", "3.0", &[gb202()]);
    assert!(attested.fetched.is_empty());
    assert_eq!(attested.overall["x-nvidia-overall-att-result"], true);
}
