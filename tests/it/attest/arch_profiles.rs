//! The architecture table (issue 18, "one source of truth"): every row is complete and
//! consistent, agrees with what the service accepts and with what NVIDIA's real evidence
//! carries, and a new architecture is a row — shown by a dummy one that runs through the
//! same rules without any other code.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::attest::{
    check_table, validate_request, Arch, ArchProfile, AttestRequestBuilder, ChipRow, DeviceKind,
    DriverRimId, Endpoint, EvidenceInput, EvidenceProfile, FirmwareRimId, FwidPolicy, FwidRule,
    FwidSource, Nonce, ProfileDefect, RimPath,
};
use edgeattest::chain::{ChainOptions, TrustStore};
use edgeattest::evidence::{verify_evidence, DeviceInput, FwidCheck, VerifyContext};
use edgeattest::rim::{driver_rim_id, firmware_rim_id, RimIdError, RuntimeEvidence};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;

const NOW: UnixTime = UnixTime::from_secs(1_790_000_000).unwrap();

fn fixture(path: &str) -> String {
    let full = format!(
        "{}/tests/fixtures/nvidia/evidence/{path}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// A real device of each architecture, and of each chip of a family there is public
/// evidence of: (arch, transcript, chain PEM).
fn real_devices() -> Vec<(Arch, Vec<u8>, String)> {
    [
        (Arch::Hopper, "hopper/nvat_hopper_580.159.03"),
        (Arch::Blackwell, "blackwell/nvat_blackwell_575.32"),
        (Arch::Blackwell, "blackwell/trustee_gb202_595.58.03"),
        (Arch::Ls10, "switch/nvat_ls10_96.10.55.00.01"),
    ]
    .into_iter()
    .map(|(arch, stem)| {
        let transcript = hex::decode(fixture(&format!("{stem}_report.hex")).trim()).unwrap();
        (arch, transcript, fixture(&format!("{stem}_certchain.pem")))
    })
    .collect()
}

#[test]
fn the_table_holds_every_architecture_once() {
    assert_eq!(
        Arch::ALL,
        &[Arch::Hopper, Arch::Blackwell, Arch::Ls10],
        "a new architecture: add its device below and its fixture"
    );
    assert_eq!(
        check_table(Arch::ALL.iter().map(|arch| arch.profile())),
        Ok(())
    );
    assert_eq!(Arch::expected(), "HOPPER, BLACKWELL or LS10");
}

#[test]
fn every_row_round_trips_and_maps_back() {
    for &arch in Arch::ALL {
        let row = arch.profile();
        // The wire name: parse, Display, serde both ways.
        assert_eq!(Arch::parse(row.name), Some(arch));
        assert_eq!(arch.as_str(), row.name);
        assert_eq!(arch.to_string(), row.name);
        let json = serde_json::to_string(&arch).unwrap();
        assert_eq!(json, format!("\"{}\"", row.name));
        assert_eq!(serde_json::from_str::<Arch>(&json).unwrap(), arch);
        // Matching is exact, and serde says what it expected.
        assert_eq!(Arch::parse(&row.name.to_lowercase()), None);
        let error = serde_json::from_str::<Arch>(&json.to_lowercase()).unwrap_err();
        assert!(
            error.to_string().contains("HOPPER, BLACKWELL or LS10"),
            "{error}"
        );
        // Every chip names this architecture and no other.
        for chip in row.chips {
            assert_eq!(Arch::of_chip(chip.word), Some(arch), "{}", chip.word);
            assert_eq!(row.chip(chip.word), Some(chip));
        }
        assert_eq!(arch.device_kind(), row.device_kind);
    }
    assert_eq!(Arch::of_chip("GX999"), None);
    assert_eq!(Arch::of_chip(""), None);
}

#[test]
fn the_device_kind_is_the_endpoint_the_service_accepts_it_on() {
    let (_, transcript, pem) = &real_devices()[0];
    for &arch in Arch::ALL {
        for endpoint in Endpoint::ALL.into_iter().filter(|e| e.has_arch()) {
            let built = AttestRequestBuilder::new(endpoint, Nonce::from_bytes([7; 32]))
                .arch(arch)
                .evidence(EvidenceInput {
                    evidence: transcript,
                    certificate_pem: pem,
                    firmware_version: None,
                })
                .build()
                .and_then(|body| validate_request(endpoint, body.to_json().as_bytes()));
            let fits = endpoint.device_kind() == arch.profile().device_kind;
            assert_eq!(endpoint.arches().contains(&arch), fits, "{arch} {endpoint}");
            match built {
                Ok(request) => {
                    assert!(fits, "{endpoint} accepted {arch}");
                    assert_eq!(request.arch(), arch);
                }
                Err(error) => {
                    assert!(!fits, "{endpoint} refused {arch}: {error}");
                    assert_eq!(
                        error.code(),
                        "ERR_REQUEST_INVALID_ARCH",
                        "{arch} {endpoint}"
                    );
                }
            }
        }
    }
    // Switch V2 has no `arch` member; its devices are the switch architecture.
    assert!(Endpoint::SwitchV2.arches().is_empty());
}

#[test]
fn the_fwid_source_is_where_the_real_certificates_carry_it() {
    let store = TrustStore::nvidia_device_identity().unwrap();
    for (arch, transcript, pem) in real_devices() {
        let verified = verify_evidence(
            DeviceInput {
                evidence: &transcript,
                certificate_pem: &pem,
            },
            &VerifyContext {
                arch,
                nonce: Nonce::from_bytes(transcript[4..36].try_into().unwrap()),
                now: NOW,
                trust_store: &store,
                chain_options: ChainOptions::default(),
                fwid_policy: FwidPolicy::Require,
            },
        )
        .unwrap_or_else(|e| panic!("{arch}: {e}"));
        let row = arch.profile();
        let chain = verified.chain();
        // The chain's chip is one of the row's, its engine one of the architecture's profiles.
        let chip = row.chip(chain.hwmodel_chip().unwrap()).unwrap();
        assert!(EvidenceProfile::of_arch(arch).any(|p| p == verified.profile()));
        let (from_row, other) = match chip.fwid_source {
            FwidSource::Dice => (chain.fwid_dice(), chain.fwid_tcb_info()),
            FwidSource::TcbInfo => (chain.fwid_tcb_info(), chain.fwid_dice()),
            _ => panic!("{arch}: an FWID source this test does not know"),
        };
        match verified.transcript().response.opaque.fwid().unwrap() {
            Some(evidence_fwid) => {
                // The row's extension holds the evidence's FWID; the other one does not.
                assert_eq!(verified.fwid(), FwidCheck::Matched, "{arch}");
                assert_eq!(from_row.as_deref(), Some(evidence_fwid), "{arch}");
                assert_ne!(other.as_deref(), Some(evidence_fwid), "{arch}");
            }
            None => {
                // Switch evidence has no FWID; its profile says so.
                assert_eq!(verified.profile().fwid_rule(), FwidRule::NotCarried);
                assert_eq!(verified.fwid(), FwidCheck::NotApplicable);
            }
        }
    }
}

#[test]
fn the_evidence_profiles_agree_with_their_architecture() {
    for &arch in Arch::ALL {
        let row = arch.profile();
        let profiles: Vec<EvidenceProfile> = EvidenceProfile::of_arch(arch).collect();
        assert!(!profiles.is_empty(), "{arch} has no evidence profile");
        for profile in &profiles {
            assert_eq!(profile.arch(), arch);
            let fits = match profile.rim_path() {
                RimPath::DriverAndFirmware => row.driver_rim.is_some(),
                RimPath::FirmwareOnly => {
                    matches!(row.firmware_rim, FirmwareRimId::Vbios { fsp: true })
                }
                RimPath::Switch => row.device_kind == DeviceKind::Switch,
                _ => false,
            };
            assert!(fits, "{profile:?} does not fit the {arch} row");
        }
        // A row names FSP evidence before verification exactly when the architecture has it.
        let fsp = profiles
            .iter()
            .any(|p| p.rim_path() == RimPath::FirmwareOnly);
        if let FirmwareRimId::Vbios { fsp: named } = row.firmware_rim {
            assert_eq!(named, fsp, "{arch}");
        }
    }
    for profile in EvidenceProfile::ALL {
        assert!(Arch::ALL.contains(&profile.arch()), "{profile:?}");
    }
}

#[test]
fn rim_ids_come_from_the_rows() {
    let gpu = RuntimeEvidence {
        driver_version: Some("580.159.03\0".into()),
        vbios_version: Some("96.00.74.00.20".into()),
        project: Some("1010".into()),
        project_sku: Some("0205".into()),
        chip_sku: Some("862".into()),
        ..RuntimeEvidence::default()
    };
    for &arch in Arch::ALL {
        let row = arch.profile();
        assert_eq!(driver_rim_id(arch, &gpu), row.driver_rim_id(&gpu), "{arch}");
        assert_eq!(
            firmware_rim_id(arch, &gpu),
            row.firmware_rim_id(&gpu),
            "{arch}"
        );
        // Without a certificate chip and without CHIP_INFO: the row's first chip.
        match row.driver_rim {
            Some(rule) => assert!(driver_rim_id(arch, &gpu).unwrap().starts_with(&format!(
                "{}{}_",
                rule.prefix,
                row.default_chip().rim_chip.unwrap()
            ))),
            None => assert_eq!(driver_rim_id(arch, &gpu), Err(RimIdError::NotApplicable)),
        }
    }
}

const RUBIN_CHIP: ChipRow = ChipRow {
    word: "GR100",
    rim_chip: Some("GR100"),
    chip_infos: &[],
    fwid_source: FwidSource::TcbInfo,
};

/// A made-up next GPU, written as its row would be: nothing else is edited for it.
const RUBIN: ArchProfile = ArchProfile {
    name: "RUBIN",
    device_kind: DeviceKind::Gpu,
    chips: &[RUBIN_CHIP],
    driver_rim: Some(DriverRimId {
        prefix: "NV_GPU_CC_DRIVER_",
        chip_info: true,
    }),
    firmware_rim: FirmwareRimId::Vbios { fsp: false },
};

#[test]
fn a_dummy_architecture_is_one_row() {
    assert_eq!(RUBIN.check(), Ok(()));
    let mut table: Vec<&ArchProfile> = Arch::ALL.iter().map(|a| a.profile()).collect();
    table.push(&RUBIN);
    assert_eq!(check_table(table.iter().copied()), Ok(()));

    // Its RIM ids, by the same rules as the real rows.
    let mut evidence = RuntimeEvidence {
        driver_version: Some("590.10".into()),
        vbios_version: Some("98.00.01.00.02".into()),
        project: Some("2020".into()),
        project_sku: Some("0100".into()),
        chip_sku: Some("880".into()),
        ..RuntimeEvidence::default()
    };
    assert_eq!(
        RUBIN.driver_rim_id(&evidence).unwrap(),
        "NV_GPU_CC_DRIVER_GR100_590.10"
    );
    evidence.chip_info = Some("GR102\0".into());
    assert_eq!(
        RUBIN.driver_rim_id(&evidence).unwrap(),
        "NV_GPU_CC_DRIVER_GR102_590.10"
    );
    assert_eq!(
        RUBIN.firmware_rim_id(&evidence).unwrap(),
        "NV_GPU_VBIOS_2020_0100_880_9800010002"
    );
    assert!(RUBIN.names_chip("GR100") && !RUBIN.names_chip("GB100"));

    // The JS row (`architectures()` serialises the same struct): what the page builds its
    // selects and its GPU/switch choice from.
    let json = serde_json::to_value(RUBIN).unwrap();
    assert_eq!(json["name"], "RUBIN");
    assert_eq!(json["deviceKind"], "gpu");
    assert_eq!(json["chips"][0]["word"], "GR100");
    assert_eq!(json["chips"][0]["rimChip"], "GR100");
    assert_eq!(json["chips"][0]["fwidSource"], "tcb-info");
    assert_eq!(json["driverRim"]["prefix"], "NV_GPU_CC_DRIVER_");
    assert_eq!(json["firmwareRim"]["scheme"], "vbios");
    let ls10 = serde_json::to_value(Arch::Ls10.profile()).unwrap();
    assert_eq!(ls10["deviceKind"], "switch");
    assert_eq!(ls10["driverRim"], serde_json::Value::Null);
    assert_eq!(ls10["firmwareRim"]["scheme"], "switchBios");
}

#[test]
fn an_incomplete_row_fails_loudly() {
    let switch = ArchProfile {
        name: "LS20",
        device_kind: DeviceKind::Switch,
        chips: &[ChipRow {
            word: "LS_20",
            rim_chip: Some("LS20"),
            chip_infos: &[],
            fwid_source: FwidSource::Dice,
        }],
        driver_rim: None,
        firmware_rim: FirmwareRimId::SwitchBios {
            prefix: "NV_SWITCH_BIOS_5612_0003_890_",
        },
    };
    assert_eq!(switch.check(), Ok(()));
    let cases = [
        (ArchProfile { name: "", ..RUBIN }, ProfileDefect::Name),
        (
            ArchProfile {
                name: "Rubin",
                ..RUBIN
            },
            ProfileDefect::Name,
        ),
        (
            ArchProfile {
                chips: &[],
                ..RUBIN
            },
            ProfileDefect::Chips,
        ),
        (
            ArchProfile {
                chips: &[ChipRow {
                    word: "GR 100",
                    ..RUBIN_CHIP
                }],
                ..RUBIN
            },
            ProfileDefect::Chips,
        ),
        (
            ArchProfile {
                chips: &[RUBIN_CHIP, RUBIN_CHIP],
                ..RUBIN
            },
            ProfileDefect::Chips,
        ),
        (
            ArchProfile {
                chips: &[ChipRow {
                    rim_chip: Some(""),
                    ..RUBIN_CHIP
                }],
                ..RUBIN
            },
            ProfileDefect::RimChip,
        ),
        // The first chip is the one named when no certificate says: it needs a RIM chip.
        (
            ArchProfile {
                chips: &[ChipRow {
                    rim_chip: None,
                    ..RUBIN_CHIP
                }],
                ..RUBIN
            },
            ProfileDefect::RimChip,
        ),
        (
            ArchProfile {
                driver_rim: None,
                ..RUBIN
            },
            ProfileDefect::DriverRim,
        ),
        (
            ArchProfile {
                driver_rim: Some(DriverRimId {
                    prefix: "",
                    chip_info: false,
                }),
                ..RUBIN
            },
            ProfileDefect::DriverRim,
        ),
        (
            ArchProfile {
                firmware_rim: switch.firmware_rim,
                ..RUBIN
            },
            ProfileDefect::FirmwareRim,
        ),
        (
            ArchProfile {
                driver_rim: RUBIN.driver_rim,
                ..switch
            },
            ProfileDefect::DriverRim,
        ),
        (
            ArchProfile {
                firmware_rim: FirmwareRimId::Vbios { fsp: false },
                ..switch
            },
            ProfileDefect::FirmwareRim,
        ),
        (
            ArchProfile {
                firmware_rim: FirmwareRimId::SwitchBios { prefix: "" },
                ..switch
            },
            ProfileDefect::FirmwareRim,
        ),
    ];
    for (row, defect) in cases {
        assert_eq!(row.check(), Err(defect), "{row:?}");
        assert!(!defect.to_string().is_empty());
    }
    // In a table: a second HOPPER, or a second claim on GH100, names the row.
    let real: Vec<&ArchProfile> = Arch::ALL.iter().map(|a| a.profile()).collect();
    let twice = ArchProfile {
        name: "HOPPER",
        ..RUBIN
    };
    let claims_gh100 = ArchProfile {
        chips: &[
            RUBIN_CHIP,
            ChipRow {
                word: "GH100",
                ..RUBIN_CHIP
            },
        ],
        ..RUBIN
    };
    for (extra, defect) in [
        (&twice, ProfileDefect::DuplicateName),
        (&claims_gh100, ProfileDefect::DuplicateChip),
    ] {
        let table: Vec<&ArchProfile> = real.iter().copied().chain([extra]).collect();
        assert_eq!(
            check_table(table.iter().copied()),
            Err((real.len(), defect))
        );
    }
}

#[test]
fn the_blackwell_family_names_its_rims_per_chip() {
    let row = Arch::Blackwell.profile();
    let words: Vec<&str> = row.chips.iter().map(|chip| chip.word).collect();
    assert_eq!(words, ["GB100", "GB20X", "GB110"]);
    // Every Blackwell leaf seen carries its FWID in TcbInfo (DiceTcbInfoAlias).
    assert!(row
        .chips
        .iter()
        .all(|chip| chip.fwid_source == FwidSource::TcbInfo));
    let missing = Err(RimIdError::Missing { field: "chip_info" });
    let foreign = Err(RimIdError::Invalid { field: "hwmodel" });
    // (certificate chip, CHIP_INFO, driver RIM id)
    type Case<'a> = (
        Option<&'a str>,
        Option<&'a str>,
        Result<&'a str, RimIdError>,
    );
    let cases: [Case<'_>; 8] = [
        // No certificate (a host prefetching): the first chip, as NVIDIA's C++ SDK names it.
        (None, None, Ok("NV_GPU_CC_DRIVER_GB100_595.58.03")),
        (Some("GB100"), None, Ok("NV_GPU_CC_DRIVER_GB100_595.58.03")),
        (Some("GB110"), None, Ok("NV_GPU_CC_DRIVER_GB110_595.58.03")),
        // GB20X names several dies: only CHIP_INFO says which.
        (Some("GB20X"), None, missing),
        (
            Some("GB20X"),
            Some("GB202\0"),
            Ok("NV_GPU_CC_DRIVER_GB202_595.58.03"),
        ),
        // CHIP_INFO wins over the certificate chip's RIM chip.
        (
            Some("GB100"),
            Some("GB202"),
            Ok("NV_GPU_CC_DRIVER_GB202_595.58.03"),
        ),
        (Some("GB20Y"), None, foreign.clone()),
        (Some("GH100"), None, foreign),
    ];
    for (hwmodel, chip_info, expected) in cases {
        let evidence = RuntimeEvidence {
            driver_version: Some("595.58.03".into()),
            hwmodel: hwmodel.map(String::from),
            chip_info: chip_info.map(String::from),
            ..RuntimeEvidence::default()
        };
        assert_eq!(
            row.driver_rim_id(&evidence),
            expected.map(String::from),
            "{hwmodel:?} {chip_info:?}"
        );
    }
    // RIM documents named by a chip's RIM chip or CHIP_INFO are Blackwell's.
    for chip in ["GB100", "GB202", "GB110"] {
        assert!(row.names_rim_chip(chip), "{chip}");
    }
    assert!(!row.names_rim_chip("GB20X") && !row.names_rim_chip("GH100"));
}

#[test]
fn rim_ids_read_back_by_the_rows() {
    use edgeattest::rim::{RimIdParts, RimKind};
    let read = |id: &str| {
        Arch::ALL
            .iter()
            .find_map(|arch| arch.profile().read_rim_id(id))
    };
    let parts = |kind, device_kind, chip: Option<&str>, version: &str| {
        Some(RimIdParts {
            kind,
            device_kind,
            chip: chip.map(String::from),
            version: version.into(),
        })
    };
    use DeviceKind::{Gpu, Switch};
    use RimKind::{Driver, Firmware};
    for (id, expected) in [
        (
            "NV_GPU_DRIVER_GH100_550.90.07",
            parts(Driver, Gpu, Some("GH100"), "550.90.07"),
        ),
        (
            "NV_GPU_CC_DRIVER_GB202_595.58.03",
            parts(Driver, Gpu, Some("GB202"), "595.58.03"),
        ),
        (
            "NV_GPU_CC_DRIVER_GB110_610.43.02",
            parts(Driver, Gpu, Some("GB110"), "610.43.02"),
        ),
        // Firmware ids name the board, never the chip.
        (
            "NV_GPU_VBIOS_G153_0210_895_9802810001",
            parts(Firmware, Gpu, None, "9802810001"),
        ),
        (
            "NV_GPU_VBIOS_GB100_065C_0100000001",
            parts(Firmware, Gpu, None, "0100000001"),
        ),
        (
            "NV_SWITCH_BIOS_5612_0002_890_9610550001",
            parts(Firmware, Switch, None, "9610550001"),
        ),
        ("NV_GPU_OTHER_GB100_1", None),
        ("NV_GPU_CC_DRIVER_GB202", None),
    ] {
        assert_eq!(read(id), expected, "{id}");
    }
}
