//! NVIDIA's recorded TEEP exchanges (`tests/fixtures/nvidia/nras/teep/`): the attestation
//! result, the JWKS it was signed under, the request's nonce and the result's `iat`.
#![cfg(not(target_arch = "wasm32"))]

use std::fs;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use edgeattest::token::Jwks;
use serde_json::Value;

/// A file under `tests/fixtures/nvidia/`.
pub(crate) fn fixture(path: &str) -> Vec<u8> {
    let full = format!(
        "{}/tests/fixtures/nvidia/{path}",
        env!("CARGO_MANIFEST_DIR")
    );
    fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// One recorded exchange.
pub(crate) struct Capture {
    pub(crate) response: Vec<u8>,
    pub(crate) jwks: Jwks,
    pub(crate) nonce: String,
    pub(crate) iat: u64,
}

/// The exchange recorded as `name` (`..._request.json`, `_response.json`, `_jwks.json`).
pub(crate) fn capture(name: &str) -> Capture {
    let response = fixture(&format!("nras/teep/{name}_response.json"));
    let jwks = Jwks::parse(&fixture(&format!("nras/teep/{name}_jwks.json"))).unwrap();
    let request: Value =
        serde_json::from_slice(&fixture(&format!("nras/teep/{name}_request.json"))).unwrap();
    let result: Value = serde_json::from_slice(&response).unwrap();
    let iat = claims(result[0][1].as_str().unwrap())["iat"]
        .as_u64()
        .unwrap();
    Capture {
        response,
        jwks,
        nonce: request["nonce"].as_str().unwrap().to_owned(),
        iat,
    }
}

/// A JWT's payload, unverified.
pub(crate) fn claims(token: &str) -> Value {
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}
