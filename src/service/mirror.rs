//! The verified collateral mirror: what the service has verified, in the shapes of NVIDIA's
//! RIM service, so that NVIDIA's tools and other verifiers can use the deployment as their
//! RIM source. `GET /v1/rim/<id>` answers the envelope `{id, rim, sha256, last_updated,
//! rim_format, request_id}` (the members and order of a recorded answer of
//! rim.attestation.nvidia.com; NVIDIA's C++ SDK requires `id`, `rim`, `sha256`,
//! `request_id`), `GET /v1/rim/ids` the list `{ids, request_id, last_updated}`.
//!
//! One rule: a document is served only if it verifies at the time it is served — its
//! signature, and its chain to a RIM trust anchor valid (not expired) at `now`, and its
//! content the RIM its id names. The documents are the service's own (bundled, added) and
//! envelopes a host kept: fetched by an attestation whose exchange verified them
//! ([`super::Exchange::verified_rims`]) or fetched for the mirror and verified here. Anything
//! else — unknown, tampered, expired, another id's document — is a 404: the mirror says
//! nothing of documents it does not serve.

use alloc::string::String;
use alloc::vec::Vec;

use base64::Engine;
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::fetch::rim_url;
use super::http::Response;
use super::rims::{is_configured_roots_key, RimStore};
use crate::error_code::ErrorBody;
use crate::rim::{open_envelope, verify_rim, RimCertStatus, RimTrust};
use crate::time::UnixTime;

/// The path prefix of the mirror's RIM routes.
pub const MIRROR_RIM_PATH: &str = super::router::MIRROR_RIM_PATH;

/// How long a host keeps a verified envelope for the mirror (at most until the document's
/// chain expires): a month, as NVIDIA replaces a published RIM rarely and the document is
/// verified again each time it is served.
pub const RIM_MIRROR_SECONDS: u64 = 30 * 24 * 3600;

/// The host cache's key of RIM `id`'s verified envelope (beside the fetch cache's own keys).
pub fn mirror_rim_key(id: &str) -> String {
    alloc::format!("mirror-rim:{id}")
}

/// The RIM service's envelope, as NVIDIA's service answers `GET /v1/rim/<id>`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RimServiceEnvelope {
    /// The RIM id.
    pub id: String,
    /// Standard base64 of the document.
    pub rim: String,
    /// Lower-case hex SHA-256 of the document.
    pub sha256: String,
    /// When the RIM service last updated the document, as the fetched envelope said;
    /// absent for a document the service holds itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_updated: Option<String>,
    /// `TCG` (SWID XML): the only format the service verifies.
    pub rim_format: &'static str,
    /// This answer's id.
    pub request_id: String,
}

/// The RIM service's list, as NVIDIA's service answers `GET /v1/rim/ids`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RimServiceIds {
    /// The ids, sorted.
    pub ids: Vec<String>,
    /// This answer's id.
    pub request_id: String,
}

/// A verified envelope for the host's cache: under [`mirror_rim_key`] until `until`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MirrorEntry {
    /// The RIM id.
    pub id: String,
    /// The envelope as the RIM service answered it.
    pub body: Vec<u8>,
    /// Until when it may be kept: [`RIM_MIRROR_SECONDS`] from now, at most the chain's expiry.
    pub until: UnixTime,
}

/// The mirror's answer for one RIM: the response, and the envelope the host should keep
/// (a fetched one that verified now).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MirrorAnswer {
    /// The response to send.
    pub response: Response,
    /// What to store under [`mirror_rim_key`], when a fetched envelope verified.
    pub store: Option<MirrorEntry>,
    /// Where to fetch the envelope (`GET`, the configured RIM service), when nothing the
    /// service and the host hold verified and no envelope was given: the host fetches it
    /// and asks again with the answer. `None` once an envelope was given, or when no RIM
    /// service is configured.
    pub fetch: Option<String>,
}

/// Where the mirror looks for a RIM: the service's documents and the envelope a host has.
pub(crate) struct MirrorSources<'a> {
    pub(crate) rims: &'a RimStore,
    pub(crate) trust: &'a RimTrust,
    /// The configured RIM service, where a host fetches what the mirror lacks.
    pub(crate) upstream: Option<&'a str>,
    pub(crate) now: UnixTime,
    /// The answer's `request_id`.
    pub(crate) request_id: String,
}

impl MirrorSources<'_> {
    /// `GET /v1/rim/<id>`: the service's own document first, else `envelope` (a host's kept
    /// or fetched RIM service answer), whichever verifies now.
    pub(crate) fn rim(&self, id: &str, envelope: Option<&[u8]>) -> MirrorAnswer {
        let own = self
            .rims
            .get(id)
            .filter(|_| !is_configured_roots_key(id))
            .and_then(|xml| self.verified(id, xml).map(|until| (xml, until)));
        if let Some((xml, _)) = own {
            return self.served(id, xml, None, None);
        }
        let opened = envelope.and_then(|body| open_envelope(body, id).ok().map(|e| (body, e)));
        if let Some((body, opened)) = opened {
            if let Some(until) = self.verified(id, &opened.rim) {
                let entry = MirrorEntry {
                    id: id.into(),
                    body: body.to_vec(),
                    until,
                };
                return self.served(id, &opened.rim, opened.last_updated, Some(entry));
            }
        }
        MirrorAnswer {
            response: not_mirrored(id),
            store: None,
            fetch: match envelope {
                None => self.upstream.map(|base| rim_url(base, id)),
                Some(_) => None,
            },
        }
    }

    /// `GET /v1/rim/ids`: the ids of the documents the service holds by id (what hosts kept
    /// is served by id but not listed: a host's cache cannot be enumerated). Each is served
    /// only if it verifies when asked.
    pub(crate) fn ids(&self) -> Response {
        Response::json(
            200,
            &RimServiceIds {
                ids: self.rims.ids().map(String::from).collect(),
                request_id: self.request_id.clone(),
            },
        )
    }

    /// When `xml` is RIM `id` and verifies now (chain valid, not expired): until when a
    /// host may keep it.
    fn verified(&self, id: &str, xml: &[u8]) -> Option<UnixTime> {
        let verified = verify_rim(xml, self.trust, self.now).ok()?;
        verified.check_id(id).ok()?;
        let chain = verified.cert_chain();
        if chain.status != RimCertStatus::Valid {
            return None;
        }
        let until = self.now.saturating_add(RIM_MIRROR_SECONDS);
        Some(chain.expiration.map_or(until, |expiry| expiry.min(until)))
    }

    fn served(
        &self,
        id: &str,
        xml: &[u8],
        last_updated: Option<String>,
        store: Option<MirrorEntry>,
    ) -> MirrorAnswer {
        let envelope = RimServiceEnvelope {
            id: id.into(),
            rim: base64::engine::general_purpose::STANDARD.encode(xml),
            sha256: hex::encode(Sha256::digest(xml)),
            last_updated,
            rim_format: "TCG",
            request_id: self.request_id.clone(),
        };
        MirrorAnswer {
            response: Response::json(200, &envelope),
            store,
            fetch: None,
        }
    }
}

/// The 404 of an id the mirror does not serve.
pub(crate) fn not_mirrored(id: &str) -> Response {
    let mut body = ErrorBody::new(
        404,
        "ERR_RIM_NOT_MIRRORED",
        alloc::format!(
            "no verified RIM with id {id}: the mirror serves only documents whose signature \
             and chain verify now"
        ),
    );
    body.field = Some("id".into());
    body.into_response()
}

/// The RIM id a mirror path names (`/v1/rim/<id>`, percent-decoded, `[A-Za-z0-9._-]`
/// only), `None` for `/v1/rim/ids` and anything else.
pub fn mirror_rim_id(path: &str) -> Option<String> {
    let rest = path.split('?').next()?.strip_prefix(MIRROR_RIM_PATH)?;
    if rest == "ids" || rest.is_empty() || rest.len() > 256 {
        return None;
    }
    let mut out = Vec::with_capacity(rest.len());
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(core::str::from_utf8(hex).ok()?, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    let id = String::from_utf8(out).ok()?;
    id.bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        .then_some(id)
}

/// A UUID-shaped request id from 16 random bytes (RFC 9562 version 4 layout).
pub(crate) fn request_id(random: &[u8]) -> String {
    let mut bytes = [0u8; 16];
    for (out, byte) in bytes.iter_mut().zip(random) {
        *out = *byte;
    }
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex = hex::encode(bytes);
    alloc::format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

impl super::Service {
    /// The mirror's answer to `GET /v1/rim/<id>` at `now`: the service's own document, else
    /// `envelope` (the RIM service answer a host kept under [`mirror_rim_key`], or fetched
    /// for the mirror), served only if it verifies now; `random`: 16 bytes for the answer's
    /// `request_id`. A fetched envelope that verified comes back in
    /// [`MirrorAnswer::store`] for the host to keep.
    pub fn mirror_rim(
        &self,
        id: &str,
        envelope: Option<&[u8]>,
        now: UnixTime,
        random: [u8; 16],
    ) -> MirrorAnswer {
        let mut answer = self.mirror_sources(now, &random).rim(id, envelope);
        answer.response = super::router::decorate(answer.response);
        answer
    }

    fn mirror_sources(&self, now: UnixTime, random: &[u8]) -> MirrorSources<'_> {
        MirrorSources {
            rims: &self.rims,
            trust: &self.rim_trust,
            upstream: self.config.rim_service_url.as_deref(),
            now,
            request_id: request_id(random),
        }
    }

    /// The mirror routes' answer without a host's envelope (the router's).
    pub(crate) fn mirror_route(&self, path: &str, now: UnixTime, random: &[u8]) -> Response {
        let sources = self.mirror_sources(now, random);
        let clean = path.split('?').next().unwrap_or("");
        if clean == "/v1/rim/ids" {
            return sources.ids();
        }
        match mirror_rim_id(path) {
            Some(id) => sources.rim(&id, None).response,
            None => not_mirrored(clean.strip_prefix(MIRROR_RIM_PATH).unwrap_or(clean)),
        }
    }
}
