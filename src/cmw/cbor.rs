//! The CBOR serialisation (`application/cmw+cbor`): `cbor-record = [type, bytes, ? ind]`
//! (type a CoAP Content-Format `uint .size 2` or a media type), the Tag CMW
//! `#6.TN(bytes)`, and `cbor-collection = { ? "__cmwc_t": uri / oid, + (int / text) => cbor-cmw }`.
//!
//! The bytes are read by the crate's strict CBOR reader (one item and nothing after it,
//! duplicate map keys refused, nesting and items bounded), then walked within the CMW
//! budgets. A tag is a CMW only in the Tag CMW range; other tags (even 55799, the
//! self-described marker) are not the draft's and are refused.

use alloc::vec::Vec;

use super::{
    child, collection_type, content_format_of_tag, indicator, media_type, Budget, Cmw, CmwError,
    CmwLimits, Collection, Label, MediaType, Record, COLLECTION_TYPE_LABEL,
};
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

fn cmw(item: &Cbor, path: &str, depth: usize, budget: &mut Budget) -> Result<Cmw, CmwError> {
    budget.take()?;
    match item {
        Cbor::Array(items) => record(items, path).map(Cmw::Record),
        Cbor::Tag(tag, inner) => {
            let content_format = content_format_of_tag(*tag).ok_or_else(|| CmwError::Shape {
                path: path.into(),
                expected: "a record, a collection, or a tag of the Tag CMW range",
            })?;
            let Cbor::Bytes(value) = inner.as_ref() else {
                return Err(CmwError::Shape {
                    path: path.into(),
                    expected: "a Tag CMW over a byte string",
                });
            };
            Ok(Cmw::Record(Record {
                media_type: MediaType::ContentFormat(content_format),
                value: value.clone(),
                ind: None,
            }))
        }
        Cbor::Map(entries) => {
            budget.enter(depth, path)?;
            let mut collection = Collection {
                collection_type: None,
                entries: Vec::new(),
            };
            for (key, value) in entries {
                let label = match key {
                    Cbor::Text(text) if text == COLLECTION_TYPE_LABEL => {
                        let Cbor::Text(text) = value else {
                            return Err(CmwError::CollectionType {
                                path: path.into(),
                                found: None,
                            });
                        };
                        collection.collection_type = Some(collection_type(text, path)?);
                        continue;
                    }
                    Cbor::Text(text) => Label::Text(text.clone()),
                    Cbor::Uint(_) | Cbor::Neg(_) => {
                        Label::Int(key.as_i64().ok_or_else(|| CmwError::Shape {
                            path: path.into(),
                            expected: "a collection labelled by text or 64-bit integers",
                        })?)
                    }
                    _ => {
                        return Err(CmwError::Shape {
                            path: path.into(),
                            expected: "a collection labelled by text or integers",
                        })
                    }
                };
                let inner = cmw(value, &child(path, &label), depth + 1, budget)?;
                collection.entries.push((label, inner));
            }
            if collection.entries.is_empty() {
                return Err(CmwError::EmptyCollection { path: path.into() });
            }
            Ok(Cmw::Collection(collection))
        }
        _ => Err(CmwError::Shape {
            path: path.into(),
            expected: "a record (array), a collection (map) or a Tag CMW",
        }),
    }
}

fn record(items: &[Cbor], path: &str) -> Result<Record, CmwError> {
    const SHAPE: &str = "[type, bytes] or [type, bytes, ind]";
    let shape = || CmwError::Shape {
        path: path.into(),
        expected: SHAPE,
    };
    let (kind, value, ind) = match items {
        [kind, value] => (kind, value, None),
        [kind, value, ind] => (kind, value, Some(ind)),
        _ => return Err(shape()),
    };
    let media_type = match kind {
        Cbor::Uint(n) => MediaType::ContentFormat(
            u16::try_from(*n).map_err(|_| CmwError::MediaType { path: path.into() })?,
        ),
        Cbor::Text(text) => media_type(text, path)?,
        _ => return Err(CmwError::MediaType { path: path.into() }),
    };
    let Cbor::Bytes(value) = value else {
        return Err(shape());
    };
    let ind = match ind {
        None => None,
        Some(Cbor::Uint(n)) => Some(indicator(*n, path)?),
        Some(_) => return Err(shape()),
    };
    Ok(Record {
        media_type,
        value: value.clone(),
        ind,
    })
}
