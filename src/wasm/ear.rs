//! `readEar(payload)`: the claims of a verified EAR (`verifyJwt`'s payload) read by the core's
//! rules (`Ear::from_claims`: profile, shape, tiers), with the whole result's status.

use alloc::vec::Vec;

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::error::{invalid_argument, to_js};
use super::{args, convert};
use crate::ear::{Ear, TrustVector};
use crate::token::MAX_TOKEN_BYTES;

#[wasm_bindgen(typescript_custom_section)]
const TS_EAR: &str = include_str!("types/ear.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const TS_EAR_HAND: &str = include_str!("types/hand/ear.d.ts");

/// The JS `EarData`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EarData<'a> {
    status: &'static str,
    affirming: bool,
    iat: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    nonce: Option<&'a str>,
    verifier_id: &'a crate::ear::VerifierId,
    submods: Vec<SubmodData<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SubmodData<'a> {
    label: &'a str,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    trustworthiness_vector: Option<&'a TrustVector>,
    #[serde(skip_serializing_if = "Option::is_none")]
    appraisal_policy_id: Option<&'a str>,
}

/// Reads an EAR's verified claims (an object, JSON text or bytes). Throws `ERR_EAR_PROFILE`
/// or `ERR_EAR_SHAPE` (with `field`).
#[wasm_bindgen(js_name = readEar, unchecked_return_type = "EarData")]
pub fn read_ear(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | object")] payload: JsValue,
) -> Result<JsValue, JsValue> {
    let expected = "the claims of a verified EAR";
    let text = args::json_bytes(&payload, "payload")?;
    if text.len() > MAX_TOKEN_BYTES {
        return Err(invalid_argument("payload", expected));
    }
    let Ok(Value::Object(claims)) = crate::json::parse(&text) else {
        return Err(invalid_argument("payload", expected));
    };
    let ear = Ear::from_claims(&claims).map_err(|e| to_js(&e))?;
    let submods: Vec<SubmodData<'_>> = ear
        .submods()
        .iter()
        .map(|(label, appraisal)| SubmodData {
            label,
            status: appraisal.status.as_str(),
            trustworthiness_vector: appraisal.vector.as_ref(),
            appraisal_policy_id: appraisal.policy_id.as_deref(),
        })
        .collect();
    let data = EarData {
        status: ear.status().as_str(),
        affirming: ear.affirming(),
        iat: ear.iat(),
        nonce: ear.nonce(),
        verifier_id: ear.verifier_id(),
        submods,
    };
    convert::json_to_js(&data)
}
