//! The attempts' values as serde data (the JS `FetchAttempts` class): a [`Resource`] is read
//! back in the shape the exchange wrote it (`FetchResource`), and an [`Attempt`] is written
//! (`FetchAttempt`), its answer in the host's `FetchAnswer` shape.

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Attempt;
use crate::bytes::{HexBytes, RawBytes};
use crate::host_answer::{FetchFailure, Fetched};
use crate::service::Resource;

/// A `FetchResource` as a host gives it back: one flat record (an internally tagged enum
/// would buffer every member first, and cost the wasm modules more code).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ResourceIn {
    kind: KindIn,
    id: Option<String>,
    url: String,
    #[serde(default)]
    fallbacks: Vec<String>,
    request: Option<HexBytes>,
    nonce: Option<HexBytes>,
    cache_key: Option<String>,
    accept: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum KindIn {
    Rim,
    Ocsp,
}

impl<'de> Deserialize<'de> for Resource {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let resource = ResourceIn::deserialize(deserializer)?;
        if resource.fallbacks.len() > crate::service::MAX_MIRRORS {
            return Err(D::Error::custom("fallbacks: at most 4 mirrors"));
        }
        let missing = |member: &'static str| D::Error::missing_field(member);
        Ok(match resource.kind {
            KindIn::Rim => Resource::Rim {
                id: resource.id.ok_or_else(|| missing("id"))?,
                url: resource.url,
                fallbacks: resource.fallbacks,
                formats: resource.accept.as_deref().map_or(
                    crate::rim::RimFormats::Xml,
                    crate::rim::RimFormats::of_accept,
                ),
            },
            KindIn::Ocsp => Resource::Ocsp {
                url: resource.url,
                fallbacks: resource.fallbacks,
                request: resource.request.ok_or_else(|| missing("request"))?.0,
                nonce: resource.nonce.ok_or_else(|| missing("nonce"))?.0,
                cache_key: resource.cache_key.ok_or_else(|| missing("cacheKey"))?,
            },
        })
    }
}

/// The JS `FetchAttempt`: `{kind: 'fetch', url, timeoutMs}`, `{kind: 'wait', ms}` or
/// `{kind: 'done', answer}`.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "lowercase")]
pub(crate) enum AttemptOut<'a> {
    /// Fetch url (as the resource says: GET, or POST the OCSP request), waiting at most timeoutMs; then call answered().
    #[serde(rename_all = "camelCase")]
    Fetch { url: &'a str, timeout_ms: u64 },
    /// Wait ms milliseconds, then call next() again.
    Wait { ms: u64 },
    /// The answer to give the exchange for this resource.
    Done {
        #[cfg_attr(feature = "ts", ts(type = "FetchAnswer"))]
        answer: AnswerOut<'a>,
    },
}

/// A [`Fetched`] in the host's `FetchAnswer` shape.
pub(crate) struct AnswerOut<'a>(&'a Fetched);

#[derive(Serialize)]
struct BodyOut<'a> {
    body: RawBytes<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nonce: Option<RawBytes<'a>>,
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    stale: bool,
}

#[derive(Serialize)]
struct FailureOut {
    error: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<u16>,
}

fn body_out<'a>(body: &'a [u8], nonce: Option<&'a [u8]>, stale: bool) -> BodyOut<'a> {
    BodyOut {
        body: RawBytes(body),
        nonce: nonce.map(RawBytes),
        stale,
    }
}

impl Serialize for AnswerOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Fetched::Body(bytes) => body_out(bytes, None, false).serialize(serializer),
            Fetched::Cached { body, nonce } => {
                body_out(body, Some(nonce), false).serialize(serializer)
            }
            Fetched::Stale { body, nonce } => {
                body_out(body, nonce.as_deref(), true).serialize(serializer)
            }
            Fetched::Failed(failure) => {
                let (error, status) = match failure {
                    FetchFailure::Unreachable => ("unreachable", None),
                    FetchFailure::Timeout => ("timeout", None),
                    FetchFailure::HttpStatus(status) => ("status", Some(*status)),
                    FetchFailure::TooLarge => ("too-large", None),
                    FetchFailure::NotFetched => ("not-fetched", None),
                };
                FailureOut { error, status }.serialize(serializer)
            }
        }
    }
}

impl Serialize for Attempt {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Fetch { url, timeout_ms } => AttemptOut::Fetch {
                url,
                timeout_ms: *timeout_ms,
            },
            Self::Wait { ms } => AttemptOut::Wait { ms: *ms },
            Self::Done(answer) => AttemptOut::Done {
                answer: AnswerOut(answer),
            },
        }
        .serialize(serializer)
    }
}
