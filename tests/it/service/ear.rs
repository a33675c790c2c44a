//! The service's EAR (`src/service/negotiate.rs`): asked for by `Accept` or `?result=ear`,
//! signed with the service's key and verified with its JWKS; the default answer unchanged
//! but for `Vary: Accept`. End to end on the OCSP test PKI (`tests/common/ocsp_responder.rs`).
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::ear::{policy_id, verify_ear, TrustTier, TrustVector, EAR_MEDIA_TYPE};
use edgeattest::policy::Policy;
use edgeattest::service::{Request, Response, Service, ServiceConfig};
use edgeattest::token::Signers;
use edgeattest::token::{Jwks, VerifyOptions};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::{json, Value};

#[path = "../../common/ocsp_responder.rs"]
mod ocsp_responder;
use ocsp_responder::{attest_with, device, now, read, test_service, tokens, Mode, Responder};

const EAR_ACCEPT: &str = r#"application/eat+jwt; eat_profile="tag:github.com,2023:veraison/ear""#;

fn service(policy: Option<&str>) -> Service {
    let config = ServiceConfig {
        rim_service_url: None,
        issuer: Some("https://attest.example".into()),
        policy: policy.map(|text| Policy::parse(text.as_bytes()).unwrap()),
        ..ServiceConfig::default()
    };
    test_service(config, false)
}

/// A request for one good Hopper to `path`, with `accept`; and its nonce.
fn attest_request(path: &str, accept: Option<&str>, version: &str) -> (Request, String) {
    let (evidence, chain) = device("good");
    let nonce = hex::encode(&evidence[4..36]);
    let mut body = json!({
        "nonce": nonce,
        "arch": "HOPPER",
        "evidence_list": [{"evidence": STANDARD.encode(&evidence), "certificate": STANDARD.encode(&chain)}],
    });
    if path.starts_with("/v1/") {
        // V1: one item, hex evidence.
        body = json!({"nonce": nonce, "arch": "HOPPER",
            "evidence": STANDARD.encode(hex::encode(&evidence)), "certificate": STANDARD.encode(chain)});
    } else {
        body["claims_version"] = json!(version);
    }
    let mut request = Request::new("POST", path).body(serde_json::to_vec(&body).unwrap());
    if let Some(accept) = accept {
        request = request.header("Accept", accept);
    }
    (request, nonce)
}

fn send(service: &Service, request: &Request) -> Response {
    attest_with(service, request, &Responder::new(Mode::Normal)).0
}

fn jwks(service: &Service) -> Jwks {
    let response = service.handle(
        &Request::new("GET", "/.well-known/jwks.json"),
        UnixTime::from_secs(now()).unwrap(),
        [0; 32],
    );
    Jwks::parse(&response.body).unwrap()
}

fn approved() -> TrustVector {
    TrustVector {
        instance_identity: Some(2),
        configuration: Some(2),
        executables: Some(2),
        hardware: Some(2),
        ..TrustVector::default()
    }
}

/// The response's EAR, verified with the service's key set and the request's nonce.
fn ear_of(service: &Service, response: &Response, nonce: &str) -> edgeattest::ear::Ear {
    assert_eq!(
        response.status,
        200,
        "{}",
        String::from_utf8_lossy(&response.body)
    );
    assert_eq!(response.header_value("content-type"), Some(EAR_MEDIA_TYPE));
    assert_eq!(response.header_value("vary"), Some("Accept"));
    let token = std::str::from_utf8(&response.body).unwrap();
    let options = VerifyOptions::new()
        .signers(Signers::Any)
        .nonce(nonce)
        .max_age(60)
        .leeway(5);
    verify_ear(
        token,
        &jwks(service),
        &options,
        UnixTime::from_secs(now()).unwrap(),
    )
    .unwrap()
}

#[test]
fn accept_asks_for_the_ear_on_every_endpoint() {
    let service = service(None);
    for (path, version, label) in [
        ("/v4/attest/gpu", "3.0", "GPU-0"),
        ("/v4/attest/gpu", "2.0", "GPU-0"),
        ("/v3/attest/gpu", "2.0", "GPU-0"),
        ("/v1/attest/gpu", "", "GPU-0"),
    ] {
        let (request, nonce) = attest_request(path, Some(EAR_ACCEPT), version);
        let ear = ear_of(&service, &send(&service, &request), &nonce);
        assert_eq!(ear.nonce(), Some(nonce.as_str()), "{path}");
        let [(got, appraisal)] = ear.submods() else {
            panic!("{path}")
        };
        assert_eq!(got, label);
        assert_eq!(appraisal.status, TrustTier::Affirming, "{path} {version}");
        assert_eq!(appraisal.vector, Some(approved()), "{path} {version}");
        assert!(appraisal.policy_ids.is_empty());
    }
    // The draft's older media type, and the profile in capitals.
    for accept in [
        "application/eat-jwt",
        r#"APPLICATION/EAT+JWT;EAT_PROFILE="TAG:GITHUB.COM,2023:VERAISON/EAR""#,
    ] {
        let (request, nonce) = attest_request("/v4/attest/gpu", Some(accept), "3.0");
        assert!(
            ear_of(&service, &send(&service, &request), &nonce).affirming(),
            "{accept}"
        );
    }
}

#[test]
fn the_query_parameter_asks_for_the_ear_and_the_default_is_unchanged() {
    let service = service(None);
    let (request, nonce) = attest_request("/v4/attest/gpu?result=ear", None, "3.0");
    assert!(ear_of(&service, &send(&service, &request), &nonce).affirming());

    // Without either, and with other Accept values: NVIDIA's JSON, with `Vary`.
    for (path, accept) in [
        ("/v4/attest/gpu", None),
        ("/v4/attest/gpu", Some("application/json")),
        ("/v4/attest/gpu", Some("text/html, */*")),
        ("/v4/attest/gpu?result=nras", Some(EAR_ACCEPT)),
        ("/v4/attest/gpu?unrelated=1", None),
    ] {
        let (request, _) = attest_request(path, accept, "3.0");
        let response = send(&service, &request);
        assert_eq!(
            response.header_value("content-type"),
            Some("application/json")
        );
        assert_eq!(response.header_value("vary"), Some("Accept"));
        let (overall, devices) = tokens(&response);
        assert_eq!(
            overall["x-nvidia-overall-att-result"], true,
            "{path} {accept:?}"
        );
        assert_eq!(devices.len(), 1);
    }
}

#[test]
fn what_cannot_be_served_is_refused_with_a_code() {
    let service = service(None);
    let refused = |path: &str, accept: Option<&str>| {
        let (request, _) = attest_request(path, accept, "3.0");
        let response = send(&service, &request);
        let body: Value = serde_json::from_slice(&response.body).unwrap();
        assert_eq!(response.header_value("vary"), Some("Accept"));
        (
            response.status,
            body["code"].as_str().unwrap().to_owned(),
            body["field"].clone(),
        )
    };
    assert_eq!(
        refused("/v4/attest/gpu?result=jwt", None),
        (400, "ERR_REQUEST_RESULT_FORMAT".into(), json!("result"))
    );
    let other_profile = r#"application/eat+jwt; eat_profile="tag:ietf.org,2026:rats/ear#03""#;
    assert_eq!(
        refused("/v4/attest/gpu", Some(other_profile)),
        (406, "ERR_NOT_ACCEPTABLE".into(), json!("Accept"))
    );
    // A request error stays the request error (JSON), EAR asked or not.
    let bad = Request::new("POST", "/v4/attest/gpu?result=ear")
        .header("Accept", EAR_ACCEPT)
        .body(b"{}".to_vec());
    let response = service.handle(&bad, UnixTime::from_secs(now()).unwrap(), [1; 32]);
    assert_eq!(response.status, 400);
    assert_eq!(
        response.header_value("content-type"),
        Some("application/json")
    );
}

#[test]
fn the_services_policy_is_the_ears_appraisal_policy() {
    let nvidia = read("nvidia/policies/nvtrust/remote_v4_NVGPURemotePolicyExample.json");
    let met = service(Some(&nvidia));
    let (request, nonce) = attest_request("/v4/attest/gpu", Some(EAR_ACCEPT), "3.0");
    let ear = ear_of(&met, &send(&met, &request), &nonce);
    let id = policy_id(&Policy::parse(nvidia.as_bytes()).unwrap());
    let (_, appraisal) = &ear.submods()[0];
    assert_eq!(appraisal.status, TrustTier::Affirming);
    assert_eq!(appraisal.policy_ids, std::slice::from_ref(&id));

    let strict = json!({"version": "4.0", "authorization-rules": {
        "type": "JWT", "overall-claims": {}, "detached-claims": {"x-nvidia-gpu-driver-version": "999.0"}}})
    .to_string();
    let failed = service(Some(&strict));
    let ear = ear_of(&failed, &send(&failed, &request), &nonce);
    let (_, appraisal) = &ear.submods()[0];
    // NVIDIA's checks passed (the vector), the relying party's policy did not (the status).
    assert_eq!(appraisal.status, TrustTier::Contraindicated);
    assert_eq!(appraisal.vector, Some(approved()));
    assert!(!ear.affirming());
    assert_eq!(ear.status().as_str(), "contraindicated");
}

#[test]
fn the_ear_is_refused_under_another_nonce_or_when_tampered() {
    let service = service(None);
    let (request, nonce) = attest_request("/v4/attest/gpu", Some(EAR_ACCEPT), "3.0");
    let response = send(&service, &request);
    let token = String::from_utf8(response.body).unwrap();
    let jwks = jwks(&service);
    let other = VerifyOptions::new()
        .signers(Signers::Any)
        .nonce(&"ab".repeat(32));
    assert_eq!(
        verify_ear(&token, &jwks, &other, UnixTime::from_secs(now()).unwrap())
            .unwrap_err()
            .code(),
        "ERR_EAT_NONCE_MISMATCH"
    );
    let (head, rest) = token.split_once('.').unwrap();
    let (payload, signature) = rest.split_once('.').unwrap();
    let mut claims: Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap(),
    )
    .unwrap();
    claims["submods"]["GPU-0"]["ear.status"] = json!("affirming");
    claims["iat"] = json!(claims["iat"].as_i64().unwrap() - 1);
    let forged = format!(
        "{head}.{}.{signature}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(claims.to_string())
    );
    let options = VerifyOptions::new().signers(Signers::Any).nonce(&nonce);
    assert_eq!(
        verify_ear(
            &forged,
            &jwks,
            &options,
            UnixTime::from_secs(now()).unwrap()
        )
        .unwrap_err()
        .code(),
        "ERR_JWS_SIGNATURE_VERIFICATION_FAILED"
    );
}

#[test]
fn the_04_dialect_is_served_as_a_jwt_and_as_a_binary_cwt() {
    let service = service(None);
    let v04 = "tag:ietf.org,2026:rats/ear#04";
    let at = UnixTime::from_secs(now()).unwrap();
    for (accept, cwt) in [
        (
            format!(r#"application/eat+jwt; eat_profile="{v04}""#),
            false,
        ),
        (format!(r#"application/eat-jwt;eat_profile="{v04}""#), false),
        (format!(r#"application/eat+cwt; eat_profile="{v04}""#), true),
        ("application/eat-cwt".to_owned(), true),
    ] {
        let (request, nonce) = attest_request("/v4/attest/gpu", Some(&accept), "3.0");
        let response = send(&service, &request);
        assert_eq!(response.status, 200, "{accept}");
        let media = if cwt {
            "application/eat+cwt"
        } else {
            "application/eat+jwt"
        };
        assert_eq!(
            response.header_value("content-type"),
            Some(format!(r#"{media}; eat_profile="{v04}""#).as_str()),
            "{accept}"
        );
        let options = VerifyOptions::new()
            .signers(Signers::Any)
            .nonce(&nonce)
            .max_age(60)
            .leeway(5);
        let ear = if cwt {
            assert_eq!(response.body[0], 0xd2, "a COSE_Sign1 (tag 18), binary");
            edgeattest::ear::verify_ear_cwt(&response.body, &jwks(&service), &options, at).unwrap()
        } else {
            let token = std::str::from_utf8(&response.body).unwrap();
            let claims: Value = serde_json::from_slice(
                &base64::engine::general_purpose::URL_SAFE_NO_PAD
                    .decode(token.split('.').nth(1).unwrap())
                    .unwrap(),
            )
            .unwrap();
            assert_eq!(claims["eat_profile"], v04);
            assert_eq!(claims["ear_status"], "affirming");
            assert!(claims["submods"]["GPU-0"]["ear_status"].is_string());
            verify_ear(token, &jwks(&service), &options, at).unwrap()
        };
        assert_eq!(
            ear.dialect(),
            edgeattest::ear::EarDialect::Ietf04,
            "{accept}"
        );
        assert_eq!(ear.nonce(), Some(nonce.as_str()));
        let [(label, appraisal)] = ear.submods() else {
            panic!("{accept}")
        };
        assert_eq!(label, "GPU-0");
        assert_eq!(appraisal.status, TrustTier::Affirming);
        assert_eq!(appraisal.vector, Some(approved()));
    }
    // The veraison profile has no CWT form; an unknown profile stays 406.
    for accept in [
        r#"application/eat+cwt; eat_profile="tag:github.com,2023:veraison/ear""#,
        r#"application/eat+cwt; eat_profile="tag:ietf.org,2026:rats/ear#03""#,
    ] {
        let (request, _) = attest_request("/v4/attest/gpu", Some(accept), "3.0");
        assert_eq!(send(&service, &request).status, 406, "{accept}");
    }
}
