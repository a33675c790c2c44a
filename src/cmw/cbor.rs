//! The CBOR serialisation (`application/cmw+cbor`): `cbor-record = [type, bytes, ? ind]`
//! (type a CoAP Content-Format `uint .size 2` or a media type), the Tag CMW
//! `#6.TN(bytes)`, and `cbor-collection = { ? "__cmwc_t": uri / oid, + (int / text) => cbor-cmw }`.
//!
//! The bytes are read by the crate's strict CBOR reader (one item and nothing after it,
//! duplicate map keys refused, nesting and items bounded), then walked within the CMW
//! budgets. A tag is a CMW only in the Tag CMW range; other tags (even 55799, the
//! self-described marker) are not the draft's and are refused.

use alloc::vec::Vec;

use super::walk::{cmw, Budget, Item, Key, Node};
use super::{content_format_of_tag, media_type, Cmw, CmwError, CmwLimits, MediaType, Record};
use crate::cbor::{self, Cbor, CborError, CborLimits};

/// CBOR items per CMW item: a record is an array, its two or three members, and the
/// collection label before it.
const CBOR_ITEMS_PER_CMW_ITEM: usize = 5;

/// Reads a CBOR CMW.
pub(super) fn decode(bytes: &[u8], limits: CmwLimits) -> Result<Cmw, CmwError> {
    let cbor_limits = CborLimits {
        max_depth: CborLimits::DEFAULT.max_depth,
        max_items: limits
            .max_items
            .saturating_mul(CBOR_ITEMS_PER_CMW_ITEM)
            .saturating_add(CBOR_ITEMS_PER_CMW_ITEM),
    };
    let item = cbor::decode(bytes, cbor_limits).map_err(|error| match error {
        CborError::DuplicateKey => CmwError::DuplicateLabel {
            path: "$".into(),
            label: "(a repeated map key)".into(),
        },
        CborError::TooDeep { .. } => CmwError::TooDeep {
            path: "$".into(),
            limit: limits.max_depth,
        },
        CborError::TooManyItems { .. } => CmwError::TooManyItems {
            limit: limits.max_items,
        },
        other => CmwError::Syntax {
            detail: alloc::format!("{other}"),
        },
    })?;
    cmw(&item, "$", 1, &mut Budget::new(limits))
}

impl Item for Cbor {
    const RECORD_SHAPE: &'static str = "[type, bytes] or [type, bytes, ind]";

    fn node(&self, path: &str) -> Result<Node<'_, Self>, CmwError> {
        match self {
            Self::Array(members) => Ok(Node::Record(members)),
            Self::Tag(tag, inner) => {
                let content_format =
                    content_format_of_tag(*tag).ok_or_else(|| CmwError::Shape {
                        path: path.into(),
                        expected: "a record, a collection, or a tag of the Tag CMW range",
                    })?;
                let Self::Bytes(value) = inner.as_ref() else {
                    return Err(CmwError::Shape {
                        path: path.into(),
                        expected: "a Tag CMW over a byte string",
                    });
                };
                Ok(Node::Whole(Record {
                    media_type: MediaType::ContentFormat(content_format),
                    value: value.clone(),
                    ind: None,
                }))
            }
            Self::Map(entries) => entries
                .iter()
                .map(|(key, value)| Ok((label(key, path)?, value)))
                .collect::<Result<Vec<_>, CmwError>>()
                .map(Node::Collection),
            _ => Err(CmwError::Shape {
                path: path.into(),
                expected: "a record (array), a collection (map) or a Tag CMW",
            }),
        }
    }

    /// A media type, or a CoAP Content-Format (`uint .size 2`).
    fn media_type(&self, path: &str) -> Result<MediaType, CmwError> {
        match self {
            Self::Uint(n) => u16::try_from(*n)
                .map(MediaType::ContentFormat)
                .map_err(|_| CmwError::MediaType { path: path.into() }),
            Self::Text(text) => media_type(text, path),
            _ => Err(CmwError::MediaType { path: path.into() }),
        }
    }

    fn value(&self, _path: &str) -> Result<Option<Vec<u8>>, CmwError> {
        Ok(self.as_bytes().map(<[u8]>::to_vec))
    }

    fn indicator(&self) -> Option<u64> {
        match self {
            Self::Uint(n) => Some(*n),
            _ => None,
        }
    }

    fn text(&self) -> Option<&str> {
        self.as_text()
    }
}

/// A collection label: text, or an integer within 64 bits signed.
fn label<'a>(key: &'a Cbor, path: &str) -> Result<Key<'a>, CmwError> {
    match key {
        Cbor::Text(text) => Ok(Key::Text(text)),
        Cbor::Uint(_) | Cbor::Neg(_) => key.as_i64().map(Key::Int).ok_or_else(|| CmwError::Shape {
            path: path.into(),
            expected: "a collection labelled by text or 64-bit integers",
        }),
        _ => Err(CmwError::Shape {
            path: path.into(),
            expected: "a collection labelled by text or integers",
        }),
    }
}
