//! A serialisable summary of a verified device, for JSON consumers (the JS binding, the
//! verification page). Field names are camelCase; byte strings are lowercase hex.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::opaque::{FeatureFlag, OpaqueFormat};
use super::spdm::ValueRepresentation;
use super::tags::tag_name;
use super::verify::{FwidCheck, VerifiedEvidence};

/// The JSON form of a [`VerifiedEvidence`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct EvidenceReport {
    /// `HOPPER`, `BLACKWELL` or `LS10`.
    pub arch: &'static str,
    /// The firmware that produced the evidence (`hopper-gsp`, `blackwell-gsp`,
    /// `blackwell-fsp`, `ls10`): it decides which RIMs apply and whether an FWID is due.
    #[cfg_attr(
        feature = "ts",
        ts(type = "\"hopper-gsp\" | \"blackwell-gsp\" | \"blackwell-fsp\" | \"ls10\"")
    )]
    pub profile: &'static str,
    /// CN of the leaf's issuer (`GH100 A01 GSP BROM`).
    pub hwmodel: Option<String>,
    /// The chip part of `hwmodel` (`GH100`).
    pub hwmodel_chip: Option<String>,
    /// Leaf serial in decimal.
    pub ueid: String,
    /// Opaque tag 3.
    pub driver_version: Option<String>,
    /// Opaque tag 6.
    pub vbios_version: Option<String>,
    /// The GPU's mode from opaque tag 36 (opaque data version 1 and later): `mpt`
    /// (multi-GPU passthrough), `spt` (single-GPU passthrough), `ppcie` (protected PCIe) or
    /// `invalid` (another value); null for switches and older evidence. The claim
    /// `x-nvidia-gpu-mode`.
    #[cfg_attr(
        feature = "ts",
        ts(type = "\"mpt\" | \"spt\" | \"ppcie\" | \"invalid\" | null")
    )]
    pub mode: Option<&'static str>,
    /// Always true for a verified device.
    pub report_parsed: bool,
    /// Always true for a verified device.
    pub nonce_match: bool,
    /// Always true for a verified device.
    pub signature_verified: bool,
    /// Always true for a verified device.
    pub arch_check: bool,
    /// `matched`; `not-in-evidence` (firmware that may omit it did: passed, as NVIDIA's
    /// verifiers do, but not compared); `not-applicable` (switches, Blackwell FSP).
    #[cfg_attr(
        feature = "ts",
        ts(type = "\"matched\" | \"not-in-evidence\" | \"not-applicable\"")
    )]
    pub fwid: &'static str,
    /// The device chain.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub cert_chain: ChainReport,
    /// The caller's nonce from the request, hex.
    pub nonce: String,
    /// The responder's nonce, hex.
    pub responder_nonce: String,
    /// `legacy` or `nvdaod`.
    #[cfg_attr(feature = "ts", ts(type = "\"legacy\" | \"nvdaod\""))]
    pub opaque_format: &'static str,
    /// Measurement blocks in transcript order.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub measurements: Vec<BlockReport>,
    /// Opaque entries in transcript order.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub opaque: Vec<OpaqueReport>,
    /// The raw `r‖s` signature, hex.
    pub signature: String,
    /// The form the evidence came in: `plain` (the transcript itself), `json-cmw` or
    /// `cbor-cmw` (inside a CMW, NVIDIA's verifier input or a lone transcript record).
    #[cfg_attr(feature = "ts", ts(type = "\"plain\" | \"json-cmw\" | \"cbor-cmw\""))]
    pub evidence_form: &'static str,
}

/// The JSON form of a device chain's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ChainReport {
    /// `valid`, `expired` or `invalid` (not yet valid).
    #[cfg_attr(feature = "ts", ts(type = "\"valid\" | \"expired\" | \"invalid\""))]
    pub status: &'static str,
    /// Earliest notAfter, ISO 8601.
    pub expiration_date: String,
    /// `not-checked`.
    #[cfg_attr(feature = "ts", ts(type = "\"not-checked\""))]
    pub ocsp_status: &'static str,
    /// Subjects, leaf first.
    pub subjects: Vec<String>,
}

/// One measurement block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct BlockReport {
    /// SPDM index (1-based).
    pub index: u8,
    /// DMTF value type, bit 7 included.
    pub value_type: u8,
    /// `digest` or `raw`.
    #[cfg_attr(feature = "ts", ts(type = "\"digest\" | \"raw\""))]
    pub representation: &'static str,
    /// The value, hex.
    pub value: String,
}

/// One opaque entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OpaqueReport {
    /// The tag number.
    pub tag: u16,
    /// NVIDIA's name for it, if known.
    pub name: Option<&'static str>,
    /// Value type (NVDAOD only).
    pub value_type: Option<u16>,
    /// The value, hex.
    pub value: String,
}

impl VerifiedEvidence {
    /// The JSON-ready summary.
    pub fn to_report(&self) -> EvidenceReport {
        let chain = self.chain();
        let response = &self.transcript().response;
        let kind = self.arch().device_kind();
        EvidenceReport {
            arch: self.arch().as_str(),
            profile: self.profile().as_str(),
            hwmodel: chain.hwmodel().map(String::from),
            hwmodel_chip: chain.hwmodel_chip().map(String::from),
            ueid: self.ueid(),
            driver_version: self.driver_version().map(String::from),
            vbios_version: self.vbios_version().map(String::from),
            mode: self.mode().map(FeatureFlag::as_str),
            report_parsed: self.report_parsed(),
            nonce_match: self.nonce_match(),
            signature_verified: self.signature_verified(),
            arch_check: self.arch_check(),
            fwid: match self.fwid() {
                FwidCheck::Matched => "matched",
                FwidCheck::NotInEvidence => "not-in-evidence",
                FwidCheck::NotApplicable => "not-applicable",
            },
            cert_chain: ChainReport {
                status: chain.status().as_claim_str(),
                expiration_date: chain.earliest_not_after_iso(),
                ocsp_status: chain.ocsp_status().as_str(),
                subjects: chain.subjects().map(String::from).collect(),
            },
            nonce: lower_hex(self.transcript().request.nonce),
            responder_nonce: lower_hex(response.responder_nonce),
            opaque_format: match response.opaque.format() {
                OpaqueFormat::Legacy => "legacy",
                OpaqueFormat::Versioned { .. } => "nvdaod",
            },
            measurements: response
                .blocks
                .iter()
                .map(|b| BlockReport {
                    index: b.index,
                    value_type: b.value_type,
                    representation: match b.representation() {
                        ValueRepresentation::Digest => "digest",
                        ValueRepresentation::RawBitStream => "raw",
                    },
                    value: lower_hex(&b.value),
                })
                .collect(),
            opaque: response
                .opaque
                .entries()
                .iter()
                .map(|e| OpaqueReport {
                    tag: e.tag,
                    name: tag_name(e.tag, kind),
                    value_type: e.value_type,
                    value: lower_hex(&e.value),
                })
                .collect(),
            signature: lower_hex(response.signature),
            evidence_form: self.evidence_form().as_str(),
        }
    }
}

/// Lowercase hex of `bytes`, as `hex::encode` writes it, by table: a report holds a few
/// kilobytes of hex, and `hex::encode` builds its text one `char` at a time (a fifth of the
/// CPU of completing a device beside its signature checks). The digits are stored by plain
/// slice indexing into a buffer of the final size: the crate is built for size, where a
/// `Vec::push` per digit stays a call (most of the cost of building a report).
fn lower_hex(bytes: impl AsRef<[u8]>) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let bytes: &[u8] = bytes.as_ref();
    let mut out = alloc::vec![0u8; bytes.len().saturating_mul(2)];
    let digits: &mut [u8] = &mut out;
    let mut i = 0;
    while i < bytes.len() && 2 * i + 1 < digits.len() {
        let b = bytes[i];
        digits[2 * i] = DIGITS[usize::from(b >> 4)];
        digits[2 * i + 1] = DIGITS[usize::from(b & 0x0f)];
        i += 1;
    }
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn lower_hex_is_hex_encode() {
        let bytes: alloc::vec::Vec<u8> = (0..=255).collect();
        assert_eq!(super::lower_hex(&bytes), hex::encode(&bytes));
        assert_eq!(super::lower_hex([]), "");
    }
}
