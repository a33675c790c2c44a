//! Replayable verdicts: an attestation asked for a bundle (`x-edgeattest-replay: bundle`)
//! answers with every input of its verdict and the result it would have answered; replaying
//! the bundle offline, with another key, gives the same claims. On the recorded NVIDIA
//! exchanges (TEEP captures, the LS10 switch with its RIM fetched from an envelope) and on
//! the generated OCSP test PKI answered by `openssl ocsp` (held RIMs, real OCSP answers).
//! The altered bundles are in `replay_tamper.rs`.
#![cfg(not(target_arch = "wasm32"))]

use std::cell::RefCell;
use std::collections::BTreeMap;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::chain::TrustStore;
use edgeattest::rim::RimTrust;
use edgeattest::service::replay::{
    replay, Difference, ReplayAnchors, BUNDLE_MEDIA_TYPE, REPLAY_HEADER,
};
use edgeattest::service::{
    FetchFailure, Fetched, KeyRing, Request, Resource, Response, Service, ServiceConfig, Step,
};
use edgeattest::{ErrorCode, UnixTime};
use serde_json::{json, Value};

#[path = "../../common/ocsp_responder.rs"]
pub(crate) mod ocsp_responder;
use ocsp_responder::{device, now, read, test_service, Mode, Responder};

const SWITCH_RIM: &str = "NV_SWITCH_BIOS_5612_0002_890_9610550001";
/// 2026-06-01: the bundled LS10 RIM's signer is valid.
const JUNE_2026: u64 = 1_780_272_000;
pub(crate) const ENTROPY: [u8; 32] = [7; 32];
pub(crate) const KEY_RANDOM: [u8; 48] = [3; 48];

/// Drives `request` through `service` at `now` as a host does, answering each fetch with
/// `answer`.
pub(crate) fn drive(
    service: &Service,
    request: &Request,
    now: u64,
    answer: &mut dyn FnMut(&Resource) -> Fetched,
) -> Response {
    let mut exchange = service.begin(request, UnixTime::from_secs(now).unwrap(), ENTROPY);
    loop {
        match exchange.step() {
            Step::Respond(_) => break,
            Step::Verify(_) => exchange.verify_in_core(service).unwrap(),
            Step::Fetch(resources) => {
                let answers: Vec<Fetched> = resources.iter().map(&mut *answer).collect();
                exchange.fetched(service, &answers).unwrap();
            }
            Step::Sign(_) => panic!("the service holds its key"),
        }
    }
    exchange.into_response().unwrap()
}

/// The bundle of `request`, checked against the answer without the header: the same
/// status and headers (but the media type), and its `result` is that answer's body.
pub(crate) fn record(
    service: &Service,
    request: &Request,
    now: u64,
    answer: &mut dyn FnMut(&Resource) -> Fetched,
) -> Vec<u8> {
    let plain = drive(service, request, now, answer);
    let asked = request.clone().header(REPLAY_HEADER, "bundle");
    let bundled = drive(service, &asked, now, answer);
    assert_eq!(bundled.status, plain.status);
    let media = |r: &Response| {
        r.headers
            .iter()
            .find(|(n, _)| n == "content-type")
            .map(|(_, v)| v.clone())
    };
    assert_eq!(media(&bundled).as_deref(), Some(BUNDLE_MEDIA_TYPE));
    let bundle: Value = serde_json::from_slice(&bundled.body).unwrap();
    let result = &bundle["result"]["value"];
    assert_eq!(
        result["body"].as_str().unwrap().as_bytes(),
        plain.body,
        "the bundle's result is the answer without the header"
    );
    assert_eq!(result["contentType"], json!(media(&plain)));
    assert_eq!(bundle["format"], "edgeattest-replay/1");
    assert_eq!(bundle["time"]["value"], now);
    assert_eq!(bundle["entropy"]["value"], hex::encode(ENTROPY));
    bundled.body
}

/// OCSP answers of the test PKI's responder, made once per DER request (a host's second run
/// of the same request gets the same bytes).
pub(crate) fn responder_answers(responder: &Responder) -> impl FnMut(&Resource) -> Fetched + '_ {
    let made: RefCell<BTreeMap<Vec<u8>, Fetched>> = RefCell::default();
    move |resource| match resource {
        Resource::Ocsp {
            request, cache_key, ..
        } => made
            .borrow_mut()
            .entry(request.clone())
            .or_insert_with(|| responder.answer(request, cache_key))
            .clone(),
        _ => Fetched::Failed(FetchFailure::NotFetched),
    }
}

fn nothing(_: &Resource) -> Fetched {
    Fetched::Failed(FetchFailure::NotFetched)
}

pub(crate) fn nvidia_anchors() -> ReplayAnchors {
    ReplayAnchors {
        device: TrustStore::nvidia_device_identity().unwrap(),
        rim: RimTrust::nvidia(),
    }
}

pub(crate) fn test_anchors() -> ReplayAnchors {
    ReplayAnchors {
        device: TrustStore::from_pem(&read("generated/ocsp/root.pem")).unwrap(),
        rim: RimTrust::from_store(
            TrustStore::from_pem(&read("generated/ocsp/rim_root.pem")).unwrap(),
        ),
    }
}

fn nvidia_service(config: ServiceConfig) -> Service {
    Service::new(
        ServiceConfig {
            issuer: Some("https://edgeattest.test".into()),
            ..config
        },
        KeyRing::new(
            edgeattest::crypto::SigningKey::generate(&[5u8; 48]).unwrap(),
            None,
        ),
        TrustStore::nvidia_device_identity().unwrap(),
        RimTrust::nvidia(),
        1,
    )
}

fn post(path: &str, body: Vec<u8>) -> Request {
    Request::new("POST", path)
        .header("content-type", "application/json")
        .body(body)
}

fn teep(name: &str) -> (Request, u64) {
    let body = read(&format!("nvidia/nras/teep/{name}_request.json"));
    let response: Value =
        serde_json::from_str(&read(&format!("nvidia/nras/teep/{name}_response.json"))).unwrap();
    let overall = ocsp_responder::claims(response[0][1].as_str().unwrap());
    (
        post("/v3/attest/gpu", body.into_bytes()),
        overall["iat"].as_u64().unwrap(),
    )
}

fn ls10() -> Request {
    ocsp_responder::ls10_request()
}

/// The RIM service's envelope for the LS10 RIM.
fn ls10_envelope(resource: &Resource) -> Fetched {
    match resource {
        Resource::Rim { id, .. } if id == SWITCH_RIM => Fetched::Body(
            json!({
                "id": id,
                "rim": STANDARD.encode(read(&format!("nvidia/rims/nvat/switchVBIOSRim_{SWITCH_RIM}.xml"))),
            })
            .to_string()
            .into_bytes(),
        ),
        _ => Fetched::Failed(FetchFailure::NotFetched),
    }
}

/// A replay that matches: no difference, the same tokens, and claims equal to the recorded
/// ones all but the volatile ones.
pub(crate) fn assert_replays(
    bundle: &[u8],
    anchors: &ReplayAnchors,
) -> edgeattest::service::replay::Replayed {
    let replayed = replay(bundle, anchors, &KEY_RANDOM).unwrap();
    assert_eq!(replayed.differences, [], "{:#?}", replayed.differences);
    assert!(replayed.matches);
    assert_eq!(replayed.recorded.status, replayed.replayed.status);
    assert_eq!(
        replayed.recorded.tokens.len(),
        replayed.replayed.tokens.len()
    );
    for (recorded, again) in replayed
        .recorded
        .tokens
        .iter()
        .zip(&replayed.replayed.tokens)
    {
        assert_eq!(recorded.label, again.label);
        for (name, value) in &recorded.claims {
            if !["jti", "iat", "nbf", "exp", "submods"].contains(&name.as_str()) {
                assert_eq!(
                    Some(value),
                    again.claims.get(name),
                    "{}: {name}",
                    recorded.label
                );
            }
        }
    }
    replayed
}

#[test]
fn the_recorded_nvidia_exchanges_replay_to_the_same_claims() {
    let service = nvidia_service(ServiceConfig::default());
    for name in [
        "v3_1gpu_success_20260629",
        "v3_8gpu_success_20260629",
        "v3_8gpu_nonce_mismatch_20260520",
    ] {
        let (request, time) = teep(name);
        let bundle = record(&service, &request, time, &mut nothing);
        let replayed = assert_replays(&bundle, &nvidia_anchors());
        let labels: Vec<&str> = replayed
            .recorded
            .tokens
            .iter()
            .map(|t| t.label.as_str())
            .collect();
        assert_eq!(labels[0], "overall", "{name}");
        assert!(labels.len() == 2 || labels.len() == 9, "{name}: {labels:?}");
        // The GPUs' RIMs were asked for and not fetched: each is in the bundle, answered so.
        let bundle: Value = serde_json::from_slice(&bundle).unwrap();
        for fetch in bundle["fetches"].as_array().unwrap() {
            assert_eq!(
                fetch["value"]["answer"],
                json!({"kind": "failed", "failure": "notFetched"})
            );
        }
    }
}

#[test]
fn the_ls10_switch_with_its_rim_fetched_replays_and_the_ear_too() {
    let service = nvidia_service(ServiceConfig::default());
    for request in [ls10(), ls10().header("accept", "application/eat+jwt")] {
        let bundle = record(&service, &request, JUNE_2026, &mut ls10_envelope);
        let replayed = assert_replays(&bundle, &nvidia_anchors());
        let json: Value = serde_json::from_slice(&bundle).unwrap();
        let fetches = json["fetches"].as_array().unwrap();
        // The RIM (its envelope, as answered) and the OCSP queries of both chains.
        assert_eq!(fetches[0]["value"]["resource"]["kind"], "rim");
        assert_eq!(fetches[0]["value"]["answer"]["kind"], "body");
        assert!(fetches.len() > 3, "{}", fetches.len());
        let label = &replayed.recorded.tokens[0].label;
        if request.header_value("accept").is_some() {
            assert_eq!(label, "ear");
        } else {
            assert_eq!(label, "overall");
            assert_eq!(
                replayed.replayed.tokens[1].claims["x-nvidia-switch-bios-rim-fetched"],
                true
            );
        }
    }
}

#[test]
fn the_generated_pki_with_real_ocsp_answers_and_held_rims_replays() {
    let service = test_service(
        ServiceConfig {
            rim_service_url: None,
            issuer: Some("https://attest.example".into()),
            ..ServiceConfig::default()
        },
        false,
    );
    let responder = Responder::new(Mode::Normal);
    let mut answers = responder_answers(&responder);
    for statuses in [&["good"][..], &["revoked"], &["good", "unknown"]] {
        let devices: Vec<(Vec<u8>, String)> = statuses.iter().map(|s| device(s)).collect();
        let request = ocsp_request(&devices);
        let time = now();
        let bundle = record(&service, &request, time, &mut answers);
        let replayed = assert_replays(&bundle, &test_anchors());
        let json: Value = serde_json::from_slice(&bundle).unwrap();
        // The driver and VBIOS RIMs the service held, by value.
        let keys: Vec<&str> = json["rims"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["value"]["key"].as_str().unwrap())
            .collect();
        assert_eq!(keys.len(), 2, "{keys:?}");
        let ocsp = json["fetches"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["value"]["resource"]["kind"] == "ocsp")
            .count();
        assert!(ocsp >= 3 * devices.len(), "{ocsp}");
        let overall = &replayed.replayed.tokens[0].claims;
        // A revoked or unknown device fails, and so does the replay: the verdict is replayed,
        // not only the success.
        assert_eq!(
            overall["x-nvidia-overall-att-result"],
            json!(statuses == &["good"][..]),
            "{statuses:?}"
        );
    }
}

/// A Hopper request of the generated devices.
pub(crate) fn ocsp_request(devices: &[(Vec<u8>, String)]) -> Request {
    let list: Vec<Value> = devices
        .iter()
        .map(|(evidence, chain)| {
            json!({"evidence": STANDARD.encode(evidence), "certificate": STANDARD.encode(chain)})
        })
        .collect();
    let body = json!({
        "nonce": hex::encode(&devices[0].0[4..36]),
        "arch": "HOPPER",
        "claims_version": "3.0",
        "evidence_list": list,
    });
    Request::new("POST", "/v4/attest/gpu").body(serde_json::to_vec(&body).unwrap())
}

#[test]
fn without_the_header_nothing_changes_and_another_value_is_refused() {
    let service = nvidia_service(ServiceConfig::default());
    let plain = drive(&service, &ls10(), JUNE_2026, &mut ls10_envelope);
    assert_eq!(plain.status, 200);
    assert!(plain.body.starts_with(b"[[\"JWT\""));
    for value in ["yes", "", "bundle, bundle"] {
        let refused = service.handle(
            &ls10().header(REPLAY_HEADER, value),
            UnixTime::from_secs(JUNE_2026).unwrap(),
            ENTROPY,
        );
        assert_eq!(refused.status, 400, "{value:?}");
        let body: Value = serde_json::from_slice(&refused.body).unwrap();
        assert_eq!(body["code"], "ERR_REQUEST_REPLAY_HEADER", "{body}");
        assert_eq!(body["field"], REPLAY_HEADER);
    }
    // Any case of the value, as header values of this kind are read.
    let bundled = service.handle(
        &ls10().header("X-EdgeAttest-Replay", "Bundle"),
        UnixTime::from_secs(JUNE_2026).unwrap(),
        ENTROPY,
    );
    assert!(serde_json::from_slice::<Value>(&bundled.body).unwrap()["result"].is_object());
}

#[test]
fn the_differences_are_explained_in_words() {
    let text = Difference::InputDigest {
        input: "fetches[2]".into(),
        recorded: "sha256:00".into(),
        computed: "sha256:01".into(),
    }
    .to_string();
    assert_eq!(text, "input fetches[2] does not match its recorded digest");
    let error = replay(b"{", &nvidia_anchors(), &KEY_RANDOM).unwrap_err();
    assert_eq!(error.code(), "ERR_REPLAY_BUNDLE_SHAPE");
}
