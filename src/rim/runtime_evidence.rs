//! What the comparison and the RIM ids need from one device's evidence, as plain values
//! (the table in the module documentation says where each comes from).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

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
    /// The certificate's chip word (`GB100`, `GB20X`): the Blackwell FSP firmware RIM id, and
    /// which chip row's RIM chip a driver RIM id names without `CHIP_INFO`.
    pub hwmodel: Option<String>,
    /// The `APSKU` of measurement block 52 (Blackwell FSP).
    pub apsku: Option<u16>,
    /// The request's `firmware_version` hint (Blackwell FSP: `01.00.00.00.01`).
    pub firmware_version_hint: Option<String>,
}

impl RuntimeEvidence {
    /// The opaque entry with this id, if any.
    pub fn opaque_value(&self, id: u16) -> Option<&OpaqueValue> {
        self.opaque.iter().find(|v| v.id == id)
    }
}
