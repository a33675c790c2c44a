//! Blackwell end to end through the service (issue 16): the real GSP and FSP evidence through
//! `/v4/attest/gpu` with RIMs, claims 3.0 and 4.0; the versioned opaque data (NVDAOD) on a
//! generated device; the switch PDIs of the real PPCIE GPUs.
//!
//! No NVIDIA RIM exists for this evidence, so `tests/fixtures/generated/blackwell/generate.py`
//! made RIMs whose golden values are the evidence's own blocks, signed by a test RIM PKI shaped
//! like NVIDIA's and trusted the way a deployment adds RIM roots (besides NVIDIA's, as the
//! worker's `EDGEATTEST_RIM_TRUST_ANCHORS` does). Its `manifest.json` holds the RIM ids it
//! derived from the evidence on its own; the service must ask for exactly those.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use edgeattest::chain::TrustStore;
use edgeattest::crypto::SigningKey;
use edgeattest::evidence::Transcript;
use edgeattest::rim::{RimTrust, NVIDIA_RIM_ROOT_PEM};
use edgeattest::service::{KeyRing, Request, Resource, Service, ServiceConfig, Step};
use edgeattest::token::Signers;
use edgeattest::token::{verify_attestation_result, Jwks, VerifyOptions};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};

#[path = "blackwell/cmw_form.rs"]
mod cmw_form;
#[path = "blackwell/edited.rs"]
mod edited;
#[path = "blackwell/gb202.rs"]
mod gb202;
#[path = "blackwell/negative.rs"]
mod negative;
#[path = "blackwell/ppcie.rs"]
mod ppcie;

/// 2025-07-01T00:00:00Z: the test RIM signer is valid 2025-01-01 → 2027-01-01, its expired
/// twin 2022-06-01 → 2024-06-01; the device chains until 9999.
const NOW: UnixTime = UnixTime::from_secs(1_751_328_000).unwrap();
const ISSUER: &str = "https://edgeattest.test";

fn fixture(path: &str) -> Vec<u8> {
    let full = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn text(path: &str) -> String {
    String::from_utf8(fixture(path)).unwrap()
}

fn generated(name: &str) -> Vec<u8> {
    fixture(&format!("generated/blackwell/{name}"))
}

fn manifest(device: &str, member: &str) -> String {
    let manifest: Value = serde_json::from_slice(&generated("manifest.json")).unwrap();
    manifest[device][member].as_str().unwrap().to_string()
}

fn hex_report(path: &str) -> Vec<u8> {
    hex::decode(text(&format!("nvidia/evidence/{path}")).trim()).unwrap()
}

/// The RIM anchors as the worker builds them: NVIDIA's root, then the configured extras.
fn rim_trust() -> RimTrust {
    let extra = text("generated/blackwell/rim_root.pem");
    RimTrust::from_store(TrustStore::from_pem(&format!("{NVIDIA_RIM_ROOT_PEM}\n{extra}")).unwrap())
}

/// A service trusting `devices`, holding the generated RIM `files` under the given ids.
fn service(devices: TrustStore, rims: &[(&str, &str)]) -> Service {
    // No responder: these tests answer no OCSP query (revocation is tested in service::ocsp*).
    let config = ServiceConfig {
        issuer: Some(ISSUER.into()),
        ocsp_url: None,
        ..ServiceConfig::default()
    };
    let keys = KeyRing::new(SigningKey::generate(&[5u8; 48]).unwrap(), Some("k".into()));
    let mut service = Service::new(config, keys, devices, rim_trust(), 2);
    for (id, file) in rims {
        service.rims_mut().insert(id, generated(file));
    }
    service
}

fn nvidia_devices() -> TrustStore {
    TrustStore::nvidia_device_identity().unwrap()
}

/// One evidence item.
struct Item {
    evidence: Vec<u8>,
    chain: String,
    hint: Option<&'static str>,
}

fn gsp() -> Item {
    Item {
        evidence: hex_report("blackwell/nvat_blackwell_575.32_report.hex"),
        chain: text("nvidia/evidence/blackwell/nvat_blackwell_575.32_certchain.pem"),
        hint: None,
    }
}

fn fsp(hint: Option<&'static str>) -> Item {
    Item {
        evidence: hex_report("blackwell/nvat_blackwell_fsp_DERIVED_report.hex"),
        chain: text("nvidia/evidence/blackwell/nvat_blackwell_fsp_DERIVED_certchain.pem"),
        hint,
    }
}

/// The CMW sample's hint (`hints` member: `{"fwversion":"01.00.00.00.01"}`).
const FSP_HINT: &str = "01.00.00.00.01";

/// What one request gave: the RIM ids the exchange asked the host for, the claims.
struct Attested {
    fetched: Vec<String>,
    body: Vec<u8>,
    overall: Map<String, Value>,
    devices: Vec<Map<String, Value>>,
}

fn request(arch: &str, claims_version: &str, items: &[Item]) -> Request {
    let list: Vec<Value> = items
        .iter()
        .map(|item| {
            let mut entry = json!({
                "evidence": STANDARD.encode(&item.evidence),
                "certificate": STANDARD.encode(&item.chain),
            });
            if let Some(hint) = item.hint {
                entry["firmware_version"] = hint.into();
            }
            entry
        })
        .collect();
    let body = json!({
        "nonce": hex::encode(&items[0].evidence[4..36]),
        "arch": arch,
        "claims_version": claims_version,
        "evidence_list": list,
    });
    Request::new("POST", "/v4/attest/gpu")
        .header("content-type", "application/json")
        .body(serde_json::to_vec(&body).unwrap())
}

/// Drives the exchange as a host would, recording the RIM ids it is asked to fetch (the
/// service holds every document it can have, so each fetch is answered as done).
fn attest(service: &Service, arch: &str, claims_version: &str, items: &[Item]) -> Attested {
    attest_request(service, &request(arch, claims_version, items), items.len())
}

/// [`attest`] for any request whose result holds `devices` GPUs.
fn attest_request(service: &Service, request: &Request, devices: usize) -> Attested {
    let mut exchange = service.begin(request, NOW, [7; 32]);
    let mut fetched = Vec::new();
    loop {
        match exchange.step() {
            Step::Respond(_) => break,
            Step::Verify(_) => exchange.verify_in_core(service).unwrap(),
            Step::Fetch(resources) => {
                fetched.extend(resources.iter().filter_map(|resource| match resource {
                    Resource::Rim { id, .. } => Some(id.clone()),
                    _ => None,
                }));
                exchange.fetched_nothing(service).unwrap();
            }
            Step::Sign(_) => panic!("the service holds its key"),
        }
    }
    let response = exchange.into_response().unwrap();
    assert_eq!(
        response.status,
        200,
        "{}",
        String::from_utf8_lossy(&response.body)
    );
    let result: Value = serde_json::from_slice(&response.body).unwrap();
    let devices = (0..devices)
        .map(|i| claims(result[1][format!("GPU-{i}")].as_str().unwrap()))
        .collect();
    Attested {
        fetched,
        overall: claims(result[0][1].as_str().unwrap()),
        devices,
        body: response.body,
    }
}

fn claims(token: &str) -> Map<String, Value> {
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}

/// A RIM chain claim as the real service writes it.
fn valid_chain(expiry: &str) -> Value {
    json!({
        "x-nvidia-cert-status": "valid",
        "x-nvidia-cert-ocsp-status": "unknown",
        "x-nvidia-cert-expiration-date": expiry,
        "x-nvidia-cert-revocation-reason": null,
    })
}

/// A service trusting NVIDIA's device root, holding the FSP firmware RIM variant `file`.
fn fsp_service(file: &str) -> Service {
    let id = manifest("blackwell_fsp", "vbios");
    service(nvidia_devices(), &[(&id, &format!("{id}{file}.xml"))])
}

/// The value of SPDM measurement block `index` of a transcript.
fn block_value(evidence: &[u8], index: u8) -> Vec<u8> {
    Transcript::parse(evidence)
        .unwrap()
        .block(index)
        .unwrap()
        .value
        .clone()
}

/// The test signer's notAfter, the earliest of its chain.
const SIGNER_EXPIRY: &str = "2027-01-01T00:00:00Z";

#[test]
fn blackwell_gsp_passes_with_its_driver_and_vbios_rims() {
    let driver = manifest("blackwell_gsp", "driver");
    let vbios = manifest("blackwell_gsp", "vbios");
    let service = service(
        nvidia_devices(),
        &[
            (&driver, &format!("{driver}.xml")),
            (&vbios, &format!("{vbios}.xml")),
        ],
    );
    // The store holds both: nothing to fetch. An empty store is asked for exactly these.
    let empty = self::service(nvidia_devices(), &[]);
    assert_eq!(
        attest(&empty, "BLACKWELL", "3.0", &[gsp()]).fetched,
        [driver.clone(), vbios.clone()]
    );
    for version in ["3.0", "4.0"] {
        let attested = attest(&service, "BLACKWELL", version, &[gsp()]);
        assert!(attested.fetched.is_empty());
        assert_eq!(attested.overall["x-nvidia-overall-att-result"], true);
        assert_eq!(attested.overall["x-nvidia-ver"], version);
        let gpu = &attested.devices[0];
        assert!(gpu.get("x-nvidia-error-details").is_none(), "{gpu:?}");
        for (claim, value) in [
            ("measres", json!("success")),
            ("secboot", json!(true)),
            ("dbgstat", json!("disabled")),
            ("hwmodel", json!("GB100")),
            ("oemid", json!("5703")),
            ("x-nvidia-gpu-driver-version", json!("575.32")),
            ("x-nvidia-gpu-vbios-version", json!("97.00.88.00.0F")),
            ("x-nvidia-gpu-driver-rim-fetched", json!(true)),
            ("x-nvidia-gpu-driver-rim-signature-verified", json!(true)),
            ("x-nvidia-gpu-driver-rim-version-match", json!(true)),
            ("x-nvidia-gpu-vbios-rim-fetched", json!(true)),
            ("x-nvidia-gpu-vbios-rim-signature-verified", json!(true)),
            ("x-nvidia-gpu-vbios-rim-version-match", json!(true)),
            ("x-nvidia-gpu-vbios-index-no-conflict", json!(true)),
            (
                "x-nvidia-gpu-attestation-report-cert-chain-fwid-match",
                json!(true),
            ),
            (
                "x-nvidia-gpu-driver-rim-cert-chain",
                valid_chain(SIGNER_EXPIRY),
            ),
            (
                "x-nvidia-gpu-vbios-rim-cert-chain",
                valid_chain(SIGNER_EXPIRY),
            ),
        ] {
            assert_eq!(gpu[claim], value, "{version} {claim}");
        }
        if version == "4.0" {
            assert_eq!(gpu["x-nvidia-gpu-claims-version"], "4.0");
            assert_eq!(gpu["x-nvidia-mismatch-measurement-records"], Value::Null);
            assert_eq!(gpu["x-nvidia-attester-claims"], json!({}));
            // The report carries no switch PDIs (opaque tag 22): no claim.
            assert!(!gpu.contains_key("x-nvidia-gpu-switch-pdis"));
        }
        // An independent check of the answer: signatures, digests, nonce, issuer.
        let jwks = Jwks::parse(
            &service
                .handle(&Request::new("GET", "/.well-known/jwks.json"), NOW, [0; 32])
                .body,
        )
        .unwrap();
        let nonce = hex::encode(&gsp().evidence[4..36]);
        // Without a responder every token says revocation was not checked: a relying party
        // accepts it only when it allows unknown revocation, and is told so.
        let options = VerifyOptions::new()
            .signers(Signers::Any)
            .issuer(ISSUER)
            .nonce(&nonce);
        let refused = verify_attestation_result(&attested.body, &jwks, &options, NOW);
        assert_eq!(refused.unwrap_err().code(), "ERR_REVOCATION_UNCONFIRMED");
        let relaxed = options.allow_unknown_revocation(true);
        let verified = verify_attestation_result(&attested.body, &jwks, &relaxed, NOW).unwrap();
        assert!(verified.revocation_relaxed());
    }
}

#[test]
fn blackwell_fsp_passes_with_its_firmware_rim_alone() {
    let id = manifest("blackwell_fsp", "vbios");
    assert_eq!(manifest("blackwell_fsp", "hint"), FSP_HINT);
    // Only the firmware RIM named by hwmodel, APSKU and the hint is asked for: no driver RIM.
    // A host prefetching from the transcripts alone (before verification) names the same.
    let empty = service(nvidia_devices(), &[]);
    assert_eq!(
        empty.missing_rims(&request("BLACKWELL", "3.0", &[fsp(Some(FSP_HINT))])),
        std::slice::from_ref(&id)
    );
    assert_eq!(
        attest(&empty, "BLACKWELL", "3.0", &[fsp(Some(FSP_HINT))]).fetched,
        std::slice::from_ref(&id)
    );
    let service = fsp_service("");
    for version in ["3.0", "4.0"] {
        let attested = attest(&service, "BLACKWELL", version, &[fsp(Some(FSP_HINT))]);
        assert_eq!(attested.overall["x-nvidia-overall-att-result"], true);
        let gpu = &attested.devices[0];
        assert!(gpu.get("x-nvidia-error-details").is_none(), "{gpu:?}");
        for (claim, value) in [
            ("measres", json!("success")),
            ("secboot", json!(true)),
            ("dbgstat", json!("disabled")),
            ("hwmodel", json!("GB100")),
            // The version whose RIM matched: the hint, the evidence has no opaque data.
            ("x-nvidia-gpu-vbios-version", json!(FSP_HINT)),
            ("x-nvidia-gpu-vbios-rim-fetched", json!(true)),
            ("x-nvidia-gpu-vbios-rim-signature-verified", json!(true)),
            ("x-nvidia-gpu-vbios-rim-version-match", json!(true)),
            (
                "x-nvidia-gpu-vbios-rim-cert-chain",
                valid_chain(SIGNER_EXPIRY),
            ),
            // No driver on the FSP: no driver RIM, nothing claimed about one.
            ("x-nvidia-gpu-driver-version", Value::Null),
            ("x-nvidia-gpu-driver-rim-fetched", json!(false)),
            ("x-nvidia-gpu-driver-rim-signature-verified", Value::Null),
            ("x-nvidia-gpu-driver-rim-version-match", Value::Null),
            ("x-nvidia-gpu-driver-rim-cert-chain", Value::Null),
            ("x-nvidia-gpu-vbios-index-no-conflict", Value::Null),
            ("oemid", Value::Null),
        ] {
            assert_eq!(gpu[claim], value, "{version} {claim}");
        }
        if version == "4.0" {
            assert_eq!(gpu["x-nvidia-mismatch-measurement-records"], Value::Null);
        }
    }
}

#[test]
fn the_rim_path_follows_the_evidence_kind_not_the_request() {
    // GSP evidence sent with a firmware_version hint is still judged by its driver and VBIOS
    // RIMs: the hint names nothing for it.
    let empty = service(nvidia_devices(), &[]);
    let mut item = gsp();
    item.hint = Some(FSP_HINT);
    let attested = attest(&empty, "BLACKWELL", "3.0", &[item]);
    assert_eq!(
        attested.fetched,
        [
            manifest("blackwell_gsp", "driver"),
            manifest("blackwell_gsp", "vbios")
        ]
    );
    assert_eq!(attested.devices[0]["x-nvidia-error-details"]["code"], 5009);
    // FSP evidence without the hint: its firmware RIM cannot be named (5009), and no GSP
    // RIM is looked for in its place.
    let attested = attest(&fsp_service(""), "BLACKWELL", "3.0", &[fsp(None)]);
    assert!(attested.fetched.is_empty());
    let gpu = &attested.devices[0];
    assert_eq!(gpu["x-nvidia-error-details"]["code"], 5009);
    assert_eq!(gpu["x-nvidia-gpu-vbios-rim-fetched"], false);
    assert_eq!(gpu["x-nvidia-gpu-driver-rim-fetched"], false);
    assert_eq!(attested.overall["x-nvidia-overall-att-result"], false);
}
