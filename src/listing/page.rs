//! The page envelope (spec §2 A, "Page envelope").

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::Value;

/// One page of a list, serialised with exactly the spec's field names.
///
/// Indices are 1-based positions in the filtered, sorted set, both inclusive: page 2 with
/// `rpp` 10 of 25 rows has `first_index` 11 and `last_index` 20; page 3 has 21 and 25. When
/// nothing matches, page 1 is `data: []` with every number 0.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Page {
    /// The items of the page, in order, each with the schema's columns in schema order.
    pub data: Vec<Value>,
    /// Items after filtering (before paging).
    pub filtered_resources: u64,
    /// 1-based position of the first item of the page; 0 when the page is empty.
    pub first_index: u64,
    /// 1-based position of the last item of the page; 0 when the page is empty.
    pub last_index: u64,
    /// `ceil(filtered_resources / rpp)`; 0 when nothing matches.
    pub num_of_pages: u64,
}

impl Page {
    /// The envelope as JSON text.
    pub fn to_json(&self) -> String {
        // Serialising strings, integers, finite numbers and arrays cannot fail.
        crate::json::write::to_string(self).unwrap_or_default()
    }
}
