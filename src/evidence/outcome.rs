//! The serialisable results of the evidence entries that are not a [`DeviceReport`]: one
//! device's outcome in a batch ([`DeviceResult`]) and a validated chain
//! ([`CertificateChainReport`]). camelCase, as JS and JSON callers read them.
//!
//! [`DeviceReport`]: super::DeviceReport

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::{Serialize, Serializer};

use super::{EvidenceReport, VerifiedEvidence, VerifyError};
use crate::chain::VerifiedChain;
use crate::error_code::ErrorCode;

/// One device of a batch: `{ ok: true, report }` or `{ ok: false, error }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(untagged)]
pub enum DeviceResult {
    /// The device verified.
    Passed {
        /// Always `true`.
        #[cfg_attr(feature = "ts", ts(type = "true"))]
        ok: bool,
        /// Its report.
        report: Box<EvidenceReport>,
    },
    /// The device failed.
    Failed {
        /// Always `false`.
        #[cfg_attr(feature = "ts", ts(type = "false"))]
        ok: bool,
        /// Why.
        #[cfg_attr(feature = "ts", ts(inline))]
        error: DeviceError,
    },
}

/// Why a device of a batch failed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct DeviceError {
    /// The stable code.
    pub code: &'static str,
    /// For people.
    pub message: String,
    /// The real service's numeric code.
    pub service_code: u16,
}

impl DeviceResult {
    /// Each outcome of a batch, in order.
    pub fn list(results: Vec<Result<VerifiedEvidence, VerifyError>>) -> Vec<Self> {
        results.into_iter().map(Self::from).collect()
    }
}

impl From<Result<VerifiedEvidence, VerifyError>> for DeviceResult {
    fn from(result: Result<VerifiedEvidence, VerifyError>) -> Self {
        match result {
            Ok(device) => Self::Passed {
                ok: true,
                report: Box::new(device.to_report()),
            },
            Err(err) => Self::Failed {
                ok: false,
                error: DeviceError {
                    code: err.code(),
                    message: err.to_string(),
                    service_code: err.service_code(),
                },
            },
        }
    }
}

/// A validated PEM chain (the JS `ChainReportJs`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ChainReportJs"))]
#[serde(rename_all = "camelCase")]
pub struct CertificateChainReport {
    /// `valid`, `expired` or `invalid`.
    #[cfg_attr(feature = "ts", ts(type = r#""valid" | "expired" | "invalid""#))]
    pub status: &'static str,
    /// The earliest `notAfter` of the chain, ISO 8601.
    pub expiration_date: String,
    /// Always `not-checked`: the core does no I/O (see the OCSP exchange).
    #[cfg_attr(feature = "ts", ts(type = r#""not-checked""#))]
    pub ocsp_status: &'static str,
    /// Subjects, leaf first.
    pub subjects: Vec<String>,
    /// The leaf's serial in decimal.
    pub ueid: String,
    /// CN of the leaf's issuer.
    pub hwmodel: Option<String>,
    /// The leaf's SEC1 public key (a `Uint8Array` in JS, an array of numbers in JSON).
    #[serde(serialize_with = "bytes")]
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array"))]
    pub leaf_public_key: Vec<u8>,
}

impl CertificateChainReport {
    /// The report of `chain`.
    pub fn new(chain: &VerifiedChain) -> Self {
        Self {
            status: chain.status().as_claim_str(),
            expiration_date: chain.earliest_not_after_iso(),
            ocsp_status: "not-checked",
            subjects: chain.subjects().map(String::from).collect(),
            ueid: chain.ueid(),
            hwmodel: chain.hwmodel().map(String::from),
            leaf_public_key: chain.leaf_public_key_sec1().to_vec(),
        }
    }
}

fn bytes<S: Serializer>(value: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_bytes(value)
}
