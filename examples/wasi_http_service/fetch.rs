//! The host side of an exchange's fetch step through `wasi:http/outgoing-handler`: the JS
//! host's `answerFetchStep` (src/js/fetch.js) for a component. Each resource the core names
//! is answered from the instance's cache or fetched — at most `FETCH_CONCURRENCY` at once,
//! polled together with `wasi:io/poll`, each within its time budget from request to last byte
//! (RIM `RIM_TIMEOUT_MS`, OCSP `EDGEATTEST_OCSP_TIMEOUT_MS`), its body capped at
//! `MAX_FETCHED_BYTES`, redirects not followed. The figures are the core's, as the JS host's.

use edgeattest::service::{
    FetchFailure, Fetched, Resource, SourceState, TestPkiAnswers, FETCH_CONCURRENCY,
    MAX_FETCHED_BYTES, RIM_CACHE_SECONDS, RIM_MISS_SECONDS, RIM_TIMEOUT_MS,
};
use wasip2::clocks::monotonic_clock;
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

/// Answers one fetch step: one [`Fetched`] per resource, in order.
pub(crate) fn answer_step(resources: &[Resource], host: &mut Fetching<'_>) -> Vec<Fetched> {
    let mut answers: Vec<Option<Fetched>> = vec![None; resources.len()];
    let mut queue = Vec::new();
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
        match host
            .cache
            .as_deref_mut()
            .and_then(|cache| cache.get(&key, host.now))
        {
            Some(entry) => answers[index] = Some(from_cache(resource, entry)),
            None => queue.push(index),
        }
    }
    queue.reverse();
    let mut flying: Vec<Flight> = Vec::new();
    loop {
        while flying.len() < FETCH_CONCURRENCY {
            let Some(index) = queue.pop() else { break };
            match Flight::start(index, &resources[index], host.ocsp_timeout_ms) {
                Ok(flight) => flying.push(flight),
                Err(failure) => finish(host, resources, &mut answers, index, Err(failure)),
            }
        }
        if flying.is_empty() {
            break;
        }
        wait(&flying);
        let now = monotonic_clock::now();
        let mut still = Vec::with_capacity(flying.len());
        for mut flight in flying {
            match flight.advance(now) {
                Some(outcome) => finish(host, resources, &mut answers, flight.index, outcome),
                None => still.push(flight),
            }
        }
        flying = still;
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

/// Records one fetched answer: the source's state, the RIM cache, the core's answer.
fn finish(
    host: &mut Fetching<'_>,
    resources: &[Resource],
    answers: &mut [Option<Fetched>],
    index: usize,
    outcome: Result<Vec<u8>, FetchFailure>,
) {
    let resource = &resources[index];
    let ocsp = matches!(resource, Resource::Ocsp { .. });
    let seen = if ocsp {
        &mut host.seen.ocsp
    } else {
        &mut host.seen.rim
    };
    note_source(seen, &outcome);
    if let (Resource::Rim { url, .. }, Some(cache)) = (resource, host.cache.as_deref_mut()) {
        let key = format!("rim:{url}");
        match &outcome {
            Ok(body) => cache.put(
                key,
                Entry::Body {
                    body: body.clone(),
                    nonce: None,
                },
                host.now.saturating_add(RIM_CACHE_SECONDS),
                host.now,
            ),
            Err(FetchFailure::HttpStatus(404)) => cache.put(
                key,
                Entry::Status(404),
                host.now.saturating_add(RIM_MISS_SECONDS),
                host.now,
            ),
            Err(_) => {}
        }
    }
    answers[index] = Some(match outcome {
        Ok(body) => Fetched::Body(body),
        Err(failure) => Fetched::Failed(failure),
    });
}

/// The JS host's `noteSource`: reached unless no answer came or it was a 5xx; the last
/// failure named as the worker names it.
fn note_source(seen: &mut Option<SourceState>, outcome: &Result<Vec<u8>, FetchFailure>) {
    let previous = seen.take().and_then(|state| state.last_error);
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
        kept_seconds: None,
    });
}

/// Blocks until one flight can move or the earliest deadline passes.
fn wait(flying: &[Flight]) {
    let deadline = flying.iter().map(|f| f.deadline).min().unwrap_or(0);
    let mut pollables = vec![monotonic_clock::subscribe_instant(deadline)];
    for flight in flying {
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
    index: usize,
    deadline: u64,
    state: State,
}

impl Flight {
    fn start(
        index: usize,
        resource: &Resource,
        ocsp_timeout_ms: u64,
    ) -> Result<Self, FetchFailure> {
        let (url, post, timeout_ms) = match resource {
            Resource::Rim { url, .. } => (url.as_str(), None, RIM_TIMEOUT_MS),
            Resource::Ocsp { url, request, .. } => {
                (url.as_str(), Some(request.as_slice()), ocsp_timeout_ms)
            }
            _ => return Err(FetchFailure::NotFetched),
        };
        let budget = timeout_ms * 1_000_000;
        let deadline = monotonic_clock::now().saturating_add(budget);
        let future = send(url, post, budget).ok_or(FetchFailure::Unreachable)?;
        Ok(Self {
            index,
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
