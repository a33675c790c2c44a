//! The claims of a verified result as a host kept them (the JS API's
//! `VerifiedAttestationResultData`, or the `result` of a refused one), read back for a
//! policy: the JSON policies and the Rego policies read them here alike. Only the members a
//! policy reads are read (`format`, each token's `payload`, each device's `label`); the
//! others (`appraisal`, headers, digests) are ignored.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde_json::{Map, Value};

use crate::error_code::ErrorCode;
use crate::token::{ResultFormat, MAX_DEVICES, MAX_RESULT_BYTES};

/// A kept result, parsed, with its format read.
pub(crate) struct KeptResult {
    data: Value,
    format: ResultFormat,
}

/// A value that is not a kept verified result (`ERR_INVALID_ARGUMENT`, field `result`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NotAResult;

impl fmt::Display for NotAResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("result must be the object verifyAttestationResult returned")
    }
}

impl ErrorCode for NotAResult {
    fn code(&self) -> &'static str {
        "ERR_INVALID_ARGUMENT"
    }

    fn field(&self) -> Option<&str> {
        Some("result")
    }
}

/// A token's claims in the kept data (`{payload, protectedHeader, kid}`).
fn payload(token: &Value) -> Option<&Map<String, Value>> {
    token.get("payload").and_then(Value::as_object)
}

impl KeptResult {
    /// Reads the kept data's JSON text (strict JSON, at most a few times the largest result
    /// the verifier accepts) and its `format`.
    pub(crate) fn read(text: &[u8]) -> Result<Self, NotAResult> {
        if text.len() > 4 * MAX_RESULT_BYTES {
            return Err(NotAResult);
        }
        let data = crate::json::parse(text).map_err(|_| NotAResult)?;
        let format = data.get("format").and_then(Value::as_str);
        let format = format.and_then(ResultFormat::parse).ok_or(NotAResult)?;
        Ok(Self { data, format })
    }

    /// The result's format, the overall token's claims (the V1 single token's, for a V1
    /// result) and each device token's label and claims in order (none for V1).
    #[allow(clippy::type_complexity)]
    pub(crate) fn parts(
        &self,
    ) -> Result<
        (
            ResultFormat,
            &Map<String, Value>,
            Vec<(&str, &Map<String, Value>)>,
        ),
        NotAResult,
    > {
        let overall = self.data.get("overall").and_then(payload);
        let overall = overall.ok_or(NotAResult)?;
        let devices = match self.data.get("devices") {
            None => Vec::new(),
            Some(Value::Array(devices)) if devices.len() <= MAX_DEVICES => devices
                .iter()
                .map(|device| Some((device.get("label")?.as_str()?, payload(device)?)))
                .collect::<Option<_>>()
                .ok_or(NotAResult)?,
            Some(_) => return Err(NotAResult),
        };
        Ok((self.format, overall, devices))
    }
}
