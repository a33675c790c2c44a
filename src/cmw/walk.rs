//! The walk both serialisations share: a decoded JSON value or CBOR item read as records and
//! collections within the budgets. The rules of the draft (a collection has an entry, its
//! type is `__cmwc_t`, a record is `[type, value, ? ind]`) are written here once; each
//! serialisation only says what its items are ([`Item`]).

use alloc::string::String;
use alloc::vec::Vec;

use super::{
    collection_type, indicator, Cmw, CmwError, CmwLimits, Collection, Label, MediaType, Record,
    COLLECTION_TYPE_LABEL,
};

/// What one item of a serialisation is, as the walk needs it.
pub(super) enum Node<'a, T> {
    /// An array: a record's members.
    Record(&'a [T]),
    /// A map or object: labels and the CMWs under them, in document order.
    Collection(Vec<(Key<'a>, &'a T)>),
    /// A record complete in one item (a CBOR Tag CMW).
    Whole(Record),
}

/// A collection label as the serialisation wrote it.
pub(super) enum Key<'a> {
    Text(&'a str),
    Int(i64),
}

/// One item of a decoded JSON or CBOR CMW.
pub(super) trait Item: Sized {
    /// A record's shape, in the words of errors.
    const RECORD_SHAPE: &'static str;

    /// What this item is; an error when it is nothing a CMW can be here.
    fn node(&self, path: &str) -> Result<Node<'_, Self>, CmwError>;

    /// A record's type.
    fn media_type(&self, path: &str) -> Result<MediaType, CmwError>;

    /// A record's value, decoded; `None` when it is not of the value's kind.
    fn value(&self, path: &str) -> Result<Option<Vec<u8>>, CmwError>;

    /// A record's `ind` as a number, if it is one.
    fn indicator(&self) -> Option<u64>;

    /// The item as text (a collection's type).
    fn text(&self) -> Option<&str>;
}

/// Reads `item` (at `path`, collection depth `depth`) as a CMW.
pub(super) fn cmw<T: Item>(
    item: &T,
    path: &str,
    depth: usize,
    budget: &mut Budget,
) -> Result<Cmw, CmwError> {
    budget.take()?;
    match item.node(path)? {
        Node::Record(members) => record(members, path).map(Cmw::Record),
        Node::Whole(record) => Ok(Cmw::Record(record)),
        Node::Collection(entries) => {
            budget.enter(depth, path)?;
            let mut collection = Collection {
                collection_type: None,
                entries: Vec::new(),
            };
            for (key, value) in entries {
                let label = match key {
                    Key::Text(COLLECTION_TYPE_LABEL) => {
                        let text = value.text().ok_or_else(|| CmwError::CollectionType {
                            path: path.into(),
                            found: None,
                        })?;
                        collection.collection_type = Some(collection_type(text, path)?);
                        continue;
                    }
                    Key::Text(text) => Label::Text(text.into()),
                    Key::Int(n) => Label::Int(n),
                };
                let inner = cmw(value, &child(path, &label), depth + 1, budget)?;
                collection.entries.push((label, inner));
            }
            if collection.entries.is_empty() {
                return Err(CmwError::EmptyCollection { path: path.into() });
            }
            Ok(Cmw::Collection(collection))
        }
    }
}

fn record<T: Item>(members: &[T], path: &str) -> Result<Record, CmwError> {
    let shape = || CmwError::Shape {
        path: path.into(),
        expected: T::RECORD_SHAPE,
    };
    let (kind, value, ind) = match members {
        [kind, value] => (kind, value, None),
        [kind, value, ind] => (kind, value, Some(ind)),
        _ => return Err(shape()),
    };
    let media_type = kind.media_type(path)?;
    let value = value.value(path)?.ok_or_else(shape)?;
    let ind = match ind {
        None => None,
        Some(ind) => Some(indicator(ind.indicator().ok_or_else(shape)?, path)?),
    };
    Ok(Record {
        media_type,
        value,
        ind,
    })
}

/// The count of entries and records against [`CmwLimits::max_items`], and the depth bound.
pub(super) struct Budget {
    left: usize,
    limit: usize,
    max_depth: usize,
}

impl Budget {
    pub(super) fn new(limits: CmwLimits) -> Self {
        Self {
            left: limits.max_items,
            limit: limits.max_items,
            max_depth: limits.max_depth,
        }
    }

    fn take(&mut self) -> Result<(), CmwError> {
        self.left = self
            .left
            .checked_sub(1)
            .ok_or(CmwError::TooManyItems { limit: self.limit })?;
        Ok(())
    }

    fn enter(&self, depth: usize, path: &str) -> Result<(), CmwError> {
        if depth > self.max_depth {
            return Err(CmwError::TooDeep {
                path: path.into(),
                limit: self.max_depth,
            });
        }
        Ok(())
    }
}

/// `path` extended by `label`.
pub(super) fn child(path: &str, label: &Label) -> String {
    if path == "$" {
        label.segment()
    } else {
        alloc::format!("{path}.{}", label.segment())
    }
}
