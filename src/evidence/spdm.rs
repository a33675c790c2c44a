//! The SPDM 1.1 GET_MEASUREMENTS request and MEASUREMENTS response (DSP0274 1.1 §10.11),
//! as NVIDIA devices return them: the evidence is the request followed by the response.
//!
//! Layout (all integers little-endian):
//! * request, 37 bytes: version `0x11` · code `0xE0` · param1 (bit 0 = signature requested,
//!   must be set) · param2 · nonce (32) · slot id.
//! * response: version `0x11` · code `0x60` · param1 · param2 · NumberOfBlocks (≥ 1) ·
//!   MeasurementRecordLength (u24) · record · responder nonce (32) · OpaqueLength (u16) ·
//!   opaque data · signature (96).
//! * block: index · specification (`0x01` DMTF) · size (u16) = 3 + value size · value type ·
//!   value size (u16) · value. Value type bit 7 set = raw bit stream, else a digest.
//!
//! Trailing-byte policy: bytes after the signature are refused
//! ([`ParseError::TrailingBytes`]), as NVIDIA's SDK does. A real trustee capture ends in one
//! extra `0x00`; its signature is over the bytes before it and verifies once the byte is
//! removed, but accepting it would let any suffix ride along unsigned.

use alloc::vec::Vec;

use super::error::ParseError;
use super::opaque::OpaqueData;
use super::reader::Reader;

/// Length of the raw `r‖s` P-384 signature that ends the response.
pub(crate) const SIGNATURE_LEN: usize = 96;
/// SPDM version 1.1.
const SPDM_1_1: u8 = 0x11;

/// The GET_MEASUREMENTS request (the first 37 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeasurementRequest {
    /// `SPDMVersion` (`0x11`).
    pub version: u8,
    /// `RequestResponseCode` (`0xE0`).
    pub code: u8,
    /// `Param1` (bit 0: signature requested).
    pub param1: u8,
    /// `Param2` (`0xFF`: all blocks).
    pub param2: u8,
    /// The caller's nonce.
    pub nonce: [u8; 32],
    /// `SlotIDParam`.
    pub slot_id: u8,
}

/// How a block's value is represented (DSP0274 Table 45, bit 7 of DMTFSpecMeasurementValueType).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueRepresentation {
    /// A digest of the measured object.
    Digest,
    /// The raw bit stream itself.
    RawBitStream,
}

/// One measurement block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasurementBlock {
    /// `Index` (1-based; RIM index = index − 1).
    pub index: u8,
    /// `MeasurementSpecification` (`0x01` = DMTF).
    pub specification: u8,
    /// `DMTFSpecMeasurementValueType`, bit 7 included.
    pub value_type: u8,
    /// `DMTFSpecMeasurementValue`.
    pub value: Vec<u8>,
    /// Transcript offset of the block.
    pub offset: usize,
}

impl MeasurementBlock {
    /// Digest or raw bit stream.
    pub const fn representation(&self) -> ValueRepresentation {
        if self.value_type & 0x80 == 0 {
            ValueRepresentation::Digest
        } else {
            ValueRepresentation::RawBitStream
        }
    }

    /// The DMTF value type without the representation bit (e.g. 1 = mutable firmware).
    pub const fn kind(&self) -> u8 {
        self.value_type & 0x7f
    }
}

/// The MEASUREMENTS response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeasurementResponse {
    /// `SPDMVersion` (`0x11`).
    pub version: u8,
    /// `RequestResponseCode` (`0x60`).
    pub code: u8,
    /// `Param1`.
    pub param1: u8,
    /// `Param2`.
    pub param2: u8,
    /// `MeasurementRecordLength`.
    pub record_len: u32,
    /// The blocks, in transcript order.
    pub blocks: Vec<MeasurementBlock>,
    /// The responder's nonce (random; not the caller's).
    pub responder_nonce: [u8; 32],
    /// The opaque data.
    pub opaque: OpaqueData,
    /// `OpaqueLength`.
    pub opaque_len: u16,
    /// The raw `r‖s` signature.
    pub signature: [u8; SIGNATURE_LEN],
}

/// A parsed transcript: request, response, and the bytes the signature covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transcript {
    /// The request.
    pub request: MeasurementRequest,
    /// The response.
    pub response: MeasurementResponse,
    bytes: Vec<u8>,
}

impl Transcript {
    /// Parses request + response.
    ///
    /// # Errors
    /// A [`ParseError`] naming the field and its offset.
    pub fn parse(bytes: &[u8]) -> Result<Self, ParseError> {
        let mut r = Reader::new(bytes, 0);
        let request = MeasurementRequest {
            version: r.expect_u8("request SPDMVersion", &[SPDM_1_1])?,
            code: r.expect_u8("request RequestResponseCode", &[0xE0])?,
            param1: {
                let offset = r.offset();
                let value = r.u8("request Param1")?;
                if value & 1 == 0 {
                    return Err(ParseError::UnexpectedValue {
                        field: "request Param1",
                        offset,
                        found: u32::from(value),
                    });
                }
                value
            },
            param2: r.u8("request Param2")?,
            nonce: r.array::<32>("request Nonce")?,
            slot_id: r.u8("request SlotIDParam")?,
        };

        let version = r.expect_u8("response SPDMVersion", &[SPDM_1_1])?;
        let code = r.expect_u8("response RequestResponseCode", &[0x60])?;
        let param1 = r.u8("response Param1")?;
        let param2 = r.u8("response Param2")?;
        let count_offset = r.offset();
        let declared = r.u8("NumberOfBlocks")?;
        if declared == 0 {
            return Err(ParseError::UnexpectedValue {
                field: "NumberOfBlocks",
                offset: count_offset,
                found: 0,
            });
        }
        let record_len = r.u24("MeasurementRecordLength")?;
        let record_offset = r.offset();
        let record_len_usize = usize::try_from(record_len).unwrap_or(usize::MAX);
        let record = r.take(record_len_usize, "MeasurementRecord")?;
        let blocks = parse_blocks(record, record_offset)?;
        if blocks.len() != usize::from(declared) {
            return Err(ParseError::BlockCount {
                declared: usize::from(declared),
                found: blocks.len(),
            });
        }
        let responder_nonce = r.array::<32>("response Nonce")?;
        let opaque_len = r.u16("OpaqueLength")?;
        let opaque_offset = r.offset();
        let opaque_bytes = r.take(usize::from(opaque_len), "OpaqueData")?;
        let opaque = OpaqueData::parse(opaque_bytes, opaque_offset)?;
        let signature = r.array::<SIGNATURE_LEN>("Signature")?;
        if !r.is_empty() {
            return Err(ParseError::TrailingBytes {
                offset: r.offset(),
                count: r.remaining(),
            });
        }
        Ok(Self {
            request,
            response: MeasurementResponse {
                version,
                code,
                param1,
                param2,
                record_len,
                blocks,
                responder_nonce,
                opaque,
                opaque_len,
                signature,
            },
            bytes: bytes.to_vec(),
        })
    }

    /// The whole transcript.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// What the signature covers: every byte before it.
    pub fn signed_bytes(&self) -> &[u8] {
        let end = self.bytes.len().saturating_sub(SIGNATURE_LEN);
        self.bytes.get(..end).unwrap_or_default()
    }

    /// The block with SPDM index `index`.
    pub fn block(&self, index: u8) -> Option<&MeasurementBlock> {
        self.response.blocks.iter().find(|b| b.index == index)
    }
}

fn parse_blocks(record: &[u8], base: usize) -> Result<Vec<MeasurementBlock>, ParseError> {
    let mut r = Reader::new(record, base);
    let mut blocks: Vec<MeasurementBlock> = Vec::new();
    while !r.is_empty() {
        let offset = r.offset();
        let layout = |_| ParseError::BlockLayout { offset };
        let index = r.u8("block Index").map_err(layout)?;
        let specification = r.expect_u8("block MeasurementSpecification", &[0x01])?;
        let size = r.u16("block MeasurementSize").map_err(layout)?;
        let value_type = r.u8("DMTFSpecMeasurementValueType").map_err(layout)?;
        let value_size = r.u16("DMTFSpecMeasurementValueSize").map_err(layout)?;
        if usize::from(size) != usize::from(value_size).saturating_add(3) {
            return Err(ParseError::BlockLayout { offset });
        }
        let value = r
            .take(usize::from(value_size), "DMTFSpecMeasurementValue")
            .map_err(layout)?
            .to_vec();
        if blocks.iter().any(|b| b.index == index) {
            return Err(ParseError::DuplicateBlockIndex { index, offset });
        }
        blocks.push(MeasurementBlock {
            index,
            specification,
            value_type,
            value,
            offset,
        });
    }
    Ok(blocks)
}
