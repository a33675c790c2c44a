//! Revocation through the service (issue 16): each OCSP request the exchange hands out is
//! answered by `openssl ocsp` acting as the responder of the test PKI
//! (`tests/fixtures/generated/generate_ocsp.py`: root → identity → ICA → BROM → leaf, a
//! delegated responder per CA, an `openssl ca` index per CA), so the responses are a real
//! responder's, made now, for the core's own requests (SHA-384 CertIDs, nonces). The
//! device is the real Hopper 550.90.07 transcript re-signed with the test leaf of each
//! status. The worker and the JS API are tested over HTTP in tests/js/service-ocsp.test.mjs.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::chain::TrustStore;
use edgeattest::crypto::SigningKey;
use edgeattest::rim::RimTrust;
use edgeattest::service::{
    Fetched, KeyRing, Request, Service, ServiceConfig, CERTIFICATE_HOLD_WARNING, REVOCATION_WARNING,
};
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};

#[path = "../../common/ocsp_responder.rs"]
mod ocsp_responder;
use ocsp_responder::{attest_answering, attest_with, device, now, read, tokens, Mode, Responder};

fn service(config: ServiceConfig) -> Service {
    Service::new(
        ServiceConfig {
            rim_service_url: None,
            issuer: Some("https://attest.example".into()),
            ..config
        },
        KeyRing::new(SigningKey::generate(&[5u8; 48]).unwrap(), None),
        TrustStore::from_pem(&read("generated/ocsp/root.pem")).unwrap(),
        RimTrust::nvidia(),
        1,
    )
}

fn request(devices: &[(Vec<u8>, String)], allow_hold: bool) -> Request {
    let nonce = hex::encode(&devices[0].0[4..36]);
    let list: Vec<Value> = devices
        .iter()
        .map(|(evidence, chain)| {
            json!({"evidence": STANDARD.encode(evidence), "certificate": STANDARD.encode(chain)})
        })
        .collect();
    let body =
        json!({"nonce": nonce, "arch": "HOPPER", "claims_version": "3.0", "evidence_list": list});
    let mut request =
        Request::new("POST", "/v4/attest/gpu").body(serde_json::to_vec(&body).unwrap());
    if allow_hold {
        request = request.header("X-NVIDIA-OCSP-ALLOW-CERT-HOLD", "true");
    }
    request
}

fn chain_claim(device: &Map<String, Value>) -> &Value {
    &device["x-nvidia-gpu-attestation-report-cert-chain"]
}

fn warning(device: &Map<String, Value>) -> String {
    device
        .get("x-nvidia-attestation-warning")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_good_chain_is_good_and_nothing_is_left_unchecked() {
    let service = service(ServiceConfig::default());
    let (response, cacheable, asked) = attest_with(
        &service,
        &request(&[device("good")], false),
        &Responder::new(Mode::Normal),
    );
    let (_, devices) = tokens(&response);
    let chain = chain_claim(&devices[0]);
    assert_eq!(chain["x-nvidia-cert-ocsp-status"], "good", "{chain}");
    assert_eq!(chain["x-nvidia-cert-status"], "valid");
    assert_eq!(chain["x-nvidia-cert-revocation-reason"], Value::Null);
    assert!(
        !warning(&devices[0]).contains(REVOCATION_WARNING),
        "{devices:?}"
    );
    // BROM, ICA and Identity are asked about; the leaf and the root are not.
    assert_eq!(asked, 3);
    assert_eq!(cacheable.len(), 3);
    for entry in &cacheable {
        assert!(
            entry.until.as_secs() > now() && entry.until.as_secs() <= now() + 86_400,
            "{entry:?}"
        );
        assert_eq!(entry.nonce.len(), 32);
    }
    // With no RIM to be had, the device fails on its RIMs, not on revocation.
    assert_eq!(devices[0]["x-nvidia-error-details"]["code"], 5009);
}

#[test]
fn a_revoked_certificate_fails_the_device_with_its_reason() {
    let service = service(ServiceConfig::default());
    let (response, cacheable, _) = attest_with(
        &service,
        &request(&[device("revoked")], false),
        &Responder::new(Mode::Normal),
    );
    let (overall, devices) = tokens(&response);
    assert_eq!(overall["x-nvidia-overall-att-result"], false);
    let chain = chain_claim(&devices[0]);
    assert_eq!(chain["x-nvidia-cert-status"], "revoked", "{chain}");
    assert_eq!(chain["x-nvidia-cert-ocsp-status"], "revoked");
    assert_eq!(chain["x-nvidia-cert-revocation-reason"], "keyCompromise");
    let details = &devices[0]["x-nvidia-error-details"];
    assert_eq!(
        (&details["code"], &details["message"]),
        (&json!(5002), &json!("CERTIFICATE_STATUS_REVOKED")),
        "{details}"
    );
    // The answers verified, so they may be cached, the revoked one too.
    assert_eq!(cacheable.len(), 3);
}

#[test]
fn an_unknown_certificate_fails_the_device() {
    let service = service(ServiceConfig::default());
    let (response, _, _) = attest_with(
        &service,
        &request(&[device("unknown")], false),
        &Responder::new(Mode::Normal),
    );
    let (_, devices) = tokens(&response);
    assert_eq!(
        chain_claim(&devices[0])["x-nvidia-cert-ocsp-status"],
        "unknown"
    );
    assert_eq!(devices[0]["x-nvidia-error-details"]["code"], 5003);
}

#[test]
fn a_certificate_on_hold_is_refused_unless_the_request_allows_it() {
    let service = service(ServiceConfig::default());
    let responder = Responder::new(Mode::Normal);
    let (response, _, _) = attest_with(&service, &request(&[device("hold")], false), &responder);
    let (_, devices) = tokens(&response);
    let chain = chain_claim(&devices[0]);
    assert_eq!(chain["x-nvidia-cert-ocsp-status"], "revoked", "{chain}");
    assert_eq!(chain["x-nvidia-cert-revocation-reason"], "certificateHold");
    assert_eq!(devices[0]["x-nvidia-error-details"]["code"], 5002);

    let (response, _, _) = attest_with(&service, &request(&[device("hold")], true), &responder);
    let (_, devices) = tokens(&response);
    let chain = chain_claim(&devices[0]);
    assert_eq!(chain["x-nvidia-cert-ocsp-status"], "good", "{chain}");
    assert_eq!(chain["x-nvidia-cert-status"], "valid");
    assert!(
        warning(&devices[0]).contains(CERTIFICATE_HOLD_WARNING),
        "{devices:?}"
    );
    assert_eq!(devices[0]["x-nvidia-error-details"]["code"], 5009);
}

#[test]
fn an_answer_that_fails_a_check_is_never_good() {
    let service = service(ServiceConfig::default());
    for mode in [
        Mode::Rogue,
        Mode::Foreign,
        Mode::OtherCertificate,
        Mode::Down,
    ] {
        let (response, cacheable, _) = attest_with(
            &service,
            &request(&[device("good")], false),
            &Responder::new(mode),
        );
        let (overall, devices) = tokens(&response);
        assert_eq!(overall["x-nvidia-overall-att-result"], false, "{mode:?}");
        assert_eq!(
            chain_claim(&devices[0])["x-nvidia-cert-ocsp-status"],
            "unknown",
            "{mode:?}"
        );
        let details = &devices[0]["x-nvidia-error-details"];
        assert_eq!(
            (&details["code"], &details["message"]),
            (&json!(5001), &json!("ERROR_DURING_OCSP_QUERY")),
            "{mode:?}: {details}"
        );
        // Only answers that verified are cached: none, except that the identity CA's own
        // query really is answered by the answer about the identity CA.
        let verified = usize::from(mode == Mode::OtherCertificate);
        assert_eq!(
            cacheable.len(),
            verified,
            "{mode:?}: nothing unverified is cached"
        );
    }
}

#[test]
fn a_replayed_answer_is_refused_for_its_nonce() {
    let service = service(ServiceConfig::default());
    let responder = Responder::new(Mode::Replay);
    let (first, _, _) = attest_with(&service, &request(&[device("good")], false), &responder);
    assert_eq!(
        chain_claim(&tokens(&first).1[0])["x-nvidia-cert-ocsp-status"],
        "good"
    );
    // Another request (other entropy, so other nonces) gets the first request's answers.
    let (response, _) = attest_answering(
        &service,
        &request(&[device("good")], false),
        [10; 32],
        |der, key| responder.answer(der, key),
    );
    let (_, devices) = tokens(&response);
    let details = &devices[0]["x-nvidia-error-details"];
    assert_eq!(details["code"], 5001, "{details}");
    assert!(
        details["description"]
            .as_str()
            .unwrap()
            .contains("ERR_OCSP_NONCE_MISMATCH"),
        "{details}"
    );
}

#[test]
fn cached_answers_are_used_with_the_nonce_that_fetched_them() {
    let service = service(ServiceConfig::default());
    let (_, cacheable, _) = attest_with(
        &service,
        &request(&[device("good")], false),
        &Responder::new(Mode::Normal),
    );
    let answer_from_cache = |wrong_nonce: bool| {
        let (response, _) = attest_answering(
            &service,
            &request(&[device("good")], false),
            [11; 32],
            |_, key| {
                let entry = cacheable.iter().find(|e| e.cache_key == key).unwrap();
                let mut nonce = entry.nonce.clone();
                if wrong_nonce {
                    nonce[0] ^= 1;
                }
                Fetched::Cached {
                    body: entry.body.clone(),
                    nonce,
                }
            },
        );
        tokens(&response).1.remove(0)
    };
    let device = answer_from_cache(false);
    assert_eq!(chain_claim(&device)["x-nvidia-cert-ocsp-status"], "good");
    let device = answer_from_cache(true);
    assert_eq!(device["x-nvidia-error-details"]["code"], 5001);
}

#[test]
fn revocation_off_is_unchecked_and_says_so_not_fetched_is_an_error() {
    // Off: no OCSP resource at all.
    let off = service(ServiceConfig {
        ocsp_url: None,
        ..ServiceConfig::default()
    });
    let (response, _, asked) = attest_with(
        &off,
        &request(&[device("good")], false),
        &Responder::new(Mode::Normal),
    );
    assert_eq!(asked, 0);
    let (_, devices) = tokens(&response);
    assert_eq!(
        chain_claim(&devices[0])["x-nvidia-cert-ocsp-status"],
        "unknown"
    );
    assert!(warning(&devices[0]).contains(REVOCATION_WARNING));
    // A host that does not fetch (Service::handle) while a responder is configured: the
    // queries are unanswered, an error of the device (5001), never "not checked".
    let on = service(ServiceConfig::default());
    let response = on.handle(
        &request(&[device("revoked")], false),
        UnixTime::from_secs(now()).unwrap(),
        [1; 32],
    );
    let (_, devices) = tokens(&response);
    assert_eq!(
        chain_claim(&devices[0])["x-nvidia-cert-ocsp-status"],
        "unknown"
    );
    assert!(!warning(&devices[0]).contains(REVOCATION_WARNING));
    assert_eq!(devices[0]["x-nvidia-error-details"]["code"], 5001);
}

#[test]
fn devices_share_the_queries_of_their_cas() {
    let service = service(ServiceConfig::default());
    let devices: Vec<(Vec<u8>, String)> = ["good", "revoked", "unknown", "hold"]
        .iter()
        .map(|status| device(status))
        .collect();
    let (response, _, asked) = attest_with(
        &service,
        &request(&devices, false),
        &Responder::new(Mode::Normal),
    );
    // Four BROMs, one ICA, one Identity: six queries for twelve certificates.
    assert_eq!(asked, 6);
    let (_, claims) = tokens(&response);
    let statuses: Vec<&Value> = claims
        .iter()
        .map(|d| &chain_claim(d)["x-nvidia-cert-ocsp-status"])
        .collect();
    assert_eq!(
        statuses,
        [
            &json!("good"),
            &json!("revoked"),
            &json!("unknown"),
            &json!("revoked")
        ]
    );
}
