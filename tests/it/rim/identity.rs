//! A document used for a RIM id must be that RIM by its own content (`check_rim_id`), not
//! only by the name it was stored or fetched under.
#![cfg(not(target_arch = "wasm32"))]

use std::fs;
use std::path::Path;

use edgeattest::rim::{check_rim_id, prepare_rim, RimDocument, RimError, RimTrust};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;

use crate::verdicts::{RIM_DIRS, RIM_NOW};

fn root() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/nvidia"
    ))
}

/// The document of a fixture whose digest holds (its signature is not needed here).
fn document(rel: &str) -> RimDocument {
    let xml = fs::read(root().join(rel)).unwrap();
    prepare_rim(
        &xml,
        &RimTrust::nvidia(),
        UnixTime::from_secs(RIM_NOW).unwrap(),
    )
    .unwrap()
    .unverified_document()
    .clone()
}

/// The RIM id a fixture is published under (NVIDIA's ids; nvtrust names its files by board).
fn id_of(name: &str) -> Option<String> {
    let stem = name
        .strip_suffix(".xml")
        .or_else(|| name.strip_suffix(".swidtag"))?;
    Some(match stem {
        "incorrect_signature_driver_rim" => "NV_GPU_DRIVER_GH100_550.144.03".into(),
        // A Blackwell VBIOS RIM (97.00.83.00.09) on a board these fixtures do not name.
        "incorrect_cert_chain_driver_rim" => "NV_GPU_VBIOS_G525_0200_885_9700830009".into(),
        "Driver_RIM_test_no_gpu" => "NV_GPU_DRIVER_GH100_545.00".into(),
        _ if stem.starts_with("NV_") => ["_measurement_mismatch", "_expired", "_invalid_signature"]
            .iter()
            .fold(stem, |s, suffix| s.strip_suffix(suffix).unwrap_or(s))
            .into(),
        _ if stem.starts_with("switchVBIOSRim_") => stem["switchVBIOSRim_".len()..].into(),
        _ => {
            let board = stem
                .strip_suffix("_PROD")
                .or_else(|| stem.strip_suffix("_test_no_gpu"))?;
            format!("NV_GPU_VBIOS_{}", board.to_ascii_uppercase())
        }
    })
}

#[test]
fn every_real_fixture_is_the_rim_of_its_id() {
    let mut checked = 0;
    for dir in RIM_DIRS {
        for entry in fs::read_dir(root().join(dir)).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            let Some(id) = id_of(&name) else { continue };
            let xml = fs::read(root().join(dir).join(&name)).unwrap();
            // Fixtures edited after signing fail at their digest, before any id is looked at.
            let Ok(pending) = prepare_rim(
                &xml,
                &RimTrust::nvidia(),
                UnixTime::from_secs(RIM_NOW).unwrap(),
            ) else {
                continue;
            };
            check_rim_id(pending.unverified_document(), &id)
                .unwrap_or_else(|e| panic!("{dir}/{name} as {id}: {e}"));
            checked += 1;
        }
    }
    // 26 from nvtrust, 5 from NVAT (the four that verify and the bad-signature one).
    assert_eq!(checked, 31);
}

fn refused(document: &RimDocument, id: &str, problem: &str) {
    let error = check_rim_id(document, id).unwrap_err();
    assert_eq!(error.code(), "ERR_RIM_ID_MISMATCH", "{id}: {error}");
    assert!(
        matches!(error, RimError::IdMismatch { .. }),
        "{id}: {error:?}"
    );
    let text = error.to_string();
    assert!(
        text.starts_with(&format!("the RIM is not {id}: ")) && text.contains(problem),
        "{id}: {text}"
    );
}

#[test]
fn a_real_rim_under_another_id_is_refused() {
    let driver = document("rims/nvat/NV_GPU_DRIVER_GH100_550.144.03.xml");
    let vbios = document("rims/nvtrust/1010_0200_882_96005E0001_PROD.swidtag");
    let switch = document("rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml");
    // Another version of the same kind and chip: the envelope's id alone would pass it.
    refused(&driver, "NV_GPU_DRIVER_GH100_535.86.09", "another version");
    refused(
        &driver,
        "NV_GPU_CC_DRIVER_GB100_570.124.03",
        "another version",
    );
    refused(
        &vbios,
        "NV_GPU_VBIOS_1010_0200_882_96005E0003",
        "another version",
    );
    // Another chip, kind or platform.
    refused(&driver, "NV_GPU_DRIVER_GB100_550.144.03", "another chip");
    refused(
        &vbios,
        "NV_GPU_DRIVER_GH100_96.00.5E.00.01",
        "names a driver RIM",
    );
    refused(
        &driver,
        "NV_GPU_VBIOS_1010_0200_882_550.144.03",
        "names a firmware RIM",
    );
    refused(
        &vbios,
        "NV_SWITCH_BIOS_5612_0002_890_96005E0001",
        "other platform",
    );
    refused(
        &switch,
        "NV_GPU_VBIOS_5612_0002_890_9610550001",
        "other platform",
    );
    // An id of no known form names no document.
    refused(&driver, "GH100_550.144.03", "no known form");
    refused(&driver, "NV_GPU_DRIVER_GH100", "no known form");
    // Its own ids pass, the firmware version in either case.
    check_rim_id(&driver, "NV_GPU_DRIVER_GH100_550.144.03").unwrap();
    check_rim_id(&driver, "NV_GPU_CC_DRIVER_GH100_550.144.03").unwrap();
    check_rim_id(&vbios, "NV_GPU_VBIOS_1010_0200_882_96005e0001").unwrap();
    check_rim_id(&switch, "NV_SWITCH_BIOS_5612_0002_890_9610550001").unwrap();
}

/// One rule for both formats: a document that states no version is not the RIM any id
/// names (every RIM id names a version). An XML RIM without one is refused (a missing
/// `colloquialVersion` when read, an empty one as of neither kind); a CoRIM without a
/// `version-map` measurement is refused by the id check.
#[test]
fn a_document_that_states_no_version_is_refused_in_either_format() {
    let id = "NV_SWITCH_BIOS_5612_0002_890_9610550001";
    let mut switch =
        document("rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml");
    check_rim_id(&switch, id).unwrap();
    switch.meta.colloquial_version.clear();
    // An XML RIM's version also tells its kind: without one it is of neither kind.
    let error = check_rim_id(&switch, id).unwrap_err();
    assert_eq!(error.code(), "ERR_RIM_SCHEMA");
    assert_eq!(error.field(), Some("Meta@colloquialVersion"));

    // The same records as a signed CoRIM (each record's first golden value), without and
    // with its version (a `version-map` measurement without `mkey`).
    use super::corim::{corim_map, map, measurement, NOW};
    use super::corim_signed::{content_type, sign, test_trust};
    use edgeattest::cbor::Cbor;
    let xml =
        super::corim::xml_rim("nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml");
    let records: Vec<_> = xml
        .active_measurements()
        .map(|record| measurement(record.index + 1, &record.alternatives[0]))
        .collect();
    let version = map(vec![(
        1,
        map(vec![(
            0,
            map(vec![(0, Cbor::text(&xml.meta.colloquial_version))]),
        )]),
    )]);
    let with_version = [vec![version], records.clone()].concat();
    let unversioned = sign(
        &corim_map(&xml.name, vec![records]).encode(),
        content_type(),
    );
    let pending = prepare_rim(&unversioned, &test_trust(), NOW).unwrap();
    let error = pending.check_id(id).unwrap_err();
    assert_eq!(error.code(), "ERR_RIM_ID_MISMATCH");
    assert!(error.to_string().contains("states no version"), "{error}");
    let verified = edgeattest::rim::verify_rim(&unversioned, &test_trust(), NOW).unwrap();
    assert_eq!(verified.check_id(id).unwrap_err(), error);

    let versioned = sign(
        &corim_map(&xml.name, vec![with_version]).encode(),
        content_type(),
    );
    let pending = prepare_rim(&versioned, &test_trust(), NOW).unwrap();
    pending.check_id(id).unwrap();
    let other = "NV_SWITCH_BIOS_5612_0002_890_9610550002";
    let error = pending.check_id(other).unwrap_err();
    assert!(error.to_string().contains("another version"), "{error}");
}
