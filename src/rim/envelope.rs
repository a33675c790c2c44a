//! The RIM service envelope: `GET /v1/rim/{id}` answers
//! `{"id", "rim": base64 of the document, "sha256": hex SHA-256 of the decoded document,
//! "rim_format": "TCG" | "CORIM", "last_updated", "request_id"}`. The host fetches it (the
//! core does no I/O) and [`open_envelope`] checks it before the document is verified.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use base64::Engine;
use serde::{Serialize, Serializer};
use serde_json::Value;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::error::EnvelopeError;

/// A checked RIM service response (serialized as the JS `RimEnvelopeJson`, the document as
/// bytes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "RimEnvelopeJson"))]
#[serde(rename_all = "camelCase")]
pub struct RimEnvelope {
    /// The RIM id (equal to the one requested).
    pub id: String,
    /// The decoded document.
    #[serde(serialize_with = "bytes")]
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array"))]
    pub rim: Vec<u8>,
    /// `rim_format`, when present (`TCG` for SWID XML).
    pub rim_format: Option<String>,
    /// `last_updated`, when present.
    pub last_updated: Option<String>,
    /// `request_id`, when present.
    pub request_id: Option<String>,
}

/// Checks a RIM service response body for the id that was requested: strict JSON, `id`
/// equal to `expected_id` (as NVIDIA's SDK requires), `rim` standard base64, and `sha256`
/// (when present) the SHA-256 of the decoded document.
///
/// # Errors
/// [`EnvelopeError`] for each failed check.
pub fn open_envelope(body: &[u8], expected_id: &str) -> Result<RimEnvelope, EnvelopeError> {
    let value = crate::json::parse(body).map_err(EnvelopeError::Json)?;
    let object = value
        .as_object()
        .ok_or(EnvelopeError::MissingField { field: "id" })?;
    let string = |field: &'static str| -> Result<Option<String>, EnvelopeError> {
        match object.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(EnvelopeError::MissingField { field }),
        }
    };
    let id = string("id")?.ok_or(EnvelopeError::MissingField { field: "id" })?;
    if id != expected_id {
        return Err(EnvelopeError::IdMismatch {
            expected: expected_id.to_string(),
            actual: id,
        });
    }
    let encoded = string("rim")?.ok_or(EnvelopeError::MissingField { field: "rim" })?;
    let rim = base64::engine::general_purpose::STANDARD
        .decode(encoded.as_bytes())
        .map_err(|_| EnvelopeError::InvalidBase64)?;
    if let Some(sha256) = string("sha256")? {
        let expected =
            hex::decode(sha256.to_ascii_lowercase()).map_err(|_| EnvelopeError::Sha256Mismatch)?;
        let actual = Sha256::digest(&rim);
        if !bool::from(actual.as_slice().ct_eq(&expected)) {
            return Err(EnvelopeError::Sha256Mismatch);
        }
    }
    Ok(RimEnvelope {
        id,
        rim,
        rim_format: string("rim_format")?,
        last_updated: string("last_updated")?,
        request_id: string("request_id")?,
    })
}

fn bytes<S: Serializer>(value: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_bytes(value)
}
