//! What verification established about one device: the input of every claims version.
//!
//! Verification (evidence, certificate chain, RIMs) fills a [`DeviceOutcome`]; the claims
//! builders of each version only read it. A field is `None` when the step that computes it
//! did not run or could not finish — claims 3.0 and 4.0 then say `null`.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use crate::attest::DeviceKind;
use crate::chain::{ChainStatus, VerifiedChain};
use crate::rim::{MismatchRecord, OpaqueMismatch};

/// Status of a certificate chain, as the real service reports it in
/// `x-nvidia-cert-status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum CertStatus {
    /// Every link verifies and every certificate is within its validity at `now`.
    Valid,
    /// Every link verifies but a certificate is outside its validity at `now`.
    Expired,
    /// A link does not verify, or the chain does not end at a trusted root.
    Invalid,
    /// A certificate is revoked (reported only once revocation is checked).
    Revoked,
}

/// Revocation (OCSP) status, `x-nvidia-cert-ocsp-status`: the crate's one revocation type.
/// The service writes `good`, `revoked` or `unknown` (a chain it did not check is `unknown`,
/// with a warning), never `not-checked`.
pub(crate) use crate::chain::RevocationStatus;

/// One certificate chain's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainOutcome {
    /// Path validation and validity at `now`.
    pub status: CertStatus,
    /// Revocation status.
    pub ocsp: RevocationStatus,
    /// The earliest `notAfter` of the chain.
    pub earliest_expiry: Option<crate::time::UnixTime>,
    /// The revocation reason, when revoked.
    pub revocation_reason: Option<String>,
    /// The revocation time of the certificate the chain is reported revoked (or on hold)
    /// for, when one is.
    pub revocation_time: Option<crate::time::UnixTime>,
}

/// One reference-measurement (RIM) document's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RimOutcome {
    /// The document was found (bundled, in the RIM folder, or from the RIM service).
    pub fetched: bool,
    /// The document parsed as a SWID RIM with the expected elements.
    pub schema_validated: Option<bool>,
    /// The signing chain's verdict (3.0: the `*-rim-cert-chain` object).
    pub cert_chain: Option<ChainOutcome>,
    /// The XML signature verified with the chain's leaf key.
    pub signature_verified: Option<bool>,
    /// The RIM's `colloquialVersion` equals the version in the evidence.
    pub version_match: Option<bool>,
    /// The document holds measurements to compare.
    pub measurements_available: Option<bool>,
}

impl RimOutcome {
    /// `*-rim-cert-validated` of claims 1.0 and 2.0: a chain that verified, expired or not
    /// (the real service reports expiry apart, in 3.0).
    pub fn cert_validated(&self) -> Option<bool> {
        self.cert_chain
            .as_ref()
            .map(|chain| matches!(chain.status, CertStatus::Valid | CertStatus::Expired))
    }
}

/// The outcome of comparing runtime measurements with the RIMs.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MeasurementOutcome {
    /// Every active golden measurement matched.
    Match,
    /// At least one did not; the records say which.
    Mismatch(Vec<MismatchRecord>),
    /// The comparison could not run (no evidence, no RIM, an earlier failure).
    NotRun,
}

/// The error the real service reports in `x-nvidia-error-details`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorDetails {
    /// The numeric code, e.g. 4010.
    pub code: u16,
    /// The request member concerned, e.g. `nonce`.
    pub field_name: String,
    /// e.g. `400 BAD_REQUEST`.
    pub http_status: String,
    /// Human-readable description.
    pub description: String,
    /// The symbolic name, e.g. `NONCE_NOT_MATCHING`.
    pub message: String,
}

/// Everything the claims of any version need about one device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceOutcome {
    /// GPU or switch.
    pub kind: DeviceKind,
    /// The request's `arch` agrees with the evidence (and the chain's model).
    pub arch_check: bool,
    /// The evidence and its certificate chain verified: the RIM stage was reached. Claims
    /// 1.0 and 2.0 give a device that failed before it only the error (the real service's
    /// observed shape); later failures keep every claim.
    pub evidence_verified: bool,
    /// The evidence parsed as an SPDM GET_MEASUREMENTS transcript.
    pub report_parsed: bool,
    /// The evidence signature verified with the leaf key.
    pub signature_verified: Option<bool>,
    /// The evidence nonce equals the request nonce.
    pub nonce_match: Option<bool>,
    /// The device certificate chain's verdict.
    pub cert_chain: Option<ChainOutcome>,
    /// The evidence FWID equals the leaf certificate's (`None`: not compared).
    pub fwid_match: Option<bool>,
    /// The hardware model (CN of the chain's second certificate).
    pub hwmodel: Option<String>,
    /// The decimal serial number of the leaf certificate.
    pub ueid: Option<String>,
    /// The OEM id from the driver RIM (`FirmwareManufacturerId`), GPUs only.
    pub oemid: Option<String>,
    /// The driver version from the evidence (GPUs).
    pub driver_version: Option<String>,
    /// The VBIOS (GPU) or BIOS (switch) version from the evidence.
    pub firmware_version: Option<String>,
    /// The driver RIM's verdict (GPUs).
    pub driver_rim: Option<RimOutcome>,
    /// The firmware RIM's verdict.
    pub firmware_rim: Option<RimOutcome>,
    /// Driver and firmware RIMs measure disjoint indexes (GPUs).
    pub index_no_conflict: Option<bool>,
    /// The measurement comparison.
    pub measurements: MeasurementOutcome,
    /// Opaque-data floors that were not met (claims 4.0).
    pub opaque_mismatches: Vec<OpaqueMismatch>,
    /// Opaque values the RIMs flag for inclusion (claims 4.0 `x-nvidia-attester-claims`).
    pub attester_claims: alloc::collections::BTreeMap<String, u64>,
    /// PDIs of the switches this GPU is connected to (claims 4.0, optional).
    pub switch_pdis: Option<Vec<String>>,
    /// The GPU's mode from the evidence's feature flag (`mpt`, `spt`, `ppcie`, `invalid`),
    /// when the evidence carries it: the claim `x-nvidia-gpu-mode`.
    pub mode: Option<&'static str>,
    /// A switch's own PDI (switch claims 4.0, optional).
    pub switch_pdi: Option<String>,
    /// PDIs of the GPUs this switch is connected to (switch claims 4.0, optional).
    pub switch_gpu_pdis: Option<Vec<String>>,
    /// Secure boot state: true only when every check passed.
    pub secure_boot: Option<bool>,
    /// Debug status: `disabled` only when every check passed.
    pub debug_status: Option<String>,
    /// A warning the device token carries (e.g. revocation not checked).
    pub warning: Option<String>,
    /// The first failure, as the real service reports it.
    pub error: Option<ErrorDetails>,
}

impl DeviceOutcome {
    /// The device's overall verdict: every check passed and the measurements matched.
    pub fn passed(&self) -> bool {
        self.error.is_none() && matches!(self.measurements, MeasurementOutcome::Match)
    }
}

impl From<&VerifiedChain> for ChainOutcome {
    /// A validated path as the claims report it; revocation is not checked yet.
    fn from(chain: &VerifiedChain) -> Self {
        Self {
            status: match chain.status() {
                ChainStatus::Valid => CertStatus::Valid,
                ChainStatus::Expired => CertStatus::Expired,
                _ => CertStatus::Invalid,
            },
            ocsp: RevocationStatus::Unknown,
            earliest_expiry: Some(chain.earliest_not_after()),
            revocation_reason: None,
            revocation_time: None,
        }
    }
}
