//! The host side of an exchange's fetch step through `wasi:http/outgoing-handler`: the JS
//! host's `answerFetchStep` (src/js/fetch.js) for a component. Each resource the core names
//! is answered from the instance's cache or fetched as the core's `FetchAttempts` says (its
//! sources in order, retries after a backoff, the service's source breakers, a kept copy when
//! every source fails) — at most `FETCH_CONCURRENCY` resources at once, polled together with
//! `wasi:io/poll`, each attempt within the time the core gives it from request to last byte,
//! its body capped at `MAX_FETCHED_BYTES`, redirects not followed. The figures are the
//! core's, as the JS host's.

use edgeattest::service::{
    Attempt, FetchAttempts, FetchFailure, Fetched, Resource, SourceBook, SourceState,
    TestPkiAnswers, FETCH_CONCURRENCY, MAX_FETCHED_BYTES, RIM_CACHE_SECONDS, RIM_KEEP_SECONDS,
    RIM_MISS_SECONDS, RIM_TIMEOUT_MS,
};
use wasip2::clocks::{monotonic_clock, wall_clock};
use wasip2::http::outgoing_handler;
use wasip2::http::types::{
    ErrorCode, Fields, FutureIncomingResponse, IncomingBody, IncomingResponse, Method,
    OutgoingBody, OutgoingRequest, RequestOptions, Scheme,
};
use wasip2::io::poll;
use wasip2::io::streams::{InputStream, StreamError};

use crate::cache::{Entry, FetchCache};

const READ_CHUNK: u64 = 64 * 1024;

/// What the host last saw of each source during one request, for `/health`.
#[derive(Default)]
pub(crate) struct Seen {
    pub(crate) rim: Option<SourceState>,
    pub(crate) ocsp: Option<SourceState>,
}

/// One request's view of the host: the cache (none with `EDGEATTEST_FETCH_CACHE=off`), its
/// clock, the OCSP budget and what it saw.
pub(crate) struct Fetching<'a> {
    pub(crate) cache: Option<&'a mut FetchCache>,
    /// `EDGEATTEST_TEST_PKI=on`: its OCSP answers, ahead of the cache and the responder.
    pub(crate) test_pki: Option<&'a TestPkiAnswers>,
    pub(crate) now: u64,
    pub(crate) ocsp_timeout_ms: u64,
    pub(crate) seen: Seen,
}

/// The cache key of a resource.
fn key_of(resource: &Resource) -> Option<String> {
    match resource {
        Resource::Ocsp { cache_key, .. } => Some(format!("ocsp:{cache_key}")),
        Resource::Rim { url, .. } => Some(format!("rim:{url}")),
        _ => None,
    }
}

/// The wall clock in milliseconds, as the core's breakers count.
fn now_ms() -> u64 {
    let now = wall_clock::now();
    now.seconds
        .saturating_mul(1000)
        .saturating_add(u64::from(now.nanoseconds / 1_000_000))
}

/// One resource on its way: its attempts, and when the kept copy it may get stopped being fresh.
struct Job {
    index: usize,
    attempts: FetchAttempts,
    kept_until: Option<u64>,
}

/// What a job waits for.
enum Pending {
    Fetching(Flight, Job),
    /// A backoff, until a monotonic instant.
    Sleeping(u64, Job),
}

/// Answers one fetch step: one [`Fetched`] per resource, in order; `book`: the service's
/// source breakers, which the attempts read and count in.
pub(crate) fn answer_step(
    resources: &[Resource],
    host: &mut Fetching<'_>,
    book: &mut SourceBook,
) -> Vec<Fetched> {
    let mut answers: Vec<Option<Fetched>> = vec![None; resources.len()];
    let mut ready = Vec::new();
    for (index, resource) in resources.iter().enumerate() {
        if let (Some(pki), Resource::Ocsp { cache_key, .. }) = (host.test_pki, resource) {
            if let Some(der) = pki.get(cache_key) {
                answers[index] = Some(Fetched::Body(der.to_vec()));
                continue;
            }
        }
        let Some(key) = key_of(resource) else {
            answers[index] = Some(Fetched::Failed(FetchFailure::NotFetched));
            continue;
        };
        let cache = host.cache.as_deref_mut();
        if let Some(entry) = cache.and_then(|cache| cache.get(&key, host.now)) {
            answers[index] = Some(from_cache(resource, entry));
            continue;
        }
        let kept = host
            .cache
            .as_deref_mut()
            .and_then(|cache| cache.get_kept(&key, host.now));
        let (kept, kept_until) = match kept {
            Some((Entry::Body { body, nonce }, until)) => (Some((body, nonce)), Some(until)),
            _ => (None, None),
        };
        let timeout_ms = match resource {
            Resource::Ocsp { .. } => host.ocsp_timeout_ms,
            _ => RIM_TIMEOUT_MS,
        };
        let attempts = FetchAttempts::new(resource, timeout_ms, now_ms(), kept);
        ready.push(Job {
            index,
            attempts,
            kept_until,
        });
    }
    ready.reverse();
    let mut pending: Vec<Pending> = Vec::new();
    loop {
        while pending.len() < FETCH_CONCURRENCY {
            let Some(mut job) = ready.pop() else { break };
            let random = wasip2::random::random::get_random_u64() as u32;
            match job.attempts.next(book, now_ms(), random) {
                Attempt::Fetch { url, timeout_ms } => {
                    match Flight::start(&url, &resources[job.index], timeout_ms) {
                        Ok(flight) => pending.push(Pending::Fetching(flight, job)),
                        Err(failure) => {
                            answered(host, book, resources, &mut job, Err(failure));
                            ready.push(job);
                        }
                    }
                }
                Attempt::Wait { ms } => {
                    let wake = monotonic_clock::now().saturating_add(ms.saturating_mul(1_000_000));
                    pending.push(Pending::Sleeping(wake, job));
                }
                Attempt::Done(answer) => finish(host, resources, &mut answers, &job, answer),
            }
        }
        if pending.is_empty() {
            break;
        }
        wait(&pending);
        let now = monotonic_clock::now();
        let mut still = Vec::with_capacity(pending.len());
        for item in pending {
            match item {
                Pending::Fetching(mut flight, mut job) => match flight.advance(now) {
                    Some(outcome) => {
                        answered(host, book, resources, &mut job, outcome);
                        ready.push(job);
                    }
                    None => still.push(Pending::Fetching(flight, job)),
                },
                Pending::Sleeping(wake, job) if wake <= now => ready.push(job),
                sleeping => still.push(sleeping),
            }
        }
        pending = still;
    }
    answers
        .into_iter()
        .map(|answer| answer.unwrap_or(Fetched::Failed(FetchFailure::NotFetched)))
        .collect()
}

/// A cached entry as the core's answer: an OCSP answer with the nonce it was fetched with.
fn from_cache(resource: &Resource, entry: Entry) -> Fetched {
    match (resource, entry) {
        (
            Resource::Ocsp { .. },
            Entry::Body {
                body,
                nonce: Some(nonce),
            },
        ) => Fetched::Cached { body, nonce },
        (_, Entry::Body { body, .. }) => Fetched::Body(body),
        (_, Entry::Status(status)) => Fetched::Failed(FetchFailure::HttpStatus(status)),
    }
}

/// The `Seen` slot of a resource's kind.
fn seen_of<'a>(host: &'a mut Fetching<'_>, resource: &Resource) -> &'a mut Option<SourceState> {
    match resource {
        Resource::Ocsp { .. } => &mut host.seen.ocsp,
        _ => &mut host.seen.rim,
    }
}

/// One attempt's outcome, to the core's attempts and the source's state.
fn answered(
    host: &mut Fetching<'_>,
    book: &mut SourceBook,
    resources: &[Resource],
    job: &mut Job,
    outcome: Result<Vec<u8>, FetchFailure>,
) {
    note_source(seen_of(host, &resources[job.index]), &outcome);
    let fetched = match outcome {
        Ok(body) => Fetched::Body(body),
        Err(failure) => Fetched::Failed(failure),
    };
    job.attempts.answered(fetched, book, now_ms());
}

/// Records the core's answer for a resource: the RIM cache, a kept copy's staleness, the answer.
fn finish(
    host: &mut Fetching<'_>,
    resources: &[Resource],
    answers: &mut [Option<Fetched>],
    job: &Job,
    answer: Fetched,
) {
    let resource = &resources[job.index];
    let now = host.now;
    if let Fetched::Stale { .. } = answer {
        let seconds = now.saturating_sub(job.kept_until.unwrap_or(now));
        let seen = seen_of(host, resource).get_or_insert_with(SourceState::default);
        seen.kept_seconds = Some(seen.kept_seconds.unwrap_or(0).max(seconds));
    }
    if let (Resource::Rim { url, .. }, Some(cache)) = (resource, host.cache.as_deref_mut()) {
        let key = format!("rim:{url}");
        match &answer {
            Fetched::Body(body) => cache.put(
                key,
                Entry::Body {
                    body: body.clone(),
                    nonce: None,
                },
                now.saturating_add(RIM_CACHE_SECONDS),
                now,
                now.saturating_add(RIM_KEEP_SECONDS),
            ),
            Fetched::Failed(FetchFailure::HttpStatus(404)) => cache.put(
                key,
                Entry::Status(404),
                now.saturating_add(RIM_MISS_SECONDS),
                now,
                now.saturating_add(RIM_MISS_SECONDS),
            ),
            _ => {}
        }
    }
    answers[job.index] = Some(answer);
}

/// The JS host's `noteSource`: reached unless no answer came or it was a 5xx; the last
/// failure named as the worker names it; a kept copy's staleness stays.
fn note_source(seen: &mut Option<SourceState>, outcome: &Result<Vec<u8>, FetchFailure>) {
    let previous = seen.take();
    let kept_seconds = previous.as_ref().and_then(|state| state.kept_seconds);
    let previous = previous.and_then(|state| state.last_error);
    let (reachable, last_error) = match outcome {
        Ok(_) => (true, previous),
        Err(FetchFailure::HttpStatus(status)) => (*status < 500, Some(format!("HTTP {status}"))),
        Err(FetchFailure::Timeout) => (false, Some("timeout".into())),
        Err(FetchFailure::TooLarge) => (false, Some("too-large".into())),
        Err(_) => (false, Some("unreachable".into())),
    };
    *seen = Some(SourceState {
        reachable: Some(reachable),
        last_error,
        cached_entries: 0,
        kept_seconds,
    });
}

/// Blocks until one flight can move or the earliest deadline or wake-up passes.
fn wait(pending: &[Pending]) {
    let deadline = pending
        .iter()
        .map(|p| match p {
            Pending::Fetching(flight, _) => flight.deadline,
            Pending::Sleeping(wake, _) => *wake,
        })
        .min()
        .unwrap_or(0);
    let mut pollables = vec![monotonic_clock::subscribe_instant(deadline)];
    for flight in pending.iter().filter_map(|p| match p {
        Pending::Fetching(flight, _) => Some(flight),
        Pending::Sleeping(..) => None,
    }) {
        match &flight.state {
            State::Waiting(future) => pollables.push(future.subscribe()),
            State::Reading { stream, .. } => pollables.push(stream.subscribe()),
        }
    }
    let refs: Vec<_> = pollables.iter().collect();
    poll::poll(&refs);
}

enum State {
    Waiting(FutureIncomingResponse),
    /// Fields drop in order: the stream before its body, the body before its response.
    Reading {
        stream: InputStream,
        _body: IncomingBody,
        _response: IncomingResponse,
        bytes: Vec<u8>,
    },
}

struct Flight {
    deadline: u64,
    state: State,
}

impl Flight {
    /// Fetches `url` for `resource` (GET a RIM, POST the OCSP request), within `timeout_ms`.
    fn start(url: &str, resource: &Resource, timeout_ms: u64) -> Result<Self, FetchFailure> {
        let post = match resource {
            Resource::Ocsp { request, .. } => Some(request.as_slice()),
            _ => None,
        };
        let budget = timeout_ms.saturating_mul(1_000_000);
        let deadline = monotonic_clock::now().saturating_add(budget);
        let future = send(url, post, budget).ok_or(FetchFailure::Unreachable)?;
        Ok(Self {
            deadline,
            state: State::Waiting(future),
        })
    }

    /// The outcome once there is one: past the deadline a timeout, whatever else is pending.
    fn advance(&mut self, now: u64) -> Option<Result<Vec<u8>, FetchFailure>> {
        if let State::Waiting(future) = &self.state {
            match future.get() {
                None => {}
                Some(Ok(Ok(response))) => match body_of(response) {
                    Ok(reading) => self.state = reading,
                    Err(failure) => return Some(Err(failure)),
                },
                Some(Ok(Err(code))) => return Some(Err(failure_of(&code))),
                Some(Err(())) => return Some(Err(FetchFailure::Unreachable)),
            }
        }
        if let State::Reading { stream, bytes, .. } = &mut self.state {
            loop {
                match stream.read(READ_CHUNK) {
                    Ok(chunk) if chunk.is_empty() => break,
                    Ok(chunk) => {
                        bytes.extend_from_slice(&chunk);
                        if bytes.len() > MAX_FETCHED_BYTES {
                            return Some(Err(FetchFailure::TooLarge));
                        }
                    }
                    Err(StreamError::Closed) => return Some(Ok(core::mem::take(bytes))),
                    Err(StreamError::LastOperationFailed(_)) => {
                        return Some(Err(FetchFailure::Unreachable))
                    }
                }
            }
        }
        (now >= self.deadline).then_some(Err(FetchFailure::Timeout))
    }
}

/// A 200 answer's body stream; any other status, or a declared length past the cap, fails.
fn body_of(response: IncomingResponse) -> Result<State, FetchFailure> {
    let status = response.status();
    if status != 200 {
        return Err(FetchFailure::HttpStatus(status));
    }
    let declared = response.headers().get("content-length");
    let length = declared
        .first()
        .and_then(|v| core::str::from_utf8(v).ok()?.trim().parse::<u64>().ok());
    if length.is_some_and(|n| n > MAX_FETCHED_BYTES as u64) {
        return Err(FetchFailure::TooLarge);
    }
    let body = response.consume().map_err(|()| FetchFailure::Unreachable)?;
    let stream = body.stream().map_err(|()| FetchFailure::Unreachable)?;
    Ok(State::Reading {
        stream,
        _body: body,
        _response: response,
        bytes: Vec::new(),
    })
}

/// The runtime's error as the core's failure: its own timeouts are timeouts.
fn failure_of(code: &ErrorCode) -> FetchFailure {
    match code {
        ErrorCode::ConnectionTimeout
        | ErrorCode::ConnectionReadTimeout
        | ErrorCode::HttpResponseTimeout
        | ErrorCode::DnsTimeout => FetchFailure::Timeout,
        _ => FetchFailure::Unreachable,
    }
}

/// Sends `GET url` (a RIM) or `POST post` as an OCSP request; `None` when the runtime refuses.
fn send(url: &str, post: Option<&[u8]>, budget_ns: u64) -> Option<FutureIncomingResponse> {
    let (scheme, rest) = url.split_once("://")?;
    let (authority, path) = match rest.find('/') {
        Some(at) => (&rest[..at], &rest[at..]),
        None => (rest, "/"),
    };
    let headers = Fields::new();
    match post {
        Some(_) => headers
            .append("content-type", b"application/ocsp-request")
            .ok()?,
        None => headers.append("accept", b"application/json").ok()?,
    }
    let request = OutgoingRequest::new(headers);
    request
        .set_method(if post.is_some() {
            &Method::Post
        } else {
            &Method::Get
        })
        .ok()?;
    let scheme = if scheme == "https" {
        Scheme::Https
    } else {
        Scheme::Http
    };
    request.set_scheme(Some(&scheme)).ok()?;
    request.set_authority(Some(authority)).ok()?;
    request.set_path_with_query(Some(path)).ok()?;
    let body = request.body().ok()?;
    // The runtime's own timeouts back up the deadline polled above; one it does not support
    // is left to that deadline.
    let options = RequestOptions::new();
    let _ = options.set_connect_timeout(Some(budget_ns));
    let _ = options.set_first_byte_timeout(Some(budget_ns));
    let _ = options.set_between_bytes_timeout(Some(budget_ns));
    let future = outgoing_handler::handle(request, Some(options)).ok()?;
    if let Some(bytes) = post {
        let stream = body.write().ok()?;
        for chunk in bytes.chunks(4096) {
            stream.blocking_write_and_flush(chunk).ok()?;
        }
        drop(stream);
    }
    OutgoingBody::finish(body, None).ok()?;
    Some(future)
}
