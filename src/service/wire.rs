//! The service's values as serde data, the one shape for the JS binding, the worker and a
//! Rust host that speaks JSON: a [`Request`] is read (`{method, path, origin?, headers?,
//! body?}`); a [`Response`], an exchange's [`Step`], a [`Resource`] and an
//! [`OcspCacheEntry`] are written; a host's [`SourceState`] and its [`Source`] are read.
//! Bytes are written with `serialize_bytes` (a `Uint8Array` in JS). Member names are
//! camelCase; unknown members are refused.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::source::MAX_LAST_ERROR_CHARS;
use super::{OcspCacheEntry, Request, Resource, Response, Source, SourceState, Step};
use crate::bytes::{Document, RawBytes};
use crate::crypto::SignatureCheck;

/// The JS `ServiceRequest`.
#[derive(Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct RequestIn {
    method: String,
    /// The path, e.g. "/v4/attest/gpu"; a query string after "?" is read only for "result" (result=ear: the EAT Attestation Result).
    path: String,
    /// The origin the request was addressed to (`new URL(request.url).origin`): the tokens' iss when no issuer is configured.
    #[cfg_attr(feature = "ts", ts(optional))]
    origin: Option<String>,
    #[cfg_attr(
        feature = "ts",
        ts(type = "[string, string][] | Record<string, string>", optional)
    )]
    headers: Option<Headers>,
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array | string", optional))]
    body: Option<Document>,
}

impl<'de> Deserialize<'de> for Request {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let input = RequestIn::deserialize(deserializer)?;
        Ok(Self {
            method: input.method,
            path: input.path,
            headers: input
                .headers
                .map(|Headers(pairs)| pairs)
                .unwrap_or_default(),
            body: input.body.map(|Document(body)| body).unwrap_or_default(),
            origin: input.origin,
        })
    }
}

/// Headers as `[name, value]` pairs or an object of string values, in their order.
struct Headers(Vec<(String, String)>);

impl<'de> Deserialize<'de> for Headers {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Pairs;
        impl<'de> Visitor<'de> for Pairs {
            type Value = Vec<(String, String)>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of [name, value] string pairs or an object of string values")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(pair) = seq.next_element::<(String, String)>()? {
                    out.push(pair);
                }
                Ok(out)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(pair) = map.next_entry::<String, String>()? {
                    out.push(pair);
                }
                Ok(out)
            }
        }
        deserializer.deserialize_any(Pairs).map(Headers)
    }
}

/// The JS `ServiceResponse`: `{status, headers, body}`.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub(super) struct ResponseOut<'a> {
    status: u16,
    headers: &'a [(String, String)],
    /// A fresh buffer: the type says so (`buffer: ArrayBuffer`), so that TypeScript's DOM types take it as a Response body.
    #[cfg_attr(
        feature = "ts",
        ts(type = "Uint8Array & { readonly buffer: ArrayBuffer }")
    )]
    body: RawBytes<'a>,
}

impl Serialize for Response {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ResponseOut {
            status: self.status,
            headers: &self.headers,
            body: RawBytes(&self.body),
        }
        .serialize(serializer)
    }
}

/// The JS `ServiceStep`: `{kind: 'verify', checks}`, `{kind: 'fetch', resources}`,
/// `{kind: 'sign', inputs}` (each signing input as bytes) or `{kind: 'respond', response}`.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "lowercase")]
pub(super) enum StepOut<'a> {
    Verify {
        #[cfg_attr(feature = "ts", ts(type = "SignatureCheck[]"))]
        checks: &'a [SignatureCheck],
    },
    Fetch {
        #[cfg_attr(feature = "ts", ts(type = "FetchResource[]"))]
        resources: &'a [Resource],
    },
    Sign {
        #[cfg_attr(feature = "ts", ts(type = "Uint8Array[]"))]
        inputs: Vec<RawBytes<'a>>,
    },
    Respond {
        #[cfg_attr(feature = "ts", ts(type = "ServiceResponse"))]
        response: &'a Response,
    },
}

impl Serialize for Step<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use StepOut as Out;
        match *self {
            Step::Verify(checks) => Out::Verify { checks },
            Step::Fetch(resources) => Out::Fetch { resources },
            Step::Sign(inputs) => Out::Sign {
                inputs: inputs.iter().map(|input| RawBytes(input)).collect(),
            },
            Step::Respond(response) => Out::Respond { response },
        }
        .serialize(serializer)
    }
}

/// The JS `FetchResource`: `{kind: 'rim', id, url}` or `{kind: 'ocsp', url, request, nonce,
/// cacheKey}`.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "lowercase")]
pub(super) enum ResourceOut<'a> {
    /// GET url: the RIM service's envelope for RIM `id`; then each of fallbacks (the mirrors), in order, as fetchAttempts says.
    Rim {
        id: &'a str,
        url: &'a str,
        fallbacks: &'a [String],
        /// The request's Accept header: "application/json" (the envelope), or the CoRIM types first when the service asks for CoRIMs.
        accept: &'static str,
    },
    /// POST request (content-type application/ocsp-request) to url; cacheKey names the certificate asked about.
    Ocsp {
        url: &'a str,
        fallbacks: &'a [String],
        #[cfg_attr(
            feature = "ts",
            ts(type = "Uint8Array & { readonly buffer: ArrayBuffer }")
        )]
        request: RawBytes<'a>,
        #[cfg_attr(feature = "ts", ts(type = "Uint8Array"))]
        nonce: RawBytes<'a>,
        #[serde(rename = "cacheKey")]
        cache_key: &'a str,
    },
}

impl Serialize for Resource {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use ResourceOut as Out;
        match self {
            Self::Rim {
                id,
                url,
                fallbacks,
                formats,
            } => Out::Rim {
                id,
                url,
                fallbacks,
                accept: formats.accept(),
            },
            Self::Ocsp {
                url,
                fallbacks,
                request,
                nonce,
                cache_key,
            } => Out::Ocsp {
                url,
                fallbacks,
                request: RawBytes(request),
                nonce: RawBytes(nonce),
                cache_key,
            },
        }
        .serialize(serializer)
    }
}

/// The JS `OcspCacheEntry`: `{cacheKey, body, nonce, until, keepUntil}`.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub(super) struct CacheEntryOut<'a> {
    cache_key: &'a str,
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array"))]
    body: RawBytes<'a>,
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array"))]
    nonce: RawBytes<'a>,
    #[cfg_attr(feature = "ts", ts(as = "u64"))]
    until: crate::time::UnixTime,
    #[cfg_attr(feature = "ts", ts(as = "u64"))]
    keep_until: crate::time::UnixTime,
}

impl Serialize for OcspCacheEntry {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        CacheEntryOut {
            cache_key: &self.cache_key,
            body: RawBytes(&self.body),
            nonce: RawBytes(&self.nonce),
            until: self.until,
            keep_until: self.keep_until,
        }
        .serialize(serializer)
    }
}

/// The JS `SourceState`: `{reachable?, lastError?, cachedEntries?}`; `lastError` is cut to
/// [`MAX_LAST_ERROR_CHARS`], `cachedEntries` is at most 2³²−1 (default 0).
#[derive(Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct SourceStateIn {
    /// Whether its last fetch got an answer (undefined: not asked yet).
    reachable: Option<bool>,
    /// The last failure, e.g. 'timeout' or 'HTTP 503'.
    last_error: Option<String>,
    /// Answers held in the host's cache.
    cached_entries: Option<u32>,
    /// Seconds past its freshness of the stalest kept answer the last fetch used (stale-if-error).
    kept_seconds: Option<u32>,
}

impl<'de> Deserialize<'de> for SourceState {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let input = SourceStateIn::deserialize(deserializer)?;
        Ok(Self {
            reachable: input.reachable,
            last_error: input
                .last_error
                .map(|text| text.chars().take(MAX_LAST_ERROR_CHARS).collect()),
            cached_entries: u64::from(input.cached_entries.unwrap_or(0)),
            kept_seconds: input.kept_seconds.map(u64::from),
        })
    }
}

/// A source by its host-facing name: `rim` (the RIM service) or `ocsp` (the responder).
impl<'de> Deserialize<'de> for Source {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename_all = "lowercase")]
        enum In {
            Rim,
            Ocsp,
        }
        Ok(match In::deserialize(deserializer)? {
            In::Rim => Self::RimService,
            In::Ocsp => Self::Ocsp,
        })
    }
}

/// The JS `MirrorEntry`: `{id, body, until}`.
#[derive(Serialize)]
struct MirrorEntryOut<'a> {
    id: &'a str,
    body: RawBytes<'a>,
    until: crate::time::UnixTime,
}

impl Serialize for super::mirror::MirrorEntry {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        MirrorEntryOut {
            id: &self.id,
            body: RawBytes(&self.body),
            until: self.until,
        }
        .serialize(serializer)
    }
}

/// The JS `MirrorAnswer`: `{response, store?}`.
#[derive(Serialize)]
struct MirrorAnswerOut<'a> {
    response: &'a Response,
    #[serde(skip_serializing_if = "Option::is_none")]
    store: Option<&'a super::mirror::MirrorEntry>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fetch: Option<&'a str>,
}

impl Serialize for super::mirror::MirrorAnswer {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        MirrorAnswerOut {
            response: &self.response,
            store: self.store.as_ref(),
            fetch: self.fetch.as_deref(),
        }
        .serialize(serializer)
    }
}
