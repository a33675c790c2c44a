//! Members a struct does not declare are refused, at every depth.
//!
//! serde-wasm-bindgen reads a struct by asking the object for each declared member in turn
//! (its `deserialize_struct` never lists the object's keys), so `#[serde(deny_unknown_fields)]`
//! has no effect through it and a misspelt option (`trustAnchor` for `trustAnchors`) would be
//! ignored and its default applied. [`Strict`] wraps that deserializer: a struct is read from
//! the object's own keys, and a key that is not one of serde's `fields` fails with serde's
//! `unknown_field` error ("unknown field `x`, expected one of ..."), reported under the key's
//! own path (`devices[0].evidnce`).
//! Members, sequence elements, `Some` and newtype contents are wrapped again, so the rule
//! holds at every depth. Maps (records such as headers, flattened structs) take any key, and
//! their values, like tuples and whatever `deserialize_any` meets in an array, are read here
//! too, so a failure keeps its path (`headers[0][1]`); bytes, dates, primitives, enums and a
//! plain object met by `deserialize_any` go to serde-wasm-bindgen.
//!
//! Hand-written because no crate does this for serde-wasm-bindgen (crates.io, November 2026;
//! `serde_ignored` reports ignored keys only where a deserializer offers them, and this one
//! never does).
//!
//! It also keeps the path of the value it reads (`devices[1].evidence`) and, when reading
//! fails, leaves the innermost failing path in [`Failed`]: the error's `field`. This replaces
//! a second wrapper (serde_path_to_error) around every read, which built each option type
//! once more (about 20 KB of gzipped wasm). The path is one buffer in [`Failed`], grown on
//! entering a member or an element and cut back on leaving it: no string is built
//! per member read, and the code each member type instantiates is a call in and a call out.
//!
//! It reads the copy `convert::plain` makes: every member is an own enumerable key, and a
//! member that was `undefined` is already left out (absent, as serde-wasm-bindgen takes it).

use alloc::string::String;
use alloc::vec::{self, Vec};
use core::cell::RefCell;
use core::fmt::Write as _;

use js_sys::{Array, Object, Reflect};
use serde::de::value::StrDeserializer;
use serde::de::{
    DeserializeSeed, Deserializer, Error as _, Expected, MapAccess, SeqAccess, Unexpected, Visitor,
};
use serde_wasm_bindgen::Error;
use wasm_bindgen::{JsCast, JsValue};

/// The path of the value being read (one buffer for the whole read) and, once reading
/// failed, the path of the innermost value whose read returned the error (empty: the value
/// itself), set once.
#[derive(Default)]
pub(super) struct Failed {
    path: RefCell<String>,
    failed: RefCell<Option<String>>,
}

impl Failed {
    /// The failing path, if reading failed.
    pub(super) fn take(&self) -> Option<String> {
        self.failed.borrow_mut().take()
    }
}

/// A JS value read like serde-wasm-bindgen reads it, but refusing undeclared struct members;
/// its path is the one `failed` holds while it is read.
pub(super) struct Strict<'a> {
    pub(super) value: JsValue,
    pub(super) failed: &'a Failed,
}

/// `result`, noting the current path when it is the first (innermost) failure.
#[inline]
fn noted<T>(failed: &Failed, result: Result<T, Error>) -> Result<T, Error> {
    if result.is_err() {
        note(failed);
    }
    result
}

#[inline(never)]
fn note(failed: &Failed) {
    let mut slot = failed.failed.borrow_mut();
    if slot.is_none() {
        *slot = Some(failed.path.borrow().clone());
    }
}

/// Enters member `key` of the current value; returns the mark [`leave`] cuts back to.
#[inline(never)]
fn enter_member(failed: &Failed, key: &str) -> usize {
    let mut path = failed.path.borrow_mut();
    let at = path.len();
    if at != 0 {
        path.push('.');
    }
    path.push_str(key);
    at
}

/// Enters element `index` of the current value; returns the mark [`leave`] cuts back to.
#[inline(never)]
fn enter_index(failed: &Failed, index: usize) -> usize {
    let mut path = failed.path.borrow_mut();
    let at = path.len();
    let _ = write!(path, "[{index}]");
    at
}

/// Leaves the member or element entered at `at`, noting its path first if its read failed.
#[inline(never)]
fn leave(failed: &Failed, at: usize, is_err: bool) {
    if is_err {
        note(failed);
    }
    failed.path.borrow_mut().truncate(at);
}

/// Notes member `key` of the current value as the failure.
#[inline(never)]
fn note_member(failed: &Failed, key: &str) {
    let at = enter_member(failed, key);
    leave(failed, at, true);
}

// Each method named hands the value to serde-wasm-bindgen with its own arguments.
macro_rules! forward {
    ($($method:ident($($arg:ident: $type:ty),*))*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $type,)* visitor: V) -> Result<V::Value, Error> {
            let result = serde_wasm_bindgen::Deserializer::from(self.value).$method($($arg,)* visitor);
            noted(self.failed, result)
        }
    )*};
}

impl<'de> Deserializer<'de> for Strict<'_> {
    type Error = Error;

    // `deserialize_tuple_struct` is also `serde_wasm_bindgen::preserve`'s, which asks for a
    // tuple struct of a magic name.
    forward!(
        deserialize_bool() deserialize_i8() deserialize_i16() deserialize_i32()
        deserialize_i64() deserialize_i128() deserialize_u8() deserialize_u16() deserialize_u32()
        deserialize_u64() deserialize_u128() deserialize_f32() deserialize_f64() deserialize_char()
        deserialize_str() deserialize_string() deserialize_bytes() deserialize_byte_buf()
        deserialize_unit() deserialize_identifier() deserialize_ignored_any()
        deserialize_unit_struct(name: &'static str)
        deserialize_tuple_struct(name: &'static str, len: usize)
        deserialize_enum(name: &'static str, variants: &'static [&'static str])
    );

    // Arrays are read here, whatever the visitor asks for, so that a failure inside a pair
    // (`headers[0][1]`) keeps its path. A plain object met here goes to serde-wasm-bindgen
    // with the rest: reading it here too would cost 3.3 KB of gzipped wasm, for a deeper
    // `field` in a record read by `deserialize_any` (records read as maps keep theirs).
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if Array::is_array(&self.value) {
            self.deserialize_seq(visitor)
        } else {
            let result =
                serde_wasm_bindgen::Deserializer::from(self.value).deserialize_any(visitor);
            noted(self.failed, result)
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let result = if is_record(&self.value) {
            visitor.visit_map(Members {
                unknown: None,
                fields: &[],
                members: entries(&self.value).into_iter(),
                value: None,
                failed: self.failed,
            })
        } else {
            serde_wasm_bindgen::Deserializer::from(self.value.clone()).deserialize_map(visitor)
        };
        noted(self.failed, result)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Error> {
        if Array::is_array(&self.value) {
            let found = self.value.unchecked_ref::<Array>().length() as usize;
            if found != len {
                note(self.failed);
                return Err(Error::invalid_length(found, &visitor));
            }
            return self.deserialize_seq(visitor);
        }
        let result =
            serde_wasm_bindgen::Deserializer::from(self.value).deserialize_tuple(len, visitor);
        noted(self.failed, result)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let failed = self.failed;
        if self.value.is_undefined() || self.value.is_null() {
            noted(failed, visitor.visit_none())
        } else {
            noted(failed, visitor.visit_some(self))
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        let failed = self.failed;
        noted(failed, visitor.visit_newtype_struct(self))
    }

    // Sequences and structs are read here, never handed to serde-wasm-bindgen with the
    // caller's visitor: that would build every nested type a second time for its
    // deserializer (about 20 KB of wasm).
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let result = match items(self.value) {
            Ok(Ok(items)) => visitor.visit_seq(Elements {
                items: items.into_iter(),
                index: 0,
                failed: self.failed,
            }),
            Ok(Err(value)) => Err(refusal(&value, &visitor)),
            Err(error) => Err(error),
        };
        noted(self.failed, result)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let result = match members(self.value, fields, self.failed) {
            Ok(members) => visitor.visit_map(members),
            Err(value) => Err(refusal(&value, &visitor)),
        };
        noted(self.failed, result)
    }

    fn is_human_readable(&self) -> bool {
        true
    }
}

// Sequences and structs are read here, never handed to serde-wasm-bindgen with the caller's
// visitor: that would build every nested type a second time for its deserializer. The work
// that does not depend on the visitor is in functions of their own, built once.

/// The elements of an array or another iterable (a typed array), or `Err(value)` when it is
/// neither. A primitive throws a TypeError here, which `convert` words as "expected an array".
#[inline(never)]
fn items(value: JsValue) -> Result<Result<Vec<JsValue>, JsValue>, Error> {
    if Array::is_array(&value) {
        return Ok(Ok(value.unchecked_into::<Array>().iter().collect()));
    }
    Ok(match js_sys::try_iter(&value)? {
        Some(items) => Ok(items.collect::<Result<_, _>>()?),
        None => Err(value),
    })
}

/// The members of a plain object, or `Err(value)` for anything else (arrays, bytes and dates
/// are not member bags, though serde-wasm-bindgen would read their keys).
#[inline(never)]
fn members<'a>(
    value: JsValue,
    fields: &'static [&'static str],
    failed: &'a Failed,
) -> Result<Members<'a>, JsValue> {
    if !is_record(&value) {
        return Err(value);
    }
    let unknown = Object::keys(value.unchecked_ref::<Object>())
        .iter()
        .filter_map(|key| key.as_string())
        .find(|key| !fields.contains(&key.as_str()));
    // Declared members in declaration order, as serde-wasm-bindgen reads them.
    let known: Vec<(String, JsValue)> = fields
        .iter()
        .filter_map(|&field| {
            let member = Reflect::get(&value, &field.into()).ok()?;
            (!member.is_undefined()).then(|| (field.into(), member))
        })
        .collect();
    Ok(Members {
        unknown,
        fields,
        members: known.into_iter(),
        value: None,
        failed,
    })
}

/// serde's "invalid type" error for `value` (worded as serde-wasm-bindgen words it for
/// primitives).
#[cold]
fn refusal(value: &JsValue, expected: &dyn Expected) -> Error {
    let text;
    let unexpected = if value.is_undefined() || value.is_null() {
        Unexpected::Unit
    } else if let Some(flag) = value.as_bool() {
        Unexpected::Bool(flag)
    } else if let Some(number) = value.as_f64() {
        Unexpected::Float(number)
    } else if let Some(string) = value.as_string() {
        text = string;
        Unexpected::Str(&text)
    } else if Array::is_array(value) {
        Unexpected::Seq
    } else if js_sys::ArrayBuffer::is_view(value) {
        Unexpected::Bytes(&[])
    } else if value.is_instance_of::<js_sys::Date>() {
        Unexpected::Other("a Date")
    } else {
        text = value.js_typeof().as_string().unwrap_or_default();
        Unexpected::Other(&text)
    };
    Error::invalid_type(unexpected, expected)
}

/// A record's own enumerable string-keyed entries (not generic: built once).
#[inline(never)]
fn entries(value: &JsValue) -> Vec<(String, JsValue)> {
    Object::entries(value.unchecked_ref::<Object>())
        .iter()
        .filter_map(|entry| {
            let entry: Array = entry.unchecked_into();
            Some((entry.get(0).as_string()?, entry.get(1)))
        })
        .collect()
}

/// A plain object: a bag of members (not an array, bytes, a date or a function).
pub(super) fn is_record(value: &JsValue) -> bool {
    value.is_object()
        && !Array::is_array(value)
        && !js_sys::ArrayBuffer::is_view(value)
        && !value.is_instance_of::<js_sys::ArrayBuffer>()
        && !value.is_instance_of::<js_sys::Date>()
}

/// `seed` read strictly from `value`, the member or element entered at `at`; a failure the
/// value's own reader finds after reading (a range, a length) is noted under its path too.
fn read_at<'de, T: DeserializeSeed<'de>>(
    value: JsValue,
    at: usize,
    failed: &Failed,
    seed: T,
) -> Result<T::Value, Error> {
    let result = seed.deserialize(Strict { value, failed });
    leave(failed, at, result.is_err());
    result
}

/// An array's elements, each read strictly under its index (`answers[0]`).
struct Elements<'a> {
    items: vec::IntoIter<JsValue>,
    index: usize,
    failed: &'a Failed,
}

impl Elements<'_> {
    /// The next element, entered.
    #[inline(never)]
    fn next(&mut self) -> Option<(JsValue, usize)> {
        let value = self.items.next()?;
        let at = enter_index(self.failed, self.index);
        self.index += 1;
        Some((value, at))
    }
}

impl<'de> SeqAccess<'de> for Elements<'_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some((value, at)) = self.next() else {
            return Ok(None);
        };
        read_at(value, at, self.failed, seed).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// An object's members, each value read strictly under its own path: a struct's declared
/// members, after an undeclared key (so that it is the error reported, not a missing member
/// it may be a misspelling of), or a record's entries (any key).
struct Members<'a> {
    unknown: Option<String>,
    fields: &'static [&'static str],
    members: vec::IntoIter<(String, JsValue)>,
    value: Option<(String, JsValue)>,
    failed: &'a Failed,
}

impl Members<'_> {
    /// The next key, its member held for the value's read, `None` after the last; an
    /// undeclared key first, refused with serde's `unknown_field` error under its own path
    /// (the error a struct with `deny_unknown_fields` gives for it too). Not generic: built
    /// once, not once per struct.
    #[inline(never)]
    fn next_key(&mut self) -> Result<Option<&str>, Error> {
        if let Some(unknown) = &self.unknown {
            note_member(self.failed, unknown);
            return Err(Error::unknown_field(unknown, self.fields));
        }
        self.value = self.members.next();
        Ok(self.value.as_ref().map(|(key, _)| key.as_str()))
    }

    /// The value of the key just read, entered.
    #[inline(never)]
    fn value(&mut self) -> Result<(JsValue, usize), Error> {
        match self.value.take() {
            Some((key, value)) => Ok((value, enter_member(self.failed, &key))),
            None => Err(Error::custom("a member's value was read twice")),
        }
    }
}

impl<'de> MapAccess<'de> for Members<'_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let failed = self.failed;
        let Some(key) = self.next_key()? else {
            return Ok(None);
        };
        let result = seed
            .deserialize(StrDeserializer::<Error>::new(key))
            .map(Some);
        if result.is_err() {
            note_member(failed, key);
        }
        result
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let (value, at) = self.value()?;
        read_at(value, at, self.failed, seed)
    }
}
