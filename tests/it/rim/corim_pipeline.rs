//! A signed CoRIM takes the XML RIMs' one pipeline: `prepare_rim` / `verify_rim` read either
//! format, the service verifies a CoRIM a host fetched (`rimFormats: corim-preferred`), the
//! local evidence report takes one as its firmware RIM; each is compared as its XML twin is.
//! The CoRIMs are the XML fixtures' measurements, signed by the test PKI's RIM signer.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use edgeattest::attest::{Arch, FwidPolicy, Nonce};
use edgeattest::chain::{ChainOptions, TrustStore};
use edgeattest::crypto::SigningKey;
use edgeattest::evidence::{
    DeviceInput, ReportPlan, RevocationInput, RimDocuments, StageId, Verdict, VerifyContext,
};
use edgeattest::rim::{
    compare_switch, prepare_rim, verify_rim, CorimError, RimError, RimFormats, RimTrust,
    NVIDIA_RIM_ROOT_PEM,
};
use edgeattest::service::{
    FetchFailure, Fetched, KeyRing, Request, Resource, Service, ServiceConfig, Step,
};
use edgeattest::{ErrorCode, UnixTime};
use serde_json::{json, Value};

use edgeattest::cbor::Cbor;
use edgeattest::rim::GoldenMeasurement;

use super::corim::{
    corim_from_xml, corim_map, evidence, fixture_bytes, map, measurement, xml_rim, NOW,
};
use super::corim_signed::{content_type, pki, sign, test_trust};

const SWITCH_RIM_ID: &str = "NV_SWITCH_BIOS_5612_0002_890_9610550001";
const SWITCH_RIM: &str = "nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml";
/// 2026-06-01: the bundled LS10 RIM's signer is valid.
const JUNE_2026: u64 = 1_780_272_000;

fn switch_xml() -> Vec<u8> {
    fixture_bytes(&format!("nvidia/rims/{SWITCH_RIM}"))
}

/// The switch BIOS RIM's measurements as a CoRIM signed by the test RIM signer, in two
/// alternatives: each record's first golden value, then each record's value the LS10
/// evidence reports (the XML RIM lists several per record; a CoRIM measurement holds one, so
/// every combination would be too many alternatives).
fn switch_corim() -> Vec<u8> {
    let xml = xml_rim(SWITCH_RIM);
    let runtime = evidence("switch/nvat_ls10_96.10.55.00.01_report.hex", None, None);
    let version = map(vec![(
        1,
        map(vec![(
            0,
            map(vec![(0, Cbor::text(&xml.meta.colloquial_version))]),
        )]),
    )]);
    let alternative = |pick: &dyn Fn(&GoldenMeasurement) -> Vec<u8>| {
        let mut measurements = vec![version.clone()];
        for record in xml.active_measurements() {
            measurements.push(measurement(record.index + 1, &pick(record)));
        }
        measurements
    };
    let first = alternative(&|record| record.alternatives[0].clone());
    let reported = alternative(&|record| {
        // The evidence numbers its blocks from 1 (SPDM), the RIM from 0.
        let index = u8::try_from(record.index + 1).unwrap();
        runtime
            .measurements
            .get(&index)
            .filter(|value| record.alternatives.contains(value))
            .unwrap_or(&record.alternatives[0])
            .clone()
    });
    sign(
        &corim_map(&xml.name, vec![first, reported]).encode(),
        content_type(),
    )
}

/// The CoRIM with one byte of its first golden measurement flipped: the signature no longer
/// covers it.
fn tampered(corim: &[u8]) -> Vec<u8> {
    let xml = xml_rim(SWITCH_RIM);
    let first = &xml.active_measurements().next().unwrap().alternatives[0];
    let at = corim
        .windows(first.len())
        .position(|w| w == first.as_slice())
        .unwrap();
    let mut bytes = corim.to_vec();
    bytes[at] ^= 1;
    bytes
}

/// NVIDIA's XML RIM root and the test PKI's RIM root, for both formats: the XML fixture and
/// its test-signed CoRIM twin both chain to a trusted root.
fn both_roots() -> RimTrust {
    RimTrust::from_pem(&format!("{NVIDIA_RIM_ROOT_PEM}\n{}", pki("rim_root.pem"))).unwrap()
}

#[test]
fn prepare_rim_reads_a_signed_corim_and_compares_its_alternatives() {
    let corim = switch_corim();
    let verified = verify_rim(&corim, &test_trust(), NOW).unwrap();
    assert!(verified.is_corim());
    assert!(verified.is_trusted(), "{:?}", verified.cert_chain());
    let ev = evidence("hopper/nvat_hopper_535.86.09_report.hex", None, None);
    let xml = xml_rim("nvtrust/1010_0200_882_96005E0001_PROD.swidtag");
    let gpu_corim = sign(&corim_from_xml(&xml).encode(), content_type());
    let gpu = verify_rim(&gpu_corim, &test_trust(), NOW).unwrap();
    assert_eq!(
        gpu.compare(|doc| compare_switch(doc, &ev)).unwrap(),
        compare_switch(&xml, &ev).unwrap()
    );
    // An XML RIM is one alternative: its comparison is the document's.
    let xml_verified = verify_rim(&switch_xml(), &RimTrust::nvidia(), NOW).unwrap();
    assert!(!xml_verified.is_corim());
    assert_eq!(
        xml_verified
            .compare(|doc| compare_switch(doc, &ev))
            .unwrap(),
        compare_switch(xml_verified.document(), &ev).unwrap()
    );
    // Two steps, as for XML: the COSE signature first, then the chain's links.
    let pending = prepare_rim(&corim, &test_trust(), NOW).unwrap();
    assert!(pending.chain_planned());
    assert_eq!(pending.signature_checks().len(), 4);
    assert_eq!(
        pending.finish(&[false, true, true, true]).unwrap_err(),
        RimError::SignatureInvalid
    );
    // A tampered CoRIM reads, and fails its signature.
    let error = verify_rim(&tampered(&corim), &test_trust(), NOW).unwrap_err();
    assert_eq!(error.code(), "ERR_RIM_SIGNATURE_INVALID");
    assert_eq!(error.service_code(), 5013);
    // The CoRIM reader's refusals keep their codes.
    let unsigned = Cbor::Tag(501, Box::new(corim_from_xml(&xml))).encode();
    let error = prepare_rim(&unsigned, &test_trust(), NOW).unwrap_err();
    assert_eq!(error, RimError::Corim(CorimError::NotSigned));
    assert_eq!(error.code(), "ERR_CORIM_NOT_SIGNED");
    assert_eq!(error.service_code(), 5012);
    // XML stays XML: a document that is neither is still an XML error.
    assert_eq!(
        prepare_rim(b"not a rim", &test_trust(), NOW)
            .unwrap_err()
            .code(),
        "ERR_RIM_MALFORMED_XML"
    );
}

#[test]
fn the_default_trust_keeps_each_format_to_its_root() {
    // The test-signed CoRIM chains to neither NVIDIA root; the NVIDIA XML RIM chains to the
    // XML root under the default trust, and not under the CoRIM root alone.
    let now = UnixTime::from_secs(JUNE_2026).unwrap();
    let corim = verify_rim(&switch_corim(), &RimTrust::nvidia(), now).unwrap();
    assert!(!corim.is_trusted());
    let xml = switch_xml();
    assert!(verify_rim(&xml, &RimTrust::nvidia(), now)
        .unwrap()
        .is_trusted());
    assert!(!verify_rim(&xml, &RimTrust::nvidia_corim(), now)
        .unwrap()
        .is_trusted());
}

fn key() -> SigningKey {
    SigningKey::generate(&[5u8; 48]).unwrap()
}

fn ls10_request() -> Request {
    let nvidia = |rel: &str| fixture_bytes(&format!("nvidia/evidence/switch/{rel}"));
    let hex_text = String::from_utf8(nvidia("nvat_ls10_96.10.55.00.01_report.hex")).unwrap();
    let evidence = hex::decode(hex_text.trim()).unwrap();
    let body = json!({
        "nonce": hex::encode(&evidence[4..36]),
        "arch": "LS10",
        "claims_version": "3.0",
        "evidence_list": [{
            "evidence": STANDARD.encode(&evidence),
            "certificate": STANDARD.encode(nvidia("nvat_ls10_96.10.55.00.01_certchain.pem")),
        }],
    });
    Request::new("POST", "/v4/attest/switch")
        .header("content-type", "application/json")
        .body(serde_json::to_vec(&body).unwrap())
        .origin("https://origin.edgeattest.test")
}

/// The switch's claims when the host answers the RIM fetch with `rim`, every check run in
/// software.
fn switch_claims_with_fetched(rim: &[u8]) -> Value {
    switch_claims(rim, None)
}

/// The switch's claims with `rim` fetched by the host or, given a file `name`, held in the
/// service's store under that name (then nothing is fetched).
fn switch_claims(rim: &[u8], stored_as: Option<&str>) -> Value {
    let config = ServiceConfig {
        ocsp_url: None,
        rim_formats: RimFormats::CorimPreferred,
        ..ServiceConfig::default()
    };
    let mut service = Service::new(
        config,
        KeyRing::external(key().public_key(), None),
        TrustStore::nvidia_device_identity().unwrap(),
        both_roots(),
        1,
    );
    if let Some(name) = stored_as {
        service.rims_mut().insert_named(name, rim.to_vec()).unwrap();
    }
    let now = UnixTime::from_secs(JUNE_2026).unwrap();
    let mut exchange = service.begin(&ls10_request(), now, [1; 32]);
    let envelope = json!({ "id": SWITCH_RIM_ID, "rim": STANDARD.encode(rim) }).to_string();
    let mut fetched_rim = false;
    loop {
        match exchange.step() {
            Step::Respond(_) => break,
            Step::Verify(checks) => {
                let verdicts: Vec<bool> = checks.iter().map(|c| c.verify().is_ok()).collect();
                exchange.verified(&service, &verdicts).unwrap();
            }
            Step::Fetch(resources) => {
                let answers: Vec<Fetched> = resources
                    .iter()
                    .map(|resource| match resource {
                        Resource::Rim { formats, .. } => {
                            assert_eq!(*formats, RimFormats::CorimPreferred);
                            fetched_rim = true;
                            Fetched::Body(envelope.clone().into_bytes())
                        }
                        _ => Fetched::Failed(FetchFailure::NotFetched),
                    })
                    .collect();
                exchange.fetched(&service, &answers).unwrap();
            }
            Step::Sign(inputs) => {
                let signatures: Vec<Vec<u8>> = inputs
                    .iter()
                    .map(|input| key().sign(input).to_vec())
                    .collect();
                exchange.signed(&service, &signatures).unwrap();
            }
        }
    }
    assert_eq!(fetched_rim, stored_as.is_none(), "the RIM was asked for");
    let response = exchange.into_response().unwrap();
    let result: Value = serde_json::from_slice(&response.body).unwrap();
    let token = result[1]["SWITCH-0"].as_str().unwrap();
    serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(token.split('.').nth(1).unwrap())
            .unwrap(),
    )
    .unwrap()
}

/// The claims that differ by who signed the RIM or when the token was made.
fn without_signer_and_time(mut claims: Value) -> Value {
    let map = claims.as_object_mut().unwrap();
    map.retain(|name, _| {
        !matches!(name.as_str(), "iat" | "nbf" | "exp" | "jti")
            && !name.contains("rim-cert-chain")
            && !name.contains("rim-cert")
    });
    claims
}

#[test]
fn the_service_verifies_a_fetched_corim_as_its_xml_twin() {
    let xml = switch_claims_with_fetched(&switch_xml());
    let corim = switch_claims_with_fetched(&switch_corim());
    assert_eq!(corim["x-nvidia-switch-bios-rim-fetched"], true, "{corim:#}");
    assert_eq!(
        corim["x-nvidia-switch-bios-rim-signature-verified"], true,
        "{corim:#}"
    );
    assert_eq!(corim["measres"], xml["measres"], "{corim:#}\n{xml:#}");
    assert_eq!(
        without_signer_and_time(corim),
        without_signer_and_time(xml.clone())
    );
    assert_eq!(xml["measres"], "success", "{xml:#}");
}

#[test]
fn a_stored_corim_named_by_its_id_serves_as_its_xml_twin() {
    let xml = switch_claims_with_fetched(&switch_xml());
    for name in [
        format!("{SWITCH_RIM_ID}.cbor"),
        format!("rims/{SWITCH_RIM_ID}.corim"),
    ] {
        let stored = switch_claims(&switch_corim(), Some(&name));
        assert_eq!(stored["x-nvidia-switch-bios-rim-fetched"], true, "{name}");
        assert_eq!(
            without_signer_and_time(stored),
            without_signer_and_time(xml.clone()),
            "{name}"
        );
    }
    // A CoRIM states no RIM kind (driver or firmware, GPU or switch): without its id in the
    // name there is nothing to index it by, and the store says so.
    let mut rims = edgeattest::service::RimStore::new();
    let error = rims
        .insert_named("switch-bios.cbor", switch_corim())
        .unwrap_err();
    assert_eq!(error.code(), "ERR_RIM_SCHEMA");
    assert!(error.to_string().contains("named by its RIM id"), "{error}");
    assert!(rims.is_empty());
}

#[test]
fn a_tampered_fetched_corim_fails_the_rim_claims() {
    let claims = switch_claims_with_fetched(&tampered(&switch_corim()));
    assert_eq!(claims["measres"], "fail", "{claims:#}");
    assert_eq!(
        claims["x-nvidia-switch-bios-rim-signature-verified"], false,
        "{claims:#}"
    );
    assert_eq!(claims["x-nvidia-error-details"]["code"], 5013, "{claims:#}");
}

#[test]
fn the_local_report_compares_a_corim_as_its_xml_twin() {
    let nvidia = |rel: &str| fixture_bytes(&format!("nvidia/evidence/switch/{rel}"));
    let evidence = hex::decode(
        String::from_utf8(nvidia("nvat_ls10_96.10.55.00.01_report.hex"))
            .unwrap()
            .trim(),
    )
    .unwrap();
    let chain = String::from_utf8(nvidia("nvat_ls10_96.10.55.00.01_certchain.pem")).unwrap();
    let store = TrustStore::nvidia_device_identity().unwrap();
    let context = VerifyContext {
        arch: Arch::Ls10,
        nonce: Nonce::from_bytes(evidence[4..36].try_into().unwrap()),
        now: UnixTime::from_secs(JUNE_2026).unwrap(),
        trust_store: &store,
        chain_options: ChainOptions::default(),
        fwid_policy: FwidPolicy::default(),
    };
    let report = |rim: &[u8]| {
        ReportPlan::new(
            DeviceInput {
                evidence: &evidence,
                certificate_pem: &chain,
            },
            &context,
            RimDocuments {
                driver: None,
                firmware: Some(rim),
            },
            &both_roots(),
            None,
            RevocationInput::NotChecked,
        )
        .verify()
    };
    let corim = switch_corim();
    let from_xml = report(&switch_xml());
    let from_corim = report(&corim);
    let comparison = |r: &edgeattest::evidence::DeviceReport| {
        r.stages
            .iter()
            .filter(|s| s.id == StageId::Measurements)
            .map(|s| (s.status, s.detail.clone()))
            .collect::<Vec<_>>()
    };
    assert!(!comparison(&from_xml).is_empty());
    assert_eq!(comparison(&from_corim), comparison(&from_xml));
    assert_eq!(from_corim.verdict, from_xml.verdict);
    assert_ne!(from_xml.verdict, Verdict::Failed, "{from_xml:#?}");
    // Tampered: the firmware RIM stage fails, its code the XML one's.
    let failed = report(&tampered(&corim));
    assert_eq!(failed.verdict, Verdict::Failed);
    let failure = failed.failure.unwrap();
    assert_eq!(failure.stage, StageId::FirmwareRim);
    assert_eq!(failure.code, "ERR_RIM_SIGNATURE_INVALID");
}
