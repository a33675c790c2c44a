//! The evidence profile picks the rules (issue 15, points 2 and 3): which RIMs a device is
//! judged by and what a missing FWID means come from the firmware the verified chain names,
//! never from which opaque tags a transcript happens to carry. Real transcripts are edited
//! (a tag removed) and re-signed with the keyed test PKI of
//! `tests/fixtures/generated/generate_keyed.py`.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::attest::{Arch, EvidenceProfile, FwidPolicy, FwidRule, RimPath};
use edgeattest::chain::{ChainOptions, TrustStore};
use edgeattest::crypto::SigningKey;
use edgeattest::evidence::{
    tag, verify_evidence, DeviceInput, FwidCheck, VerifyContext, VerifyError,
};
use edgeattest::rim::RimTrust;
use edgeattest::service::{
    KeyRing, Request, Service, ServiceConfig, FWID_NOT_IN_EVIDENCE_WARNING, REVOCATION_WARNING,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};

use super::edit::{nonce_of, rewrite_opaque};

const NOW: UnixTime = UnixTime::from_secs(1_790_000_000).unwrap();

fn fixture(path: &str) -> String {
    let full = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn report(path: &str) -> Vec<u8> {
    hex::decode(fixture(&format!("nvidia/evidence/{path}")).trim()).unwrap()
}

/// A test device: its chain and leaf key.
struct Device {
    chain: String,
    key: SigningKey,
}

fn device(stem: &str) -> Device {
    Device {
        chain: fixture(&format!("generated/keyed/{stem}_chain.pem")),
        key: SigningKey::from_pkcs8_pem(&fixture(&format!("generated/keyed/{stem}_leaf_key.pem")))
            .unwrap(),
    }
}

fn keyed_root() -> TrustStore {
    TrustStore::from_pem(&fixture("generated/keyed/root.pem")).unwrap()
}

/// The transcript with opaque tag `drop` removed, re-signed with `key`.
fn edited(transcript: &[u8], drop: Option<u16>, key: &SigningKey) -> Vec<u8> {
    rewrite_opaque(
        transcript,
        |entries| {
            let before = entries.len();
            entries.retain(|(tag, _)| Some(*tag) != drop);
            assert!(
                drop.is_none() || entries.len() < before,
                "tag {drop:?} not found"
            );
        },
        key,
    )
}

fn verify(
    transcript: &[u8],
    chain: &str,
    arch: Arch,
    policy: FwidPolicy,
) -> Result<edgeattest::evidence::VerifiedEvidence, VerifyError> {
    let store = keyed_root();
    verify_evidence(
        DeviceInput {
            evidence: transcript,
            certificate_pem: chain,
        },
        &VerifyContext {
            arch,
            nonce: nonce_of(transcript),
            now: NOW,
            trust_store: &store,
            chain_options: ChainOptions::default(),
            fwid_policy: policy,
        },
    )
}

fn hopper() -> Vec<u8> {
    report("hopper/nvtrust_hopper_550.90.07_report.hex")
}

fn blackwell() -> Vec<u8> {
    report("blackwell/nvat_blackwell_575.32_report.hex")
}

#[test]
fn the_profile_table() {
    use EvidenceProfile::*;
    let rows = [
        (
            HopperGsp,
            Arch::Hopper,
            RimPath::DriverAndFirmware,
            FwidRule::Optional,
        ),
        (
            BlackwellGsp,
            Arch::Blackwell,
            RimPath::DriverAndFirmware,
            FwidRule::Required,
        ),
        (
            BlackwellFsp,
            Arch::Blackwell,
            RimPath::FirmwareOnly,
            FwidRule::NotCarried,
        ),
        (Ls10, Arch::Ls10, RimPath::Switch, FwidRule::NotCarried),
    ];
    for (profile, arch, path, fwid) in rows {
        assert_eq!(
            (profile.arch(), profile.rim_path(), profile.fwid_rule()),
            (arch, path, fwid),
            "{profile:?}"
        );
        assert_eq!(
            profile.requires_driver_version(),
            path == RimPath::DriverAndFirmware
        );
    }
}

#[test]
fn unedited_transcripts_verify_with_the_keyed_chains() {
    let hopper_device = device("hopper_gsp");
    let evidence = edited(&hopper(), None, &hopper_device.key);
    let verified = verify(
        &evidence,
        &hopper_device.chain,
        Arch::Hopper,
        FwidPolicy::Require,
    )
    .unwrap();
    assert_eq!(verified.profile(), EvidenceProfile::HopperGsp);
    assert_eq!(verified.fwid(), FwidCheck::Matched);

    let blackwell_device = device("blackwell_gsp");
    let evidence = edited(&blackwell(), None, &blackwell_device.key);
    let verified = verify(
        &evidence,
        &blackwell_device.chain,
        Arch::Blackwell,
        FwidPolicy::Require,
    )
    .unwrap();
    assert_eq!(verified.profile(), EvidenceProfile::BlackwellGsp);
    assert_eq!(verified.fwid(), FwidCheck::Matched);
}

#[test]
fn gsp_evidence_without_a_driver_version_fails() {
    for (stem, transcript, arch) in [
        ("hopper_gsp", hopper(), Arch::Hopper),
        ("blackwell_gsp", blackwell(), Arch::Blackwell),
    ] {
        let d = device(stem);
        let evidence = edited(&transcript, Some(tag::DRIVER_VERSION), &d.key);
        let error = verify(&evidence, &d.chain, arch, FwidPolicy::AsNvidia).unwrap_err();
        assert_eq!(error, VerifyError::DriverVersionMissing, "{stem}");
        assert_eq!(error.code(), "ERR_EVIDENCE_DRIVER_VERSION_MISSING");
        assert_eq!(error.service_code(), 4005);
    }
}

#[test]
fn a_missing_fwid_is_never_silent() {
    // Hopper: passed as NVIDIA's verifiers pass it, reported as not in evidence...
    let d = device("hopper_gsp");
    let evidence = edited(&hopper(), Some(tag::FWID), &d.key);
    let verified = verify(&evidence, &d.chain, Arch::Hopper, FwidPolicy::AsNvidia).unwrap();
    assert_eq!(verified.fwid(), FwidCheck::NotInEvidence);
    assert_eq!(verified.to_report().fwid, "not-in-evidence");
    // ...and failed with 4016 when the caller requires it.
    let error = verify(&evidence, &d.chain, Arch::Hopper, FwidPolicy::Require).unwrap_err();
    assert_eq!(error, VerifyError::FwidMissingInEvidence);
    assert_eq!(
        (error.code(), error.service_code()),
        ("ERR_EVIDENCE_FWID_MISSING", 4016)
    );

    // Blackwell GSP firmware always reports it: a missing tag fails whatever the policy.
    let d = device("blackwell_gsp");
    let evidence = edited(&blackwell(), Some(tag::FWID), &d.key);
    for policy in [FwidPolicy::AsNvidia, FwidPolicy::Require] {
        let error = verify(&evidence, &d.chain, Arch::Blackwell, policy).unwrap_err();
        assert_eq!(error, VerifyError::FwidMissingInEvidence, "{policy:?}");
    }
}

#[test]
fn switch_and_fsp_evidence_have_no_fwid_to_miss() {
    let store = TrustStore::nvidia_device_identity().unwrap();
    for (stem, arch, profile) in [
        (
            "switch/nvat_ls10_96.10.55.00.01",
            Arch::Ls10,
            EvidenceProfile::Ls10,
        ),
        (
            "blackwell/nvat_blackwell_fsp_DERIVED",
            Arch::Blackwell,
            EvidenceProfile::BlackwellFsp,
        ),
    ] {
        let transcript = report(&format!("{stem}_report.hex"));
        let chain = fixture(&format!("nvidia/evidence/{stem}_certchain.pem"));
        let verified = verify_evidence(
            DeviceInput {
                evidence: &transcript,
                certificate_pem: &chain,
            },
            &VerifyContext {
                arch,
                nonce: nonce_of(&transcript),
                now: NOW,
                trust_store: &store,
                chain_options: ChainOptions::default(),
                fwid_policy: FwidPolicy::Require,
            },
        )
        .unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert_eq!(verified.profile(), profile);
        assert_eq!(verified.fwid(), FwidCheck::NotApplicable);
        assert_eq!(verified.to_report().fwid, "not-applicable");
    }
}

#[test]
fn firmware_this_verifier_does_not_know_is_refused() {
    let d = device("blackwell_unknown");
    let evidence = edited(&blackwell(), None, &d.key);
    let error = verify(&evidence, &d.chain, Arch::Blackwell, FwidPolicy::AsNvidia).unwrap_err();
    assert_eq!(error.code(), "ERR_EVIDENCE_UNKNOWN_FIRMWARE");
    assert_eq!(error.service_code(), 4004);
}

// Through the service: the claims say what the verifier established.

fn service(policy: FwidPolicy) -> Service {
    let config = ServiceConfig {
        issuer: Some("https://edgeattest.test".into()),
        fwid_policy: policy,
        // No responder: revocation not checked, and every token says so.
        ocsp_url: None,
        ..ServiceConfig::default()
    };
    Service::new(
        config,
        KeyRing::new(SigningKey::generate(&[3u8; 48]).unwrap(), None),
        keyed_root(),
        RimTrust::nvidia(),
        1,
    )
}

fn attest(service: &Service, arch: &str, items: &[(&[u8], &str)]) -> Vec<Map<String, Value>> {
    let nonce = hex::encode(&items[0].0[4..36]);
    let list: Vec<Value> = items
        .iter()
        .map(|(evidence, chain)| {
            json!({"evidence": STANDARD.encode(evidence), "certificate": STANDARD.encode(chain)})
        })
        .collect();
    let body =
        json!({"nonce": nonce, "arch": arch, "claims_version": "3.0", "evidence_list": list});
    let request = Request::new("POST", "/v4/attest/gpu").body(serde_json::to_vec(&body).unwrap());
    let response = service.handle(&request, NOW, [7; 32]);
    assert_eq!(
        response.status,
        200,
        "{}",
        String::from_utf8_lossy(&response.body)
    );
    let result: Value = serde_json::from_slice(&response.body).unwrap();
    let mut tokens = vec![claims(result[0][1].as_str().unwrap())];
    let devices = result[1].as_object().unwrap();
    for index in 0..devices.len() {
        tokens.push(claims(devices[&format!("GPU-{index}")].as_str().unwrap()));
    }
    tokens
}

fn claims(token: &str) -> Map<String, Value> {
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap(),
    )
    .unwrap()
}

#[test]
fn the_service_fails_gsp_evidence_without_a_driver_version() {
    let d = device("hopper_gsp");
    let evidence = edited(&hopper(), Some(tag::DRIVER_VERSION), &d.key);
    let tokens = attest(
        &service(FwidPolicy::AsNvidia),
        "HOPPER",
        &[(&evidence, &d.chain)],
    );
    assert_eq!(tokens[0]["x-nvidia-overall-att-result"], false);
    let details = &tokens[1]["x-nvidia-error-details"];
    assert_eq!(details["code"], 4005, "{details}");
    // Not judged by its VBIOS RIM alone: no driver RIM was silently skipped.
    assert_eq!(
        tokens[1]["x-nvidia-gpu-attestation-report-cert-chain-fwid-match"],
        true
    );
}

#[test]
fn the_service_names_a_missing_fwid_and_fails_it_on_request() {
    let d = device("hopper_gsp");
    let evidence = edited(&hopper(), Some(tag::FWID), &d.key);
    // Parity: the claim stays true, the warning says it was not compared.
    let tokens = attest(
        &service(FwidPolicy::AsNvidia),
        "HOPPER",
        &[(&evidence, &d.chain)],
    );
    let device_claims = &tokens[1];
    assert_eq!(
        device_claims["x-nvidia-gpu-attestation-report-cert-chain-fwid-match"],
        true
    );
    let warning = device_claims["x-nvidia-attestation-warning"]
        .as_str()
        .unwrap();
    assert!(warning.contains(FWID_NOT_IN_EVIDENCE_WARNING), "{warning}");
    assert!(warning.contains(REVOCATION_WARNING), "{warning}");
    // An FWID that matched adds nothing to the warning.
    let matched = edited(&hopper(), None, &d.key);
    let tokens = attest(
        &service(FwidPolicy::AsNvidia),
        "HOPPER",
        &[(&matched, &d.chain)],
    );
    // (Its other warnings: revocation not checked, and a test root that is not NVIDIA's.)
    let warning = tokens[1]["x-nvidia-attestation-warning"].as_str().unwrap();
    assert!(!warning.contains(FWID_NOT_IN_EVIDENCE_WARNING), "{warning}");
    assert!(warning.contains(REVOCATION_WARNING), "{warning}");
    assert!(
        warning.contains("not at NVIDIA's Device Identity CA"),
        "{warning}"
    );
    // The service option fails it with 4016.
    let tokens = attest(
        &service(FwidPolicy::Require),
        "HOPPER",
        &[(&evidence, &d.chain)],
    );
    assert_eq!(tokens[1]["x-nvidia-error-details"]["code"], 4016);
    assert_eq!(
        tokens[1]["x-nvidia-gpu-attestation-report-cert-chain-fwid-match"],
        false
    );
    assert_eq!(tokens[0]["x-nvidia-overall-att-result"], false);
}
