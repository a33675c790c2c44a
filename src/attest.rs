//! Attest requests: the endpoints of the attestation service, their request bodies (V1–V4,
//! GPU and switch), builders that encode evidence the way each version expects, and the
//! validation the service applies before any verification work.
//!
//! Spec: `attestation-service.md` §2 (resources), §4 (endpoints), §8 (limits), §9 (versioning).
//!
//! ```
//! use edgeattest::attest::{validate_request, Arch, AttestRequestBuilder, ClaimsVersion, Endpoint, EvidenceInput, Nonce};
//!
//! # let (transcript, pem) = (vec![0x11, 0xe0, 0, 0], "-----BEGIN CERTIFICATE-----\n...\n");
//! let nonce = Nonce::from_bytes([7; 32]); // 32 bytes of the host's randomness
//! let body = AttestRequestBuilder::new(Endpoint::GpuV4, nonce)
//!     .arch(Arch::Hopper)
//!     .claims_version(ClaimsVersion::V3_0)
//!     .evidence(EvidenceInput { evidence: &transcript, certificate_pem: pem, firmware_version: None })
//!     .build()?;
//! let json = body.to_json();
//! assert!(json.starts_with(r#"{"nonce":"0707"#));
//!
//! // The service side: the same checks, then the decoded evidence.
//! let request = validate_request(Endpoint::GpuV4, json.as_bytes())?;
//! assert_eq!(request.devices()[0].evidence(), transcript.as_slice());
//! assert_eq!(request.claims_version(), ClaimsVersion::V3_0);
//! # Ok::<(), edgeattest::attest::RequestError>(())
//! ```

mod arch;
mod body;
mod builder;
mod encoding;
mod endpoint;
mod error;
mod firmware_version;
mod nonce;
mod validate;

pub use arch::{check_table, ArchProfile, DriverRimId, FirmwareRimId, FwidSource, ProfileDefect};
pub use body::{EvidenceItem, EvidenceItemV2, RequestBody};
pub use builder::{AttestRequestBuilder, EvidenceInput};
pub use encoding::{decode_evidence_text, EvidenceEncoding, EvidenceEncodingError};
pub use endpoint::{Arch, ClaimsVersion, DeviceKind, Endpoint, EvidenceGeneration};
pub use error::RequestError;
pub use firmware_version::FirmwareVersion;
pub use nonce::{Nonce, NonceProblem};
pub use validate::{
    validate_request, DeviceEvidence, ValidatedRequest, MAX_BODY_BYTES, MAX_CERTIFICATE_BYTES,
    MAX_EVIDENCE_BYTES, MAX_EVIDENCE_ITEMS,
};
