//! Why the options of an evidence entry could not be used.

use alloc::string::String;
use core::fmt;

use super::ParseError;
use crate::attest::{EvidenceEncodingError, RequestError};
use crate::chain::ChainError;
use crate::cmw::CmwError;
use crate::error_code::ErrorCode;
use crate::rim::RimError;

/// Why options could not be used; the code and `field` are those of the error inside
/// (`ERR_INVALID_ARGUMENT` for a member missing or malformed).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OptionsError {
    /// A member is missing or not what it must be.
    Invalid {
        /// The member (`arch`, `devices[1].certificate`, `revocation.status`).
        field: String,
        /// What it must be, for the message.
        expected: String,
    },
    /// The nonce text is not 64 hex characters, or another member of a request is refused
    /// as the service refuses it (endpoint, arch, claims version).
    Request(RequestError),
    /// Evidence text not in the encoding named (or in none).
    Encoding(EvidenceEncodingError),
    /// The trust anchors could not be read.
    Chain(ChainError),
    /// The RIM anchors could not be read.
    Rim(RimError),
    /// The transcript could not be parsed (`runtimeEvidence`).
    Parse(ParseError),
    /// The evidence is a CMW that is malformed, not NVIDIA's profile, holds another nonce
    /// than `nonce`, or another number of devices than the entry verifies.
    Cmw(CmwError),
}

impl OptionsError {
    pub(super) fn invalid(field: &str, expected: &str) -> Self {
        Self::Invalid {
            field: field.into(),
            expected: expected.into(),
        }
    }

    /// The error of options that are member `parent` of larger options: its field named
    /// from there (`gpus.devices[1].evidence`).
    pub(crate) fn under(self, parent: &str) -> Self {
        match self {
            Self::Invalid { field, expected } => Self::Invalid {
                field: alloc::format!("{parent}.{field}"),
                expected,
            },
            other => other,
        }
    }
}

impl fmt::Display for OptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Invalid { field, expected } => write!(f, "{field} must be {expected}"),
            Self::Request(e) => e.fmt(f),
            Self::Encoding(e) => e.fmt(f),
            Self::Chain(e) => e.fmt(f),
            Self::Rim(e) => e.fmt(f),
            Self::Parse(e) => write!(f, "evidence: {e}"),
            Self::Cmw(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for OptionsError {}

impl ErrorCode for OptionsError {
    fn code(&self) -> &'static str {
        match self {
            Self::Invalid { .. } => "ERR_INVALID_ARGUMENT",
            Self::Request(e) => e.code(),
            Self::Encoding(e) => e.code(),
            Self::Chain(e) => e.code(),
            Self::Rim(e) => e.code(),
            Self::Parse(e) => e.code(),
            Self::Cmw(e) => e.code(),
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::Invalid { field, .. } => Some(field),
            Self::Request(e) => e.field(),
            Self::Encoding(e) => e.field(),
            Self::Chain(e) => e.field(),
            Self::Rim(e) => e.field(),
            Self::Parse(_) => Some("evidence"),
            Self::Cmw(e) => e.field(),
        }
    }
}
