//! An error answer a host makes itself (a worker's 404, 405, 413, 502, 503) in the service's
//! one shape: an [`ErrorBody`] with the headers of every service answer. The rules: an error
//! status, a registered code, a non-empty message; `field` only when given and non-empty.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Deserializer, Serialize};

use super::router::decorate;
use crate::error_code::{registered_code, ErrorBody, ErrorCode};

/// What a host gives (the JS `ErrorResponseInit`); a member left out reads as empty and is
/// refused by [`ErrorResponseInit::response`] as such.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ErrorResponseInit {
    /// 400 to 599.
    #[serde(default)]
    pub status: u16,
    /// A registered `ERR_*` code ([`crate::error_code::ERROR_CODES`]).
    #[serde(default)]
    pub code: String,
    /// One sentence for people.
    #[serde(default)]
    pub message: String,
    /// The request member, header or parameter concerned (a string when given).
    #[serde(default, deserialize_with = "given_string")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub field: Option<String>,
}

/// The answer to send (the JS `ErrorResponse`): `new Response(answer.body, answer)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ErrorResponse {
    /// The status given.
    pub status: u16,
    /// `content-type: application/json` and the headers of every service answer.
    pub headers: Vec<(String, String)>,
    /// The JSON error body: `{code, message, field?, status}`.
    pub body: String,
}

/// The member of an [`ErrorResponseInit`] at fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InitError {
    /// `status` is not 400 to 599.
    Status,
    /// `code` is not a registered code.
    Code,
    /// `message` is empty.
    Message,
}

impl fmt::Display for InitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Status => "status must be an HTTP error status (400 to 599)",
            Self::Code => "code must be a registered ERR_* code",
            Self::Message => "message must be a non-empty sentence",
        })
    }
}

impl core::error::Error for InitError {}

impl ErrorCode for InitError {
    fn code(&self) -> &'static str {
        "ERR_INVALID_ARGUMENT"
    }

    fn field(&self) -> Option<&str> {
        Some(match self {
            Self::Status => "status",
            Self::Code => "code",
            Self::Message => "message",
        })
    }
}

/// A present `field` must be a string (`null` is refused, not read as absent).
fn given_string<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    String::deserialize(deserializer).map(Some)
}

impl ErrorResponseInit {
    /// Its members, as data names them: a host refuses any other (serde-wasm-bindgen reads
    /// only the declared ones, so `deny_unknown_fields` alone does not reach JS).
    pub const MEMBERS: [&'static str; 4] = ["status", "code", "message", "field"];

    /// The answer, checked.
    ///
    /// # Errors
    /// [`InitError`] naming the first member at fault (status, code, message).
    pub fn response(&self) -> Result<ErrorResponse, InitError> {
        if !(400..=599).contains(&self.status) {
            return Err(InitError::Status);
        }
        let registered = registered_code(&self.code).ok_or(InitError::Code)?;
        if self.message.is_empty() {
            return Err(InitError::Message);
        }
        let mut body = ErrorBody::new(self.status, registered.code, &self.message);
        body.field = self.field.clone().filter(|field| !field.is_empty());
        let response = decorate(body.into_response());
        Ok(ErrorResponse {
            status: response.status,
            headers: response.headers,
            // The body is serde_json's output: UTF-8.
            body: String::from_utf8_lossy(&response.body).into_owned(),
        })
    }
}
