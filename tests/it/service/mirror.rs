//! The verified RIM mirror (`GET /v1/rim/<id>`, `/v1/rim/ids`): NVIDIA's RIM service shapes,
//! compared member by member with the recorded answers (`tests/fixtures/nvidia/rim-service/`),
//! and only documents that verify now are served or handed to the host to keep — never a
//! tampered, expired or misnamed one, held or fetched; an exchange hands out only the
//! envelopes it verified (`Exchange::verified_rims`).
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::chain::TrustStore;
use edgeattest::crypto::SigningKey;
use edgeattest::rim::RimTrust;
use edgeattest::service::{
    mirror_rim_key, FetchFailure, Fetched, KeyRing, Request, Resource, Response, Service,
    ServiceConfig, Step, RIM_MIRROR_SECONDS,
};
use edgeattest::UnixTime;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

#[path = "../../common/ocsp_responder.rs"]
mod ocsp_responder;
use ocsp_responder::read;

const SWITCH_RIM: &str = "NV_SWITCH_BIOS_5612_0002_890_9610550001";
const SWITCH_XML: &str =
    "nvidia/rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml";
/// NVIDIA's LS10 RIM with its signature broken (NVAT's fixture).
const TAMPERED_XML: &str =
    "nvidia/rims/nvat/NV_SWITCH_BIOS_5612_0002_890_9610550001_invalid_signature.xml";
/// 2026-07-01: NVIDIA's LS10 RIM (signer chain 2026-05-20 → 2027-11-02) is valid.
const NOW: UnixTime = UnixTime::from_secs(1_782_864_000).unwrap();
/// 2028-01-01: its chain has expired.
const AFTER_EXPIRY: UnixTime = UnixTime::from_secs(1_830_297_600).unwrap();
const RIM_SERVICE: &str = "https://rim.example/v1/rim/";

fn service(rim_service_url: Option<&str>, held: &[(&str, &str)]) -> Service {
    let config = ServiceConfig {
        rim_service_url: rim_service_url.map(String::from),
        ocsp_url: None,
        issuer: Some("https://attest.example".into()),
        ..ServiceConfig::default()
    };
    let mut service = Service::new(
        config,
        KeyRing::new(SigningKey::generate(&[5u8; 48]).unwrap(), None),
        TrustStore::from_pem(edgeattest::chain::NVIDIA_DEVICE_IDENTITY_CA_PEM).unwrap(),
        RimTrust::nvidia(),
        1,
    );
    for (name, path) in held {
        service
            .rims_mut()
            .insert_named(name, read(path).into_bytes())
            .unwrap();
    }
    service
}

/// The RIM service's envelope of `xml` under `id`, as NVIDIA's service answers.
fn envelope(id: &str, xml: &[u8]) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "id": id,
        "rim": STANDARD.encode(xml),
        "sha256": hex::encode(Sha256::digest(xml)),
        "last_updated": "2026-05-21T10:00:00.000000",
        "rim_format": "TCG",
        "request_id": "0b5c1f3e-9a4d-4e1b-8c2d-3f6a7b8c9d0e",
    }))
    .unwrap()
}

/// The top-level member names of a JSON object, in the order of the text.
fn member_order(body: &[u8]) -> Vec<String> {
    let value: Value = serde_json::from_slice(body).unwrap();
    let text = std::str::from_utf8(body).unwrap();
    let mut names: Vec<(usize, String)> = value
        .as_object()
        .unwrap()
        .keys()
        .map(|name| (text.find(&format!("\"{name}\":")).unwrap(), name.clone()))
        .collect();
    names.sort();
    names.into_iter().map(|(_, name)| name).collect()
}

fn json_of(response: &Response) -> Value {
    serde_json::from_slice(&response.body).unwrap()
}

fn header<'a>(response: &'a Response, name: &str) -> Option<&'a str> {
    response
        .headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

fn is_uuid_shaped(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.iter().map(|g| g.len()).collect::<Vec<_>>() == [8, 4, 4, 4, 12]
        && text.bytes().all(|b| b == b'-' || b.is_ascii_hexdigit())
}

fn get(service: &Service, path: &str, now: UnixTime) -> Response {
    service.handle(&Request::new("GET", path), now, [3; 32])
}

#[test]
fn an_envelope_has_the_recorded_answers_members_in_order_and_encoding() {
    let recorded = read("nvidia/rim-service/rim_cx7_28.39.4082-LTS_MCX713104AC-ADA.json");
    let recorded_members = member_order(recorded.as_bytes());
    let xml = read(SWITCH_XML).into_bytes();

    // Held by the service: everything the recorded answer has but `last_updated`, which
    // only the RIM service knows.
    let held = service(None, &[(SWITCH_RIM, SWITCH_XML)]);
    let response = get(&held, &format!("/v1/rim/{SWITCH_RIM}"), NOW);
    assert_eq!(response.status, 200);
    assert_eq!(header(&response, "content-type"), Some("application/json"));
    let without_last_updated: Vec<String> = recorded_members
        .iter()
        .filter(|name| *name != "last_updated")
        .cloned()
        .collect();
    assert_eq!(member_order(&response.body), without_last_updated);

    // Fetched from the RIM service: every member of the recorded answer, in its order.
    let fetched = service(Some(RIM_SERVICE), &[]);
    let answer = fetched.mirror_rim(SWITCH_RIM, Some(&envelope(SWITCH_RIM, &xml)), NOW, [9; 16]);
    assert_eq!(answer.response.status, 200);
    assert_eq!(member_order(&answer.response.body), recorded_members);

    for body in [json_of(&response), json_of(&answer.response)] {
        assert_eq!(body["id"], SWITCH_RIM);
        assert_eq!(STANDARD.decode(body["rim"].as_str().unwrap()).unwrap(), xml);
        assert_eq!(body["sha256"], hex::encode(Sha256::digest(&xml)));
        assert_eq!(body["rim_format"], "TCG");
        assert!(
            is_uuid_shaped(body["request_id"].as_str().unwrap()),
            "{body}"
        );
    }
    let recorded: Value = serde_json::from_str(&recorded).unwrap();
    assert!(is_uuid_shaped(recorded["request_id"].as_str().unwrap()));
    assert_eq!(
        json_of(&answer.response)["last_updated"],
        "2026-05-21T10:00:00.000000"
    );
}

#[test]
fn the_ids_list_has_the_recorded_shape() {
    let recorded = read("nvidia/rim-service/ids.json");
    let service = service(
        None,
        &[
            (SWITCH_RIM, SWITCH_XML),
            (
                "NV_GPU_DRIVER_GH100_550.144.03",
                "nvidia/rims/nvat/NV_GPU_DRIVER_GH100_550.144.03.xml",
            ),
        ],
    );
    let response = get(&service, "/v1/rim/ids", NOW);
    assert_eq!(response.status, 200);
    assert_eq!(header(&response, "content-type"), Some("application/json"));
    // The recorded list's members, but `last_updated` (the RIM service's own date).
    assert_eq!(member_order(&response.body), ["ids", "request_id"]);
    assert_eq!(
        member_order(recorded.as_bytes()),
        ["ids", "request_id", "last_updated"]
    );
    let body = json_of(&response);
    assert_eq!(
        body["ids"],
        json!(["NV_GPU_DRIVER_GH100_550.144.03", SWITCH_RIM])
    );
    assert!(is_uuid_shaped(body["request_id"].as_str().unwrap()));
}

#[test]
fn an_unknown_id_is_a_404_with_the_error_body() {
    let service = service(None, &[(SWITCH_RIM, SWITCH_XML)]);
    for path in [
        "/v1/rim/NV_GPU_DRIVER_GH100_999.99.99",
        "/v1/rim/not%20an%20id",
    ] {
        let response = get(&service, path, NOW);
        assert_eq!(response.status, 404, "{path}");
        assert_eq!(header(&response, "content-type"), Some("application/json"));
        let body = json_of(&response);
        assert_eq!(body["code"], "ERR_RIM_NOT_MIRRORED", "{path}");
        assert_eq!(body["status"], 404);
    }
    let post = service.handle(
        &Request::new("POST", &format!("/v1/rim/{SWITCH_RIM}")),
        NOW,
        [3; 32],
    );
    assert_eq!(post.status, 405);
}

#[test]
fn a_held_document_that_does_not_verify_now_is_never_served() {
    // Broken signature, held under the id it names.
    let tampered = service(None, &[(SWITCH_RIM, TAMPERED_XML)]);
    let response = get(&tampered, &format!("/v1/rim/{SWITCH_RIM}"), NOW);
    assert_eq!(response.status, 404);
    assert_eq!(json_of(&response)["code"], "ERR_RIM_NOT_MIRRORED");

    // A good document whose signer chain has expired.
    let good = service(None, &[(SWITCH_RIM, SWITCH_XML)]);
    assert_eq!(
        get(&good, &format!("/v1/rim/{SWITCH_RIM}"), NOW).status,
        200
    );
    assert_eq!(
        get(&good, &format!("/v1/rim/{SWITCH_RIM}"), AFTER_EXPIRY).status,
        404
    );

    // A good document held under another id is not that id's RIM.
    let misnamed = service(
        None,
        &[("NV_SWITCH_BIOS_5612_0002_890_9610550002", SWITCH_XML)],
    );
    let response = get(
        &misnamed,
        "/v1/rim/NV_SWITCH_BIOS_5612_0002_890_9610550002",
        NOW,
    );
    assert_eq!(response.status, 404);
}

#[test]
fn a_fetched_envelope_is_served_and_kept_only_when_it_verifies() {
    let service = service(Some(RIM_SERVICE), &[]);
    let xml = read(SWITCH_XML).into_bytes();

    // Nothing held: the core names the configured RIM service, nothing else.
    let missing = service.mirror_rim(SWITCH_RIM, None, NOW, [1; 16]);
    assert_eq!(missing.response.status, 404);
    assert_eq!(
        missing.fetch.as_deref(),
        Some(&*format!("{RIM_SERVICE}{SWITCH_RIM}"))
    );
    assert_eq!(missing.store, None);

    // A good envelope: served, and kept until the chain expires at the latest.
    let body = envelope(SWITCH_RIM, &xml);
    let good = service.mirror_rim(SWITCH_RIM, Some(&body), NOW, [1; 16]);
    assert_eq!(good.response.status, 200);
    let store = good.store.expect("a verified envelope is kept");
    assert_eq!(
        (store.id.as_str(), store.body.as_slice()),
        (SWITCH_RIM, body.as_slice())
    );
    assert!(store.until > NOW && store.until <= NOW.saturating_add(RIM_MIRROR_SECONDS));
    assert_eq!(
        mirror_rim_key(SWITCH_RIM),
        format!("mirror-rim:{SWITCH_RIM}")
    );
    assert_eq!(good.fetch, None);

    // Tampered upstream: a broken signature, a digest that does not match, another id's
    // document, an expired chain — never served, never kept, nothing more to fetch.
    let tampered_xml = read(TAMPERED_XML).into_bytes();
    let mut wrong_digest: Value = serde_json::from_slice(&body).unwrap();
    wrong_digest["sha256"] = json!(hex::encode(Sha256::digest(b"other")));
    let cases: Vec<(&str, Vec<u8>, UnixTime)> = vec![
        ("broken signature", envelope(SWITCH_RIM, &tampered_xml), NOW),
        (
            "sha256 mismatch",
            serde_json::to_vec(&wrong_digest).unwrap(),
            NOW,
        ),
        (
            "another id",
            envelope("NV_SWITCH_BIOS_5612_0002_890_9610550002", &xml),
            NOW,
        ),
        ("expired chain", body.clone(), AFTER_EXPIRY),
        ("not JSON", b"<html>".to_vec(), NOW),
    ];
    for (what, body, now) in cases {
        let answer = service.mirror_rim(SWITCH_RIM, Some(&body), now, [1; 16]);
        assert_eq!(answer.response.status, 404, "{what}");
        assert_eq!(answer.store, None, "{what}");
        assert_eq!(answer.fetch, None, "{what}");
    }
}

/// Runs an LS10 attestation whose RIM is fetched: the RIM service answers `rim_body`.
fn attest_fetching(service: &Service, rim_body: &[u8]) -> edgeattest::service::Exchange {
    let request = ocsp_responder::ls10_request();
    let mut exchange = service.begin(&request, NOW, [7; 32]);
    let mut asked = 0;
    loop {
        match exchange.step() {
            Step::Respond(_) => break,
            Step::Verify(_) => exchange.verify_in_core(service).unwrap(),
            Step::Fetch(resources) => {
                let answers: Vec<Fetched> = resources
                    .iter()
                    .map(|resource| match resource {
                        Resource::Rim { id, .. } if id == SWITCH_RIM => {
                            asked += 1;
                            Fetched::Body(rim_body.to_vec())
                        }
                        _ => Fetched::Failed(FetchFailure::NotFetched),
                    })
                    .collect();
                exchange.fetched(service, &answers).unwrap();
            }
            Step::Sign(_) => panic!("the service holds its key"),
        }
    }
    assert_eq!(asked, 1, "the RIM is fetched once");
    exchange
}

#[test]
fn an_exchange_hands_out_only_the_envelopes_it_verified() {
    let service = service(Some(RIM_SERVICE), &[]);
    let xml = read(SWITCH_XML).into_bytes();
    let body = envelope(SWITCH_RIM, &xml);
    let exchange = attest_fetching(&service, &body);
    let verified = exchange.verified_rims();
    assert_eq!(verified.len(), 1);
    assert_eq!(verified[0].id, SWITCH_RIM);
    assert_eq!(
        verified[0].body, body,
        "the envelope as fetched, bytes intact"
    );
    assert!(verified[0].until > NOW);
    // What the host keeps, the mirror serves.
    let served = service.mirror_rim(SWITCH_RIM, Some(&verified[0].body), NOW, [2; 16]);
    assert_eq!(served.response.status, 200);

    // A tampered upstream RIM: the attestation fails its RIM, and nothing is handed out.
    let tampered = envelope(SWITCH_RIM, &read(TAMPERED_XML).into_bytes());
    let exchange = attest_fetching(&service, &tampered);
    assert!(exchange.verified_rims().is_empty());
    let response = exchange.into_response().unwrap();
    assert_eq!(response.status, 200, "the verdict is in the token");
}
