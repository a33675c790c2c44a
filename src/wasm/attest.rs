//! JS API for attest requests: `generateNonce`, `buildAttestRequest`,
//! `validateAttestRequest`. Options are the core's [`AttestRequestOptions`]; the binding adds
//! the host's randomness and the body's JS forms.

use alloc::string::String;

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::args;
use super::convert::{self, options_from_js};
use super::error::to_js;
use crate::attest::{validate_request, AttestRequestOptions, Endpoint, Nonce, RequestSummary};
use crate::evidence::OptionsError;

#[wasm_bindgen(typescript_custom_section)]
const TS_ATTEST: &str = include_str!("types/attest.d.ts");

/// 32 bytes of the host's randomness as 64 lowercase hex characters.
#[wasm_bindgen(js_name = generateNonce)]
pub fn generate_nonce() -> Result<String, JsValue> {
    Ok(Nonce::from_bytes(args::random_bytes::<{ Nonce::LEN }>()?).to_hex())
}

/// Builds a request body for `options.endpoint`, validated as the service will validate it.
#[wasm_bindgen(js_name = buildAttestRequest, unchecked_return_type = "AttestRequestBody")]
pub fn build_attest_request(
    #[wasm_bindgen(unchecked_param_type = "AttestRequestOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let options: AttestRequestOptions = options_from_js(&options)?;
    let random = || Ok::<_, JsValue>(Nonce::from_bytes(args::random_bytes()?));
    args::parse_json(&options.build(random)?.to_json())
}

/// Validates a request body (JSON text, bytes or object) for an endpoint path, exactly as
/// the service does; throws the first violation with its `code` and `field`.
#[wasm_bindgen(js_name = validateAttestRequest, unchecked_return_type = "ValidatedAttestRequest")]
pub fn validate_attest_request(
    #[wasm_bindgen(js_name = endpointPath, unchecked_param_type = "string")] endpoint_path: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | object")] body: JsValue,
) -> Result<JsValue, JsValue> {
    let path = args::string_arg(&endpoint_path, "endpointPath")?;
    let endpoint = Endpoint::for_path(&path).map_err(|error| to_js(&error))?;
    let bytes = args::json_bytes(&body, "body")?;
    let request = validate_request(endpoint, &bytes).map_err(|error| to_js(&error))?;
    convert::to_js(&RequestSummary::new(&request))
}

/// Every option error of the core (attest and evidence options) as a coded JS error.
impl From<OptionsError> for JsValue {
    fn from(error: OptionsError) -> Self {
        to_js(&error)
    }
}
