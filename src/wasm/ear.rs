//! `readEar(payload, nonce?)`: the claims of a verified JWT EAR (`verifyJwt`'s payload) read by
//! the core's rules (`Ear::from_claims`: either dialect by its profile, shape, tiers, the
//! top status rule), `eat_nonce` compared as the dialect carries it (`Ear::nonce_matches`),
//! written as the core's `EarData`.

use serde_json::Value;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::error::{invalid_argument, OrJs};
use super::{args, convert};
use crate::ear::{Ear, EarEncoding, EarError};
use crate::token::{ClaimReason, TokenError, MAX_TOKEN_BYTES};

#[wasm_bindgen(typescript_custom_section)]
const TS_EAR: &str = include_str!("types/ear.d.ts");

/// Reads an EAR's verified claims (an object, JSON text or bytes) in either dialect; with
/// `nonce`, `eat_nonce` must be it (the veraison dialect's text; -04's bytes, `nonce` as hex
/// or base64url). Throws `ERR_EAR_PROFILE`, `ERR_EAR_SHAPE` (with `field`),
/// `ERR_EAT_NONCE_MISMATCH` or `ERR_JWT_CLAIM_VALIDATION_FAILED` (`eat_nonce` missing).
#[wasm_bindgen(js_name = readEar, unchecked_return_type = "EarData")]
pub fn read_ear(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | object")] payload: JsValue,
    // Read by the binding's reader: the glue's `Option<String>` traps on a value that is not
    // a string (an object, a number) instead of refusing it with a code.
    #[wasm_bindgen(unchecked_param_type = "string | undefined")] nonce: JsValue,
) -> Result<JsValue, JsValue> {
    let nonce = args::optional_string(&nonce, "nonce")?;
    let expected = "the claims of a verified EAR";
    let text = args::json_bytes(&payload, "payload")?;
    if text.len() > MAX_TOKEN_BYTES {
        return Err(invalid_argument("payload", expected));
    }
    let Ok(Value::Object(claims)) = crate::json::parse(&text) else {
        return Err(invalid_argument("payload", expected));
    };
    let ear = Ear::from_claims(&claims).or_js()?;
    if let Some(nonce) = nonce {
        let error = match ear.nonce() {
            None => Some(TokenError::ClaimValidation {
                claim: "eat_nonce".into(),
                reason: ClaimReason::Missing,
            }),
            Some(_) if !ear.nonce_matches(&nonce) => Some(TokenError::NonceMismatch),
            Some(_) => None,
        };
        if let Some(error) = error {
            return Err::<JsValue, _>(EarError::Token(error)).or_js();
        }
    }
    convert::json_to_js(&ear.data(EarEncoding::Jwt))
}
