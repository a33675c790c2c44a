//! `appraise(result, policy)`: a relying-party policy (NVIDIA's JSON format) applied
//! to the claims of a verified result, as the JS API returned them
//! (`VerifiedAttestationResultData`, or the `result` of a refused one).

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::error::to_js;
use super::verified::VerifiedClaims;
use super::{args, convert};
use crate::policy::{appraise_claims, Policy};

#[wasm_bindgen(typescript_custom_section)]
const TS_POLICY: &str = include_str!("types/policy.d.ts");

/// The verified result's claims (`result`, as `verifyAttestationResult` returned it) against
/// `policy` (JSON text, bytes or an object). Returns the `PolicyDecision`; a malformed or
/// hostile policy, or one for the other result format, throws with its `ERR_POLICY_*` code.
#[wasm_bindgen(js_name = appraise, unchecked_return_type = "PolicyDecision")]
pub fn appraise_policy(
    #[wasm_bindgen(unchecked_param_type = "VerifiedAttestationResultData")] result: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | object")] policy: JsValue,
) -> Result<JsValue, JsValue> {
    let policy = Policy::parse(&args::json_bytes(&policy, "policy")?).map_err(|e| to_js(&e))?;
    let claims = VerifiedClaims::read(&result)?;
    let (format, overall, devices) = claims.parts()?;
    let decision = appraise_claims(format, overall, &devices, &policy).map_err(|e| to_js(&e))?;
    convert::json_to_js(&decision)
}
