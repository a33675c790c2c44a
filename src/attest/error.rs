//! Why an attest request was refused before any verification work.

use alloc::string::String;
use core::fmt;

use super::endpoint::Endpoint;
use super::nonce::NonceProblem;
use crate::error_code::ErrorCode;
use crate::json::JsonError;

/// A request body that the service refuses with HTTP 400 (413 for [`Self::BodyTooLarge`]).
///
/// Each variant has its own stable code; variants about one member name it in `field`,
/// using the JSON path of the member (`evidence_list[2].certificate`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestError {
    /// The body exceeds [`super::MAX_BODY_BYTES`].
    BodyTooLarge {
        /// The limit in bytes.
        limit: usize,
        /// The body's size in bytes.
        size: usize,
    },
    /// The body is empty (the real service's 4001 EMPTY_REQUEST).
    EmptyBody,
    /// A list holds no evidence item.
    EmptyEvidenceList {
        /// `evidences` or `evidence_list`.
        field: String,
    },
    /// An `evidence` member in another of the evidence encodings than its generation's
    /// (`ERR_EVIDENCE_ENCODING`, the code of every entry that decodes evidence).
    EvidenceEncoding(super::EvidenceEncodingError),
    /// A member is not standard base64 (RFC 4648 §4; padding optional, no whitespace).
    InvalidBase64 {
        /// The member.
        field: String,
    },
    /// A certificate member does not decode to PEM text holding a certificate.
    InvalidCertificateText {
        /// The member.
        field: String,
    },
    /// `arch` is not one of the endpoint's values.
    InvalidArch {
        /// The endpoint.
        endpoint: Endpoint,
        /// The value received.
        value: String,
    },
    /// `claims_version` is not one of the endpoint's values.
    InvalidClaimsVersion {
        /// The endpoint.
        endpoint: Endpoint,
        /// The value received.
        value: String,
    },
    /// Generation-1 evidence does not decode to hexadecimal text.
    InvalidEvidenceHex {
        /// The member.
        field: String,
    },
    /// `firmware_version` is not dotted groups of hex digits.
    InvalidFirmwareVersion {
        /// The member.
        field: String,
    },
    /// The nonce is not 64 hexadecimal characters.
    InvalidNonce {
        /// What is wrong with it.
        problem: NonceProblem,
    },
    /// A decoded evidence or certificate exceeds its limit.
    ItemTooLarge {
        /// The member.
        field: String,
        /// The limit in bytes.
        limit: usize,
    },
    /// The body is not JSON, or repeats a member name.
    Json(JsonError),
    /// A required member is absent.
    MissingField {
        /// The member.
        field: String,
    },
    /// The body (or an evidence item) is not a JSON object.
    NotAnObject {
        /// `$` for the body, else the item's path.
        field: String,
    },
    /// More evidence items than [`super::MAX_EVIDENCE_ITEMS`].
    TooManyEvidenceItems {
        /// `evidences` or `evidence_list`.
        field: String,
        /// The number received.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// A member that belongs to another request generation, such as `evidences` on V4 or
    /// `arch` on Switch V2.
    UnexpectedField {
        /// The member.
        field: String,
    },
    /// The path names no attest endpoint.
    UnknownEndpoint {
        /// The path received.
        path: String,
    },
    /// `evidence_list` is a CMW that is malformed, not NVIDIA's verifier input, or holds
    /// another nonce than the body's (its own `ERR_CMW_*` code; `field` the member's path
    /// inside the CMW).
    #[cfg(feature = "cmw")]
    Cmw(crate::cmw::CmwError),
    /// A member has the wrong JSON type.
    WrongType {
        /// The member.
        field: String,
        /// The JSON type expected: `string`, `array` or `object`.
        expected: &'static str,
    },
}

impl RequestError {
    /// The real service's numeric error code for the same failure,
    /// reported in HTTP error bodies beside our string code.
    pub fn service_code(&self) -> u16 {
        match self {
            Self::EmptyBody => 4001,
            Self::InvalidNonce { .. } => 4003,
            Self::InvalidArch { endpoint, .. } => match endpoint.device_kind() {
                super::DeviceKind::Gpu => 4004,
                super::DeviceKind::Switch => 4017,
            },
            Self::InvalidBase64 { .. }
            | Self::EvidenceEncoding(_)
            | Self::InvalidEvidenceHex { .. }
            | Self::InvalidCertificateText { .. } => 4006,
            Self::InvalidClaimsVersion { .. } => 4019,
            Self::EmptyEvidenceList { .. } => 4005,
            _ => 4002,
        }
    }
}

impl ErrorCode for RequestError {
    fn code(&self) -> &'static str {
        match self {
            Self::BodyTooLarge { .. } => "ERR_REQUEST_TOO_LARGE",
            Self::EmptyBody => "ERR_REQUEST_EMPTY",
            Self::EvidenceEncoding(error) => error.code(),
            Self::EmptyEvidenceList { .. } => "ERR_REQUEST_EMPTY_EVIDENCE_LIST",
            Self::InvalidBase64 { .. } => "ERR_REQUEST_INVALID_BASE64",
            Self::InvalidCertificateText { .. } => "ERR_REQUEST_INVALID_CERTIFICATE_TEXT",
            Self::InvalidArch { .. } => "ERR_REQUEST_INVALID_ARCH",
            Self::InvalidClaimsVersion { .. } => "ERR_REQUEST_INVALID_CLAIMS_VERSION",
            Self::InvalidEvidenceHex { .. } => "ERR_REQUEST_INVALID_EVIDENCE_HEX",
            Self::InvalidFirmwareVersion { .. } => "ERR_REQUEST_INVALID_FIRMWARE_VERSION",
            Self::InvalidNonce { .. } => "ERR_REQUEST_INVALID_NONCE",
            Self::ItemTooLarge { .. } => "ERR_REQUEST_ITEM_TOO_LARGE",
            Self::Json(JsonError::DuplicateMember { .. }) => "ERR_REQUEST_DUPLICATE_MEMBER",
            Self::Json(JsonError::TooDeep) => "ERR_REQUEST_TOO_DEEP",
            Self::Json(_) => "ERR_REQUEST_MALFORMED_JSON",
            Self::MissingField { .. } => "ERR_REQUEST_MISSING_FIELD",
            Self::NotAnObject { .. } => "ERR_REQUEST_NOT_OBJECT",
            Self::TooManyEvidenceItems { .. } => "ERR_REQUEST_TOO_MANY_EVIDENCE_ITEMS",
            Self::UnexpectedField { .. } => "ERR_REQUEST_UNEXPECTED_FIELD",
            Self::UnknownEndpoint { .. } => "ERR_REQUEST_UNKNOWN_ENDPOINT",
            Self::WrongType { .. } => "ERR_REQUEST_WRONG_TYPE",
            #[cfg(feature = "cmw")]
            Self::Cmw(error) => error.code(),
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::EmptyEvidenceList { field }
            | Self::InvalidBase64 { field }
            | Self::InvalidCertificateText { field }
            | Self::InvalidEvidenceHex { field }
            | Self::InvalidFirmwareVersion { field }
            | Self::ItemTooLarge { field, .. }
            | Self::MissingField { field }
            | Self::NotAnObject { field }
            | Self::TooManyEvidenceItems { field, .. }
            | Self::UnexpectedField { field }
            | Self::WrongType { field, .. } => Some(field),
            Self::EvidenceEncoding(error) => error.field(),
            Self::InvalidArch { .. } => Some("arch"),
            Self::InvalidClaimsVersion { .. } => Some("claims_version"),
            Self::InvalidNonce { .. } => Some("nonce"),
            Self::Json(error) => error.field(),
            #[cfg(feature = "cmw")]
            Self::Cmw(error) => error.field(),
            Self::BodyTooLarge { .. } | Self::EmptyBody | Self::UnknownEndpoint { .. } => None,
        }
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BodyTooLarge { limit, size } => {
                write!(
                    f,
                    "request body of {size} bytes exceeds the limit of {limit} bytes"
                )
            }
            Self::EmptyBody => f.write_str("request body is empty"),
            Self::EvidenceEncoding(error) => write!(f, "{error}"),
            Self::EmptyEvidenceList { field } => write!(f, "{field} must hold at least one item"),
            Self::InvalidBase64 { field } => write!(f, "{field} is not valid base64"),
            Self::InvalidCertificateText { field } => {
                write!(f, "{field} does not decode to a PEM certificate chain")
            }
            Self::InvalidArch { endpoint, value } => {
                write!(
                    f,
                    "arch {value:?} is not accepted by {endpoint}; expected one of "
                )?;
                write_list(f, endpoint.arches().iter().map(|arch| arch.as_str()))
            }
            Self::InvalidClaimsVersion { endpoint, value } => {
                write!(
                    f,
                    "claims_version {value:?} is not accepted by {endpoint}; expected "
                )?;
                let selectable = endpoint.selectable_claims_versions();
                if selectable.is_empty() {
                    write!(
                        f,
                        "{:?} or no claims_version",
                        endpoint.default_claims_version().as_str()
                    )
                } else {
                    write_list(f, selectable.iter().map(|version| version.as_str()))
                }
            }
            Self::InvalidEvidenceHex { field } => {
                write!(
                    f,
                    "{field} must be base64 of the evidence's hexadecimal text"
                )
            }
            Self::InvalidFirmwareVersion { field } => {
                write!(
                    f,
                    "{field} must be dotted groups of hexadecimal digits, like 96.00.9F.00.01"
                )
            }
            Self::InvalidNonce { problem } => write!(f, "nonce {problem}"),
            Self::ItemTooLarge { field, limit } => {
                write!(f, "{field} exceeds the limit of {limit} decoded bytes")
            }
            Self::Json(error) => write!(f, "request body: {error}"),
            Self::MissingField { field } => write!(f, "{field} is required"),
            Self::NotAnObject { field } => write!(f, "{field} must be a JSON object"),
            Self::TooManyEvidenceItems {
                field,
                count,
                limit,
            } => {
                write!(
                    f,
                    "{field} holds {count} items; at most {limit} are accepted"
                )
            }
            Self::UnexpectedField { field } => {
                write!(f, "{field} is not a member of this endpoint's request body")
            }
            Self::UnknownEndpoint { path } => write!(f, "no attest endpoint at {path:?}"),
            Self::WrongType { field, expected } => write!(f, "{field} must be a JSON {expected}"),
            #[cfg(feature = "cmw")]
            Self::Cmw(error) => write!(f, "evidence_list: {error}"),
        }
    }
}

impl core::error::Error for RequestError {}

impl From<JsonError> for RequestError {
    fn from(error: JsonError) -> Self {
        Self::Json(error)
    }
}

fn write_list<'a>(f: &mut fmt::Formatter<'_>, items: impl Iterator<Item = &'a str>) -> fmt::Result {
    for (i, item) in items.enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item:?}")?;
    }
    Ok(())
}
