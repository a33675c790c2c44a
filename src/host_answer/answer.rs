//! A host's answer for one fetched [`crate::service::Resource`] as data (the JS `FetchAnswer`):
//! `{body}` fetched now, `{body, nonce}` from a cache with the nonce that fetched it,
//! `{body, nonce?, stale: true}` a kept copy used because every source failed, or
//! `{error, status?}`. [`FetchAnswer::fetched`] is the core's view of it.

use core::fmt;

use serde::{Deserialize, Deserializer};

use super::{FetchFailure, Fetched, MAX_FETCHED_BYTES};
use crate::bytes::HexBytes;
use crate::error_code::ErrorCode;

/// One answer as a host gives it. Bytes are [`HexBytes`]; unknown members are refused.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FetchAnswer {
    /// The body (required unless `error` is given).
    pub body: Option<HexBytes>,
    /// The nonce of the request that fetched a cached OCSP `body`.
    pub nonce: Option<HexBytes>,
    /// `true`: `body` is a copy kept past its freshness, given because every source failed.
    #[serde(default)]
    pub stale: bool,
    /// Why there is no body.
    pub error: Option<AnswerFailure>,
    /// The HTTP status of an `error: 'status'` answer, 100 to 599.
    #[serde(default, deserialize_with = "http_status")]
    pub status: Option<u16>,
}

/// Why a host has no body for a resource (`kebab-case` in data).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum AnswerFailure {
    /// No answer came.
    Unreachable,
    /// The host gave up waiting.
    Timeout,
    /// An HTTP error status (in `status`).
    Status,
    /// Longer than the host reads.
    TooLarge,
    /// The host does not fetch this.
    NotFetched,
}

/// A member an answer lacks: `body` (no `error` either) or `status` (for `error: 'status'`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnswerError {
    /// Neither `body` nor `error`.
    NoBody,
    /// `error: 'status'` without `status`.
    NoStatus,
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NoBody => "body must be a Uint8Array (or error given)",
            Self::NoStatus => "status must be an HTTP status",
        })
    }
}

impl core::error::Error for AnswerError {}

impl ErrorCode for AnswerError {
    fn code(&self) -> &'static str {
        "ERR_INVALID_ARGUMENT"
    }

    fn field(&self) -> Option<&str> {
        Some(match self {
            Self::NoBody => "body",
            Self::NoStatus => "status",
        })
    }
}

fn http_status<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u16>, D::Error> {
    let status = Option::<u16>::deserialize(deserializer)?;
    if status.is_none_or(|status| (100..=599).contains(&status)) {
        Ok(status)
    } else {
        Err(serde::de::Error::custom(
            "an HTTP status is from 100 to 599",
        ))
    }
}

impl FetchAnswer {
    /// The core's view: an `error` wins over a `body`; a `body` with a `nonce` is a cached
    /// answer.
    ///
    /// # Errors
    /// [`AnswerError`] naming the member the answer lacks.
    pub fn fetched(self) -> Result<Fetched, AnswerError> {
        Ok(match (self.error, self.body) {
            (Some(AnswerFailure::Status), _) => Fetched::Failed(FetchFailure::HttpStatus(
                self.status.ok_or(AnswerError::NoStatus)?,
            )),
            (Some(failure), _) => Fetched::Failed(match failure {
                AnswerFailure::Unreachable => FetchFailure::Unreachable,
                AnswerFailure::Timeout => FetchFailure::Timeout,
                AnswerFailure::TooLarge => FetchFailure::TooLarge,
                AnswerFailure::NotFetched | AnswerFailure::Status => FetchFailure::NotFetched,
            }),
            (None, None) => return Err(AnswerError::NoBody),
            (None, Some(HexBytes(body))) if self.stale => Fetched::Stale {
                body,
                nonce: self.nonce.map(|HexBytes(nonce)| nonce),
            },
            (None, Some(HexBytes(body))) => match self.nonce {
                None => Fetched::Body(body),
                Some(HexBytes(nonce)) => Fetched::Cached { body, nonce },
            },
        })
    }
}

impl Fetched {
    /// This answer as an exchange reads it: a body over [`MAX_FETCHED_BYTES`] counts as
    /// [`FetchFailure::TooLarge`], as if the host had stopped reading there.
    pub fn capped(self) -> Self {
        match self {
            Self::Body(body) | Self::Cached { body, .. } | Self::Stale { body, .. }
                if body.len() > MAX_FETCHED_BYTES =>
            {
                Self::Failed(FetchFailure::TooLarge)
            }
            answer => answer,
        }
    }
}
