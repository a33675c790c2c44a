//! The service's keys: the JWKS publishes the active key's certificate chain as `x5c` when
//! one is configured (only a chain whose leaf carries that key), the retired keys after it,
//! and a key held outside the core the same way as one held inside.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use edgeattest::chain::{parse_pem_chain, TrustStore};
use edgeattest::crypto::SigningKey;
use edgeattest::rim::RimTrust;
use edgeattest::service::{KeyRing, Request, Service, ServiceConfig};
use edgeattest::token::{Jwks, JwksKey, TokenError};
use edgeattest::UnixTime;
use serde_json::Value;

fn generated(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/generated/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn jwks_body(keys: KeyRing) -> Value {
    let service = Service::new(
        ServiceConfig::default(),
        keys,
        TrustStore::nvidia_device_identity().unwrap(),
        RimTrust::nvidia(),
        1,
    );
    let response = service.handle(
        &Request::new("GET", "/.well-known/jwks.json"),
        UnixTime::from_secs(0).unwrap(),
        [0; 32],
    );
    assert_eq!(response.status, 200);
    serde_json::from_slice(&response.body).unwrap()
}

#[test]
fn the_jwks_publishes_the_signing_certificate_chain_as_x5c() {
    let key = SigningKey::from_pkcs8_pem(&generated("token_signing_key.pem")).unwrap();
    let chain = generated("token_signing_chain.pem");
    let ders = parse_pem_chain(&chain).unwrap();
    assert_eq!(ders.len(), 2);
    let ring = KeyRing::new(key.clone(), None)
        .with_certificate_pem(&chain)
        .unwrap();
    let body = jwks_body(ring);
    let published = &body["keys"][0];
    let x5c: Vec<&str> = published["x5c"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    // RFC 7517 §4.7: standard base64 of each DER certificate, leaf first.
    assert_eq!(x5c, [STANDARD.encode(&ders[0]), STANDARD.encode(&ders[1])]);
    let parsed = Jwks::parse(body.to_string().as_bytes()).unwrap();
    assert_eq!(parsed.keys()[0].x5c_leaf_matches(), Ok(Some(true)));
    assert_eq!(parsed.keys()[0].public_key(), &key.public_key());

    // The same chain for a key held by the host.
    let external = KeyRing::external(key.public_key(), None)
        .with_certificate_pem(&chain)
        .unwrap();
    assert_eq!(jwks_body(external), body);
}

#[test]
fn a_chain_for_another_key_or_no_chain_is_refused() {
    let chain = generated("token_signing_chain.pem");
    let other = SigningKey::generate(&[3u8; 48]).unwrap();
    let error = KeyRing::new(other, None)
        .with_certificate_pem(&chain)
        .unwrap_err();
    assert_eq!(
        error,
        TokenError::JwksInvalid {
            field: "x5c[0]".into()
        }
    );
    let key = SigningKey::from_pkcs8_pem(&generated("token_signing_key.pem")).unwrap();
    for bad in [
        "",
        "no PEM here",
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    ] {
        let error = KeyRing::new(key.clone(), None)
            .with_certificate_pem(bad)
            .unwrap_err();
        assert!(
            matches!(error, TokenError::JwksInvalid { .. }),
            "{bad:?}: {error:?}"
        );
    }
    // The CA first: its key is not the signing key.
    let ders = parse_pem_chain(&chain).unwrap();
    let reversed = [&ders[1], &ders[0]]
        .iter()
        .map(|der| pem_of(der))
        .collect::<String>();
    assert!(KeyRing::new(key, None)
        .with_certificate_pem(&reversed)
        .is_err());
}

fn pem_of(der: &[u8]) -> String {
    format!(
        "-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----\n",
        STANDARD.encode(der)
    )
}

#[test]
fn retired_keys_follow_the_active_one() {
    let active = SigningKey::generate(&[1u8; 48]).unwrap();
    let retired = SigningKey::generate(&[2u8; 48]).unwrap();
    let body = jwks_body(
        KeyRing::external(active.public_key(), Some("new".into()))
            .with_retired(vec![JwksKey::new(Some("old".into()), retired.public_key())]),
    );
    let kids: Vec<&str> = body["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["kid"].as_str().unwrap())
        .collect();
    assert_eq!(kids, ["new", "old"]);
    assert!(body["keys"][0].get("d").is_none());
}
