//! The limits the core enforces, as one table for hosts to read instead of copying: a worker
//! stops reading a body, a fetch or an OCSP answer where the core would refuse it anyway; and
//! the fetch step's timeouts, concurrency and cache lifetimes, the same in every host (the JS
//! package's `answerFetchStep`, the `wasi:http` component's).

use serde::Serialize;

use super::fetch::{
    FETCH_CACHE_ENTRIES, FETCH_CONCURRENCY, MAX_FETCHED_BYTES, RIM_CACHE_SECONDS, RIM_KEEP_SECONDS,
    RIM_MISS_SECONDS, RIM_TIMEOUT_MS,
};
use super::health_probe::{PROBE_INTERVAL_SECONDS, PROBE_TIMEOUT_MS};
use super::DEFAULT_OCSP_TIMEOUT_MS;

/// The core's limits in bytes, and the hosts' fetch settings (the JS `ServiceLimits`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ServiceLimits {
    /// An attestation request body ([`crate::attest::MAX_BODY_BYTES`]); past it the service
    /// answers 413 `ERR_REQUEST_TOO_LARGE`.
    pub max_body_bytes: usize,
    /// A fetched RIM service envelope or OCSP answer ([`MAX_FETCHED_BYTES`]).
    pub max_fetched_bytes: usize,
    /// An OCSP response ([`crate::ocsp::MAX_RESPONSE_LEN`]).
    pub max_ocsp_response_bytes: usize,
    /// An `Authorization` header value ([`crate::access::MAX_AUTHORIZATION_LEN`]).
    pub max_authorization_bytes: usize,
    /// A RIM service fetch's time budget, request to last byte ([`RIM_TIMEOUT_MS`]).
    pub rim_timeout_ms: u64,
    /// An OCSP fetch's time budget when the host sets none ([`DEFAULT_OCSP_TIMEOUT_MS`]).
    pub ocsp_timeout_ms: u64,
    /// Fetches in flight at once for one fetch step ([`FETCH_CONCURRENCY`]).
    pub fetch_concurrency: usize,
    /// How long a RIM service envelope is kept ([`RIM_CACHE_SECONDS`]).
    pub rim_cache_seconds: u64,
    /// How long a RIM service 404 is kept ([`RIM_MISS_SECONDS`]).
    pub rim_miss_seconds: u64,
    /// How long a RIM envelope is kept past `rimCacheSeconds` for stale-if-error
    /// ([`RIM_KEEP_SECONDS`]).
    pub rim_keep_seconds: u64,
    /// The most answers a fetch cache holds ([`FETCH_CACHE_ENTRIES`]).
    pub fetch_cache_entries: usize,
    /// A source probe's time budget ([`PROBE_TIMEOUT_MS`]).
    pub probe_timeout_ms: u64,
    /// The least time between two probes of the sources ([`PROBE_INTERVAL_SECONDS`]).
    pub probe_interval_seconds: u64,
}

impl ServiceLimits {
    /// The limits of this build of the core.
    pub const CORE: Self = Self {
        max_body_bytes: crate::attest::MAX_BODY_BYTES,
        max_fetched_bytes: MAX_FETCHED_BYTES,
        max_ocsp_response_bytes: crate::ocsp::MAX_RESPONSE_LEN,
        max_authorization_bytes: crate::access::MAX_AUTHORIZATION_LEN,
        rim_timeout_ms: RIM_TIMEOUT_MS,
        ocsp_timeout_ms: DEFAULT_OCSP_TIMEOUT_MS,
        fetch_concurrency: FETCH_CONCURRENCY,
        rim_cache_seconds: RIM_CACHE_SECONDS,
        rim_miss_seconds: RIM_MISS_SECONDS,
        rim_keep_seconds: RIM_KEEP_SECONDS,
        fetch_cache_entries: FETCH_CACHE_ENTRIES,
        probe_timeout_ms: PROBE_TIMEOUT_MS,
        probe_interval_seconds: PROBE_INTERVAL_SECONDS,
    };
}
