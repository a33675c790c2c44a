//! What an [`super::Exchange`] asks its host to fetch, and the host's answers. The core does
//! no I/O: it names each resource (the configured RIM service and OCSP responder, never a
//! URL read from a certificate or a document) and the host fetches. How long it waits, how
//! many at once and how long it keeps what it fetched are the constants below, which every
//! host reads (through [`super::ServiceLimits`] in JS) rather than copying.

use crate::rim::RimFormats;
use alloc::string::String;
use alloc::vec::Vec;

pub use crate::host_answer::{FetchFailure, Fetched, MAX_FETCHED_BYTES};

/// NVIDIA's RIM service: `GET <url><id>` answers the envelope `{id, rim, sha256, …}`.
pub const NVIDIA_RIM_SERVICE_URL: &str = "https://rim.attestation.nvidia.com/v1/rim/";

/// NVIDIA's OCSP responder for device and RIM certificates (RFC 6960 over HTTP POST).
pub const NVIDIA_OCSP_URL: &str = "https://ocsp.ndis.nvidia.com/";

/// How long a host waits for a RIM service answer, from request to last byte. (OCSP has its
/// own, configurable budget: [`super::DEFAULT_OCSP_TIMEOUT_MS`].)
pub const RIM_TIMEOUT_MS: u64 = 10_000;

/// How many fetches a host runs at once for one fetch step: the RIMs and OCSP queries of an
/// 8-GPU request (up to about 40) go out in a few rounds rather than all at once.
pub const FETCH_CONCURRENCY: usize = 8;

/// How long a host keeps a RIM service envelope: a signed document the core verifies on
/// every use, which NVIDIA replaces rarely (revocation is OCSP's, checked per request).
pub const RIM_CACHE_SECONDS: u64 = 24 * 3600;

/// How long a host keeps a RIM service 404, so that an unknown firmware does not send every
/// request to the service, yet a RIM published later is found soon.
pub const RIM_MISS_SECONDS: u64 = 5 * 60;

/// The most answers a host's fetch cache holds (the oldest dropped first).
pub const FETCH_CACHE_ENTRIES: usize = 4096;

/// How long a host keeps a RIM envelope past [`RIM_CACHE_SECONDS`], for stale-if-error: when
/// every RIM source fails, the kept copy is used. The core verifies it as any other (its
/// signature, its chain at the request's time, and the chain's revocation), so a copy whose
/// chain expired or was revoked fails; the token says the copy was used.
pub const RIM_KEEP_SECONDS: u64 = 30 * 24 * 3600;

/// The most fallback sources (mirrors) of one kind.
pub const MAX_MIRRORS: usize = 4;

/// The longest `ocspStaleIfError` accepted: a week past an answer's `nextUpdate`.
pub const MAX_OCSP_STALE_IF_ERROR: u64 = 7 * 24 * 3600;

/// One thing to fetch.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(as = "super::wire::ResourceOut<'static>", rename = "FetchResource")
)]
#[non_exhaustive]
pub enum Resource {
    /// `GET url`: a RIM document from the RIM service; answer with the envelope body.
    Rim {
        /// The RIM id, e.g. `NV_GPU_DRIVER_GH100_550.90.07`.
        id: String,
        /// The configured RIM service URL with the id appended.
        url: String,
        /// The same document at each mirror, tried in order after `url`
        /// ([`super::FetchAttempts`] runs the order, the retries and the breakers).
        fallbacks: Vec<String>,
        /// The formats asked for: the request's `Accept` is [`RimFormats::accept`].
        formats: RimFormats,
    },
    /// `POST request` to `url` with `content-type: application/ocsp-request`; answer with
    /// the response body, or from a cache with the nonce that fetched the cached bytes.
    Ocsp {
        /// The configured responder.
        url: String,
        /// The mirrors of the responder, tried in order after `url`.
        fallbacks: Vec<String>,
        /// The DER `OCSPRequest`.
        request: Vec<u8>,
        /// Its nonce: a host that answers another request from this fetch answers
        /// [`Fetched::Cached`] with it, as the response echoes it.
        nonce: Vec<u8>,
        /// The certificate asked about, for the host's cache:
        /// `sha384:<issuer key hash>:<serial>`, both hex.
        cache_key: String,
    },
}

/// An OCSP response that verified, for the host's cache.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(as = "super::wire::CacheEntryOut<'static>")
)]
pub struct OcspCacheEntry {
    /// [`Resource::Ocsp::cache_key`].
    pub cache_key: String,
    /// The response.
    pub body: Vec<u8>,
    /// The nonce of the request that fetched it.
    pub nonce: Vec<u8>,
    /// Until when it may be used: its `nextUpdate`, at most a day.
    pub until: crate::time::UnixTime,
    /// Until when a host may keep it for stale-if-error: `until` plus the service's
    /// `ocspStaleIfError` (equal to `until` when that is off).
    pub keep_until: crate::time::UnixTime,
}

impl Resource {
    /// Every URL of the resource, in the order a host tries them: `url`, then the mirrors.
    pub fn urls(&self) -> impl Iterator<Item = &str> {
        let (url, fallbacks) = match self {
            Self::Rim { url, fallbacks, .. } | Self::Ocsp { url, fallbacks, .. } => {
                (url, fallbacks)
            }
        };
        core::iter::once(url.as_str()).chain(fallbacks.iter().map(String::as_str))
    }

    /// Which kind of source answers it.
    pub fn source(&self) -> super::Source {
        match self {
            Self::Rim { .. } => super::Source::RimService,
            Self::Ocsp { .. } => super::Source::Ocsp,
        }
    }
}

/// The URL of RIM `id` at the RIM service `base` (which ends in `/`, as
/// [`NVIDIA_RIM_SERVICE_URL`]). RIM ids are `[A-Za-z0-9._-]`; anything else is escaped.
pub(crate) fn rim_url(base: &str, id: &str) -> String {
    let mut url = String::from(base);
    if !url.ends_with('/') {
        url.push('/');
    }
    for byte in id.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_' | b'-') {
            url.push(char::from(byte));
        } else {
            url.push_str(&alloc::format!("%{byte:02X}"));
        }
    }
    url
}

/// Whether `url` can name a source: `http://` or `https://` with a host, at most 2048
/// characters, no whitespace or control characters (it goes into a fetch unchanged).
pub fn is_source_url(url: &str) -> bool {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    let Some(rest) = rest else {
        return false;
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    url.len() <= 2048
        && !host.is_empty()
        && !host.contains('@')
        && url.bytes().all(|b| b.is_ascii_graphic())
}
