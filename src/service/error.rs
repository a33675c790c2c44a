//! Error responses of the service: one JSON body shape for every non-200 answer.
//!
//! The spec shows no error bodies (§7). The real service's error bodies were never captured;
//! its old client read `errorCode` and `message`, and its error codes are known (notes:
//! attestation §h). So the body carries both: our stable string `code` (the same as in Rust
//! and JS), the real service's numeric `errorCode` where one applies, a `message`, the
//! `field` concerned, and the HTTP `status`.

use alloc::string::{String, ToString};

use serde::Serialize;

use super::http::Response;
use crate::attest::RequestError;
use crate::ErrorCode;

/// The JSON body of every error response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody {
    /// Stable code, e.g. `ERR_REQUEST_INVALID_NONCE`.
    pub code: &'static str,
    /// The real service's numeric code, e.g. 4003, where one applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_code: Option<u16>,
    /// What went wrong, for people.
    pub message: String,
    /// The request member concerned, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The HTTP status, repeated for clients that only keep the body.
    pub status: u16,
}

impl ErrorBody {
    /// An error body.
    pub fn new(status: u16, code: &'static str, message: impl ToString) -> Self {
        Self {
            code,
            error_code: None,
            message: message.to_string(),
            field: None,
            status,
        }
    }

    /// The response carrying this body.
    pub fn into_response(self) -> Response {
        Response::json(self.status, &self)
    }
}

impl From<&RequestError> for ErrorBody {
    fn from(error: &RequestError) -> Self {
        let status = match error {
            RequestError::BodyTooLarge { .. } => 413,
            _ => 400,
        };
        Self {
            code: error.code(),
            error_code: Some(error.service_code()),
            message: error.to_string(),
            field: error.field().map(String::from),
            status,
        }
    }
}
