//! List queries: filter, sort and page the analytics list endpoints (the list
//! convention of a network analytics service).
//!
//! A [`Table`] holds one endpoint's items, typed by its [`Schema`] and stored by column. A
//! query string is parsed into a [`ListQuery`] and run against the table into a [`Page`];
//! [`list_response`] does both for one request. [`generate_rows`] makes a deterministic
//! data set for any endpoint.
//!
//! # The contract (decisions the spec leaves open)
//!
//! **Query string.** `application/x-www-form-urlencoded`: `+` is a space, `%XX` a byte, and
//! the decoded text must be UTF-8; a bad escape is 400. Names are exact and case-sensitive:
//! `page_number`, `rpp`, `filter` (repeatable, order kept) and `sorting`; any other name,
//! or `page_number`, `rpp` or `sorting` given twice, is 400. Nothing is trimmed.
//!
//! **Pages.** `page_number` is 1-based, default 1. `rpp` defaults to [`DEFAULT_RPP`] (50)
//! and may not exceed [`MAX_RPP`] (1000): above it is 400, never silently clamped. Both
//! must be positive decimal integers (ASCII digits only, no sign): `0`, `-1`, `1.5`, `1e2`,
//! ` 1` and an empty value are 400. `num_of_pages` is `ceil(filtered_resources / rpp)`.
//! A `page_number` past the last page is 400, except that page 1 always exists: when
//! nothing matches it is `{"data":[],"filtered_resources":0,"first_index":0,"last_index":0,
//! "num_of_pages":0}`.
//!
//! **Envelope.** `first_index` and `last_index` are the 1-based, inclusive positions of the
//! page's first and last item in the filtered, sorted set (page 2 at `rpp` 10 of 25 items:
//! 11 and 20), both 0 when the page is empty. Items carry the schema's columns in schema
//! order.
//!
//! **Filters.** `filter=<column>[<type>]<value>`: the column is the text before the first
//! `[`, the type the text up to the next `]`, and the value everything after it (so a
//! value may contain brackets). Several filters are ANDed, including several on one
//! column; at most [`MAX_FILTERS`]. Column names and type codes are case-sensitive (`eq`,
//! not `EQ`). Values are read by the column's type:
//!
//! | column type | `eq`, `neq` | `eqm` members | `con`, `ncon`, `sw`, `ew` |
//! |---|---|---|---|
//! | integer | a JSON integer (`-?(0\|[1-9][0-9]*)`, fits i64), compared numerically | integers | the value's decimal text (`-42`) |
//! | number | a finite JSON number, compared numerically (`2` = `2.0`; `-0` = `0`) | numbers | the value's text as it appears in the output (`2.0`, `0.25`) |
//! | string | exact text (may be empty) | texts | substring / prefix / suffix |
//! | array of string | some element equals | some element equals one | some element contains / starts / ends with |
//!
//! String comparison is case-sensitive and on Unicode scalar values (never on bytes
//! half-way through a character). `neq` selects exactly the rows `eq` does not, and `ncon`
//! exactly those `con` does not; for arrays that means "no element equals / contains" (an
//! empty array matches `neq` and `ncon`, never `eq` or `con`). A value that does not read
//! as the column's type, or an empty value for `con`, `ncon`, `sw`, `ew`, `eqm` or a numeric
//! `eq`, is 400.
//!
//! **`eqm`** separates members with `,`. Inside a member `\,` is a literal comma and `\\`
//! a literal backslash; any other backslash and an empty member are 400. (Percent-encoding
//! a comma as `%2C` does not escape it: decoding happens first.) Escapes apply only to
//! `eqm`.
//!
//! **Sorting.** `sorting=<column>[asc|desc],…`, most significant key first, one `sorting`
//! parameter; a key without brackets, an unknown column or direction (lower case only) or
//! a repeated column is 400. Integers and numbers order numerically, strings by Unicode
//! scalar values, arrays of strings lexicographically by element. After the requested keys
//! the order always continues with the primary key ascending (each schema's `*_id`), which
//! is unique, so the order is total: the pages of one query partition the filtered set
//! exactly, with no row repeated or skipped. With no `sorting` the order is the primary
//! key ascending.
//!
//! **Errors.** Every refusal is a [`ListError`] with a stable `ERR_LIST_*` code, answered
//! with status 400 (404 for a path that is not a list endpoint) and the body
//! `{"code":"ERR_LIST_…","message":"…","field":"<parameter>","status":400}` — the shape of
//! every error body of the service, `field` naming the query parameter at fault. The first
//! problem in parameter order is reported.
//!
//! # Schemas
//! [`Schema::all`] lists the nine endpoints with their columns in output order, each with
//! its [`Column::doc`]; `listSchemas()` gives the same in JavaScript. The spec shows only the
//! alert item; the other eight are our documented choice, modelled on the UFM Cyber-AI
//! pages. Every item has a unique integer key, first, that ends every sort order.
//!
//! - `/analytics/anomalies/network`: network anomaly, key `anomaly_id`: `anomaly_id` integer,
//!   `timestamp` integer, `anomaly_type` string, `severity` string, `score` number, `node_guid`
//!   string, `port_number` integer, `description` string.
//! - `/analytics/alerts/filter`: alert (exactly the spec table, §2 A), key `alert_id`:
//!   `alert_id` integer, `occurrence` integer, `severity` string, `description` string,
//!   `influencers` array of string, `percentage` number, `influencers_display_names` array of
//!   string, `timestamp` integer.
//! - `/analytics/anomalies/tenant`: tenant anomaly, key `anomaly_id`: `anomaly_id` integer,
//!   `timestamp` integer, `tenant` string, `anomaly_type` string, `severity` string, `score`
//!   number, `nodes` array of string, `description` string.
//! - `/analytics/anomalies/logical-server`: logical-server anomaly, key `anomaly_id`:
//!   `anomaly_id` integer, `timestamp` integer, `logical_server` string, `tenant` string,
//!   `severity` string, `score` number, `nodes` array of string, `description` string.
//! - `/analytics/telemetry/link-status`: link status, key `link_id`: `link_id` integer,
//!   `timestamp` integer, `source_guid` string, `source_port` integer, `destination_guid` string,
//!   `destination_port` integer, `state` string, `speed` string, `bit_error_rate` number,
//!   `symbol_errors` integer.
//! - `/analytics/prediction/link-anomaly`: link anomaly prediction, key `prediction_id`:
//!   `prediction_id` integer, `timestamp` integer, `node_guid` string, `port_number` integer,
//!   `predicted_anomaly` string, `probability` number, `features` array of string.
//! - `/analytics/prediction/link-failure`: link failure prediction, key `prediction_id`:
//!   `prediction_id` integer, `timestamp` integer, `node_guid` string, `port_number` integer,
//!   `probability` number, `horizon_hours` integer, `reasons` array of string.
//! - `/analytics/anomalies/cable/threshold`: cable threshold anomaly, key `anomaly_id`:
//!   `anomaly_id` integer, `timestamp` integer, `cable_serial` string, `node_guid` string,
//!   `port_number` integer, `counter` string, `value` number, `threshold` number, `severity`
//!   string.
//! - `/analytics/anomalies/cable/deviation`: cable deviation anomaly, key `anomaly_id`:
//!   `anomaly_id` integer, `timestamp` integer, `cable_serial` string, `node_guid` string,
//!   `port_number` integer, `counter` string, `value` number, `baseline` number, `deviation`
//!   number, `severity` string.

mod column;
mod docs;
mod endpoints;
mod engine;
mod error;
mod generate;
mod load;
mod order;
mod page;
mod query;
mod response;
mod schema;
mod table;

pub use docs::ListLimits;
pub use engine::PageRows;
pub use error::{ListError, TableError};
pub use generate::{generate_json, generate_rows, generate_table, GENERATED_EPOCH_END};
pub use page::Page;
pub use query::{Direction, Filter, FilterOp, ListQuery, Operand, SortKey};
pub use response::{error_body_json, list_page, list_response, respond, ListResponse};
pub use schema::{Column, ColumnType, Schema, ValueGen};
pub use table::Table;

/// Rows per page when `rpp` is absent.
pub const DEFAULT_RPP: u64 = 50;

/// The largest `rpp` accepted; larger is 400.
pub const MAX_RPP: u64 = 1000;

/// The most `filter` parameters in one query; more is 400.
pub const MAX_FILTERS: usize = 32;

/// The most items a table holds (row positions are 32-bit).
pub const MAX_ROWS: usize = 1 << 26;

/// Items per endpoint in the worker's embedded data set, made by [`generate_table`].
pub const EMBEDDED_ROWS: usize = 10_000;

/// The seed of the worker's embedded data set.
pub const EMBEDDED_SEED: u64 = 1;
