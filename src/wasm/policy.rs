//! `appraise(result, policy)`: a relying-party policy (NVIDIA's JSON format) applied
//! to the claims of a verified result, as the JS API returned them
//! (`VerifiedAttestationResultData`, or the `result` of a refused one).

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::error::OrJs;
use super::verified::kept;
use super::{args, convert};
use crate::policy::{appraise_claims, Policy};

#[wasm_bindgen(typescript_custom_section)]
const TS_POLICY: &str = include_str!("types/policy.d.ts");

/// Appraises a verified result's claims (`result`, as `verifyAttestationResult` returned
/// it, or a refused result's `error.result`) against a relying-party `policy` in NVIDIA's
/// JSON format (text, bytes or an object): every rule is evaluated, for the overall token and
/// each device. Returns the `PolicyDecision`, whose `passed` is true only when every rule
/// passed.
///
/// @throws EdgeAttestError before any rule runs: `ERR_POLICY_*` for a malformed or hostile
/// policy or one for the other result format (`ERR_POLICY_UNKNOWN_VERSION`,
/// `ERR_POLICY_SHAPE`, `ERR_POLICY_TOO_LARGE`, `ERR_POLICY_RESULT_FORMAT`, …), `ERR_JSON_*`
/// for policy text that is not JSON, `ERR_INVALID_ARGUMENT` for a `result` that is not
/// verified data.
///
/// @example
/// ```ts
/// declare const verified: VerifiedAttestationResultData; // verifyAttestationResult's
/// declare const policyText: string; // NVIDIA's "authorization-rules" JSON
/// const decision = appraise(verified, policyText);
/// for (const device of decision.devices.filter((device) => !device.passed)) {
///   console.error(device.label, device.rules.filter((rule) => rule.status !== 'pass'));
/// }
/// ```
#[wasm_bindgen(js_name = appraise, unchecked_return_type = "PolicyDecision")]
pub fn appraise_policy(
    #[wasm_bindgen(unchecked_param_type = "VerifiedAttestationResultData")] result: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | object")] policy: JsValue,
) -> Result<JsValue, JsValue> {
    let policy = Policy::parse(&args::json_bytes(&policy, "policy")?).or_js()?;
    let claims = kept(&result)?;
    let (format, overall, devices) = claims.parts().or_js()?;
    let decision = appraise_claims(format, overall, &devices, &policy).or_js()?;
    convert::json_to_js(&decision)
}
