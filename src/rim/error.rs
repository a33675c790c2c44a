//! Why a RIM document, its signature or a RIM id was refused.

use alloc::string::String;
use core::fmt;

use super::corim::CorimError;
use crate::crypto::SignatureError;
use crate::error_code::ErrorCode;
use crate::json::JsonError;

/// A RIM document that cannot be used: not well-formed, not a SWID RIM, or not validly signed.
///
/// Each variant has a stable code. [`RimError::service_code`] gives the real service's
/// numeric code for the same failure.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RimError {
    /// The document exceeds [`super::MAX_RIM_BYTES`].
    TooLarge {
        /// The limit in bytes.
        limit: usize,
        /// The document's size in bytes.
        size: usize,
    },
    /// Not UTF-8 or not well-formed XML (a DTD is refused too).
    Xml {
        /// The parser's description, without document content.
        detail: String,
    },
    /// Elements nest deeper than [`super::MAX_XML_DEPTH`].
    TooDeep,
    /// An element has more than [`super::MAX_XML_ATTRIBUTES`] attributes (counted on the
    /// raw text, before parsing).
    TooManyAttributes {
        /// The limit per element.
        limit: usize,
    },
    /// The document has more than [`super::MAX_XML_NAMESPACES`] namespace declarations
    /// (counted on the raw text, before parsing).
    TooManyNamespaces {
        /// The limit per document.
        limit: usize,
    },
    /// Preparing the document would take more than [`super::MAX_RIM_WORK`] units of work
    /// (counted, not timed) before its signature is checked.
    WorkBudgetExceeded {
        /// The budget in units.
        limit: u64,
    },
    /// Well-formed XML that is not a SWID RIM as NVIDIA writes them: a required element or
    /// attribute is missing, repeated or malformed.
    Schema {
        /// Where: an element or `Element@attribute` path.
        field: String,
        /// What is wrong.
        problem: &'static str,
    },
    /// Two measurement records of one document share an index.
    DuplicateIndex {
        /// The RIM (0-based) index.
        index: u32,
    },
    /// The document is not the RIM the id it was stored or fetched under names
    /// ([`super::check_rim_id`]): its kind, platform, chip or version differ.
    IdMismatch {
        /// The RIM id.
        id: String,
        /// What differs.
        problem: &'static str,
    },
    /// The document has no `ds:Signature` element (service code 5012 RIM_NOT_SIGNED).
    NotSigned,
    /// The `ds:Signature` element is not the one enveloped signature this verifier accepts
    /// (several signatures, not a child of the document element, missing or extra parts).
    SignatureStructure {
        /// What is wrong.
        problem: &'static str,
    },
    /// An algorithm outside the allow-list: C14N 1.1, enveloped-signature, SHA-384,
    /// ECDSA-SHA384.
    UnsupportedAlgorithm {
        /// The element naming it (`CanonicalizationMethod`, `Transform`, …).
        element: &'static str,
        /// The algorithm URI received.
        algorithm: String,
    },
    /// Canonicalisation met a construct it does not implement (an inherited `xml:base`).
    UnsupportedXml {
        /// What it met.
        problem: &'static str,
    },
    /// The SHA-384 digest of the canonical document differs from `DigestValue`: the signed
    /// content was changed (service code 5013 INVALID_RIM_SIGNATURE).
    DigestMismatch,
    /// The ECDSA signature over the canonical `SignedInfo` does not verify with the signer
    /// certificate's key (service code 5013 INVALID_RIM_SIGNATURE).
    SignatureInvalid,
    /// An `X509Certificate` is not base64 of a DER certificate, or the signer key is not an
    /// EC P-384 key (service code 5010 ERROR_PARSING_RIM_CERTIFICATE).
    Certificate {
        /// Position in `X509Data`, 0 = signer.
        index: usize,
        /// What is wrong.
        problem: &'static str,
    },
    /// A signed CoRIM (a document starting with a CBOR array, map or tag) that cannot be
    /// used: its code and service code are the CoRIM reader's.
    Corim(CorimError),
}

impl RimError {
    /// The real service's numeric error code for the same failure.
    pub fn service_code(&self) -> u16 {
        match self {
            Self::NotSigned => 5012,
            Self::DigestMismatch | Self::SignatureInvalid => 5013,
            Self::SignatureStructure { .. } | Self::UnsupportedAlgorithm { .. } => 5014,
            Self::Certificate { .. } => 5010,
            Self::Schema { field, .. } if field.starts_with("Meta") => 4020,
            Self::Corim(error) => error.service_code(),
            // Size, syntax, the XML limits (attributes, namespaces, work) and content: the
            // service's INVALID_GOLDEN_MEASUREMENT, as for a RIM it cannot read.
            _ => 4008,
        }
    }

    pub(crate) fn schema(field: impl Into<String>, problem: &'static str) -> Self {
        Self::Schema {
            field: field.into(),
            problem,
        }
    }
}

impl From<CorimError> for RimError {
    fn from(error: CorimError) -> Self {
        Self::Corim(error)
    }
}

impl From<SignatureError> for RimError {
    fn from(error: SignatureError) -> Self {
        match error {
            SignatureError::InvalidPublicKey => Self::Certificate {
                index: 0,
                problem: "the signer key is not a valid P-384 point",
            },
            _ => Self::SignatureInvalid,
        }
    }
}

impl ErrorCode for RimError {
    fn code(&self) -> &'static str {
        match self {
            Self::TooLarge { .. } => "ERR_RIM_TOO_LARGE",
            Self::Xml { .. } => "ERR_RIM_MALFORMED_XML",
            Self::TooDeep => "ERR_RIM_TOO_DEEP",
            Self::TooManyAttributes { .. } => "ERR_RIM_TOO_MANY_ATTRIBUTES",
            Self::TooManyNamespaces { .. } => "ERR_RIM_TOO_MANY_NAMESPACES",
            Self::WorkBudgetExceeded { .. } => "ERR_RIM_WORK_BUDGET",
            Self::Schema { .. } => "ERR_RIM_SCHEMA",
            Self::DuplicateIndex { .. } => "ERR_RIM_DUPLICATE_INDEX",
            Self::IdMismatch { .. } => "ERR_RIM_ID_MISMATCH",
            Self::NotSigned => "ERR_RIM_NOT_SIGNED",
            Self::SignatureStructure { .. } => "ERR_RIM_SIGNATURE_STRUCTURE",
            Self::UnsupportedAlgorithm { .. } => "ERR_RIM_UNSUPPORTED_ALGORITHM",
            Self::UnsupportedXml { .. } => "ERR_RIM_UNSUPPORTED_XML",
            Self::DigestMismatch => "ERR_RIM_DIGEST_MISMATCH",
            Self::SignatureInvalid => "ERR_RIM_SIGNATURE_INVALID",
            Self::Certificate { .. } => "ERR_RIM_CERTIFICATE",
            Self::Corim(error) => error.code(),
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::Schema { field, .. } => Some(field),
            Self::Corim(error) => error.field(),
            _ => None,
        }
    }
}

impl fmt::Display for RimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge { limit, size } => {
                write!(f, "RIM of {size} bytes exceeds the limit of {limit} bytes")
            }
            Self::Xml { detail } => write!(f, "RIM is not well-formed XML: {detail}"),
            Self::TooDeep => write!(
                f,
                "RIM elements nest deeper than {}",
                super::limits::MAX_XML_DEPTH
            ),
            Self::TooManyAttributes { limit } => {
                write!(f, "RIM element has more than {limit} attributes")
            }
            Self::TooManyNamespaces { limit } => {
                write!(f, "RIM has more than {limit} namespace declarations")
            }
            Self::WorkBudgetExceeded { limit } => {
                write!(f, "RIM needs more than {limit} units of work to check")
            }
            Self::Schema { field, problem } => write!(f, "RIM {field}: {problem}"),
            Self::DuplicateIndex { index } => {
                write!(f, "RIM has two measurement records at index {index}")
            }
            Self::IdMismatch { id, problem } => write!(f, "the RIM is not {id}: {problem}"),
            Self::NotSigned => f.write_str("RIM has no ds:Signature element"),
            Self::SignatureStructure { problem } => write!(f, "RIM signature: {problem}"),
            Self::UnsupportedAlgorithm { element, algorithm } => {
                write!(f, "RIM {element} algorithm {algorithm:?} is not supported")
            }
            Self::UnsupportedXml { problem } => write!(f, "RIM canonicalisation: {problem}"),
            Self::DigestMismatch => {
                f.write_str("RIM reference digest does not match the signed content")
            }
            Self::SignatureInvalid => f.write_str("RIM signature does not verify"),
            Self::Certificate { index, problem } => {
                write!(f, "RIM X509Certificate {index}: {problem}")
            }
            Self::Corim(error) => fmt::Display::fmt(error, f),
        }
    }
}

impl core::error::Error for RimError {}

/// A RIM service response (`GET /v1/rim/{id}`) that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EnvelopeError {
    /// Not JSON, a repeated member, or the wrong shape.
    Json(JsonError),
    /// A required member is absent or not a string.
    MissingField {
        /// The member.
        field: &'static str,
    },
    /// `id` is not the id that was requested.
    IdMismatch {
        /// The id requested.
        expected: String,
        /// The id in the response.
        actual: String,
    },
    /// `rim` is not standard base64.
    InvalidBase64,
    /// `sha256` is not the SHA-256 of the decoded document.
    Sha256Mismatch,
}

impl ErrorCode for EnvelopeError {
    fn code(&self) -> &'static str {
        match self {
            Self::Json(_) => "ERR_RIM_ENVELOPE_JSON",
            Self::MissingField { .. } => "ERR_RIM_ENVELOPE_MISSING_FIELD",
            Self::IdMismatch { .. } => "ERR_RIM_ENVELOPE_ID_MISMATCH",
            Self::InvalidBase64 => "ERR_RIM_ENVELOPE_BASE64",
            Self::Sha256Mismatch => "ERR_RIM_ENVELOPE_SHA256_MISMATCH",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::Json(error) => error.field(),
            Self::MissingField { field } => Some(field),
            Self::IdMismatch { .. } => Some("id"),
            Self::InvalidBase64 => Some("rim"),
            Self::Sha256Mismatch => Some("sha256"),
        }
    }
}

impl fmt::Display for EnvelopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Json(error) => write!(f, "RIM service response: {error}"),
            Self::MissingField { field } => {
                write!(f, "RIM service response lacks the string member {field}")
            }
            Self::IdMismatch { expected, actual } => {
                write!(f, "RIM service answered id {actual:?} for {expected:?}")
            }
            Self::InvalidBase64 => f.write_str("RIM service response: rim is not base64"),
            Self::Sha256Mismatch => {
                f.write_str("RIM service response: sha256 does not match the document")
            }
        }
    }
}

impl core::error::Error for EnvelopeError {}

/// The evidence lacks what a RIM id is built from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RimIdError {
    /// A required input is absent.
    Missing {
        /// The input (`driver_version`, `project`, …).
        field: &'static str,
    },
    /// An input holds characters that cannot appear in a RIM id (anything but ASCII
    /// letters, digits, `.`, `-`), or is empty or longer than 64 bytes.
    Invalid {
        /// The input.
        field: &'static str,
    },
    /// No RIM of this kind exists for the architecture (switches have no driver RIM).
    NotApplicable,
}

impl ErrorCode for RimIdError {
    fn code(&self) -> &'static str {
        match self {
            Self::Missing { .. } => "ERR_RIM_ID_MISSING_INPUT",
            Self::Invalid { .. } => "ERR_RIM_ID_INVALID_INPUT",
            Self::NotApplicable => "ERR_RIM_ID_NOT_APPLICABLE",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::Missing { field } | Self::Invalid { field } => Some(field),
            Self::NotApplicable => None,
        }
    }
}

impl fmt::Display for RimIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing { field } => write!(f, "RIM id needs {field}, which is absent"),
            Self::Invalid { field } => write!(f, "{field} cannot be used in a RIM id"),
            Self::NotApplicable => f.write_str("no RIM of this kind for this architecture"),
        }
    }
}

impl core::error::Error for RimIdError {}

/// A comparison that cannot be carried out (as opposed to one that finds mismatches).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CompareError {
    /// The driver and firmware RIMs both have an active record at this index (service code
    /// 4009 DRIVER_AND_RIM_MEASUREMENT_SAME_INDEX); also raised for an opaque id or name
    /// present in both.
    IndexConflict {
        /// The RIM (0-based) index, or the opaque id for opaque records.
        index: u32,
    },
    /// The NVDEC0 status opaque value is neither `0xAA` (enabled) nor `0x55` (disabled).
    UnknownNvdec0Status {
        /// The value received.
        value: u8,
    },
}

impl CompareError {
    /// The real service's numeric error code for the same failure.
    pub fn service_code(&self) -> u16 {
        match self {
            Self::IndexConflict { .. } => 4009,
            Self::UnknownNvdec0Status { .. } => 5015,
        }
    }
}

impl ErrorCode for CompareError {
    fn code(&self) -> &'static str {
        match self {
            Self::IndexConflict { .. } => "ERR_RIM_INDEX_CONFLICT",
            Self::UnknownNvdec0Status { .. } => "ERR_RIM_UNKNOWN_NVDEC0_STATUS",
        }
    }
}

impl fmt::Display for CompareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::IndexConflict { index } => {
                write!(f, "driver and firmware RIMs both define index {index}")
            }
            Self::UnknownNvdec0Status { value } => {
                write!(
                    f,
                    "NVDEC0 status 0x{value:02x} is neither enabled nor disabled"
                )
            }
        }
    }
}

impl core::error::Error for CompareError {}
