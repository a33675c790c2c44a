//! Serde value types of the evidence options that JSON and JS write differently: a byte
//! input given as text or as bytes, a document, a time in Unix seconds. serde-wasm-bindgen
//! hands a `Uint8Array` or an `ArrayBuffer` to the visitor as bytes; JSON has text and arrays
//! of numbers, so both readers reach the same rule here.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{IgnoredAny, MapAccess, SeqAccess, Unexpected, Visitor};
use serde::{Deserialize, Deserializer};

use crate::time::UnixTime;

/// What a byte member accepts, for messages.
pub(crate) const BYTES_EXPECTED: &str =
    "a Uint8Array, an ArrayBuffer, an array of bytes or a hex string";

/// A member given as text or as bytes; its reader decides what text means (a nonce's hex,
/// evidence in one of its encodings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextOrBytes {
    /// A string.
    Text(String),
    /// Bytes: a `Uint8Array` or `ArrayBuffer` in JS, an array of integers 0 to 255.
    Bytes(Vec<u8>),
    /// An array holding something that is not an integer 0 to 255: refused by the member's
    /// reader, which names the member (not the element).
    NotBytes,
}

impl<'de> Deserialize<'de> for TextOrBytes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Any;
        impl<'de> Visitor<'de> for Any {
            type Value = TextOrBytes;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(BYTES_EXPECTED)
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<TextOrBytes, E> {
                Ok(TextOrBytes::Text(text.into()))
            }
            fn visit_string<E: serde::de::Error>(self, text: String) -> Result<TextOrBytes, E> {
                Ok(TextOrBytes::Text(text))
            }
            fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<TextOrBytes, E> {
                Ok(TextOrBytes::Bytes(bytes.to_vec()))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, b: Vec<u8>) -> Result<TextOrBytes, E> {
                Ok(TextOrBytes::Bytes(b))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TextOrBytes, A::Error> {
                let mut out = Vec::new();
                let mut all_bytes = true;
                while let Some(Element(byte)) = seq.next_element()? {
                    match byte {
                        Some(byte) => out.push(byte),
                        None => all_bytes = false,
                    }
                }
                Ok(if all_bytes {
                    TextOrBytes::Bytes(out)
                } else {
                    TextOrBytes::NotBytes
                })
            }
        }
        deserializer.deserialize_any(Any)
    }
}

/// One element of a byte array: `None` for anything but an integer 0 to 255, so that the
/// array's reader, not the element, is named in the error.
struct Element(Option<u8>);

impl<'de> Deserialize<'de> for Element {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Any;
        impl<'de> Visitor<'de> for Any {
            type Value = Element;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_u64<E>(self, n: u64) -> Result<Element, E> {
                Ok(Element(u8::try_from(n).ok()))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Element, E> {
                Ok(Element(u8::try_from(n).ok()))
            }
            fn visit_f64<E>(self, n: f64) -> Result<Element, E> {
                // A fraction, NaN or an infinity is no byte (`as` saturates; compare back).
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let byte = n as u8;
                Ok(Element((f64::from(byte) == n).then_some(byte)))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Element, E> {
                Ok(Element(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<Element, E> {
                Ok(Element(None))
            }
            fn visit_bytes<E>(self, _: &[u8]) -> Result<Element, E> {
                Ok(Element(None))
            }
            fn visit_unit<E>(self) -> Result<Element, E> {
                Ok(Element(None))
            }
            fn visit_none<E>(self) -> Result<Element, E> {
                Ok(Element(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Element, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Element(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Element, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Element(None))
            }
        }
        deserializer.deserialize_any(Any)
    }
}

/// A document: UTF-8 text (taken as its bytes) or bytes (a `Uint8Array` / `ArrayBuffer`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document(pub Vec<u8>);

impl<'de> Deserialize<'de> for Document {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Any;
        impl Visitor<'_> for Any {
            type Value = Document;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string or a Uint8Array")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Document, E> {
                Ok(Document(text.as_bytes().to_vec()))
            }
            fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<Document, E> {
                Ok(Document(bytes.to_vec()))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, b: Vec<u8>) -> Result<Document, E> {
                Ok(Document(b))
            }
        }
        deserializer.deserialize_any(Any)
    }
}

/// A time as JSON writes it: Unix seconds, a whole number from 0 to 253402300799 (the JS
/// binding reads `now` itself, where a `Date` is allowed too and the host clock is the
/// default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnixSeconds(pub UnixTime);

impl UnixSeconds {
    /// A reader of an optional `now` for the option methods: the time given, else `clock`
    /// (the caller's clock reading; the core reads none).
    pub fn or(
        clock: UnixTime,
    ) -> impl FnOnce(Option<&Self>) -> Result<UnixTime, super::OptionsError> {
        move |now| Ok(now.map_or(clock, |now| now.0))
    }
}

impl<'de> Deserialize<'de> for UnixSeconds {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Secs;
        impl Visitor<'_> for Secs {
            type Value = UnixSeconds;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("Unix seconds (a whole number from 0 to 253402300799)")
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<UnixSeconds, E> {
                UnixTime::from_secs(n)
                    .map(UnixSeconds)
                    .ok_or_else(|| E::invalid_value(Unexpected::Unsigned(n), &self))
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<UnixSeconds, E> {
                u64::try_from(n)
                    .ok()
                    .and_then(UnixTime::from_secs)
                    .map(UnixSeconds)
                    .ok_or_else(|| E::invalid_value(Unexpected::Signed(n), &self))
            }
            fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<UnixSeconds, E> {
                UnixTime::from_number(n)
                    .map(UnixSeconds)
                    .ok_or_else(|| E::invalid_value(Unexpected::Float(n), &self))
            }
        }
        deserializer.deserialize_any(Secs)
    }
}
