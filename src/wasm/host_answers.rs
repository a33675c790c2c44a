//! The service's conventions that the workers take from the core instead of copying them:
//! the one error-answer shape (`errorResponse`, [`crate::service::ErrorResponseInit`]) and
//! the reading of a bearer credential (`bearerToken`, [`crate::access::bearer_token`]).
//! TS types: types/host_answers.d.ts.

use alloc::format;
use alloc::string::String;

use js_sys::Reflect;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::answer::within;
use super::args::optional_string;
use super::convert::{from_js, json_to_js};
use super::error::{coded, OrJs};
use crate::service::ErrorResponseInit;

#[wasm_bindgen(typescript_custom_section)]
const TS_HOST_ANSWERS: &str = include_str!("types/host_answers.d.ts");

/// An error answer of a host (a worker's 404, 405, 413, 502, 503) in the service's one
/// shape: the body is the service's error body (`{code, message, field?, status}`), the
/// headers those of every service answer. The code must be registered: a host gives no
/// code the registry lacks.
///
/// @throws EdgeAttestError `ERR_INVALID_ARGUMENT` (with `field`) for a status outside
/// 400–599, a code the registry lacks, an empty message, or a member `init` does not have.
///
/// @example
/// ```ts
/// const answer = errorResponse({ status: 404, code: 'ERR_NOT_FOUND', message: 'no such path' });
/// const response = new Response(answer.body, answer);
/// ```
#[wasm_bindgen(js_name = errorResponse, unchecked_return_type = "ErrorResponse")]
pub fn error_response(
    #[wasm_bindgen(unchecked_param_type = "ErrorResponseInit")] init: JsValue,
) -> Result<JsValue, JsValue> {
    known_members(&init)?;
    let init: ErrorResponseInit = from_js(&init, "init")?;
    json_to_js(&init.response().map_err(|error| within("init", &error))?)
}

/// A member `init` should not have refuses it as a whole (`field: 'init'`), as it always has.
fn known_members(init: &JsValue) -> Result<(), JsValue> {
    let refused = |why: &str| {
        let message = format!("init must be {{ status, code, message, field? }}: {why}");
        coded("ERR_INVALID_ARGUMENT", &message, Some("init"))
    };
    if !init.is_object() {
        return Ok(()); // refused by `from_js`, as not a struct
    }
    let keys = Reflect::own_keys(init).map_err(|_| refused("its members cannot be listed"))?;
    let name = |key: JsValue| key.as_string().unwrap_or_else(|| "a symbol".into());
    let known = |key: &String| ErrorResponseInit::MEMBERS.contains(&key.as_str());
    match keys.iter().map(name).find(|key| !known(key)) {
        Some(key) => Err(refused(&format!("no member {key:?}"))),
        None => Ok(()),
    }
}

/// The bearer token of an `Authorization` value (RFC 6750 §2.1), read as the gateway reads
/// it; `query` (without `?`) is checked for a key in the URL, which is refused.
///
/// @throws EdgeAttestError `ERR_ACCESS_NO_CREDENTIALS` (no header, or another scheme),
/// `ERR_ACCESS_INVALID_REQUEST` (a malformed header, two credentials, a key in the URL),
/// `ERR_INVALID_ARGUMENT` for arguments that are not strings.
///
/// @example
/// ```ts
/// declare const request: Request;
/// const token = bearerToken(request.headers.get('authorization'), new URL(request.url).search.slice(1));
/// ```
#[wasm_bindgen(js_name = bearerToken)]
pub fn bearer_token(
    #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] authorization: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string | null")] query: JsValue,
) -> Result<String, JsValue> {
    let authorization = optional_string(&authorization, "authorization")?;
    let query = optional_string(&query, "query")?;
    crate::access::bearer_token(authorization.as_deref(), query.as_deref())
        .map(String::from)
        .or_js()
}
