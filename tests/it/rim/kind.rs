//! What a RIM document says it is (`rim::identify_rim`): driver or firmware, and for which
//! architecture, read from the document's own `Meta` — checked against every real and
//! generated RIM of the fixtures, whose file names (NVIDIA's RIM ids) say the answer
//! independently; and documents of neither kind refused.
#![cfg(not(target_arch = "wasm32"))]

use std::fs;
use std::path::{Path, PathBuf};

use edgeattest::attest::Arch;
use edgeattest::rim::{identify_rim, RimError, RimKind};
use edgeattest::ErrorCode;
use serde_json::json;

const DIRS: [&str; 4] = [
    "nvidia/rims/nvat",
    "nvidia/rims/nvtrust",
    "generated/blackwell",
    "generated/ocsp/rims",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Every RIM document of the fixture folders.
fn documents() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = DIRS
        .iter()
        .flat_map(|dir| fs::read_dir(root().join(dir)).unwrap())
        .map(|entry| entry.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("xml" | "swidtag")
            )
        })
        .collect();
    out.sort();
    out
}

/// The kind a file's name gives (NVIDIA's RIM ids, nvtrust's file names): the oracle.
fn kind_by_name(name: &str) -> RimKind {
    if name.contains("DRIVER") || name.to_ascii_lowercase().contains("driver") {
        RimKind::Driver
    } else {
        RimKind::Firmware
    }
}

/// NVAT test files whose names do not say what the document is; the document is believed:
/// (file, its `Meta`'s kind, its `Meta@product`'s architecture).
const NAMED_OTHERWISE: [(&str, RimKind, Arch); 2] = [
    // A Blackwell VBIOS RIM (`97.00.83.00.09`, GB100) used as a driver RIM with a bad chain.
    (
        "incorrect_cert_chain_driver_rim.xml",
        RimKind::Firmware,
        Arch::Blackwell,
    ),
    // A switch BIOS RIM whose `Meta` says GPU and GH100.
    (
        "NV_SWITCH_BIOS_5612_0002_890_9610550001_measurement_mismatch.xml",
        RimKind::Firmware,
        Arch::Hopper,
    ),
];

#[test]
fn every_fixture_rim_is_the_kind_its_id_names() {
    let (mut drivers, mut firmware) = (0, 0);
    for path in documents() {
        let name = path.file_name().unwrap().to_str().unwrap();
        let identity =
            identify_rim(&fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (kind, arch) = match NAMED_OTHERWISE.iter().find(|(file, ..)| *file == name) {
            Some(&(_, kind, arch)) => (kind, arch),
            None if name.contains("SWITCH") => (kind_by_name(name), Arch::Ls10),
            // G525 (B200) and G153 (RTX PRO 6000) are Blackwell boards; GB202 is the CHIP_INFO
            // of the RTX PRO 6000, a chip of the Blackwell row.
            None if ["GB100", "G525", "GB202", "G153"]
                .iter()
                .any(|w| name.contains(w)) =>
            {
                (kind_by_name(name), Arch::Blackwell)
            }
            None => (kind_by_name(name), Arch::Hopper),
        };
        assert_eq!((identity.kind, identity.arch), (kind, Some(arch)), "{name}");
        match identity.kind {
            RimKind::Driver => drivers += 1,
            RimKind::Firmware => firmware += 1,
        }
    }
    // Both kinds are exercised, on real and generated documents.
    assert!(
        drivers >= 10 && firmware >= 20,
        "{drivers} drivers, {firmware} firmware"
    );
}

#[test]
fn an_identity_is_written_as_json() {
    let driver = fs::read(root().join("nvidia/rims/nvat/NV_GPU_DRIVER_GH100_550.144.03.xml"));
    assert_eq!(
        serde_json::to_value(identify_rim(&driver.unwrap()).unwrap()).unwrap(),
        json!({ "kind": "driver", "arch": "HOPPER", "product": "GH100", "version": "550.144.03", "name": "GH100" })
    );
    let switch =
        root().join("nvidia/rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml");
    let identity = serde_json::to_value(identify_rim(&fs::read(switch).unwrap()).unwrap());
    assert_eq!(identity.unwrap()["kind"], "firmware");
}

/// The real driver RIM with `Meta`'s `from` replaced by `to`.
fn edited(from: &str, to: &str) -> Vec<u8> {
    let text =
        fs::read_to_string(root().join("nvidia/rims/nvat/NV_GPU_DRIVER_GH100_550.144.03.xml"))
            .unwrap();
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1).into_bytes()
}

fn refused(xml: &[u8]) -> RimError {
    identify_rim(xml).expect_err("refused")
}

#[test]
fn a_document_of_neither_kind_is_refused_naming_the_attribute() {
    let version = r#"colloquialVersion="550.144.03""#;
    for bad in [
        "1.2",
        "550",
        "550.144.03.01",
        "96.00.5E.00",
        "96.00.5G.00.01",
        "5500.1",
        "",
    ] {
        let error = refused(&edited(version, &format!(r#"colloquialVersion="{bad}""#)));
        assert_eq!(error.code(), "ERR_RIM_SCHEMA", "{bad}");
        assert_eq!(error.field(), Some("Meta@colloquialVersion"), "{bad}");
    }
    // A switch has no driver RIM.
    let switch_driver = refused(&edited(r#"edition="GPU""#, r#"edition="SWITCH""#));
    assert_eq!(switch_driver.field(), Some("Meta@colloquialVersion"));
    for edition in [r#"edition="CPU""#, r#"edition="gpu""#, ""] {
        let error = refused(&edited(r#"edition="GPU""#, edition));
        assert_eq!(error.field(), Some("Meta@edition"), "{edition:?}");
    }
    // The product names no architecture: still a driver RIM, of no known architecture.
    let unknown = identify_rim(&edited(r#"product="GH100""#, r#"product="GX999""#)).unwrap();
    assert_eq!((unknown.kind, unknown.arch), (RimKind::Driver, None));
}

#[test]
fn what_is_not_a_rim_is_refused_before_its_kind() {
    let not_swid = br#"<?xml version="1.0"?><html><body>NV_GPU_DRIVER driver</body></html>"#;
    assert_eq!(refused(not_swid).code(), "ERR_RIM_SCHEMA");
    assert_eq!(
        refused(b"<SoftwareIdentity").code(),
        "ERR_RIM_MALFORMED_XML"
    );
    assert_eq!(refused(&[0xff, 0xfe, b'<']).code(), "ERR_RIM_MALFORMED_XML");
    let huge = vec![b' '; edgeattest::rim::MAX_RIM_BYTES + 1];
    assert_eq!(refused(&huge).code(), "ERR_RIM_TOO_LARGE");
}
