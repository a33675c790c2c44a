//! Opaque data of the MEASUREMENTS response: NVIDIA's legacy TLV list and the versioned
//! `NVDAOD` format (NVIDIA opaque-data format specification).
//!
//! Legacy: entries `type u16 · length u16 · value`, no header. Versioned: a 12-byte header
//! (`NVDAOD`, profile u16 = 0, version major·minor·patch·padding) then entries
//! `type u16 · valueType u16 · length u16 · value`. Both must be consumed exactly. Unknown
//! tags are kept by number (newer firmware adds tags); known tags whose value cannot be
//! decoded are errors.

use alloc::string::String;
use alloc::vec::Vec;

use super::error::ParseError;
use super::reader::Reader;
use super::tags::tag;
use crate::attest::DeviceKind;

/// Magic of the versioned format.
const NVDAOD_MAGIC: &[u8; 6] = b"NVDAOD";

/// Which opaque-data format the response uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OpaqueFormat {
    /// The headerless TLV list of every released Hopper, Blackwell and LS10 driver.
    Legacy,
    /// The versioned `NVDAOD` format.
    Versioned {
        /// Profile (0).
        profile: u16,
        /// Format version: major, minor, patch.
        version: [u8; 3],
    },
}

/// One opaque-data entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpaqueEntry {
    /// The tag (`type`).
    pub tag: u16,
    /// The value type (versioned format only).
    pub value_type: Option<u16>,
    /// The value bytes.
    pub value: Vec<u8>,
    /// Transcript offset of the entry.
    pub offset: usize,
}

/// The whole opaque area, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpaqueData {
    format: OpaqueFormat,
    entries: Vec<OpaqueEntry>,
}

/// Feature flag (tag 36): the GPU's confidential-computing topology mode, as the GPU signs it.
/// CC on, off or devtools is a host setting that no evidence carries (NVML reports it,
/// unsigned); a GPU in devtools mode reports measurements its RIMs do not hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FeatureFlag {
    /// 0: single-GPU passthrough (as NVIDIA's Python verifiers, Google's and trustee's read
    /// it, and a real RTX PRO 6000 in single-GPU passthrough reports; NVIDIA's C++ SDK's enum,
    /// whose claim is disabled, has 0 and 1 the other way round).
    Spt,
    /// 1: multi-GPU passthrough.
    Mpt,
    /// 2: protected PCIe.
    Ppcie,
    /// Another value.
    Other(u16),
}

impl FeatureFlag {
    /// NVIDIA's lower-case name (`mpt`, `spt`, `ppcie`), and `invalid` for another value, as
    /// NVIDIA's SDK writes its `x-nvidia-gpu-mode` claim.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Mpt => "mpt",
            Self::Spt => "spt",
            Self::Ppcie => "ppcie",
            Self::Other(_) => "invalid",
        }
    }
}

/// A one-byte enable status (tags 11 NVDEC0_STATUS, 21 PROTECTED_PCIE_STATUS).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EnableStatus {
    /// `0xAA`.
    Enabled,
    /// `0x55`.
    Disabled,
}

/// A switch's GPU PDIs (tag 26): 8 PDIs then one byte per port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwitchGpuPdis {
    /// The 8 GPU PDIs, as stored.
    pub pdis: Vec<[u8; 8]>,
    /// The port bytes that follow them.
    pub ports: Vec<u8>,
}

/// The value of a fixed-layout tag, or an error naming the entry.
fn bad(entry: &OpaqueEntry) -> ParseError {
    ParseError::OpaqueValue {
        tag: entry.tag,
        offset: entry.offset,
    }
}

/// ASCII text up to the first NUL.
fn text(entry: &OpaqueEntry) -> Result<String, ParseError> {
    let end = entry
        .value
        .iter()
        .position(|&b| b == 0)
        .unwrap_or(entry.value.len());
    let bytes = entry.value.get(..end).ok_or_else(|| bad(entry))?;
    if !bytes.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        return Err(bad(entry));
    }
    Ok(bytes.iter().map(|&b| char::from(b)).collect())
}

/// Splits into 8-byte groups (a shorter tail is dropped; callers check the length).
fn eights(bytes: &[u8]) -> Vec<[u8; 8]> {
    bytes
        .chunks_exact(8)
        .filter_map(|c| <[u8; 8]>::try_from(c).ok())
        .collect()
}

fn u16_le(entry: &OpaqueEntry) -> Result<u16, ParseError> {
    match entry.value.as_slice() {
        [a, b] => Ok(u16::from_le_bytes([*a, *b])),
        _ => Err(bad(entry)),
    }
}

impl OpaqueData {
    /// Parses the opaque area (`bytes`), which starts at transcript offset `base`.
    ///
    /// # Errors
    /// [`ParseError::OpaqueLayout`] or [`ParseError::UnexpectedValue`] (NVDAOD profile).
    pub(crate) fn parse(bytes: &[u8], base: usize) -> Result<Self, ParseError> {
        let mut reader = Reader::new(bytes, base);
        let format = if bytes.starts_with(NVDAOD_MAGIC) {
            reader.take(NVDAOD_MAGIC.len(), "NVDAOD magic")?;
            let offset = reader.offset();
            let profile = reader.u16("NVDAOD profile")?;
            if profile != 0 {
                return Err(ParseError::UnexpectedValue {
                    field: "NVDAOD profile",
                    offset,
                    found: u32::from(profile),
                });
            }
            let [major, minor, patch, _padding] = reader.array::<4>("NVDAOD version")?;
            OpaqueFormat::Versioned {
                profile,
                version: [major, minor, patch],
            }
        } else {
            OpaqueFormat::Legacy
        };
        let mut entries = Vec::new();
        while !reader.is_empty() {
            let offset = reader.offset();
            let layout = |_| ParseError::OpaqueLayout { offset };
            let tag = reader.u16("opaque type").map_err(layout)?;
            let value_type = match format {
                OpaqueFormat::Legacy => None,
                OpaqueFormat::Versioned { .. } => {
                    Some(reader.u16("opaque value type").map_err(layout)?)
                }
            };
            let len = reader.u16("opaque length").map_err(layout)?;
            let value = reader
                .take(usize::from(len), "opaque value")
                .map_err(layout)?
                .to_vec();
            entries.push(OpaqueEntry {
                tag,
                value_type,
                value,
                offset,
            });
        }
        Ok(Self { format, entries })
    }

    /// The format.
    pub fn format(&self) -> OpaqueFormat {
        self.format
    }

    /// Every entry in order.
    pub fn entries(&self) -> &[OpaqueEntry] {
        &self.entries
    }

    /// The first entry with `tag`.
    pub fn get(&self, tag: u16) -> Option<&OpaqueEntry> {
        self.entries.iter().find(|e| e.tag == tag)
    }

    /// Whether the area is empty (Blackwell FSP responses carry none).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Decodes every known tag for `kind`, so that a malformed value is found at parse time.
    ///
    /// # Errors
    /// [`ParseError::OpaqueValue`] for the first undecodable known tag.
    pub fn validate(&self, kind: DeviceKind) -> Result<(), ParseError> {
        self.driver_version()?;
        self.vbios_version(kind)?;
        self.fwid()?;
        self.msrscnt()?;
        self.feature_flag()?;
        self.opaque_data_version()?;
        self.min_svn()?;
        self.board_id()?;
        for t in [tag::NVDEC0_STATUS, tag::PROTECTED_PCIE_STATUS] {
            self.enable_status(t)?;
        }
        for t in [
            tag::PROJECT_SKU_MOD,
            tag::POSITION_ID,
            tag::LOCK_STATUS,
            tag::SYS_ENABLE_STATUS,
        ] {
            self.u16_field(t)?;
        }
        for t in [
            tag::PROJECT,
            tag::PROJECT_SKU,
            tag::CHIP_SKU,
            tag::CHIP_SKU_MOD,
            tag::CHIP_INFO,
        ] {
            self.text(t)?;
        }
        match kind {
            DeviceKind::Gpu => {
                self.switch_pdis()?;
            }
            DeviceKind::Switch => {
                self.device_pdi()?;
                self.switch_gpu_pdis()?;
                self.disabled_ports()?;
            }
        }
        Ok(())
    }

    /// An ASCII tag's text (up to the first NUL).
    ///
    /// # Errors
    /// [`ParseError::OpaqueValue`] when it is not printable ASCII.
    pub fn text(&self, tag: u16) -> Result<Option<String>, ParseError> {
        self.get(tag).map(text).transpose()
    }

    /// Driver version (tag 3), e.g. `550.90.07`.
    ///
    /// # Errors
    /// [`ParseError::OpaqueValue`] when not ASCII.
    pub fn driver_version(&self) -> Result<Option<String>, ParseError> {
        self.text(tag::DRIVER_VERSION)
    }

    /// VBIOS / switch BIOS version (tag 6) as the service writes it: GPUs pack it in 8 bytes
    /// (`00 a5 00 96 01 00 00 00` → `96.00.A5.00.01`), switches store ASCII.
    ///
    /// # Errors
    /// [`ParseError::OpaqueValue`] for another size or non-ASCII switch text.
    pub fn vbios_version(&self, kind: DeviceKind) -> Result<Option<String>, ParseError> {
        let Some(entry) = self.get(tag::VBIOS_VERSION) else {
            return Ok(None);
        };
        match kind {
            DeviceKind::Switch => text(entry).map(Some),
            DeviceKind::Gpu => match entry.value.as_slice() {
                [b0, b1, b2, b3, b4, _, _, _] => Ok(Some(alloc::format!(
                    "{b3:02X}.{b2:02X}.{b1:02X}.{b0:02X}.{b4:02X}"
                ))),
                _ => Err(bad(entry)),
            },
        }
    }

    /// FWID (tag 20), 48 bytes.
    ///
    /// # Errors
    /// [`ParseError::OpaqueValue`] for another size.
    pub fn fwid(&self) -> Result<Option<&[u8]>, ParseError> {
        match self.get(tag::FWID) {
            None => Ok(None),
            Some(e) if e.value.len() == 48 => Ok(Some(&e.value)),
            Some(e) => Err(bad(e)),
        }
    }

    /// Measurement counts (tag 12), u32 LE each.
    ///
    /// # Errors
    /// [`ParseError::OpaqueValue`] when the size is not a multiple of 4.
    pub fn msrscnt(&self) -> Result<Option<Vec<u32>>, ParseError> {
        let Some(entry) = self.get(tag::MSRSCNT) else {
            return Ok(None);
        };
        if entry.value.len() % 4 != 0 {
            return Err(bad(entry));
        }
        Ok(Some(
            entry
                .value
                .chunks_exact(4)
                .filter_map(|c| <[u8; 4]>::try_from(c).ok().map(u32::from_le_bytes))
                .collect(),
        ))
    }

    /// A one-byte enable status (tag 11 NVDEC0_STATUS or 21 PROTECTED_PCIE_STATUS).
    ///
    /// # Errors
    /// [`ParseError::OpaqueValue`] for another size or a value other than `0xAA` / `0x55`
    /// (NVIDIA's verifier refuses other NVDEC0 values too).
    pub fn enable_status(&self, tag: u16) -> Result<Option<EnableStatus>, ParseError> {
        let Some(entry) = self.get(tag) else {
            return Ok(None);
        };
        match entry.value.as_slice() {
            [0xAA] => Ok(Some(EnableStatus::Enabled)),
            [0x55] => Ok(Some(EnableStatus::Disabled)),
            _ => Err(bad(entry)),
        }
    }

    /// Board id (tag 14), u32 little-endian.
    ///
    /// # Errors
    /// [`ParseError::OpaqueValue`] when not 4 bytes.
    pub fn board_id(&self) -> Result<Option<u32>, ParseError> {
        let Some(entry) = self.get(tag::BOARD_ID) else {
            return Ok(None);
        };
        <[u8; 4]>::try_from(entry.value.as_slice())
            .map(|b| Some(u32::from_le_bytes(b)))
            .map_err(|_| bad(entry))
    }

    /// A two-byte little-endian field (tags 19, 24, 25, 33).
    ///
    /// # Errors
    /// [`ParseError::OpaqueValue`] when not 2 bytes.
    pub fn u16_field(&self, tag: u16) -> Result<Option<u16>, ParseError> {
        self.get(tag).map(u16_le).transpose()
    }

    /// Feature flag (tag 36).
    ///
    /// # Errors
    /// [`ParseError::OpaqueValue`] when not 2 bytes.
    pub fn feature_flag(&self) -> Result<Option<FeatureFlag>, ParseError> {
        let Some(entry) = self.get(tag::FEATURE_FLAG) else {
            return Ok(None);
        };
        Ok(Some(match u16_le(entry)? {
            0 => FeatureFlag::Spt,
            1 => FeatureFlag::Mpt,
            2 => FeatureFlag::Ppcie,
            other => FeatureFlag::Other(other),
        }))
    }

    /// Opaque data version (tag 34): u16 little-endian in the legacy format; in the
    /// versioned format the value (type `0x86`, `00 02` in the only sample) is read
    /// big-endian, which gives the version 2 NVIDIA's newer SDK accepts.
    ///
    /// # Errors
    /// [`ParseError::OpaqueValue`] when not 2 bytes.
    pub fn opaque_data_version(&self) -> Result<Option<u16>, ParseError> {
        let Some(entry) = self.get(tag::OPAQUE_DATA_VERSION) else {
            return Ok(None);
        };
        let le = u16_le(entry)?;
        Ok(Some(match self.format {
            OpaqueFormat::Legacy => le,
            OpaqueFormat::Versioned { .. } => le.swap_bytes(),
        }))
    }

    /// FSP microcode minimum SVN (tag 37, versioned format): the little-endian unsigned
    /// value of 1, 2, 4 or 8 bytes.
    ///
    /// # Errors
    /// [`ParseError::OpaqueValue`] for another size or a value type other than `0x87`.
    pub fn min_svn(&self) -> Result<Option<u64>, ParseError> {
        let Some(entry) = self.get(tag::FSP_UCODE_MIN_SVN) else {
            return Ok(None);
        };
        if entry.value_type.is_some_and(|t| t != 0x87) {
            return Err(bad(entry));
        }
        if !matches!(entry.value.len(), 1 | 2 | 4 | 8) {
            return Err(bad(entry));
        }
        let mut le = [0u8; 8];
        for (dst, src) in le.iter_mut().zip(&entry.value) {
            *dst = *src;
        }
        Ok(Some(u64::from_le_bytes(le)))
    }

    /// GPU tag 22: PDIs of the attached switches, 8 bytes each, as stored.
    ///
    /// # Errors
    /// [`ParseError::OpaqueValue`] when the size is not a multiple of 8.
    pub fn switch_pdis(&self) -> Result<Option<Vec<[u8; 8]>>, ParseError> {
        let Some(entry) = self.get(tag::PDI) else {
            return Ok(None);
        };
        if entry.value.len() % 8 != 0 {
            return Err(bad(entry));
        }
        Ok(Some(eights(&entry.value)))
    }

    /// Switch tag 22: the switch's own PDI.
    ///
    /// # Errors
    /// [`ParseError::OpaqueValue`] when not 8 bytes.
    pub fn device_pdi(&self) -> Result<Option<[u8; 8]>, ParseError> {
        let Some(entry) = self.get(tag::PDI) else {
            return Ok(None);
        };
        <[u8; 8]>::try_from(entry.value.as_slice())
            .map(Some)
            .map_err(|_| bad(entry))
    }

    /// Switch tag 26: the 8 GPU PDIs and the port bytes after them.
    ///
    /// # Errors
    /// [`ParseError::OpaqueValue`] when shorter than 64 bytes.
    pub fn switch_gpu_pdis(&self) -> Result<Option<SwitchGpuPdis>, ParseError> {
        let Some(entry) = self.get(tag::SWITCH_GPU_PDIS) else {
            return Ok(None);
        };
        let (pdis, ports) = entry.value.split_at_checked(64).ok_or_else(|| bad(entry))?;
        Ok(Some(SwitchGpuPdis {
            pdis: eights(pdis),
            ports: ports.to_vec(),
        }))
    }

    /// Switch tag 23: disabled ports, one entry per port (1 = disabled). Each bit, most
    /// significant first, covers a group of 4 ports (as NVIDIA's switch parser expands it).
    ///
    /// # Errors
    /// Never for a present tag; typed like the other decoders.
    pub fn disabled_ports(&self) -> Result<Option<Vec<u8>>, ParseError> {
        let Some(entry) = self.get(tag::PORTS) else {
            return Ok(None);
        };
        let mut ports = Vec::with_capacity(entry.value.len().saturating_mul(32));
        for byte in &entry.value {
            for bit in (0..8).rev() {
                let disabled = (byte >> bit) & 1;
                ports.extend_from_slice(&[disabled; 4]);
            }
        }
        Ok(Some(ports))
    }
}
