//! Fuzz target bodies for the attestation service: one request through `Service::handle`,
//! and the exchange answered by a hostile host. Part of `harness.rs`.

use std::sync::OnceLock;

use edgeattest::crypto::SigningKey;
use edgeattest::rim::RimTrust;
use edgeattest::UnixTime;

use super::{check_code, device_store, fuzz_signing_key, split, text, token_signing_key, NOW};
use edgeattest::token::Signers;

fn service() -> &'static edgeattest::service::Service {
    use edgeattest::service::{KeyRing, Service, ServiceConfig};
    static SERVICE: OnceLock<Service> = OnceLock::new();
    SERVICE.get_or_init(|| {
        let keys = KeyRing::new(
            SigningKey::generate(&[9u8; 48]).expect("key"),
            Some("fuzz-kid".into()),
        );
        let mut service = Service::new(
            ServiceConfig {
                issuer: Some("https://fuzz.edgeattest.test".into()),
                ..ServiceConfig::default()
            },
            keys,
            device_store(),
            RimTrust::nvidia(),
            1,
        );
        let rims = service.rims_mut();
        rims.insert_named(
            "NV_SWITCH_BIOS_5612_0002_890_9610550001.xml",
            include_bytes!(
                "../../fixtures/nvidia/rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml"
            )
            .to_vec(),
        )
        .expect("rim");
        rims.insert_named(
            "1010_0200_882_96005E0001_PROD.swidtag",
            include_bytes!("../../fixtures/nvidia/rims/nvtrust/1010_0200_882_96005E0001_PROD.swidtag")
                .to_vec(),
        )
        .expect("rim");
        service
    })
}

/// `service_request`: one whole HTTP-shaped request to the attestation service. Input:
/// selector byte (method), then `path SEP headers SEP body`, headers as `name: value` lines.
/// The service must answer every request without a server error, with a JSON body whose
/// error responses carry an `ERR_*` code.
pub fn service_request(data: &[u8]) {
    use edgeattest::service::Request;
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let parts = split(rest, 3);
    let method = [
        "POST", "GET", "HEAD", "OPTIONS", "PUT", "DELETE", "post", "",
    ][usize::from(selector) % 8];
    let mut request = Request::new(method, &text(parts[0])).body(parts[2].to_vec());
    for line in text(parts[1]).lines() {
        if let Some((name, value)) = line.split_once(':') {
            request = request.header(name.trim(), value.trim());
        }
    }
    let response = service().handle(&request, UnixTime::from_secs(NOW).unwrap(), [selector; 32]);
    assert!(
        (100..500).contains(&response.status),
        "status {} for {} {}: {}",
        response.status,
        request.method,
        request.path,
        String::from_utf8_lossy(&response.body)
    );
    if !response.body.is_empty() {
        let body = edgeattest::json::parse(&response.body).expect("response body is JSON");
        if response.status >= 400 {
            let code = body
                .get("code")
                .and_then(|c| c.as_str())
                .unwrap_or_default();
            assert!(code.starts_with("ERR_"), "error without a code: {body}");
        }
    }
}

/// The service with a key it does not hold (`KeyRing::external`): the host signs.
fn external_service() -> &'static edgeattest::service::Service {
    use edgeattest::service::{KeyRing, Service, ServiceConfig};
    static SERVICE: OnceLock<Service> = OnceLock::new();
    SERVICE.get_or_init(|| {
        let public = token_signing_key().public_key();
        let mut service = Service::new(
            ServiceConfig {
                issuer: Some("https://fuzz.edgeattest.test".into()),
                ..ServiceConfig::default()
            },
            KeyRing::external(public, Some("fuzz-external".into())),
            device_store(),
            RimTrust::nvidia(),
            1,
        );
        service
            .rims_mut()
            .insert_named(
                "NV_SWITCH_BIOS_5612_0002_890_9610550001.xml",
                include_bytes!(
                    "../../fixtures/nvidia/rims/nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml"
                )
                .to_vec(),
            )
            .expect("rim");
        service
    })
}

/// The exchange with a hostile host: `[endpoint, policy, body…]`. Two bits of the policy
/// byte per round (at most four rounds) pick the answer: 0 the true one; 1 first wrong-count,
/// wrong-kind and malformed answers (each refused, the exchange unchanged), then the true
/// one; 2 every verdict false, or signatures by another key; 3 verdicts alternating from the
/// body's length. Oracles: the exchange ends within 8 rounds with a JSON response; refused
/// answers change nothing; when every answer was the true one, the result verifies with the
/// JWKS.
pub fn service_exchange(data: &[u8]) {
    use edgeattest::attest::Endpoint;
    use edgeattest::service::{ExchangeError, Request, Step};
    use edgeattest::token::{verify_attestation_result, Jwks, ResultFormat, VerifyOptions};
    const PATHS: [&str; 7] = [
        "/v1/attest/gpu",
        "/v2/attest/gpu",
        "/v3/attest/gpu",
        "/v4/attest/gpu",
        "/v2/attest/switch",
        "/v3/attest/switch",
        "/v4/attest/switch",
    ];
    let [endpoint, policy, body @ ..] = data else {
        return;
    };
    let service = external_service();
    let path = PATHS[usize::from(*endpoint) % PATHS.len()];
    // The verifier is told the shape the endpoint answers with (V1 or detached); an honest
    // exchange's verdict may be false (made-up evidence), which is read, not refused.
    let options = Endpoint::from_path(path)
        .map_or_else(VerifyOptions::new, |endpoint| {
            VerifyOptions::new()
                .signers(Signers::Any)
                .result_format(ResultFormat::for_endpoint(endpoint))
        })
        .allow_failed_result(true);
    let request = Request::new("POST", path)
        .header("content-type", "application/json")
        .body(body.to_vec());
    let mut exchange = service.begin(&request, UnixTime::from_secs(NOW).unwrap(), [*policy; 32]);
    let mut round = 0u32;
    let mut next = || {
        let choice = (u32::from(*policy) >> (2 * (round % 4))) & 3;
        round += 1;
        choice
    };
    let mut honest = true;
    let key = token_signing_key();
    for _ in 0..8 {
        let choice = next();
        match exchange.step() {
            Step::Respond(response) => {
                let json = edgeattest::json::parse(&response.body).expect("response body is JSON");
                if response.status != 200 {
                    assert!(response.status < 600, "status {}", response.status);
                    let code = json
                        .get("code")
                        .and_then(|c| c.as_str())
                        .unwrap_or_default();
                    assert!(code.starts_with("ERR_"), "error without a code: {json}");
                } else if honest {
                    let jwks_response = service.handle(
                        &Request::new("GET", "/.well-known/jwks.json"),
                        UnixTime::from_secs(NOW).unwrap(),
                        [0; 32],
                    );
                    let jwks = Jwks::parse(&jwks_response.body).expect("jwks");
                    verify_attestation_result(
                        &response.body,
                        &jwks,
                        &options,
                        UnixTime::from_secs(NOW).unwrap(),
                    )
                    .expect("an honest exchange's result verifies");
                }
                return;
            }
            Step::Verify(checks) => {
                let n = checks.len();
                let truth: Vec<bool> = checks.iter().map(|c| c.verify().is_ok()).collect();
                let answer: Vec<bool> = match choice {
                    1 => {
                        let error = exchange.verified(service, &vec![true; n + 1]).unwrap_err();
                        assert!(
                            matches!(error, ExchangeError::AnswerCount { .. }),
                            "{error:?}"
                        );
                        check_code(&error);
                        let error = exchange.signed(service, &[]).unwrap_err();
                        check_code(&error);
                        truth
                    }
                    2 => {
                        honest = false;
                        vec![false; n]
                    }
                    3 => {
                        honest = false;
                        (0..n).map(|i| (i + body.len()) % 2 == 0).collect()
                    }
                    _ => truth,
                };
                exchange
                    .verified(service, &answer)
                    .expect("a fitting answer is taken");
            }
            Step::Fetch(resources) => {
                // Resources of verified devices only; the fuzz host fetches nothing.
                assert!(!resources.is_empty());
                if choice == 1 {
                    let error = exchange.verified(service, &[]).unwrap_err();
                    check_code(&error);
                }
                exchange
                    .fetched_nothing(service)
                    .expect("a fetch is answered");
            }
            Step::Sign(inputs) => {
                let inputs: Vec<Vec<u8>> = inputs.to_vec();
                if choice == 1 {
                    for bad in [vec![0u8; 96], vec![1u8; 95], Vec::new()] {
                        let error = exchange
                            .signed(service, &vec![bad; inputs.len()])
                            .unwrap_err();
                        assert!(matches!(error, ExchangeError::Signature(_)), "{error:?}");
                        check_code(&error);
                    }
                    let error = exchange.verified(service, &[]).unwrap_err();
                    check_code(&error);
                }
                let signer = if choice >= 2 {
                    honest = false;
                    fuzz_signing_key()
                } else {
                    key.clone()
                };
                let signatures: Vec<Vec<u8>> = inputs
                    .iter()
                    .map(|input| signer.sign(input).to_vec())
                    .collect();
                exchange
                    .signed(service, &signatures)
                    .expect("well-formed signatures are taken");
            }
        }
    }
    panic!("the exchange did not finish in 8 rounds");
}
