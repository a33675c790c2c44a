//! Why a CoRIM was refused.

use alloc::string::String;
use core::fmt;

use crate::cbor::CborError;
use crate::cose::CoseError;
use crate::error_code::ErrorCode;

/// A CoRIM that cannot be used: not CBOR, not a CoRIM as NVIDIA writes them, outside the
/// budgets, or its signature envelope refused (a signature that does not verify is
/// [`crate::rim::RimError::SignatureInvalid`], as for an XML RIM). Each variant has a stable
/// code; [`CorimError::service_code`] gives the RIM service's numeric code for the same
/// failure of an XML RIM.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CorimError {
    /// The document exceeds [`super::MAX_CORIM_BYTES`].
    TooLarge {
        /// The limit in bytes.
        limit: usize,
        /// The document's size in bytes.
        size: usize,
    },
    /// The bytes (or a CoMID inside) are not one well-formed CBOR item within the CBOR
    /// budgets (depth, items).
    Cbor(CborError),
    /// More of something than the CoRIM budgets allow ([`super::MAX_CORIM_TAGS`], …).
    TooMany {
        /// What: `tags`, `reference-triples`, `measurements`, `alternatives`, `digests`.
        what: &'static str,
        /// The limit.
        limit: usize,
    },
    /// Well-formed CBOR that is not a CoRIM / CoMID as the draft and NVIDIA shape them: a
    /// required member is missing or has the wrong type.
    Schema {
        /// Where, as a path of map keys (`corim.1[0]`, `comid.4.0[1]`).
        field: String,
        /// What is wrong.
        problem: &'static str,
    },
    /// A CoRIM construct this reader refuses rather than half-reads (dependent RIMs,
    /// masked raw values, triples other than reference triples, several digests).
    Unsupported {
        /// What it met.
        what: &'static str,
    },
    /// Two reference measurements of one environment name the same SPDM index.
    DuplicateIndex {
        /// The measurement key (SPDM index, 1-based).
        mkey: u64,
    },
    /// A COSE_Sign1 envelope that is malformed or not ES384 (the `cose` error inside).
    Cose(CoseError),
    /// The document is an unsigned CoRIM where a signed one is required.
    NotSigned,
    /// The protected `content-type` is not `application/rim+cbor`.
    ContentType,
    /// The `x5chain` is missing, or its leaf is not an EC P-384 certificate.
    Certificate {
        /// What is wrong.
        problem: &'static str,
    },
    /// The CoRIM's validity period (its `rim-validity`, or its signer's `signature-validity`
    /// in the protected `corim-meta`) has not begun at the time of verification.
    NotYetValid {
        /// The first second it may be used (Unix seconds).
        not_before: i64,
        /// The time of verification (Unix seconds).
        now: u64,
    },
    /// The CoRIM's validity period (as for [`Self::NotYetValid`]) ended before the time of
    /// verification.
    Expired {
        /// The last second it may be used (Unix seconds).
        not_after: i64,
        /// The time of verification (Unix seconds).
        now: u64,
    },
}

impl CorimError {
    /// The RIM service's numeric code for the same failure of an XML RIM.
    pub fn service_code(&self) -> u16 {
        match self {
            Self::NotSigned => 5012,
            Self::Cose(_) | Self::ContentType => 5014,
            Self::Certificate { .. } => 5010,
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

impl ErrorCode for CorimError {
    fn code(&self) -> &'static str {
        match self {
            Self::TooLarge { .. } => "ERR_CORIM_TOO_LARGE",
            Self::Cbor(_) => "ERR_CORIM_CBOR",
            Self::TooMany { .. } => "ERR_CORIM_TOO_MANY",
            Self::Schema { .. } => "ERR_CORIM_SCHEMA",
            Self::Unsupported { .. } => "ERR_CORIM_UNSUPPORTED",
            Self::DuplicateIndex { .. } => "ERR_CORIM_DUPLICATE_INDEX",
            Self::Cose(_) => "ERR_CORIM_COSE",
            Self::NotSigned => "ERR_CORIM_NOT_SIGNED",
            Self::ContentType => "ERR_CORIM_CONTENT_TYPE",
            Self::Certificate { .. } => "ERR_CORIM_CERTIFICATE",
            Self::NotYetValid { .. } => "ERR_CORIM_NOT_YET_VALID",
            Self::Expired { .. } => "ERR_CORIM_EXPIRED",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::Schema { field, .. } => Some(field),
            _ => None,
        }
    }
}

impl fmt::Display for CorimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge { limit, size } => {
                write!(f, "CoRIM is {size} bytes, more than the {limit}-byte limit")
            }
            Self::Cbor(error) => write!(f, "CoRIM is not well-formed CBOR: {error}"),
            Self::TooMany { what, limit } => {
                write!(f, "CoRIM has more {what} than the limit of {limit}")
            }
            Self::Schema { field, problem } => write!(f, "CoRIM {field}: {problem}"),
            Self::Unsupported { what } => write!(f, "CoRIM uses {what}, which is not supported"),
            Self::DuplicateIndex { mkey } => {
                write!(f, "CoRIM repeats the reference measurement with key {mkey}")
            }
            Self::Cose(error) => write!(f, "CoRIM signature envelope: {error}"),
            Self::NotSigned => f.write_str("CoRIM is not signed (no COSE_Sign1)"),
            Self::ContentType => {
                f.write_str("signed CoRIM content type is not application/rim+cbor")
            }
            Self::Certificate { problem } => write!(f, "CoRIM signer certificate: {problem}"),
            Self::NotYetValid { not_before, now } => write!(
                f,
                "CoRIM is not valid before {not_before} (Unix seconds); it is {now}"
            ),
            Self::Expired { not_after, now } => {
                write!(
                    f,
                    "CoRIM expired at {not_after} (Unix seconds); it is {now}"
                )
            }
        }
    }
}

impl core::error::Error for CorimError {}

impl From<CborError> for CorimError {
    fn from(error: CborError) -> Self {
        Self::Cbor(error)
    }
}
