//! Byte members of the core's serde shapes (options, requests, answers, reports), read from
//! any self-describing format: a JS `Uint8Array` or `ArrayBuffer` (serde-wasm-bindgen hands
//! them to the visitor as bytes), JSON text and arrays of numbers, or bytes. One rule for
//! every byte input of the API; each writes itself with `serialize_bytes` (a `Uint8Array` in
//! JS, an array of numbers in JSON).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{Error, IgnoredAny, MapAccess, SeqAccess, Unexpected, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The value of one hex digit, either case.
pub(crate) fn hex_digit(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

/// What a byte member accepts, for messages.
pub(crate) const BYTES_EXPECTED: &str =
    "a Uint8Array, an ArrayBuffer, an array of bytes or a hex string";

/// A document: text (taken as its UTF-8 bytes) or bytes. Request bodies, RIM XML, envelopes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Document(pub Vec<u8>);

/// Binary data: bytes, an array of integers 0 to 255, or hex text (surrounding whitespace
/// ignored). Signatures, fetched answers, nonces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HexBytes(pub Vec<u8>);

impl<'de> Deserialize<'de> for Document {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_any(Bytes { text_is_hex: false })
            .map(Self)
    }
}

impl<'de> Deserialize<'de> for HexBytes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_any(Bytes { text_is_hex: true })
            .map(Self)
    }
}

impl Serialize for Document {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

impl Serialize for HexBytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

/// Borrowed bytes, written with `serialize_bytes`: the byte members of written shapes.
pub(crate) struct RawBytes<'a>(pub &'a [u8]);

impl Serialize for RawBytes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

struct Bytes {
    text_is_hex: bool,
}

impl<'de> Visitor<'de> for Bytes {
    type Value = Vec<u8>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.text_is_hex {
            BYTES_EXPECTED
        } else {
            "a string or a Uint8Array"
        })
    }

    fn visit_byte_buf<E: Error>(self, bytes: Vec<u8>) -> Result<Vec<u8>, E> {
        Ok(bytes)
    }

    fn visit_bytes<E: Error>(self, bytes: &[u8]) -> Result<Vec<u8>, E> {
        Ok(bytes.to_vec())
    }

    fn visit_str<E: Error>(self, text: &str) -> Result<Vec<u8>, E> {
        if self.text_is_hex {
            hex_text(text).ok_or_else(|| E::custom("not valid hex text"))
        } else {
            Ok(text.as_bytes().to_vec())
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
        if !self.text_is_hex {
            return Err(Error::invalid_type(Unexpected::Seq, &self));
        }
        let mut out = Vec::new();
        while let Some(byte) = seq.next_element::<u8>()? {
            out.push(byte);
        }
        Ok(out)
    }
}

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

/// Text given for bytes: hex, surrounding whitespace ignored. The one rule of text for binary
/// data, here and in the JS binding's byte arguments.
pub(crate) fn hex_text(text: &str) -> Option<Vec<u8>> {
    hex::decode(text.trim()).ok()
}

/// A number given as a byte: an integer 0 to 255 (a fraction, NaN or an infinity is none).
/// The one rule of array elements, here and in the JS binding's byte arguments.
pub(crate) fn byte(n: f64) -> Option<u8> {
    // `as` saturates; compare back.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let byte = n as u8;
    (f64::from(byte) == n).then_some(byte)
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
                Ok(Element(byte(n)))
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
