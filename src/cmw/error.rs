//! Why a CMW was refused: one variant per rule, each with its own stable `ERR_CMW_*` code and
//! the path of the member it is about (`gpu_0.evidence`; `$` is the CMW itself).

use alloc::string::String;
use core::fmt;

use crate::error_code::ErrorCode;

/// A CMW that is malformed, over a budget, or not what NVIDIA's evidence profile allows.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CmwError {
    /// The CMW is larger than its byte budget (`ERR_CMW_TOO_LARGE`).
    TooLarge {
        /// Its size in bytes.
        size: usize,
        /// The budget.
        limit: usize,
    },
    /// Collections nest deeper than the budget (`ERR_CMW_TOO_DEEP`).
    TooDeep {
        /// The collection one level too deep.
        path: String,
        /// The budget.
        limit: usize,
    },
    /// More entries and records than the budget (`ERR_CMW_TOO_MANY_ITEMS`).
    TooManyItems {
        /// The budget.
        limit: usize,
    },
    /// Not JSON or CBOR, trailing bytes after the one item, or a first byte that starts no
    /// CMW (`ERR_CMW_SYNTAX`).
    Syntax {
        /// What the reader said, without the input's content.
        detail: String,
    },
    /// A collection names a label twice (`ERR_CMW_DUPLICATE_LABEL`).
    DuplicateLabel {
        /// The collection.
        path: String,
        /// The repeated label.
        label: String,
    },
    /// A member is not a record, collection or tag of the draft's shape (`ERR_CMW_SHAPE`).
    Shape {
        /// The member.
        path: String,
        /// What it must be.
        expected: &'static str,
    },
    /// A JSON record's value is not base64url without padding (`ERR_CMW_BASE64`).
    Base64 {
        /// The record.
        path: String,
    },
    /// A record's type is neither a media type nor a CoAP Content-Format
    /// (`ERR_CMW_MEDIA_TYPE`).
    MediaType {
        /// The record.
        path: String,
    },
    /// A record's `ind` is zero, sets an unregistered bit, or is present where the profile
    /// forbids it (`ERR_CMW_INDICATOR`).
    Indicator {
        /// The record.
        path: String,
        /// The value found.
        value: u64,
    },
    /// A collection holds no entry (`ERR_CMW_EMPTY_COLLECTION`).
    EmptyCollection {
        /// The collection.
        path: String,
    },
    /// A collection's `__cmwc_t` is absent, malformed, or not the profile's
    /// (`ERR_CMW_COLLECTION_TYPE`).
    CollectionType {
        /// The collection.
        path: String,
        /// The type found, if any.
        found: Option<String>,
    },
    /// The CMW is well formed but not NVIDIA's evidence profile: a member that is not an
    /// evidence item, an item without evidence, a record of the wrong media type
    /// (`ERR_CMW_PROFILE`).
    Profile {
        /// The member.
        path: String,
        /// What is wrong.
        problem: &'static str,
    },
    /// A nonce record is not 32 bytes, or an item's nonce differs from the collection's
    /// (`ERR_CMW_NONCE`).
    Nonce {
        /// The record.
        path: String,
        /// What is wrong.
        problem: &'static str,
    },
    /// The CMW's nonce is not the nonce of the request it came with
    /// (`ERR_CMW_NONCE_MISMATCH`).
    NonceMismatch {
        /// The record.
        path: String,
    },
    /// A `hints` record is not a JSON object, or its `fwversion` is not a string
    /// (`ERR_CMW_HINTS`).
    Hints {
        /// The record.
        path: String,
    },
    /// An entry that verifies one device was given a CMW of another number of devices
    /// (`ERR_CMW_DEVICE_COUNT`).
    DeviceCount {
        /// The devices in the CMW.
        count: usize,
    },
}

impl fmt::Display for CmwError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge { size, limit } => {
                write!(f, "CMW of {size} bytes exceeds the limit of {limit} bytes")
            }
            Self::TooDeep { path, limit } => {
                write!(f, "CMW {path}: collections nest deeper than {limit} levels")
            }
            Self::TooManyItems { limit } => write!(f, "CMW holds more than {limit} items"),
            Self::Syntax { detail } => write!(f, "not a CMW: {detail}"),
            Self::DuplicateLabel { path, label } => {
                write!(f, "CMW {path}: label {label:?} appears twice")
            }
            Self::Shape { path, expected } => write!(f, "CMW {path} must be {expected}"),
            Self::Base64 { path } => {
                write!(f, "CMW {path}: value is not base64url without padding")
            }
            Self::MediaType { path } => write!(
                f,
                "CMW {path}: type is not a media type or a CoAP Content-Format"
            ),
            Self::Indicator { path, value } => {
                write!(f, "CMW {path}: indicator {value} is not accepted here")
            }
            Self::EmptyCollection { path } => write!(f, "CMW {path}: collection is empty"),
            Self::CollectionType { path, found } => match found {
                Some(found) => write!(f, "CMW {path}: collection type {found:?} is not accepted"),
                None => write!(f, "CMW {path}: collection type (__cmwc_t) is missing"),
            },
            Self::Profile { path, problem } => write!(f, "CMW {path}: {problem}"),
            Self::Nonce { path, problem } => write!(f, "CMW {path}: {problem}"),
            Self::NonceMismatch { path } => {
                write!(f, "CMW {path}: nonce is not the request's nonce")
            }
            Self::Hints { path } => write!(
                f,
                "CMW {path}: hints must be a JSON object whose fwversion is a string"
            ),
            Self::DeviceCount { count } => write!(
                f,
                "CMW holds {count} devices; this entry verifies one (prepareEvidence takes many)"
            ),
        }
    }
}

impl core::error::Error for CmwError {}

impl ErrorCode for CmwError {
    fn code(&self) -> &'static str {
        match self {
            Self::TooLarge { .. } => "ERR_CMW_TOO_LARGE",
            Self::TooDeep { .. } => "ERR_CMW_TOO_DEEP",
            Self::TooManyItems { .. } => "ERR_CMW_TOO_MANY_ITEMS",
            Self::Syntax { .. } => "ERR_CMW_SYNTAX",
            Self::DuplicateLabel { .. } => "ERR_CMW_DUPLICATE_LABEL",
            Self::Shape { .. } => "ERR_CMW_SHAPE",
            Self::Base64 { .. } => "ERR_CMW_BASE64",
            Self::MediaType { .. } => "ERR_CMW_MEDIA_TYPE",
            Self::Indicator { .. } => "ERR_CMW_INDICATOR",
            Self::EmptyCollection { .. } => "ERR_CMW_EMPTY_COLLECTION",
            Self::CollectionType { .. } => "ERR_CMW_COLLECTION_TYPE",
            Self::Profile { .. } => "ERR_CMW_PROFILE",
            Self::Nonce { .. } => "ERR_CMW_NONCE",
            Self::NonceMismatch { .. } => "ERR_CMW_NONCE_MISMATCH",
            Self::Hints { .. } => "ERR_CMW_HINTS",
            Self::DeviceCount { .. } => "ERR_CMW_DEVICE_COUNT",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::TooDeep { path, .. }
            | Self::DuplicateLabel { path, .. }
            | Self::Shape { path, .. }
            | Self::Base64 { path }
            | Self::MediaType { path }
            | Self::Indicator { path, .. }
            | Self::EmptyCollection { path }
            | Self::CollectionType { path, .. }
            | Self::Profile { path, .. }
            | Self::Nonce { path, .. }
            | Self::NonceMismatch { path }
            | Self::Hints { path } => Some(path),
            Self::TooLarge { .. }
            | Self::TooManyItems { .. }
            | Self::Syntax { .. }
            | Self::DeviceCount { .. } => None,
        }
    }
}
