//! The bundle's shape: serde types, each input beside its digest, and the conversions
//! between the service's values and their records. Bytes are base64 (standard, padded),
//! nonces and the entropy hex.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::error::ReplayError;
use crate::attest::FwidPolicy;
use crate::chain::TrustStore;
use crate::host_answer::{FetchFailure, Fetched};
use crate::ocsp::RevocationPolicy;
use crate::policy::{Policy, PolicyVersion};
use crate::service::config::ServiceConfig;
use crate::service::fetch::Resource;
use crate::service::http::{Request, Response};

/// The request header that asks for a bundle; its one value is `bundle`.
pub const REPLAY_HEADER: &str = "x-edgeattest-replay";

/// The media type of a response that is a bundle.
pub const BUNDLE_MEDIA_TYPE: &str = "application/vnd.edgeattest.replay+json";

/// The `format` of the bundles this version writes and reads.
pub const BUNDLE_FORMAT: &str = "edgeattest-replay/1";

/// Largest bundle [`super::replay`] reads: a request (at most a few MiB of evidence) and its
/// fetched answers (each at most [`crate::host_answer::MAX_FETCHED_BYTES`], base64).
pub const MAX_BUNDLE_BYTES: usize = 32 * 1024 * 1024;

/// Most fetched answers a bundle holds (an 8-GPU request asks about 40).
pub const MAX_BUNDLE_FETCHES: usize = 256;

/// Most held RIM documents a bundle holds (two per device).
pub const MAX_BUNDLE_RIMS: usize = 128;

/// Every input of a verdict and its result (see the module documentation of `replay`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Bundle {
    /// [`BUNDLE_FORMAT`].
    pub format: String,
    /// The time of the verdict, Unix seconds.
    pub time: Digested<u64>,
    /// The request's 32 bytes of entropy, hex (OCSP nonces, token ids).
    pub entropy: Digested<String>,
    /// The request as received.
    pub request: Digested<RequestRecord>,
    /// What replay needs of the configuration.
    pub config: Digested<ConfigRecord>,
    /// The digests of the trust anchors.
    pub anchors: AnchorDigests,
    /// The RIM documents the service held under the keys the verified devices name.
    pub rims: Vec<Digested<RimRecord>>,
    /// Each fetched answer, in the order the exchange asked, with what it answered.
    pub fetches: Vec<Digested<FetchRecord>>,
    /// The response.
    pub result: Digested<ResultRecord>,
}

/// A value and the digest of its compact JSON, `sha256:<hex>`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Digested<T> {
    /// The value.
    pub value: T,
    /// Its digest when recorded.
    pub digest: String,
}

impl<T: Serialize> Digested<T> {
    /// `value` with its digest.
    pub fn new(value: T) -> Self {
        let digest = digest_of(&value);
        Self { value, digest }
    }

    /// The digest of the value as it is now.
    pub fn computed(&self) -> String {
        digest_of(&self.value)
    }
}

/// `sha256:<hex>` of `value`'s compact JSON.
fn digest_of<T: Serialize>(value: &T) -> String {
    // The records are strings, numbers, arrays and string-keyed maps: they always serialize.
    let bytes = serde_json::to_vec(value).unwrap_or_default();
    sha256_text(&bytes)
}

fn sha256_text(bytes: &[u8]) -> String {
    let mut text = String::from("sha256:");
    text.push_str(&hex::encode(Sha256::digest(bytes)));
    text
}

/// The request as received.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RequestRecord {
    /// The method.
    pub method: String,
    /// The path, with its query.
    pub path: String,
    /// The headers, in order.
    pub headers: Vec<(String, String)>,
    /// The origin it was addressed to.
    pub origin: Option<String>,
    /// The body, base64.
    pub body: String,
}

impl RequestRecord {
    pub(crate) fn of(request: &Request) -> Self {
        Self {
            method: request.method.clone(),
            path: request.path.clone(),
            headers: request.headers.clone(),
            origin: request.origin.clone(),
            body: STANDARD.encode(&request.body),
        }
    }

    pub(crate) fn to_request(&self) -> Result<Request, ReplayError> {
        Ok(Request {
            method: self.method.clone(),
            path: self.path.clone(),
            headers: self.headers.clone(),
            origin: self.origin.clone(),
            body: base64(&self.body, "request.value.body")?,
        })
    }
}

/// What replay needs of the configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConfigRecord {
    /// The configured issuer (`None`: the request's origin).
    pub issuer: Option<String>,
    /// Seconds from `iat` to `exp`.
    pub token_lifetime: i64,
    /// `asNvidia` or `require`.
    pub fwid_policy: String,
    /// The RIM service (`None`: only held documents).
    pub rim_service_url: Option<String>,
    /// The OCSP responder (`None`: revocation not checked).
    pub ocsp_url: Option<String>,
    /// The RIM service's mirrors.
    #[serde(default)]
    pub rim_mirrors: Vec<String>,
    /// The formats the fetch step asks the RIM service for (written only when not XML).
    #[serde(default, skip_serializing_if = "crate::rim::RimFormats::is_xml")]
    pub rim_formats: crate::rim::RimFormats,
    /// The responder's mirrors.
    #[serde(default)]
    pub ocsp_mirrors: Vec<String>,
    /// Seconds past its `nextUpdate` a kept OCSP answer may decide (stale-if-error).
    #[serde(default)]
    pub ocsp_stale_if_error: u64,
    /// The relying-party policy, in NVIDIA's JSON format.
    pub policy: Option<Value>,
    /// The revocation policy.
    pub revocation_policy: RevocationPolicy,
}

impl ConfigRecord {
    pub(crate) fn of(config: &ServiceConfig) -> Self {
        Self {
            issuer: config.issuer.clone(),
            token_lifetime: config.token_lifetime,
            fwid_policy: match config.fwid_policy {
                FwidPolicy::AsNvidia => "asNvidia",
                FwidPolicy::Require => "require",
            }
            .into(),
            rim_service_url: config.rim_service_url.clone(),
            ocsp_url: config.ocsp_url.clone(),
            rim_mirrors: config.rim_mirrors.clone(),
            rim_formats: config.rim_formats,
            ocsp_mirrors: config.ocsp_mirrors.clone(),
            ocsp_stale_if_error: config.ocsp_stale_if_error,
            policy: config.policy.as_ref().map(policy_json),
            revocation_policy: config.revocation_policy.clone(),
        }
    }

    pub(crate) fn to_config(&self) -> Result<ServiceConfig, ReplayError> {
        let fwid_policy = match self.fwid_policy.as_str() {
            "asNvidia" => FwidPolicy::AsNvidia,
            "require" => FwidPolicy::Require,
            _ => return Err(field("config.value.fwidPolicy", "is asNvidia or require")),
        };
        let policy = match &self.policy {
            None => None,
            Some(value) => Some(
                Policy::parse(&serde_json::to_vec(value).unwrap_or_default())
                    .map_err(|_| field("config.value.policy", "is not a valid policy"))?,
            ),
        };
        Ok(ServiceConfig {
            issuer: self.issuer.clone(),
            token_lifetime: self.token_lifetime,
            fwid_policy,
            rim_service_url: self.rim_service_url.clone(),
            ocsp_url: self.ocsp_url.clone(),
            rim_mirrors: self.rim_mirrors.clone(),
            rim_formats: self.rim_formats,
            ocsp_mirrors: self.ocsp_mirrors.clone(),
            ocsp_stale_if_error: self.ocsp_stale_if_error,
            policy,
            revocation_policy: self.revocation_policy.clone(),
            ..ServiceConfig::default()
        })
    }
}

/// A policy in NVIDIA's JSON format, as it was read.
fn policy_json(policy: &Policy) -> Value {
    let mut top = Map::new();
    top.insert("version".into(), policy.version().as_str().into());
    let rules = match (policy.version(), policy.detached_rules()) {
        (PolicyVersion::V1, _) | (_, None) => Value::Object(policy.overall_rules().clone()),
        (_, Some(detached)) => {
            let mut split = Map::new();
            split.insert("type".into(), "JWT".into());
            split.insert(
                "overall-claims".into(),
                Value::Object(policy.overall_rules().clone()),
            );
            split.insert("detached-claims".into(), Value::Object(detached.clone()));
            Value::Object(split)
        }
    };
    top.insert("authorization-rules".into(), rules);
    Value::Object(top)
}

/// The digests of the trust anchors: SHA-256 over the anchors' SHA-256 fingerprints, in the
/// store's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AnchorDigests {
    /// The device roots.
    pub device: String,
    /// The RIM roots.
    pub rim: String,
}

/// The digest of a trust store (`None`: no anchors).
pub(crate) fn anchors_digest(store: Option<&TrustStore>) -> String {
    let mut fingerprints = Vec::new();
    if let Some(store) = store {
        for i in 0..store.len() {
            if let Some(der) = store.anchor_der(i) {
                fingerprints.extend_from_slice(&Sha256::digest(der));
            }
        }
    }
    sha256_text(&fingerprints)
}

/// A RIM document the service held.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RimRecord {
    /// Its store key: the RIM id, or `configured-roots/<id>`.
    pub key: String,
    /// The document, base64.
    pub xml: String,
}

/// One fetched answer and what it answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FetchRecord {
    /// What the exchange asked for.
    pub resource: ResourceRecord,
    /// What the host answered.
    pub answer: AnswerRecord,
}

/// A [`Resource`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ResourceRecord {
    /// A RIM document.
    #[serde(rename_all = "camelCase")]
    Rim {
        /// The RIM id.
        id: String,
        /// The URL.
        url: String,
    },
    /// An OCSP query.
    #[serde(rename_all = "camelCase")]
    Ocsp {
        /// The responder.
        url: String,
        /// The DER request, base64.
        request: String,
        /// Its nonce, hex.
        nonce: String,
        /// The certificate asked about.
        cache_key: String,
    },
}

impl ResourceRecord {
    pub(crate) fn of(resource: &Resource) -> Self {
        match resource {
            Resource::Rim { id, url, .. } => Self::Rim {
                id: id.clone(),
                url: url.clone(),
            },
            Resource::Ocsp {
                url,
                request,
                nonce,
                cache_key,
                ..
            } => Self::Ocsp {
                url: url.clone(),
                request: STANDARD.encode(request),
                nonce: hex::encode(nonce),
                cache_key: cache_key.clone(),
            },
        }
    }

    /// A short description, for a difference: `rim <id>` or `ocsp <cache key>`.
    pub(crate) fn describe(&self) -> String {
        match self {
            Self::Rim { id, .. } => alloc::format!("rim {id}"),
            Self::Ocsp { cache_key, .. } => alloc::format!("ocsp {cache_key}"),
        }
    }
}

/// A [`Fetched`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum AnswerRecord {
    /// The body fetched for this request, base64.
    Body {
        /// The body.
        body: String,
    },
    /// An OCSP response from the host's cache, with the nonce that fetched it.
    Cached {
        /// The response, base64.
        body: String,
        /// The nonce, hex.
        nonce: String,
    },
    /// A copy the host kept past its freshness, given because every source failed.
    Stale {
        /// The body, base64.
        body: String,
        /// The nonce that fetched it (OCSP responses), hex.
        nonce: Option<String>,
    },
    /// No body.
    Failed {
        /// Why.
        failure: FailureRecord,
    },
}

/// A [`FetchFailure`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FailureRecord {
    /// No connection.
    Unreachable,
    /// No answer in time.
    Timeout,
    /// An HTTP status other than 200.
    HttpStatus(u16),
    /// A body too large.
    TooLarge,
    /// Not fetched.
    NotFetched,
}

impl AnswerRecord {
    pub(crate) fn of(answer: &Fetched) -> Self {
        match answer {
            Fetched::Body(body) => Self::Body {
                body: STANDARD.encode(body),
            },
            Fetched::Cached { body, nonce } => Self::Cached {
                body: STANDARD.encode(body),
                nonce: hex::encode(nonce),
            },
            Fetched::Stale { body, nonce } => Self::Stale {
                body: STANDARD.encode(body),
                nonce: nonce.as_ref().map(hex::encode),
            },
            Fetched::Failed(failure) => Self::Failed {
                failure: match failure {
                    FetchFailure::Unreachable => FailureRecord::Unreachable,
                    FetchFailure::Timeout => FailureRecord::Timeout,
                    FetchFailure::HttpStatus(status) => FailureRecord::HttpStatus(*status),
                    FetchFailure::TooLarge => FailureRecord::TooLarge,
                    FetchFailure::NotFetched => FailureRecord::NotFetched,
                },
            },
        }
    }

    pub(crate) fn to_fetched(&self, at: &str) -> Result<Fetched, ReplayError> {
        Ok(match self {
            Self::Body { body } => Fetched::Body(base64(body, at)?),
            Self::Cached { body, nonce } => Fetched::Cached {
                body: base64(body, at)?,
                nonce: hex::decode(nonce).map_err(|_| field(at, "nonce is not hex"))?,
            },
            Self::Stale { body, nonce } => Fetched::Stale {
                body: base64(body, at)?,
                nonce: nonce
                    .as_deref()
                    .map(hex::decode)
                    .transpose()
                    .map_err(|_| field(at, "nonce is not hex"))?,
            },
            Self::Failed { failure } => Fetched::Failed(match failure {
                FailureRecord::Unreachable => FetchFailure::Unreachable,
                FailureRecord::Timeout => FetchFailure::Timeout,
                FailureRecord::HttpStatus(status) => FetchFailure::HttpStatus(*status),
                FailureRecord::TooLarge => FetchFailure::TooLarge,
                FailureRecord::NotFetched => FetchFailure::NotFetched,
            }),
        })
    }
}

/// The response: the tokens, an EAR or an error body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResultRecord {
    /// The status.
    pub status: u16,
    /// Its `content-type`.
    pub content_type: Option<String>,
    /// The body, as text (the core's results are UTF-8 JSON or a compact JWS).
    pub body: String,
}

impl ResultRecord {
    pub(crate) fn of(response: &Response) -> Self {
        Self {
            status: response.status,
            content_type: content_type(response).map(ToString::to_string),
            body: String::from_utf8_lossy(&response.body).into_owned(),
        }
    }
}

/// The `content-type` of `response`.
pub(crate) fn content_type(response: &Response) -> Option<&str> {
    response
        .headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("content-type"))
        .map(|(_, value)| value.as_str())
}

/// Decodes base64 member `at`.
pub(crate) fn base64(text: &str, at: &str) -> Result<Vec<u8>, ReplayError> {
    STANDARD
        .decode(text)
        .map_err(|_| field(at, "is not standard base64"))
}

pub(crate) fn field(at: &str, problem: &'static str) -> ReplayError {
    ReplayError::Field {
        field: at.into(),
        problem,
    }
}
