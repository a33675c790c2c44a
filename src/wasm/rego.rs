//! `appraiseRego(result, policy)`: a Rego policy (NVIDIA's C++ SDK format, evaluated by
//! regorus) applied to the claims of a verified result, as the JS API returned them
//! (`VerifiedAttestationResultData`, or the `result` of a refused one). The only export of
//! the Rego module (`edgeattest/rego`), so the other modules do not carry regorus.

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::convert;
use super::error::{invalid_argument, OrJs};
use super::verified::kept;
use crate::policy::rego::{appraise_rego_claims, RegoPolicy};
use crate::token::{ResultFormat, V1_DEVICE_LABEL};

// The decision is the JSON policies' type; the Rego module has no other binding declaring it.
#[wasm_bindgen(typescript_custom_section)]
const TS_DECISION: &str = include_str!("types/policy.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const TS_REGO: &str = include_str!("types/rego.d.ts");

/// Appraises a verified result's claims (`result`, as `verifyAttestationResult` returned it
/// in any edgeattest entry, or a refused result's `error.result`) against a Rego `policy`
/// (text or UTF-8 bytes) in the format of NVIDIA's SDKs, evaluated by regorus within a
/// budget. Returns the `PolicyDecision` (`version: "rego"`).
///
/// @throws EdgeAttestError `ERR_REGO_*` for a policy that does not compile, is hostile, runs
/// past its budget or returns the wrong shape (`ERR_REGO_PARSE`, `ERR_REGO_BUDGET`,
/// `ERR_REGO_RESULT`, …), `ERR_POLICY_TOO_LARGE`, `ERR_INVALID_ARGUMENT` for a `result`
/// that is not verified data or a policy that is not text or bytes.
///
/// @example
/// ```ts
/// declare const verified: RegoAppraisalInput; // verifyAttestationResult's, from 'edgeattest'
/// declare const policy: string; // Rego text
/// const decision = appraiseRego(verified, policy);
/// if (!decision.passed) console.error(decision.devices.filter((device) => !device.passed));
/// ```
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
    let policy = RegoPolicy::parse(&text).or_js()?;
    let claims = kept(&result)?;
    let (format, overall, devices) = claims.parts().or_js()?;
    let devices = match format {
        // A V1 result's single token is its one device (as in the Rust API).
        ResultFormat::V1 => alloc::vec![(V1_DEVICE_LABEL, overall)],
        ResultFormat::Detached => devices,
    };
    let decision = appraise_rego_claims(format, overall, &devices, &policy).or_js()?;
    convert::json_to_js(&decision)
}
