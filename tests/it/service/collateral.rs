//! Collateral of two families in one service: the RIMs of a test PKI's devices, added as
//! `configured-roots/<id>.xml`, serve only devices whose chain ends at a configured root and
//! never shadow NVIDIA's document of the same id for an NVIDIA device; a device of a
//! configured root says so in its token; a device that fails for want of collateral (a RIM,
//! an OCSP answer) is told the cause and the remedy.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::chain::TrustStore;
use edgeattest::crypto::SigningKey;
use edgeattest::rim::{RimTrust, NVIDIA_RIM_ROOT_PEM};
use edgeattest::service::{
    FetchFailure, Fetched, KeyRing, Request, Resource, Service, ServiceConfig, Step,
    OTHER_ROOT_WARNING,
};
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};

#[path = "../../common/ocsp_responder.rs"]
mod ocsp_responder;
use ocsp_responder::{read, tokens};

const SWITCH_RIM: &str = "NV_SWITCH_BIOS_5612_0002_890_9610550001";
/// 2026-07-01: NVIDIA's LS10 RIM (2026-05-20 → 2027-11-02) and every chain are valid.
const NOW: UnixTime = UnixTime::from_secs(1_782_864_000).unwrap();

/// A service trusting NVIDIA's roots and the OCSP test PKI's, holding NVIDIA's LS10 RIM and,
/// under the same id, the test PKI's (`configured-roots/`), added after it.
fn service(config: ServiceConfig) -> Service {
    let devices = format!(
        "{}\n{}",
        edgeattest::chain::NVIDIA_DEVICE_IDENTITY_CA_PEM,
        read("generated/ocsp/root.pem")
    );
    let rims = format!(
        "{NVIDIA_RIM_ROOT_PEM}\n{}",
        read("generated/ocsp/rim_root.pem")
    );
    let mut service = Service::new(
        config,
        KeyRing::new(SigningKey::generate(&[5u8; 48]).unwrap(), None),
        TrustStore::from_pem(&devices).unwrap(),
        RimTrust::from_store(TrustStore::from_pem(&rims).unwrap()),
        2,
    );
    let nvidia = read(&format!("nvidia/rims/nvat/switchVBIOSRim_{SWITCH_RIM}.xml"));
    let test = read(&format!("generated/ocsp/rims/{SWITCH_RIM}.xml"));
    let store = service.rims_mut();
    store
        .insert_named(&format!("{SWITCH_RIM}.xml"), nvidia.into_bytes())
        .unwrap();
    store
        .insert_named(
            &format!("configured-roots/{SWITCH_RIM}.xml"),
            test.into_bytes(),
        )
        .unwrap();
    service
}

fn offline() -> ServiceConfig {
    ServiceConfig {
        rim_service_url: None,
        ocsp_url: None,
        issuer: Some("https://attest.example".into()),
        ..ServiceConfig::default()
    }
}

fn hex_file(path: &str) -> Vec<u8> {
    hex::decode(read(path).trim()).unwrap()
}

fn request(path: &str, arch: &str, evidence: &[u8], chain: &str) -> Request {
    request_of_claims(path, arch, evidence, chain, "3.0")
}

fn request_of_claims(
    path: &str,
    arch: &str,
    evidence: &[u8],
    chain: &str,
    claims_version: &str,
) -> Request {
    let body = json!({
        "nonce": hex::encode(&evidence[4..36]),
        "arch": arch,
        "claims_version": claims_version,
        "evidence_list": [{"evidence": STANDARD.encode(evidence), "certificate": STANDARD.encode(chain)}],
    });
    Request::new("POST", path).body(serde_json::to_vec(&body).unwrap())
}

/// Runs an exchange, answering every fetch with `answer`.
fn attest(
    service: &Service,
    request: &Request,
    answer: impl Fn(&Resource) -> Fetched,
) -> Map<String, Value> {
    let mut exchange = service.begin(request, NOW, [7; 32]);
    loop {
        match exchange.step() {
            Step::Respond(_) => break,
            Step::Verify(_) => exchange.verify_in_core(service).unwrap(),
            Step::Fetch(resources) => {
                let answers: Vec<Fetched> = resources.iter().map(&answer).collect();
                exchange.fetched(service, &answers).unwrap();
            }
            Step::Sign(_) => panic!("the service holds its key"),
        }
    }
    let (_, devices) = tokens(&exchange.into_response().unwrap());
    devices.into_iter().next().unwrap()
}

fn not_fetched(_: &Resource) -> Fetched {
    Fetched::Failed(FetchFailure::NotFetched)
}

fn rim_chain_expiry(switch: &Map<String, Value>) -> &str {
    switch["x-nvidia-switch-bios-rim-cert-chain"]["x-nvidia-cert-expiration-date"]
        .as_str()
        .unwrap()
}

#[test]
fn a_configured_roots_rim_never_shadows_nvidias_for_an_nvidia_device() {
    let service = service(offline());
    let evidence = hex_file("nvidia/evidence/switch/nvat_ls10_96.10.55.00.01_report.hex");
    let chain = read("nvidia/evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem");
    let switch = attest(
        &service,
        &request("/v4/attest/switch", "LS10", &evidence, &chain),
        not_fetched,
    );
    assert_eq!(switch["measres"], "success", "{switch:?}");
    // NVIDIA's document (its signer chain ends 2027-11-02), not the test one (9999-12-31).
    assert!(rim_chain_expiry(&switch).starts_with("2027-"), "{switch:?}");
    assert!(!switch["x-nvidia-attestation-warning"]
        .as_str()
        .unwrap_or("")
        .contains("configured"));
}

#[test]
fn a_device_of_a_configured_root_gets_its_own_rim_and_a_warning_that_it_is_not_nvidias() {
    let service = service(offline());
    let evidence = hex_file("generated/demo/ls10_96.10.55.00.01_good_report.hex");
    let chain = read("generated/ocsp/chain_switch.pem");
    let switch = attest(
        &service,
        &request("/v4/attest/switch", "LS10", &evidence, &chain),
        not_fetched,
    );
    assert_eq!(switch["measres"], "success", "{switch:?}");
    assert!(rim_chain_expiry(&switch).starts_with("9999-"), "{switch:?}");
    let warning = switch["x-nvidia-attestation-warning"].as_str().unwrap();
    assert!(
        warning.contains(
            &OTHER_ROOT_WARNING
                .replace("{root}", "O=Test OCSP PKI,CN=Test OCSP Device Identity CA")
        ),
        "{warning}"
    );
}

#[test]
fn without_a_configured_roots_rim_a_test_device_falls_back_to_the_plain_id() {
    // Only NVIDIA's LS10 RIM: the test device is compared with it (the same real transcript).
    let mut service = Service::new(
        offline(),
        KeyRing::new(SigningKey::generate(&[5u8; 48]).unwrap(), None),
        TrustStore::from_pem(&read("generated/ocsp/root.pem")).unwrap(),
        RimTrust::nvidia(),
        1,
    );
    let nvidia = read(&format!("nvidia/rims/nvat/switchVBIOSRim_{SWITCH_RIM}.xml"));
    service.rims_mut().insert(SWITCH_RIM, nvidia.into_bytes());
    let evidence = hex_file("generated/demo/ls10_96.10.55.00.01_good_report.hex");
    let chain = read("generated/ocsp/chain_switch.pem");
    let switch = attest(
        &service,
        &request("/v4/attest/switch", "LS10", &evidence, &chain),
        not_fetched,
    );
    assert_eq!(switch["measres"], "success", "{switch:?}");
    assert!(rim_chain_expiry(&switch).starts_with("2027-"), "{switch:?}");
}

#[test]
fn a_configured_roots_name_must_name_a_rim_id() {
    let mut service = service(offline());
    let xml = read(&format!("generated/ocsp/rims/{SWITCH_RIM}.xml")).into_bytes();
    assert!(service
        .rims_mut()
        .insert_named("configured-roots/whatever.xml", xml)
        .is_err());
}

fn error(device: &Map<String, Value>) -> (u64, String) {
    let details = &device["x-nvidia-error-details"];
    (
        details["code"].as_u64().unwrap(),
        details["description"].as_str().unwrap().to_string(),
    )
}

#[test]
fn a_missing_rim_names_its_id_and_how_to_provide_it() {
    // The test PKI's 535.86.09 device: no RIM anywhere, the RIM service off.
    let service = service(offline());
    let evidence = hex_file("generated/demo/hopper_535.86.09_rim_missing_report.hex");
    let gpu = attest(
        &service,
        &request(
            "/v4/attest/gpu",
            "HOPPER",
            &evidence,
            &read("generated/ocsp/chain_good.pem"),
        ),
        not_fetched,
    );
    let (code, description) = error(&gpu);
    assert_eq!(code, 5009, "{gpu:?}");
    for part in [
        "NV_GPU_DRIVER_GH100_535.86.09",
        "EDGEATTEST_RIM_DIR",
        "EDGEATTEST_RIM_DOCUMENTS",
        "configured RIM root",
    ] {
        assert!(description.contains(part), "{part}: {description}");
    }
}

#[test]
fn an_nvidia_rim_the_service_could_not_fetch_says_how_to_get_it() {
    let config = ServiceConfig {
        ocsp_url: None,
        ..offline()
    };
    let config = ServiceConfig {
        rim_service_url: Some("https://rim.attestation.nvidia.com/v1/rim/".into()),
        ..config
    };
    let service = service(config);
    let evidence = hex_file("nvidia/evidence/hopper/nvat_hopper_535.86.09_report.hex");
    let chain = read("nvidia/evidence/hopper/nvat_hopper_535.86.09_certchain.pem");
    let gpu = attest(
        &service,
        &request("/v4/attest/gpu", "HOPPER", &evidence, &chain),
        |_| Fetched::Failed(FetchFailure::Unreachable),
    );
    let (code, description) = error(&gpu);
    assert_eq!(code, 5008, "{gpu:?}");
    for part in [
        "NV_GPU_DRIVER_GH100_535.86.09",
        "https://rim.attestation.nvidia.com/v1/rim/NV_GPU_DRIVER_GH100_535.86.09",
        "EDGEATTEST_RIM_DIR",
        "Go online",
    ] {
        assert!(description.contains(part), "{part}: {description}");
    }
}

#[test]
fn an_unreachable_ocsp_responder_says_how_to_run_air_gapped() {
    let config = ServiceConfig {
        ocsp_url: Some("https://ocsp.ndis.nvidia.com/".into()),
        ..offline()
    };
    let service = service(config);
    let evidence = hex_file("nvidia/evidence/switch/nvat_ls10_96.10.55.00.01_report.hex");
    let chain = read("nvidia/evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem");
    let switch = attest(
        &service,
        &request("/v4/attest/switch", "LS10", &evidence, &chain),
        |_| Fetched::Failed(FetchFailure::Unreachable),
    );
    let (code, description) = error(&switch);
    assert_eq!(code, 5001, "{switch:?}");
    for part in [
        "could not be reached",
        "EDGEATTEST_OCSP_URL=off",
        "air-gapped",
    ] {
        assert!(description.contains(part), "{part}: {description}");
    }
}

/// Claims 2.0 (NRAS's v3 token) carry the same cause and remedy as 3.0: a device that kept
/// every claim because it failed after its evidence verified (a RIM or an OCSP answer missing)
/// still says why, in `x-nvidia-error-details`.
#[test]
fn claims_2_0_say_the_cause_and_the_remedy_too() {
    let hopper = hex_file("nvidia/evidence/hopper/nvat_hopper_535.86.09_report.hex");
    let hopper_chain = read("nvidia/evidence/hopper/nvat_hopper_535.86.09_certchain.pem");
    let ls10 = hex_file("nvidia/evidence/switch/nvat_ls10_96.10.55.00.01_report.hex");
    let ls10_chain = read("nvidia/evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem");
    // The RIM service off: 5009, with how to provide the RIM.
    let gpu = attest(
        &service(offline()),
        &request_of_claims("/v4/attest/gpu", "HOPPER", &hopper, &hopper_chain, "2.0"),
        not_fetched,
    );
    assert_eq!(gpu["measres"], "fail");
    let (code, description) = error(&gpu);
    assert_eq!(code, 5009, "{gpu:?}");
    assert!(description.contains("EDGEATTEST_RIM_DIR"), "{description}");
    // The RIM service unreachable: 5008, through /v3 (claims 2.0 only).
    let rim_service = ServiceConfig {
        rim_service_url: Some("https://rim.attestation.nvidia.com/v1/rim/".into()),
        ..offline()
    };
    let v3 = json!({
        "nonce": hex::encode(&hopper[4..36]),
        "arch": "HOPPER",
        "evidence_list": [{"evidence": STANDARD.encode(&hopper), "certificate": STANDARD.encode(&hopper_chain)}],
    });
    let v3 = Request::new("POST", "/v3/attest/gpu").body(serde_json::to_vec(&v3).unwrap());
    let gpu = attest(&service(rim_service), &v3, |_| {
        Fetched::Failed(FetchFailure::Unreachable)
    });
    assert_eq!(gpu["x-nvidia-gpu-driver-rim-fetched"], false);
    let (code, description) = error(&gpu);
    assert_eq!(code, 5008, "{gpu:?}");
    assert!(description.contains("Go online"), "{description}");
    // The OCSP responder unreachable: 5001, with how to run air-gapped.
    let responder = ServiceConfig {
        ocsp_url: Some("https://ocsp.ndis.nvidia.com/".into()),
        ..offline()
    };
    let switch = attest(
        &service(responder),
        &request_of_claims("/v4/attest/switch", "LS10", &ls10, &ls10_chain, "2.0"),
        |_| Fetched::Failed(FetchFailure::Unreachable),
    );
    let (code, description) = error(&switch);
    assert_eq!(code, 5001, "{switch:?}");
    assert!(
        description.contains("EDGEATTEST_OCSP_URL=off"),
        "{description}"
    );
    // A device that passed has no error claim in 2.0, as NRAS's.
    let passed = attest(
        &service(offline()),
        &request_of_claims("/v4/attest/switch", "LS10", &ls10, &ls10_chain, "2.0"),
        not_fetched,
    );
    assert_eq!(passed["measres"], "success", "{passed:?}");
    assert!(!passed.contains_key("x-nvidia-error-details"));
}
