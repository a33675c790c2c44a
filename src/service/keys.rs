//! The service's token keys: one key signs, the JWKS publishes it and the recently retired
//! ones (spec §2 "Key set").
//!
//! Rotation without downtime: the host makes the new key active and keeps the previous one
//! in `retired` for at least the token lifetime, so every token still in circulation stays
//! verifiable while new tokens carry the new `kid`. Clients that cache the JWKS refresh on an
//! unknown `kid`, as the real clients do.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::crypto::{PublicKey, SigningKey};
use crate::token::{Jwks, JwksKey, TokenError};

/// The signing key and the keys the JWKS publishes.
#[derive(Clone, Debug)]
pub struct KeyRing {
    kid: String,
    public: PublicKey,
    /// `None`: the private key lives with the host (a WebCrypto `CryptoKey`, an HSM), which
    /// signs each signing input an [`super::Exchange`] hands out.
    signing: Option<SigningKey>,
    x5c: Option<Vec<String>>,
    retired: Vec<JwksKey>,
}

impl KeyRing {
    /// A ring whose active key is `signing`; its `kid` defaults to the RFC 7638 thumbprint.
    pub fn new(signing: SigningKey, kid: Option<String>) -> Self {
        let public = signing.public_key();
        Self {
            kid: kid.unwrap_or_else(|| thumbprint(&public)),
            public,
            signing: Some(signing),
            x5c: None,
            retired: Vec::new(),
        }
    }

    /// A ring whose active private key stays with the host — a non-extractable WebCrypto
    /// key, say — so it never enters the core's memory: the core publishes `public` and the
    /// host signs the signing inputs of each [`super::Exchange`]. The host must hold the
    /// private half of `public` (the worker proves it once at start-up).
    pub fn external(public: PublicKey, kid: Option<String>) -> Self {
        Self {
            kid: kid.unwrap_or_else(|| thumbprint(&public)),
            public,
            signing: None,
            x5c: None,
            retired: Vec::new(),
        }
    }

    /// Publishes the active key with an `x5c` chain (base64 DER, leaf first).
    #[must_use]
    pub fn with_x5c(mut self, x5c: Vec<String>) -> Self {
        self.x5c = Some(x5c);
        self
    }

    /// Publishes the active key with the certificate chain that certifies it (PEM, leaf
    /// first) as `x5c`, as the real service's JWKS does. The leaf must carry the active key.
    ///
    /// # Errors
    /// [`TokenError::JwksInvalid`]: `x5c` when the text holds no certificate or a block that
    /// is not one, `x5c[0]` when the leaf's key is not the active key.
    pub fn with_certificate_pem(self, pem: &str) -> Result<Self, TokenError> {
        use base64::Engine as _;
        let ders = crate::chain::parse_pem_chain(pem).map_err(|_| TokenError::JwksInvalid {
            field: "x5c".into(),
        })?;
        let x5c: Vec<String> = ders
            .iter()
            .map(|der| base64::engine::general_purpose::STANDARD.encode(der))
            .collect();
        let published = JwksKey::new(Some(self.kid.clone()), self.public).with_x5c(x5c.clone());
        match published.x5c_leaf_matches()? {
            Some(true) => Ok(self.with_x5c(x5c)),
            _ => Err(TokenError::JwksInvalid {
                field: "x5c[0]".into(),
            }),
        }
    }

    /// Adds retired keys: published in the JWKS, never used to sign.
    #[must_use]
    pub fn with_retired(mut self, retired: Vec<JwksKey>) -> Self {
        self.retired.extend(retired);
        self
    }

    /// The active key's id.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// The active signing key, when the core holds it (see [`Self::external`]).
    pub fn signing_key(&self) -> Option<&SigningKey> {
        self.signing.as_ref()
    }

    /// The active key's public half.
    pub fn public_key(&self) -> &PublicKey {
        &self.public
    }

    /// The key set: the active key first, then the retired ones (a retired key with the
    /// active `kid` is dropped).
    ///
    /// # Errors
    /// [`TokenError`] when the retired keys repeat a `kid` or exceed the JWKS limit.
    pub fn jwks(&self) -> Result<Jwks, TokenError> {
        let mut active = JwksKey::new(Some(self.kid.clone()), self.public);
        if let Some(x5c) = &self.x5c {
            active = active.with_x5c(x5c.clone());
        }
        let mut keys = Vec::from([active]);
        keys.extend(
            self.retired
                .iter()
                .filter(|key| key.kid() != Some(self.kid.as_str()))
                .cloned(),
        );
        Jwks::new(keys)
    }
}

/// The RFC 7638 JWK thumbprint (SHA-256, base64url) of a P-384 key: a stable `kid`.
pub fn thumbprint(key: &PublicKey) -> String {
    // RFC 7638 §3.2: the required members in lexicographic order, no whitespace.
    #[derive(Serialize)]
    struct Required<'a> {
        crv: &'a str,
        kty: &'a str,
        x: &'a str,
        y: &'a str,
    }
    let jwk = key.to_jwk(None);
    let canonical = crate::json::write::to_vec(&Required {
        crv: &jwk.crv,
        kty: &jwk.kty,
        x: &jwk.x,
        y: &jwk.y,
    })
    .unwrap_or_default();
    crate::crypto::b64url_encode(&Sha256::digest(&canonical))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thumbprint_is_rfc_7638() {
        // Independent computation of the thumbprint of the same key from its JWK members.
        let key = SigningKey::generate(&[7u8; 48]).unwrap().public_key();
        let jwk = key.to_jwk(None);
        let canonical = alloc::format!(
            r#"{{"crv":"P-384","kty":"EC","x":"{}","y":"{}"}}"#,
            jwk.x,
            jwk.y
        );
        let expected = crate::crypto::b64url_encode(&Sha256::digest(canonical.as_bytes()));
        assert_eq!(thumbprint(&key), expected);
        assert_eq!(thumbprint(&key).len(), 43);
    }

    #[test]
    fn jwks_lists_active_then_retired() {
        let old = SigningKey::generate(&[1u8; 48]).unwrap();
        let new = SigningKey::generate(&[2u8; 48]).unwrap();
        let ring = KeyRing::new(new.clone(), Some("new".into()))
            .with_x5c(Vec::from([String::from("MIIB")]))
            .with_retired(Vec::from([
                JwksKey::new(Some("old".into()), old.public_key()),
                JwksKey::new(Some("new".into()), old.public_key()),
            ]));
        let jwks = ring.jwks().unwrap();
        let kids: Vec<_> = jwks.keys().iter().map(|k| k.kid()).collect();
        assert_eq!(kids, [Some("new"), Some("old")]);
        assert_eq!(jwks.keys()[0].public_key(), &new.public_key());
        assert_eq!(jwks.keys()[0].x5c(), Some(&[String::from("MIIB")][..]));
        assert_eq!(ring.kid(), "new");
    }
}
