//! Byte members of the service's serde shapes, read from any self-describing format: a JS
//! `Uint8Array` or `ArrayBuffer` (through serde-wasm-bindgen), JSON text, or bytes. Both
//! newtypes write themselves with `serialize_bytes` (a `Uint8Array` in JS, an array of
//! numbers in JSON).

use alloc::vec::Vec;
use core::fmt;

use serde::de::{Error, SeqAccess, Unexpected, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

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
            "a Uint8Array, an ArrayBuffer, an array of bytes or a hex string"
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
            hex::decode(text.trim()).map_err(|_| E::custom("not valid hex text"))
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
