//! Altered bundles: one byte changed in a held RIM, an OCSP answer, the request or the time
//! replays to a different verdict whose difference is explained (the input whose digest no
//! longer matches, the claims that differ), or to a typed error; a bundle whose digests were
//! recomputed after the change is still caught by its claims; other anchors are named.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::service::replay::{replay, Difference, Replayed, MAX_BUNDLE_BYTES};
use edgeattest::service::{Request, ServiceConfig};
use edgeattest::ErrorCode;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::replay::{
    nvidia_anchors, ocsp_request, ocsp_responder, record, responder_answers, test_anchors,
    KEY_RANDOM,
};
use ocsp_responder::{device, now, test_service, Mode, Responder};

/// The bundle of a good generated device: held RIMs, real OCSP answers.
fn good_bundle() -> Value {
    let service = test_service(
        ServiceConfig {
            rim_service_url: None,
            issuer: Some("https://attest.example".into()),
            ..ServiceConfig::default()
        },
        false,
    );
    let responder = Responder::new(Mode::Normal);
    let request: Request = ocsp_request(&[device("good")]);
    let bundle = record(
        &service,
        &request,
        now(),
        &mut responder_answers(&responder),
    );
    serde_json::from_slice(&bundle).unwrap()
}

fn replay_value(bundle: &Value) -> Replayed {
    replay(
        &serde_json::to_vec(bundle).unwrap(),
        &test_anchors(),
        &KEY_RANDOM,
    )
    .unwrap()
}

/// Flips one bit of the byte at the middle of base64 member `text`.
fn flip_base64(text: &Value) -> Value {
    let mut bytes = STANDARD.decode(text.as_str().unwrap()).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x01;
    json!(STANDARD.encode(bytes))
}

fn inputs(replayed: &Replayed) -> Vec<String> {
    replayed
        .differences
        .iter()
        .filter_map(|d| match d {
            Difference::InputDigest { input, .. } => Some(input.clone()),
            _ => None,
        })
        .collect()
}

fn claims(replayed: &Replayed) -> Vec<(String, String)> {
    replayed
        .differences
        .iter()
        .filter_map(|d| match d {
            Difference::Claim { token, claim, .. } => Some((token.clone(), claim.clone())),
            _ => None,
        })
        .collect()
}

/// The digest the bundle writes for `value`.
fn digest(value: &Value) -> String {
    format!(
        "sha256:{}",
        hex::encode(Sha256::digest(serde_json::to_vec(value).unwrap()))
    )
}

#[test]
fn the_untouched_bundle_matches() {
    let replayed = replay_value(&good_bundle());
    assert!(replayed.matches, "{:#?}", replayed.differences);
    assert_eq!(
        replayed.recorded.tokens[0].claims["x-nvidia-overall-att-result"],
        true
    );
}

#[test]
fn a_byte_changed_in_a_held_rim_fails_the_device_and_names_the_rim() {
    let mut bundle = good_bundle();
    let xml = &mut bundle["rims"][0]["value"]["xml"];
    *xml = flip_base64(xml);
    let replayed = replay_value(&bundle);
    assert!(!replayed.matches);
    assert_eq!(inputs(&replayed), ["rims[0]"]);
    let overall = &replayed.replayed.tokens[0].claims;
    assert_eq!(overall["x-nvidia-overall-att-result"], false);
    assert!(
        claims(&replayed).contains(&("overall".into(), "x-nvidia-overall-att-result".into())),
        "{:#?}",
        replayed.differences
    );
    assert!(claims(&replayed).iter().any(|(token, _)| token == "GPU-0"));
}

#[test]
fn a_byte_changed_in_an_ocsp_answer_is_named_and_changes_the_chain_claims() {
    let mut bundle = good_bundle();
    let index = bundle["fetches"]
        .as_array()
        .unwrap()
        .iter()
        .position(|f| f["value"]["answer"]["kind"] == "body")
        .unwrap();
    let body = &mut bundle["fetches"][index]["value"]["answer"]["body"];
    *body = flip_base64(body);
    let replayed = replay_value(&bundle);
    assert_eq!(inputs(&replayed), [format!("fetches[{index}]")]);
    assert!(!claims(&replayed).is_empty(), "{:#?}", replayed.differences);
    assert_eq!(
        replayed.replayed.tokens[0].claims["x-nvidia-overall-att-result"],
        false
    );

    // The same change with the digest recomputed: no input is flagged, the claims still are.
    bundle["fetches"][index]["digest"] = json!(digest(&bundle["fetches"][index]["value"]));
    let replayed = replay_value(&bundle);
    assert_eq!(inputs(&replayed), Vec::<String>::new());
    assert!(!replayed.matches);
    assert!(!claims(&replayed).is_empty(), "{:#?}", replayed.differences);
}

#[test]
fn a_byte_changed_in_the_request_fails_its_evidence() {
    let mut bundle = good_bundle();
    let body = STANDARD
        .decode(bundle["request"]["value"]["body"].as_str().unwrap())
        .unwrap();
    let mut request: Value = serde_json::from_slice(&body).unwrap();
    let evidence = &mut request["evidence_list"][0]["evidence"];
    *evidence = flip_base64(evidence);
    bundle["request"]["value"]["body"] =
        json!(STANDARD.encode(serde_json::to_vec(&request).unwrap()));
    let replayed = replay_value(&bundle);
    assert_eq!(inputs(&replayed)[0], "request");
    assert_eq!(
        replayed.replayed.tokens[0].claims["x-nvidia-overall-att-result"],
        false
    );
    assert!(!claims(&replayed).is_empty());
    // The evidence no longer verifies: nothing is asked, so the recorded answers go unused.
    assert!(replayed
        .differences
        .iter()
        .any(|d| matches!(d, Difference::FetchCount { asked: 0, .. })));
}

#[test]
fn a_changed_time_is_named_and_a_far_one_changes_the_verdict() {
    let mut bundle = good_bundle();
    let time = bundle["time"]["value"].as_u64().unwrap();
    bundle["time"]["value"] = json!(time + 1);
    let replayed = replay_value(&bundle);
    // A second later the claims are the same but the time's; the time is named.
    assert_eq!(inputs(&replayed), ["time"]);
    assert_eq!(claims(&replayed), Vec::<(String, String)>::new());
    assert!(!replayed.matches);

    // Twenty years later the chains have expired: the verdict differs, claim by claim.
    bundle["time"]["value"] = json!(time + 20 * 365 * 86_400);
    let replayed = replay_value(&bundle);
    assert_eq!(inputs(&replayed), ["time"]);
    assert!(!claims(&replayed).is_empty());
}

#[test]
fn other_anchors_are_named() {
    let bundle = good_bundle();
    let replayed = replay(
        &serde_json::to_vec(&bundle).unwrap(),
        &nvidia_anchors(),
        &KEY_RANDOM,
    )
    .unwrap();
    let which: Vec<&str> = replayed
        .differences
        .iter()
        .filter_map(|d| match d {
            Difference::Anchors { which, .. } => Some(which.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(which, ["device", "rim"]);
    assert_eq!(
        replayed.replayed.tokens[0].claims["x-nvidia-overall-att-result"],
        false
    );
}

#[test]
fn unreadable_bundles_are_typed_errors() {
    let bundle = good_bundle();
    let code = |bytes: &[u8]| {
        replay(bytes, &test_anchors(), &KEY_RANDOM)
            .unwrap_err()
            .code()
    };
    let with = |edit: &dyn Fn(&mut Value)| {
        let mut copy = bundle.clone();
        edit(&mut copy);
        serde_json::to_vec(&copy).unwrap()
    };
    assert_eq!(code(b"[]"), "ERR_REPLAY_BUNDLE_SHAPE");
    assert_eq!(
        code(b"{\"format\": 1, \"format\": 2}"),
        "ERR_REPLAY_BUNDLE_SHAPE"
    );
    assert_eq!(
        code(&with(&|b| b["unknown"] = json!(1))),
        "ERR_REPLAY_BUNDLE_SHAPE"
    );
    assert_eq!(
        code(&with(&|b| b["format"] = json!("edgeattest-replay/2"))),
        "ERR_REPLAY_BUNDLE_FORMAT"
    );
    assert_eq!(
        code(&with(&|b| b["entropy"]["value"] = json!("00"))),
        "ERR_REPLAY_BUNDLE_FIELD"
    );
    assert_eq!(
        code(&with(
            &|b| b["rims"][0]["value"]["xml"] = json!("not base64!")
        )),
        "ERR_REPLAY_BUNDLE_FIELD"
    );
    assert_eq!(
        code(&with(
            &|b| b["config"]["value"]["fwidPolicy"] = json!("lenient")
        )),
        "ERR_REPLAY_BUNDLE_FIELD"
    );
    assert_eq!(
        code(&with(&|b| {
            let one = b["fetches"][0].clone();
            b["fetches"] = json!(vec![one; 257]);
        })),
        "ERR_REPLAY_BUNDLE_BUDGET"
    );
    assert_eq!(
        code(&vec![b' '; MAX_BUNDLE_BYTES + 1]),
        "ERR_REPLAY_BUNDLE_TOO_LARGE"
    );
    let short = replay(
        &serde_json::to_vec(&bundle).unwrap(),
        &test_anchors(),
        &[1; 8],
    );
    assert_eq!(short.unwrap_err().code(), "ERR_KEY_RANDOMNESS_TOO_SHORT");
}
