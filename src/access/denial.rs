//! Why the gateway denied a request: the status, the RFC 6750 error code and the stable
//! `ERR_ACCESS_*` code of each reason.

use super::credential::Malformation;
use super::limits::{MAX_QUERY_LEN, MAX_REQUEST_HEADERS, MAX_REQUEST_HEADER_BYTES};
use crate::error_code::ErrorCode;

/// Why a request was denied. Its [`ErrorCode`] is the body's `code`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Denial {
    /// No bearer credential (401).
    NoCredentials,
    /// A malformed credential (400 `invalid_request`).
    InvalidRequest(Malformation),
    /// Key text that is not a key (401 `invalid_token`).
    MalformedKey,
    /// Unknown, revoked, expired, or not for this service (401 `invalid_token`).
    InvalidToken,
    /// Path outside the canonical form (400).
    InvalidPath,
    /// No route (404).
    UnknownRoute,
    /// No row for the method (405).
    MethodNotAllowed,
    /// A scope is missing (403 `insufficient_scope`).
    InsufficientScope,
    /// More than [`MAX_REQUEST_HEADERS`] headers (431, RFC 6585 §5).
    TooManyHeaders,
    /// More than [`MAX_REQUEST_HEADER_BYTES`] of header names and values (431).
    HeadersTooLarge,
    /// A query longer than [`MAX_QUERY_LEN`] (414).
    QueryTooLong,
}

impl Denial {
    /// The HTTP status.
    pub const fn status(self) -> u16 {
        match self {
            Self::NoCredentials | Self::MalformedKey | Self::InvalidToken => 401,
            Self::InvalidRequest(_) | Self::InvalidPath => 400,
            Self::UnknownRoute => 404,
            Self::MethodNotAllowed => 405,
            Self::InsufficientScope => 403,
            Self::TooManyHeaders | Self::HeadersTooLarge => 431,
            Self::QueryTooLong => 414,
        }
    }

    /// The RFC 6750 §3.1 error code, where one applies.
    pub const fn oauth_error(self) -> Option<&'static str> {
        match self {
            Self::InvalidRequest(_) => Some("invalid_request"),
            Self::MalformedKey | Self::InvalidToken => Some("invalid_token"),
            Self::InsufficientScope => Some("insufficient_scope"),
            _ => None,
        }
    }

    pub(crate) const fn challenges(self) -> bool {
        matches!(
            self,
            Self::NoCredentials
                | Self::InvalidRequest(_)
                | Self::MalformedKey
                | Self::InvalidToken
                | Self::InsufficientScope
        )
    }
}

impl core::fmt::Display for Denial {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::NoCredentials => f.write_str("The request carries no bearer API key"),
            Self::InvalidRequest(problem) => f.write_str(problem.description()),
            Self::MalformedKey => {
                f.write_str("The API key is malformed or its checksum does not match")
            }
            Self::InvalidToken => f.write_str("The API key is not valid"),
            Self::InvalidPath => f.write_str("The request path is not in canonical form"),
            Self::UnknownRoute => f.write_str("No endpoint has this path"),
            Self::MethodNotAllowed => f.write_str("The endpoint does not accept this method"),
            Self::InsufficientScope => {
                f.write_str("The API key lacks a scope this endpoint requires")
            }
            Self::TooManyHeaders => write!(
                f,
                "The request has more than {MAX_REQUEST_HEADERS} header fields"
            ),
            Self::HeadersTooLarge => write!(
                f,
                "The request header fields are larger than {MAX_REQUEST_HEADER_BYTES} bytes"
            ),
            Self::QueryTooLong => {
                write!(f, "The query string is longer than {MAX_QUERY_LEN} bytes")
            }
        }
    }
}

impl core::error::Error for Denial {}

impl ErrorCode for Denial {
    fn code(&self) -> &'static str {
        match self {
            Self::NoCredentials => "ERR_ACCESS_NO_CREDENTIALS",
            Self::InvalidRequest(_) => "ERR_ACCESS_INVALID_REQUEST",
            Self::MalformedKey => "ERR_ACCESS_MALFORMED_KEY",
            Self::InvalidToken => "ERR_ACCESS_INVALID_TOKEN",
            Self::InvalidPath => "ERR_ACCESS_INVALID_PATH",
            Self::UnknownRoute => "ERR_ACCESS_UNKNOWN_ROUTE",
            Self::MethodNotAllowed => "ERR_ACCESS_METHOD_NOT_ALLOWED",
            Self::InsufficientScope => "ERR_ACCESS_INSUFFICIENT_SCOPE",
            Self::TooManyHeaders => "ERR_ACCESS_TOO_MANY_HEADERS",
            Self::HeadersTooLarge => "ERR_ACCESS_HEADERS_TOO_LARGE",
            Self::QueryTooLong => "ERR_ACCESS_QUERY_TOO_LONG",
        }
    }

    /// Where the credential is at fault: the `Authorization` header, or the `access_token`
    /// query parameter that must not carry it. Other denials concern no single input.
    fn field(&self) -> Option<&str> {
        match self {
            Self::InvalidRequest(Malformation::TokenInQuery) => Some("access_token"),
            Self::NoCredentials
            | Self::InvalidRequest(_)
            | Self::MalformedKey
            | Self::InvalidToken
            | Self::InsufficientScope => Some("Authorization"),
            _ => None,
        }
    }
}
