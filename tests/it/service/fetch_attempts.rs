//! How a host fetches one resource (`FetchAttempts`): the fault matrix of the sources — the
//! first down, slow, answering garbage or 5xx with the second fine; every source down with
//! and without a kept copy; a 404; the breaker opening and closing; the deadline — on a
//! simulated host whose clock moves by each answer's latency. The hosts themselves are tested
//! on loopback sources in tests/js/fetch-resilience.test.mjs.

use std::collections::BTreeMap;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::service::{
    backoff_ms, Attempt, BreakerState, FetchAttempts, FetchFailure, Fetched, Resource, SourceBook,
    BACKOFF_BASE_MS, BACKOFF_MAX_MS, BREAKER_OPEN_MS, DEADLINE_FACTOR, FETCH_ROUNDS,
    RIM_TIMEOUT_MS,
};

const ID: &str = "NV_SWITCH_BIOS_5612_0002_890_9610550001";
const FIRST: &str = "https://rim.attestation.nvidia.com/v1/rim/";
const MIRROR: &str = "http://127.0.0.1:8787/v1/rim/";

fn envelope() -> Vec<u8> {
    let xml = crate::fixture_files::bytes(
        "nvidia/rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml",
    );
    serde_json::json!({ "id": ID, "rim": STANDARD.encode(xml) })
        .to_string()
        .into_bytes()
}

fn resource() -> Resource {
    Resource::Rim {
        id: ID.into(),
        url: format!("{FIRST}{ID}"),
        fallbacks: vec![format!("{MIRROR}{ID}")],
        formats: edgeattest::rim::RimFormats::Xml,
    }
}

/// How a source answers: after `ms`, with `answer` (`None`: never, the host times out).
#[derive(Clone)]
struct Behaviour {
    ms: u64,
    answer: Option<Fetched>,
}

fn answers(answer: Fetched) -> Behaviour {
    Behaviour {
        ms: 20,
        answer: Some(answer),
    }
}

fn fine() -> Behaviour {
    answers(Fetched::Body(envelope()))
}

fn down() -> Behaviour {
    answers(Fetched::Failed(FetchFailure::Unreachable))
}

fn hangs() -> Behaviour {
    Behaviour {
        ms: u64::MAX,
        answer: None,
    }
}

/// What one run did.
#[derive(Debug)]
struct Run {
    answer: Fetched,
    /// The URLs fetched, in order.
    asked: Vec<String>,
    waits: Vec<u64>,
    elapsed_ms: u64,
}

/// Runs the attempts for `resource` from `start_ms` as a host does, the sources behaving as
/// `origins` say (by URL prefix).
fn run(
    book: &mut SourceBook,
    start_ms: u64,
    origins: &BTreeMap<&str, Behaviour>,
    kept: Option<Vec<u8>>,
) -> Run {
    let mut attempts = FetchAttempts::new(
        &resource(),
        RIM_TIMEOUT_MS,
        start_ms,
        kept.map(|b| (b, None)),
    );
    let (mut now, mut asked, mut waits) = (start_ms, Vec::new(), Vec::new());
    loop {
        match attempts.next(book, now, 0x8000_0000) {
            Attempt::Fetch { url, timeout_ms } => {
                let behaviour = origins
                    .iter()
                    .find(|(prefix, _)| url.starts_with(*prefix))
                    .map(|(_, b)| b.clone())
                    .unwrap();
                asked.push(url);
                let answer = match behaviour.answer {
                    Some(answer) if behaviour.ms <= timeout_ms => {
                        now += behaviour.ms;
                        answer
                    }
                    _ => {
                        now += timeout_ms;
                        Fetched::Failed(FetchFailure::Timeout)
                    }
                };
                attempts.answered(answer, book, now);
            }
            Attempt::Wait { ms } => {
                waits.push(ms);
                now += ms;
            }
            Attempt::Done(answer) => {
                return Run {
                    answer,
                    asked,
                    waits,
                    elapsed_ms: now - start_ms,
                }
            }
        }
    }
}

fn sources(first: Behaviour, mirror: Behaviour) -> BTreeMap<&'static str, Behaviour> {
    BTreeMap::from([(FIRST, first), (MIRROR, mirror)])
}

#[test]
fn a_failing_first_source_falls_to_the_mirror_at_once() {
    for (case, first) in [
        ("down", down()),
        (
            "5xx",
            answers(Fetched::Failed(FetchFailure::HttpStatus(503))),
        ),
        (
            "garbage",
            answers(Fetched::Body(b"<html>busy</html>".to_vec())),
        ),
        (
            "another RIM's envelope",
            answers(Fetched::Body(
                serde_json::json!({ "id": "NV_OTHER", "rim": "AA==" })
                    .to_string()
                    .into_bytes(),
            )),
        ),
        ("slow", hangs()),
    ] {
        let mut book = SourceBook::new();
        let run = run(&mut book, 0, &sources(first, fine()), None);
        assert_eq!(run.answer, Fetched::Body(envelope()), "{case}");
        assert_eq!(run.asked.len(), 2, "{case}: {run:?}");
        assert!(run.asked[1].starts_with(MIRROR), "{case}");
        assert!(run.waits.is_empty(), "{case}: no wait before the mirror");
        // A hanging source costs one timeout; the others cost their answers.
        let most = if case == "slow" {
            RIM_TIMEOUT_MS + 20
        } else {
            40
        };
        assert_eq!(run.elapsed_ms, most, "{case}");
        assert_eq!(book.record(FIRST).unwrap().failures, 1, "{case}");
        assert!(book.record(MIRROR).unwrap().reachable, "{case}");
    }
}

#[test]
fn a_source_that_recovers_is_asked_again_after_a_backoff() {
    // First round: both down; the host waits, then the second round finds the mirror up.
    let mut book = SourceBook::new();
    let mut attempts = FetchAttempts::new(&resource(), RIM_TIMEOUT_MS, 0, None);
    let mut now = 0;
    for _ in 0..2 {
        assert!(matches!(
            attempts.next(&book, now, 0),
            Attempt::Fetch { .. }
        ));
        attempts.answered(Fetched::Failed(FetchFailure::Unreachable), &mut book, now);
    }
    let Attempt::Wait { ms } = attempts.next(&book, now, 0) else {
        panic!("a wait between rounds")
    };
    assert_eq!(ms, BACKOFF_BASE_MS);
    now += ms;
    assert!(
        matches!(attempts.next(&book, now, 0), Attempt::Fetch { url, .. } if url.starts_with(FIRST))
    );
    attempts.answered(Fetched::Failed(FetchFailure::Timeout), &mut book, now);
    assert!(
        matches!(attempts.next(&book, now, 0), Attempt::Fetch { url, .. } if url.starts_with(MIRROR))
    );
    attempts.answered(Fetched::Body(envelope()), &mut book, now);
    assert_eq!(
        attempts.next(&book, now, 0),
        Attempt::Done(Fetched::Body(envelope()))
    );
}

#[test]
fn every_source_down_fails_after_its_rounds_or_gives_the_kept_copy() {
    let mut book = SourceBook::new();
    let run_down = run(&mut book, 0, &sources(down(), down()), None);
    assert_eq!(run_down.answer, Fetched::Failed(FetchFailure::Unreachable));
    // Three failures in a row opened both breakers during the third round.
    assert_eq!(run_down.asked.len(), 2 * FETCH_ROUNDS as usize);
    assert_eq!(run_down.waits.len(), FETCH_ROUNDS as usize - 1);
    assert!(matches!(book.state(FIRST, 1), BreakerState::Open { .. }));

    // The same with a kept copy: the copy, marked stale; and nothing is asked of open breakers.
    let kept = envelope();
    let run_kept = run(&mut book, 1, &sources(down(), down()), Some(kept.clone()));
    assert_eq!(
        run_kept.answer,
        Fetched::Stale {
            body: kept,
            nonce: None
        }
    );
    assert!(run_kept.asked.is_empty(), "{run_kept:?}");
    assert_eq!(run_kept.elapsed_ms, 0);
}

#[test]
fn a_404_is_final_and_never_replaced_by_a_kept_copy() {
    let not_found = answers(Fetched::Failed(FetchFailure::HttpStatus(404)));
    let mut book = SourceBook::new();
    // NVIDIA says it does not exist; the mirror is down: a withdrawn RIM is not served stale.
    let run_one = run(
        &mut book,
        0,
        &sources(not_found.clone(), down()),
        Some(envelope()),
    );
    assert_eq!(
        run_one.answer,
        Fetched::Failed(FetchFailure::HttpStatus(404))
    );
    // The 404 is not asked again; the mirror is retried.
    assert_eq!(
        run_one
            .asked
            .iter()
            .filter(|u| u.starts_with(FIRST))
            .count(),
        1
    );
    // A mirror that holds it answers.
    let run_two = run(&mut SourceBook::new(), 0, &sources(not_found, fine()), None);
    assert_eq!(run_two.answer, Fetched::Body(envelope()));
}

#[test]
fn the_breaker_skips_a_dead_source_then_tries_it_again() {
    let mut book = SourceBook::new();
    let dead_first = sources(down(), fine());
    for _ in 0..3 {
        let run = run(&mut book, 0, &dead_first, None);
        assert_eq!(run.answer, Fetched::Body(envelope()));
        assert_eq!(run.asked.len(), 2);
    }
    // Open: the dead source costs nothing.
    let open = run(&mut book, 1_000, &dead_first, None);
    assert_eq!(open.asked.len(), 1, "{open:?}");
    assert!(open.asked[0].starts_with(MIRROR));
    assert_eq!(open.elapsed_ms, 20);
    // Half-open after the period: asked again, and an answer closes it.
    let later = BREAKER_OPEN_MS + 1_000;
    assert_eq!(book.state(FIRST, later), BreakerState::HalfOpen);
    let recovered = run(&mut book, later, &sources(fine(), fine()), None);
    assert_eq!(recovered.asked.len(), 1);
    assert!(recovered.asked[0].starts_with(FIRST));
    assert_eq!(book.state(FIRST, later), BreakerState::Closed);
}

#[test]
fn every_attempt_ends_by_the_deadline() {
    let mut book = SourceBook::new();
    let run = run(&mut book, 0, &sources(hangs(), hangs()), Some(envelope()));
    // Both sources hang: the first costs a timeout, the second the rest of the deadline.
    assert_eq!(run.elapsed_ms, DEADLINE_FACTOR * RIM_TIMEOUT_MS);
    assert_eq!(run.asked.len(), 2);
    assert!(matches!(run.answer, Fetched::Stale { .. }));
}

#[test]
fn the_backoff_doubles_within_its_cap_and_jitter_takes_at_most_half() {
    assert_eq!(backoff_ms(1, 0), BACKOFF_BASE_MS);
    assert_eq!(backoff_ms(2, 0), 2 * BACKOFF_BASE_MS);
    assert_eq!(backoff_ms(30, 0), BACKOFF_MAX_MS);
    assert_eq!(backoff_ms(1, u32::MAX), BACKOFF_BASE_MS / 2);
    for random in [1, 1 << 20, u32::MAX / 3] {
        let ms = backoff_ms(2, random);
        assert!(
            (BACKOFF_BASE_MS..=2 * BACKOFF_BASE_MS).contains(&ms),
            "{ms}"
        );
    }
}

#[test]
fn an_ocsp_answer_is_screened_before_the_next_source_is_given_up() {
    let resource = Resource::Ocsp {
        url: "http://127.0.0.1:1/".into(),
        fallbacks: vec!["http://127.0.0.1:2/".into()],
        request: vec![0x30, 0],
        nonce: vec![1],
        cache_key: "sha384:aa:01".into(),
    };
    let real = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/generated/ocsp/responses/brom_good.der"),
    )
    .unwrap();
    // `tryLater` (responseStatus 3): the responder is there but answers nothing.
    let try_later = vec![0x30, 0x03, 0x0a, 0x01, 0x03];
    let mut book = SourceBook::new();
    let mut attempts = FetchAttempts::new(&resource, 5_000, 0, None);
    assert!(
        matches!(attempts.next(&book, 0, 0), Attempt::Fetch { url, .. } if url.ends_with(":1/"))
    );
    attempts.answered(Fetched::Body(try_later), &mut book, 10);
    assert!(
        matches!(attempts.next(&book, 10, 0), Attempt::Fetch { url, .. } if url.ends_with(":2/"))
    );
    attempts.answered(Fetched::Body(real.clone()), &mut book, 20);
    assert_eq!(
        attempts.next(&book, 20, 0),
        Attempt::Done(Fetched::Body(real))
    );
    assert!(book
        .record("http://127.0.0.1:1/")
        .unwrap()
        .last_error
        .as_deref()
        .unwrap()
        .contains("not a successful OCSP response"));
}
