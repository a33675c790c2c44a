//! The claims of a verified result as the JS API returned them, read back for a policy by the
//! core's rules (`crate::policy::kept`): the JSON policies' `appraise` and the Rego module's
//! `appraiseRego` read them here alike.

use wasm_bindgen::JsValue;

use super::args;
use super::error::{to_js, OrJs};
use crate::policy::kept::{KeptResult, NotAResult};

/// The kept result `result` (an object: its JSON text is read); anything else is
/// `ERR_INVALID_ARGUMENT` (field `result`), here or from its `parts`.
pub(crate) fn kept(result: &JsValue) -> Result<KeptResult, JsValue> {
    if !result.is_object() {
        return Err(to_js(&NotAResult));
    }
    KeptResult::read(&args::json_bytes(result, "result")?).or_js()
}
