//! What the comparison and the RIM ids need from one device's evidence, as plain values
//! (the table in the module documentation says where each comes from).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::id::apsku_from_block;
use crate::attest::DeviceKind;
use crate::evidence::{tag, Transcript};

/// SPDM block of the Blackwell FSP device identifiers (holds `APSKU`).
const FSP_IDENTIFIER_BLOCK: u8 = 52;

/// Opaque tag 11 `NVDEC0_STATUS`: NVDEC0 enabled, RIM index 35 is compared.
pub(crate) const NVDEC0_ENABLED: u8 = 0xAA;
/// Opaque tag 11 `NVDEC0_STATUS`: NVDEC0 disabled, RIM index 35 is skipped.
pub(crate) const NVDEC0_DISABLED: u8 = 0x55;
/// NVDAOD value type of a minimum-SVN entry (NVIDIA opaque data format 2.0).
pub(crate) const MIN_SVN_VALUE_TYPE: u16 = 0x87;

/// One opaque-data entry of the evidence.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpaqueValue {
    /// The opaque tag / id (`37` = `FSP_UCODE_MIN_SVN`).
    pub id: u16,
    /// The NVDAOD value type; `None` for the legacy TLV format, which has none.
    pub value_type: Option<u16>,
    /// The value bytes as carried (little-endian numbers).
    pub value: Vec<u8>,
}

/// The values of one device's evidence that RIM selection and comparison use.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuntimeEvidence {
    /// Measurement blocks by SPDM index (1-based): RIM record `index` is compared with block
    /// `index + 1`.
    pub measurements: BTreeMap<u8, Vec<u8>>,
    /// `DRIVER_VERSION` text (`550.144.03`).
    pub driver_version: Option<String>,
    /// The VBIOS / switch BIOS version as NVIDIA prints it (`96.00.5E.00.01`).
    pub vbios_version: Option<String>,
    /// `PROJECT` text (`1010`, `G520`).
    pub project: Option<String>,
    /// `PROJECT_SKU` text (`0200`).
    pub project_sku: Option<String>,
    /// `CHIP_SKU` text (`882`).
    pub chip_sku: Option<String>,
    /// `CHIP_INFO` text (Blackwell; absent on older drivers).
    pub chip_info: Option<String>,
    /// `NVDEC0_STATUS` byte.
    pub nvdec0_status: Option<u8>,
    /// Opaque entries compared with minimum-SVN floors.
    pub opaque: Vec<OpaqueValue>,
    /// The chip name (`GB100`), for the Blackwell FSP firmware RIM id.
    pub hwmodel: Option<String>,
    /// The `APSKU` of measurement block 52 (Blackwell FSP).
    pub apsku: Option<u16>,
    /// The request's `firmware_version` hint (Blackwell FSP: `01.00.00.00.01`).
    pub firmware_version_hint: Option<String>,
}

impl RuntimeEvidence {
    /// The values of a parsed transcript (the table of the module documentation). `hwmodel`
    /// is the chip name the device certificate gives (`GB100`), `firmware_version_hint` the
    /// request's `firmware_version`; the transcript's signature is not checked here.
    pub fn from_transcript(
        transcript: &Transcript,
        kind: DeviceKind,
        hwmodel: Option<String>,
        firmware_version_hint: Option<String>,
    ) -> Self {
        let opaque = &transcript.response.opaque;
        let text = |t: u16| opaque.text(t).ok().flatten();
        Self {
            measurements: transcript
                .response
                .blocks
                .iter()
                .map(|b| (b.index, b.value.clone()))
                .collect(),
            driver_version: opaque.driver_version().ok().flatten(),
            vbios_version: opaque.vbios_version(kind).ok().flatten(),
            project: text(tag::PROJECT),
            project_sku: text(tag::PROJECT_SKU),
            chip_sku: text(tag::CHIP_SKU),
            chip_info: text(tag::CHIP_INFO),
            nvdec0_status: opaque
                .get(tag::NVDEC0_STATUS)
                .and_then(|e| e.value.first().copied()),
            opaque: opaque
                .entries()
                .iter()
                .map(|e| OpaqueValue {
                    id: e.tag,
                    value_type: e.value_type,
                    value: e.value.clone(),
                })
                .collect(),
            hwmodel,
            apsku: transcript
                .block(FSP_IDENTIFIER_BLOCK)
                .and_then(|b| apsku_from_block(&b.value)),
            firmware_version_hint,
        }
    }

    /// The opaque entry with this id, if any.
    pub fn opaque_value(&self, id: u16) -> Option<&OpaqueValue> {
        self.opaque.iter().find(|v| v.id == id)
    }
}
