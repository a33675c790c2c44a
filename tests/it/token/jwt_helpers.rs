//! The test key, its JWKS and raw-token builders shared by the JWT tests (`attacks.rs`,
//! `claim_boundaries.rs`). Included beside them by the wasm suites (`tests/wasm_node.rs`,
//! `tests/wasm_browser.rs`), so both reach it as `super::jwt_helpers`.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use edgeattest::crypto::SigningKey;
use edgeattest::token::{Jwks, JwksKey};
use serde_json::json;

/// The test key's id in [`jwks`].
pub(crate) const KID: &str = "test-kid";
/// The time the tokens are verified at (Unix seconds).
pub(crate) const NOW: u64 = 1_782_698_883;

/// The test signing key (fixed seed).
pub(crate) fn key() -> SigningKey {
    SigningKey::generate(&[0x42; 48]).unwrap()
}

/// A JWKS holding the test key's public key under [`KID`].
pub(crate) fn jwks() -> Jwks {
    Jwks::new(vec![JwksKey::new(Some(KID.into()), key().public_key())]).unwrap()
}

/// base64url without padding.
pub(crate) fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// A token with exactly the given header and payload text, signed by the test key.
pub(crate) fn raw(header: &str, payload: &str) -> String {
    let input = format!("{}.{}", b64(header.as_bytes()), b64(payload.as_bytes()));
    let sig = key().sign(input.as_bytes());
    format!("{input}.{}", b64(&sig))
}

/// Claims that pass every check at [`NOW`].
pub(crate) fn good_claims() -> serde_json::Value {
    json!({"iss": "https://issuer.example", "iat": NOW, "nbf": NOW, "exp": NOW + 3600, "eat_nonce": "abc"})
}
