//! WIT records into the core's option types: the members a JS caller would write, read by
//! the core's own serde types ([`crate::evidence::EvidenceOptions`]), so every default, range and
//! `field` name is the core's. A borrowed member list is deserialized directly: no JSON text
//! and no `serde_json::Value` in between, so a 64 MiB byte list is read once, not inflated.

use alloc::vec::Vec;

use serde::de::value::{
    BorrowedStrDeserializer, Error as DeError, MapDeserializer, SeqDeserializer,
};
use serde::de::{self, Deserialize, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;

use super::exports::edgeattest::verifier::types::Document;

/// One member's value.
#[derive(Clone)]
pub(super) enum Arg<'a> {
    Str(&'a str),
    Bytes(&'a [u8]),
    Bool(bool),
    U64(u64),
    /// A nested object (`rims`, `revocation`).
    Map(Vec<(&'static str, Arg<'a>)>),
    /// An array (`devices`).
    Seq(Vec<Arg<'a>>),
}

impl<'a> Arg<'a> {
    /// A WIT `document` as text or bytes (the core's `TextOrBytes`).
    pub(super) fn document(document: &'a Document) -> Self {
        match document {
            Document::Text(text) => Self::Str(text),
            Document::Bytes(bytes) => Self::Bytes(bytes),
        }
    }
}

/// The members present, as camelCase names; absent ones are left out (the core's default).
pub(super) struct Members<'a>(Vec<(&'static str, Arg<'a>)>);

impl<'a> Members<'a> {
    pub(super) fn new() -> Self {
        Self(Vec::new())
    }

    pub(super) fn with(mut self, name: &'static str, value: Arg<'a>) -> Self {
        self.0.push((name, value));
        self
    }

    pub(super) fn with_some(self, name: &'static str, value: Option<Arg<'a>>) -> Self {
        match value {
            Some(value) => self.with(name, value),
            None => self,
        }
    }

    /// The members read as `T`.
    pub(super) fn read<T: Deserialize<'a>>(self) -> Result<T, DeError> {
        T::deserialize(MapDeserializer::new(self.0.into_iter()))
    }

    /// The members as a nested object.
    pub(super) fn object(self) -> Arg<'a> {
        Arg::Map(self.0)
    }
}

impl<'de> IntoDeserializer<'de, DeError> for Arg<'de> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> de::Deserializer<'de> for Arg<'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Self::Str(text) => visitor.visit_borrowed_str(text),
            Self::Bytes(bytes) => visitor.visit_borrowed_bytes(bytes),
            Self::Bool(value) => visitor.visit_bool(value),
            Self::U64(value) => visitor.visit_u64(value),
            Self::Map(members) => visitor.visit_map(MapDeserializer::new(members.into_iter())),
            Self::Seq(items) => visitor.visit_seq(SeqDeserializer::new(items.into_iter())),
        }
    }

    /// A unit variant by its name (an answer's `error: "timeout"`).
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self {
            Self::Str(text) => visitor.visit_enum(BorrowedStrDeserializer::new(text)),
            other => other.deserialize_any(visitor),
        }
    }

    /// A member present is `Some`: absent ones are not in the map at all.
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_some(self)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}
