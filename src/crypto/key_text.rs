//! The one reading of a key given as text (a service's `signingKey` / `publicKey`, the JS
//! `importPrivateKey`): a JWK is JSON text, told by its leading `{`; anything else is PEM.

use super::{KeyError, PublicKey, SigningKey};

/// Whether `text` is a JWK (JSON object text) rather than PEM.
fn is_jwk(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

impl SigningKey {
    /// From a private JWK (JSON text) or PKCS#8 PEM text, told apart by the leading `{`.
    ///
    /// # Errors
    /// As [`SigningKey::from_jwk_json`] or [`SigningKey::from_pkcs8_pem`].
    pub fn from_text(text: &str) -> Result<Self, KeyError> {
        if is_jwk(text) {
            Self::from_jwk_json(text.as_bytes())
        } else {
            Self::from_pkcs8_pem(text)
        }
    }
}

impl PublicKey {
    /// From a public JWK (JSON text) or SPKI PEM text, told apart as [`SigningKey::from_text`].
    ///
    /// # Errors
    /// As [`PublicKey::from_jwk_json`] or [`PublicKey::from_spki_pem`].
    pub fn from_text(text: &str) -> Result<Self, KeyError> {
        if is_jwk(text) {
            Self::from_jwk_json(text.as_bytes())
        } else {
            Self::from_spki_pem(text)
        }
    }
}
