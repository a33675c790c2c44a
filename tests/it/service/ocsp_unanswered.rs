//! Revocation folds closed (the outside review's reproduction): a verified `revoked` decides
//! whatever its sibling queries gave; with a responder configured an unanswered query is an
//! error of its device (5001), never "not checked"; only a service without a responder leaves
//! chains unchecked, and then every device token says so. The answers are `openssl ocsp`'s
//! for the OCSP test PKI (`tests/common/ocsp_responder.rs`).
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::service::{
    FetchFailure, Fetched, Request, Service, ServiceConfig, REVOCATION_WARNING,
};
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};

#[path = "../../common/ocsp_responder.rs"]
mod ocsp_responder;
use ocsp_responder::{
    attest_answering, attest_with, device, test_service, tokens, Mode, Responder,
};

/// The OCSP test service with its RIMs: a `good` device passes end to end.
fn service(ocsp_url: Option<String>) -> Service {
    let config = ServiceConfig {
        rim_service_url: None,
        issuer: Some("https://attest.example".into()),
        ..ServiceConfig::default()
    };
    test_service(ServiceConfig { ocsp_url, ..config }, false)
}

fn with_responder() -> Service {
    service(ServiceConfig::default().ocsp_url)
}

fn request(devices: &[(Vec<u8>, String)], claims_version: &str) -> Request {
    let list: Vec<Value> = devices
        .iter()
        .map(|(evidence, chain)| {
            json!({"evidence": STANDARD.encode(evidence), "certificate": STANDARD.encode(chain)})
        })
        .collect();
    let body = json!({
        "nonce": hex::encode(&devices[0].0[4..36]),
        "arch": "HOPPER",
        "claims_version": claims_version,
        "evidence_list": list,
    });
    Request::new("POST", "/v4/attest/gpu").body(serde_json::to_vec(&body).unwrap())
}

/// Answers every query from the responder except the `skipped`-th (0-based, in the order
/// asked: the device chain's BROM, ICA, Identity CA, then the RIM chains'), which the host
/// did not fetch.
fn attest_skipping(
    service: &Service,
    request: &Request,
    skipped: usize,
) -> (Map<String, Value>, Vec<Map<String, Value>>) {
    let responder = Responder::new(Mode::Normal);
    let mut asked = 0;
    let (response, _) = attest_answering(service, request, [9; 32], |der, key| {
        asked += 1;
        if asked - 1 == skipped {
            Fetched::Failed(FetchFailure::NotFetched)
        } else {
            responder.answer(der, key)
        }
    });
    tokens(&response)
}

fn chain(device: &Map<String, Value>) -> &Value {
    &device["x-nvidia-gpu-attestation-report-cert-chain"]
}

fn warning(device: &Map<String, Value>) -> &str {
    device
        .get("x-nvidia-attestation-warning")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

#[test]
fn a_verified_revoked_answer_decides_though_a_sibling_query_was_not_fetched() {
    // The revoked device's BROM is answered `revoked` and verified; its ICA's query is not
    // fetched. The RIM chains are all answered good.
    let (overall, devices) =
        attest_skipping(&with_responder(), &request(&[device("revoked")], "3.0"), 1);
    let gpu = &devices[0];
    assert_eq!(overall["x-nvidia-overall-att-result"], false, "{gpu:?}");
    assert_eq!(chain(gpu)["x-nvidia-cert-status"], "revoked", "{gpu:?}");
    assert_eq!(chain(gpu)["x-nvidia-cert-ocsp-status"], "revoked");
    assert_eq!(
        chain(gpu)["x-nvidia-cert-revocation-reason"],
        "keyCompromise"
    );
    let details = &gpu["x-nvidia-error-details"];
    assert_eq!(
        (&details["code"], &details["message"]),
        (&json!(5002), &json!("CERTIFICATE_STATUS_REVOKED")),
        "{details}"
    );
    assert!(!warning(gpu).contains(REVOCATION_WARNING), "{gpu:?}");
    // The Identity CA's query skipped instead: the same.
    let (_, devices) = attest_skipping(&with_responder(), &request(&[device("revoked")], "3.0"), 2);
    assert_eq!(devices[0]["x-nvidia-error-details"]["code"], 5002);
}

#[test]
fn with_a_responder_a_query_not_fetched_is_an_error_of_the_device() {
    let service = with_responder();
    // Everything answered: the good device passes (the yardstick of this test).
    let (overall, _, _) = {
        let (response, cacheable, asked) = attest_with(
            &service,
            &request(&[device("good")], "3.0"),
            &Responder::new(Mode::Normal),
        );
        (tokens(&response).0, cacheable, asked)
    };
    assert_eq!(overall["x-nvidia-overall-att-result"], true);
    // Its ICA's query alone not fetched: 5001, an error of that device.
    let (overall, devices) = attest_skipping(&service, &request(&[device("good")], "3.0"), 1);
    let gpu = &devices[0];
    assert_eq!(overall["x-nvidia-overall-att-result"], false, "{gpu:?}");
    assert_eq!(
        chain(gpu)["x-nvidia-cert-ocsp-status"],
        "unknown",
        "{gpu:?}"
    );
    assert_eq!(chain(gpu)["x-nvidia-cert-status"], "valid");
    let details = &gpu["x-nvidia-error-details"];
    assert_eq!(
        (&details["code"], &details["message"]),
        (&json!(5001), &json!("ERROR_DURING_OCSP_QUERY")),
        "{details}"
    );
    assert!(
        details["description"]
            .as_str()
            .unwrap()
            .contains("ERR_OCSP_UNAVAILABLE"),
        "{details}"
    );
    assert!(!warning(gpu).contains(REVOCATION_WARNING), "{gpu:?}");
    // A RIM chain's query not fetched (the fourth query: the RIM signer): the same, for "rim".
    let (overall, devices) = attest_skipping(&service, &request(&[device("good")], "3.0"), 3);
    let details = &devices[0]["x-nvidia-error-details"];
    assert_eq!(overall["x-nvidia-overall-att-result"], false);
    assert_eq!(
        (&details["code"], &details["fieldName"]),
        (&json!(5001), &json!("rim")),
        "{details}"
    );
}

#[test]
fn a_host_that_fetches_nothing_fails_every_device_of_a_service_with_a_responder() {
    let service = with_responder();
    let response = service.handle(
        &request(&[device("good"), device("revoked")], "3.0"),
        UnixTime::from_secs(ocsp_responder::now()).unwrap(),
        [1; 32],
    );
    let (overall, devices) = tokens(&response);
    assert_eq!(overall["x-nvidia-overall-att-result"], false);
    for gpu in &devices {
        assert_eq!(gpu["x-nvidia-error-details"]["code"], 5001, "{gpu:?}");
        assert!(!warning(gpu).contains(REVOCATION_WARNING), "{gpu:?}");
    }
}

#[test]
fn without_a_responder_every_token_says_revocation_was_not_checked() {
    let off = service(None);
    // A device whose evidence does not verify (its signature's last byte changed) as well.
    let (mut broken, broken_chain) = device("good");
    *broken.last_mut().unwrap() ^= 1;
    for version in ["2.0", "3.0"] {
        let devices = [
            device("good"),
            device("revoked"),
            (broken.clone(), broken_chain.clone()),
        ];
        let (response, _, asked) = attest_with(
            &off,
            &request(&devices, version),
            &Responder::new(Mode::Normal),
        );
        assert_eq!(asked, 0, "nothing asked without a responder");
        let (_, tokens) = tokens(&response);
        assert_eq!(tokens.len(), 3);
        for gpu in &tokens {
            // The error-only token of a failed device in claims 2.0 has no warning claim
            // (NRAS's shape); its error says it failed.
            if version == "2.0" && gpu.contains_key("x-nvidia-error-details") {
                assert!(!gpu.contains_key("measres"), "{gpu:?}");
                continue;
            }
            assert!(
                warning(gpu).contains(REVOCATION_WARNING),
                "{version}: {gpu:?}"
            );
            if version == "3.0" && !gpu.contains_key("x-nvidia-error-details") {
                assert_eq!(chain(gpu)["x-nvidia-cert-ocsp-status"], "unknown");
            }
        }
    }
    // With a responder, no token says "not checked", the failed device's neither.
    let (response, _, _) = attest_with(
        &with_responder(),
        &request(&[device("good"), (broken, broken_chain)], "3.0"),
        &Responder::new(Mode::Normal),
    );
    for gpu in &tokens(&response).1 {
        assert!(!warning(gpu).contains(REVOCATION_WARNING), "{gpu:?}");
    }
}

/// The real LS10 96.10.55.00.01 transcript re-signed with the test PKI's switch leaf.
fn switch() -> (Vec<u8>, String) {
    let report = hex::decode(
        ocsp_responder::read("nvidia/evidence/switch/nvat_ls10_96.10.55.00.01_report.hex").trim(),
    )
    .unwrap();
    let key = edgeattest::crypto::SigningKey::from_pkcs8_pem(&ocsp_responder::read(
        "generated/ocsp/leaf_switch_key.pem",
    ))
    .unwrap();
    let mut evidence = report[..report.len() - 96].to_vec();
    let signature = key.sign(&evidence);
    evidence.extend_from_slice(&signature);
    (
        evidence,
        ocsp_responder::read("generated/ocsp/chain_switch.pem"),
    )
}

#[test]
fn switch_claims_without_a_warning_member_say_so_too_and_only_without_a_responder() {
    let (evidence, chain) = switch();
    let request = |path: &str, version: &str| {
        let body = json!({
            "nonce": hex::encode(&evidence[4..36]),
            "arch": "LS10",
            "claims_version": version,
            "evidence_list": [{"evidence": STANDARD.encode(&evidence), "certificate": STANDARD.encode(&chain)}],
        });
        Request::new("POST", path).body(serde_json::to_vec(&body).unwrap())
    };
    // Switch claims 2.0 (V3, and V4 on request): NVIDIA's have no warning member; without a
    // responder ours carry it, so a relying party does not read the chain as confirmed.
    // (Switch claims 1.0 of V2 are written by the same rule.)
    for (path, version) in [("/v3/attest/switch", "2.0"), ("/v4/attest/switch", "2.0")] {
        let (response, _, _) = attest_with(
            &service(None),
            &request(path, version),
            &Responder::new(Mode::Normal),
        );
        let (overall, devices) = tokens(&response);
        assert_eq!(overall["x-nvidia-overall-att-result"], true, "{devices:?}");
        assert_eq!(warning(&devices[0]), REVOCATION_WARNING, "{version}");
        // With a responder that answers, no such member: NVIDIA's claim set.
        let (response, _, _) = attest_with(
            &with_responder(),
            &request(path, version),
            &Responder::new(Mode::Normal),
        );
        let (overall, devices) = tokens(&response);
        assert_eq!(overall["x-nvidia-overall-att-result"], true, "{devices:?}");
        assert!(
            !devices[0].contains_key("x-nvidia-attestation-warning"),
            "{version}: {devices:?}"
        );
    }
}
