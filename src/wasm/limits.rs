//! What the hosts (the edge workers, the package's JS) take from the core instead of copying
//! it: the limits the core enforces (`serviceLimits`, [`ServiceLimits`]). The service's own
//! conventions are in `host_answers`. TS types: types/limits.d.ts.

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::convert::json_to_js;
use crate::service::ServiceLimits;

#[wasm_bindgen(typescript_custom_section)]
const TS_LIMITS: &str = include_str!("types/limits.d.ts");

/// The core's limits as a plain object (`ServiceLimits`): the body, fetch and header sizes
/// it enforces and the fetch step's budgets, for hosts to read rather than copy.
///
/// @example
/// ```ts
/// declare const request: Request;
/// const { maxBodyBytes } = serviceLimits();
/// if (Number(request.headers.get('content-length') ?? 0) > maxBodyBytes) {
///   // answer 413 before reading the body
/// }
/// ```
#[wasm_bindgen(js_name = serviceLimits, unchecked_return_type = "ServiceLimits")]
pub fn service_limits() -> Result<JsValue, JsValue> {
    json_to_js(&ServiceLimits::CORE)
}
