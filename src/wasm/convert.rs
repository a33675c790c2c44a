//! The binding's one conversion path between JS values and core types: `from_js` reads any
//! `Deserialize` type through serde-wasm-bindgen, `to_js` writes any `Serialize` type as plain
//! JS objects and arrays. A failure is an `EdgeAttestError` with `ERR_INVALID_ARGUMENT` and the
//! failing member's path in `field` (`request.headers[2]`, `tokenLifetime`).
//!
//! Values are first copied into plain objects with `Reflect` (whose failures are results):
//! serde-wasm-bindgen reads members with a bare `obj[key]`, and a getter or a proxy trap that
//! throws would otherwise escape as an uncoded JS exception.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};

use js_sys::{Array, Object, Reflect};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};

use super::error::coded;

// Undeclared members refused (serde-wasm-bindgen never lists an object's keys).
mod strict;

/// How deep a value may nest; deeper is refused (a cyclic object would never end).
const MAX_DEPTH: u32 = 32;

/// Most elements an array may have (its `length`, checked before it is walked: a sparse
/// array is as long as it says). Arguments are small; the largest, a key store, is an object.
const MAX_ELEMENTS: u32 = 65_536;

/// Most string keys an object may have, its prototype layers together.
const MAX_MEMBERS: usize = 16_384;

/// Most values one copy reads, all depths together: an object met twice is copied twice,
/// so without this a few shared arrays nest into billions of reads.
const MAX_VALUES: usize = 1 << 18;

/// `value` as a `T`; a failure names `arg`, or the member under it (`request.method`,
/// `answers[0].body`).
pub(crate) fn from_js<T: DeserializeOwned>(value: &JsValue, arg: &str) -> Result<T, JsValue> {
    decode(value, arg, Naming::Under)
}

/// An options object as a `T`: a failing member is named by itself (`tokenLifetime`, as the
/// options are documented), the whole value as `options`.
pub(crate) fn options_from_js<T: DeserializeOwned>(value: &JsValue) -> Result<T, JsValue> {
    if !value.is_object() || Array::is_array(value) {
        return Err(super::error::invalid_argument("options", "an object"));
    }
    members_from_js(value, "options")
}

/// An optional options object as `T`; `undefined` or `null` is `T::default()`.
pub(crate) fn optional_options_from_js<T: DeserializeOwned + Default>(
    value: &JsValue,
) -> Result<T, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    options_from_js(value)
}

/// A member kept as the JS value it is, for the core's generic members that JS writes in
/// forms serde cannot read: a time (a number or a `Date`), a key store (text or an object).
#[derive(serde::Deserialize)]
pub(crate) struct Js(#[serde(with = "serde_wasm_bindgen::preserve")] pub(crate) JsValue);

/// `value` as a `T` whose members are named by themselves in errors (`driverVersion`, not
/// `evidence.driverVersion`), the whole value as `arg`: for the arguments whose members have
/// always been reported that way.
pub(crate) fn members_from_js<T: DeserializeOwned>(
    value: &JsValue,
    arg: &str,
) -> Result<T, JsValue> {
    decode(value, arg, Naming::Itself)
}

/// How a failing member is named in `field`.
#[derive(Clone, Copy)]
enum Naming {
    /// Under the argument: `request.method`, `answers[0]`.
    Under,
    /// By itself: `driverVersion`.
    Itself,
}

/// The one generic step of reading: `T` from the plain copy. Copying and wording a failure
/// are in functions of their own, built once (not once per type read).
fn decode<T: DeserializeOwned>(value: &JsValue, arg: &str, naming: Naming) -> Result<T, JsValue> {
    let failed = strict::Failed::default();
    let value = copy(value, arg, naming)?;
    T::deserialize(strict::Strict {
        value,
        failed: &failed,
    })
    .map_err(|error| refused(&error, &failed, arg, naming))
}

/// `field` for the failing `path` under argument `arg`.
fn field_name(path: &str, arg: &str, naming: Naming) -> String {
    match naming {
        _ if path.is_empty() => arg.to_string(),
        Naming::Itself => path.to_string(),
        Naming::Under if path.starts_with('[') => format!("{arg}{path}"),
        Naming::Under => format!("{arg}.{path}"),
    }
}

/// [`plain`]'s copy of `value`, or the coded error naming the member that could not be read
/// or is too large.
#[inline(never)]
fn copy(value: &JsValue, arg: &str, naming: Naming) -> Result<JsValue, JsValue> {
    let mut budget = MAX_VALUES;
    plain(value, 0, &mut String::new(), &mut budget).map_err(|(path, why)| {
        let field = field_name(&path, arg, naming);
        match why {
            Unread::Unreadable => coded(
                "ERR_INVALID_ARGUMENT",
                &format!("{field} could not be read (a getter threw, or it nests too deep)"),
                Some(&field),
            ),
            Unread::TooLarge(what) => coded(
                "ERR_ARGUMENT_TOO_LARGE",
                &format!("{field} is too large: {what}"),
                Some(&field),
            ),
        }
    })
}

/// The coded error for a failed read: `field` is the failing member's path.
#[cold]
#[inline(never)]
fn refused(
    error: &serde_wasm_bindgen::Error,
    failed: &strict::Failed,
    arg: &str,
    naming: Naming,
) -> JsValue {
    let path = failed.take().unwrap_or_default();
    let field = field_name(&path, arg, naming);
    let reason = error.to_string();
    // serde-wasm-bindgen's errors are JS `Error`s: their text starts with the class name.
    let reason = reason.strip_prefix("Error: ").unwrap_or(&reason);
    // Where a sequence is expected, serde-wasm-bindgen asks a primitive for its iterator
    // and passes on the engine's TypeError ("Reflect.get called on non-object"): say
    // what was expected instead.
    let reason = if reason.starts_with("TypeError") {
        "invalid type: expected an array"
    } else {
        reason
    };
    let message = format!("{field}: {reason}");
    coded("ERR_INVALID_ARGUMENT", &message, Some(&field))
}

/// Why [`plain`] stopped.
enum Unread {
    /// A getter or a proxy trap threw, or the value nests deeper than [`MAX_DEPTH`].
    Unreadable,
    /// A length or a member count over its limit, or the whole value over [`MAX_VALUES`]:
    /// what was found, and the limit.
    TooLarge(String),
}

/// Takes `count` values from `budget`, the values one copy may still read, once `found` (an
/// array's length, an object's keys so far) is within `limit`; `Err` says what is too large.
fn spend(
    budget: &mut usize,
    count: usize,
    found: f64,
    limit: usize,
    what: &str,
) -> Result<(), Unread> {
    #[allow(clippy::cast_precision_loss)] // the limits are below 2^53
    let limit_f64 = limit as f64;
    if found.is_nan() || found > limit_f64 {
        return Err(Unread::TooLarge(format!(
            "{found} {what}, at most {limit} are read"
        )));
    }
    *budget = budget
        .checked_sub(count)
        .ok_or_else(|| Unread::TooLarge(format!("at most {MAX_VALUES} values in all are read")))?;
    Ok(())
}

/// A copy of `value` made of plain objects and arrays, read through `Reflect` (own and
/// inherited enumerable-or-not string keys, but not `Object.prototype`'s; a member that is
/// `undefined` is left out, as if absent). Bytes, dates, functions and primitives are kept
/// as they are. Its cost is bounded by the limits above, each checked before the array or
/// object is walked, and each key is looked up once in a set: linear in what is read.
/// `Err` holds the path of the member that could not be read or is too large, and why.
fn plain(
    value: &JsValue,
    depth: u32,
    path: &mut String,
    budget: &mut usize,
) -> Result<JsValue, (String, Unread)> {
    if !strict::is_record(value) && !Array::is_array(value) {
        return Ok(value.clone());
    }
    let unreadable = |path: &String| (path.clone(), Unread::Unreadable);
    if depth >= MAX_DEPTH {
        return Err(unreadable(path));
    }
    let at = path.len();
    if Array::is_array(value) {
        let length = Reflect::get(value, &"length".into())
            .ok()
            .and_then(|n| n.as_f64())
            .ok_or_else(|| unreadable(path))?;
        // A proxy's length may be any number: it is checked before it is used.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let count = length.max(0.0).min(f64::from(MAX_ELEMENTS)) as u32;
        let limit = MAX_ELEMENTS as usize;
        let spent = spend(budget, count as usize, length, limit, "elements");
        spent.map_err(|why| (path.clone(), why))?;
        let out = Array::new();
        for i in 0..count {
            path.push_str(&format!("[{i}]"));
            let item = Reflect::get_u32(value, i).map_err(|_| unreadable(path))?;
            out.push(&plain(&item, depth + 1, path, budget)?);
            path.truncate(at);
        }
        return Ok(out.into());
    }
    let out = Object::new();
    let object_prototype: JsValue = Object::get_prototype_of(&Object::new()).into();
    let mut layer = value.clone();
    // Keys already read (a prototype's key is shadowed by the object's own).
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut members = 0;
    // The prototype chain is walked a few layers (a class instance's getters live on its
    // prototype); a longer chain is not a plain options object.
    for _ in 0..4 {
        if !layer.is_object() || layer == object_prototype {
            break;
        }
        let keys = Reflect::own_keys(layer.unchecked_ref()).map_err(|_| unreadable(path))?;
        let count = keys.length() as usize;
        members += count;
        #[allow(clippy::cast_precision_loss)] // below 2^34
        let found = members as f64;
        spend(budget, count, found, MAX_MEMBERS, "members").map_err(|why| (path.clone(), why))?;
        for key in keys.iter() {
            let Some(name) = key.as_string() else {
                continue; // symbols
            };
            if name == "constructor" || seen.contains(&name) {
                continue;
            }
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(&name);
            let member = Reflect::get(value, &key).map_err(|_| unreadable(path))?;
            let member = plain(&member, depth + 1, path, budget)?;
            path.truncate(at);
            if !member.is_undefined() {
                let _ = Reflect::set(&out, &key, &member);
            }
            seen.insert(name);
        }
        layer = Reflect::get_prototype_of(&layer)
            .map(JsValue::from)
            .map_err(|_| unreadable(path))?;
    }
    Ok(out.into())
}

/// `value` as plain JS objects and arrays (`Serializer::json_compatible`: maps become objects,
/// `None` and JSON `null` become `null`, 64-bit integers numbers), except that bytes (members
/// written with [`Bytes`]) become `Uint8Array`s, as the API has always returned
/// them, not arrays of numbers.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(&serializer()).map_err(unserialisable)
}

/// [`to_js`] for shapes without bytes, by their JSON text (the crate's one writer, then
/// `JSON.parse`): one string across the boundary instead of a JS call per member. Same
/// result: members, `null` for `None`, numbers, arrays, objects; claims are arbitrary JSON,
/// and a number past 2^53 reads as JS reads it.
pub(crate) fn json_to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    parse_json(&crate::json::write::to_string(value).map_err(|_| json_error())?)
}

/// JSON text the core wrote, as a JS value.
pub(crate) fn parse_json(text: &str) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(text).map_err(|_| json_error())
}

/// Replaces member `name` of the object `object` ([`json_to_js`] wrote it as an array of
/// numbers, or empty) with `bytes` as a `Uint8Array`, as [`to_js`] writes byte members: the
/// shapes with bytes take the JSON path too, and the module needs no second writer.
#[inline(never)]
pub(crate) fn set_bytes(object: &JsValue, name: &str, bytes: &[u8]) {
    // Setting a member of a plain object that JSON.parse made cannot fail.
    let _ = Reflect::set(object, &name.into(), &js_sys::Uint8Array::from(bytes));
}

#[cold]
#[inline(never)]
fn json_error() -> JsValue {
    coded("ERR_INTERNAL", "internal JSON error", None)
}

fn serializer() -> serde_wasm_bindgen::Serializer {
    serde_wasm_bindgen::Serializer::json_compatible().serialize_bytes_as_arrays(false)
}

#[cold]
#[inline(never)]
fn unserialisable(error: serde_wasm_bindgen::Error) -> JsValue {
    let message = format!("could not build the result object: {error}");
    coded("ERR_INTERNAL", &message, None)
}
