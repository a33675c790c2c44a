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

use super::{OcspCacheEntry, Request, Resource, Response, Source, SourceState, Step};
use crate::bytes::{Document, RawBytes};
use crate::crypto::SignatureCheck;

/// The longest `lastError` a host's [`SourceState`] keeps, in characters: it is shown in
/// `/health`, and a host should not fill that with an upstream's whole answer.
pub const MAX_LAST_ERROR_CHARS: usize = 200;

/// The JS `ServiceRequest`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RequestIn {
    method: String,
    path: String,
    origin: Option<String>,
    headers: Option<Headers>,
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
impl Serialize for Response {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Out<'a> {
            status: u16,
            headers: &'a [(String, String)],
            body: RawBytes<'a>,
        }
        Out {
            status: self.status,
            headers: &self.headers,
            body: RawBytes(&self.body),
        }
        .serialize(serializer)
    }
}

/// The JS `ServiceStep`: `{kind: 'verify', checks}`, `{kind: 'fetch', resources}`,
/// `{kind: 'sign', inputs}` (each signing input as bytes) or `{kind: 'respond', response}`.
impl Serialize for Step<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(tag = "kind", rename_all = "lowercase")]
        enum Out<'a> {
            Verify { checks: &'a [SignatureCheck] },
            Fetch { resources: &'a [Resource] },
            Sign { inputs: Vec<RawBytes<'a>> },
            Respond { response: &'a Response },
        }
        match *self {
            Step::Verify(checks) => Out::Verify { checks },
            Step::Fetch(resources) => Out::Fetch { resources },
            Step::Sign(inputs) => Out::Sign {
                inputs: inputs
                    .iter()
                    .map(|input| RawBytes(input.as_bytes()))
                    .collect(),
            },
            Step::Respond(response) => Out::Respond { response },
        }
        .serialize(serializer)
    }
}

/// The JS `FetchResource`: `{kind: 'rim', id, url}` or `{kind: 'ocsp', url, request, nonce,
/// cacheKey}`.
impl Serialize for Resource {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(tag = "kind", rename_all = "lowercase")]
        enum Out<'a> {
            Rim {
                id: &'a str,
                url: &'a str,
            },
            Ocsp {
                url: &'a str,
                request: RawBytes<'a>,
                nonce: RawBytes<'a>,
                #[serde(rename = "cacheKey")]
                cache_key: &'a str,
            },
        }
        match self {
            Self::Rim { id, url } => Out::Rim { id, url },
            Self::Ocsp {
                url,
                request,
                nonce,
                cache_key,
            } => Out::Ocsp {
                url,
                request: RawBytes(request),
                nonce: RawBytes(nonce),
                cache_key,
            },
        }
        .serialize(serializer)
    }
}

/// The JS `OcspCacheEntry`: `{cacheKey, body, nonce, until}`.
impl Serialize for OcspCacheEntry {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Out<'a> {
            cache_key: &'a str,
            body: RawBytes<'a>,
            nonce: RawBytes<'a>,
            until: crate::time::UnixTime,
        }
        Out {
            cache_key: &self.cache_key,
            body: RawBytes(&self.body),
            nonce: RawBytes(&self.nonce),
            until: self.until,
        }
        .serialize(serializer)
    }
}

/// The JS `SourceState`: `{reachable?, lastError?, cachedEntries?}`; `lastError` is cut to
/// [`MAX_LAST_ERROR_CHARS`], `cachedEntries` is at most 2³²−1 (default 0).
impl<'de> Deserialize<'de> for SourceState {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        struct In {
            reachable: Option<bool>,
            last_error: Option<String>,
            cached_entries: Option<u32>,
        }
        let input = In::deserialize(deserializer)?;
        Ok(Self {
            reachable: input.reachable,
            last_error: input
                .last_error
                .map(|text| text.chars().take(MAX_LAST_ERROR_CHARS).collect()),
            cached_entries: u64::from(input.cached_entries.unwrap_or(0)),
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
