//! Compact JWS with ES384 (RFC 7515 §3.1, §5; RFC 7518 §3.4): splitting, strict base64url,
//! header checks (`alg`, `crit`, `b64`, `kid`), signature decoding, and minting.

use alloc::string::String;
use alloc::vec::Vec;

use p384::ecdsa::Signature;
use serde::Serialize;
use serde_json::{Map, Value};

use super::TokenError;
use crate::crypto::{b64url_decode, b64url_encode, SigningKey, SIGNATURE_LEN};

/// Largest compact token accepted, checked before any decoding (real device tokens are
/// 2–6 KiB).
pub const MAX_TOKEN_BYTES: usize = 64 * 1024;

/// Largest encoded protected header accepted.
pub const MAX_HEADER_BYTES: usize = 4 * 1024;

/// The only algorithm accepted and produced.
pub(crate) const ALG: &str = "ES384";

/// Header parameters defined by RFC 7515/7518 that `crit` must not list (RFC 7515
/// §4.1.11).
const REGISTERED: [&str; 11] = [
    "alg", "jku", "jwk", "kid", "x5u", "x5c", "x5t", "x5t#S256", "typ", "cty", "crit",
];

/// A compact JWS after the structural and header checks, before the signature check.
#[derive(Clone, Debug)]
pub(crate) struct CompactJws {
    pub(crate) header: Map<String, Value>,
    pub(crate) kid: Option<String>,
    pub(crate) signing_input: String,
    pub(crate) payload: Vec<u8>,
    pub(crate) signature: Vec<u8>,
}

/// Splits and checks a compact JWS: size caps, exactly three segments, strict base64url,
/// a strict-JSON object header with `alg` `ES384`, `crit` understood, `b64` absent or true,
/// `kid` a string, and a 96-byte signature with r and s in `[1, n−1]`.
pub(crate) fn parse_compact(token: &str, understood: &[String]) -> Result<CompactJws, TokenError> {
    if token.len() > MAX_TOKEN_BYTES {
        return Err(TokenError::TooLarge {
            what: "token",
            limit: MAX_TOKEN_BYTES,
        });
    }
    let mut segments = token.split('.');
    let (Some(header_b64), Some(payload_b64), Some(signature_b64), None) = (
        segments.next(),
        segments.next(),
        segments.next(),
        segments.next(),
    ) else {
        return Err(TokenError::Malformed { field: "token" });
    };
    if header_b64.len() > MAX_HEADER_BYTES {
        return Err(TokenError::TooLarge {
            what: "header",
            limit: MAX_HEADER_BYTES,
        });
    }
    let header_bytes =
        b64url_decode(header_b64).ok_or(TokenError::InvalidBase64 { part: "header" })?;
    let header = match crate::json::parse(&header_bytes) {
        Ok(Value::Object(header)) => header,
        Ok(_) => return Err(TokenError::Malformed { field: "header" }),
        Err(error) => {
            return Err(TokenError::Json {
                part: "header",
                error,
            })
        }
    };
    check_alg(&header)?;
    check_crit(&header, understood)?;
    match header.get("b64") {
        None | Some(Value::Bool(true)) => {}
        Some(_) => {
            return Err(TokenError::JwtInvalid {
                field: "header.b64",
            })
        }
    }
    let kid = match header.get("kid") {
        None => None,
        Some(Value::String(kid)) => Some(kid.clone()),
        Some(_) => {
            return Err(TokenError::Malformed {
                field: "header.kid",
            })
        }
    };
    let payload =
        b64url_decode(payload_b64).ok_or(TokenError::InvalidBase64 { part: "payload" })?;
    let signature =
        b64url_decode(signature_b64).ok_or(TokenError::InvalidBase64 { part: "signature" })?;
    check_signature_encoding(&signature)?;
    let signing_input_len = header_b64.len() + 1 + payload_b64.len();
    let signing_input = token
        .get(..signing_input_len)
        .ok_or(TokenError::Malformed { field: "token" })?;
    Ok(CompactJws {
        header,
        kid,
        signing_input: signing_input.into(),
        payload,
        signature,
    })
}

/// `alg` must be present and exactly `ES384`; `none` in any case gets its own error.
fn check_alg(header: &Map<String, Value>) -> Result<(), TokenError> {
    match header.get("alg") {
        Some(Value::String(alg)) if alg == ALG => Ok(()),
        Some(Value::String(alg)) if alg.eq_ignore_ascii_case("none") => Err(TokenError::Unsecured),
        Some(Value::String(alg)) => Err(TokenError::AlgorithmNotAllowed { alg: alg.clone() }),
        _ => Err(TokenError::Malformed {
            field: "header.alg",
        }),
    }
}

/// RFC 7515 §4.1.11 as jose applies it: a non-empty array of distinct non-empty strings,
/// none of them a parameter the JWS spec defines, each understood by the caller and present
/// in the header.
fn check_crit(header: &Map<String, Value>, understood: &[String]) -> Result<(), TokenError> {
    let Some(crit) = header.get("crit") else {
        return Ok(());
    };
    let malformed = TokenError::Malformed {
        field: "header.crit",
    };
    let names = crit
        .as_array()
        .filter(|names| !names.is_empty())
        .ok_or(malformed.clone())?;
    let mut seen: Vec<&str> = Vec::new();
    for name in names {
        let name = name
            .as_str()
            .filter(|n| !n.is_empty())
            .ok_or(malformed.clone())?;
        if seen.contains(&name) || REGISTERED.contains(&name) {
            return Err(malformed);
        }
        seen.push(name);
        if !understood.iter().any(|u| u == name) || !header.contains_key(name) {
            return Err(TokenError::CritUnsupported { name: name.into() });
        }
    }
    Ok(())
}

/// Exactly 96 bytes (so DER is refused) with r and s in `[1, n−1]` (so r = s = 0 is refused
/// before any arithmetic).
fn check_signature_encoding(signature: &[u8]) -> Result<(), TokenError> {
    if signature.len() != SIGNATURE_LEN || Signature::from_slice(signature).is_err() {
        return Err(TokenError::SignatureMalformed);
    }
    Ok(())
}

#[derive(Serialize)]
struct Header<'a> {
    kid: &'a str,
    alg: &'static str,
}

/// The JWS signing input `base64url(header).base64url(claims)` for a JWT whose header is
/// exactly `{"kid":…,"alg":"ES384"}` (the real service's header). A backend signs it and
/// [`assemble_jws`] appends the signature.
///
/// # Errors
/// [`TokenError::JwtInvalid`] when `claims` does not serialise to a JSON object.
pub fn jwt_signing_input<T: Serialize + ?Sized>(
    claims: &T,
    kid: &str,
) -> Result<String, TokenError> {
    let invalid = TokenError::JwtInvalid { field: "payload" };
    // Written once, straight from `claims` (no JSON object built first: the service mints
    // one token per device per request); an object's text is the one that starts with `{`.
    let payload = crate::json::write::to_vec(claims).map_err(|_| invalid.clone())?;
    if payload.first() != Some(&b'{') {
        return Err(invalid);
    }
    let header = crate::json::write::to_vec(&Header { kid, alg: ALG }).map_err(|_| invalid)?;
    let mut input = b64url_encode(&header);
    input.push('.');
    input.push_str(&b64url_encode(&payload));
    Ok(input)
}

/// Appends a raw `r‖s` signature to a signing input: the compact JWS.
///
/// # Errors
/// [`TokenError::SignatureMalformed`] unless the signature is 96 bytes with r and s in
/// range.
pub fn assemble_jws(signing_input: &str, signature: &[u8]) -> Result<String, TokenError> {
    check_signature_encoding(signature)?;
    let mut token = String::with_capacity(signing_input.len() + 129);
    token.push_str(signing_input);
    token.push('.');
    token.push_str(&b64url_encode(signature));
    Ok(token)
}

/// Mints a compact ES384 JWT with the software backend: header `{"kid":…,"alg":"ES384"}`,
/// the claims as given (serialised once, member order kept), a deterministic low-S
/// signature.
///
/// # Errors
/// [`TokenError::JwtInvalid`] when `claims` does not serialise to a JSON object.
pub fn sign_jwt<T: Serialize + ?Sized>(
    claims: &T,
    key: &SigningKey,
    kid: &str,
) -> Result<String, TokenError> {
    let input = jwt_signing_input(claims, kid)?;
    assemble_jws(&input, &key.sign(input.as_bytes()))
}
