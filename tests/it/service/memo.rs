//! The service's memo of what it verified: a warm attestation of a device hands its host only
//! the work that depends on the device (no fetch, no check of an OCSP answer or RIM seen
//! before), and gives the same verdict as a cold one. The answers are a real responder's
//! (`openssl ocsp`, the test PKI of tests/it/service/ocsp.rs) and the RIMs the test RIM
//! signer's; a RIM service is played by the test, from the same documents.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::service::replay::{replay, REPLAY_HEADER};
use edgeattest::service::{Fetched, Request, Service, ServiceConfig, Step};
use edgeattest::UnixTime;
use serde_json::{Map, Value};

#[path = "../../common/ocsp_responder.rs"]
mod ocsp_responder;
use ocsp_responder::{answer_resource, device_request, now, test_service, tokens, Mode, Responder};

use super::replay::{assert_replays, test_anchors};

/// What one attestation handed its host.
#[derive(Debug, Default)]
struct Handed {
    fetches: usize,
    /// The checks of each verify round, in order (the evidence round first).
    checks: Vec<usize>,
    /// The OCSP answers handed back for the host's cache.
    cacheable: usize,
}

/// The test PKI's service, with a RIM service (played by [`answer`]) when `rim_service`: it
/// then holds no RIM of the Hopper device.
fn service(fetch_cache: bool, rim_service: bool) -> Service {
    let mut service = test_service(
        ServiceConfig {
            rim_service_url: rim_service.then(|| "https://rims.example/v1/rim/".into()),
            issuer: Some("https://attest.example".into()),
            fetch_cache,
            ..ServiceConfig::default()
        },
        false,
    );
    if rim_service {
        *service.rims_mut() = edgeattest::service::RimStore::new();
    }
    service
}

fn request(replay: bool) -> Request {
    let request = device_request("good");
    if replay {
        request.header(REPLAY_HEADER, "bundle")
    } else {
        request
    }
}

/// One attestation at `at`, driven as the hosts drive it (checks in the core, fetches
/// answered by `responder`; every check of round `fail_round` said to fail), then remembered.
fn attest(
    service: &mut Service,
    request: &Request,
    at: u64,
    entropy: u8,
    responder: &Responder,
    fail_round: Option<usize>,
) -> (edgeattest::service::Response, Handed) {
    let mut handed = Handed::default();
    let mut exchange =
        service.begin_cached(request, UnixTime::from_secs(at).unwrap(), [entropy; 32]);
    loop {
        match exchange.step() {
            Step::Respond(_) => break,
            Step::Verify(checks) => {
                let round = handed.checks.len();
                handed.checks.push(checks.len());
                if fail_round == Some(round) {
                    let verdicts = vec![false; checks.len()];
                    exchange.verified(service, &verdicts).unwrap();
                } else {
                    exchange.verify_in_core(service).unwrap();
                }
            }
            Step::Fetch(resources) => {
                handed.fetches += resources.len();
                let answers: Vec<Fetched> = resources
                    .iter()
                    .map(|r| answer_resource(responder, r))
                    .collect();
                exchange.fetched(service, &answers).unwrap();
            }
            Step::Sign(_) => panic!("the service holds its key"),
        }
    }
    service.remember(&exchange);
    handed.cacheable = exchange.cacheable().len();
    (exchange.into_response().unwrap(), handed)
}

/// The device claims that do not change from one attestation to the next.
fn lasting(device: &Map<String, Value>) -> Map<String, Value> {
    let mut claims = device.clone();
    for volatile in ["iat", "exp", "nbf", "jti", "eat_nonce"] {
        claims.remove(volatile);
    }
    claims
}

#[test]
fn a_warm_attestation_hands_out_only_the_device_work_and_gives_the_same_verdict() {
    for rim_service in [false, true] {
        let responder = Responder::new(Mode::Normal);
        let mut service = service(true, rim_service);
        let (cold, first) = attest(&mut service, &request(false), now(), 1, &responder, None);
        let (overall, devices) = tokens(&cold);
        assert_eq!(overall["x-nvidia-overall-att-result"], true, "{devices:?}");
        assert!(first.fetches >= 4, "{first:?}");
        assert_eq!(first.checks.len(), 2, "{first:?}");
        let counts = service.memo().counts();
        assert!(
            counts.signatures > 0 && counts.ocsp_answers > 0,
            "{counts:?}"
        );
        assert_eq!(counts.rims, if rim_service { 2 } else { 0 }, "{counts:?}");

        let (warm, second) = attest(
            &mut service,
            &request(false),
            now() + 60,
            2,
            &responder,
            None,
        );
        // Nothing fetched, no OCSP or RIM signature checked again: only the evidence's own
        // signature, which covers this request's nonce-bound transcript... and was seen.
        assert_eq!(second.fetches, 0, "{second:?}");
        // Nor handed back for the host's cache, which has them.
        assert!(first.cacheable > 0, "{first:?}");
        assert_eq!(second.cacheable, 0, "{second:?}");
        assert!(
            second.checks.iter().all(|&n| n <= 1),
            "{second:?} after {first:?}"
        );
        let (warm_overall, warm_devices) = tokens(&warm);
        assert_eq!(warm_overall["x-nvidia-overall-att-result"], true);
        assert_eq!(lasting(&warm_devices[0]), lasting(&devices[0]));
    }
}

#[test]
fn with_the_fetch_cache_off_the_sources_are_asked_again_and_only_verdicts_are_kept() {
    let responder = Responder::new(Mode::Normal);
    let mut service = service(false, true);
    let (_, first) = attest(&mut service, &request(false), now(), 1, &responder, None);
    let counts = service.memo().counts();
    assert_eq!((counts.ocsp_answers, counts.rims), (0, 0), "{counts:?}");
    let (warm, second) = attest(
        &mut service,
        &request(false),
        now() + 60,
        2,
        &responder,
        None,
    );
    assert_eq!(second.fetches, first.fetches);
    // The responders' certificates and the RIMs' signatures were seen; the fresh answers'
    // signatures (new nonces) were not.
    let (total_first, total_second): (usize, usize) =
        (first.checks.iter().sum(), second.checks.iter().sum());
    assert!(
        total_second < total_first && total_second > 0,
        "{second:?} after {first:?}"
    );
    assert_eq!(tokens(&warm).0["x-nvidia-overall-att-result"], true);
}

#[test]
fn a_kept_answer_is_not_used_past_its_freshness() {
    let responder = Responder::new(Mode::Normal);
    let mut service = service(true, true);
    let (_, first) = attest(&mut service, &request(false), now(), 1, &responder, None);
    // The responder's answers are fresh for a day; the RIMs are kept for a day too.
    let (_, later) = attest(
        &mut service,
        &request(false),
        now() + 25 * 3600,
        2,
        &responder,
        None,
    );
    assert_eq!(later.fetches, first.fetches, "{later:?}");
}

#[test]
fn a_check_that_failed_is_never_kept_and_is_asked_again() {
    let responder = Responder::new(Mode::Normal);
    let mut service = service(true, false);
    // The OCSP answers' and RIMs' checks (the second round) said to fail: the device fails,
    // and none of them, nor the answers, is kept.
    let (refused, first) = attest(&mut service, &request(false), now(), 1, &responder, Some(1));
    assert_eq!(tokens(&refused).0["x-nvidia-overall-att-result"], false);
    assert_eq!(service.memo().counts().ocsp_answers, 0);
    let (passed, again) = attest(
        &mut service,
        &request(false),
        now() + 60,
        2,
        &responder,
        None,
    );
    assert_eq!(again.fetches, first.fetches, "{again:?} after {first:?}");
    assert_eq!(
        again.checks.last(),
        first.checks.last(),
        "{again:?} after {first:?}"
    );
    assert_eq!(tokens(&passed).0["x-nvidia-overall-att-result"], true);
}

#[test]
fn a_recorded_attestation_fetches_all_it_needs_and_replays_on_a_warm_service() {
    let responder = Responder::new(Mode::Normal);
    let mut service = service(true, true);
    let (_, first) = attest(&mut service, &request(false), now(), 1, &responder, None);
    let (bundle, recorded) = attest(
        &mut service,
        &request(true),
        now() + 60,
        2,
        &responder,
        None,
    );
    // Every fetch is the host's while recording, so the bundle holds each answer.
    assert_eq!(recorded.fetches, first.fetches, "{recorded:?}");
    assert_eq!(bundle.status, 200);
    assert_replays(&bundle.body, &test_anchors());
    // And the recorded answers replay on any service: the memo is not in the bundle.
    assert!(
        replay(&bundle.body, &test_anchors(), &[7; 48])
            .unwrap()
            .matches
    );
}

#[test]
fn an_answer_failing_its_check_at_the_host_is_not_served_from_the_memo() {
    // A responder the CA certified without id-kp-OCSPSigning: its signatures verify, its
    // answers fail, none is kept, and the next attestation asks again.
    let responder = Responder::new(Mode::Rogue);
    let mut service = service(true, false);
    let (_, first) = attest(&mut service, &request(false), now(), 1, &responder, None);
    assert_eq!(service.memo().counts().ocsp_answers, 0);
    let (_, again) = attest(
        &mut service,
        &request(false),
        now() + 60,
        2,
        &responder,
        None,
    );
    assert_eq!(again.fetches, first.fetches);
}

#[test]
fn health_says_what_the_process_has_verified_and_keeps() {
    let health_of = |service: &mut Service| -> Value {
        let response = service.handle(
            &edgeattest::service::Request::new("GET", "/health"),
            UnixTime::from_secs(now()).unwrap(),
            [0; 32],
        );
        let health: Value = serde_json::from_slice(&response.body).unwrap();
        health["verified"].clone()
    };
    let responder = Responder::new(Mode::Normal);
    let mut service = service(true, true);
    assert_eq!(
        health_of(&mut service),
        serde_json::json!({ "signatures": 0, "ocspAnswers": 0, "rims": 0, "parsedRims": 0 })
    );
    attest(&mut service, &request(false), now(), 1, &responder, None);
    let counts = service.memo().counts();
    assert!(counts.signatures > 0 && counts.ocsp_answers > 0 && counts.rims == 2);
    assert_eq!(counts.parsed_rims, 2);
    assert_eq!(
        health_of(&mut service),
        serde_json::json!({
            "signatures": counts.signatures,
            "ocspAnswers": counts.ocsp_answers,
            "rims": counts.rims,
            "parsedRims": counts.parsed_rims,
        })
    );
}
