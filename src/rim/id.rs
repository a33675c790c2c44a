//! RIM ids: which documents a device's evidence is compared with (NVIDIA's verifiers build
//! the same strings). The prefixes, chips and which scheme an architecture uses are its row of
//! the architecture table ([`ArchProfile`]); the schemes are here.
//!
//! | architecture | driver RIM | firmware RIM |
//! |---|---|---|
//! | Hopper | `NV_GPU_DRIVER_GH100_<driver>` | `NV_GPU_VBIOS_<project>_<project sku>_<chip sku>_<vbios without dots>` |
//! | Blackwell (GSP) | `NV_GPU_CC_DRIVER_<CHIP_INFO>_<driver>`; without `CHIP_INFO` the certificate chip's RIM chip (`GB100`, `GB110`; a `GB20X` device must carry `CHIP_INFO`) | as Hopper |
//! | Blackwell (FSP) | – | `NV_GPU_VBIOS_<hwmodel>_<APSKU>_<firmware_version hint without dots>` |
//! | LS10 | – (no driver RIM) | `NV_SWITCH_BIOS_5612_0002_890_<bios without dots>` |

use alloc::format;
use alloc::string::String;

use serde::Serialize;

use super::error::RimIdError;
use super::runtime_evidence::RuntimeEvidence;
use crate::attest::{Arch, ArchProfile, DeviceKind, FirmwareRimId};
use crate::attest::{EvidenceProfile, RimPath};

/// Which of a device's RIMs: `driver` or `firmware` as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum RimKind {
    /// The GPU driver RIM.
    Driver,
    /// The VBIOS / switch BIOS / FSP firmware RIM.
    Firmware,
}

/// The RIM ids a device needs (the JS `rimIds`): `driver` is `None` for an architecture
/// without a driver RIM (switches).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RimIds {
    /// The driver RIM id.
    pub driver: Option<String>,
    /// The firmware RIM id.
    pub firmware: String,
}

impl RimIds {
    /// The ids of an `arch` device from its transcript's values ([`driver_rim_id`] where the
    /// architecture's row has a driver RIM, and [`firmware_rim_id`]).
    ///
    /// # Errors
    /// As [`driver_rim_id`] and [`firmware_rim_id`].
    pub fn of(arch: Arch, evidence: &RuntimeEvidence) -> Result<Self, RimIdError> {
        let driver = match arch.profile().driver_rim {
            Some(_) => Some(driver_rim_id(arch, evidence)?),
            None => None,
        };
        Ok(Self {
            driver,
            firmware: firmware_rim_id(arch, evidence)?,
        })
    }
}

/// What a RIM id names ([`ArchProfile::read_rim_id`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RimIdParts {
    /// Driver or firmware.
    pub kind: RimKind,
    /// A GPU's or a switch's.
    pub device_kind: DeviceKind,
    /// The chip the id names (driver ids); `None` where the id names none (firmware ids name
    /// the board).
    pub chip: Option<String>,
    /// The version as written in the id: `595.58.03`, `9802810001`.
    pub version: String,
}

/// The prefix of every GPU firmware RIM id (GSP VBIOS and FSP firmware).
const VBIOS_PREFIX: &str = "NV_GPU_VBIOS_";

/// Longest id component accepted.
const MAX_COMPONENT: usize = 64;

/// The driver RIM id of a GPU.
///
/// # Errors
/// [`RimIdError::NotApplicable`] for switches; [`RimIdError::Missing`] or
/// [`RimIdError::Invalid`] when the driver version (or `CHIP_INFO`) is absent or unusable.
pub fn driver_rim_id(arch: Arch, evidence: &RuntimeEvidence) -> Result<String, RimIdError> {
    arch.profile().driver_rim_id(evidence)
}

/// The firmware RIM id of a GPU or switch, from its transcript alone (before verification:
/// a host prefetching, the wasm `rimIds`).
///
/// Without a verified chain the evidence's kind is not known yet, so a Blackwell report
/// without `PROJECT` but with an `APSKU` is taken for FSP evidence. Verified evidence is
/// named by its profile instead ([`firmware_rim_id_of`]).
///
/// # Errors
/// [`RimIdError::Missing`] or [`RimIdError::Invalid`] for an absent or unusable input.
pub fn firmware_rim_id(arch: Arch, evidence: &RuntimeEvidence) -> Result<String, RimIdError> {
    arch.profile().firmware_rim_id(evidence)
}

/// The firmware RIM id of verified evidence, chosen by its profile — never by which tags
/// the transcript carries: FSP evidence is always named by chip, `APSKU` and the request's
/// `firmware_version` hint, GSP evidence always by its board and VBIOS version.
///
/// # Errors
/// [`RimIdError::Missing`] or [`RimIdError::Invalid`] for an absent or unusable input.
pub fn firmware_rim_id_of(
    profile: EvidenceProfile,
    evidence: &RuntimeEvidence,
) -> Result<String, RimIdError> {
    match (profile.rim_path(), profile.arch().profile().firmware_rim) {
        (RimPath::FirmwareOnly, _) => fsp_firmware_id(evidence),
        (_, FirmwareRimId::SwitchBios { prefix }) => switch_bios_id(prefix, evidence),
        _ => vbios_id(evidence),
    }
}

/// The RIM-id rules of an architecture's row, for any row (the table's, or a test's).
impl ArchProfile {
    /// The driver RIM id: `<prefix><chip>_<driver>`, the chip being `CHIP_INFO` where the row
    /// says so and the evidence has it, else the RIM chip of the certificate's chip
    /// ([`RuntimeEvidence::hwmodel`]; the row's first chip when no certificate says).
    ///
    /// # Errors
    /// As [`driver_rim_id`]; [`RimIdError::Invalid`] (`hwmodel`) for a chip not of this row,
    /// [`RimIdError::Missing`] (`chip_info`) for a chip whose RIMs only `CHIP_INFO` names.
    pub fn driver_rim_id(&self, evidence: &RuntimeEvidence) -> Result<String, RimIdError> {
        let driver = component(evidence.driver_version.as_deref(), "driver_version")?;
        let rule = self.driver_rim.ok_or(RimIdError::NotApplicable)?;
        let chip = match trim_nul(evidence.chip_info.as_deref()) {
            Some(chip) if rule.chip_info => component(Some(chip), "chip_info")?,
            _ => self.rim_chip_of(evidence.hwmodel.as_deref())?,
        };
        Ok(format!("{}{chip}_{driver}", rule.prefix))
    }

    /// The RIM chip of a certificate chip word of this row (the first chip's without one).
    fn rim_chip_of(&self, hwmodel: Option<&str>) -> Result<&'static str, RimIdError> {
        let chip = match trim_nul(hwmodel) {
            Some(word) => self
                .chip(word)
                .ok_or(RimIdError::Invalid { field: "hwmodel" })?,
            None => self.default_chip(),
        };
        chip.rim_chip
            .ok_or(RimIdError::Missing { field: "chip_info" })
    }

    /// What a RIM id of this row's schemes names, read back: its kind, the chip where the id
    /// has one (driver ids), and its version as written in the id (firmware versions without
    /// dots). `None` for an id of none of the row's schemes. The inverse of the ids above,
    /// for a store that indexes documents by what they say about themselves.
    pub fn read_rim_id(&self, id: &str) -> Option<RimIdParts> {
        if let Some(rule) = self.driver_rim {
            if let Some(rest) = id.strip_prefix(rule.prefix) {
                let (chip, version) = rest.split_once('_')?;
                return Some(RimIdParts {
                    kind: RimKind::Driver,
                    device_kind: self.device_kind,
                    chip: Some(chip.into()),
                    version: version.into(),
                });
            }
        }
        let rest = match self.firmware_rim {
            FirmwareRimId::SwitchBios { prefix } => id.strip_prefix(prefix)?,
            // GSP and FSP ids alike: the board or APSKU, never the chip's RIM name.
            FirmwareRimId::Vbios { .. } => id.strip_prefix(VBIOS_PREFIX)?,
        };
        Some(RimIdParts {
            kind: RimKind::Firmware,
            device_kind: self.device_kind,
            chip: None,
            version: rest.rsplit('_').next()?.into(),
        })
    }

    /// The firmware RIM id from the transcript's values alone (see [`firmware_rim_id`]).
    ///
    /// # Errors
    /// As [`firmware_rim_id`].
    pub fn firmware_rim_id(&self, evidence: &RuntimeEvidence) -> Result<String, RimIdError> {
        match self.firmware_rim {
            FirmwareRimId::SwitchBios { prefix } => switch_bios_id(prefix, evidence),
            FirmwareRimId::Vbios { fsp: true }
                if evidence.project.is_none() && evidence.apsku.is_some() =>
            {
                fsp_firmware_id(evidence)
            }
            FirmwareRimId::Vbios { .. } => vbios_id(evidence),
        }
    }
}

fn switch_bios_id(prefix: &str, evidence: &RuntimeEvidence) -> Result<String, RimIdError> {
    let bios = component(evidence.vbios_version.as_deref(), "vbios_version")?;
    Ok(format!("{prefix}{}", undotted_upper(bios)))
}

fn fsp_firmware_id(evidence: &RuntimeEvidence) -> Result<String, RimIdError> {
    let hwmodel = component(evidence.hwmodel.as_deref(), "hwmodel")?;
    let apsku = evidence
        .apsku
        .ok_or(RimIdError::Missing { field: "apsku" })?;
    let hint = component(
        evidence.firmware_version_hint.as_deref(),
        "firmware_version_hint",
    )?;
    Ok(format!(
        "{VBIOS_PREFIX}{hwmodel}_{apsku:04X}_{}",
        undotted_upper(hint)
    ))
}

fn vbios_id(evidence: &RuntimeEvidence) -> Result<String, RimIdError> {
    let project = component(evidence.project.as_deref(), "project")?;
    let project_sku = component(evidence.project_sku.as_deref(), "project_sku")?;
    let chip_sku = component(evidence.chip_sku.as_deref(), "chip_sku")?;
    let vbios = component(evidence.vbios_version.as_deref(), "vbios_version")?;
    Ok(format!(
        "{VBIOS_PREFIX}{project}_{project_sku}_{chip_sku}_{}",
        undotted_upper(vbios)
    ))
}

/// The `APSKU` of a Blackwell FSP device-identifier block (SPDM block 52): the 16-bit
/// little-endian value right after the ASCII tag `APSKU`.
pub fn apsku_from_block(block: &[u8]) -> Option<u16> {
    const TAG: &[u8] = b"APSKU";
    let at = block.windows(TAG.len()).position(|w| w == TAG)?;
    let value = block.get(at.checked_add(TAG.len())?..)?;
    match value {
        [lo, hi, ..] => Some(u16::from_le_bytes([*lo, *hi])),
        _ => None,
    }
}

/// Opaque text values are NUL-terminated in the evidence; the terminator is not part of
/// the id.
fn trim_nul(value: Option<&str>) -> Option<&str> {
    value
        .map(|v| v.trim_end_matches('\0'))
        .filter(|v| !v.is_empty())
}

fn component<'a>(value: Option<&'a str>, field: &'static str) -> Result<&'a str, RimIdError> {
    let value = trim_nul(value).ok_or(RimIdError::Missing { field })?;
    let usable = value.len() <= MAX_COMPONENT
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-');
    if usable {
        Ok(value)
    } else {
        Err(RimIdError::Invalid { field })
    }
}

fn undotted_upper(version: &str) -> String {
    version
        .chars()
        .filter(|c| *c != '.')
        .map(|c| c.to_ascii_uppercase())
        .collect()
}
