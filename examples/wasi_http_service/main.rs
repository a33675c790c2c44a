//! The attestation service as a WebAssembly Component: a `wasi:http/incoming-handler` (the
//! `wasi:http/proxy` world) around the crate's [`Service`], the core the edge worker runs.
//! It answers the same endpoints with the same bodies, codes and headers; this file only
//! moves bytes, as the worker's JS host loop (`src/js/service.js`) does:
//!
//! - configuration from `wasi:cli/environment`, the worker's variable names (config.rs),
//!   read on the first request; an unusable one is answered 503 with its code, as the worker;
//! - `now` from `wasi:clocks/wall-clock` (or `EDGEATTEST_FIXED_TIME`), token ids from
//!   `wasi:random`;
//! - the exchange's fetch steps through `wasi:http/outgoing-handler` (fetch.rs) with the JS
//!   host's timeouts, body cap, concurrency and cache (cache.rs, one per instance);
//! - every ECDSA check and signature in the core (a component has no WebCrypto).
//!
//! Built by `pkg-config/build-component.sh service` into target/component/edgeattest-service.wasm.
// A wasm32-wasip2 component only: on any other target (e.g. `--all-features` natively) the
// example is an empty library, as `wasip2` is a wasi-only dependency.
#![cfg(all(target_arch = "wasm32", target_os = "wasi"))]

extern crate alloc;

mod cache;
mod config;
mod fetch;
mod http;
mod test_pki;

use core::cell::RefCell;

use edgeattest::service::{mirror_rim_key, Exchange, Service, Source, Step};
use wasip2::exports::http::incoming_handler::Guest;
use wasip2::http::types::{IncomingRequest, ResponseOutparam};

use cache::FetchCache;
use config::{Config, ConfigError, Env};
use fetch::{Fetching, Seen};

/// One instance's state: the configured service (or why there is none) and its fetch cache.
struct Instance {
    config: Result<Config, ConfigError>,
    cache: FetchCache,
}

thread_local! {
    static INSTANCE: RefCell<Option<Instance>> = const { RefCell::new(None) };
}

/// The path of the component's replay route (see [`replay`]).
const REPLAY_PATH: &str = "/replay";

struct Handler;

impl Guest for Handler {
    fn handle(request: IncomingRequest, out: ResponseOutparam) {
        let req = http::read_request(&request);
        let head = req.method == "HEAD";
        let response = INSTANCE.with(|cell| {
            let mut slot = cell.borrow_mut();
            let instance = slot.get_or_insert_with(|| Instance {
                config: Config::from_env(&Env::read()),
                cache: FetchCache::default(),
            });
            answer(instance, &req)
        });
        http::respond(out, &response, head);
    }
}

/// The answer to one request.
fn answer(
    instance: &mut Instance,
    request: &edgeattest::service::Request,
) -> edgeattest::service::Response {
    let config = match &mut instance.config {
        Ok(config) => config,
        Err(error) => {
            let message = format!(
                "the attestation service is not configured: {}",
                error.message
            );
            return http::error_response(503, error.code, &message);
        }
    };
    if request.path == REPLAY_PATH {
        return replay(config, request);
    }
    let now = config
        .fixed_time
        .unwrap_or_else(|| wasip2::clocks::wall_clock::now().seconds);
    let mut entropy = [0u8; 32];
    for (slot, byte) in entropy
        .iter_mut()
        .zip(wasip2::random::random::get_random_bytes(32))
    {
        *slot = byte;
    }
    // The core takes a `UnixTime`: a clock reading it cannot hold is the host's fault.
    let Some(clock) = edgeattest::UnixTime::from_secs(now) else {
        return http::error_response(500, "ERR_INTERNAL", "the host clock is out of range");
    };
    // The verified mirror: the service's own RIMs and the envelopes attestations verified,
    // each verified again now by the core (no fetch for the mirror here: it serves what
    // this instance's attestations verified).
    if matches!(request.method.as_str(), "GET" | "HEAD") {
        if let Some(id) = edgeattest::service::mirror_rim_id(&request.path) {
            let kept = match config.fetch_cache.then_some(&mut instance.cache) {
                Some(cache) => match cache.get(&mirror_rim_key(&id), now) {
                    Some(cache::Entry::Body { body, .. }) => Some(body),
                    _ => None,
                },
                None => None,
            };
            let mut random = [0u8; 16];
            random.copy_from_slice(&entropy[..16]);
            return config
                .service
                .mirror_rim(&id, kept.as_deref(), clock, random)
                .response;
        }
    }
    let exchange = config.service.begin_cached(request, clock, entropy);
    let cache = config.fetch_cache.then_some(&mut instance.cache);
    let mut host = Fetching {
        cache,
        test_pki: config.test_pki_answers.as_ref(),
        now,
        ocsp_timeout_ms: config.ocsp_timeout_ms,
        seen: Seen::default(),
    };
    let done = drive(exchange, &mut config.service, &mut host);
    let Fetching {
        mut cache, seen, ..
    } = host;
    // What the core verified, kept by the service for this instance's next requests.
    if let Ok(exchange) = &done {
        config.service.remember(exchange);
    }
    // The OCSP answers the core verified, kept until the time it gives (`cacheVerified`).
    if let (Ok(exchange), Some(cache)) = (&done, cache.as_deref_mut()) {
        for entry in exchange.cacheable() {
            let key = format!("ocsp:{}", entry.cache_key);
            let value = cache::Entry::Body {
                body: entry.body.clone(),
                nonce: Some(entry.nonce.clone()),
            };
            let (until, keep_until) = (entry.until.as_secs(), entry.keep_until.as_secs());
            cache.put(key, value, until, now, keep_until);
        }
        // The RIM envelopes the core verified, for the mirror (`cacheMirrored`).
        for entry in exchange.verified_rims() {
            let value = cache::Entry::Body {
                body: entry.body.clone(),
                nonce: None,
            };
            let until = entry.until.as_secs();
            cache.put(mirror_rim_key(&entry.id), value, until, now, until);
        }
    }
    record_sources(&mut config.service, seen, cache.as_deref(), now);
    match done.ok().and_then(Exchange::into_response) {
        Some(response) => response,
        None => http::error_response(500, "ERR_INTERNAL", "the request was not completed"),
    }
}

/// The component's replay route: `POST /replay` with a bundle (an attestation answered with
/// `x-edgeattest-replay: bundle`) answers the replay (`replayAttestation`'s JSON) against
/// this instance's trust anchors; a bundle that cannot be read is 400 with its code. The
/// ephemeral key's randomness is `wasi:random`'s.
fn replay(
    config: &Config,
    request: &edgeattest::service::Request,
) -> edgeattest::service::Response {
    use edgeattest::service::replay::{replay, ReplayAnchors};
    use edgeattest::ErrorCode;
    if request.method != "POST" {
        return http::error_response(405, "ERR_METHOD_NOT_ALLOWED", "POST a replay bundle");
    }
    let random = wasip2::random::random::get_random_bytes(48);
    match replay(&request.body, &ReplayAnchors::of(&config.service), &random) {
        Ok(replayed) => edgeattest::service::Response {
            status: 200,
            headers: vec![("content-type".into(), "application/json".into())],
            body: serde_json::to_vec(&replayed).unwrap_or_default(),
        },
        Err(error) => http::error_response(400, error.code(), &error.to_string()),
    }
}

/// Runs the exchange to its answer: verification and signing in the core, fetches here
/// (counted in the service's source breakers).
fn drive(
    mut exchange: Exchange,
    service: &mut Service,
    host: &mut Fetching<'_>,
) -> Result<Exchange, ()> {
    loop {
        let fetched = match exchange.step() {
            Step::Respond(_) => return Ok(exchange),
            Step::Verify(_) => {
                exchange.verify_in_core(service).map_err(drop)?;
                continue;
            }
            Step::Fetch(resources) => fetch::answer_step(resources, host, service.sources_mut()),
            // The service holds its key: the core signs, and never asks the host to.
            Step::Sign(_) => return Err(()),
        };
        exchange.fetched(service, &fetched).map_err(drop)?;
    }
}

/// What this request saw of the sources, for `/health` (the JS host's `setSourceState`).
fn record_sources(service: &mut Service, seen: Seen, cache: Option<&FetchCache>, now: u64) {
    for (source, state, prefix) in [
        (Source::RimService, seen.rim, "rim:"),
        (Source::Ocsp, seen.ocsp, "ocsp:"),
    ] {
        if let Some(mut state) = state {
            state.cached_entries = cache.map_or(0, |cache| cache.count(prefix, now));
            service.set_source_state(source, state);
        }
    }
}

wasip2::http::proxy::export!(Handler);
