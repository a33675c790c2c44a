//! Service rules on a request as a whole (issue 15): a device sent twice fails every repeat;
//! a request needing more distinct signature checks than the budget is refused before any
//! runs; the tokens' `iss` is the configured issuer or the answered request's origin.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use edgeattest::chain::TrustStore;
use edgeattest::crypto::SigningKey;
use edgeattest::rim::RimTrust;
use edgeattest::service::{
    KeyRing, Request, Response, Service, ServiceConfig, Step, DUPLICATE_DEVICE_CODE,
    MAX_SIGNATURE_CHECKS,
};
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};

const NOW: UnixTime = UnixTime::from_secs(1_790_000_000).unwrap();

fn fixture(path: &str) -> String {
    let full = format!(
        "{}/tests/fixtures/nvidia/{path}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn service(issuer: Option<&str>) -> Service {
    Service::new(
        ServiceConfig {
            issuer: issuer.map(String::from),
            ..ServiceConfig::default()
        },
        KeyRing::new(SigningKey::generate(&[4u8; 48]).unwrap(), None),
        TrustStore::nvidia_device_identity().unwrap(),
        RimTrust::nvidia(),
        1,
    )
}

/// A Hopper device: transcript bytes and PEM chain.
fn hopper(name: &str) -> (Vec<u8>, String) {
    let evidence =
        hex::decode(fixture(&format!("evidence/hopper/{name}_report.hex")).trim()).unwrap();
    (
        evidence,
        fixture(&format!("evidence/hopper/{name}_certchain.pem")),
    )
}

fn gpu_request(nonce: &[u8], items: &[(Vec<u8>, String)]) -> Request {
    let list: Vec<Value> = items
        .iter()
        .map(|(evidence, chain)| {
            json!({"evidence": STANDARD.encode(evidence), "certificate": STANDARD.encode(chain)})
        })
        .collect();
    let body = json!({
        "nonce": hex::encode(nonce), "arch": "HOPPER", "claims_version": "3.0",
        "evidence_list": list,
    });
    Request::new("POST", "/v4/attest/gpu").body(serde_json::to_vec(&body).unwrap())
}

fn claims(token: &str) -> Map<String, Value> {
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}

fn tokens(response: &Response) -> (Map<String, Value>, Vec<Map<String, Value>>) {
    assert_eq!(
        response.status,
        200,
        "{}",
        String::from_utf8_lossy(&response.body)
    );
    let result: Value = serde_json::from_slice(&response.body).unwrap();
    let devices = result[1].as_object().unwrap();
    let list = (0..devices.len())
        .map(|i| claims(devices[&format!("GPU-{i}")].as_str().unwrap()))
        .collect();
    (claims(result[0][1].as_str().unwrap()), list)
}

fn error_code(device: &Map<String, Value>) -> Option<u64> {
    device
        .get("x-nvidia-error-details")
        .and_then(|d| d["code"].as_u64())
}

#[test]
fn a_device_sent_twice_fails_every_repeat() {
    // 545.00 and 550.90.07 are two different GPUs with different nonces; the 545.00 one
    // alone fails only for its missing RIMs (5009), never as a repeat.
    let (evidence, chain) = hopper("gonvtrust_hopper_545.00");
    let nonce = evidence[4..36].to_vec();
    let svc = service(Some("https://edgeattest.test"));

    let single = tokens(&svc.handle(
        &gpu_request(&nonce, &[(evidence.clone(), chain.clone())]),
        NOW,
        [1; 32],
    ));
    assert_ne!(
        error_code(&single.1[0]),
        Some(u64::from(DUPLICATE_DEVICE_CODE))
    );

    // The same bytes three times: the first is judged as alone, both repeats fail.
    let item = (evidence.clone(), chain.clone());
    let (overall, devices) = tokens(&svc.handle(
        &gpu_request(&nonce, &[item.clone(), item.clone(), item]),
        NOW,
        [1; 32],
    ));
    assert_eq!(error_code(&devices[0]), error_code(&single.1[0]));
    for repeat in &devices[1..] {
        let details = &repeat["x-nvidia-error-details"];
        assert_eq!(details["code"], DUPLICATE_DEVICE_CODE, "{details}");
        assert_eq!(details["message"], "DUPLICATE_DEVICE");
        assert!(details["description"].as_str().unwrap().contains("item 0"));
    }
    assert_eq!(overall["x-nvidia-overall-att-result"], false);

    // The same GPU (same leaf serial, the ueid) with other bytes: a trailing PEM comment in
    // the chain and the evidence unchanged would be the same bytes; here the chain text
    // differs (extra newline), the evidence is byte-identical — and a repeat by ueid only:
    // the evidence re-encoded cannot change its bytes, so change the chain's.
    let (overall, devices) = tokens(&svc.handle(
        &gpu_request(
            &nonce,
            &[
                (evidence.clone(), chain.clone()),
                (evidence, format!("\n{chain}")),
            ],
        ),
        NOW,
        [1; 32],
    ));
    assert_eq!(
        error_code(&devices[1]),
        Some(u64::from(DUPLICATE_DEVICE_CODE))
    );
    assert_eq!(devices[0]["ueid"], devices[1]["ueid"]);
    assert_eq!(overall["x-nvidia-overall-att-result"], false);
}

#[test]
fn a_repeat_by_ueid_alone_fails() {
    // Two transcripts of one GPU: the real 550.90.07 evidence and the same transcript with a
    // different (invalid) signature — different bytes, same leaf serial.
    let (evidence, chain) = hopper("nvtrust_hopper_550.90.07");
    let nonce = evidence[4..36].to_vec();
    let mut other = evidence.clone();
    let last = other.len() - 1;
    other[last] ^= 1;
    let svc = service(Some("https://edgeattest.test"));
    let (_, devices) = tokens(&svc.handle(
        &gpu_request(&nonce, &[(evidence, chain.clone()), (other, chain)]),
        NOW,
        [1; 32],
    ));
    assert_eq!(devices[0]["ueid"], devices[1]["ueid"]);
    assert_eq!(
        error_code(&devices[1]),
        Some(u64::from(DUPLICATE_DEVICE_CODE))
    );
    assert_ne!(
        error_code(&devices[0]),
        Some(u64::from(DUPLICATE_DEVICE_CODE))
    );
}

/// The chain with each certificate's signature altered by `salt` (its last byte): still
/// DER, still path-building to the NVIDIA root, but each link a check of its own.
fn salted_chain(chain: &str, salt: u8) -> String {
    let mut out = String::new();
    for block in chain
        .split("-----END CERTIFICATE-----")
        .filter(|b| b.contains("BEGIN"))
    {
        let body: String = block
            .split("-----BEGIN CERTIFICATE-----")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .collect();
        let mut der = STANDARD.decode(body).unwrap();
        let last = der.len() - 1;
        der[last] ^= salt;
        out.push_str("-----BEGIN CERTIFICATE-----\n");
        let text = STANDARD.encode(&der);
        for line in text.as_bytes().chunks(64) {
            out.push_str(std::str::from_utf8(line).unwrap());
            out.push('\n');
        }
        out.push_str("-----END CERTIFICATE-----\n");
    }
    out
}

#[test]
fn signature_checks_past_the_budget_are_refused_before_any_runs() {
    let (evidence, chain) = hopper("nvtrust_hopper_550.90.07");
    let nonce = evidence[4..36].to_vec();
    let svc = service(Some("https://edgeattest.test"));
    // 64 items, each with every link and the evidence signature its own: 5 checks each.
    let hostile: Vec<(Vec<u8>, String)> = (1..=64u8)
        .map(|salt| {
            let mut forged = evidence.clone();
            let last = forged.len() - 1;
            forged[last] ^= salt;
            (forged, salted_chain(&chain, salt))
        })
        .collect();
    let request = gpu_request(&nonce, &hostile);
    let exchange = svc.begin(&request, NOW, [2; 32]);
    let Step::Respond(response) = exchange.step() else {
        panic!("the request was not refused: {:?}", exchange.step());
    };
    assert_eq!(response.status, 400);
    let body: Value = serde_json::from_slice(&response.body).unwrap();
    assert_eq!(body["code"], "ERR_REQUEST_SIGNATURE_BUDGET", "{body}");
    assert_eq!(body["field"], "evidence_list");

    // Within the budget: the same forged items, as many as fit, are planned and run.
    let fitting = MAX_SIGNATURE_CHECKS / 5;
    let exchange = svc.begin(&gpu_request(&nonce, &hostile[..fitting]), NOW, [2; 32]);
    match exchange.step() {
        Step::Verify(checks) => assert_eq!(checks.len(), fitting * 5),
        step => panic!("{step:?}"),
    }
    // 64 real-shaped devices sharing their CAs (3 checks each + 2 shared) fit.
    let honest: Vec<(Vec<u8>, String)> = (1..=64u8)
        .map(|salt| {
            let mut forged = evidence.clone();
            let last = forged.len() - 1;
            forged[last] ^= salt;
            let chain_salted = salted_chain(&chain, salt);
            // Only the leaf and BROM links differ per device, as on real hardware.
            let own: Vec<&str> = chain_salted
                .split_inclusive("-----END CERTIFICATE-----\n")
                .take(2)
                .collect();
            let shared: Vec<&str> = chain
                .split_inclusive("-----END CERTIFICATE-----")
                .skip(2)
                .collect();
            (forged, format!("{}{}", own.concat(), shared.concat()))
        })
        .collect();
    let exchange = svc.begin(&gpu_request(&nonce, &honest), NOW, [2; 32]);
    match exchange.step() {
        Step::Verify(checks) => assert_eq!(checks.len(), 64 * 3 + 2),
        step => panic!("{step:?}"),
    }
}

fn iss_of(response: &Response) -> String {
    tokens(response).0["iss"].as_str().unwrap().to_owned()
}

#[test]
fn the_issuer_is_configured_or_the_answered_requests_origin() {
    let (evidence, chain) = hopper("nvtrust_hopper_550.90.07");
    let nonce = evidence[4..36].to_vec();
    let request = gpu_request(&nonce, &[(evidence, chain)]);

    // No issuer configured: each request's own origin, never an earlier request's.
    let open = service(None);
    let first = open.handle(&request.clone().origin("https://a.example"), NOW, [1; 32]);
    let second = open.handle(&request.clone().origin("https://b.example"), NOW, [1; 32]);
    assert_eq!(iss_of(&first), "https://a.example");
    assert_eq!(iss_of(&second), "https://b.example");
    // A configured issuer wins over any origin.
    let pinned = service(Some("https://attest.example"));
    let answer = pinned.handle(
        &request.clone().origin("https://evil.example"),
        NOW,
        [1; 32],
    );
    assert_eq!(iss_of(&answer), "https://attest.example");

    // Neither: a coded 500 before any work; an unusable origin: a 400 naming Host.
    let refused = open.handle(&request, NOW, [1; 32]);
    assert_eq!(refused.status, 500);
    let body: Value = serde_json::from_slice(&refused.body).unwrap();
    assert_eq!(body["code"], "ERR_NO_ISSUER");
    for origin in [
        "ftp://a.example",
        "https://",
        "https://a.example/",
        "https://a b",
        "https://a.example?x",
    ] {
        let refused = open.handle(&request.clone().origin(origin), NOW, [1; 32]);
        let body: Value = serde_json::from_slice(&refused.body).unwrap();
        assert_eq!(
            (refused.status, body["code"].as_str()),
            (400, Some("ERR_REQUEST_ORIGIN_INVALID")),
            "{origin}"
        );
    }
    let misconfigured = service(Some("attest.example"));
    let refused = misconfigured.handle(&request.clone().origin("https://a.example"), NOW, [1; 32]);
    let body: Value = serde_json::from_slice(&refused.body).unwrap();
    assert_eq!(
        (refused.status, body["code"].as_str()),
        (500, Some("ERR_ISSUER_INVALID"))
    );
}
