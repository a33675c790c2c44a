//! CBOR (RFC 8949): the strict reader every outside CBOR document goes through (COSE_Sign1
//! envelopes, CWT attestation results, CoRIMs, CBOR CMWs) and the deterministic writer.
//!
//! A document is read whole into a [`Cbor`] tree, under a budget ([`CborLimits`]) of nesting
//! depth and items, with duplicate map keys refused (a verifier and a signer must never read
//! two different values for one claim). Both length forms are read (definite and indefinite,
//! as Veraison's writers emit indefinite maps); the writer emits the deterministic encoding
//! of RFC 8949 §4.2.1 only, so a document this crate writes has one byte form.
//!
//! The token reader is minicbor's; the tree, the budgets and the duplicate rule are here.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

mod read;
mod write;

pub use read::{decode, CborError, CborLimits};

/// One CBOR data item.
#[derive(Clone, Debug, PartialEq)]
pub enum Cbor {
    /// An unsigned integer (major type 0).
    Uint(u64),
    /// A negative integer (major type 1): the value is `-1 - n`.
    Neg(u64),
    /// A byte string (definite or indefinite, joined).
    Bytes(Vec<u8>),
    /// A text string (definite or indefinite, joined).
    Text(String),
    /// An array.
    Array(Vec<Cbor>),
    /// A map, its entries in document order (keys unique).
    Map(Vec<(Cbor, Cbor)>),
    /// A tagged item.
    Tag(u64, Box<Cbor>),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// `undefined`.
    Undefined,
    /// Any other simple value.
    Simple(u8),
    /// A floating-point number (half, single or double).
    Float(f64),
}

impl Cbor {
    /// An integer item.
    pub fn int(value: i64) -> Self {
        if value < 0 {
            Self::Neg((-1 - value) as u64)
        } else {
            Self::Uint(value as u64)
        }
    }

    /// A text item.
    pub fn text(value: &str) -> Self {
        Self::Text(value.into())
    }

    /// A byte-string item.
    pub fn bytes(value: &[u8]) -> Self {
        Self::Bytes(value.to_vec())
    }

    /// The value of an unsigned integer.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Self::Uint(n) => Some(n),
            _ => None,
        }
    }

    /// The value of an integer that fits an `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Self::Uint(n) => i64::try_from(n).ok(),
            Self::Neg(n) => i64::try_from(n).ok().map(|n| -1 - n),
            _ => None,
        }
    }

    /// The bytes of a byte string.
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Self::Bytes(bytes) => Some(bytes),
            _ => None,
        }
    }

    /// The text of a text string.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text(text) => Some(text),
            _ => None,
        }
    }

    /// The items of an array.
    pub fn as_array(&self) -> Option<&[Cbor]> {
        match self {
            Self::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The entries of a map.
    pub fn as_map(&self) -> Option<&[(Cbor, Cbor)]> {
        match self {
            Self::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// The value a map holds under `key` (`None` when this is not a map or has no such key).
    pub fn get(&self, key: &Cbor) -> Option<&Cbor> {
        self.as_map()?
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, value)| value)
    }

    /// The value a map holds under an integer key (a COSE or CWT label).
    pub fn get_int(&self, key: i64) -> Option<&Cbor> {
        self.get(&Self::int(key))
    }

    /// The value a map holds under a text key.
    pub fn get_text(&self, key: &str) -> Option<&Cbor> {
        self.as_map()?
            .iter()
            .find(|(k, _)| k.as_text() == Some(key))
            .map(|(_, value)| value)
    }

    /// The content of this item when it is tagged `tag`.
    pub fn untag(&self, tag: u64) -> Option<&Cbor> {
        match self {
            Self::Tag(found, inner) if *found == tag => Some(inner),
            _ => None,
        }
    }

    /// The deterministic encoding (RFC 8949 §4.2.1): shortest argument forms, definite
    /// lengths, each map's entries sorted by the bytes of their encoded keys.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        write::encode_into(self, &mut out);
        out
    }
}

#[cfg(test)]
mod tests;
