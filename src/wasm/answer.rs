//! A host's answer for one fetched resource (the core's `FetchAnswer`), and core refusals of a
//! member of a value read under a name (`answers[0].status`).

use alloc::format;
use core::fmt::Display;

use wasm_bindgen::JsValue;

use super::error::coded;
use crate::error_code::ErrorCode;

/// `error`, a refusal of a member of the value read as `at`, with the member named under it
/// (the core's messages start with the member's name).
pub(crate) fn within<E: ErrorCode + Display>(at: &str, error: &E) -> JsValue {
    let field = error.field().map(|field| format!("{at}.{field}"));
    coded(error.code(), &format!("{at}.{error}"), field.as_deref())
}
