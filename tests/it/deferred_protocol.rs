//! The one two-phase shape ([`Deferred`]): every verifier that needs signatures hands out
//! its checks as data and completes with one verdict per check. One generic contract,
//! checked on real data for all six: genuine signatures verify, the software backend and
//! all-true verdicts agree, a wrong verdict count is an error (never a pass), and a failed
//! signature verdict is never a pass.

#[path = "../common/fixture_files.rs"]
mod fixture_files;
#[path = "../common/ocsp_fixtures.rs"]
mod ocsp_fixtures;
#[path = "../common/verdicts.rs"]
mod verdicts;

use core::fmt::Debug;

use base64::Engine;
use edgeattest::attest::{Arch, FwidPolicy, Nonce};
use edgeattest::chain::{parse_pem_chain, ChainOptions, ChainPlan, TrustStore};
use edgeattest::crypto::{software_verdicts, Deferred};
use edgeattest::evidence::{BatchPlan, DeviceInput, VerifyContext};
use edgeattest::ocsp::check_response;
use edgeattest::rim::{prepare_rim, RimTrust};
use edgeattest::token::Signers;
use edgeattest::token::{prepare_attestation_result, prepare_jwt, Jwks, VerifyOptions};
use edgeattest::UnixTime;
use serde_json::Value;

/// What a verifier makes of a failed verdict for its first check.
enum FirstCheckFailing {
    /// The whole verification fails.
    Fails,
    /// Verification completes, but the outcome shows the failure (a batch: a device fails).
    ShowsIn(fn(&dyn Debug) -> bool),
}

fn contract<D>(name: &str, deferred: D, first: FirstCheckFailing)
where
    D: Deferred + Clone,
    D::Output: Debug + PartialEq,
    D::Error: Debug,
{
    let checks = deferred.signature_checks().to_vec();
    assert!(!checks.is_empty(), "{name}: no checks");
    for check in &checks {
        // P-384 only: uncompressed SEC1 keys and raw r‖s signatures.
        assert_eq!(check.public_key_sec1.len(), 97, "{name}");
        assert_eq!(check.signature.len(), 96, "{name}");
    }
    let verdicts = software_verdicts(&checks);
    assert!(
        verdicts.iter().all(|v| *v),
        "{name}: a genuine check failed"
    );

    let in_software = deferred.clone().finish_in_software().expect(name);
    let from_host = deferred.clone().finish(&verdicts).expect(name);
    assert_eq!(in_software, from_host, "{name}");

    for count in [0, checks.len() - 1, checks.len() + 1] {
        assert!(
            deferred.clone().finish(&vec![true; count]).is_err(),
            "{name}: {count} verdicts for {} checks passed",
            checks.len()
        );
    }

    let mut first_failed = verdicts.clone();
    first_failed[0] = false;
    let outcome = deferred.finish(&first_failed);
    match first {
        FirstCheckFailing::Fails => assert!(outcome.is_err(), "{name}: a failed check passed"),
        FirstCheckFailing::ShowsIn(shows) => {
            let output = outcome.expect(name);
            assert!(
                shows(&output),
                "{name}: a failed check left no trace: {output:?}"
            );
        }
    }
}

#[test]
fn a_certificate_path() {
    let store = TrustStore::nvidia_device_identity().unwrap();
    let pem = fixture_files::text(&format!("nvidia/{}", verdicts::CHAINS[0].0));
    let ders = parse_pem_chain(pem).unwrap();
    let plan = ChainPlan::new(
        &ders,
        &store,
        UnixTime::from_secs(verdicts::NOW).unwrap(),
        &ChainOptions::default(),
    )
    .unwrap();
    contract("chain", plan, FirstCheckFailing::Fails);
}

#[test]
fn an_evidence_batch() {
    let json: Value = serde_json::from_str(fixture_files::text(
        "nvidia/evidence/serialized/nvtrust_ppcie_gpu_evidence_8gpu.json",
    ))
    .unwrap();
    let b64 = base64::engine::general_purpose::STANDARD;
    let items: Vec<(Vec<u8>, String)> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            let field = |name: &str| b64.decode(item[name].as_str().unwrap()).unwrap();
            (
                field("evidence"),
                String::from_utf8(field("certificate")).unwrap(),
            )
        })
        .collect();
    let inputs: Vec<DeviceInput<'_>> = items
        .iter()
        .map(|(evidence, pem)| DeviceInput {
            evidence,
            certificate_pem: pem,
        })
        .collect();
    let store = TrustStore::nvidia_device_identity().unwrap();
    let context = VerifyContext {
        arch: Arch::Hopper,
        nonce: Nonce::parse(json[0]["nonce"].as_str().unwrap()).unwrap(),
        now: UnixTime::from_secs(verdicts::NOW).unwrap(),
        trust_store: &store,
        chain_options: ChainOptions::default(),
        fwid_policy: FwidPolicy::default(),
    };
    fn a_device_failed(output: &dyn Debug) -> bool {
        format!("{output:?}").contains("Err(")
    }
    contract(
        "evidence batch",
        BatchPlan::new(&inputs, &context),
        FirstCheckFailing::ShowsIn(a_device_failed),
    );
}

#[test]
fn a_rim() {
    let xml = fixture_files::bytes("nvidia/rims/nvat/NV_GPU_DRIVER_GH100_550.144.03.xml");
    let pending = prepare_rim(
        xml,
        &RimTrust::nvidia(),
        UnixTime::from_secs(1_750_000_000).unwrap(),
    )
    .unwrap();
    contract("rim", pending, FirstCheckFailing::Fails);
}

#[test]
fn an_ocsp_response() {
    let f = ocsp_fixtures::response("brom_good.der");
    let pending = check_response(
        &f.bytes,
        &ocsp_fixtures::request("brom_good"),
        &ocsp_fixtures::nonce("brom_good"),
        &f.issuer,
        UnixTime::from_secs(f.now).unwrap(),
    )
    .unwrap();
    contract("ocsp", pending, FirstCheckFailing::Fails);
}

/// A recorded V3 exchange with NVIDIA's service: its response, JWKS and nonce.
fn recorded() -> (Vec<u8>, Jwks, VerifyOptions, u64) {
    let dir = "nvidia/nras/teep/v3_8gpu_success_20260629";
    let response = fixture_files::bytes(&format!("{dir}_response.json")).to_vec();
    let jwks = Jwks::parse(fixture_files::bytes(&format!("{dir}_jwks.json"))).unwrap();
    let request: Value =
        serde_json::from_slice(fixture_files::bytes(&format!("{dir}_request.json"))).unwrap();
    let result: Value = serde_json::from_slice(&response).unwrap();
    let token = result[0][1].as_str().unwrap();
    let payload = token.split('.').nth(1).unwrap();
    let claims: Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap(),
    )
    .unwrap();
    let options = VerifyOptions::new()
        .signers(Signers::Any)
        .issuer(claims["iss"].as_str().unwrap())
        .nonce(request["nonce"].as_str().unwrap());
    (response, jwks, options, claims["iat"].as_u64().unwrap())
}

#[test]
fn a_token_and_an_attestation_result() {
    let (response, jwks, options, now) = recorded();
    let result: Value = serde_json::from_slice(&response).unwrap();
    let overall = result[0][1].as_str().unwrap();
    let jwt = prepare_jwt(overall, &jwks, &options, UnixTime::from_secs(now).unwrap()).unwrap();
    contract("jwt", jwt, FirstCheckFailing::Fails);
    let prepared = prepare_attestation_result(
        &response,
        &jwks,
        &options,
        UnixTime::from_secs(now).unwrap(),
    )
    .unwrap();
    assert_eq!(prepared.signature_checks().len(), 9);
    contract("attestation result", prepared, FirstCheckFailing::Fails);
}
