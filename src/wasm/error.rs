//! The single conversion point from core errors to JS errors.

use alloc::string::ToString;
use core::fmt::Display;

use js_sys::Reflect;
use wasm_bindgen::JsValue;

use crate::error_code::ErrorCode;

/// A JS `Error` with `name` `EdgeAttestError`, the stable `code`, and `field` when the error
/// concerns one input member.
pub(crate) fn to_js<E: ErrorCode + Display>(error: &E) -> JsValue {
    described(error.code(), error, error.field())
}

/// A core result with its error as the coded JS error of [`to_js`].
pub(crate) trait OrJs<T> {
    fn or_js(self) -> Result<T, JsValue>;
}

impl<T, E: ErrorCode + Display> OrJs<T> for Result<T, E> {
    // Inline, as `map_err` is: an outlined copy per result type moves each `T` once more.
    #[inline]
    fn or_js(self) -> Result<T, JsValue> {
        self.map_err(|error| to_js(&error))
    }
}

/// [`coded`] with the message written by `message` (one body for every error type).
#[inline(never)]
fn described(code: &str, message: &dyn Display, field: Option<&str>) -> JsValue {
    coded(code, &message.to_string(), field)
}

/// A coded JS error for failures of the binding itself (argument types and shapes).
pub(crate) fn coded(code: &str, message: &str, field: Option<&str>) -> JsValue {
    let js_error = js_sys::Error::new(message);
    js_error.set_name("EdgeAttestError");
    let target: &JsValue = js_error.as_ref();
    // Reflect::set on a fresh Error object cannot fail; ignore the Result rather than panic.
    let _ = Reflect::set(target, &"code".into(), &code.into());
    if let Some(field) = field {
        let _ = Reflect::set(target, &"field".into(), &field.into());
    }
    js_error.into()
}

/// An argument of the wrong type or shape: `ERR_INVALID_ARGUMENT`, naming the argument.
pub(crate) fn invalid_argument(field: &str, expected: &str) -> JsValue {
    let message = alloc::format!("{field} must be {expected}");
    coded("ERR_INVALID_ARGUMENT", &message, Some(field))
}

/// A use-once object (an `EvidenceBatch`, a `PendingRim`, a `TokenVerification`) used again
/// after it was finished: `ERR_BATCH_CONSUMED` for every one of them (the code the batch
/// introduced; see the CHANGELOG for the codes used before).
#[cfg_attr(
    all(feature = "js-rego", not(feature = "js-verifier")),
    allow(dead_code)
)]
pub(crate) fn consumed(what: &str) -> JsValue {
    let message = alloc::format!("this {what} was already finished");
    coded("ERR_BATCH_CONSUMED", &message, None)
}
