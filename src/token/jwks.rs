//! JSON Web Key Sets (RFC 7517 §5) of P-384 verification keys: parse, serialise, select by
//! `kid` with panva/jose's filter rules.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::{Map, Value};

use super::TokenError;
use crate::crypto::{Jwk, PublicKey};

/// Most keys a JWKS may hold (the real service publishes 32–36).
pub const MAX_JWKS_KEYS: usize = 256;

/// Largest JWKS text accepted, checked before parsing (the real service's 36 keys with
/// their `x5c` chains take 81 KB; 256 such keys fit).
pub const MAX_JWKS_BYTES: usize = 1024 * 1024;

/// Members that only private or secret keys carry (RFC 7518 §6.2.2, §6.3.2, §6.4.1).
const PRIVATE_MEMBERS: [&str; 8] = ["d", "k", "p", "q", "dp", "dq", "qi", "oth"];

/// One verification key of a set: a P-384 public key with its `kid` and, as published,
/// its `x5c` chain (carried, not validated here).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JwksKey {
    kid: Option<String>,
    key: PublicKey,
    x5c: Option<Vec<String>>,
}

impl JwksKey {
    /// A key with an optional `kid`.
    pub fn new(kid: Option<String>, key: PublicKey) -> Self {
        Self {
            kid,
            key,
            x5c: None,
        }
    }

    /// The same key carrying an `x5c` chain (base64 DER certificates, leaf first).
    #[must_use]
    pub fn with_x5c(mut self, x5c: Vec<String>) -> Self {
        self.x5c = Some(x5c);
        self
    }

    /// The key id.
    pub fn kid(&self) -> Option<&str> {
        self.kid.as_deref()
    }

    /// The public key.
    pub fn public_key(&self) -> &PublicKey {
        &self.key
    }

    /// The `x5c` chain as published.
    pub fn x5c(&self) -> Option<&[String]> {
        self.x5c.as_deref()
    }

    /// Whether the first `x5c` certificate carries this very key (its SPKI equals `x`/`y`),
    /// as the real service's JWKS does: `None` without `x5c`. This binds the key to the
    /// certificate only; validating the certificate chain is the caller's (`crate::chain`).
    ///
    /// # Errors
    /// [`TokenError::JwksInvalid`] (`x5c`) when the first entry is not base64 DER of a
    /// certificate with a P-384 key.
    pub fn x5c_leaf_matches(&self) -> Result<Option<bool>, TokenError> {
        use base64::Engine as _;
        use x509_cert::der::Encode as _;
        let Some(leaf) = self.x5c.as_ref().and_then(|chain| chain.first()) else {
            return Ok(None);
        };
        let invalid = || TokenError::JwksInvalid {
            field: "x5c[0]".into(),
        };
        // RFC 7517 §4.7: standard base64 (with padding), not base64url.
        let der = base64::engine::general_purpose::STANDARD
            .decode(leaf)
            .map_err(|_| invalid())?;
        let spki = crate::x509::Cert::public_key_info(&der)
            .and_then(|spki| spki.to_der().ok())
            .ok_or_else(invalid)?;
        let key = PublicKey::from_spki_der(&spki).map_err(|_| invalid())?;
        Ok(Some(key == self.key))
    }

    /// The key as a JWK.
    pub fn to_jwk(&self) -> Jwk {
        let mut jwk = self.key.to_jwk(self.kid.as_deref());
        jwk.x5c.clone_from(&self.x5c);
        jwk
    }
}

/// A set of ES384 verification keys. Keys of other types, curves, algorithms or uses are
/// dropped when parsing (as jose's key selection filters them); a set that repeats a `kid`
/// or carries private or secret key material is refused outright (Wycheproof
/// `DuplicateKid`, `MixedKeySet`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Jwks {
    keys: Vec<JwksKey>,
}

#[derive(Serialize)]
struct JwksOut {
    keys: Vec<Jwk>,
}

impl Jwks {
    /// A set of the given keys.
    ///
    /// # Errors
    /// [`TokenError::JwksInvalid`] when two keys share a `kid` or there are more than
    /// [`MAX_JWKS_KEYS`].
    pub fn new(keys: Vec<JwksKey>) -> Result<Self, TokenError> {
        if keys.len() > MAX_JWKS_KEYS {
            return Err(TokenError::JwksInvalid {
                field: "keys".into(),
            });
        }
        for (index, key) in keys.iter().enumerate() {
            if let Some(kid) = key.kid() {
                let earlier = keys.get(..index).unwrap_or_default();
                if earlier.iter().any(|other| other.kid() == Some(kid)) {
                    return Err(TokenError::JwksInvalid {
                        field: format!("keys[{index}].kid"),
                    });
                }
            }
        }
        Ok(Self { keys })
    }

    /// Parses JWKS JSON text strictly (duplicate members refused).
    ///
    /// # Errors
    /// [`TokenError::TooLarge`] above [`MAX_JWKS_BYTES`], [`TokenError::Json`],
    /// [`TokenError::JwksInvalid`], [`TokenError::Key`] (an EC P-384 key whose coordinates
    /// are not a point on the curve).
    pub fn parse(text: &[u8]) -> Result<Self, TokenError> {
        if text.len() > MAX_JWKS_BYTES {
            return Err(TokenError::TooLarge {
                what: "jwks",
                limit: MAX_JWKS_BYTES,
            });
        }
        let value = crate::json::parse(text).map_err(|error| TokenError::Json {
            part: "jwks",
            error,
        })?;
        Self::from_value(&value)
    }

    /// Reads a JWKS from a parsed JSON value (see [`Self::parse`]).
    ///
    /// # Errors
    /// As [`Self::parse`].
    pub fn from_value(value: &Value) -> Result<Self, TokenError> {
        let invalid = |field: String| TokenError::JwksInvalid { field };
        let entries = value
            .get("keys")
            .and_then(Value::as_array)
            .ok_or_else(|| invalid("keys".into()))?;
        if entries.len() > MAX_JWKS_KEYS {
            return Err(invalid("keys".into()));
        }
        let mut kids: Vec<&str> = Vec::new();
        let mut keys = Vec::new();
        for (index, entry) in entries.iter().enumerate() {
            let jwk = entry
                .as_object()
                .ok_or_else(|| invalid(format!("keys[{index}]")))?;
            if let Some(member) = PRIVATE_MEMBERS.iter().find(|m| jwk.contains_key(**m)) {
                return Err(invalid(format!("keys[{index}].{member}")));
            }
            match jwk.get("kid") {
                None => {}
                Some(Value::String(kid)) if !kids.contains(&kid.as_str()) => kids.push(kid),
                Some(_) => return Err(invalid(format!("keys[{index}].kid"))),
            }
            if let Some(key) = usable_key(jwk, index)? {
                keys.push(key);
            }
        }
        Ok(Self { keys })
    }

    /// The usable keys, in document order.
    pub fn keys(&self) -> &[JwksKey] {
        &self.keys
    }

    /// The set as JSON: `{"keys":[{"kty":"EC","crv":"P-384","kid":…,"x5c":…,"x":…,"y":…}]}`,
    /// the member order of the real service's JWKS.
    pub fn to_json(&self) -> String {
        let out = JwksOut {
            keys: self.keys.iter().map(JwksKey::to_jwk).collect(),
        };
        crate::json::write::to_string(&out).unwrap_or_default()
    }

    /// The key for a token whose header has `kid` (jose's rules): with a `kid`, the one key
    /// with that `kid`; without, the only key of the set.
    ///
    /// # Errors
    /// [`TokenError::NoMatchingKey`], [`TokenError::MultipleMatchingKeys`].
    pub fn select(&self, kid: Option<&str>) -> Result<&JwksKey, TokenError> {
        match kid {
            Some(kid) => self
                .keys
                .iter()
                .find(|key| key.kid() == Some(kid))
                .ok_or_else(|| TokenError::NoMatchingKey {
                    kid: Some(kid.into()),
                }),
            None => match self.keys.as_slice() {
                [only] => Ok(only),
                [] => Err(TokenError::NoMatchingKey { kid: None }),
                _ => Err(TokenError::MultipleMatchingKeys),
            },
        }
    }
}

/// The key of one JWKS entry if it can verify ES384, `None` if it is for something else.
fn usable_key(jwk: &Map<String, Value>, index: usize) -> Result<Option<JwksKey>, TokenError> {
    let text = |name: &str| jwk.get(name).and_then(Value::as_str);
    if text("kty") != Some("EC") || text("crv") != Some("P-384") {
        return Ok(None);
    }
    // An EC P-384 entry whose coordinates are not a point is a corrupt set, whatever its
    // `alg` or `use` say (Wycheproof `wrong_curve`): refuse it rather than skip it.
    let mut coordinates = jwk.clone();
    coordinates.remove("alg");
    let key = PublicKey::from_jwk(&coordinates).map_err(|error| TokenError::Key {
        field: format!("keys[{index}]"),
        error,
    })?;
    if jwk.get("alg").is_some_and(|alg| alg != "ES384")
        || jwk.get("use").is_some_and(|u| u != "sig")
    {
        return Ok(None);
    }
    if let Some(ops) = jwk.get("key_ops") {
        let verifies = ops
            .as_array()
            .is_some_and(|ops| ops.iter().any(|op| op == "verify"));
        if !verifies {
            return Ok(None);
        }
    }
    let x5c = match jwk.get("x5c") {
        None => None,
        Some(Value::Array(certs)) => Some(
            certs
                .iter()
                .map(|cert| cert.as_str().map(String::from))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| TokenError::JwksInvalid {
                    field: format!("keys[{index}].x5c"),
                })?,
        ),
        Some(_) => {
            return Err(TokenError::JwksInvalid {
                field: format!("keys[{index}].x5c"),
            })
        }
    };
    Ok(Some(JwksKey {
        kid: text("kid").map(String::from),
        key,
        x5c,
    }))
}
