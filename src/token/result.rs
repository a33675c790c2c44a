//! Attestation results as received:
//! the detached EAT `[["JWT", overall], {label: device token}]` of V2–V4 and the V1
//! `{"eat": token}` — parsed strictly and serialised back unchanged.

use alloc::string::String;
use alloc::vec::Vec;
use alloc::{format, vec};

use serde_json::{Map, Value};

use super::format::ResultFormat;
use super::TokenError;

/// Most device tokens in one result (the real service attests at most 8 GPUs or 4 switches
/// per call).
pub const MAX_DEVICES: usize = 64;

/// Largest attestation result accepted, checked before parsing.
pub const MAX_RESULT_BYTES: usize = 1024 * 1024;

/// Longest device label (`GPU-0`, `SWITCH-3`, ...).
pub const MAX_LABEL_LEN: usize = 64;

/// The digest algorithm the real service uses for `submods`.
pub(crate) const DIGEST_ALG: &str = "SHA-256";

/// An attestation result as received: parsed, not verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttestationResult {
    format: ResultFormat,
    overall: String,
    devices: Vec<(String, String)>,
}

impl AttestationResult {
    pub(crate) fn new(
        format: ResultFormat,
        overall: String,
        devices: Vec<(String, String)>,
    ) -> Self {
        Self {
            format,
            overall,
            devices,
        }
    }

    /// The parts: shape, overall token, devices.
    pub(crate) fn into_parts(self) -> (ResultFormat, String, Vec<(String, String)>) {
        (self.format, self.overall, self.devices)
    }

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
            // Written from the tokens in place, without copying each into a JSON value
            // first; a repeated label (which check_devices refuses when minting) keeps the
            // JSON object's rule below: one member, at the first place, the last token.
            ResultFormat::Detached if distinct_labels(&self.devices) => {
                let devices = Devices(&self.devices);
                let result = (("JWT", self.overall.as_str()), devices);
                return crate::json::write::to_string(&result).unwrap_or_default();
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
        crate::json::write::to_string(&value).unwrap_or_default()
    }
}

/// The device tokens as a JSON object, label by label, borrowed.
struct Devices<'a>(&'a [(String, String)]);

impl serde::Serialize for Devices<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(label, token)| (label, token)))
    }
}

fn distinct_labels(devices: &[(String, String)]) -> bool {
    devices
        .iter()
        .enumerate()
        .all(|(i, (label, _))| !devices.iter().take(i).any(|(other, _)| other == label))
}

fn valid_label(label: &str) -> bool {
    !label.is_empty() && label.len() <= MAX_LABEL_LEN
}

/// The device list of a result to mint: 1 to [`MAX_DEVICES`] distinct, valid labels, each
/// with a token of three base64url segments.
pub(crate) fn check_devices(devices: &[(String, String)]) -> Result<(), TokenError> {
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
