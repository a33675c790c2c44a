//! What a host answers for a resource it fetched (a RIM service envelope, an OCSP response):
//! the core does no I/O, so the answer is data. The OCSP check, the service's exchange and the
//! skins all read these shapes, so they sit below all of them.

use alloc::vec::Vec;
use core::fmt;

mod answer;

pub use answer::{AnswerError, AnswerFailure, FetchAnswer};

/// Largest answer the core reads: a RIM service envelope (a RIM is at most 1 MiB, base64 in
/// JSON) or an OCSP response. Hosts should stop reading past it and answer
/// [`FetchFailure::TooLarge`].
pub const MAX_FETCHED_BYTES: usize = 2 * 1024 * 1024;

/// The host's answer for one [`crate::service::Resource`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fetched {
    /// The body fetched now, for this resource's request.
    Body(Vec<u8>),
    /// An OCSP response from the host's cache, with the nonce of the request that fetched
    /// it (a cached answer cannot echo this request's nonce; it must echo its own).
    Cached {
        /// The response.
        body: Vec<u8>,
        /// The nonce sent when it was fetched.
        nonce: Vec<u8>,
    },
    /// A copy the host kept past its freshness, given because every source failed
    /// (stale-if-error). The core verifies it as any other answer — an OCSP response within
    /// the service's `ocspStaleIfError` past its `nextUpdate`, a RIM with its chain at the
    /// request's time — and the token says that it was used.
    Stale {
        /// The kept body.
        body: Vec<u8>,
        /// The nonce sent when it was fetched (OCSP responses; `None` for RIM envelopes).
        nonce: Option<Vec<u8>>,
    },
    /// No body.
    Failed(FetchFailure),
}

/// Why the host could not fetch a response. The core never fetches; it needs the failure as
/// data to fold it into the chain's status (the real service answers 5001).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FetchFailure {
    /// No connection (refused, DNS, TLS).
    Unreachable,
    /// No answer within the host's time budget.
    Timeout,
    /// An HTTP status other than 200.
    HttpStatus(u16),
    /// A body larger than [`crate::ocsp::MAX_RESPONSE_LEN`].
    TooLarge,
    /// The host did not fetch it (no responder configured for this request, or the
    /// exchange ended first).
    NotFetched,
}

impl fmt::Display for FetchFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unreachable => f.write_str("the responder is unreachable"),
            Self::Timeout => f.write_str("the responder did not answer in time"),
            Self::HttpStatus(status) => write!(f, "the responder answered HTTP {status}"),
            Self::TooLarge => f.write_str("the responder's answer is too large"),
            Self::NotFetched => f.write_str("the response was not fetched"),
        }
    }
}
