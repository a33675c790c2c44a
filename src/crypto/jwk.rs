//! The JSON Web Key form of P-384 keys (RFC 7517 §4, RFC 7518 §6.2): the serialised [`Jwk`]
//! and the strict readers of its members.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::b64url;
use super::key_error::KeyError;
use super::COORDINATE_LEN;

/// A P-384 JSON Web Key as this crate writes it (RFC 7518 §6.2): members in the order the
/// real attestation service uses (`kty`, `crv`, `kid`, `x5c`, `x`, `y`), `d` only for private
/// keys.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "P384Jwk"))]
pub struct Jwk {
    /// Always `EC`.
    #[cfg_attr(feature = "ts", ts(type = "\"EC\""))]
    pub kty: String,
    /// Always `P-384`.
    #[cfg_attr(feature = "ts", ts(type = "\"P-384\""))]
    pub crv: String,
    /// Key id.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub kid: Option<String>,
    /// Certificate chain (base64 DER, leaf first), carried unchanged.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub x5c: Option<Vec<String>>,
    /// base64url of the 48-byte x coordinate.
    pub x: String,
    /// base64url of the 48-byte y coordinate.
    pub y: String,
    /// base64url of the 48-byte private scalar (private keys only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub d: Option<String>,
}

impl fmt::Debug for Jwk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Jwk")
            .field("kid", &self.kid)
            .field("x", &self.x)
            .field("y", &self.y)
            .field("private", &self.d.is_some())
            .finish()
    }
}

impl Jwk {
    /// The JWK as a JSON object.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

pub(super) fn jwk_object(text: &[u8]) -> Result<Map<String, Value>, KeyError> {
    match crate::json::parse(text) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(KeyError::InvalidJwk { field: "jwk" }),
    }
}

pub(super) fn check_jwk_type(jwk: &Map<String, Value>) -> Result<(), KeyError> {
    for (field, expected, required) in [
        ("kty", "EC", true),
        ("crv", "P-384", true),
        ("alg", "ES384", false),
    ] {
        match jwk.get(field) {
            None if !required => {}
            None => return Err(KeyError::InvalidJwk { field }),
            Some(Value::String(value)) if value == expected => {}
            Some(Value::String(value)) => {
                return Err(KeyError::UnsupportedKey {
                    field,
                    value: value.clone(),
                })
            }
            Some(_) => return Err(KeyError::InvalidJwk { field }),
        }
    }
    Ok(())
}

pub(super) fn coordinate(
    jwk: &Map<String, Value>,
    field: &'static str,
) -> Result<Vec<u8>, KeyError> {
    jwk.get(field)
        .and_then(Value::as_str)
        .and_then(b64url::decode)
        .filter(|bytes| bytes.len() == COORDINATE_LEN)
        .ok_or(KeyError::InvalidJwk { field })
}
