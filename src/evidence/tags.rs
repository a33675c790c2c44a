//! Opaque-data tag numbers and names (NVIDIA `OpaqueDataType`, GPU and switch
//! parsers).

use crate::attest::DeviceKind;

/// Tag numbers (NVIDIA `OpaqueDataType`).
pub mod tag {
    /// Driver version, ASCII, NUL-terminated.
    pub const DRIVER_VERSION: u16 = 3;
    /// GPU info, 8 bytes.
    pub const GPU_INFO: u16 = 4;
    /// VBIOS version: 8 packed bytes (GPU) or ASCII (switch).
    pub const VBIOS_VERSION: u16 = 6;
    /// NVDEC0 status, 1 byte (`0xAA` enabled, `0x55` disabled).
    pub const NVDEC0_STATUS: u16 = 11;
    /// Measurement counts, u32 LE list.
    pub const MSRSCNT: u16 = 12;
    /// Board id, u32 LE.
    pub const BOARD_ID: u16 = 14;
    /// Chip SKU, ASCII.
    pub const CHIP_SKU: u16 = 15;
    /// Chip SKU modifier, ASCII.
    pub const CHIP_SKU_MOD: u16 = 16;
    /// Project, ASCII.
    pub const PROJECT: u16 = 17;
    /// Project SKU, ASCII.
    pub const PROJECT_SKU: u16 = 18;
    /// Project SKU modifier.
    pub const PROJECT_SKU_MOD: u16 = 19;
    /// FWID, 48-byte SHA-384.
    pub const FWID: u16 = 20;
    /// CPR info, 4 bytes.
    pub const CPRINFO: u16 = 13;
    /// GPU: position id; switch: switch position id (u16 LE).
    pub const POSITION_ID: u16 = 24;
    /// GPU: lock switch status; switch: switch lock status (u16 LE).
    pub const LOCK_STATUS: u16 = 25;
    /// System enable status, 2 bytes (Blackwell).
    pub const SYS_ENABLE_STATUS: u16 = 33;
    /// Protected PCIe status, 1 byte.
    pub const PROTECTED_PCIE_STATUS: u16 = 21;
    /// GPU: PDIs of attached switches (8 bytes each); switch: its own PDI (8 bytes).
    pub const PDI: u16 = 22;
    /// GPU: floorswept ports; switch: disabled ports (bit per group of 4 ports).
    pub const PORTS: u16 = 23;
    /// Switch: PDIs of the attached GPUs (8 × 8 bytes) followed by port bytes.
    pub const SWITCH_GPU_PDIS: u16 = 26;
    /// Opaque data version, u16 LE.
    pub const OPAQUE_DATA_VERSION: u16 = 34;
    /// Chip name, ASCII (Blackwell).
    pub const CHIP_INFO: u16 = 35;
    /// Feature flag, u16 LE (0 MPT, 1 SPT, 2 PPCIE).
    pub const FEATURE_FLAG: u16 = 36;
    /// FSP microcode minimum SVN (versioned format, value type `0x87`).
    pub const FSP_UCODE_MIN_SVN: u16 = 37;
}

/// The name of `tag` for a device kind, as NVIDIA's parsers print it (without the
/// `OPAQUE_FIELD_ID_` prefix); `None` for a tag no parser knows.
pub const fn tag_name(tag: u16, kind: DeviceKind) -> Option<&'static str> {
    let common = match tag {
        1 => "CERT_ISSUER_NAME",
        2 => "CERT_AUTHORITY_KEY_IDENTIFIER",
        3 => "DRIVER_VERSION",
        4 => "GPU_INFO",
        5 => "SKU",
        6 => "VBIOS_VERSION",
        7 => "MANUFACTURER_ID",
        8 => "TAMPER_DETECTION",
        9 => "SMC",
        10 => "VPR",
        11 => "NVDEC0_STATUS",
        12 => "MSRSCNT",
        13 => "CPRINFO",
        14 => "BOARD_ID",
        15 => "CHIP_SKU",
        16 => "CHIP_SKU_MOD",
        17 => "PROJECT",
        18 => "PROJECT_SKU",
        19 => "PROJECT_SKU_MOD",
        20 => "FWID",
        21 => "PROTECTED_PCIE_STATUS",
        _ => "",
    };
    if !common.is_empty() {
        return Some(common);
    }
    match kind {
        DeviceKind::Gpu => match tag {
            22 => Some("SWITCH_PDI"),
            23 => Some("FLOORSWEPT_PORTS"),
            24 => Some("POSITION_ID"),
            25 => Some("LOCK_SWITCH_STATUS"),
            32 => Some("GPU_LINK_CONN"),
            33 => Some("SYS_ENABLE_STATUS"),
            34 => Some("OPAQUE_DATA_VERSION"),
            35 => Some("CHIP_INFO"),
            36 => Some("FEATURE_FLAG"),
            37 => Some("FSP_UCODE_MIN_SVN"),
            _ => None,
        },
        DeviceKind::Switch => match tag {
            22 => Some("DEVICE_PDI"),
            23 => Some("DISABLED_PORTS"),
            24 => Some("SWITCH_POSITION_ID"),
            25 => Some("SWITCH_LOCK_STATUS"),
            26 => Some("SWITCH_GPU_PDIS"),
            27 => Some("SWITCH_PORTS"),
            _ => None,
        },
    }
}
