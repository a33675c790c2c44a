//! Typed column schemas: what an item of each list endpoint holds and how its values read.

use core::fmt;

/// The type of a column, which decides how filter values are read and how values order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ColumnType {
    /// A JSON integer that fits `i64`. Orders numerically.
    Integer,
    /// A JSON number (finite `f64`; `-0` is stored as `0`). Orders numerically.
    Number,
    /// A JSON string. Orders by Unicode scalar values (code point order), case-sensitively.
    String,
    /// A JSON array of strings. Orders lexicographically, element by element, each element
    /// as [`ColumnType::String`]; a proper prefix comes first (`[]` before `["a"]`).
    StringArray,
}

impl ColumnType {
    /// The type's name in documentation and errors: `integer`, `number`, `string`,
    /// `array of string`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Integer => "integer",
            Self::Number => "number",
            Self::String => "string",
            Self::StringArray => "array of string",
        }
    }
}

impl fmt::Display for ColumnType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How the deterministic generator ([`super::generate_rows`]) makes a column's values.
///
/// Part of the schema so that a generated data set looks like its endpoint's data.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum ValueGen {
    /// The primary key: `1..=count` in a shuffled order.
    Key,
    /// A Unix time in seconds within the 30 days before 2026-01-01T00:00:00Z.
    Timestamp,
    /// An integer uniformly in `lo..=hi`.
    Int(i64, i64),
    /// A number uniformly in `lo..hi`, rounded to `decimals` places.
    Num(f64, f64, u32),
    /// One of the integers.
    IntChoice(&'static [i64]),
    /// One of the words.
    Choice(&'static [&'static str]),
    /// A node GUID: `0x` and 16 hex digits, from a pool of `pool` nodes.
    Guid(u32),
    /// A cable serial number from a pool of `pool` cables.
    Serial(u32),
    /// One of the templates, with `{n}` replaced by a number in 1..=64.
    Text(&'static [&'static str]),
    /// An array of 0..=`max` GUIDs (pool of `pool` nodes).
    GuidList(u32, u32),
    /// An array of 0..=`max` distinct words.
    WordList(&'static [&'static str], u32),
    /// The display names of the GUIDs in an earlier column (by position), same order.
    DisplayNamesOf(usize),
}

/// One column of an endpoint's items.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Column {
    /// The member name, as in the items and in `filter` and `sorting` (case-sensitive).
    pub name: &'static str,
    /// The value type.
    pub column_type: ColumnType,
    /// What the column means.
    pub doc: &'static str,
    /// How generated data sets fill it.
    pub generator: ValueGen,
}

/// The items of one list endpoint: their columns, in output order, and the primary key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schema {
    /// The endpoint path, relative to the service's base URL (spec §4 A).
    pub path: &'static str,
    /// The item's name in documentation (`alert`, `network anomaly`).
    pub item: &'static str,
    /// The columns in the order items are serialised.
    pub columns: &'static [Column],
    /// The position in `columns` of the primary key: an [`ColumnType::Integer`] column whose
    /// values are unique. It is the tie-breaker after the requested sort keys and the
    /// default order (ascending) when no `sorting` is given.
    pub key: usize,
}

impl Schema {
    /// The position of the column named `name` (exact, case-sensitive match).
    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|column| column.name == name)
    }

    /// The primary-key column's name.
    pub fn key_name(&self) -> &'static str {
        self.columns.get(self.key).map_or("", |column| column.name)
    }
}
