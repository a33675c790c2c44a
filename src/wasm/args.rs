//! Reading plain JS values without panicking: every accessor returns a coded error naming
//! the member when the value has the wrong type.

use alloc::string::String;
use alloc::vec::Vec;

use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};

use super::error::{coded, invalid_argument};
use crate::bytes::HexBytes;
use crate::time::UnixTime;

/// Member `name` of `object`, or `undefined` when `object` is not an object.
pub(crate) fn member(object: &JsValue, name: &str) -> JsValue {
    if !object.is_object() {
        return JsValue::UNDEFINED;
    }
    Reflect::get(object, &name.into()).unwrap_or(JsValue::UNDEFINED)
}

/// An optional string: `undefined` and `null` are absent.
pub(crate) fn optional_string(value: &JsValue, field: &str) -> Result<Option<String>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .as_string()
        .map(Some)
        .ok_or_else(|| invalid_argument(field, "a string"))
}

/// A required string.
pub(crate) fn required_string(value: &JsValue, field: &str) -> Result<String, JsValue> {
    optional_string(value, field)?.ok_or_else(|| invalid_argument(field, "a string"))
}

/// Bytes from a `Uint8Array`, an `ArrayBuffer`, an array of bytes or a hex string: the
/// core's [`HexBytes`], named `field`.
pub(crate) fn bytes(value: &JsValue, field: &str) -> Result<Vec<u8>, JsValue> {
    Ok(super::convert::from_js::<HexBytes>(value, field)?.0)
}

/// Request-body bytes from a string (JSON text), a `Uint8Array`, or a plain object (which
/// is serialised with `JSON.stringify`).
pub(crate) fn json_bytes(value: &JsValue, field: &str) -> Result<Vec<u8>, JsValue> {
    if let Some(text) = value.as_string() {
        return Ok(text.into_bytes());
    }
    if let Some(array) = value.dyn_ref::<Uint8Array>() {
        return Ok(array.to_vec());
    }
    if value.is_object() {
        let text = js_sys::JSON::stringify(value)
            .map_err(|_| invalid_argument(field, "JSON-serialisable"))?;
        return Ok(String::from(text).into_bytes());
    }
    let expected = "a JSON string, a Uint8Array or an object";
    Err(invalid_argument(field, expected))
}

/// `N` random bytes from the host's `crypto.getRandomValues` (Web Crypto; present in
/// browsers, Node 20, Deno and workerd), through getrandom's `wasm_js` backend: one call into
/// JS, where looking the function up on every call (`globalThis.crypto.getRandomValues`, each
/// name a new JS string) cost a tenth of the wasm time of a 1-GPU attestation.
pub(crate) fn random_bytes<const N: usize>() -> Result<[u8; N], JsValue> {
    let mut out = [0u8; N];
    getrandom::fill(&mut out).map_err(|_| {
        let message = "crypto.getRandomValues is not available";
        coded("ERR_NO_RANDOMNESS", message, None)
    })?;
    Ok(out)
}

// Parameters of exported functions arrive as `JsValue` and are checked here rather than
// typed `&str` / `f64` / `&[u8]`: wasm-bindgen's glue does not type-check those, and a number
// or an object passed for a string reaches `__wbindgen_realloc` with a dangling pointer and
// traps (`RuntimeError: memory access out of bounds`); null, a symbol or a BigInt throw a
// TypeError without a code. Checked here, each is an `ERR_INVALID_ARGUMENT` naming the
// parameter (tests/js/hardening_boundary.test.mjs).

/// A string parameter.
pub(crate) fn string_arg(value: &JsValue, field: &str) -> Result<String, JsValue> {
    value
        .as_string()
        .ok_or_else(|| invalid_argument(field, "a string"))
}

/// An unsigned 32-bit integer parameter (the glue would wrap `-1` to 4294967295).
pub(crate) fn u32_arg(value: &JsValue, field: &str) -> Result<u32, JsValue> {
    value
        .as_f64()
        .filter(|n| n.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(n))
        .map(|n| n as u32)
        .ok_or_else(|| invalid_argument(field, "an integer from 0 to 4294967295"))
}

/// Signature checks as `{publicKey, message, signature}` objects of `Uint8Array`s, built
/// member by member: serde-wasm-bindgen's writer (and its key cache, a `HashMap`) is not
/// built into the default module (no binding feature) for this one shape.
pub(crate) fn checks_to_js<'a>(
    checks: impl IntoIterator<Item = &'a crate::crypto::SignatureCheck>,
) -> js_sys::Array {
    let out = js_sys::Array::new();
    for check in checks {
        out.push(&check_to_js(check));
    }
    out
}

/// One check as a plain object (not generic: built once).
#[inline(never)]
fn check_to_js(check: &crate::crypto::SignatureCheck) -> JsValue {
    let object = js_sys::Object::new();
    for (name, bytes) in [
        ("publicKey", &check.public_key_sec1),
        ("message", &check.message),
        ("signature", &check.signature),
    ] {
        // Setting a member of a fresh plain object cannot fail.
        let _ = Reflect::set(&object, &name.into(), &Uint8Array::from(bytes.as_slice()));
    }
    object.into()
}

/// An array of booleans, one verdict per signature check.
pub(crate) fn verdicts_arg(value: &JsValue, field: &str) -> Result<Vec<bool>, JsValue> {
    if !js_sys::Array::is_array(value) {
        return Err(invalid_argument(field, "an array of booleans"));
    }
    js_sys::Array::from(value)
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_bool()
                .ok_or_else(|| invalid_argument(&alloc::format!("{field}[{i}]"), "a boolean"))
        })
        .collect()
}

/// The one reader of a time argument (`now` and every other instant): Unix seconds as a whole
/// number from 0 to 253402300799, or a `Date`. Anything else — NaN, a negative or fractional
/// number, a later time, an invalid `Date`, another type — is `ERR_INVALID_ARGUMENT` naming
/// `field`.
pub(crate) fn time(value: &JsValue, field: &str) -> Result<UnixTime, JsValue> {
    let time = if let Some(date) = value.dyn_ref::<js_sys::Date>() {
        UnixTime::from_millis(date.get_time())
    } else {
        value.as_f64().and_then(UnixTime::from_number)
    };
    let expected = "Unix seconds (a whole number from 0 to 253402300799) or a Date";
    time.ok_or_else(|| invalid_argument(field, expected))
}

/// [`time`], or the host clock when the value is `undefined` or `null` (the binding is the
/// host side; the core never reads a clock).
pub(crate) fn time_or_clock(value: &JsValue, field: &str) -> Result<UnixTime, JsValue> {
    if value.is_undefined() || value.is_null() {
        return UnixTime::from_millis(js_sys::Date::now())
            .ok_or_else(|| coded("ERR_INTERNAL", "the host clock is out of range", None));
    }
    time(value, field)
}

/// `now` by the one reader of times (seconds or a `Date`), the host clock when absent.
pub(crate) fn clock(now: Option<&super::convert::Js>) -> Result<crate::time::UnixTime, JsValue> {
    time_or_clock(now.map_or(&JsValue::UNDEFINED, |now| &now.0), "now")
}
