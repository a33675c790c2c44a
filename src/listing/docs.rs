//! What the listing exports answer besides pages, as serde types: the schemas as documented
//! (`listSchemas`), the limits (`listLimits`), an HTTP-shaped response (`ListTable.respond`),
//! and the one lookup of a list path ([`Schema::find`]).

use alloc::string::String;

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use super::error::TableError;
use super::response::ListResponse;
use super::schema::{Column, Schema};
use super::{DEFAULT_RPP, EMBEDDED_ROWS, EMBEDDED_SEED, MAX_FILTERS, MAX_ROWS, MAX_RPP};

impl Schema {
    /// The schema of list path `path`.
    ///
    /// # Errors
    /// [`TableError::UnknownPath`] for a path that is no list endpoint.
    pub fn find(path: &str) -> Result<&'static Self, TableError> {
        Self::for_path(path).ok_or_else(|| TableError::UnknownPath {
            path: String::from(path),
        })
    }
}

/// A schema as documented: `{path, item, key, columns: [{name, type, doc}]}` (the JS
/// `ListSchema`).
impl Serialize for Schema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(4))?;
        map.serialize_entry("path", self.path)?;
        map.serialize_entry("item", self.item)?;
        map.serialize_entry("key", self.key_name())?;
        map.serialize_entry("columns", &Columns(self.columns))?;
        map.end()
    }
}

struct Columns(&'static [Column]);

impl Serialize for Columns {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for column in self.0 {
            seq.serialize_element(&ColumnDoc(column))?;
        }
        seq.end()
    }
}

struct ColumnDoc(&'static Column);

impl Serialize for ColumnDoc {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("name", self.0.name)?;
        map.serialize_entry("type", self.0.column_type.as_str())?;
        map.serialize_entry("doc", self.0.doc)?;
        map.end()
    }
}

/// `{status, body}` (the JS `ListResponse`).
impl Serialize for ListResponse {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("status", &self.status)?;
        map.serialize_entry("body", &self.body)?;
        map.end()
    }
}

/// The list limits and the embedded data set's size and seed (the JS `ListLimits`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ListLimits {
    /// [`DEFAULT_RPP`].
    pub default_rpp: u64,
    /// [`MAX_RPP`].
    pub max_rpp: u64,
    /// [`MAX_FILTERS`].
    pub max_filters: usize,
    /// [`MAX_ROWS`].
    pub max_rows: usize,
    /// Items per endpoint of the worker's embedded data set ([`EMBEDDED_ROWS`],
    /// `ListTable.generate`).
    pub embedded_rows: usize,
    /// Its seed ([`EMBEDDED_SEED`]).
    pub embedded_seed: u64,
}

impl ListLimits {
    /// The limits of this build.
    pub const CURRENT: Self = Self {
        default_rpp: DEFAULT_RPP,
        max_rpp: MAX_RPP,
        max_filters: MAX_FILTERS,
        max_rows: MAX_ROWS,
        embedded_rows: EMBEDDED_ROWS,
        embedded_seed: EMBEDDED_SEED,
    };
}
