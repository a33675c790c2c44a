//! A breaker per remote source, so that a dead source costs nothing for a while: after
//! [`BREAKER_FAILURES`] failed attempts in a row a source is skipped for [`BREAKER_OPEN_MS`];
//! then it is tried again (half-open), and its next answer closes the breaker or opens it for
//! another period. A source is an origin (`scheme://host:port`): a mirror that serves RIMs and
//! OCSP answers is one source, and a dead host fails every path alike.
//!
//! The book also keeps what the host last saw of each source, for `/health`. Hosts keep one
//! book per service ([`super::Service::sources_mut`]); times are the host's milliseconds.

use alloc::string::String;
use alloc::vec::Vec;

use super::source::{Source, MAX_LAST_ERROR_CHARS};

/// Failed attempts in a row that open a source's breaker.
pub const BREAKER_FAILURES: u32 = 3;

/// How long an open breaker skips its source.
pub const BREAKER_OPEN_MS: u64 = 30_000;

/// The most sources a book follows: the primary and [`super::fetch::MAX_MIRRORS`] mirrors of each
/// kind; more would be URLs no configuration names.
const MAX_SOURCES: usize = 2 * (1 + super::fetch::MAX_MIRRORS);

/// A breaker's state at some time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BreakerState {
    /// Attempts go through.
    Closed,
    /// Attempts are skipped until `until_ms`.
    Open {
        /// When it turns half-open.
        until_ms: u64,
    },
    /// The open period is over: the next answer decides.
    HalfOpen,
}

impl BreakerState {
    /// `closed`, `open` or `half-open`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Closed => "closed",
            Self::Open { .. } => "open",
            Self::HalfOpen => "half-open",
        }
    }
}

/// How one attempt went, as the breaker counts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttemptOutcome {
    /// The source answered (a usable body, or an answer that is final for it, e.g. 404).
    Answered,
    /// It failed: no connection, no answer in time, a 5xx, an unusable body. The words are
    /// for `/health` (never a secret: they name statuses and causes only).
    Failed(String),
}

/// What the host saw of one source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceRecord {
    origin: String,
    kind: Source,
    failures_in_a_row: u32,
    open_until_ms: Option<u64>,
    /// Whether its last attempt got an answer.
    pub reachable: bool,
    /// Its last failure, kept after a success.
    pub last_error: Option<String>,
    /// Attempts made.
    pub attempts: u64,
    /// Attempts failed.
    pub failures: u64,
}

impl SourceRecord {
    /// The source: `scheme://host:port`.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// What it was last asked for.
    pub fn kind(&self) -> Source {
        self.kind
    }

    /// Its breaker at `now_ms`.
    pub fn breaker(&self, now_ms: u64) -> BreakerState {
        match self.open_until_ms {
            None => BreakerState::Closed,
            Some(until_ms) if now_ms < until_ms => BreakerState::Open { until_ms },
            Some(_) => BreakerState::HalfOpen,
        }
    }
}

/// The breakers and last states of a host's sources.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceBook {
    records: Vec<SourceRecord>,
    /// The host's clock at the last attempt counted.
    latest_ms: u64,
}

/// The origin of `url`: its scheme and authority (`https://rim.example:8443`).
pub fn origin_of(url: &str) -> &str {
    let start = url.find("://").map_or(0, |at| at + 3);
    let end = url[start..]
        .find(['/', '?', '#'])
        .map_or(url.len(), |at| start + at);
    &url[..end]
}

impl SourceBook {
    /// An empty book: every breaker closed.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether an attempt at `url` goes through at `now_ms` (its source's breaker is not open).
    pub fn allows(&self, url: &str, now_ms: u64) -> bool {
        !matches!(self.state(url, now_ms), BreakerState::Open { .. })
    }

    /// The breaker of `url`'s source at `now_ms`.
    pub fn state(&self, url: &str, now_ms: u64) -> BreakerState {
        self.record(url)
            .map_or(BreakerState::Closed, |record| record.breaker(now_ms))
    }

    /// What the host saw of `url`'s source.
    pub fn record(&self, url: &str) -> Option<&SourceRecord> {
        let origin = origin_of(url);
        self.records.iter().find(|record| record.origin == origin)
    }

    /// Every source seen, in the order first seen.
    pub fn records(&self) -> &[SourceRecord] {
        &self.records
    }

    /// The host's clock (milliseconds) at the last attempt counted: `/health` reads the
    /// breakers at the later of it and the request's time, as a fixed clock (replays) does
    /// not move.
    pub fn latest_ms(&self) -> u64 {
        self.latest_ms
    }

    /// Counts one attempt at `url` for `kind`.
    pub fn note(&mut self, kind: Source, url: &str, outcome: &AttemptOutcome, now_ms: u64) {
        self.latest_ms = self.latest_ms.max(now_ms);
        let origin = origin_of(url);
        let index = match self.records.iter().position(|r| r.origin == origin) {
            Some(index) => index,
            None => {
                if self.records.len() >= MAX_SOURCES {
                    // The source seen longest ago makes room (a host asked of a source its
                    // configuration no longer names).
                    self.records.remove(0);
                }
                self.records.push(SourceRecord {
                    origin: String::from(origin),
                    kind,
                    failures_in_a_row: 0,
                    open_until_ms: None,
                    reachable: false,
                    last_error: None,
                    attempts: 0,
                    failures: 0,
                });
                self.records.len() - 1
            }
        };
        let record = &mut self.records[index];
        record.kind = kind;
        record.attempts = record.attempts.saturating_add(1);
        match outcome {
            AttemptOutcome::Answered => {
                record.reachable = true;
                record.failures_in_a_row = 0;
                record.open_until_ms = None;
            }
            AttemptOutcome::Failed(error) => {
                record.reachable = false;
                record.failures = record.failures.saturating_add(1);
                record.last_error = Some(error.chars().take(MAX_LAST_ERROR_CHARS).collect());
                record.failures_in_a_row = record.failures_in_a_row.saturating_add(1);
                // A half-open source that fails again opens at once.
                let half_open = record.breaker(now_ms) == BreakerState::HalfOpen;
                if half_open || record.failures_in_a_row >= BREAKER_FAILURES {
                    record.open_until_ms = Some(now_ms.saturating_add(BREAKER_OPEN_MS));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RIM: &str = "https://rim.example/v1/rim/NV_GPU_DRIVER_GH100_1";

    #[test]
    fn opens_after_failures_in_a_row_and_closes_on_an_answer() {
        let mut book = SourceBook::new();
        let fail = AttemptOutcome::Failed("timeout".into());
        book.note(Source::RimService, RIM, &fail, 0);
        book.note(Source::RimService, RIM, &fail, 1);
        assert!(book.allows(RIM, 2));
        book.note(Source::RimService, RIM, &fail, 2);
        assert_eq!(
            book.state("https://rim.example/other", 3),
            BreakerState::Open {
                until_ms: 2 + BREAKER_OPEN_MS
            }
        );
        assert!(!book.allows(RIM, 3));
        assert_eq!(book.state(RIM, 2 + BREAKER_OPEN_MS), BreakerState::HalfOpen);
        // Half-open: one failure opens it again.
        book.note(Source::RimService, RIM, &fail, 2 + BREAKER_OPEN_MS);
        assert!(!book.allows(RIM, 3 + BREAKER_OPEN_MS));
        book.note(
            Source::RimService,
            RIM,
            &AttemptOutcome::Answered,
            2 + 2 * BREAKER_OPEN_MS,
        );
        assert_eq!(
            book.state(RIM, 2 + 2 * BREAKER_OPEN_MS),
            BreakerState::Closed
        );
        let record = book.record(RIM).unwrap();
        assert_eq!((record.attempts, record.failures), (5, 4));
        assert_eq!(record.last_error.as_deref(), Some("timeout"));
        // Other origins are other sources.
        assert!(book.allows("https://mirror.example/v1/rim/x", 3));
    }

    #[test]
    fn an_answer_between_failures_resets_the_count() {
        let mut book = SourceBook::new();
        let fail = AttemptOutcome::Failed("HTTP 503".into());
        for at in 0..10 {
            book.note(Source::Ocsp, "http://127.0.0.1:9/", &fail, at);
            book.note(Source::Ocsp, "http://127.0.0.1:9/", &fail, at);
            book.note(
                Source::Ocsp,
                "http://127.0.0.1:9/",
                &AttemptOutcome::Answered,
                at,
            );
        }
        assert_eq!(book.state("http://127.0.0.1:9", 10), BreakerState::Closed);
    }

    #[test]
    fn origins() {
        assert_eq!(
            origin_of("https://a.example:8443/v1/rim/x"),
            "https://a.example:8443"
        );
        assert_eq!(origin_of("http://127.0.0.1:9"), "http://127.0.0.1:9");
        assert_eq!(origin_of("http://h?q=1"), "http://h");
    }

    #[test]
    fn the_book_is_bounded() {
        let mut book = SourceBook::new();
        for port in 0..100 {
            let url = alloc::format!("http://127.0.0.1:{port}/");
            book.note(Source::Ocsp, &url, &AttemptOutcome::Answered, 0);
        }
        assert_eq!(book.records().len(), MAX_SOURCES);
    }
}
