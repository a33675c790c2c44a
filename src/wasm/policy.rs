//! `appraise(result, policy)`: a relying-party policy (NVIDIA's JSON format) applied
//! to the claims of a verified result, as the JS API returned them
//! (`VerifiedAttestationResultData`, or the `result` of a refused one).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::error::{invalid_argument, to_js};
use super::{args, convert};
use crate::policy::{appraise_claims, Policy};
use crate::token::{ResultFormat, MAX_DEVICES, MAX_RESULT_BYTES};

#[wasm_bindgen(typescript_custom_section)]
const TS_POLICY: &str = include_str!("types/policy.d.ts");

/// A token's claims in the verified data (`{payload, protectedHeader, kid}`).
fn payload(token: &Value) -> Option<&Map<String, Value>> {
    token.get("payload").and_then(Value::as_object)
}

/// The verified result's claims (`result`, as `verifyAttestationResult` returned it) against
/// `policy` (JSON text, bytes or an object). Returns the `PolicyDecision`; a malformed or
/// hostile policy, or one for the other result format, throws with its `ERR_POLICY_*` code.
#[wasm_bindgen(js_name = appraise, unchecked_return_type = "PolicyDecision")]
pub fn appraise_policy(
    #[wasm_bindgen(unchecked_param_type = "VerifiedAttestationResultData")] result: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | object")] policy: JsValue,
) -> Result<JsValue, JsValue> {
    let policy = Policy::parse(&args::json_bytes(&policy, "policy")?).map_err(|e| to_js(&e))?;
    let expected = "the object verifyAttestationResult returned";
    if !result.is_object() {
        return Err(invalid_argument("result", expected));
    }
    let text = args::json_bytes(&result, "result")?;
    // The verified data of the largest result the verifier accepts is a few times its size.
    if text.len() > 4 * MAX_RESULT_BYTES {
        return Err(invalid_argument("result", expected));
    }
    // Read member by member from the parsed value: the few members a policy reads, the
    // others (`appraisal`, headers, digests) ignored.
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
    let devices: Vec<(&str, &Map<String, Value>)> = devices
        .iter()
        .map(|device| Some((device.get("label")?.as_str()?, payload(device)?)))
        .collect::<Option<_>>()
        .ok_or_else(|| invalid_argument("result", expected))?;
    let decision = appraise_claims(format, overall, &devices, &policy).map_err(|e| to_js(&e))?;
    convert::json_to_js(&decision)
}
