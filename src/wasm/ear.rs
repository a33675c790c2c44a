//! `readEar(payload)`: the claims of a verified EAR (`verifyJwt`'s payload) read by the core's
//! rules (`Ear::from_claims`: profile, shape, tiers), written as the core's `EarData`.

use serde_json::Value;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::error::{invalid_argument, OrJs};
use super::{args, convert};
use crate::ear::Ear;
use crate::token::MAX_TOKEN_BYTES;

#[wasm_bindgen(typescript_custom_section)]
const TS_EAR: &str = include_str!("types/ear.d.ts");

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
    let ear = Ear::from_claims(&claims).or_js()?;
    convert::json_to_js(&ear.data(crate::ear::EarEncoding::Jwt))
}
