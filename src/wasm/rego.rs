//! `appraiseRego(result, policy)`: a Rego policy (NVIDIA's C++ SDK format, evaluated by
//! regorus) applied to the claims of a verified result, as the JS API returned them
//! (`VerifiedAttestationResultData`, or the `result` of a refused one). The only export of
//! the Rego module (`edgeattest/rego`), so the other modules do not carry regorus.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::error::{invalid_argument, to_js};
use super::{args, convert};
use crate::policy::rego::{appraise_rego_claims, RegoPolicy};
use crate::token::{ResultFormat, MAX_DEVICES, MAX_RESULT_BYTES, V1_DEVICE_LABEL};

// The decision is the JSON policies' type; the Rego module has no other binding declaring it.
#[wasm_bindgen(typescript_custom_section)]
const TS_DECISION: &str = include_str!("types/policy.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const TS_REGO: &str = include_str!("types/rego.d.ts");

/// A token's claims in the verified data (`{payload, protectedHeader, kid}`).
fn payload(token: &Value) -> Option<&Map<String, Value>> {
    token.get("payload").and_then(Value::as_object)
}

/// The verified result's claims (`result`, as `verifyAttestationResult` returned it) against
/// a Rego `policy` (text or UTF-8 bytes). Returns the `PolicyDecision` (`version: "rego"`); a
/// policy that does not compile, is hostile, runs past its budget or returns the wrong shape
/// throws with its `ERR_REGO_*` code.
#[wasm_bindgen(js_name = appraiseRego, unchecked_return_type = "PolicyDecision")]
pub fn appraise_rego_policy(
    #[wasm_bindgen(unchecked_param_type = "RegoAppraisalInput")] result: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] policy: JsValue,
) -> Result<JsValue, JsValue> {
    let text = match policy.as_string() {
        Some(text) => text.into_bytes(),
        None => match policy.dyn_ref::<js_sys::Uint8Array>() {
            Some(bytes) => bytes.to_vec(),
            None => return Err(invalid_argument("policy", "Rego text or its UTF-8 bytes")),
        },
    };
    let policy = RegoPolicy::parse(&text).map_err(|e| to_js(&e))?;
    let expected = "the object verifyAttestationResult returned";
    if !result.is_object() {
        return Err(invalid_argument("result", expected));
    }
    let text = args::json_bytes(&result, "result")?;
    // The verified data of the largest result the verifier accepts is a few times its size.
    if text.len() > 4 * MAX_RESULT_BYTES {
        return Err(invalid_argument("result", expected));
    }
    let claims = crate::json::parse(&text).map_err(|_| invalid_argument("result", expected))?;
    let format = match claims.get("format").and_then(Value::as_str) {
        Some("v1") => ResultFormat::V1,
        Some("detached") => ResultFormat::Detached,
        _ => return Err(invalid_argument("result", expected)),
    };
    let overall = claims
        .get("overall")
        .and_then(payload)
        .ok_or_else(|| invalid_argument("result", expected))?;
    let devices = match claims.get("devices") {
        None => &[][..],
        Some(Value::Array(devices)) if devices.len() <= MAX_DEVICES => devices,
        Some(_) => return Err(invalid_argument("result", expected)),
    };
    let devices: Vec<(&str, &Map<String, Value>)> = match format {
        // A V1 result's single token is its one device (as in the Rust API).
        ResultFormat::V1 => alloc::vec![(V1_DEVICE_LABEL, overall)],
        ResultFormat::Detached => devices
            .iter()
            .map(|device| Some((device.get("label")?.as_str()?, payload(device)?)))
            .collect::<Option<_>>()
            .ok_or_else(|| invalid_argument("result", expected))?,
    };
    let decision =
        appraise_rego_claims(format, overall, &devices, &policy).map_err(|e| to_js(&e))?;
    convert::json_to_js(&decision)
}
