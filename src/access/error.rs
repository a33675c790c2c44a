//! Errors of the access module: key text, key-store configuration, and the reasons a request
//! is denied.

use alloc::string::String;
use core::fmt;

use crate::error_code::ErrorCode;
use crate::json::JsonError;

/// Why a string is not a well-formed API key. Detected offline, before any lookup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyFormatError {
    /// Not `super::key::KEY_LEN` bytes long.
    Length {
        /// The length of every key.
        expected: usize,
        /// The length received.
        actual: usize,
    },
    /// Does not start with `eak_`.
    Prefix,
    /// The type tag is not `per` or `svc`.
    Type,
    /// The random part or the checksum holds a character outside `[0-9A-Za-z]`, or a
    /// separator is missing.
    Charset,
    /// The checksum does not match: a mistyped or made-up key.
    Checksum,
}

impl fmt::Display for KeyFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Length { expected, actual } => {
                write!(f, "an API key is {expected} characters long, not {actual}")
            }
            Self::Prefix => f.write_str("an API key starts with \"eak_\""),
            Self::Type => f.write_str("the API key type is not \"per\" or \"svc\""),
            Self::Charset => {
                f.write_str("the API key holds a character outside its base62 alphabet")
            }
            Self::Checksum => f.write_str("the API key checksum does not match (mistyped?)"),
        }
    }
}

impl core::error::Error for KeyFormatError {}

impl ErrorCode for KeyFormatError {
    fn code(&self) -> &'static str {
        match self {
            Self::Length { .. } => "ERR_KEY_LENGTH",
            Self::Prefix => "ERR_KEY_PREFIX",
            Self::Type => "ERR_KEY_TYPE",
            Self::Charset => "ERR_KEY_CHARSET",
            Self::Checksum => "ERR_KEY_CHECKSUM",
        }
    }
}

/// Why key-store configuration was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyStoreError {
    /// Not JSON, or a member is repeated.
    Json(JsonError),
    /// A required member is absent.
    MissingField {
        /// The member, e.g. `keys[0].services`.
        field: String,
    },
    /// A member has the wrong JSON type.
    WrongType {
        /// The member.
        field: String,
        /// What was expected.
        expected: &'static str,
    },
    /// A member not allowed here, such as `scopes` on a personal key.
    UnexpectedField {
        /// The member.
        field: String,
    },
    /// `type` is not `personal` or `service`.
    UnknownKeyType {
        /// The member.
        field: String,
        /// The value received.
        value: String,
    },
    /// A role name the spec does not define.
    UnknownRole {
        /// The member.
        field: String,
        /// The value received.
        value: String,
    },
    /// A scope name the spec does not define.
    UnknownScope {
        /// The member.
        field: String,
        /// The value received.
        value: String,
    },
    /// `digest` is not 64 hex digits.
    InvalidDigest {
        /// The member.
        field: String,
    },
    /// `id` is empty, too long, or holds characters outside `[A-Za-z0-9._-]`.
    InvalidId {
        /// The member.
        field: String,
    },
    /// Two records share an id.
    DuplicateId {
        /// The later record's member.
        field: String,
        /// The id.
        id: String,
    },
    /// Two records share a digest.
    DuplicateDigest {
        /// The later record's member.
        field: String,
    },
    /// The JSON text is longer than [`MAX_KEYSTORE_BYTES`](super::MAX_KEYSTORE_BYTES).
    TooLarge {
        /// Its length in bytes.
        size: usize,
    },
    /// `keys` has more than [`MAX_KEYS`](super::MAX_KEYS) records.
    TooManyKeys {
        /// The number of records.
        count: usize,
    },
    /// A string member is longer than its cap ([`MAX_KEY_ID_LEN`](super::MAX_KEY_ID_LEN)
    /// for `id` is reported as [`Self::InvalidId`]; every other string has
    /// [`MAX_KEYSTORE_STRING_LEN`](super::MAX_KEYSTORE_STRING_LEN)).
    StringTooLong {
        /// The member.
        field: String,
        /// The cap, in bytes.
        max: usize,
    },
    /// `roles`, `scopes` or `services` has more than
    /// [`MAX_KEYSTORE_LIST_LEN`](super::MAX_KEYSTORE_LIST_LEN) items.
    TooManyItems {
        /// The member.
        field: String,
        /// The cap.
        max: usize,
    },
}

impl fmt::Display for KeyStoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Json(error) => write!(f, "key store: {error}"),
            Self::MissingField { field } => write!(f, "key store: {field} is required"),
            Self::WrongType { field, expected } => {
                write!(f, "key store: {field} must be {expected}")
            }
            Self::UnexpectedField { field } => {
                write!(f, "key store: {field} is not allowed here")
            }
            Self::UnknownKeyType { field, value } => write!(
                f,
                "key store: {field} is {value:?}, not \"personal\" or \"service\""
            ),
            Self::UnknownRole { field, value } => {
                write!(f, "key store: {field} names an unknown role {value:?}")
            }
            Self::UnknownScope { field, value } => {
                write!(f, "key store: {field} names an unknown scope {value:?}")
            }
            Self::InvalidDigest { field } => {
                write!(f, "key store: {field} must be 64 hex digits (SHA-256)")
            }
            Self::InvalidId { field } => write!(
                f,
                "key store: {field} must be 1 to {} characters of [A-Za-z0-9._-]",
                super::limits::MAX_KEY_ID_LEN
            ),
            Self::DuplicateId { field, id } => {
                write!(f, "key store: {field} repeats the id {id:?}")
            }
            Self::DuplicateDigest { field } => {
                write!(f, "key store: {field} repeats another record's digest")
            }
            Self::TooLarge { size } => write!(
                f,
                "key store: {size} bytes of JSON, more than the {} allowed",
                super::limits::MAX_KEYSTORE_BYTES
            ),
            Self::TooManyKeys { count } => write!(
                f,
                "key store: {count} records, more than the {} allowed",
                super::limits::MAX_KEYS
            ),
            Self::StringTooLong { field, max } => {
                write!(f, "key store: {field} is longer than {max} bytes")
            }
            Self::TooManyItems { field, max } => {
                write!(f, "key store: {field} has more than {max} items")
            }
        }
    }
}

impl core::error::Error for KeyStoreError {}

impl ErrorCode for KeyStoreError {
    fn code(&self) -> &'static str {
        match self {
            Self::Json(JsonError::DuplicateMember { .. }) => "ERR_KEYSTORE_DUPLICATE_MEMBER",
            Self::Json(_) => "ERR_KEYSTORE_MALFORMED_JSON",
            Self::MissingField { .. } => "ERR_KEYSTORE_MISSING_FIELD",
            Self::WrongType { .. } => "ERR_KEYSTORE_WRONG_TYPE",
            Self::UnexpectedField { .. } => "ERR_KEYSTORE_UNEXPECTED_FIELD",
            Self::UnknownKeyType { .. } => "ERR_KEYSTORE_UNKNOWN_KEY_TYPE",
            Self::UnknownRole { .. } => "ERR_KEYSTORE_UNKNOWN_ROLE",
            Self::UnknownScope { .. } => "ERR_KEYSTORE_UNKNOWN_SCOPE",
            Self::InvalidDigest { .. } => "ERR_KEYSTORE_INVALID_DIGEST",
            Self::InvalidId { .. } => "ERR_KEYSTORE_INVALID_ID",
            Self::DuplicateId { .. } => "ERR_KEYSTORE_DUPLICATE_ID",
            Self::DuplicateDigest { .. } => "ERR_KEYSTORE_DUPLICATE_DIGEST",
            Self::TooLarge { .. } => "ERR_KEYSTORE_TOO_LARGE",
            Self::TooManyKeys { .. } => "ERR_KEYSTORE_TOO_MANY_KEYS",
            Self::StringTooLong { .. } => "ERR_KEYSTORE_STRING_TOO_LONG",
            Self::TooManyItems { .. } => "ERR_KEYSTORE_TOO_MANY_ITEMS",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::Json(error) => error.field(),
            Self::MissingField { field }
            | Self::WrongType { field, .. }
            | Self::UnexpectedField { field }
            | Self::UnknownKeyType { field, .. }
            | Self::UnknownRole { field, .. }
            | Self::UnknownScope { field, .. }
            | Self::InvalidDigest { field }
            | Self::InvalidId { field }
            | Self::DuplicateId { field, .. }
            | Self::DuplicateDigest { field }
            | Self::StringTooLong { field, .. }
            | Self::TooManyItems { field, .. } => Some(field),
            Self::TooManyKeys { .. } => Some("keys"),
            Self::TooLarge { .. } => None,
        }
    }
}

/// Why a gateway configuration was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GatewayConfigError {
    /// The realm is empty, longer than 64 bytes, or holds `"`, `\` or non-visible
    /// characters (it is sent inside a quoted string, RFC 9110 §11.2).
    InvalidRealm,
    /// The service name is empty or longer than 64 bytes.
    InvalidService,
}

impl fmt::Display for GatewayConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidRealm => f.write_str(
                "the realm must be 1 to 64 visible ASCII characters without quote or backslash",
            ),
            Self::InvalidService => f.write_str("the service name must be 1 to 64 bytes"),
        }
    }
}

impl core::error::Error for GatewayConfigError {}

impl ErrorCode for GatewayConfigError {
    fn code(&self) -> &'static str {
        match self {
            Self::InvalidRealm => "ERR_ACCESS_INVALID_REALM",
            Self::InvalidService => "ERR_ACCESS_INVALID_SERVICE",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::InvalidRealm => Some("realm"),
            Self::InvalidService => Some("service"),
        }
    }
}
