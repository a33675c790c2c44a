//! The claims of a verified result as the JS API returned them (`VerifiedAttestationResultData`,
//! or the `result` of a refused one), read back for a policy. The JSON policies' `appraise`
//! and the Rego module's `appraiseRego` read them here alike.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};
use wasm_bindgen::JsValue;

use super::args;
use super::error::invalid_argument;
use crate::token::{ResultFormat, MAX_DEVICES, MAX_RESULT_BYTES};

const EXPECTED: &str = "the object verifyAttestationResult returned";

/// The verified data, parsed, with its shape checked.
pub(crate) struct VerifiedClaims {
    data: Value,
    format: ResultFormat,
}

/// A token's claims in the verified data (`{payload, protectedHeader, kid}`).
fn payload(token: &Value) -> Option<&Map<String, Value>> {
    token.get("payload").and_then(Value::as_object)
}

impl VerifiedClaims {
    /// Reads `result`; anything but the verified data's shape is `ERR_INVALID_ARGUMENT`
    /// (field `result`), here or from [`Self::parts`].
    pub(crate) fn read(result: &JsValue) -> Result<Self, JsValue> {
        let refused = || invalid_argument("result", EXPECTED);
        if !result.is_object() {
            return Err(refused());
        }
        let text = args::json_bytes(result, "result")?;
        // The verified data of the largest result the verifier accepts is a few times its size.
        if text.len() > 4 * MAX_RESULT_BYTES {
            return Err(refused());
        }
        // Read member by member from the parsed value: the few members a policy reads, the
        // others (`appraisal`, headers, digests) ignored.
        let data = crate::json::parse(&text).map_err(|_| refused())?;
        let format = match data.get("format").and_then(Value::as_str) {
            Some("v1") => ResultFormat::V1,
            Some("detached") => ResultFormat::Detached,
            _ => return Err(refused()),
        };
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
        JsValue,
    > {
        let refused = || invalid_argument("result", EXPECTED);
        let overall = self
            .data
            .get("overall")
            .and_then(payload)
            .ok_or_else(refused)?;
        let devices = match self.data.get("devices") {
            None => Vec::new(),
            Some(Value::Array(devices)) if devices.len() <= MAX_DEVICES => devices
                .iter()
                .map(|device| Some((device.get("label")?.as_str()?, payload(device)?)))
                .collect::<Option<_>>()
                .ok_or_else(refused)?,
            Some(_) => return Err(refused()),
        };
        Ok((self.format, overall, devices))
    }
}
