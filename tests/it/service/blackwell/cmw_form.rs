//! The form the evidence came in, stated by the result: NVIDIA's CMW of the Blackwell FSP
//! (JSON inline, CBOR as base64) through `/v4/attest/gpu` gives the result of the same
//! evidence sent as plain items, plus `x-edgeattest-evidence-form` in the overall token;
//! plain evidence leaves the overall claim set NVIDIA's recorded tokens have.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::cmw::EvidenceForm;
use edgeattest::crypto::SigningKey;
use edgeattest::service::Request;
use edgeattest::token::{
    create_detached_eat, verify_attestation_result, Jwks, Signers, VerifyOptions,
};
use serde_json::{json, Map, Value};

use super::{
    attest, attest_request, claims, fsp, fsp_service, text, Attested, FSP_HINT, ISSUER, NOW,
};
use crate::cmw::support::{fsp_cmw, to_cbor, FSP_NONCE};

const CLAIM: &str = "x-edgeattest-evidence-form";

fn cmw_request(evidence_list: Value) -> Request {
    let body = json!({
        "nonce": FSP_NONCE,
        "arch": "BLACKWELL",
        "claims_version": "4.0",
        "evidence_list": evidence_list,
    });
    Request::new("POST", "/v4/attest/gpu")
        .header("content-type", "application/json")
        .body(serde_json::to_vec(&body).unwrap())
}

fn keys(claims: &Map<String, Value>) -> Vec<&str> {
    let mut keys: Vec<&str> = claims.keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}

/// The overall claims without the `submods` digests (they cover the signatures, which
/// differ between two signings of the same claims).
fn without_digests(attested: &Attested) -> Map<String, Value> {
    let mut overall = attested.overall.clone();
    overall.remove("submods");
    overall
}

#[test]
fn a_cmw_result_states_its_form_and_a_plain_one_keeps_nvidias_claim_set() {
    let service = fsp_service("");
    let plain = attest(&service, "BLACKWELL", "4.0", &[fsp(Some(FSP_HINT))]);
    assert_eq!(plain.overall["x-nvidia-overall-att-result"], true);
    assert_eq!(plain.overall.get(CLAIM), None);
    // The names of a real NRAS overall token, exactly.
    let recorded = text("nvidia/nras/teep/v3_1gpu_success_20260629_response.json");
    let recorded: Value = serde_json::from_str(&recorded).unwrap();
    let recorded = claims(recorded[0][1].as_str().unwrap());
    assert_eq!(keys(&plain.overall), keys(&recorded));

    let json_cmw = attest_request(&service, &cmw_request(fsp_cmw()), 1);
    let cbor_cmw = attest_request(
        &service,
        &cmw_request(json!(STANDARD.encode(to_cbor(&fsp_cmw()).encode()))),
        1,
    );
    for (attested, form) in [(&json_cmw, "json-cmw"), (&cbor_cmw, "cbor-cmw")] {
        assert_eq!(attested.overall[CLAIM], form);
        // Everything else is the plain request's result.
        let mut overall = without_digests(attested);
        overall.remove(CLAIM);
        assert_eq!(overall, without_digests(&plain), "{form}");
        assert_eq!(attested.devices, plain.devices, "{form}");
    }
}

#[test]
fn a_relying_party_reads_the_form_from_the_verified_result() {
    let service = fsp_service("");
    let jwks = Jwks::parse(
        &service
            .handle(&Request::new("GET", "/.well-known/jwks.json"), NOW, [0; 32])
            .body,
    )
    .unwrap();
    // Without a responder revocation is unknown; an FSP has no driver RIM, which a relying
    // party's appraisal reads as a failed check: both allowed, the form is what is read.
    let options = VerifyOptions::new()
        .signers(Signers::Any)
        .issuer(ISSUER)
        .nonce(FSP_NONCE)
        .allow_unknown_revocation(true)
        .allow_failed_result(true);
    let verified = |attested: &Attested| {
        verify_attestation_result(&attested.body, &jwks, &options, NOW).unwrap()
    };
    let plain = attest(&service, "BLACKWELL", "4.0", &[fsp(Some(FSP_HINT))]);
    assert_eq!(verified(&plain).evidence_form(), Some(EvidenceForm::Plain));
    let json_cmw = attest_request(&service, &cmw_request(fsp_cmw()), 1);
    assert_eq!(
        verified(&json_cmw).evidence_form(),
        Some(EvidenceForm::JsonCmw)
    );
    let cbor = json!(STANDARD.encode(to_cbor(&fsp_cmw()).encode()));
    let cbor_cmw = attest_request(&service, &cmw_request(cbor), 1);
    assert_eq!(
        verified(&cbor_cmw).evidence_form(),
        Some(EvidenceForm::CborCmw)
    );
    // A form this version does not know, or a claim that is no string, reads as unknown
    // (the service's key re-signs the overall token around the same device token).
    let key = SigningKey::generate(&[5u8; 48]).unwrap();
    let result: Value = serde_json::from_slice(&json_cmw.body).unwrap();
    let device = [(
        "GPU-0".to_owned(),
        result[1]["GPU-0"].as_str().unwrap().to_owned(),
    )];
    for (claim, form) in [
        (json!("cose-cmw"), None),
        (json!(7), None),
        (json!("JSON-CMW"), None),
        (json!("plain"), Some(EvidenceForm::Plain)),
    ] {
        let mut overall = json_cmw.overall.clone();
        overall.remove("submods");
        overall.insert(CLAIM.into(), claim.clone());
        let body = create_detached_eat(&overall, &device, &key, "k").unwrap();
        let read = verify_attestation_result(body.as_bytes(), &jwks, &options, NOW).unwrap();
        assert_eq!(read.evidence_form(), form, "{claim}");
    }
}
