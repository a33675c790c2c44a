//! Why a list request or a data set was refused.

use alloc::string::String;
use core::fmt;

use crate::error_code::{ErrorBody, ErrorCode};
use crate::json::JsonError;

/// A list request the service answers with HTTP 400 (404 for [`Self::UnknownPath`]).
///
/// Every variant names the query parameter it is about ([`ErrorCode::field`]):
/// `page_number`, `rpp`, `filter`, `sorting`, or the name of an unknown parameter. Variants
/// about one `filter` occurrence carry its 0-based position among the `filter` parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ListError {
    /// A `%` not followed by two hex digits, or decoded bytes that are not UTF-8.
    MalformedEncoding {
        /// The parameter whose name or value is malformed (`query` when the name itself is).
        parameter: String,
    },
    /// A parameter other than `page_number`, `rpp`, `filter`, `sorting`.
    UnknownParameter {
        /// Its decoded name.
        parameter: String,
    },
    /// `page_number`, `rpp` or `sorting` given more than once.
    RepeatedParameter {
        /// The parameter.
        parameter: &'static str,
    },
    /// `page_number` or `rpp` is not a positive decimal integer.
    InvalidNumber {
        /// `page_number` or `rpp`.
        parameter: &'static str,
        /// The decoded value received.
        value: String,
    },
    /// `rpp` is above [`super::MAX_RPP`].
    RppTooLarge {
        /// The value received.
        rpp: u64,
    },
    /// `page_number` is past the last page (page 1 always exists, even for no rows).
    PageOutOfRange {
        /// The page asked for.
        page_number: u64,
        /// The number of pages of the filtered set.
        num_of_pages: u64,
    },
    /// More `filter` parameters than [`super::MAX_FILTERS`].
    TooManyFilters {
        /// The number received.
        count: usize,
    },
    /// A `filter` value is not `<column>[<type>]<value>`.
    MalformedFilter {
        /// Position among the `filter` parameters, from 0.
        index: usize,
        /// What is wrong.
        reason: &'static str,
    },
    /// A `filter` or `sorting` names a column the endpoint's items do not have.
    UnknownColumn {
        /// `filter` or `sorting`.
        parameter: &'static str,
        /// The column name received.
        column: String,
    },
    /// A filter type other than the seven codes.
    UnknownFilterType {
        /// Position among the `filter` parameters, from 0.
        index: usize,
        /// The code received.
        filter_type: String,
    },
    /// A filter value that does not fit the column's type or the filter type.
    InvalidFilterValue {
        /// Position among the `filter` parameters, from 0.
        index: usize,
        /// The column.
        column: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// `sorting` is not a comma-separated list of `<column>[asc|desc]`.
    MalformedSorting {
        /// What is wrong.
        reason: &'static str,
    },
    /// A sort direction other than `asc` and `desc`.
    UnknownSortDirection {
        /// The direction received.
        direction: String,
    },
    /// The same column twice in `sorting`.
    RepeatedSortColumn {
        /// The column.
        column: String,
    },
    /// The path is not one of the nine list endpoints, or not the path of the table asked.
    UnknownPath {
        /// The path received.
        path: String,
    },
}

impl ListError {
    /// The HTTP status of the response: 404 for [`Self::UnknownPath`], else 400.
    pub fn status(&self) -> u16 {
        match self {
            Self::UnknownPath { .. } => 404,
            _ => 400,
        }
    }

    /// The JSON error body ([`ErrorBody`], the service's one error shape): stable code,
    /// message, the parameter concerned (`page_number`, `rpp`, `filter`, `sorting`, or an
    /// unknown parameter's name; absent for an unknown path) and the status.
    pub fn body(&self) -> ErrorBody {
        ErrorBody::of(self.status(), self)
    }
}

impl ErrorCode for ListError {
    fn code(&self) -> &'static str {
        match self {
            Self::MalformedEncoding { .. } => "ERR_LIST_MALFORMED_ENCODING",
            Self::UnknownParameter { .. } => "ERR_LIST_UNKNOWN_PARAMETER",
            Self::RepeatedParameter { .. } => "ERR_LIST_REPEATED_PARAMETER",
            Self::InvalidNumber { .. } => "ERR_LIST_INVALID_NUMBER",
            Self::RppTooLarge { .. } => "ERR_LIST_RPP_TOO_LARGE",
            Self::PageOutOfRange { .. } => "ERR_LIST_PAGE_OUT_OF_RANGE",
            Self::TooManyFilters { .. } => "ERR_LIST_TOO_MANY_FILTERS",
            Self::MalformedFilter { .. } => "ERR_LIST_MALFORMED_FILTER",
            Self::UnknownColumn { .. } => "ERR_LIST_UNKNOWN_COLUMN",
            Self::UnknownFilterType { .. } => "ERR_LIST_UNKNOWN_FILTER_TYPE",
            Self::InvalidFilterValue { .. } => "ERR_LIST_INVALID_FILTER_VALUE",
            Self::MalformedSorting { .. } => "ERR_LIST_MALFORMED_SORTING",
            Self::UnknownSortDirection { .. } => "ERR_LIST_UNKNOWN_SORT_DIRECTION",
            Self::RepeatedSortColumn { .. } => "ERR_LIST_REPEATED_SORT_COLUMN",
            Self::UnknownPath { .. } => "ERR_LIST_UNKNOWN_PATH",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::MalformedEncoding { parameter } | Self::UnknownParameter { parameter } => {
                Some(parameter)
            }
            Self::RepeatedParameter { parameter }
            | Self::InvalidNumber { parameter, .. }
            | Self::UnknownColumn { parameter, .. } => Some(parameter),
            Self::RppTooLarge { .. } => Some("rpp"),
            Self::PageOutOfRange { .. } => Some("page_number"),
            Self::TooManyFilters { .. }
            | Self::MalformedFilter { .. }
            | Self::UnknownFilterType { .. }
            | Self::InvalidFilterValue { .. } => Some("filter"),
            Self::MalformedSorting { .. }
            | Self::UnknownSortDirection { .. }
            | Self::RepeatedSortColumn { .. } => Some("sorting"),
            Self::UnknownPath { .. } => None,
        }
    }
}

impl fmt::Display for ListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MalformedEncoding { parameter } => write!(
                f,
                "{parameter}: malformed percent-encoding or text that is not UTF-8"
            ),
            Self::UnknownParameter { parameter } => write!(
                f,
                "unknown query parameter {parameter:?}; expected page_number, rpp, filter or sorting"
            ),
            Self::RepeatedParameter { parameter } => {
                write!(f, "{parameter} may be given only once")
            }
            Self::InvalidNumber { parameter, value } => {
                write!(f, "{parameter} must be a positive decimal integer, not {value:?}")
            }
            Self::RppTooLarge { rpp } => {
                write!(f, "rpp {rpp} is above the maximum of {}", super::MAX_RPP)
            }
            Self::PageOutOfRange {
                page_number,
                num_of_pages,
            } => write!(
                f,
                "page_number {page_number} is past the last page ({num_of_pages} pages)"
            ),
            Self::TooManyFilters { count } => write!(
                f,
                "{count} filter parameters; at most {} are accepted",
                super::MAX_FILTERS
            ),
            Self::MalformedFilter { index, reason } => {
                write!(f, "filter #{index}: {reason}; expected <column>[<type>]<value>")
            }
            Self::UnknownColumn { parameter, column } => {
                write!(f, "{parameter}: unknown column {column:?}")
            }
            Self::UnknownFilterType { index, filter_type } => write!(
                f,
                "filter #{index}: unknown filter type {filter_type:?}; expected eq, neq, con, ncon, sw, ew or eqm"
            ),
            Self::InvalidFilterValue {
                index,
                column,
                reason,
            } => write!(f, "filter #{index} on {column}: {reason}"),
            Self::MalformedSorting { reason } => {
                write!(f, "sorting: {reason}; expected <column>[asc|desc],...")
            }
            Self::UnknownSortDirection { direction } => write!(
                f,
                "sorting: unknown direction {direction:?}; expected asc or desc"
            ),
            Self::RepeatedSortColumn { column } => {
                write!(f, "sorting: column {column:?} appears more than once")
            }
            Self::UnknownPath { path } => write!(f, "no list endpoint at {path:?}"),
        }
    }
}

impl core::error::Error for ListError {}

/// A data set (a JSON array of items) that does not fit the endpoint's schema.
///
/// These are errors of the data source, not of the client: a service answers them with 5xx
/// or refuses to start.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TableError {
    /// Not JSON, or JSON with a repeated member.
    Json(JsonError),
    /// The document is not a JSON array.
    NotAnArray,
    /// An item is not a JSON object.
    NotAnObject {
        /// `[i]`, the item's position.
        field: String,
    },
    /// An item lacks a column.
    MissingField {
        /// `[i].column`.
        field: String,
    },
    /// An item has a member that is not a column of the schema.
    UnknownField {
        /// `[i].member`.
        field: String,
    },
    /// A member has the wrong JSON type for its column.
    WrongType {
        /// `[i].column` (or `[i].column[j]` for an array element).
        field: String,
        /// The column type expected.
        expected: &'static str,
    },
    /// Two items share the primary key.
    DuplicateKey {
        /// `[i].key`, the second item.
        field: String,
    },
    /// More items than [`super::MAX_ROWS`].
    TooManyRows {
        /// The number of items.
        count: usize,
    },
    /// The path is not one of the nine list endpoints.
    UnknownPath {
        /// The path received.
        path: String,
    },
}

impl ErrorCode for TableError {
    fn code(&self) -> &'static str {
        match self {
            Self::Json(JsonError::DuplicateMember { .. }) => "ERR_LIST_DATA_DUPLICATE_MEMBER",
            Self::Json(_) => "ERR_LIST_DATA_MALFORMED_JSON",
            Self::NotAnArray => "ERR_LIST_DATA_NOT_ARRAY",
            Self::NotAnObject { .. } => "ERR_LIST_DATA_NOT_OBJECT",
            Self::MissingField { .. } => "ERR_LIST_DATA_MISSING_FIELD",
            Self::UnknownField { .. } => "ERR_LIST_DATA_UNKNOWN_FIELD",
            Self::WrongType { .. } => "ERR_LIST_DATA_WRONG_TYPE",
            Self::DuplicateKey { .. } => "ERR_LIST_DATA_DUPLICATE_KEY",
            Self::TooManyRows { .. } => "ERR_LIST_DATA_TOO_MANY_ROWS",
            Self::UnknownPath { .. } => "ERR_LIST_UNKNOWN_PATH",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::NotAnObject { field }
            | Self::MissingField { field }
            | Self::UnknownField { field }
            | Self::WrongType { field, .. }
            | Self::DuplicateKey { field } => Some(field),
            Self::Json(error) => error.field(),
            Self::NotAnArray | Self::TooManyRows { .. } | Self::UnknownPath { .. } => None,
        }
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Json(error) => write!(f, "data set: {error}"),
            Self::NotAnArray => f.write_str("data set must be a JSON array of items"),
            Self::NotAnObject { field } => write!(f, "data set item {field} is not an object"),
            Self::MissingField { field } => write!(f, "data set: {field} is missing"),
            Self::UnknownField { field } => {
                write!(f, "data set: {field} is not a column of the schema")
            }
            Self::WrongType { field, expected } => {
                write!(f, "data set: {field} must be {expected}")
            }
            Self::DuplicateKey { field } => {
                write!(f, "data set: {field} repeats a primary key")
            }
            Self::TooManyRows { count } => write!(
                f,
                "data set holds {count} items; at most {} are supported",
                super::MAX_ROWS
            ),
            Self::UnknownPath { path } => write!(f, "no list endpoint at {path:?}"),
        }
    }
}

impl core::error::Error for TableError {}

impl From<JsonError> for TableError {
    fn from(error: JsonError) -> Self {
        Self::Json(error)
    }
}

impl From<crate::urlencoded::BadEncoding> for ListError {
    /// A bad name is reported against `query`, a bad value against its parameter.
    fn from(error: crate::urlencoded::BadEncoding) -> Self {
        use crate::urlencoded::BadEncoding;
        Self::MalformedEncoding {
            parameter: match error {
                BadEncoding::Name => String::from("query"),
                BadEncoding::Value(name) => name,
            },
        }
    }
}
