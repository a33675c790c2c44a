//! The Rego module's exports (`edgeattest/rego`, so that the other modules do not carry
//! regorus): `appraiseRego(result, policy)`, a Rego policy (NVIDIA's C++ SDK format, evaluated
//! by regorus) applied to the claims of a verified result as the JS API returned them
//! (`VerifiedAttestationResultData`, or the `result` of a refused one), and
//! `prepareRegoPolicy(policy)`, the `RegoPolicy` compiled once and applied to many results.

use alloc::string::String;

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::convert;
use super::error::{invalid_argument, OrJs};
use super::verified::kept;
use crate::policy::rego::{appraise_rego_claims, RegoPolicy, RegoSyntax};
use crate::token::{ResultFormat, V1_DEVICE_LABEL};

// The decision is the JSON policies' type; the Rego module has no other binding declaring it.
#[wasm_bindgen(typescript_custom_section)]
const TS_DECISION: &str = include_str!("types/policy.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const TS_REGO: &str = include_str!("types/rego.d.ts");

/// Appraises a verified result's claims (`result`, as `verifyAttestationResult` returned it
/// in any edgeattest entry, or a refused result's `error.result`) against a Rego `policy`
/// (text or UTF-8 bytes) in the format of NVIDIA's SDKs, compiled for this call and evaluated
/// by regorus within a budget. Returns the `PolicyDecision` (`version: "rego"`). The entry's
/// `appraiseRego` takes a prepared `RegoPolicy` too (src/js/rego/api.js).
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
    appraise(&result, &parse(&policy)?)
}

/// Reads and compiles a Rego `policy` (text or UTF-8 bytes) once, refusing a hostile one as
/// `appraiseRego` does, for `RegoPolicy.appraise` to apply to any number of results.
///
/// @throws EdgeAttestError `ERR_REGO_*` for a policy that does not compile or is hostile
/// (`ERR_REGO_PARSE`, `ERR_REGO_BUILTIN`, `ERR_REGO_TOO_DEEP`, `ERR_REGO_RECURSION`,
/// `ERR_REGO_RESULT` without `nv_match`), `ERR_POLICY_TOO_LARGE`, `ERR_INVALID_ARGUMENT` for a
/// policy that is not text or bytes.
///
/// @example
/// ```ts
/// declare const policyText: string; // Rego text
/// declare const results: RegoAppraisalInput[]; // verifyAttestationResult's, from 'edgeattest'
/// const policy = prepareRegoPolicy(policyText);
/// try {
///   for (const result of results) console.log(policy.appraise(result).passed);
/// } finally {
///   policy.free();
/// }
/// ```
#[wasm_bindgen(js_name = prepareRegoPolicy)]
pub fn prepare_rego_policy(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] policy: JsValue,
) -> Result<RegoPolicyHandle, JsValue> {
    Ok(RegoPolicyHandle {
        policy: parse(&policy)?,
    })
}

/// A Rego policy read, checked and compiled once (`prepareRegoPolicy`); each `appraise`
/// evaluates it over one result, within the budgets every appraisal gets. `free()` releases
/// it; a freed policy throws `ERR_INVALID_ARGUMENT`.
#[wasm_bindgen(js_name = RegoPolicy)]
pub struct RegoPolicyHandle {
    policy: RegoPolicy,
}

#[wasm_bindgen(js_class = RegoPolicy)]
impl RegoPolicyHandle {
    /// The `PolicyDecision` of this policy over a verified result's claims (`result`, as
    /// `appraiseRego` takes it). Throws `ERR_REGO_BUDGET`, `ERR_REGO_RESULT` or
    /// `ERR_REGO_EVAL` for an evaluation that runs past its budget, returns the wrong shape or
    /// fails, `ERR_INVALID_ARGUMENT` for a `result` that is not verified data.
    #[wasm_bindgen(unchecked_return_type = "PolicyDecision")]
    pub fn appraise(
        &self,
        #[wasm_bindgen(unchecked_param_type = "RegoAppraisalInput")] result: JsValue,
    ) -> Result<JsValue, JsValue> {
        appraise(&result, &self.policy)
    }

    /// The syntax the policy was read in: `"v1"` (OPA 1.0's) or `"v0"` (NVIDIA's SDK's).
    #[wasm_bindgen(getter, unchecked_return_type = "\"v1\" | \"v0\"")]
    pub fn syntax(&self) -> String {
        match self.policy.syntax() {
            RegoSyntax::V1 => "v1".into(),
            RegoSyntax::V0 => "v0".into(),
        }
    }
}

/// A policy given as text or UTF-8 bytes, read and compiled.
fn parse(policy: &JsValue) -> Result<RegoPolicy, JsValue> {
    let text = match policy.as_string() {
        Some(text) => text.into_bytes(),
        None => match policy.dyn_ref::<js_sys::Uint8Array>() {
            Some(bytes) => bytes.to_vec(),
            None => return Err(invalid_argument("policy", "Rego text or its UTF-8 bytes")),
        },
    };
    RegoPolicy::parse(&text).or_js()
}

fn appraise(result: &JsValue, policy: &RegoPolicy) -> Result<JsValue, JsValue> {
    let claims = kept(result)?;
    let (format, overall, devices) = claims.parts().or_js()?;
    let devices = match format {
        // A V1 result's single token is its one device (as in the Rust API).
        ResultFormat::V1 => alloc::vec![(V1_DEVICE_LABEL, overall)],
        ResultFormat::Detached => devices,
    };
    let decision = appraise_rego_claims(format, overall, &devices, policy).or_js()?;
    convert::json_to_js(&decision)
}
