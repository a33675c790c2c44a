//! Key sets and P-384 keys as wasm classes (their TS types are hand-written in
//! `types/token.d.ts`). Every format rule is the core's (`crate::crypto`, `Jwks`).

use alloc::string::String;
use alloc::vec::Vec;

use js_sys::Array;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::super::error::OrJs;
use super::super::{args, convert};
use crate::crypto::{KeyError, PublicKey, SigningKey};
use crate::token::Jwks;

/// A parsed JWKS, kept in wasm memory so that it is parsed once.
#[wasm_bindgen(js_name = KeySet, skip_typescript)]
pub struct KeySet {
    pub(in crate::wasm) jwks: Jwks,
}

#[wasm_bindgen(js_class = KeySet)]
impl KeySet {
    /// Parses a JWKS (JSON text, bytes or object), strictly.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | { keys: object[] }")]
        jwks: JsValue,
    ) -> Result<KeySet, JsValue> {
        let jwks = Jwks::parse(&args::json_bytes(&jwks, "jwks")?).or_js()?;
        Ok(Self { jwks })
    }

    /// The usable keys' ids, in document order.
    #[wasm_bindgen(getter, unchecked_return_type = "(string | null)[]")]
    pub fn kids(&self) -> Array {
        let kid = |key: &crate::token::JwksKey| key.kid().map_or(JsValue::NULL, JsValue::from);
        self.jwks.keys().iter().map(kid).collect()
    }

    /// The set as JSON text.
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "{ keys: P384Jwk[] }")]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        convert::parse_json(&self.jwks.to_json())
    }
}

/// A P-384 public key.
#[wasm_bindgen(js_name = P384PublicKey, skip_typescript)]
pub struct P384PublicKey {
    key: PublicKey,
}

#[wasm_bindgen(js_class = P384PublicKey)]
impl P384PublicKey {
    /// From a JWK (object or JSON text).
    #[wasm_bindgen(js_name = fromJwk)]
    pub fn from_jwk(
        #[wasm_bindgen(unchecked_param_type = "string | object")] jwk: JsValue,
    ) -> Result<P384PublicKey, JsValue> {
        public(PublicKey::from_jwk_json(&args::json_bytes(&jwk, "jwk")?))
    }

    /// From key text by the core's one rule (a JWK when it starts with `{`, else SPKI PEM),
    /// or a JWK object.
    #[wasm_bindgen(js_name = fromText)]
    pub fn from_text(
        #[wasm_bindgen(unchecked_param_type = "string | object")] input: JsValue,
    ) -> Result<P384PublicKey, JsValue> {
        match input.as_string() {
            Some(text) => public(PublicKey::from_text(&text)),
            None => Self::from_jwk(input),
        }
    }

    /// From SPKI PEM text.
    #[wasm_bindgen(js_name = fromSpkiPem)]
    pub fn from_spki_pem(
        #[wasm_bindgen(unchecked_param_type = "string")] pem: JsValue,
    ) -> Result<P384PublicKey, JsValue> {
        public(PublicKey::from_spki_pem(&args::string_arg(&pem, "pem")?))
    }

    /// From SEC1 bytes (the WebCrypto `raw` format).
    #[wasm_bindgen(js_name = fromSec1)]
    pub fn from_sec1(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | ArrayBuffer | string")] bytes: JsValue,
    ) -> Result<P384PublicKey, JsValue> {
        public(PublicKey::from_sec1(&args::bytes(&bytes, "publicKey")?))
    }

    /// The JWK, with `kid` when given.
    #[wasm_bindgen(js_name = toJwk, unchecked_return_type = "P384Jwk")]
    pub fn to_jwk(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "string | null")] kid: JsValue,
    ) -> Result<JsValue, JsValue> {
        let kid = args::optional_string(&kid, "kid")?;
        convert::json_to_js(&self.key.to_jwk(kid.as_deref()))
    }

    /// SPKI PEM text.
    #[wasm_bindgen(js_name = toSpkiPem)]
    pub fn to_spki_pem(&self) -> String {
        self.key.to_spki_pem()
    }

    /// Uncompressed SEC1 bytes.
    #[wasm_bindgen(js_name = toSec1)]
    pub fn to_sec1(&self) -> Vec<u8> {
        self.key.to_sec1()
    }
}

/// A P-384 signing key held in wasm memory (the software backend).
#[wasm_bindgen(js_name = P384PrivateKey, skip_typescript)]
pub struct P384PrivateKey {
    pub(super) key: SigningKey,
}

#[wasm_bindgen(js_class = P384PrivateKey)]
impl P384PrivateKey {
    /// A new key from 48 bytes of `crypto.getRandomValues` (retried on the rare rejected
    /// block, see `SigningKey::generate`).
    pub fn generate() -> Result<P384PrivateKey, JsValue> {
        private(SigningKey::generate(&args::random_bytes::<96>()?))
    }

    /// From a private JWK (object or JSON text).
    #[wasm_bindgen(js_name = fromJwk)]
    pub fn from_jwk(
        #[wasm_bindgen(unchecked_param_type = "string | object")] jwk: JsValue,
    ) -> Result<P384PrivateKey, JsValue> {
        private(SigningKey::from_jwk_json(&args::json_bytes(&jwk, "jwk")?))
    }

    /// From key text by the core's one rule, as a service's `signingKey` is read (a private
    /// JWK when it starts with `{`, else PKCS#8 PEM), or a private JWK object.
    #[wasm_bindgen(js_name = fromText)]
    pub fn from_text(
        #[wasm_bindgen(unchecked_param_type = "string | object")] input: JsValue,
    ) -> Result<P384PrivateKey, JsValue> {
        match input.as_string() {
            Some(text) => private(SigningKey::from_text(&text)),
            None => Self::from_jwk(input),
        }
    }

    /// From PKCS#8 PEM text.
    #[wasm_bindgen(js_name = fromPkcs8Pem)]
    pub fn from_pkcs8_pem(
        #[wasm_bindgen(unchecked_param_type = "string")] pem: JsValue,
    ) -> Result<P384PrivateKey, JsValue> {
        private(SigningKey::from_pkcs8_pem(&args::string_arg(&pem, "pem")?))
    }

    /// The private JWK (with `d`).
    #[wasm_bindgen(js_name = toJwk, unchecked_return_type = "P384Jwk")]
    pub fn to_jwk(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "string | null")] kid: JsValue,
    ) -> Result<JsValue, JsValue> {
        let kid = args::optional_string(&kid, "kid")?;
        convert::json_to_js(&self.key.to_jwk(kid.as_deref()))
    }

    /// PKCS#8 PEM text.
    #[wasm_bindgen(js_name = toPkcs8Pem)]
    pub fn to_pkcs8_pem(&self) -> String {
        self.key.to_pkcs8_pem()
    }

    /// PKCS#8 DER bytes (for `crypto.subtle.importKey("pkcs8", …)`).
    #[wasm_bindgen(js_name = toPkcs8Der)]
    pub fn to_pkcs8_der(&self) -> Vec<u8> {
        self.key.to_pkcs8_der()
    }

    /// The public key.
    #[wasm_bindgen(js_name = publicKey)]
    pub fn public_key(&self) -> P384PublicKey {
        let key = self.key.public_key();
        P384PublicKey { key }
    }

    /// Signs `message`: raw 96-byte r||s, deterministic, low S.
    pub fn sign(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | number[]")] message: JsValue,
    ) -> Result<Vec<u8>, JsValue> {
        Ok(self.key.sign(&args::bytes(&message, "message")?).to_vec())
    }
}

fn public(key: Result<PublicKey, KeyError>) -> Result<P384PublicKey, JsValue> {
    key.map(|key| P384PublicKey { key }).or_js()
}

fn private(key: Result<SigningKey, KeyError>) -> Result<P384PrivateKey, JsValue> {
    key.map(|key| P384PrivateKey { key }).or_js()
}
