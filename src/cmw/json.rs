//! The JSON serialisation (`application/cmw+json`): `json-record = [media-type,
//! base64url-string, ? ind]`, `json-collection = { ? "__cmwc_t": uri / oid, + text => json-cmw }`.
//!
//! The text is read by the crate's strict JSON reader (duplicate members refused at every
//! depth, nesting bounded), then walked within the budgets. Record types are media types
//! only: the draft keeps CoAP Content-Formats out of JSON.

use alloc::vec::Vec;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::Value;

use super::walk::{cmw, Budget, Item, Key, Node};
use super::{media_type, Cmw, CmwError, CmwLimits, MediaType};
use crate::json::{self, JsonError};

/// Reads a JSON CMW.
pub(super) fn decode(bytes: &[u8], limits: CmwLimits) -> Result<Cmw, CmwError> {
    let value = json::parse(bytes).map_err(|error| match error {
        JsonError::DuplicateMember { name } => CmwError::DuplicateLabel {
            path: "$".into(),
            label: name,
        },
        JsonError::TooDeep => CmwError::TooDeep {
            path: "$".into(),
            limit: limits.max_depth,
        },
        other => CmwError::Syntax {
            detail: alloc::format!("{other}"),
        },
    })?;
    cmw(&value, "$", 1, &mut Budget::new(limits))
}

impl Item for Value {
    const RECORD_SHAPE: &'static str =
        "[media type, base64url value] or [media type, base64url value, ind]";

    fn node(&self, path: &str) -> Result<Node<'_, Self>, CmwError> {
        match self {
            Self::Array(members) => Ok(Node::Record(members)),
            Self::Object(members) => Ok(Node::Collection(
                members
                    .iter()
                    .map(|(name, member)| (Key::Text(name), member))
                    .collect(),
            )),
            _ => Err(CmwError::Shape {
                path: path.into(),
                expected: "a record (array) or a collection (object)",
            }),
        }
    }

    fn media_type(&self, path: &str) -> Result<MediaType, CmwError> {
        match self {
            Self::String(text) => media_type(text, path),
            _ => Err(CmwError::MediaType { path: path.into() }),
        }
    }

    /// Base64url without padding (RFC 4648 §5), the only encoding the draft allows for a
    /// JSON record's value: `=` and the standard alphabet's `+` `/` are refused, and so are
    /// non-canonical trailing bits.
    fn value(&self, path: &str) -> Result<Option<Vec<u8>>, CmwError> {
        let Self::String(text) = self else {
            return Ok(None);
        };
        URL_SAFE_NO_PAD
            .decode(text)
            .map(Some)
            .map_err(|_| CmwError::Base64 { path: path.into() })
    }

    fn indicator(&self) -> Option<u64> {
        self.as_u64()
    }

    fn text(&self) -> Option<&str> {
        self.as_str()
    }
}
