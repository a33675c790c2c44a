//! The service end to end (natively): recorded real exchanges replayed at their recorded time,
//! our answers verified with our JWKS, device claims compared with the real service's.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use edgeattest::chain::TrustStore;
use edgeattest::crypto::SigningKey;
use edgeattest::rim::RimTrust;
use edgeattest::service::{
    KeyRing, Request, Response, Service, ServiceConfig, Source, SourceState, REVOCATION_WARNING,
};
use edgeattest::token::Signers;
use edgeattest::token::{verify_attestation_result, Jwks, VerifyOptions};
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};

const ISSUER: &str = "https://edgeattest.test";

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/fixtures/nvidia/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn fixture_json(path: &str) -> Value {
    serde_json::from_slice(&fixture(path)).unwrap()
}

/// The service without a responder: these tests answer no OCSP query (revocation is tested
/// in `service::ocsp*`).
fn service() -> Service {
    service_with_ocsp(None)
}

fn service_with_ocsp(ocsp_url: Option<String>) -> Service {
    let keys = KeyRing::new(
        SigningKey::generate(&[9u8; 48]).unwrap(),
        Some("test-kid".into()),
    );
    let config = ServiceConfig {
        issuer: Some(ISSUER.into()),
        ocsp_url,
        ..ServiceConfig::default()
    };
    let mut service = Service::new(
        config,
        keys,
        TrustStore::nvidia_device_identity().unwrap(),
        RimTrust::nvidia(),
        1,
    );
    let rims = service.rims_mut();
    rims.insert_named(
        "NV_SWITCH_BIOS_5612_0002_890_9610550001.xml",
        fixture("rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml"),
    )
    .unwrap();
    rims.insert_named(
        "1010_0200_882_96005E0001_PROD.swidtag",
        fixture("rims/nvtrust/1010_0200_882_96005E0001_PROD.swidtag"),
    )
    .unwrap();
    service
}

fn post(service: &Service, path: &str, body: &[u8], now: u64) -> Response {
    let request = Request::new("POST", path)
        .header("content-type", "application/json")
        .body(body.to_vec());
    service.handle(&request, UnixTime::from_secs(now).unwrap(), [42u8; 32])
}

fn jwks(service: &Service) -> Jwks {
    let response = service.handle(
        &Request::new("GET", "/.well-known/jwks.json"),
        UnixTime::from_secs(0).unwrap(),
        [0; 32],
    );
    assert_eq!(response.status, 200);
    Jwks::parse(&response.body).unwrap()
}

fn claims(token: &str) -> Map<String, Value> {
    serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(token.split('.').nth(1).unwrap())
            .unwrap(),
    )
    .unwrap()
}

fn recorded_time(response: &Value) -> u64 {
    claims(response[0][1].as_str().unwrap())["iat"]
        .as_u64()
        .unwrap()
}

/// Claims that depend on the time of issue, the issuer, or on RIM documents we lack.
const TIMES: [&str; 5] = ["iss", "iat", "nbf", "exp", "jti"];

#[test]
fn recorded_v3_exchanges_replay_with_the_same_device_claims() {
    for name in ["v3_1gpu_success_20260629", "v3_8gpu_success_20260629"] {
        let recorded = fixture_json(&format!("nras/teep/{name}_response.json"));
        let now = recorded_time(&recorded);
        let service = service();
        let response = post(
            &service,
            "/v3/attest/gpu",
            &fixture(&format!("nras/teep/{name}_request.json")),
            now,
        );
        assert_eq!(
            response.status,
            200,
            "{}",
            String::from_utf8_lossy(&response.body)
        );
        let ours: Value = serde_json::from_slice(&response.body).unwrap();

        // An independent check of our own answer: signatures, digests, nonce, times.
        let nonce = claims(recorded[0][1].as_str().unwrap())["eat_nonce"]
            .as_str()
            .unwrap()
            .to_string();
        // The replay has no RIMs, so some verdicts are false: read them, do not refuse them.
        let options = VerifyOptions::new()
            .signers(Signers::Any)
            .issuer(ISSUER)
            .nonce(&nonce)
            .allow_failed_result(true);
        let verified = verify_attestation_result(
            &response.body,
            &jwks(&service),
            &options,
            UnixTime::from_secs(now).unwrap(),
        )
        .unwrap();
        assert_eq!(
            verified.devices().len(),
            recorded[1].as_object().unwrap().len()
        );

        let overall = claims(ours[0][1].as_str().unwrap());
        assert_eq!(overall["x-nvidia-ver"], "2.0");
        assert_eq!(overall["eat_nonce"], nonce.as_str());
        for (label, token) in recorded[1].as_object().unwrap() {
            let real = claims(token.as_str().unwrap());
            let mine = claims(ours[1][label].as_str().unwrap());
            // Without RIMs a device fails with 5009, which claims 2.0 name with its remedy in
            // `x-nvidia-error-details` (NVIDIA's passing tokens have none): the rest is the same set.
            if let Some(error) = mine.get("x-nvidia-error-details") {
                assert_eq!(error["code"], 5009, "{name} {label}: {error}");
            }
            assert_eq!(
                mine.keys()
                    .filter(|claim| *claim != "x-nvidia-error-details")
                    .count(),
                real.len(),
                "{name} {label}: same claim set size"
            );
            for (claim, value) in &real {
                if TIMES.contains(&claim.as_str()) {
                    continue;
                }
                let rim_dependent = claim.contains("-rim-")
                    || matches!(
                        claim.as_str(),
                        "measres"
                            | "secboot"
                            | "dbgstat"
                            | "oemid"
                            | "x-nvidia-gpu-vbios-index-no-conflict"
                            | "x-nvidia-attestation-warning"
                    );
                if rim_dependent {
                    assert!(mine.contains_key(claim), "{name} {label}: {claim} present");
                } else {
                    assert_eq!(mine.get(claim), Some(value), "{name} {label}: {claim}");
                }
            }
            assert_eq!(mine["x-nvidia-attestation-warning"], REVOCATION_WARNING);
        }
    }
}

#[test]
fn recorded_nonce_mismatch_fails_the_same_way() {
    let name = "v3_8gpu_nonce_mismatch_20260520";
    let recorded = fixture_json(&format!("nras/teep/{name}_response.json"));
    let now = recorded_time(&recorded);
    let service = service();
    let response = post(
        &service,
        "/v3/attest/gpu",
        &fixture(&format!("nras/teep/{name}_request.json")),
        now,
    );
    assert_eq!(response.status, 200);
    let ours: Value = serde_json::from_slice(&response.body).unwrap();
    assert_eq!(
        claims(ours[0][1].as_str().unwrap())["x-nvidia-overall-att-result"],
        false
    );
    for (label, token) in recorded[1].as_object().unwrap() {
        let real = claims(token.as_str().unwrap());
        let mine = claims(ours[1][label].as_str().unwrap());
        assert_eq!(
            mine.keys().collect::<std::collections::BTreeSet<_>>(),
            real.keys().collect(),
            "{label}"
        );
        assert_eq!(
            mine["x-nvidia-error-details"], real["x-nvidia-error-details"],
            "{label}"
        );
    }
}

fn hex_evidence(path: &str) -> Vec<u8> {
    hex::decode(String::from_utf8(fixture(path)).unwrap().trim()).unwrap()
}

fn v4_body(arch: &str, evidence: &str, chain: &str, nonce: &str, claims_version: &str) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "nonce": nonce,
        "arch": arch,
        "claims_version": claims_version,
        "evidence_list": [{
            "evidence": STANDARD.encode(hex_evidence(evidence)),
            "certificate": STANDARD.encode(fixture(chain)),
        }],
    }))
    .unwrap()
}

/// The LS10 pair: the fixtures hold the RIM, so every claim is compared. The bundled RIM is
/// a later re-signing of the document the real service used (its L4 signer is valid from
/// 2026-05-20, after the recorded token of 2025-06-28), so at the recorded time its chain is
/// not yet valid; one month after the re-signing everything matches.
#[test]
fn ls10_claims_3_0_equal_the_real_staging_token() {
    let recorded = fixture_json("nras/nvat/switch_decoded.json")["SWITCH-0"]
        .as_object()
        .unwrap()
        .clone();
    let body = v4_body(
        "LS10",
        "evidence/switch/nvat_ls10_96.10.55.00.01_report.hex",
        "evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem",
        recorded["eat_nonce"].as_str().unwrap(),
        "3.0",
    );
    let service = service();
    let recorded_at = recorded["iat"].as_u64().unwrap();
    let after_resigning = 1_780_272_000; // 2026-06-01
    for now in [recorded_at, after_resigning] {
        let response = post(&service, "/v4/attest/switch", &body, now);
        assert_eq!(response.status, 200);
        let ours: Value = serde_json::from_slice(&response.body).unwrap();
        let mine = claims(ours[1]["SWITCH-0"].as_str().unwrap());
        let signer_valid = now == after_resigning;
        assert_eq!(
            claims(ours[0][1].as_str().unwrap())["x-nvidia-overall-att-result"],
            signer_valid
        );
        for (claim, value) in &recorded {
            match claim.as_str() {
                _ if TIMES.contains(&claim.as_str()) => {}
                // Documented differences: revocation is not checked (OCSP "unknown" and a
                // warning), and hwmodel is the chip name, as the service writes it since 2026.
                "x-nvidia-switch-attestation-report-cert-chain" => {
                    let mut expected = value.clone();
                    expected["x-nvidia-cert-ocsp-status"] = json!("unknown");
                    assert_eq!(mine[claim], expected, "{claim}");
                }
                "x-nvidia-switch-bios-rim-cert-chain" => {
                    let status = if signer_valid { "valid" } else { "invalid" };
                    let expected = json!({
                        "x-nvidia-cert-status": status,
                        "x-nvidia-cert-ocsp-status": "unknown",
                        // The re-signed chain's earliest notAfter (its L3 CA).
                        "x-nvidia-cert-expiration-date": "2027-11-02T23:59:59Z",
                        "x-nvidia-cert-revocation-reason": null,
                    });
                    assert_eq!(mine[claim], expected, "{claim}");
                }
                "x-nvidia-attestation-warning" => assert_eq!(mine[claim], REVOCATION_WARNING),
                "hwmodel" => assert_eq!(mine[claim], "LS_10"),
                "measres" | "secboot" | "dbgstat" if !signer_valid => {
                    assert_eq!(
                        mine[claim],
                        if claim == "measres" {
                            json!("fail")
                        } else {
                            Value::Null
                        }
                    );
                }
                _ => assert_eq!(mine.get(claim), Some(value), "{claim}"),
            }
        }
        // The one documented addition: NVIDIA's SDK's protected-PCIe members, which this
        // switch's evidence carries (its own PDI, tag 22; its GPUs' PDIs, tag 26) and the
        // recorded staging token does not.
        assert_eq!(mine["x-nvidia-switch-pdi"].as_str().map(str::len), Some(16));
        assert!(!mine["x-nvidia-switch-gpu-pdis"]
            .as_array()
            .unwrap()
            .is_empty());
        let added = 2;
        if signer_valid {
            assert_eq!(mine.len(), recorded.len() + added);
        } else {
            assert_eq!(mine["x-nvidia-error-details"]["code"], 4015);
        }
    }
}

#[test]
fn hopper_claims_3_0_match_the_real_token_where_no_rim_is_needed() {
    let recorded = fixture_json("nras/nvat/hopperClaimsv3_decoded.json")["GPU-0"]
        .as_object()
        .unwrap()
        .clone();
    let now = recorded["iat"].as_u64().unwrap();
    let body = v4_body(
        "HOPPER",
        "evidence/hopper/nvtrust_hopper_550.90.07_report.hex",
        "evidence/hopper/nvtrust_hopper_550.90.07_certchain.pem",
        recorded["eat_nonce"].as_str().unwrap(),
        "3.0",
    );
    let response = post(&service(), "/v4/attest/gpu", &body, now);
    let ours: Value = serde_json::from_slice(&response.body).unwrap();
    let mine = claims(ours[1]["GPU-0"].as_str().unwrap());
    for claim in [
        "eat_nonce",
        "ueid",
        "x-nvidia-gpu-driver-version",
        "x-nvidia-gpu-vbios-version",
        "x-nvidia-gpu-arch-check",
        "x-nvidia-gpu-attestation-report-parsed",
        "x-nvidia-gpu-attestation-report-nonce-match",
        "x-nvidia-gpu-attestation-report-signature-verified",
        "x-nvidia-gpu-attestation-report-cert-chain-fwid-match",
    ] {
        assert_eq!(mine[claim], recorded[claim], "{claim}");
    }
    // No RIMs for 550.90.07 are bundled: the device fails honestly with the real code.
    assert_eq!(mine["x-nvidia-gpu-driver-rim-fetched"], false);
    assert_eq!(mine["measres"], "fail");
    assert_eq!(mine["secboot"], Value::Null);
    assert_eq!(mine["x-nvidia-error-details"]["code"], 5009);
    for claim in recorded.keys() {
        assert!(
            mine.contains_key(claim),
            "claims 3.0 carries every claim: {claim}"
        );
    }
}

#[test]
fn v1_and_v2_results() {
    let service = service();
    let evidence = hex_evidence("evidence/hopper/nvat_hopper_535.86.09_report.hex");
    let nonce = hex::encode(&evidence[4..36]);
    let pem = fixture("evidence/hopper/nvat_hopper_535.86.09_certchain.pem");
    let v1 = json!({"nonce": nonce, "arch": "HOPPER", "evidence": STANDARD.encode(hex::encode(&evidence)), "certificate": STANDARD.encode(&pem)});
    let response = post(
        &service,
        "/v1/attest/gpu",
        v1.to_string().as_bytes(),
        1_700_000_000,
    );
    assert_eq!(response.status, 200);
    let result: Value = serde_json::from_slice(&response.body).unwrap();
    let token = claims(result["eat"].as_str().unwrap());
    assert_eq!(token["x-nvidia-ver"], "1.0");
    assert_eq!(
        token["x-nvidia-attestation-detailed-result"]["x-nvidia-gpu-nonce-match"],
        true
    );
    // The firmware RIM of this board is bundled (its signer was valid in 2023); the driver
    // RIM is not.
    assert_eq!(
        token["x-nvidia-attestation-detailed-result"]["x-nvidia-gpu-vbios-rim-schema-fetched"],
        true
    );
    assert_eq!(
        token["x-nvidia-attestation-detailed-result"]["x-nvidia-gpu-driver-rim-schema-fetched"],
        false
    );

    let v2 = json!({"nonce": nonce, "arch": "HOPPER", "evidences": [{"evidence": STANDARD.encode(hex::encode(&evidence)), "certificate": STANDARD.encode(&pem)}]});
    let response = post(
        &service,
        "/v2/attest/gpu",
        v2.to_string().as_bytes(),
        1_700_000_000,
    );
    assert_eq!(response.status, 200);
    // Generation-1 evidence is deprecated: the standard headers say so, errors included.
    assert!(response
        .header_value("deprecation")
        .unwrap()
        .starts_with('@'));
    assert!(response
        .header_value("link")
        .unwrap()
        .contains("rel=\"successor-version\""));
    assert!(response
        .header_value("access-control-expose-headers")
        .unwrap()
        .contains("deprecation"));
    let refused = post(&service, "/v2/attest/gpu", b"{}", 1_700_000_000);
    assert_eq!(refused.status, 400);
    assert!(refused.header_value("deprecation").is_some());
    let v4 = post(&service, "/v4/attest/gpu", b"{}", 1_700_000_000);
    assert_eq!(v4.header_value("deprecation"), None);
    let result: Value = serde_json::from_slice(&response.body).unwrap();
    assert_eq!(
        claims(result[0][1].as_str().unwrap())["x-nvidia-ver"],
        "1.0"
    );
    let device = claims(result[1]["GPU-0"].as_str().unwrap());
    // 1.0 detached: a device that failed at the RIM stage keeps its claims.
    assert_eq!(device["x-nvidia-gpu-driver-rim-schema-fetched"], false);
    assert_eq!(device["x-nvidia-gpu-nonce-match"], true);
    assert_eq!(device["measres"], "comparison-fail");
    // Evidence of another GPU under this nonce: the error alone, as the real service.
    let other = hex_evidence("evidence/hopper/nvat_hopper_560.00_INVALID_SIGNATURE_report.hex");
    let v2 = json!({"nonce": hex::encode(&other[4..36]), "arch": "HOPPER", "evidences": [{"evidence": STANDARD.encode(hex::encode(&other)), "certificate": STANDARD.encode(&pem)}]});
    let result: Value = serde_json::from_slice(
        &post(
            &service,
            "/v2/attest/gpu",
            v2.to_string().as_bytes(),
            1_700_000_000,
        )
        .body,
    )
    .unwrap();
    let device = claims(result[1]["GPU-0"].as_str().unwrap());
    assert_eq!(device["x-nvidia-error-details"]["code"], 4013);
    assert_eq!(device.len(), 6);
}

#[test]
fn missing_rims_names_what_the_host_must_fetch() {
    let service = service();
    let body = v4_body(
        "HOPPER",
        "evidence/hopper/nvat_hopper_535.86.09_report.hex",
        "evidence/hopper/nvat_hopper_535.86.09_certchain.pem",
        "27a328247bf7935c993341cf587be6f05986ccce4fe7ba2c54100bd616a58f66",
        "3.0",
    );
    let request = Request::new("POST", "/v4/attest/gpu").body(body);
    // The firmware RIM is in the store (by content); the driver RIM is not.
    assert_eq!(
        service.missing_rims(&request),
        ["NV_GPU_DRIVER_GH100_535.86.09"]
    );
    assert!(service
        .missing_rims(&Request::new("GET", "/health"))
        .is_empty());
}

#[test]
fn service_errors_and_auxiliary_endpoints() {
    let service = service_with_ocsp(ServiceConfig::default().ocsp_url);
    let bad = post(
        &service,
        "/v4/attest/gpu",
        br#"{"nonce":"xyz","arch":"HOPPER","evidence_list":[]}"#,
        0,
    );
    assert_eq!(bad.status, 400);
    let body: Value = serde_json::from_slice(&bad.body).unwrap();
    assert_eq!(body["code"], "ERR_REQUEST_INVALID_NONCE");
    assert_eq!(body["errorCode"], 4003);
    assert_eq!(body["field"], "nonce");
    assert_eq!(bad.header_value("access-control-allow-origin"), Some("*"));

    let health = service.handle(
        &Request::new("GET", "/health"),
        UnixTime::from_secs(0).unwrap(),
        [0; 32],
    );
    assert_eq!(health.status, 200);
    let health: Value = serde_json::from_slice(&health.body).unwrap();
    assert_eq!(health["overallStatus"], "UP");
    assert_eq!(
        health["rimServiceHealth"]["checks"]["localDocuments"],
        "2 documents"
    );

    // Each source as the host last saw it, and where the key is.
    assert_eq!(health["ocspServiceHealth"]["overallStatus"], "UNKNOWN");
    assert_eq!(
        health["ocspServiceHealth"]["service"]["responder"],
        "https://ocsp.ndis.nvidia.com/"
    );
    assert_eq!(
        health["ocspServiceHealth"]["service"]["signingKey"],
        "IN_CORE"
    );
    assert_eq!(health["ocspServiceHealth"]["service"]["kid"], "test-kid");
    let mut down = service.clone();
    down.set_source_state(
        Source::Ocsp,
        SourceState {
            reachable: Some(false),
            last_error: Some("timeout".into()),
            cached_entries: 3,
            kept_seconds: None,
        },
    );
    down.set_source_state(
        Source::RimService,
        SourceState {
            reachable: Some(true),
            last_error: None,
            cached_entries: 2,
            kept_seconds: None,
        },
    );
    let health: Value = serde_json::from_slice(
        &down
            .handle(
                &Request::new("GET", "/health"),
                UnixTime::from_secs(0).unwrap(),
                [0; 32],
            )
            .body,
    )
    .unwrap();
    assert_eq!(health["overallStatus"], "DEGRADED", "{health}");
    let ocsp = &health["ocspServiceHealth"];
    assert_eq!(
        (
            &ocsp["overallStatus"],
            &ocsp["service"]["lastError"],
            &ocsp["service"]["cachedResponses"]
        ),
        (&json!("DOWN"), &json!("timeout"), &json!(3))
    );
    assert_eq!(health["rimServiceHealth"]["checks"]["rimService"], "UP");
    assert_eq!(
        health["rimServiceHealth"]["checks"]["cachedDocuments"],
        "2 documents"
    );

    let info = service.handle(
        &Request::new("GET", "/"),
        UnixTime::from_secs(0).unwrap(),
        [0; 32],
    );
    assert!(serde_json::from_slice::<Value>(&info.body)
        .unwrap()
        .as_str()
        .unwrap()
        .contains("/ui/"));
    let head = service.handle(
        &Request::new("HEAD", "/health"),
        UnixTime::from_secs(0).unwrap(),
        [0; 32],
    );
    assert!(head.body.is_empty());

    let keys = jwks(&service);
    assert_eq!(keys.keys()[0].kid(), Some("test-kid"));
}

#[test]
fn versioned_opaque_data_needs_claims_4_0() {
    // NVIDIA's NVDAOD sample transcript (no certificate chain exists for it).
    let evidence = hex_evidence("evidence/hopper/nvat_nvdaod_620.12_transcript_NO_CHAIN.hex");
    let pem = fixture("evidence/hopper/nvat_hopper_580.159.03_certchain.pem");
    let body = |version: &str| {
        serde_json::to_vec(&json!({
            "nonce": hex::encode(&evidence[4..36]),
            "arch": "HOPPER",
            "claims_version": version,
            "evidence_list": [{"evidence": STANDARD.encode(&evidence), "certificate": STANDARD.encode(&pem)}],
        }))
        .unwrap()
    };
    let service = service();
    for version in ["2.0", "3.0"] {
        let response = post(&service, "/v4/attest/gpu", &body(version), 1_800_000_000);
        assert_eq!(response.status, 400, "{version}");
        let error: Value = serde_json::from_slice(&response.body).unwrap();
        assert_eq!(error["code"], "ERR_REQUEST_CLAIMS_VERSION_REQUIRED");
        assert_eq!(error["errorCode"], 4019);
        assert_eq!(error["field"], "evidence_list[0].evidence");
    }
    // With 4.0 the request is verified (and fails on the chain, which is another GPU's).
    let response = post(&service, "/v4/attest/gpu", &body("4.0"), 1_800_000_000);
    assert_eq!(response.status, 200);
    // Legacy opaque data is fine with any version.
    let legacy = v4_body(
        "HOPPER",
        "evidence/hopper/nvat_hopper_580.159.03_report.hex",
        "evidence/hopper/nvat_hopper_580.159.03_certchain.pem",
        "5bb22e377702d4e1e8215a903ba094826b9ac7f731dee1fe8102958bf2840aca",
        "2.0",
    );
    assert_eq!(
        post(&service, "/v4/attest/gpu", &legacy, 1_800_000_000).status,
        200
    );
}
