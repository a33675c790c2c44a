//! Strict JSON input: duplicate object members are rejected at every depth.
//!
//! RFC 8259 §4 leaves duplicate member names undefined and `serde_json` keeps the last one
//! silently, which lets a signed header or claims set say two things at once (RFC 7515 §5.2,
//! RFC 7519 §4 require rejecting or at least not accepting them). Every JSON document that
//! comes from outside — request bodies, JWS headers and claims, JWKS — goes through
//! [`parse`] first. `serde_json` has no strict mode, so this module supplies one: a visitor
//! that builds a [`Value`] and stops at the first repeated name.
//!
//! Output: every JSON text the crate writes goes through [`write`], its one writer.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cell::RefCell;
use core::fmt;

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor,
};
use serde_json::{Map, Number, Value};

use crate::error_code::ErrorCode;

// The crate's one JSON writer.
pub(crate) mod write;

/// Maximum nesting of arrays and objects. Real documents nest at most 5 deep; `serde_json`
/// itself stops at 128.
pub const MAX_DEPTH: usize = 32;

/// Why a JSON document was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum JsonError {
    /// An object names the same member twice.
    DuplicateMember {
        /// The repeated name.
        name: String,
    },
    /// Not JSON, or JSON followed by more text.
    Syntax {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
    },
    /// Arrays and objects nest deeper than [`MAX_DEPTH`].
    TooDeep,
    /// Well-formed JSON of the wrong shape for the type asked for.
    Shape {
        /// What `serde` said, without the input's content.
        detail: String,
    },
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DuplicateMember { name } => write!(f, "duplicate JSON member {name:?}"),
            Self::Syntax { line, column } => {
                write!(f, "malformed JSON at line {line} column {column}")
            }
            Self::TooDeep => write!(f, "JSON nests deeper than {MAX_DEPTH} levels"),
            Self::Shape { detail } => write!(f, "unexpected JSON shape: {detail}"),
        }
    }
}

impl core::error::Error for JsonError {}

impl ErrorCode for JsonError {
    fn code(&self) -> &'static str {
        match self {
            Self::DuplicateMember { .. } => "ERR_JSON_DUPLICATE_MEMBER",
            Self::Syntax { .. } => "ERR_JSON_SYNTAX",
            Self::TooDeep => "ERR_JSON_TOO_DEEP",
            Self::Shape { .. } => "ERR_JSON_SHAPE",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::DuplicateMember { name } => Some(name),
            _ => None,
        }
    }
}

/// Parses one JSON document, rejecting duplicate members and excessive nesting.
///
/// # Errors
/// [`JsonError::Syntax`], [`JsonError::DuplicateMember`] or [`JsonError::TooDeep`].
pub fn parse(input: &[u8]) -> Result<Value, JsonError> {
    let failure = RefCell::new(None);
    let mut deserializer = serde_json::Deserializer::from_slice(input);
    let seed = StrictSeed {
        depth: 0,
        failure: &failure,
    };
    let result = seed.deserialize(&mut deserializer).and_then(|value| {
        deserializer.end()?;
        Ok(value)
    });
    match result {
        Ok(value) => Ok(value),
        Err(err) => Err(failure.into_inner().unwrap_or(JsonError::Syntax {
            line: err.line(),
            column: err.column(),
        })),
    }
}

/// Parses strictly (see [`parse`]), then converts to `T`.
///
/// # Errors
/// As [`parse`], or [`JsonError::Shape`] when the document does not fit `T`.
pub fn from_slice<T: DeserializeOwned>(input: &[u8]) -> Result<T, JsonError> {
    let value = parse(input)?;
    serde_json::from_value(value).map_err(|err| JsonError::Shape {
        detail: err.to_string(),
    })
}

/// Builds a [`Value`] and records the first strictness failure in `failure`, so that the
/// caller gets a typed error instead of `serde_json`'s message.
#[derive(Clone, Copy)]
struct StrictSeed<'f> {
    depth: usize,
    failure: &'f RefCell<Option<JsonError>>,
}

impl StrictSeed<'_> {
    fn fail<E: de::Error>(self, error: JsonError) -> E {
        let message = error.to_string();
        self.failure.borrow_mut().get_or_insert(error);
        E::custom(message)
    }

    fn nested<E: de::Error>(self) -> Result<Self, E> {
        if self.depth >= MAX_DEPTH {
            return Err(self.fail(JsonError::TooDeep));
        }
        Ok(Self {
            depth: self.depth + 1,
            failure: self.failure,
        })
    }
}

impl<'de> DeserializeSeed<'de> for StrictSeed<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrictSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.into()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inner = self.nested()?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(inner)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let inner = self.nested()?;
        let mut members = Map::new();
        while let Some(name) = map.next_key::<String>()? {
            if members.contains_key(&name) {
                return Err(self.fail(JsonError::DuplicateMember { name }));
            }
            let value = map.next_value_seed(inner)?;
            members.insert(name, value);
        }
        Ok(Value::Object(members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_plain_documents() {
        let value = parse(br#"{"a":[1,2.5,"x",null,true,{"b":{}}]}"#).unwrap();
        assert_eq!(value["a"][2], "x");
        assert_eq!(value["a"][1], 2.5);
    }

    #[test]
    fn rejects_duplicate_members_at_any_depth() {
        assert_eq!(
            parse(br#"{"a":1,"a":2}"#),
            Err(JsonError::DuplicateMember { name: "a".into() })
        );
        assert_eq!(
            parse(br#"[{"x":{"kid":"1","kid":"2"}}]"#),
            Err(JsonError::DuplicateMember { name: "kid".into() })
        );
        // Escapes name the same member: "\u0061" is "a".
        assert_eq!(
            parse(br#"{"a":1,"\u0061":2}"#),
            Err(JsonError::DuplicateMember { name: "a".into() })
        );
    }

    #[test]
    fn rejects_syntax_errors_and_trailing_text() {
        assert!(matches!(parse(b"{"), Err(JsonError::Syntax { .. })));
        assert!(matches!(
            parse(b"{} x"),
            Err(JsonError::Syntax { line: 1, .. })
        ));
        assert!(matches!(parse(b""), Err(JsonError::Syntax { .. })));
        assert!(matches!(parse(b"\xff"), Err(JsonError::Syntax { .. })));
    }

    #[test]
    fn bounds_nesting() {
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse(ok.as_bytes()).is_ok());
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert_eq!(parse(deep.as_bytes()), Err(JsonError::TooDeep));
        let hostile = "[".repeat(100_000);
        assert_eq!(parse(hostile.as_bytes()), Err(JsonError::TooDeep));
    }

    #[test]
    fn typed_conversion_reports_shape() {
        #[derive(serde::Deserialize, Debug)]
        struct T {
            #[allow(dead_code)]
            a: u8,
        }
        assert!(from_slice::<T>(br#"{"a":1}"#).is_ok());
        assert!(matches!(
            from_slice::<T>(br#"{"a":"x"}"#),
            Err(JsonError::Shape { .. })
        ));
        assert_eq!(
            from_slice::<T>(br#"{"a":1,"a":1}"#).unwrap_err().code(),
            "ERR_JSON_DUPLICATE_MEMBER"
        );
    }
}
