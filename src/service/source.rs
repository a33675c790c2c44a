//! The remote sources a host fetches collateral from, and what it last saw of each: the
//! shared words of the health report and the sources' probe.

use alloc::string::String;

/// The longest `lastError` a host's [`SourceState`] keeps, in characters: it is shown in
/// `/health`, and a host should not fill that with an upstream's whole answer.
pub const MAX_LAST_ERROR_CHARS: usize = 200;

/// What the host last saw of a remote source (the RIM service, the OCSP responder).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(as = "super::wire::SourceStateIn")
)]
pub struct SourceState {
    /// Whether its last fetch got an answer (`None`: not asked yet).
    pub reachable: Option<bool>,
    /// The last failure, e.g. `timeout` or `HTTP 503` (never a secret: URLs only).
    pub last_error: Option<String>,
    /// Answers held in the host's cache.
    pub cached_entries: u64,
    /// Seconds past its freshness of the stalest kept answer the last fetch used because
    /// every source failed (stale-if-error); `None`: it used none.
    pub kept_seconds: Option<u64>,
}

/// The remote sources a host fetches from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source {
    /// The RIM service.
    RimService,
    /// The OCSP responder.
    Ocsp,
}
