//! The GPU's mode, the feature flag it signs (opaque tag 36): in the evidence report, as the
//! claim `x-nvidia-gpu-mode` in claims 3.0 and 4.0, and required by JSON and Rego policies.
//! Real transcripts give each mode they carry; a real transcript edited and re-signed with the
//! keyed test PKI gives the others.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use edgeattest::attest::{Arch, FwidPolicy};
use edgeattest::chain::{ChainOptions, TrustStore};
use edgeattest::crypto::SigningKey;
use edgeattest::evidence::{
    tag, verify_evidence, DeviceInput, VerifiedEvidence, VerifyContext, VerifyError,
};
use edgeattest::policy::{appraise, Policy, RuleStatus};
use edgeattest::rim::RimTrust;
use edgeattest::service::{KeyRing, Request, Service, ServiceConfig};
use edgeattest::token::{verify_attestation_result, Jwks, Signers, VerifyOptions};
use edgeattest::{ErrorCode, UnixTime};
use serde_json::{json, Map, Value};

use super::edit::{nonce_of, rewrite_opaque, set};

const NOW: UnixTime = UnixTime::from_secs(1_790_000_000).unwrap();
const ISSUER: &str = "https://edgeattest.test";

fn fixture(path: &str) -> String {
    let full = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn report(path: &str) -> Vec<u8> {
    hex::decode(fixture(&format!("nvidia/evidence/{path}")).trim()).unwrap()
}

/// The first device of one of NVIDIA's serialized evidence files: evidence and chain.
fn serialized(file: &str) -> (Vec<u8>, String) {
    let json: Value =
        serde_json::from_str(&fixture(&format!("nvidia/evidence/serialized/{file}"))).unwrap();
    let item = &json[0];
    let evidence = STANDARD.decode(item["evidence"].as_str().unwrap()).unwrap();
    let chain = STANDARD
        .decode(item["certificate"].as_str().unwrap())
        .unwrap();
    (evidence, String::from_utf8(chain).unwrap())
}

fn verify(
    evidence: &[u8],
    chain: &str,
    store: &TrustStore,
    arch: Arch,
) -> Result<VerifiedEvidence, VerifyError> {
    verify_evidence(
        DeviceInput {
            evidence,
            certificate_pem: chain,
        },
        &VerifyContext {
            arch,
            nonce: nonce_of(evidence),
            now: NOW,
            trust_store: store,
            chain_options: ChainOptions::default(),
            fwid_policy: FwidPolicy::AsNvidia,
        },
    )
}

fn nvidia() -> TrustStore {
    TrustStore::nvidia_device_identity().unwrap()
}

fn keyed_root() -> TrustStore {
    TrustStore::from_pem(&fixture("generated/keyed/root.pem")).unwrap()
}

fn keyed_hopper() -> (String, SigningKey) {
    let chain = fixture("generated/keyed/hopper_gsp_chain.pem");
    let key =
        SigningKey::from_pkcs8_pem(&fixture("generated/keyed/hopper_gsp_leaf_key.pem")).unwrap();
    (chain, key)
}

/// The real Hopper 550.90.07 transcript (no opaque data version, no feature flag) with
/// `version` (tag 34) and `flag` (tag 36) set as given, re-signed with the keyed Hopper leaf.
fn hopper_with(version: Option<u16>, flag: Option<Vec<u8>>) -> Vec<u8> {
    let (_, key) = keyed_hopper();
    rewrite_opaque(
        &report("hopper/nvtrust_hopper_550.90.07_report.hex"),
        |entries| {
            set(
                entries,
                tag::OPAQUE_DATA_VERSION,
                version.map(|v| v.to_le_bytes().to_vec()),
            );
            set(entries, tag::FEATURE_FLAG, flag);
        },
        &key,
    )
}

fn mode(evidence: &VerifiedEvidence) -> Option<&'static str> {
    let from_report = evidence.to_report().mode;
    assert_eq!(from_report, evidence.mode().map(|m| m.as_str()));
    from_report
}

#[test]
fn real_evidence_reports_the_mode_it_signs() {
    let store = nvidia();
    // Driver 580.159.03: opaque data version 1, feature flag 0.
    let spt_hopper = verify(
        &report("hopper/nvat_hopper_580.159.03_report.hex"),
        &fixture("nvidia/evidence/hopper/nvat_hopper_580.159.03_certchain.pem"),
        &store,
        Arch::Hopper,
    )
    .unwrap();
    assert_eq!(mode(&spt_hopper), Some("spt"));
    // Driver 590.12 on a protected-PCIe node: flag 2.
    let (evidence, chain) = serialized("nvat_hopper_evidence.json");
    let ppcie = verify(&evidence, &chain, &store, Arch::Hopper).unwrap();
    assert_eq!(mode(&ppcie), Some("ppcie"));
    // The RTX PRO 6000 Blackwell Server Edition (GB20X), in single-GPU passthrough (its
    // capture's record says so): flag 0.
    let spt = verify(
        &report("blackwell/trustee_gb202_595.58.03_report.hex"),
        &fixture("nvidia/evidence/blackwell/trustee_gb202_595.58.03_certchain.pem"),
        &store,
        Arch::Blackwell,
    )
    .unwrap();
    assert_eq!(mode(&spt), Some("spt"));
    // Driver 550.90.07 carries neither tag; Blackwell 575.32 has opaque data version 0.
    let old = verify(
        &report("hopper/nvtrust_hopper_550.90.07_report.hex"),
        &fixture("nvidia/evidence/hopper/nvtrust_hopper_550.90.07_certchain.pem"),
        &store,
        Arch::Hopper,
    )
    .unwrap();
    assert_eq!(mode(&old), None);
    let blackwell = verify(
        &report("blackwell/nvat_blackwell_575.32_report.hex"),
        &fixture("nvidia/evidence/blackwell/nvat_blackwell_575.32_certchain.pem"),
        &store,
        Arch::Blackwell,
    )
    .unwrap();
    assert_eq!(mode(&blackwell), None);
    // A switch has no mode.
    let switch = verify(
        &report("switch/nvat_ls10_96.10.55.00.01_report.hex"),
        &fixture("nvidia/evidence/switch/nvat_ls10_96.10.55.00.01_certchain.pem"),
        &store,
        Arch::Ls10,
    )
    .unwrap();
    assert_eq!(mode(&switch), None);
}

#[test]
fn each_flag_reads_as_nvidia_names_it() {
    let store = keyed_root();
    let (chain, _) = keyed_hopper();
    for (flag, expected) in [
        (0u16, "spt"),
        (1, "mpt"),
        (2, "ppcie"),
        (3, "invalid"),
        (0xffff, "invalid"),
    ] {
        let evidence = hopper_with(Some(1), Some(flag.to_le_bytes().to_vec()));
        let verified = verify(&evidence, &chain, &store, Arch::Hopper).unwrap();
        assert_eq!(mode(&verified), Some(expected), "flag {flag}");
    }
    // Opaque data version 2 reads the flag too.
    let evidence = hopper_with(Some(2), Some(vec![1, 0]));
    let verified = verify(&evidence, &chain, &store, Arch::Hopper).unwrap();
    assert_eq!(mode(&verified), Some("mpt"));
    // Before version 1 (or without a version) the tag is not the mode, as NVIDIA's SDK reads it.
    for version in [Some(0), None] {
        let evidence = hopper_with(version, Some(vec![1, 0]));
        let verified = verify(&evidence, &chain, &store, Arch::Hopper).unwrap();
        assert_eq!(mode(&verified), None, "version {version:?}");
    }
}

#[test]
fn a_malformed_flag_is_refused_not_ignored() {
    let store = keyed_root();
    let (chain, _) = keyed_hopper();
    for value in [vec![], vec![1], vec![1, 0, 0]] {
        let evidence = hopper_with(Some(1), Some(value.clone()));
        let error = verify(&evidence, &chain, &store, Arch::Hopper).unwrap_err();
        assert_eq!(
            error.code(),
            "ERR_EVIDENCE_OPAQUE_VALUE",
            "{value:?}: {error}"
        );
        assert!(error.to_string().contains("36"), "{error}");
    }
}

// Through the service: the claim, and policies that require it.

fn service(store: TrustStore) -> Service {
    let config = ServiceConfig {
        issuer: Some(ISSUER.into()),
        ocsp_url: None,
        ..ServiceConfig::default()
    };
    Service::new(
        config,
        KeyRing::new(SigningKey::generate(&[5u8; 48]).unwrap(), None),
        store,
        RimTrust::nvidia(),
        1,
    )
}

/// POSTs the GPUs to `/v4/attest/gpu` under `claims_version`; the response body.
fn attest(service: &Service, claims_version: &str, gpus: &[(&[u8], &str)]) -> Vec<u8> {
    let list: Vec<Value> = gpus
        .iter()
        .map(|(evidence, chain)| {
            json!({"evidence": STANDARD.encode(evidence), "certificate": STANDARD.encode(chain)})
        })
        .collect();
    let body = json!({"nonce": hex::encode(&gpus[0].0[4..36]), "arch": "HOPPER",
        "claims_version": claims_version, "evidence_list": list});
    let request = Request::new("POST", "/v4/attest/gpu").body(serde_json::to_vec(&body).unwrap());
    let response = service.handle(&request, NOW, [7; 32]);
    assert_eq!(
        response.status,
        200,
        "{}",
        String::from_utf8_lossy(&response.body)
    );
    response.body
}

fn device_claims(body: &[u8], label: &str) -> Map<String, Value> {
    let result: Value = serde_json::from_slice(body).unwrap();
    let token = result[1][label].as_str().unwrap();
    let payload = URL_SAFE_NO_PAD
        .decode(token.split('.').nth(1).unwrap())
        .unwrap();
    serde_json::from_slice(&payload).unwrap()
}

fn jwks(service: &Service) -> Jwks {
    let response = service.handle(&Request::new("GET", "/.well-known/jwks.json"), NOW, [0; 32]);
    Jwks::parse(&response.body).unwrap()
}

#[test]
fn claims_3_and_4_carry_the_mode_when_the_evidence_does() {
    let service = service(nvidia());
    let spt = report("hopper/nvat_hopper_580.159.03_report.hex");
    let spt_chain = fixture("nvidia/evidence/hopper/nvat_hopper_580.159.03_certchain.pem");
    let old = report("hopper/nvtrust_hopper_550.90.07_report.hex");
    let old_chain = fixture("nvidia/evidence/hopper/nvtrust_hopper_550.90.07_certchain.pem");
    for version in ["3.0", "4.0"] {
        let body = attest(&service, version, &[(&spt, &spt_chain)]);
        assert_eq!(
            device_claims(&body, "GPU-0").get("x-nvidia-gpu-mode"),
            Some(&json!("spt")),
            "claims {version}"
        );
        let body = attest(&service, version, &[(&old, &old_chain)]);
        assert_eq!(
            device_claims(&body, "GPU-0").get("x-nvidia-gpu-mode"),
            None,
            "claims {version}"
        );
    }
    // Claims 2.0 (NVIDIA's v3 token) has no such claim.
    let body = attest(&service, "2.0", &[(&spt, &spt_chain)]);
    assert_eq!(device_claims(&body, "GPU-0").get("x-nvidia-gpu-mode"), None);
}

/// Three GPUs through the keyed service, verified: single-GPU passthrough, protected PCIe, and
/// evidence without a flag. The test PKI has no RIMs, so the service's verdict is false; a
/// policy is appraised over authentic tokens whatever it is.
fn three_modes() -> edgeattest::token::VerifiedAttestationResult {
    let service = service(keyed_root());
    let (chain, _) = keyed_hopper();
    let spt = hopper_with(Some(1), Some(vec![0, 0]));
    let ppcie = hopper_with(Some(1), Some(vec![2, 0]));
    let none = hopper_with(None, None);
    let body = attest(
        &service,
        "4.0",
        &[(&spt, &chain), (&ppcie, &chain), (&none, &chain)],
    );
    let options = VerifyOptions::new()
        .signers(Signers::Any)
        .issuer(ISSUER)
        .nonce(&hex::encode(&spt[4..36]))
        .allow_failed_result(true)
        .allow_unknown_revocation(true);
    verify_attestation_result(&body, &jwks(&service), &options, NOW).unwrap()
}

#[test]
fn a_json_policy_requires_the_mode() {
    let result = three_modes();
    let policy = Policy::parse(
        json!({"version": "4.0", "authorization-rules": {"type": "JWT",
            "overall-claims": {}, "detached-claims": {"x-nvidia-gpu-mode": "ppcie"}}})
        .to_string()
        .as_bytes(),
    )
    .unwrap();
    let decision = appraise(&result, &policy).unwrap();
    assert!(!decision.passed());
    let outcomes: Vec<(&str, RuleStatus, Option<&Value>)> = decision
        .devices()
        .iter()
        .map(|d| (d.label(), d.rules()[0].status(), d.rules()[0].found()))
        .collect();
    assert_eq!(
        outcomes,
        [
            ("GPU-0", RuleStatus::Mismatch, Some(&json!("spt"))),
            ("GPU-1", RuleStatus::Pass, Some(&json!("ppcie"))),
            ("GPU-2", RuleStatus::Missing, None),
        ]
    );
}

#[cfg(feature = "rego")]
#[test]
fn the_bundled_rego_policy_requires_the_mode() {
    use edgeattest::policy::{appraise_rego, RegoPolicy};

    let policy = RegoPolicy::parse(fixture("policies/rego/gpu_mode.rego").as_bytes()).unwrap();
    let decision = appraise_rego(&three_modes(), &policy).unwrap();
    assert!(!decision.passed());
    let mode_reasons: Vec<(&str, RuleStatus)> = decision
        .devices()
        .iter()
        .flat_map(|d| d.rules().iter().map(move |r| (d.label(), r)))
        .filter(|(_, r)| r.path() == "/x-nvidia-gpu-mode")
        .map(|(label, r)| (label, r.status()))
        .collect();
    assert_eq!(
        mode_reasons,
        [
            ("GPU-0", RuleStatus::Mismatch),
            ("GPU-2", RuleStatus::Missing)
        ]
    );

    // NVIDIA's recorded passing Hopper claims (3.0, no device type), with the mode added.
    for (claim, passes) in [(Some("ppcie"), true), (Some("spt"), false), (None, false)] {
        let result = crate::policy::signed::resigned("hopperClaimsv3", |c| {
            if let Some(mode) = claim {
                c.insert("x-nvidia-gpu-mode".into(), json!(mode));
            }
        });
        let decision = appraise_rego(&result, &policy).unwrap();
        assert_eq!(decision.passed(), passes, "{claim:?}");
    }
}
