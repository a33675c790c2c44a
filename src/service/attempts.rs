//! How a host fetches one [`Resource`]: the order of its sources, the retries, the waits
//! between them and when to give up, decided here once for every host (the worker's
//! `handleRequest` and the `wasi:http` component run the attempts this hands out).
//!
//! - Each round tries the resource's URLs in order (the configured source, then its mirrors),
//!   skipping a source whose breaker is open ([`SourceBook`]). A usable answer ends it.
//! - An answer that is final for a source — a 404 or another 4xx but 408 and 429, a body
//!   that is not a document of its kind (a RIM envelope for another id, not an OCSP response)
//!   or one larger than the core reads — is not asked again of it; the next source is still
//!   tried (a mirror may hold a RIM).
//! - No connection, no answer in time, 408, 429 and 5xx are retried in the next round, after a
//!   wait of [`BACKOFF_BASE_MS`] doubled each round (at most [`BACKOFF_MAX_MS`]), of which the
//!   host's random draw takes off up to half (jitter, so that many hosts do not retry in step).
//! - Everything happens within [`DEADLINE_FACTOR`] times the kind's timeout from the first
//!   attempt: no attempt waits past it, and no round starts that could not.
//! - When no source gave a usable answer and none said the document does not exist (404), the
//!   copy the host kept past its freshness is the answer ([`Fetched::Stale`], stale-if-error);
//!   the core then verifies it and the token says so.

use alloc::string::String;
use alloc::vec::Vec;

// `FetchResource` read back and `FetchAttempt` written (serde).
mod wire;

use super::breaker::{AttemptOutcome, SourceBook};
use super::fetch::{FetchFailure, Fetched, Resource};
use super::source::Source;

/// Rounds over a resource's sources: the first try and two retries.
pub const FETCH_ROUNDS: u32 = 3;

/// The wait before the second round; doubled for each later one.
pub const BACKOFF_BASE_MS: u64 = 250;

/// The longest wait between rounds.
pub const BACKOFF_MAX_MS: u64 = 2_000;

/// A resource's attempts together take at most this many times its kind's timeout: a source
/// that hangs costs one timeout, and the next gets the rest.
pub const DEADLINE_FACTOR: u64 = 2;

/// An attempt with less time than this left is not started.
const MIN_ATTEMPT_MS: u64 = 50;

/// What the host does next for a resource.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(as = "wire::AttemptOut<'static>", rename = "FetchAttempt")
)]
pub enum Attempt {
    /// Fetch `url` (the request as [`Resource`] says), waiting at most `timeout_ms`; answer
    /// with [`FetchAttempts::answered`].
    Fetch {
        /// One of the resource's URLs.
        url: String,
        /// How long to wait for this answer.
        timeout_ms: u64,
    },
    /// Wait `ms`, then ask again.
    Wait {
        /// Milliseconds.
        ms: u64,
    },
    /// The answer to give the exchange.
    Done(Fetched),
}

/// Where one URL stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tried {
    /// Not asked yet, or asked and worth asking again.
    Open,
    /// It answered something final for it.
    Settled,
}

/// The attempts for one resource; see the module documentation.
#[derive(Clone, Debug)]
pub struct FetchAttempts {
    kind: Source,
    /// The RIM id a RIM envelope must name.
    rim_id: Option<String>,
    urls: Vec<String>,
    tried: Vec<Tried>,
    timeout_ms: u64,
    deadline_ms: u64,
    round: u32,
    /// The next URL of the round.
    next: usize,
    /// The URL whose answer is awaited.
    pending: Option<usize>,
    /// Whether the wait before this round was handed out.
    waited: bool,
    /// Whether this round asked any source (every breaker open: give up at once).
    asked: bool,
    usable: Option<Vec<u8>>,
    not_found: bool,
    /// The last body that was not a document of its kind (the exchange says what is wrong).
    unusable: Option<Vec<u8>>,
    last_failure: Option<FetchFailure>,
    /// Answers other than a failure or an unusable body (a 4xx): final, no stale copy.
    refused: Option<u16>,
    stale: Option<Fetched>,
}

impl FetchAttempts {
    /// The attempts for `resource`, starting at `now_ms`, each waiting at most `timeout_ms`
    /// (the kind's: [`super::RIM_TIMEOUT_MS`], or the host's OCSP timeout). `kept`: the body
    /// (and OCSP nonce) the host kept past its freshness, if any — used only when every
    /// source fails.
    pub fn new(
        resource: &Resource,
        timeout_ms: u64,
        now_ms: u64,
        kept: Option<(Vec<u8>, Option<Vec<u8>>)>,
    ) -> Self {
        let urls: Vec<String> = resource.urls().map(String::from).collect();
        let timeout_ms = timeout_ms.max(1);
        Self {
            kind: resource.source(),
            rim_id: match resource {
                Resource::Rim { id, .. } => Some(id.clone()),
                _ => None,
            },
            tried: alloc::vec![Tried::Open; urls.len()],
            urls,
            timeout_ms,
            deadline_ms: now_ms.saturating_add(timeout_ms.saturating_mul(DEADLINE_FACTOR)),
            round: 0,
            next: 0,
            pending: None,
            waited: true,
            asked: false,
            usable: None,
            not_found: false,
            unusable: None,
            last_failure: None,
            refused: None,
            stale: kept.map(|(body, nonce)| Fetched::Stale { body, nonce }),
        }
    }

    /// What to do next at `now_ms`; `random` is a fresh random draw of the host (the jitter).
    pub fn next(&mut self, book: &SourceBook, now_ms: u64, random: u32) -> Attempt {
        if self.pending.is_some() {
            // Asked again before answering: the attempt is lost.
            self.pending = None;
            self.last_failure = Some(FetchFailure::Unreachable);
        }
        if let Some(body) = self.usable.take() {
            return Attempt::Done(Fetched::Body(body));
        }
        while self.round < FETCH_ROUNDS {
            let left = self.deadline_ms.saturating_sub(now_ms);
            if !self.waited {
                let ms = backoff_ms(self.round, random);
                if ms.saturating_add(MIN_ATTEMPT_MS) > left {
                    break;
                }
                self.waited = true;
                return Attempt::Wait { ms };
            }
            while self.next < self.urls.len() {
                let index = self.next;
                self.next += 1;
                if self.tried[index] == Tried::Settled || !book.allows(&self.urls[index], now_ms) {
                    continue;
                }
                if left < MIN_ATTEMPT_MS {
                    return self.give_up();
                }
                self.pending = Some(index);
                self.asked = true;
                return Attempt::Fetch {
                    url: self.urls[index].clone(),
                    timeout_ms: self.timeout_ms.min(left),
                };
            }
            // The round is over: another only when some source may still answer.
            self.round += 1;
            self.next = 0;
            self.waited = false;
            if !core::mem::take(&mut self.asked) || !self.tried.contains(&Tried::Open) {
                break;
            }
        }
        self.give_up()
    }

    /// The host's answer from `url` (the last [`Attempt::Fetch`]'s), counted in `book` at
    /// `now_ms`: a [`Fetched::Body`] or [`Fetched::Failed`].
    pub fn answered(&mut self, answer: Fetched, book: &mut SourceBook, now_ms: u64) {
        let Some(index) = self.pending.take() else {
            return;
        };
        let url = &self.urls[index];
        let outcome = match answer {
            Fetched::Body(body) | Fetched::Cached { body, .. } | Fetched::Stale { body, .. } => {
                match self.problem(&body) {
                    None => {
                        self.usable = Some(body);
                        AttemptOutcome::Answered
                    }
                    Some(problem) => {
                        self.tried[index] = Tried::Settled;
                        self.unusable = Some(body);
                        AttemptOutcome::Failed(String::from(problem))
                    }
                }
            }
            Fetched::Failed(FetchFailure::HttpStatus(status)) if !retried(status) => {
                self.tried[index] = Tried::Settled;
                if status == 404 {
                    self.not_found = true;
                } else {
                    self.refused = Some(status);
                }
                AttemptOutcome::Answered
            }
            Fetched::Failed(failure) => {
                // A source that sends more than the core reads would send it again.
                if failure == FetchFailure::TooLarge {
                    self.tried[index] = Tried::Settled;
                }
                self.last_failure = Some(failure);
                AttemptOutcome::Failed(failure_words(failure))
            }
        };
        book.note(self.kind, url, &outcome, now_ms);
        if self.usable.is_some() {
            // Nothing more to ask.
            self.round = FETCH_ROUNDS;
        }
    }

    /// Why `body` is not a document of the resource's kind, if it is not.
    fn problem(&self, body: &[u8]) -> Option<&'static str> {
        match &self.rim_id {
            Some(id) => crate::rim::open_envelope(body, id)
                .err()
                .map(|_| "an unusable answer (not the RIM envelope asked for)"),
            None => crate::ocsp::screen_response(body)
                .err()
                .map(|_| "an unusable answer (not a successful OCSP response)"),
        }
    }

    /// The answer when no source gave a usable one.
    fn give_up(&mut self) -> Attempt {
        self.round = FETCH_ROUNDS;
        Attempt::Done(if self.not_found {
            Fetched::Failed(FetchFailure::HttpStatus(404))
        } else if let Some(status) = self.refused {
            Fetched::Failed(FetchFailure::HttpStatus(status))
        } else if let Some(stale) = self.stale.take() {
            stale
        } else if let Some(body) = self.unusable.take() {
            Fetched::Body(body)
        } else {
            Fetched::Failed(self.last_failure.unwrap_or(FetchFailure::Unreachable))
        })
    }
}

/// Whether an HTTP status is worth asking again: 408, 429 and 5xx.
fn retried(status: u16) -> bool {
    matches!(status, 408 | 429) || status >= 500
}

/// A failure in `/health`'s words.
fn failure_words(failure: FetchFailure) -> String {
    match failure {
        FetchFailure::Unreachable => String::from("unreachable"),
        FetchFailure::Timeout => String::from("timeout"),
        FetchFailure::HttpStatus(status) => alloc::format!("HTTP {status}"),
        FetchFailure::TooLarge => String::from("too-large"),
        FetchFailure::NotFetched => String::from("not-fetched"),
    }
}

/// The wait before round `round` (1 or more): [`BACKOFF_BASE_MS`] doubled per round, at most
/// [`BACKOFF_MAX_MS`], less up to half of it by `random` ("equal jitter").
pub fn backoff_ms(round: u32, random: u32) -> u64 {
    let full = BACKOFF_BASE_MS
        .saturating_mul(1u64 << round.saturating_sub(1).min(16))
        .min(BACKOFF_MAX_MS);
    let half = full / 2;
    full - half * u64::from(random) / u64::from(u32::MAX)
}
