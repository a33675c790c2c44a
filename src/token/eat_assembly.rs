//! Minting attestation results: the detached EAT whose overall token's `submods` bind each
//! device token by the lowercase hex SHA-256 of its compact text (the real service's form),
//! and the V1 `{"eat": token}`.

use alloc::string::String;
use alloc::vec;

use serde_json::{Map, Value};
use sha2::{Digest as _, Sha256};

use super::format::ResultFormat;
use super::jws::{assemble_jws, jwt_signing_input};
use super::result::{check_devices, AttestationResult, DIGEST_ALG};
use super::TokenError;
use crate::crypto::SigningKey;

/// The signing input of an overall token: `overall_claims` with `submods` set to
/// `{label: ["DIGEST", ["SHA-256", lowercase hex of SHA-256(device token)]]}` for each
/// device, header `{"kid":…,"alg":"ES384"}`. A backend signs it; [`assemble_detached_eat`]
/// builds the result.
///
/// # Errors
/// [`TokenError::ResultInvalid`] for no devices, a repeated or empty label, or a device
/// token that is not three base64url segments; [`TokenError::TooManyDevices`].
pub fn detached_eat_signing_input(
    overall_claims: &Map<String, Value>,
    devices: &[(String, String)],
    kid: &str,
) -> Result<String, TokenError> {
    check_devices(devices)?;
    let submods: Map<String, Value> = devices
        .iter()
        .map(|(label, token)| {
            let digest = hex::encode(Sha256::digest(token.as_bytes()));
            let entry = Value::Array(vec![
                "DIGEST".into(),
                Value::Array(vec![DIGEST_ALG.into(), digest.into()]),
            ]);
            (label.clone(), entry)
        })
        .collect();
    let mut claims = overall_claims.clone();
    claims.insert("submods".into(), Value::Object(submods));
    jwt_signing_input(&claims, kid)
}

/// The detached EAT JSON text `[["JWT", overall], {label: token, ...}]` from the overall
/// signing input, its raw signature and the device tokens.
///
/// # Errors
/// [`TokenError::SignatureMalformed`] for a signature that is not 96 bytes in range; the
/// device errors of [`detached_eat_signing_input`].
pub fn assemble_detached_eat(
    overall_signing_input: &str,
    signature: &[u8],
    devices: &[(String, String)],
) -> Result<String, TokenError> {
    check_devices(devices)?;
    let overall = assemble_jws(overall_signing_input, signature)?;
    Ok(AttestationResult::new(ResultFormat::Detached, overall, devices.to_vec()).to_json())
}

/// Mints a detached EAT result with the software backend: signs the overall token over
/// `overall_claims` plus the `submods` digests of `devices` (label, compact device token —
/// typically minted with [`super::sign_jwt`]).
///
/// # Errors
/// As [`detached_eat_signing_input`].
pub fn create_detached_eat(
    overall_claims: &Map<String, Value>,
    devices: &[(String, String)],
    key: &SigningKey,
    kid: &str,
) -> Result<String, TokenError> {
    let input = detached_eat_signing_input(overall_claims, devices, kid)?;
    assemble_detached_eat(&input, &key.sign(input.as_bytes()), devices)
}

/// The V1 result `{"eat": token}`.
pub fn create_v1_result(token: &str) -> String {
    AttestationResult::new(ResultFormat::V1, token.into(), alloc::vec::Vec::new()).to_json()
}
