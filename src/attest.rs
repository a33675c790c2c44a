//! Attest requests: the endpoints of the attestation service, their request bodies (V1–V4,
//! GPU and switch), builders that encode evidence the way each version expects, and the
//! validation the service applies before any verification work.
//!
//! The crate documentation shows a request built and validated.

pub(crate) mod arch;
mod arch_row;
mod body;
mod builder;
#[cfg(feature = "cmw")]
mod cmw_items;
mod encoding;
mod endpoint;
mod error;
mod firmware_version;
mod nonce;
mod profile;
mod summary;
mod validate;

pub use arch::{
    check_table, ArchProfile, ChipRow, DeviceKind, DriverRimId, FirmwareRimId, FwidSource,
    ProfileDefect,
};
pub use arch_row::ArchitectureRow;
pub use body::{EvidenceItem, EvidenceItemV2, RequestBody};
pub use builder::{AttestRequestBuilder, EvidenceInput};
pub use encoding::{decode_evidence_text, EvidenceEncoding, EvidenceEncodingError};
pub use endpoint::{Arch, ClaimsVersion, Endpoint, EvidenceGeneration};
pub use error::RequestError;
pub use firmware_version::FirmwareVersion;
pub use nonce::{Nonce, NonceProblem};
pub use profile::{EvidenceProfile, FwidPolicy, FwidRule, RimPath};
pub use summary::{DeviceSummary, RequestSummary};
pub use validate::{
    validate_request, DeviceEvidence, ValidatedRequest, MAX_BODY_BYTES, MAX_CERTIFICATE_BYTES,
    MAX_EVIDENCE_BYTES, MAX_EVIDENCE_ITEMS,
};
