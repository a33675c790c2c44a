//! Attestation results (spec `attestation-service.md` §2 "Attestation result"): the detached
//! EAT `[["JWT", overall], {label: device token}]` of V2–V4, whose overall token's `submods`
//! map each label to `["DIGEST", ["SHA-256", hex]]` — hex being the lowercase SHA-256 of the
//! device token's compact text — and the V1 `{"eat": token}`. Mint and verify.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use alloc::{format, vec};

use serde_json::{Map, Value};
use sha2::{Digest as _, Sha256, Sha384};
use subtle::ConstantTimeEq as _;

use super::claims::NonceRule;
use super::jws::{assemble_jws, jwt_signing_input};
use super::jwt::{prepare, PreparedJwt, VerifiedJwt};
use super::{Jwks, TokenError, VerifyOptions};
use crate::crypto::{SignatureCheck, SigningKey};

/// Most device tokens in one result (the real service attests at most 8 GPUs or 4 switches
/// per call).
pub const MAX_DEVICES: usize = 64;

/// Largest attestation result accepted, checked before parsing.
pub const MAX_RESULT_BYTES: usize = 1024 * 1024;

/// Longest device label (`GPU-0`, `SWITCH-3`, ...).
pub const MAX_LABEL_LEN: usize = 64;

/// The digest algorithm the real service uses for `submods`.
pub const DIGEST_ALG: &str = "SHA-256";

/// The two shapes of an attestation result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResultFormat {
    /// V1: `{"eat": token}`, one token.
    V1,
    /// V2–V4: the detached EAT.
    Detached,
}

/// An attestation result as received: parsed, not verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttestationResult {
    format: ResultFormat,
    overall: String,
    devices: Vec<(String, String)>,
}

impl AttestationResult {
    /// Parses either shape strictly: the detached form must be exactly
    /// `[["JWT", string], {label: string, ...}]`, the V1 form exactly `{"eat": string}`.
    ///
    /// # Errors
    /// [`TokenError::TooLarge`], [`TokenError::Json`], [`TokenError::ResultInvalid`],
    /// [`TokenError::TooManyDevices`].
    pub fn parse(text: &[u8]) -> Result<Self, TokenError> {
        if text.len() > MAX_RESULT_BYTES {
            return Err(TokenError::TooLarge {
                what: "result",
                limit: MAX_RESULT_BYTES,
            });
        }
        let value = crate::json::parse(text).map_err(|error| TokenError::Json {
            part: "result",
            error,
        })?;
        Self::from_value(&value)
    }

    /// Reads a parsed JSON value (see [`Self::parse`]).
    ///
    /// # Errors
    /// As [`Self::parse`].
    pub fn from_value(value: &Value) -> Result<Self, TokenError> {
        let invalid = |field: &str| TokenError::ResultInvalid {
            field: field.into(),
        };
        match value {
            Value::Object(map) => {
                let eat = map.get("eat").and_then(Value::as_str);
                match (eat, map.len()) {
                    (Some(eat), 1) => Ok(Self {
                        format: ResultFormat::V1,
                        overall: eat.into(),
                        devices: Vec::new(),
                    }),
                    _ => Err(invalid("result")),
                }
            }
            Value::Array(parts) => {
                let [Value::Array(jwt), Value::Object(devices)] = parts.as_slice() else {
                    return Err(invalid("result"));
                };
                let overall = match jwt.as_slice() {
                    [Value::String(label), Value::String(token)] if label == "JWT" => token,
                    _ => return Err(invalid("result[0]")),
                };
                if devices.len() > MAX_DEVICES {
                    return Err(TokenError::TooManyDevices { limit: MAX_DEVICES });
                }
                let devices = devices
                    .iter()
                    .map(|(label, token)| match token {
                        Value::String(token) if valid_label(label) => {
                            Ok((label.clone(), token.clone()))
                        }
                        _ => Err(invalid(&format!("result[1].{label}"))),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Self {
                    format: ResultFormat::Detached,
                    overall: overall.clone(),
                    devices,
                })
            }
            _ => Err(invalid("result")),
        }
    }

    /// Which shape it has.
    pub fn format(&self) -> ResultFormat {
        self.format
    }

    /// The overall token (V1: the only token).
    pub fn overall(&self) -> &str {
        &self.overall
    }

    /// The device tokens by label, in document order.
    pub fn devices(&self) -> &[(String, String)] {
        &self.devices
    }

    /// The result as JSON text, in its own shape.
    pub fn to_json(&self) -> String {
        let value = match self.format {
            ResultFormat::V1 => {
                let mut map = Map::new();
                map.insert("eat".into(), Value::String(self.overall.clone()));
                Value::Object(map)
            }
            ResultFormat::Detached => {
                let devices: Map<String, Value> = self
                    .devices
                    .iter()
                    .map(|(label, token)| (label.clone(), Value::String(token.clone())))
                    .collect();
                Value::Array(vec![
                    Value::Array(vec!["JWT".into(), Value::String(self.overall.clone())]),
                    Value::Object(devices),
                ])
            }
        };
        serde_json::to_string(&value).unwrap_or_default()
    }
}

fn valid_label(label: &str) -> bool {
    !label.is_empty() && label.len() <= MAX_LABEL_LEN
}

/// One device of a verified result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedDevice {
    label: String,
    token: VerifiedJwt,
    digest: String,
}

impl VerifiedDevice {
    /// The label (`GPU-0`).
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The verified device token.
    pub fn token(&self) -> &VerifiedJwt {
        &self.token
    }

    /// The `submods` digest that bound it, lowercase hex.
    pub fn digest(&self) -> &str {
        &self.digest
    }
}

/// An attestation result whose every signature, digest, device and claim check passed.
/// Only verification builds one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedAttestationResult {
    format: ResultFormat,
    overall: VerifiedJwt,
    devices: Vec<VerifiedDevice>,
}

impl VerifiedAttestationResult {
    /// V1 or detached.
    pub fn format(&self) -> ResultFormat {
        self.format
    }

    /// The overall token (V1: the only token).
    pub fn overall(&self) -> &VerifiedJwt {
        &self.overall
    }

    /// The devices in document order (empty for V1).
    pub fn devices(&self) -> &[VerifiedDevice] {
        &self.devices
    }

    /// The device with `label`.
    pub fn device(&self, label: &str) -> Option<&VerifiedDevice> {
        self.devices.iter().find(|d| d.label == label)
    }

    /// The service's verdict, `x-nvidia-overall-att-result`, when the overall token has it.
    pub fn overall_result(&self) -> Option<bool> {
        self.overall
            .claim("x-nvidia-overall-att-result")
            .and_then(Value::as_bool)
    }
}

/// An attestation result that passed the structural, header and key-selection checks;
/// holds one signature check per token (overall first, then devices in document order).
#[derive(Clone, Debug)]
pub struct PreparedAttestationResult {
    format: ResultFormat,
    overall: PreparedJwt,
    devices: Vec<PreparedDevice>,
}

#[derive(Clone, Debug)]
struct PreparedDevice {
    label: String,
    token: String,
    prepared: PreparedJwt,
}

/// Phase one of result verification: parse the result, then [`super::prepare_jwt`] on the
/// overall token and on each device token (device tokens use the same options, except that
/// required claims apply to the overall token only and `eat_nonce` is checked only where
/// present — failed devices carry none).
///
/// # Errors
/// As [`AttestationResult::parse`]; structural errors of a token, wrapped in
/// [`TokenError::Device`] for device tokens.
pub fn prepare_attestation_result(
    result: &[u8],
    jwks: &Jwks,
    options: &VerifyOptions,
    now: u64,
) -> Result<PreparedAttestationResult, TokenError> {
    let result = AttestationResult::parse(result)?;
    let overall = prepare(
        &result.overall,
        jwks,
        options,
        now,
        NonceRule::Required,
        true,
    )?;
    let devices = result
        .devices
        .into_iter()
        .map(|(label, token)| {
            match prepare(&token, jwks, options, now, NonceRule::IfPresent, false) {
                Ok(prepared) => Ok(PreparedDevice {
                    label,
                    token,
                    prepared,
                }),
                Err(error) => Err(TokenError::Device {
                    label,
                    error: Box::new(error),
                }),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(PreparedAttestationResult {
        format: result.format,
        overall,
        devices,
    })
}

impl PreparedAttestationResult {
    /// The signature checks, overall token first, then the devices in document order.
    pub fn signature_checks(&self) -> Vec<&SignatureCheck> {
        let mut checks = Vec::with_capacity(1 + self.devices.len());
        checks.push(self.overall.signature_check());
        checks.extend(self.devices.iter().map(|d| d.prepared.signature_check()));
        checks
    }

    /// Phase two: one verdict per check, in the order of [`Self::signature_checks`]. Checks
    /// the overall token (signature, claims), then `submods` against the device tokens
    /// (every label present both ways, every digest equal), then each device token.
    ///
    /// # Errors
    /// [`TokenError::VerdictCount`], and the first failure in the order above.
    pub fn finish(self, verdicts: &[bool]) -> Result<VerifiedAttestationResult, TokenError> {
        let expected = 1 + self.devices.len();
        let [overall_valid, device_verdicts @ ..] = verdicts else {
            return Err(TokenError::VerdictCount { expected, got: 0 });
        };
        if verdicts.len() != expected {
            return Err(TokenError::VerdictCount {
                expected,
                got: verdicts.len(),
            });
        }
        let overall = self.overall.finish(*overall_valid)?;
        if self.format == ResultFormat::V1 {
            return Ok(VerifiedAttestationResult {
                format: self.format,
                overall,
                devices: Vec::new(),
            });
        }
        let digests = submod_digests(&overall)?;
        for (label, _) in &digests {
            if !self.devices.iter().any(|d| &d.label == label) {
                return Err(TokenError::DeviceMissing {
                    label: label.clone(),
                });
            }
        }
        let mut devices = Vec::with_capacity(self.devices.len());
        for (device, valid) in self.devices.into_iter().zip(device_verdicts) {
            let Some((_, digest)) = digests.iter().find(|(label, _)| *label == device.label) else {
                return Err(TokenError::DeviceUnexpected {
                    label: device.label,
                });
            };
            if !digest.matches(device.token.as_bytes()) {
                return Err(TokenError::DigestMismatch {
                    label: device.label,
                });
            }
            let token = match device.prepared.finish(*valid) {
                Ok(token) => token,
                Err(error) => {
                    return Err(TokenError::Device {
                        label: device.label,
                        error: Box::new(error),
                    })
                }
            };
            devices.push(VerifiedDevice {
                label: device.label,
                token,
                digest: hex::encode(&digest.bytes),
            });
        }
        Ok(VerifiedAttestationResult {
            format: self.format,
            overall,
            devices,
        })
    }

    /// Runs every check with the software backend, then [`Self::finish`].
    ///
    /// # Errors
    /// As [`Self::finish`].
    pub fn verify(self) -> Result<VerifiedAttestationResult, TokenError> {
        let verdicts: Vec<bool> = self
            .signature_checks()
            .iter()
            .map(|check| check.verify().is_ok())
            .collect();
        self.finish(&verdicts)
    }
}

/// Verifies an attestation result (either shape) with the software backend.
///
/// # Errors
/// Any [`TokenError`]; see [`prepare_attestation_result`] and
/// [`PreparedAttestationResult::finish`].
pub fn verify_attestation_result(
    result: &[u8],
    jwks: &Jwks,
    options: &VerifyOptions,
    now: u64,
) -> Result<VerifiedAttestationResult, TokenError> {
    prepare_attestation_result(result, jwks, options, now)?.verify()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DigestAlg {
    Sha256,
    Sha384,
}

#[derive(Clone, Debug)]
struct SubmodDigest {
    alg: DigestAlg,
    bytes: Vec<u8>,
}

impl SubmodDigest {
    fn matches(&self, token: &[u8]) -> bool {
        let actual = match self.alg {
            DigestAlg::Sha256 => Sha256::digest(token).to_vec(),
            DigestAlg::Sha384 => Sha384::digest(token).to_vec(),
        };
        bool::from(actual.ct_eq(&self.bytes))
    }
}

/// `submods` as `(label, digest)`: every entry must be `["DIGEST", [alg, lowercase hex]]`.
fn submod_digests(overall: &VerifiedJwt) -> Result<Vec<(String, SubmodDigest)>, TokenError> {
    let submods = overall
        .claim("submods")
        .and_then(Value::as_object)
        .ok_or_else(|| TokenError::SubmodInvalid {
            label: "submods".into(),
        })?;
    submods
        .iter()
        .map(|(label, entry)| {
            let invalid = || TokenError::SubmodInvalid {
                label: label.clone(),
            };
            let Some([Value::String(kind), Value::Array(digest)]) =
                entry.as_array().map(Vec::as_slice)
            else {
                return Err(invalid());
            };
            let [Value::String(alg), Value::String(hex_text)] = digest.as_slice() else {
                return Err(invalid());
            };
            if kind != "DIGEST" {
                return Err(invalid());
            }
            let (alg, len) = match alg.as_str() {
                "SHA-256" => (DigestAlg::Sha256, 32),
                "SHA-384" => (DigestAlg::Sha384, 48),
                _ => {
                    return Err(TokenError::DigestAlgorithmUnsupported {
                        label: label.clone(),
                    })
                }
            };
            let lowercase = hex_text
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
            let bytes = hex::decode(hex_text)
                .ok()
                .filter(|bytes| lowercase && bytes.len() == len)
                .ok_or_else(invalid)?;
            Ok((label.clone(), SubmodDigest { alg, bytes }))
        })
        .collect()
}

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
    Ok(AttestationResult {
        format: ResultFormat::Detached,
        overall,
        devices: devices.to_vec(),
    }
    .to_json())
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
    AttestationResult {
        format: ResultFormat::V1,
        overall: token.into(),
        devices: Vec::new(),
    }
    .to_json()
}

fn check_devices(devices: &[(String, String)]) -> Result<(), TokenError> {
    if devices.len() > MAX_DEVICES {
        return Err(TokenError::TooManyDevices { limit: MAX_DEVICES });
    }
    if devices.is_empty() {
        return Err(TokenError::ResultInvalid {
            field: "devices".into(),
        });
    }
    for (index, (label, token)) in devices.iter().enumerate() {
        let repeated = devices
            .get(..index)
            .unwrap_or_default()
            .iter()
            .any(|(other, _)| other == label);
        let compact = token.split('.').count() == 3
            && token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.');
        if repeated || !valid_label(label) || !compact {
            return Err(TokenError::ResultInvalid {
                field: format!("devices.{label}"),
            });
        }
    }
    Ok(())
}
