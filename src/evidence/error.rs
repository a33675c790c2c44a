//! Why evidence was refused: malformed bytes (with the offset) or a failed check.

use alloc::string::String;
use core::fmt;

use crate::attest::Arch;
use crate::chain::ChainError;
use crate::error_code::ErrorCode;

/// Malformed evidence: what is wrong and at which byte offset of the transcript (request
/// byte 0 = offset 0). Offsets inside opaque data are offsets of the whole transcript too.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseError {
    /// The transcript ends inside `field`, which starts at `offset` and needs `needed` bytes.
    Truncated {
        /// The field being read.
        field: &'static str,
        /// Where it starts.
        offset: usize,
        /// How many bytes it needs.
        needed: usize,
    },
    /// `field` at `offset` holds `found`, which is not an accepted value.
    UnexpectedValue {
        /// The field.
        field: &'static str,
        /// Its offset.
        offset: usize,
        /// The value found.
        found: u32,
    },
    /// A measurement block's sizes disagree (MeasurementSize ≠ 3 + value size) or the blocks
    /// do not fill MeasurementRecordLength exactly.
    BlockLayout {
        /// Offset of the block or of the record's unconsumed rest.
        offset: usize,
    },
    /// NumberOfBlocks differs from the number of blocks in the record.
    BlockCount {
        /// NumberOfBlocks.
        declared: usize,
        /// Blocks found.
        found: usize,
    },
    /// Two measurement blocks have the same index.
    DuplicateBlockIndex {
        /// The index.
        index: u8,
        /// Offset of the second block.
        offset: usize,
    },
    /// An opaque-data entry runs past the opaque area, or the area has bytes that are not
    /// an entry.
    OpaqueLayout {
        /// Offset of the entry.
        offset: usize,
    },
    /// A known opaque-data entry has a value of the wrong size or encoding.
    OpaqueValue {
        /// The tag.
        tag: u16,
        /// Offset of the entry.
        offset: usize,
    },
    /// Bytes follow the signature. Policy: refused, as NVIDIA's SDK refuses them — a
    /// signature must be the last 96 bytes of the transcript it covers.
    TrailingBytes {
        /// Offset of the first extra byte.
        offset: usize,
        /// How many extra bytes.
        count: usize,
    },
    /// The evidence text is not base64 (generation 2) or base64 of hex text (generation 1).
    Encoding,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Truncated {
                field,
                offset,
                needed,
            } => write!(
                f,
                "evidence ends inside {field} (offset {offset}, {needed} bytes needed)"
            ),
            Self::UnexpectedValue {
                field,
                offset,
                found,
            } => write!(f, "unexpected {field} {found:#x} at offset {offset}"),
            Self::BlockLayout { offset } => {
                write!(
                    f,
                    "measurement block layout is inconsistent at offset {offset}"
                )
            }
            Self::BlockCount { declared, found } => {
                write!(
                    f,
                    "NumberOfBlocks is {declared} but the record holds {found}"
                )
            }
            Self::DuplicateBlockIndex { index, offset } => {
                write!(f, "measurement index {index} repeats at offset {offset}")
            }
            Self::OpaqueLayout { offset } => {
                write!(f, "opaque data entry overruns its area at offset {offset}")
            }
            Self::OpaqueValue { tag, offset } => {
                write!(
                    f,
                    "opaque data tag {tag} has an invalid value at offset {offset}"
                )
            }
            Self::TrailingBytes { offset, count } => {
                write!(f, "{count} bytes follow the signature at offset {offset}")
            }
            Self::Encoding => f.write_str("evidence is not in the generation's encoding"),
        }
    }
}

impl core::error::Error for ParseError {}

impl ErrorCode for ParseError {
    fn code(&self) -> &'static str {
        match self {
            Self::Truncated { .. } => "ERR_EVIDENCE_TRUNCATED",
            Self::UnexpectedValue { .. } => "ERR_EVIDENCE_UNEXPECTED_VALUE",
            Self::BlockLayout { .. } => "ERR_EVIDENCE_BLOCK_LAYOUT",
            Self::BlockCount { .. } => "ERR_EVIDENCE_BLOCK_COUNT",
            Self::DuplicateBlockIndex { .. } => "ERR_EVIDENCE_DUPLICATE_BLOCK",
            Self::OpaqueLayout { .. } => "ERR_EVIDENCE_OPAQUE_LAYOUT",
            Self::OpaqueValue { .. } => "ERR_EVIDENCE_OPAQUE_VALUE",
            Self::TrailingBytes { .. } => "ERR_EVIDENCE_TRAILING_BYTES",
            Self::Encoding => "ERR_EVIDENCE_ENCODING",
        }
    }
}

/// A device whose evidence does not verify. Each failure has its own code; the real
/// service's error number is given by [`VerifyError::service_code`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VerifyError {
    /// The transcript does not parse (service 4005 INVALID_EVIDENCE).
    Parse(ParseError),
    /// The certificate chain does not validate (service 4014).
    Chain(ChainError),
    /// The signature over the transcript does not verify with the leaf key (service 4013).
    Signature,
    /// The request's nonce is not the caller's (service 4010 NONCE_NOT_MATCHING).
    NonceMismatch,
    /// Opaque tag 20 differs from the leaf certificate's FWID (service 4016).
    FwidMismatch,
    /// The evidence carries an FWID but the leaf has no readable DICE FWID (service 4016).
    FwidMissingInCertificate,
    /// The evidence carries no FWID (opaque tag 20) although its firmware always reports
    /// one (Blackwell GSP), or the caller requires it ([`super::FwidPolicy::Require`])
    /// (service 4016).
    FwidMissingInEvidence,
    /// GSP evidence without a driver version (opaque tag 3): its driver RIM cannot be
    /// named, and the VBIOS RIM alone does not judge the device (service 4005).
    DriverVersionMissing,
    /// The chain's `hwmodel` names the architecture but no firmware this verifier knows
    /// (`GB100 A01 XSP BROM`): the rules for its evidence are unknown (service 4004).
    UnknownProfile {
        /// The `hwmodel` read from the chain.
        hwmodel: Option<String>,
    },
    /// The device is not of the requested architecture, or its chain names a chip of no
    /// architecture row (the message then names the chip and every row's chips) (service
    /// 4004/4017).
    ArchMismatch {
        /// The chip the chain names (`GH100`…), if any.
        found: Option<String>,
    },
}

impl VerifyError {
    /// The real service's error number for this failure (`x-nvidia-error-details.code`).
    pub const fn service_code(&self) -> u16 {
        match self {
            Self::Parse(_) => 4005,
            Self::Chain(_) => 4014,
            Self::Signature => 4013,
            Self::NonceMismatch => 4010,
            Self::FwidMismatch | Self::FwidMissingInCertificate | Self::FwidMissingInEvidence => {
                4016
            }
            Self::DriverVersionMissing => 4005,
            Self::ArchMismatch { .. } | Self::UnknownProfile { .. } => 4004,
        }
    }
}

impl From<ParseError> for VerifyError {
    fn from(err: ParseError) -> Self {
        Self::Parse(err)
    }
}

impl From<ChainError> for VerifyError {
    fn from(err: ChainError) -> Self {
        Self::Chain(err)
    }
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Parse(err) => err.fmt(f),
            Self::Chain(err) => err.fmt(f),
            Self::Signature => f.write_str("the evidence signature does not verify"),
            Self::NonceMismatch => f.write_str("the evidence nonce is not the caller's nonce"),
            Self::FwidMismatch => f.write_str("the evidence FWID differs from the certificate's"),
            Self::FwidMissingInCertificate => {
                f.write_str("the leaf certificate carries no FWID to compare")
            }
            Self::FwidMissingInEvidence => {
                f.write_str("the evidence carries no FWID to compare with the certificate's")
            }
            Self::DriverVersionMissing => {
                f.write_str("the GPU evidence carries no driver version (opaque tag 3)")
            }
            Self::UnknownProfile { hwmodel } => write!(
                f,
                "the device firmware {:?} is not one this verifier knows",
                hwmodel.as_deref().unwrap_or("")
            ),
            Self::ArchMismatch { found } => match found {
                Some(found) if Arch::of_chip(found).is_none() => write!(
                    f,
                    "the device's chip {found} is of no architecture this verifier knows \
                     (known chips: {})",
                    Arch::known_chips()
                ),
                Some(found) => write!(f, "the device is a {found}, not the requested arch"),
                None => f.write_str("the device architecture is unknown"),
            },
        }
    }
}

impl core::error::Error for VerifyError {}

impl ErrorCode for VerifyError {
    fn code(&self) -> &'static str {
        match self {
            Self::Parse(err) => err.code(),
            Self::Chain(err) => err.code(),
            Self::Signature => "ERR_EVIDENCE_SIGNATURE",
            Self::NonceMismatch => "ERR_EVIDENCE_NONCE_MISMATCH",
            Self::FwidMismatch => "ERR_EVIDENCE_FWID_MISMATCH",
            Self::FwidMissingInCertificate => "ERR_EVIDENCE_FWID_MISSING_IN_CERTIFICATE",
            Self::FwidMissingInEvidence => "ERR_EVIDENCE_FWID_MISSING",
            Self::DriverVersionMissing => "ERR_EVIDENCE_DRIVER_VERSION_MISSING",
            Self::UnknownProfile { .. } => "ERR_EVIDENCE_UNKNOWN_FIRMWARE",
            Self::ArchMismatch { .. } => "ERR_EVIDENCE_ARCH_MISMATCH",
        }
    }
}
