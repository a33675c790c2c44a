//! One list request, end to end: the function a service or worker calls per request.

use alloc::string::String;

use super::error::ListError;
use super::page::Page;
use super::query::ListQuery;
use super::schema::Schema;
use super::table::Table;

/// Answers `GET <path>?<query>` from `table`: the page envelope, or the error to send.
///
/// `path` must be one of the nine list paths and the path of `table`'s schema.
///
/// # Errors
/// [`ListError`]; its [`ListError::status`] (400, or 404 for an unknown or mismatched path)
/// and [`ListError::body`] make the HTTP response.
pub fn list_page(path: &str, query: &str, table: &Table) -> Result<Page, ListError> {
    let schema = Schema::for_path(path)
        .filter(|schema| schema.path == table.schema().path)
        .ok_or_else(|| ListError::UnknownPath {
            path: String::from(path),
        })?;
    let query = ListQuery::parse(schema, query)?;
    table.query(&query)
}

/// [`list_page`] as JSON text: `Ok` is the 200 body (the envelope), `Err` the error to send
/// (status from [`ListError::status`], body from [`error_body_json`]).
///
/// # Errors
/// As [`list_page`].
pub fn list_response(path: &str, query: &str, table: &Table) -> Result<String, ListError> {
    list_page(path, query, table).map(|page| page.to_json())
}

/// An HTTP-shaped answer to one list request: 200 with the envelope, or 400/404 with an
/// error body.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ListResponse {
    /// 200, 400 (invalid query) or 404 (unknown path).
    #[cfg_attr(feature = "ts", ts(type = "200 | 400 | 404"))]
    pub status: u16,
    /// `application/json` text: the page envelope, or the [`crate::error_code::ErrorBody`].
    pub body: String,
}

/// Answers `GET <path>?<query>` from `table` without an `Err`: the envelope with 200, or
/// the error body with its status.
pub fn respond(path: &str, query: &str, table: &Table) -> ListResponse {
    match list_response(path, query, table) {
        Ok(body) => ListResponse { status: 200, body },
        Err(error) => ListResponse {
            status: error.status(),
            body: error_body_json(&error),
        },
    }
}

/// The JSON body for a list error: `{"code":"ERR_LIST_…","message":"…","field":"filter",
/// "status":400}`.
pub fn error_body_json(error: &ListError) -> String {
    crate::json::write::to_string(&error.body()).unwrap_or_default()
}
