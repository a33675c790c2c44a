//! The service's exchange (every ECDSA operation handed to the host): driven by hand with a
//! key the core never holds, it gives byte for byte the answer of `handle` with the same key;
//! the verdicts it is given decide the devices' results; answers that do not fit are refused
//! with a typed error and change nothing.
//!
//! Shared with the wasm suites (`tests/wasm_node.rs`, `tests/wasm_browser.rs`), which include
//! this file as a module: `#[test]` is wasm-bindgen-test's there.

// Crate-level here; a wasm suite that includes this file uses its own (`crate::`).
#[path = "../../common/fixture_files.rs"]
mod fixture_files;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use edgeattest::chain::TrustStore;
use edgeattest::crypto::SigningKey;
use edgeattest::rim::RimTrust;
use edgeattest::service::{
    Exchange, ExchangeError, FetchFailure, Fetched, KeyRing, Request, Resource, Response, Service,
    ServiceConfig, Step,
};
use edgeattest::token::Signers;
use edgeattest::token::{verify_attestation_result, Jwks, VerifyOptions};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::{json, Value};

const SWITCH_RIM: &str = "rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml";
/// 2026-06-01: the bundled LS10 RIM's signer is valid (see tests/it/service/attest.rs).
const JUNE_2026: u64 = 1_780_272_000;

/// A fixture under `tests/fixtures/nvidia/`.
fn fixture(path: &str) -> Vec<u8> {
    crate::fixture_files::bytes(&format!("nvidia/{path}")).to_vec()
}

fn key() -> SigningKey {
    SigningKey::generate(&[5u8; 48]).unwrap()
}

fn service(keys: KeyRing) -> Service {
    // Revocation off: these tests are about the verify and sign rounds (the fetch rounds of
    // OCSP are tested in service_ocsp.rs).
    let config = ServiceConfig {
        issuer: Some("https://edgeattest.test".into()),
        ocsp_url: None,
        ..ServiceConfig::default()
    };
    let mut service = Service::new(
        config,
        keys,
        TrustStore::nvidia_device_identity().unwrap(),
        RimTrust::nvidia(),
        1,
    );
    service
        .rims_mut()
        .insert_named(
            "NV_SWITCH_BIOS_5612_0002_890_9610550001.xml",
            fixture(SWITCH_RIM),
        )
        .unwrap();
    service
}

fn software() -> Service {
    service(KeyRing::new(key(), Some("kid-1".into())))
}

fn external() -> Service {
    service(KeyRing::external(key().public_key(), Some("kid-1".into())))
}

fn ls10_request() -> Request {
    ls10_request_with(&fixture(
        "evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem",
    ))
}

/// The LS10 request with `chain_pem` as its certificate chain.
fn ls10_request_with(chain_pem: &[u8]) -> Request {
    let hex_text = String::from_utf8(fixture(
        "evidence/switch/nvat_ls10_96.10.55.00.01_report.hex",
    ))
    .unwrap();
    let evidence = hex::decode(hex_text.trim()).unwrap();
    let nonce = hex::encode(&evidence[4..36]);
    let body = json!({
        "nonce": nonce,
        "arch": "LS10",
        "claims_version": "3.0",
        "evidence_list": [{
            "evidence": STANDARD.encode(&evidence),
            "certificate": STANDARD.encode(chain_pem),
        }],
    });
    // No issuer in some services here: the request's origin names it.
    post("/v4/attest/switch", serde_json::to_vec(&body).unwrap())
        .origin("https://origin.edgeattest.test")
}

fn recorded_request(name: &str) -> Request {
    post(
        "/v3/attest/gpu",
        fixture(&format!("nras/teep/{name}_request.json")),
    )
}

fn post(path: &str, body: Vec<u8>) -> Request {
    Request::new("POST", path)
        .header("content-type", "application/json")
        .body(body)
}

fn recorded_time(name: &str) -> u64 {
    let response: Value =
        serde_json::from_slice(&fixture(&format!("nras/teep/{name}_response.json"))).unwrap();
    payload(response[0][1].as_str().unwrap())["iat"]
        .as_u64()
        .unwrap()
}

fn payload(token: &str) -> Value {
    serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(token.split('.').nth(1).unwrap())
            .unwrap(),
    )
    .unwrap()
}

/// What a host does: every round, in order, with the software backend and `key`, outside
/// the core. Returns the response and the sizes of the rounds.
fn drive(service: &Service, mut exchange: Exchange, key: &SigningKey) -> (Response, Vec<String>) {
    let mut rounds = Vec::new();
    loop {
        match exchange.step() {
            Step::Respond(_) => break,
            Step::Verify(checks) => {
                rounds.push(format!("verify {}", checks.len()));
                let verdicts: Vec<bool> = checks.iter().map(|c| c.verify().is_ok()).collect();
                exchange.verified(service, &verdicts).unwrap();
            }
            Step::Fetch(resources) => {
                rounds.push(format!("fetch {}", resources.len()));
                exchange.fetched_nothing(service).unwrap();
            }
            Step::Sign(inputs) => {
                rounds.push(format!("sign {}", inputs.len()));
                let signatures: Vec<Vec<u8>> = inputs
                    .iter()
                    .map(|input| key.sign(input).to_vec())
                    .collect();
                exchange.signed(service, &signatures).unwrap();
            }
        }
    }
    (exchange.into_response().unwrap(), rounds)
}

#[test]
fn an_external_key_gives_the_same_bytes_as_handle() {
    let (software, external) = (software(), external());
    let cases = [
        (ls10_request(), JUNE_2026),
        (
            recorded_request("v3_8gpu_success_20260629"),
            recorded_time("v3_8gpu_success_20260629"),
        ),
        (
            recorded_request("v3_8gpu_nonce_mismatch_20260520"),
            recorded_time("v3_8gpu_nonce_mismatch_20260520"),
        ),
    ];
    for (request, now) in cases {
        let expected = software.handle(&request, UnixTime::from_secs(now).unwrap(), [7; 32]);
        assert_eq!(expected.status, 200);
        let (response, rounds) = drive(
            &external,
            external.begin(&request, UnixTime::from_secs(now).unwrap(), [7; 32]),
            &key(),
        );
        assert_eq!(response, expected, "{}", request.path);
        // The switch's RIM is held: a RIM round. The GPUs' RIMs are not: the host is asked
        // for them once the evidence verified, gets none, and no RIM round follows. Devices
        // whose nonce does not match name no RIM: nothing is asked.
        let kinds: Vec<&str> = rounds
            .iter()
            .map(|r| r.split(' ').next().unwrap())
            .collect();
        let expected: &[&str] = if request.path.contains("switch") {
            &["verify", "verify", "sign", "sign"]
        } else if now == recorded_time("v3_8gpu_success_20260629") {
            &["verify", "fetch", "sign", "sign"]
        } else {
            &["verify", "sign", "sign"]
        };
        assert_eq!(kinds, expected, "{rounds:?}");
        let devices = if request.path.contains("switch") {
            1
        } else {
            8
        };
        assert_eq!(rounds[rounds.len() - 2], format!("sign {devices}"));
        assert_eq!(rounds[rounds.len() - 1], "sign 1");
    }
}

/// The LS10 chain with one byte of certificate `index`'s signature changed: it still
/// decodes, and its link no longer verifies.
fn tampered_ls10_chain(index: usize) -> Vec<u8> {
    let pem = fixture("evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem");
    let text = String::from_utf8(pem).unwrap();
    let mut ders: Vec<Vec<u8>> = text
        .split("-----BEGIN CERTIFICATE-----")
        .skip(1)
        .map(|block| {
            let body: String = block
                .split("-----END CERTIFICATE-----")
                .next()
                .unwrap()
                .split_whitespace()
                .collect();
            STANDARD.decode(body).unwrap()
        })
        .collect();
    assert!(ders.len() > index);
    let last = ders[index].len() - 1;
    ders[index][last] ^= 1;
    ders.iter()
        .map(|der| {
            let body = STANDARD.encode(der);
            let lines: Vec<&str> = body
                .as_bytes()
                .chunks(64)
                .map(|line| core::str::from_utf8(line).unwrap())
                .collect();
            format!(
                "-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----\n",
                lines.join("\n")
            )
        })
        .collect::<String>()
        .into_bytes()
}

#[test]
fn begin_cached_gives_the_bytes_of_begin() {
    // The certificates one request decodes serve the next ones: every answer is the one a
    // service that keeps nothing gives, including for chains that differ from a kept one by
    // a byte (a changed CA signature must fail, not hit the cache).
    let plain = external();
    let mut cached = external();
    let eight = "v3_8gpu_success_20260629";
    let cases = [
        (ls10_request(), JUNE_2026),
        (recorded_request(eight), recorded_time(eight)),
        (ls10_request_with(&tampered_ls10_chain(1)), JUNE_2026),
        (ls10_request_with(&tampered_ls10_chain(2)), JUNE_2026),
        (ls10_request(), JUNE_2026),
        (recorded_request(eight), recorded_time(eight)),
    ];
    let mut overall = Vec::new();
    for (request, now) in &cases {
        let (expected, _) = drive(
            &plain,
            plain.begin(request, UnixTime::from_secs(*now).unwrap(), [7; 32]),
            &key(),
        );
        let exchange = cached.begin_cached(request, UnixTime::from_secs(*now).unwrap(), [7; 32]);
        let (response, _) = drive(&cached, exchange, &key());
        assert_eq!(response, expected, "{}", request.path);
        let result: Value = serde_json::from_slice(&response.body).unwrap();
        overall
            .push(payload(result[0][1].as_str().unwrap())["x-nvidia-overall-att-result"].clone());
    }
    // The switch passes and its tampered chains fail; the GPUs' RIMs are not held here.
    assert_eq!(
        overall,
        [true, false, false, false, true, false].map(Value::Bool)
    );
}

#[test]
fn rounds_hold_each_distinct_check_once() {
    let service = external();
    let request = recorded_request("v3_8gpu_success_20260629");
    let exchange = service.begin(
        &request,
        UnixTime::from_secs(recorded_time("v3_8gpu_success_20260629")).unwrap(),
        [1; 32],
    );
    let Step::Verify(checks) = exchange.step() else {
        panic!("the first round verifies");
    };
    // Eight evidence signatures, eight leaf links and the shared CA links once.
    assert!(
        checks.len() >= 16 && checks.len() < 8 * 5,
        "{}",
        checks.len()
    );
    for (i, a) in checks.iter().enumerate() {
        assert!(checks[i + 1..].iter().all(|b| b != a), "check {i} repeated");
    }
    // The LS10 RIM round: the document's signature and its chain's links.
    let service = external();
    let mut exchange = service.begin(
        &ls10_request(),
        UnixTime::from_secs(JUNE_2026).unwrap(),
        [1; 32],
    );
    let Step::Verify(checks) = exchange.step() else {
        panic!("evidence round");
    };
    let verdicts = vec![true; checks.len()];
    exchange.verified(&service, &verdicts).unwrap();
    let Step::Verify(rim_checks) = exchange.step() else {
        panic!("a RIM round follows");
    };
    assert!((2..=5).contains(&rim_checks.len()), "{}", rim_checks.len());
}

#[test]
fn a_false_verdict_fails_the_device_it_belongs_to() {
    let service = external();
    let now = JUNE_2026;
    // Evidence round: refuse every check → the chain does not validate.
    let mut exchange = service.begin(&ls10_request(), UnixTime::from_secs(now).unwrap(), [1; 32]);
    let Step::Verify(checks) = exchange.step() else {
        panic!()
    };
    let refused = vec![false; checks.len()];
    exchange.verified(&service, &refused).unwrap();
    let (response, rounds) = drive(&service, exchange, &key());
    assert_eq!(
        rounds,
        ["sign 1", "sign 1"],
        "no RIM round for a failed device"
    );
    let device = switch_claims(&response);
    assert_eq!(device["x-nvidia-error-details"]["code"], 4014);
    assert_eq!(device["measres"], "fail");

    // RIM round: a refused RIM signature is the real service's 5013.
    let mut exchange = service.begin(&ls10_request(), UnixTime::from_secs(now).unwrap(), [1; 32]);
    let Step::Verify(checks) = exchange.step() else {
        panic!()
    };
    let passed: Vec<bool> = checks.iter().map(|c| c.verify().is_ok()).collect();
    exchange.verified(&service, &passed).unwrap();
    let Step::Verify(rim_checks) = exchange.step() else {
        panic!()
    };
    let mut rim_verdicts: Vec<bool> = rim_checks.iter().map(|c| c.verify().is_ok()).collect();
    assert!(rim_verdicts.iter().all(|v| *v), "the real RIM verifies");
    rim_verdicts[0] = false;
    exchange.verified(&service, &rim_verdicts).unwrap();
    let (response, _) = drive(&service, exchange, &key());
    let device = switch_claims(&response);
    assert_eq!(device["x-nvidia-switch-bios-rim-signature-verified"], false);
    assert_eq!(device["x-nvidia-error-details"]["code"], 5013);
}

fn switch_claims(response: &Response) -> Value {
    assert_eq!(response.status, 200);
    let result: Value = serde_json::from_slice(&response.body).unwrap();
    assert_eq!(
        payload(result[0][1].as_str().unwrap())["x-nvidia-overall-att-result"],
        false
    );
    payload(result[1]["SWITCH-0"].as_str().unwrap())
}

#[test]
fn answers_that_do_not_fit_are_refused_and_change_nothing() {
    let service = external();
    let mut exchange = service.begin(
        &ls10_request(),
        UnixTime::from_secs(JUNE_2026).unwrap(),
        [1; 32],
    );
    let count = match exchange.step() {
        Step::Verify(checks) => checks.len(),
        step => panic!("{step:?}"),
    };
    let error = exchange.verified(&service, &[true]).unwrap_err();
    assert_eq!(
        error,
        ExchangeError::AnswerCount {
            expected: count,
            got: 1
        }
    );
    assert_eq!(error.code(), "ERR_EXCHANGE_ANSWER_COUNT");
    let error = exchange.signed(&service, &[vec![0; 96]]).unwrap_err();
    assert_eq!(error.code(), "ERR_EXCHANGE_UNEXPECTED_ANSWER");
    assert!(error.to_string().contains("verdicts"), "{error}");
    assert!(matches!(exchange.step(), Step::Verify(c) if c.len() == count));

    // Through to the device round, then malformed signatures.
    let (mut exchange, inputs) = until_signing(&service);
    assert_eq!(inputs, 1);
    for bad in [vec![1u8; 95], vec![0u8; 96], vec![0xffu8; 96]] {
        let error = exchange.signed(&service, &[bad]).unwrap_err();
        assert!(matches!(error, ExchangeError::Signature(_)), "{error:?}");
        assert_eq!(error.code(), "ERR_JWS_SIGNATURE_MALFORMED");
        assert!(matches!(exchange.step(), Step::Sign(i) if i.len() == 1));
    }
    let error = exchange.verified(&service, &[]).unwrap_err();
    assert_eq!(error.code(), "ERR_EXCHANGE_UNEXPECTED_ANSWER");

    // Done: nothing more is taken.
    let (response, _) = drive(&service, exchange, &key());
    assert_eq!(response.status, 200);
    let mut done = service.begin(
        &Request::new("GET", "/health"),
        UnixTime::from_secs(0).unwrap(),
        [0; 32],
    );
    assert!(matches!(done.step(), Step::Respond(r) if r.status == 200));
    let error = done.verified(&service, &[]).unwrap_err();
    assert_eq!(
        error,
        ExchangeError::UnexpectedAnswer {
            awaiting: "nothing"
        }
    );
}

fn until_signing(service: &Service) -> (Exchange, usize) {
    let mut exchange = service.begin(
        &ls10_request(),
        UnixTime::from_secs(JUNE_2026).unwrap(),
        [1; 32],
    );
    loop {
        match exchange.step() {
            Step::Verify(checks) => {
                let verdicts: Vec<bool> = checks.iter().map(|c| c.verify().is_ok()).collect();
                exchange.verified(service, &verdicts).unwrap();
            }
            Step::Fetch(_) => exchange.fetched_nothing(service).unwrap(),
            Step::Sign(inputs) => {
                let n = inputs.len();
                return (exchange, n);
            }
            Step::Respond(r) => panic!("{r:?}"),
        }
    }
}

#[test]
fn the_published_key_verifies_what_the_host_signed() {
    let service = external();
    let jwks_response = service.handle(
        &Request::new("GET", "/.well-known/jwks.json"),
        UnixTime::from_secs(0).unwrap(),
        [0; 32],
    );
    let jwks = Jwks::parse(&jwks_response.body).unwrap();
    assert_eq!(jwks.keys()[0].kid(), Some("kid-1"));
    assert_eq!(jwks.keys()[0].public_key(), &key().public_key());
    let request = recorded_request("v3_1gpu_success_20260629");
    let now = recorded_time("v3_1gpu_success_20260629");
    let (response, _) = drive(
        &service,
        service.begin(&request, UnixTime::from_secs(now).unwrap(), [3; 32]),
        &key(),
    );
    // No RIMs here, so the verdict is false: this test is about the signing key.
    let options = VerifyOptions::new()
        .signers(Signers::Any)
        .issuer("https://edgeattest.test")
        .allow_failed_result(true);
    let verified = verify_attestation_result(
        &response.body,
        &jwks,
        &options,
        UnixTime::from_secs(now).unwrap(),
    )
    .unwrap();
    assert_eq!(verified.devices().len(), 1);

    // A host signing with another key produces tokens the JWKS does not verify.
    let other = SigningKey::generate(&[6u8; 48]).unwrap();
    let (response, _) = drive(
        &service,
        service.begin(&request, UnixTime::from_secs(now).unwrap(), [3; 32]),
        &other,
    );
    assert_eq!(
        verify_attestation_result(
            &response.body,
            &jwks,
            &options,
            UnixTime::from_secs(now).unwrap()
        )
        .unwrap_err()
        .code(),
        "ERR_JWS_SIGNATURE_VERIFICATION_FAILED"
    );
}

#[test]
fn handle_cannot_sign_with_an_external_key_but_answers_everything_else() {
    let service = external();
    let response = service.handle(
        &ls10_request(),
        UnixTime::from_secs(JUNE_2026).unwrap(),
        [1; 32],
    );
    assert_eq!(response.status, 500);
    let body: Value = serde_json::from_slice(&response.body).unwrap();
    assert_eq!(body["code"], "ERR_SIGNING_KEY_EXTERNAL");
    assert_eq!(
        service
            .handle(
                &Request::new("GET", "/health"),
                UnixTime::from_secs(0).unwrap(),
                [0; 32]
            )
            .status,
        200
    );
    let refused = service.handle(
        &post("/v4/attest/gpu", b"{}".to_vec()),
        UnixTime::from_secs(0).unwrap(),
        [0; 32],
    );
    assert_eq!(refused.status, 400);
    // Refusals and immediate answers carry the usual headers.
    assert!(refused
        .headers
        .iter()
        .any(|(n, v)| n == "access-control-allow-origin" && v == "*"));
}

#[test]
fn v2_results_keep_their_deprecation_headers_through_an_exchange() {
    let service = external();
    let hex_text = String::from_utf8(fixture(
        "evidence/switch/nvat_ls10_96.10.55.00.01_report.hex",
    ))
    .unwrap();
    let nonce = &hex_text.trim()[8..72];
    let body = json!({
        "nonce": nonce,
        "evidences": [{
            "evidence": STANDARD.encode(hex_text.trim()),
            "certificate": STANDARD.encode(fixture("evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem")),
        }],
    });
    let request = post("/v2/attest/switch", serde_json::to_vec(&body).unwrap());
    let (response, rounds) = drive(
        &service,
        service.begin(&request, UnixTime::from_secs(JUNE_2026).unwrap(), [1; 32]),
        &key(),
    );
    assert_eq!(
        response.status,
        200,
        "{}",
        String::from_utf8_lossy(&response.body)
    );
    assert_eq!(rounds.len(), 4, "{rounds:?}");
    for header in ["deprecation", "link", "access-control-allow-origin"] {
        assert!(
            response
                .headers
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case(header)),
            "{header} in {:?}",
            response.headers
        );
    }
}

#[test]
fn the_host_is_asked_for_the_rims_of_verified_devices_only() {
    let service = Service::new(
        ServiceConfig::default(),
        KeyRing::external(key().public_key(), None),
        TrustStore::nvidia_device_identity().unwrap(),
        RimTrust::nvidia(),
        1,
    );
    // Verified evidence: the switch BIOS RIM is asked for; supplied, it is verified and used.
    let mut exchange = service.begin(
        &ls10_request(),
        UnixTime::from_secs(JUNE_2026).unwrap(),
        [1; 32],
    );
    exchange.verify_in_core(&service).unwrap();
    let resources = match exchange.step() {
        Step::Fetch(resources) => resources.to_vec(),
        step => panic!("{step:?}"),
    };
    let rims: Vec<(&str, &str)> = resources
        .iter()
        .filter_map(|resource| match resource {
            Resource::Rim { id, url, .. } => Some((id.as_str(), url.as_str())),
            _ => None,
        })
        .collect();
    let id = "NV_SWITCH_BIOS_5612_0002_890_9610550001";
    assert_eq!(
        rims,
        [(
            id,
            &*format!("https://rim.attestation.nvidia.com/v1/rim/{id}")
        )]
    );
    assert_eq!(
        exchange.verified(&service, &[]).unwrap_err().code(),
        "ERR_EXCHANGE_UNEXPECTED_ANSWER"
    );
    assert_eq!(
        exchange.fetched(&service, &[]).unwrap_err().code(),
        "ERR_EXCHANGE_ANSWER_COUNT"
    );
    // The RIM service's envelope for the RIM; nothing for the OCSP queries.
    let envelope = serde_json::json!({
        "id": id,
        "rim": STANDARD.encode(fixture(SWITCH_RIM)),
    })
    .to_string();
    let answers: Vec<Fetched> = resources
        .iter()
        .map(|resource| match resource {
            Resource::Rim { .. } => Fetched::Body(envelope.clone().into_bytes()),
            _ => Fetched::Failed(FetchFailure::NotFetched),
        })
        .collect();
    exchange.fetched(&service, &answers).unwrap();
    // Once the RIM is known, its chain is asked about: signer, L3 and CA, not the root.
    let Step::Fetch(rim_chain) = exchange.step() else {
        panic!("{:?}", exchange.step())
    };
    assert_eq!(rim_chain.len(), 3, "{rim_chain:?}");
    assert!(rim_chain.iter().all(
        |r| matches!(r, Resource::Ocsp { url, .. } if url == "https://ocsp.ndis.nvidia.com/")
    ));
    exchange.fetched_nothing(&service).unwrap();
    assert!(matches!(exchange.step(), Step::Verify(checks) if !checks.is_empty()));
    let (response, _) = drive(&service, exchange, &key());
    let result: Value = serde_json::from_slice(&response.body).unwrap();
    // The RIM was fetched and used; the OCSP queries the host left unanswered fail the
    // switch (a responder is configured): 5001, never "not checked".
    let switch = payload(result[1]["SWITCH-0"].as_str().unwrap());
    assert_eq!(switch["x-nvidia-switch-bios-rim-fetched"], true, "{switch}");
    assert_eq!(switch["x-nvidia-error-details"]["code"], 5001, "{switch}");

    // Evidence that does not verify names nothing: no fetch, the device fails.
    let service = Service::new(
        ServiceConfig::default(),
        KeyRing::external(key().public_key(), None),
        TrustStore::nvidia_device_identity().unwrap(),
        RimTrust::nvidia(),
        1,
    );
    let mut exchange = service.begin(
        &ls10_request(),
        UnixTime::from_secs(JUNE_2026).unwrap(),
        [1; 32],
    );
    let Step::Verify(checks) = exchange.step() else {
        panic!()
    };
    let refused = vec![false; checks.len()];
    exchange.verified(&service, &refused).unwrap();
    assert!(
        matches!(exchange.step(), Step::Sign(_)),
        "{:?}",
        exchange.step()
    );
    assert_eq!(
        exchange.fetched_nothing(&service).unwrap_err().code(),
        "ERR_EXCHANGE_UNEXPECTED_ANSWER"
    );
    // Without a host to ask (and no responder), handle answers with what it holds:
    // RIM_BUNDLE_NOT_FOUND.
    let software = Service::new(
        ServiceConfig {
            ocsp_url: None,
            ..ServiceConfig::default()
        },
        KeyRing::new(key(), None),
        TrustStore::nvidia_device_identity().unwrap(),
        RimTrust::nvidia(),
        1,
    );
    let response = software.handle(
        &ls10_request(),
        UnixTime::from_secs(JUNE_2026).unwrap(),
        [1; 32],
    );
    let result: Value = serde_json::from_slice(&response.body).unwrap();
    let device = payload(result[1]["SWITCH-0"].as_str().unwrap());
    assert_eq!(device["x-nvidia-error-details"]["code"], 5009);
}

#[test]
fn a_fetched_rim_must_be_the_rim_of_its_id_not_only_its_envelope() {
    let service = Service::new(
        ServiceConfig {
            ocsp_url: None,
            ..ServiceConfig::default()
        },
        KeyRing::external(key().public_key(), None),
        TrustStore::nvidia_device_identity().unwrap(),
        RimTrust::nvidia(),
        1,
    );
    let mut exchange = service.begin(
        &ls10_request(),
        UnixTime::from_secs(JUNE_2026).unwrap(),
        [1; 32],
    );
    exchange.verify_in_core(&service).unwrap();
    let Step::Fetch(resources) = exchange.step() else {
        panic!("{:?}", exchange.step())
    };
    let resources = resources.to_vec();
    // A real, validly signed GPU VBIOS RIM, in an envelope whose id is the switch BIOS id
    // asked for: the envelope matches, the document does not.
    let id = "NV_SWITCH_BIOS_5612_0002_890_9610550001";
    let envelope = serde_json::json!({
        "id": id,
        "rim": STANDARD.encode(fixture("rims/nvtrust/1010_0200_882_96005E0001_PROD.swidtag")),
    })
    .to_string();
    let answers: Vec<Fetched> = resources
        .iter()
        .map(|resource| match resource {
            Resource::Rim { .. } => Fetched::Body(envelope.clone().into_bytes()),
            _ => Fetched::Failed(FetchFailure::NotFetched),
        })
        .collect();
    exchange.fetched(&service, &answers).unwrap();
    let (response, _) = drive(&service, exchange, &key());
    let result: Value = serde_json::from_slice(&response.body).unwrap();
    let device = payload(result[1]["SWITCH-0"].as_str().unwrap());
    assert_eq!(device["measres"], "fail", "{device:#}");
    let details = &device["x-nvidia-error-details"];
    let message = details.to_string();
    assert!(
        message.contains(&format!("the RIM is not {id}")) && message.contains("other platform"),
        "{details:#}"
    );
}

#[test]
fn the_fetch_step_asks_for_corims_when_configured() {
    use edgeattest::rim::RimFormats;
    for (formats, accept) in [
        (RimFormats::Xml, "application/json"),
        (
            RimFormats::CorimPreferred,
            RimFormats::CorimPreferred.accept(),
        ),
    ] {
        let config = ServiceConfig {
            rim_formats: formats,
            ..ServiceConfig::default()
        };
        let trust = TrustStore::nvidia_device_identity().unwrap();
        let keys = KeyRing::external(key().public_key(), None);
        let service = Service::new(config, keys, trust, RimTrust::nvidia(), 1);
        let mut exchange = service.begin(
            &ls10_request(),
            UnixTime::from_secs(JUNE_2026).unwrap(),
            [1; 32],
        );
        exchange.verify_in_core(&service).unwrap();
        let Step::Fetch(resources) = exchange.step() else {
            panic!("{:?}", exchange.step())
        };
        let rim = resources
            .iter()
            .find(|r| matches!(r, Resource::Rim { .. }))
            .unwrap();
        assert!(matches!(rim, Resource::Rim { formats: f, .. } if *f == formats));
        // The host's request carries it: the resource's `accept` is its Accept header.
        let written = serde_json::to_value(rim).unwrap();
        assert_eq!(written["accept"], accept);
    }
}
