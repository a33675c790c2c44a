//! Minting: signing inputs for a host-side signer (a WebCrypto `CryptoKey`), assembly, and
//! the software-key shortcuts.

use alloc::string::String;
use alloc::vec::Vec;

use js_sys::{Array, Reflect};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::super::args;
use super::super::error::{invalid_argument, OrJs};
use super::keys::P384PrivateKey;
use crate::token::{
    assemble_detached_eat, assemble_jws, create_detached_eat, create_v1_result,
    detached_eat_signing_input, jwt_signing_input, sign_jwt,
};

/// The JWS signing input for `claims` under header `{"kid":…,"alg":"ES384"}`.
#[wasm_bindgen(js_name = jwtSigningInput)]
pub fn jwt_signing_input_js(
    #[wasm_bindgen(unchecked_param_type = "Record<string, unknown>")] claims: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] kid: JsValue,
) -> Result<String, JsValue> {
    let kid: &str = &args::string_arg(&kid, "kid")?;
    let claims = claims_map(&claims, "claims")?;
    jwt_signing_input(&claims, kid).or_js()
}

/// A compact JWS from a signing input and a raw r||s signature.
#[wasm_bindgen(js_name = assembleJws)]
pub fn assemble_jws_js(
    #[wasm_bindgen(unchecked_param_type = "string")] signing_input: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | number[]")] signature: JsValue,
) -> Result<String, JsValue> {
    let signing_input: &str = &args::string_arg(&signing_input, "signingInput")?;
    let signature: &[u8] = &args::bytes(&signature, "signature")?;
    assemble_jws(signing_input, signature).or_js()
}

/// Mints a JWT with a software key.
#[wasm_bindgen(js_name = signJwtSoftware)]
pub fn sign_jwt_software(
    #[wasm_bindgen(unchecked_param_type = "Record<string, unknown>")] claims: JsValue,
    key: &P384PrivateKey,
    #[wasm_bindgen(unchecked_param_type = "string")] kid: JsValue,
) -> Result<String, JsValue> {
    let kid: &str = &args::string_arg(&kid, "kid")?;
    let claims = claims_map(&claims, "claims")?;
    sign_jwt(&claims, &key.key, kid).or_js()
}

/// The overall token's signing input of a detached EAT.
#[wasm_bindgen(js_name = detachedEatSigningInput)]
pub fn detached_eat_signing_input_js(
    #[wasm_bindgen(js_name = overallClaims, unchecked_param_type = "Record<string, unknown>")]
    overall_claims: JsValue,
    #[wasm_bindgen(unchecked_param_type = "[string, string][]")] devices: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] kid: JsValue,
) -> Result<String, JsValue> {
    let kid: &str = &args::string_arg(&kid, "kid")?;
    let claims = claims_map(&overall_claims, "overallClaims")?;
    let devices = device_list(&devices)?;
    detached_eat_signing_input(&claims, &devices, kid).or_js()
}

/// The detached EAT JSON text from the overall signing input, its signature and the devices.
#[wasm_bindgen(js_name = assembleDetachedEat)]
pub fn assemble_detached_eat_js(
    #[wasm_bindgen(js_name = signingInput, unchecked_param_type = "string")] signing_input: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | number[]")] signature: JsValue,
    #[wasm_bindgen(unchecked_param_type = "[string, string][]")] devices: JsValue,
) -> Result<String, JsValue> {
    let signing_input: &str = &args::string_arg(&signing_input, "signingInput")?;
    let signature: &[u8] = &args::bytes(&signature, "signature")?;
    let devices = device_list(&devices)?;
    assemble_detached_eat(signing_input, signature, &devices).or_js()
}

/// Mints a detached EAT with a software key; returns its JSON text.
#[wasm_bindgen(js_name = createDetachedEatSoftware)]
pub fn create_detached_eat_software(
    #[wasm_bindgen(js_name = overallClaims, unchecked_param_type = "Record<string, unknown>")]
    overall_claims: JsValue,
    #[wasm_bindgen(unchecked_param_type = "[string, string][]")] devices: JsValue,
    key: &P384PrivateKey,
    #[wasm_bindgen(unchecked_param_type = "string")] kid: JsValue,
) -> Result<String, JsValue> {
    let kid: &str = &args::string_arg(&kid, "kid")?;
    let claims = claims_map(&overall_claims, "overallClaims")?;
    let devices = device_list(&devices)?;
    create_detached_eat(&claims, &devices, &key.key, kid).or_js()
}

/// The V1 result JSON text `{"eat": token}`.
#[wasm_bindgen(js_name = createV1Result)]
pub fn create_v1_result_js(
    #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
) -> Result<String, JsValue> {
    let token: &str = &args::string_arg(&token, "token")?;
    Ok(create_v1_result(token))
}

fn claims_map(value: &JsValue, field: &str) -> Result<Map<String, Value>, JsValue> {
    if !value.is_object() || Array::is_array(value) {
        return Err(invalid_argument(field, "a plain object"));
    }
    let bytes = args::json_bytes(value, field)?;
    match crate::json::parse(&bytes) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(invalid_argument(field, "a JSON object")),
    }
}

fn device_list(value: &JsValue) -> Result<Vec<(String, String)>, JsValue> {
    if !Array::is_array(value) {
        let expected = "an array of [label, token] pairs";
        return Err(invalid_argument("devices", expected));
    }
    Array::from(value)
        .iter()
        .enumerate()
        .map(|(i, pair)| {
            let field = alloc::format!("devices[{i}]");
            let at = |index: u32| Reflect::get(&pair, &index.into()).unwrap_or(JsValue::UNDEFINED);
            let (label, token) = (at(0), at(1));
            let string = |value: &JsValue| args::required_string(value, &field);
            Ok((string(&label)?, string(&token)?))
        })
        .collect()
}
