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

use super::{
    child, collection_type, indicator, media_type, Budget, Cmw, CmwError, CmwLimits, Collection,
    Label, Record, COLLECTION_TYPE_LABEL,
};
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

fn cmw(value: &Value, path: &str, depth: usize, budget: &mut Budget) -> Result<Cmw, CmwError> {
    budget.take()?;
    match value {
        Value::Array(items) => record(items, path).map(Cmw::Record),
        Value::Object(members) => {
            budget.enter(depth, path)?;
            let mut collection = Collection {
                collection_type: None,
                entries: Vec::new(),
            };
            for (name, member) in members {
                if name == COLLECTION_TYPE_LABEL {
                    let Value::String(text) = member else {
                        return Err(CmwError::CollectionType {
                            path: path.into(),
                            found: None,
                        });
                    };
                    collection.collection_type = Some(collection_type(text, path)?);
                    continue;
                }
                let label = Label::Text(name.clone());
                let inner = cmw(member, &child(path, &label), depth + 1, budget)?;
                collection.entries.push((label, inner));
            }
            if collection.entries.is_empty() {
                return Err(CmwError::EmptyCollection { path: path.into() });
            }
            Ok(Cmw::Collection(collection))
        }
        _ => Err(CmwError::Shape {
            path: path.into(),
            expected: "a record (array) or a collection (object)",
        }),
    }
}

fn record(items: &[Value], path: &str) -> Result<Record, CmwError> {
    const SHAPE: &str = "[media type, base64url value] or [media type, base64url value, ind]";
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
        Value::String(text) => media_type(text, path)?,
        _ => return Err(CmwError::MediaType { path: path.into() }),
    };
    let Value::String(text) = value else {
        return Err(shape());
    };
    let value = base64url(text).ok_or_else(|| CmwError::Base64 { path: path.into() })?;
    let ind = match ind {
        None => None,
        Some(ind) => {
            let n = ind.as_u64().ok_or_else(shape)?;
            Some(indicator(n, path)?)
        }
    };
    Ok(Record {
        media_type,
        value,
        ind,
    })
}

/// Base64url without padding (RFC 4648 §5), the only encoding the draft allows for a JSON
/// record's value: `=` and the standard alphabet's `+` `/` are refused, and so are
/// non-canonical trailing bits.
fn base64url(text: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD.decode(text).ok()
}
