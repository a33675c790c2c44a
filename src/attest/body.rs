//! Typed request bodies, one shape per endpoint family (spec §2 "Request bodies").
//!
//! Serialised with `serde`; member order follows the real clients (`nonce`, `arch`, the
//! evidence, `claims_version`).

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

/// A generation-1 evidence item (V2): `evidence` is base64 of the evidence's hex text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EvidenceItem {
    /// Base64 of the hexadecimal text of the evidence.
    pub evidence: String,
    /// Base64 of the PEM text of the certificate chain.
    pub certificate: String,
}

/// A generation-2 evidence item (V3, V4): `evidence` is base64 of the raw bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EvidenceItemV2 {
    /// Base64 of the raw evidence bytes.
    pub evidence: String,
    /// Base64 of the PEM text of the certificate chain.
    pub certificate: String,
    /// Firmware version hint used to select reference measurements.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub firmware_version: Option<String>,
}

/// The JSON body of an attest request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum RequestBody {
    /// GPU V1: one device.
    GpuV1 {
        /// 64 hex characters.
        nonce: String,
        /// `HOPPER` or `BLACKWELL`.
        arch: String,
        /// Base64 of the evidence's hex text.
        evidence: String,
        /// Base64 of the PEM chain.
        certificate: String,
    },
    /// GPU V2 (and Switch V2 with `arch` absent).
    V2 {
        /// 64 hex characters.
        nonce: String,
        /// The architecture; absent for Switch V2.
        #[serde(skip_serializing_if = "Option::is_none")]
        arch: Option<String>,
        /// Generation-1 items.
        evidences: Vec<EvidenceItem>,
    },
    /// GPU and Switch V3 and V4.
    List {
        /// 64 hex characters.
        nonce: String,
        /// The architecture.
        arch: String,
        /// Generation-2 items.
        evidence_list: Vec<EvidenceItemV2>,
        /// V4 only; absent means the endpoint's default.
        #[serde(skip_serializing_if = "Option::is_none")]
        claims_version: Option<String>,
    },
}

impl RequestBody {
    /// The body as JSON text.
    pub fn to_json(&self) -> String {
        // Serialising these plain string/struct shapes cannot fail; fall back to an empty
        // object rather than panic, which validation would then refuse.
        crate::json::write::to_string(self).unwrap_or_else(|_| String::from("{}"))
    }
}
