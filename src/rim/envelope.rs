//! The RIM service envelope: `GET /v1/rim/{id}` answers
//! `{"id", "rim": base64 of the document, "sha256": hex SHA-256 of the decoded document,
//! "rim_format": "TCG" | "CORIM", "last_updated", "request_id"}`, and for a CoRIM optionally
//! `"coev"` (base64 of the CoRIM's evidence mapping, a CBOR `#6.570`) with `"coev_sha256"`.
//! The host fetches it (the core does no I/O) and [`open_envelope`] checks it before the
//! document is verified: an XML RIM by [`super::verify_rim`], a CoRIM
//! ([`RimEnvelope::is_corim`]) by [`super::prepare_rim`] or [`super::parse_corim`].

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
    /// `coev`, decoded, when present (CoRIMs only): kept for the host, not interpreted.
    #[serde(serialize_with = "optional_bytes")]
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array | null"))]
    pub coev: Option<Vec<u8>>,
}

impl RimEnvelope {
    /// Whether the document is a CoRIM: `rim_format` `CORIM`, or (without `rim_format`) the
    /// document does not start as XML text does (`<` or a byte-order mark).
    pub fn is_corim(&self) -> bool {
        match self.rim_format.as_deref() {
            Some(format) => format.eq_ignore_ascii_case("CORIM"),
            None => !matches!(
                self.rim.first(),
                Some(b'<' | 0xef | b' ' | b'\t' | b'\r' | b'\n')
            ),
        }
    }
}

/// Checks a RIM service response body for the id that was requested: strict JSON, `id`
/// equal to `expected_id` (as NVIDIA's SDK requires), `rim` standard base64, and `sha256`
/// (when present) the SHA-256 of the decoded document.
///
/// A body that is a CoRIM itself (the service's `application/rim+cose` or
/// `application/rim+cbor` answer, asked for by [`super::RimFormats::CorimPreferred`]: it
/// starts with the head of tag 18, 500, 501 or 502) is taken as the document of
/// `expected_id`, `rim_format` `CORIM`; its signature binds it, not an envelope.
///
/// # Errors
/// [`EnvelopeError`] for each failed check.
pub fn open_envelope(body: &[u8], expected_id: &str) -> Result<RimEnvelope, EnvelopeError> {
    if is_raw_corim(body) {
        return Ok(RimEnvelope {
            id: expected_id.to_string(),
            rim: body.to_vec(),
            rim_format: Some("CORIM".into()),
            last_updated: None,
            request_id: None,
            coev: None,
        });
    }
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
    check_sha256(&rim, string("sha256")?)?;
    let coev = match string("coev")? {
        None => {
            if string("coev_sha256")?.is_some() {
                return Err(EnvelopeError::MissingField { field: "coev" });
            }
            None
        }
        Some(encoded) => {
            let coev = base64::engine::general_purpose::STANDARD
                .decode(encoded.as_bytes())
                .map_err(|_| EnvelopeError::InvalidBase64)?;
            check_sha256(&coev, string("coev_sha256")?)?;
            Some(coev)
        }
    };
    Ok(RimEnvelope {
        id,
        rim,
        rim_format: string("rim_format")?,
        last_updated: string("last_updated")?,
        request_id: string("request_id")?,
        coev,
    })
}

/// Whether `body` starts as a CoRIM does: COSE_Sign1 (tag 18, `0xd2`) or the CoRIM tags
/// 500–502 (`0xd9 0x01 0xf4..=0xf6`).
fn is_raw_corim(body: &[u8]) -> bool {
    matches!(body, [0xd2, ..] | [0xd9, 0x01, 0xf4..=0xf6, ..])
}

/// `sha256` (hex, either case), when present, is the SHA-256 of `bytes`.
fn check_sha256(bytes: &[u8], sha256: Option<String>) -> Result<(), EnvelopeError> {
    let Some(sha256) = sha256 else {
        return Ok(());
    };
    let expected =
        hex::decode(sha256.to_ascii_lowercase()).map_err(|_| EnvelopeError::Sha256Mismatch)?;
    let actual = Sha256::digest(bytes);
    if !bool::from(actual.as_slice().ct_eq(&expected)) {
        return Err(EnvelopeError::Sha256Mismatch);
    }
    Ok(())
}

fn optional_bytes<S: Serializer>(
    value: &Option<Vec<u8>>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(bytes) => serializer.serialize_bytes(bytes),
        None => serializer.serialize_none(),
    }
}

fn bytes<S: Serializer>(value: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_bytes(value)
}
