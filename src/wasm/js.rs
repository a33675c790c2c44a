//! Reading plain JS values without panicking: every accessor returns a coded error naming
//! the member when the value has the wrong type.

use alloc::string::String;
use alloc::vec::Vec;

use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};

use super::error::{coded, invalid_argument};

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

/// An optional boolean: `undefined` and `null` are absent.
pub(crate) fn optional_bool(value: &JsValue, field: &str) -> Result<Option<bool>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .as_bool()
        .map(Some)
        .ok_or_else(|| invalid_argument(field, "a boolean"))
}

/// A required string.
pub(crate) fn required_string(value: &JsValue, field: &str) -> Result<String, JsValue> {
    optional_string(value, field)?.ok_or_else(|| invalid_argument(field, "a string"))
}

/// Bytes from a `Uint8Array`, an `ArrayBuffer`, or a hex string.
pub(crate) fn bytes(value: &JsValue, field: &str) -> Result<Vec<u8>, JsValue> {
    if let Some(array) = value.dyn_ref::<Uint8Array>() {
        return Ok(array.to_vec());
    }
    if value.is_instance_of::<js_sys::ArrayBuffer>() {
        return Ok(Uint8Array::new(value).to_vec());
    }
    if let Some(array) = value.dyn_ref::<js_sys::Array>() {
        // `number[]`, each an integer 0..=255 (the TS types allow it for byte parameters).
        return array
            .iter()
            .map(|v| {
                v.as_f64()
                    .filter(|n| n.fract() == 0.0 && (0.0..=255.0).contains(n))
                    .map(|n| n as u8)
                    .ok_or_else(|| invalid_argument(field, "an array of bytes (0 to 255)"))
            })
            .collect();
    }
    if let Some(text) = value.as_string() {
        let text = text.trim();
        return hex::decode(text).map_err(|_| {
            coded(
                "ERR_INVALID_ARGUMENT",
                &alloc::format!("{field} is not valid hex text"),
                Some(field),
            )
        });
    }
    Err(invalid_argument(
        field,
        "a Uint8Array, an ArrayBuffer, an array of bytes or a hex string",
    ))
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
    Err(invalid_argument(
        field,
        "a JSON string, a Uint8Array or an object",
    ))
}

/// Parses JSON text produced by the core into a JS value.
pub(crate) fn parse_json(text: &str) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(text).map_err(|_| coded("ERR_INTERNAL", "internal JSON error", None))
}

/// `count` random bytes from the host's `crypto.getRandomValues` (Web Crypto; present in
/// browsers, Node 20, Deno and workerd).
pub(crate) fn random_bytes<const N: usize>() -> Result<[u8; N], JsValue> {
    let unavailable = || {
        coded(
            "ERR_NO_RANDOMNESS",
            "crypto.getRandomValues is not available",
            None,
        )
    };
    let crypto = Reflect::get(&js_sys::global(), &"crypto".into()).map_err(|_| unavailable())?;
    let get_random_values = Reflect::get(&crypto, &"getRandomValues".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or_else(unavailable)?;
    let buffer = Uint8Array::new_with_length(N as u32);
    get_random_values
        .call1(&crypto, &buffer)
        .map_err(|_| unavailable())?;
    let mut out = [0u8; N];
    buffer.copy_to(&mut out);
    Ok(out)
}

// Parameters of exported functions arrive as `JsValue` and are checked here rather than
// typed `&str` / `f64` / `&[u8]`: wasm-bindgen's glue does not type-check those, and a number
// or an object passed for a string reaches `__wbindgen_realloc` with a dangling pointer and
// traps (`RuntimeError: memory access out of bounds`); null, a symbol or a BigInt throw a
// TypeError without a code. Checked here, each is an `ERR_INVALID_ARGUMENT` naming the
// parameter (issue 11, tests/js/hardening_boundary.test.mjs).

/// A string parameter.
pub(crate) fn string_arg(value: &JsValue, field: &str) -> Result<String, JsValue> {
    value
        .as_string()
        .ok_or_else(|| invalid_argument(field, "a string"))
}

/// A number parameter.
pub(crate) fn number_arg(value: &JsValue, field: &str) -> Result<f64, JsValue> {
    value
        .as_f64()
        .ok_or_else(|| invalid_argument(field, "a number"))
}

/// An unsigned 32-bit integer parameter (the glue would wrap `-1` to 4294967295).
pub(crate) fn u32_arg(value: &JsValue, field: &str) -> Result<u32, JsValue> {
    value
        .as_f64()
        .filter(|n| n.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(n))
        .map(|n| n as u32)
        .ok_or_else(|| invalid_argument(field, "an integer from 0 to 4294967295"))
}

/// Signature checks as `{publicKey, message, signature}` objects of `Uint8Array`s.
pub(crate) fn checks_to_js(checks: &[crate::crypto::SignatureCheck]) -> js_sys::Array {
    let out = js_sys::Array::new();
    for check in checks {
        let item = js_sys::Object::new();
        let set = |name: &str, bytes: &[u8]| {
            let _ = Reflect::set(&item, &name.into(), &Uint8Array::from(bytes).into());
        };
        set("publicKey", &check.public_key_sec1);
        set("message", &check.message);
        set("signature", &check.signature);
        out.push(&item);
    }
    out
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

/// A host's answer for one fetched resource (a `FetchAnswer` / `OcspAnswer`): `{body}`
/// fetched now, `{body, nonce}` from a cache with the nonce that fetched it, or
/// `{error, status?}`.
pub(crate) fn fetch_answer(
    value: &JsValue,
    field: &str,
) -> Result<crate::service::Fetched, JsValue> {
    use crate::service::{FetchFailure, Fetched};
    if !value.is_object() {
        return Err(invalid_argument(field, "an object"));
    }
    let error = optional_string(&member(value, "error"), &alloc::format!("{field}.error"))?;
    let Some(error) = error else {
        let body = bytes(&member(value, "body"), &alloc::format!("{field}.body"))?;
        let nonce = member(value, "nonce");
        return Ok(if nonce.is_undefined() || nonce.is_null() {
            Fetched::Body(body)
        } else {
            Fetched::Cached {
                body,
                nonce: bytes(&nonce, &alloc::format!("{field}.nonce"))?,
            }
        });
    };
    let failure = match error.as_str() {
        "unreachable" => FetchFailure::Unreachable,
        "timeout" => FetchFailure::Timeout,
        "too-large" => FetchFailure::TooLarge,
        "not-fetched" => FetchFailure::NotFetched,
        "status" => FetchFailure::HttpStatus(
            member(value, "status")
                .as_f64()
                .filter(|s| s.fract() == 0.0 && (100.0..=599.0).contains(s))
                .map(|s| s as u16)
                .ok_or_else(|| {
                    invalid_argument(&alloc::format!("{field}.status"), "an HTTP status")
                })?,
        ),
        _ => {
            return Err(invalid_argument(
                &alloc::format!("{field}.error"),
                "\"unreachable\", \"timeout\", \"status\", \"too-large\" or \"not-fetched\"",
            ))
        }
    };
    Ok(Fetched::Failed(failure))
}

/// `now` in Unix seconds from a JS value; the host clock when absent (the binding is the
/// host side).
pub(crate) fn now_or_clock(value: &JsValue) -> Result<u64, JsValue> {
    let seconds = if value.is_undefined() || value.is_null() {
        js_sys::Date::now() / 1000.0
    } else {
        value
            .as_f64()
            .filter(|n| n.is_finite() && *n >= 0.0)
            .ok_or_else(|| invalid_argument("now", "a non-negative number of Unix seconds"))?
    };
    // Saturating float-to-int conversion: no panic on any value.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Ok(seconds.floor() as u64)
}
