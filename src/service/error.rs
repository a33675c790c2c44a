//! Error responses of the service: one JSON body shape for every non-200 answer
//! ([`crate::error_code::ErrorBody`], where the shape and its rules are written).
//!
//! The spec shows no error bodies (§7). The real service's error bodies were never captured;
//! its old client read `errorCode` and `message`, and its numeric error codes are known. So
//! the body carries both: our stable string `code` (the same as in Rust
//! and JS), the real service's numeric `errorCode` where one applies, a `message`, the
//! `field` concerned, and the HTTP `status`.

use super::http::Response;
use crate::attest::RequestError;

use crate::error_code::ErrorBody;

impl ErrorBody {
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
            error_code: Some(error.service_code()),
            ..Self::of(status, error)
        }
    }
}
