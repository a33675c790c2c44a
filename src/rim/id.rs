//! RIM ids: which documents a device's evidence is compared with (NVIDIA's
//! verifiers build the same strings).
//!
//! | architecture | driver RIM | firmware RIM |
//! |---|---|---|
//! | Hopper | `NV_GPU_DRIVER_GH100_<driver>` | `NV_GPU_VBIOS_<project>_<project sku>_<chip sku>_<vbios without dots>` |
//! | Blackwell (GSP) | `NV_GPU_CC_DRIVER_<CHIP_INFO>_<driver>`, or `…_GB100_…` without `CHIP_INFO` | as Hopper |
//! | Blackwell (FSP) | – | `NV_GPU_VBIOS_<hwmodel>_<APSKU>_<firmware_version hint without dots>` |
//! | LS10 | – (no driver RIM) | `NV_SWITCH_BIOS_5612_0002_890_<bios without dots>` |

use alloc::format;
use alloc::string::String;

use super::error::RimIdError;
use super::input::RuntimeEvidence;
use crate::attest::Arch;
use crate::evidence::{EvidenceProfile, RimPath};

/// Which of a device's RIMs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RimKind {
    /// The GPU driver RIM.
    Driver,
    /// The VBIOS / switch BIOS / FSP firmware RIM.
    Firmware,
}

/// LS10 project, project SKU and chip SKU: constants, the switch reports none of them.
const LS10_PREFIX: &str = "NV_SWITCH_BIOS_5612_0002_890_";

/// Longest id component accepted.
const MAX_COMPONENT: usize = 64;

/// The driver RIM id of a GPU.
///
/// # Errors
/// [`RimIdError::NotApplicable`] for switches; [`RimIdError::Missing`] or
/// [`RimIdError::Invalid`] when the driver version (or `CHIP_INFO`) is absent or unusable.
pub fn driver_rim_id(arch: Arch, evidence: &RuntimeEvidence) -> Result<String, RimIdError> {
    let driver = component(evidence.driver_version.as_deref(), "driver_version")?;
    match arch {
        Arch::Hopper => Ok(format!("NV_GPU_DRIVER_GH100_{driver}")),
        Arch::Blackwell => {
            // Drivers before CHIP_INFO existed are published under the GB100 name.
            let chip = match trim_nul(evidence.chip_info.as_deref()) {
                Some(chip) => component(Some(chip), "chip_info")?,
                None => "GB100",
            };
            Ok(format!("NV_GPU_CC_DRIVER_{chip}_{driver}"))
        }
        Arch::Ls10 => Err(RimIdError::NotApplicable),
    }
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
    match arch {
        Arch::Ls10 => switch_bios_id(evidence),
        Arch::Blackwell if evidence.project.is_none() && evidence.apsku.is_some() => {
            fsp_firmware_id(evidence)
        }
        Arch::Hopper | Arch::Blackwell => vbios_id(evidence),
    }
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
    match profile.rim_path() {
        RimPath::FirmwareOnly => fsp_firmware_id(evidence),
        RimPath::Switch => switch_bios_id(evidence),
        _ => vbios_id(evidence),
    }
}

fn switch_bios_id(evidence: &RuntimeEvidence) -> Result<String, RimIdError> {
    let bios = component(evidence.vbios_version.as_deref(), "vbios_version")?;
    Ok(format!("{LS10_PREFIX}{}", undotted_upper(bios)))
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
        "NV_GPU_VBIOS_{hwmodel}_{apsku:04X}_{}",
        undotted_upper(hint)
    ))
}

fn vbios_id(evidence: &RuntimeEvidence) -> Result<String, RimIdError> {
    let project = component(evidence.project.as_deref(), "project")?;
    let project_sku = component(evidence.project_sku.as_deref(), "project_sku")?;
    let chip_sku = component(evidence.chip_sku.as_deref(), "chip_sku")?;
    let vbios = component(evidence.vbios_version.as_deref(), "vbios_version")?;
    Ok(format!(
        "NV_GPU_VBIOS_{project}_{project_sku}_{chip_sku}_{}",
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
