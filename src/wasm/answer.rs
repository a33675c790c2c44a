//! A host's answer for one fetched resource (the JS `FetchAnswer` / `OcspAnswer`), read with
//! serde: `{body}` fetched now, `{body, nonce}` from a cache with the nonce that fetched it,
//! or `{error, status?}`.

use serde::{Deserialize, Deserializer};
use wasm_bindgen::JsValue;

use super::convert::ByteBuf;
use crate::service::{FetchFailure, Fetched};

/// One answer as JS gives it; [`Answer::fetched`] is the core's view.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Answer {
    body: Option<ByteBuf>,
    nonce: Option<ByteBuf>,
    error: Option<Failure>,
    status: Option<HttpStatus>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum Failure {
    Unreachable,
    Timeout,
    Status,
    TooLarge,
    NotFetched,
}

/// An HTTP status, 100 to 599.
#[derive(Clone, Copy)]
struct HttpStatus(u16);

impl<'de> Deserialize<'de> for HttpStatus {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let status = u16::deserialize(deserializer)?;
        if (100..=599).contains(&status) {
            Ok(Self(status))
        } else {
            Err(serde::de::Error::custom(
                "an HTTP status is from 100 to 599",
            ))
        }
    }
}

impl Answer {
    /// The core's view, or which member is missing (`body`, or `status` for `error: 'status'`).
    pub(crate) fn fetched(self) -> Result<Fetched, &'static str> {
        Ok(match (self.error, self.body) {
            (Some(Failure::Status), _) => {
                Fetched::Failed(FetchFailure::HttpStatus(self.status.ok_or("status")?.0))
            }
            (Some(failure), _) => Fetched::Failed(match failure {
                Failure::Unreachable => FetchFailure::Unreachable,
                Failure::Timeout => FetchFailure::Timeout,
                Failure::TooLarge => FetchFailure::TooLarge,
                Failure::NotFetched | Failure::Status => FetchFailure::NotFetched,
            }),
            (None, None) => return Err("body"),
            (None, Some(ByteBuf(body))) => match self.nonce {
                None => Fetched::Body(body),
                Some(ByteBuf(nonce)) => Fetched::Cached { body, nonce },
            },
        })
    }
}

/// The core's view of `answer` (read as `field`), or which member it lacks.
pub(crate) fn fetched(answer: Answer, field: &str) -> Result<Fetched, JsValue> {
    answer.fetched().map_err(|member| {
        let expected = if member == "body" {
            "a Uint8Array (or error given)"
        } else {
            "an HTTP status"
        };
        super::error::invalid_argument(&alloc::format!("{field}.{member}"), expected)
    })
}
