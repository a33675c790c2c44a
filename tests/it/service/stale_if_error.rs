//! Stale-if-error through the exchange: a kept OCSP answer past its `nextUpdate` is used only
//! as the host's kept copy ([`Fetched::Stale`]) and only within the service's
//! `ocspStaleIfError`, and the token says so; a kept RIM envelope is verified as a fetched one
//! and the token says it was kept. The answers are a real responder's (`openssl ocsp`, the
//! test PKI of tests/it/service/ocsp.rs), made now with a `nextUpdate` a day later.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::chain::TrustStore;
use edgeattest::crypto::SigningKey;
use edgeattest::rim::RimTrust;
use edgeattest::service::{
    Fetched, KeyRing, OcspCacheEntry, Request, Resource, Service, ServiceConfig, Step,
};
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};

#[path = "../../common/ocsp_responder.rs"]
mod ocsp_responder;
use ocsp_responder::{
    attest_answering_at, attest_with, claims, device_request, now, read, Mode, Responder,
};

/// A day and an hour: past the responder's `nextUpdate` (a day) and the clock skew.
const PAST_NEXT_UPDATE: u64 = 25 * 3600;

fn service(stale_if_error: u64) -> Service {
    Service::new(
        ServiceConfig {
            rim_service_url: None,
            issuer: Some("https://attest.example".into()),
            ocsp_stale_if_error: stale_if_error,
            ..ServiceConfig::default()
        },
        KeyRing::new(SigningKey::generate(&[5u8; 48]).unwrap(), None),
        TrustStore::from_pem(&read("generated/ocsp/root.pem")).unwrap(),
        RimTrust::nvidia(),
        1,
    )
}

fn request() -> Request {
    device_request("good")
}

/// Verified answers of a real responder, fetched now.
fn kept_answers(service: &Service) -> Vec<OcspCacheEntry> {
    let (_, cacheable, _) = attest_with(service, &request(), &Responder::new(Mode::Normal));
    assert!(!cacheable.is_empty());
    cacheable
}

/// The device claims of an attestation at `at` whose OCSP answers are the kept ones, given
/// as `kind` says.
fn device_at(
    service: &Service,
    kept: &[OcspCacheEntry],
    at: u64,
    stale: bool,
) -> Map<String, Value> {
    let (response, cacheable) = attest_answering_at(service, &request(), at, [3; 32], |_, key| {
        let entry = kept.iter().find(|e| e.cache_key == key).unwrap();
        let (body, nonce) = (entry.body.clone(), entry.nonce.clone());
        if stale {
            Fetched::Stale {
                body,
                nonce: Some(nonce),
            }
        } else {
            Fetched::Cached { body, nonce }
        }
    });
    // A stale answer is never handed back as fresh for the cache.
    assert!(
        cacheable.iter().all(|e| e.until.as_secs() > at),
        "{cacheable:?}"
    );
    let result: Value = serde_json::from_slice(&response.body).unwrap();
    claims(result[1]["GPU-0"].as_str().unwrap())
}

#[test]
fn a_kept_answer_past_next_update_serves_only_within_the_bound_and_says_so() {
    let strict = service(0);
    let kept = kept_answers(&strict);
    let later = now() + PAST_NEXT_UPDATE;
    // Off (the default): the kept answer is stale, the chain fails with 5001.
    let refused = device_at(&strict, &kept, later, true);
    assert_eq!(
        refused["x-nvidia-error-details"]["code"], 5001,
        "{refused:?}"
    );

    // Two hours of stale-if-error: good, with the warning naming the answer's validity.
    let relaxed = service(2 * 3600);
    let device = device_at(&relaxed, &kept, later, true);
    let chain = &device["x-nvidia-gpu-attestation-report-cert-chain"];
    assert_eq!(chain["x-nvidia-cert-ocsp-status"], "good", "{device:?}");
    // (The device fails its RIM comparison — the service holds no RIM for it — never its
    // revocation.)
    assert_ne!(device["x-nvidia-error-details"]["code"], 5001, "{device:?}");
    let warning = device["x-nvidia-attestation-warning"].as_str().unwrap();
    assert!(
        warning.contains("comes from an answer valid until")
            && warning.contains("every OCSP responder failed")
            && warning.contains("ocspStaleIfError"),
        "{warning}"
    );

    // The bound holds: past it, refused.
    let too_late = device_at(&relaxed, &kept, later + 2 * 3600, true);
    assert_eq!(too_late["x-nvidia-error-details"]["code"], 5001);
    // Only a kept copy the host marks stale is let through: a cached answer is not.
    let cached = device_at(&relaxed, &kept, later, false);
    assert_eq!(cached["x-nvidia-error-details"]["code"], 5001);
    // A kept answer still valid is not stale: no such warning.
    let fresh = device_at(&relaxed, &kept, now(), true);
    let warning = fresh
        .get("x-nvidia-attestation-warning")
        .and_then(Value::as_str)
        .unwrap_or_default();
    assert!(
        !warning.contains("comes from an answer valid until"),
        "{warning}"
    );
    assert_eq!(
        fresh["x-nvidia-gpu-attestation-report-cert-chain"]["x-nvidia-cert-ocsp-status"],
        "good"
    );
}

#[test]
fn the_cache_keeps_a_verified_answer_for_the_bound_past_its_validity() {
    let relaxed = service(3600);
    let entries = kept_answers(&relaxed);
    let strict = kept_answers(&service(0));
    for (relaxed, strict) in entries.iter().zip(&strict) {
        assert_eq!(strict.keep_until, strict.until);
        assert!(relaxed.keep_until.as_secs() >= relaxed.until.as_secs() + 3600);
    }
}

/// 2026-06-01: the bundled LS10 RIM's signer is valid (see tests/it/service/attest.rs).
const JUNE_2026: u64 = 1_780_272_000;
const SWITCH_RIM_ID: &str = "NV_SWITCH_BIOS_5612_0002_890_9610550001";

fn fixture(path: &str) -> Vec<u8> {
    crate::fixture_files::bytes(&format!("nvidia/{path}")).to_vec()
}

/// The LS10 switch's claims when the host answers its RIM with `answer(envelope)`; revocation
/// off (this is about the RIM).
fn switch_claims(answer: impl Fn(Vec<u8>) -> Fetched) -> Map<String, Value> {
    let service = Service::new(
        ServiceConfig {
            ocsp_url: None,
            issuer: Some("https://attest.example".into()),
            ..ServiceConfig::default()
        },
        KeyRing::new(SigningKey::generate(&[5u8; 48]).unwrap(), None),
        TrustStore::nvidia_device_identity().unwrap(),
        RimTrust::nvidia(),
        1,
    );
    let request = ocsp_responder::ls10_request();
    let envelope = json!({
        "id": SWITCH_RIM_ID,
        "rim": STANDARD.encode(fixture(&format!("rims/nvat/switchVBIOSRim_{SWITCH_RIM_ID}.xml"))),
    })
    .to_string()
    .into_bytes();
    let mut exchange = service.begin(&request, UnixTime::from_secs(JUNE_2026).unwrap(), [1; 32]);
    loop {
        match exchange.step() {
            Step::Respond(response) => {
                let result: Value = serde_json::from_slice(&response.body).unwrap();
                return claims(result[1]["SWITCH-0"].as_str().unwrap());
            }
            Step::Verify(_) => exchange.verify_in_core(&service).unwrap(),
            Step::Fetch(resources) => {
                let answers: Vec<Fetched> = resources
                    .iter()
                    .map(|resource| match resource {
                        Resource::Rim { id, .. } if id == SWITCH_RIM_ID => answer(envelope.clone()),
                        other => panic!("{other:?}"),
                    })
                    .collect();
                exchange.fetched(&service, &answers).unwrap();
            }
            Step::Sign(_) => panic!("the service holds its key"),
        }
    }
}

#[test]
fn a_kept_rim_is_verified_as_fetched_and_the_token_says_it_was_kept() {
    let kept = switch_claims(|body| Fetched::Stale { body, nonce: None });
    let fetched = switch_claims(Fetched::Body);
    for claims in [&kept, &fetched] {
        assert_eq!(
            claims["x-nvidia-switch-bios-rim-fetched"], true,
            "{claims:?}"
        );
        assert_eq!(claims["x-nvidia-switch-bios-rim-signature-verified"], true);
        assert!(claims.get("x-nvidia-error-details").is_none(), "{claims:?}");
    }
    let said = |claims: &Map<String, Value>| {
        claims
            .get("x-nvidia-attestation-warning")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .contains(&format!(
                "RIM {SWITCH_RIM_ID} comes from a copy the host kept"
            ))
    };
    assert!(said(&kept), "{kept:?}");
    assert!(!said(&fetched), "{fetched:?}");
    // A kept copy that is not the RIM's envelope fails as a fetched one would.
    let garbage = switch_claims(|_| Fetched::Stale {
        body: b"{}".to_vec(),
        nonce: None,
    });
    assert_eq!(
        garbage["x-nvidia-switch-bios-rim-fetched"], false,
        "{garbage:?}"
    );
}

#[test]
fn a_verdict_that_relied_on_a_kept_answer_replays_with_its_warning() {
    use super::replay::{assert_replays, record};
    use edgeattest::service::replay::{replay, Difference, ReplayAnchors};
    // The anchors of `service`: the test PKI's device root, NVIDIA's RIM root.
    let test_anchors = || ReplayAnchors {
        device: TrustStore::from_pem(&read("generated/ocsp/root.pem")).unwrap(),
        rim: RimTrust::nvidia(),
    };
    let relaxed = service(2 * 3600);
    let kept = kept_answers(&relaxed);
    let later = now() + PAST_NEXT_UPDATE;
    let mut answer = |resource: &Resource| match resource {
        Resource::Ocsp { cache_key, .. } => {
            let entry = kept.iter().find(|e| &e.cache_key == cache_key).unwrap();
            Fetched::Stale {
                body: entry.body.clone(),
                nonce: Some(entry.nonce.clone()),
            }
        }
        _ => Fetched::Failed(edgeattest::service::FetchFailure::NotFetched),
    };
    let bundle = record(&relaxed, &request(), later, &mut answer);
    let replayed = assert_replays(&bundle, &test_anchors());
    let device = &replayed.replayed.tokens[1].claims;
    assert!(
        device["x-nvidia-attestation-warning"]
            .as_str()
            .unwrap()
            .contains("comes from an answer valid until"),
        "{device:?}"
    );
    // The bundle says the kept answers were kept; without the service's stale-if-error the
    // same inputs give another verdict, and the replay says where it differs.
    let mut json: Value = serde_json::from_slice(&bundle).unwrap();
    let kinds: Vec<&str> = json["fetches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["value"]["answer"]["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.iter().all(|k| *k == "stale"), "{kinds:?}");
    json["config"]["value"]["ocspStaleIfError"] = json!(0);
    let altered = replay(
        &serde_json::to_vec(&json).unwrap(),
        &test_anchors(),
        &[3; 48],
    )
    .unwrap();
    assert!(!altered.matches);
    assert!(altered
        .differences
        .iter()
        .any(|d| matches!(d, Difference::InputDigest { input, .. } if input == "config")));
    assert!(altered
        .differences
        .iter()
        .any(|d| !matches!(d, Difference::InputDigest { .. })));
}
