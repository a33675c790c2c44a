//! Request rules (spec part B §7, §9 rules 5–6): what a create or update request, a query
//! string, or a call to a deprecated endpoint gets.
//!
//! | request | before `takeActionBy` | from `takeActionBy` on |
//! |---|---|---|
//! | deprecated attribute alone | accepted (reported in `used`) | 400 `ERR_DEPRECATED_ATTRIBUTE` |
//! | deprecated attribute and its replacement | 400 `ERR_DEPRECATED_BOTH_PRESENT` ("the new one is preferred") | 400 `ERR_DEPRECATED_ATTRIBUTE` |
//! | ignored attribute (`isCloudInit`) | removed from the body (reported in `ignored`) | — (no date) |
//! | deprecated query parameter | accepted | 400 `ERR_DEPRECATED_QUERY_PARAM` |
//! | deprecated endpoint | accepted | 400 `ERR_DEPRECATED_ENDPOINT` (400, as the service does, not 410) |
//!
//! Enforcement does not end with the retention window: removed items stay refused. Every
//! error names the item and, when there is one, its replacement.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::Serialize;
use serde_json::Value;

use super::notice::{Notice, Policy};
use super::registry::{for_target, Deprecation, Handling, ItemKind};
use crate::error_code::{ErrorBody, ErrorCode};
use crate::json::JsonError;
use crate::time::UnixTime;
use crate::urlencoded::Separators;

/// Why a request was refused (HTTP 400).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeprecationError {
    /// The body names a deprecated attribute and its replacement.
    BothPresent {
        /// The row.
        row: &'static Deprecation,
    },
    /// The body names an attribute past its `takeActionBy`.
    Attribute {
        /// The row.
        row: &'static Deprecation,
    },
    /// The query names a parameter past its `takeActionBy`.
    QueryParam {
        /// The row.
        row: &'static Deprecation,
    },
    /// The endpoint is past its `takeActionBy`.
    Endpoint {
        /// The row.
        row: &'static Deprecation,
    },
    /// The body is not JSON.
    Json(JsonError),
    /// The body is not a JSON object.
    NotAnObject,
}

impl DeprecationError {
    /// The registry row concerned, if any.
    pub const fn row(&self) -> Option<&'static Deprecation> {
        match self {
            Self::BothPresent { row }
            | Self::Attribute { row }
            | Self::QueryParam { row }
            | Self::Endpoint { row } => Some(row),
            Self::Json(_) | Self::NotAnObject => None,
        }
    }

    /// The HTTP status: always 400 (spec part B §7).
    pub const fn status(&self) -> u16 {
        400
    }

    /// The JSON error body: the service's one error shape ([`crate::error_code::ErrorBody`]: code,
    /// message, field — the deprecated item — and status), then the row's notice object
    /// (which names the item and its replacement).
    pub fn body(&self, now: UnixTime, policy: &Policy) -> ErrorBody<DeprecationDetail> {
        // The notice is shown even past the retention window: the caller needs it now.
        let forever = Policy {
            release_cycle_secs: u64::MAX,
            doc_url: policy.doc_url.clone(),
        };
        ErrorBody::of(self.status(), self).with_detail(DeprecationDetail {
            deprecation: self.row().and_then(|row| row.notice(now, &forever)),
        })
    }
}

impl fmt::Display for DeprecationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BothPresent { row } => {
                let new = row.replaced_by.unwrap_or("");
                write!(
                    f,
                    "The request names both '{}' and its replacement '{new}'; the new attribute \
                     '{new}' is preferred: send only '{new}'",
                    row.name
                )
            }
            Self::Attribute { row } | Self::QueryParam { row } | Self::Endpoint { row } => {
                let when = row
                    .take_action_by
                    .map(|date| date.to_string())
                    .unwrap_or_default();
                write!(
                    f,
                    "{} '{}' is deprecated and no longer accepted since {when}",
                    row.kind.label(),
                    row.name
                )?;
                match row.replaced_by {
                    Some(new) => write!(f, "; use '{new}' instead"),
                    None => Ok(()),
                }
            }
            Self::Json(error) => write!(f, "{error}"),
            Self::NotAnObject => f.write_str("the request body is not a JSON object"),
        }
    }
}

impl core::error::Error for DeprecationError {}

impl ErrorCode for DeprecationError {
    fn code(&self) -> &'static str {
        match self {
            Self::BothPresent { .. } => "ERR_DEPRECATED_BOTH_PRESENT",
            Self::Attribute { .. } => "ERR_DEPRECATED_ATTRIBUTE",
            Self::QueryParam { .. } => "ERR_DEPRECATED_QUERY_PARAM",
            Self::Endpoint { .. } => "ERR_DEPRECATED_ENDPOINT",
            Self::Json(error) => error.code(),
            Self::NotAnObject => "ERR_DEPRECATED_NOT_OBJECT",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::BothPresent { row }
            | Self::Attribute { row }
            | Self::QueryParam { row }
            | Self::Endpoint { row } => Some(row.name),
            Self::Json(error) => error.field(),
            Self::NotAnObject => None,
        }
    }
}

/// The detail member of a deprecation refusal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeprecationDetail {
    /// The row's notice object.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecation: Option<Notice>,
}

/// An accepted request: the body to process, and the deprecated items it used.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedRequest {
    /// The body with ignored attributes removed.
    pub body: Value,
    /// Deprecated items used and accepted (before their date).
    pub used: Vec<&'static Deprecation>,
    /// Attributes removed because the API ignores them.
    pub ignored: Vec<&'static Deprecation>,
}

/// Applies the attribute rules of `target` (an object kind) to a create or update body.
///
/// # Errors
/// [`DeprecationError`] for the first refused attribute, in registry order.
pub fn check_request(
    target: &str,
    body: Value,
    now: UnixTime,
) -> Result<CheckedRequest, DeprecationError> {
    let Value::Object(mut object) = body else {
        return Err(DeprecationError::NotAnObject);
    };
    let mut used = Vec::new();
    let mut ignored = Vec::new();
    for row in for_target(target).filter(|row| row.kind == ItemKind::Attribute) {
        if !object.contains_key(row.name) {
            continue;
        }
        if row.is_enforced(now) {
            return Err(DeprecationError::Attribute { row });
        }
        if row.replaced_by.is_some_and(|new| object.contains_key(new)) {
            return Err(DeprecationError::BothPresent { row });
        }
        match row.handling {
            Handling::Ignored => {
                object.remove(row.name);
                ignored.push(row);
            }
            Handling::Accepted => used.push(row),
        }
    }
    Ok(CheckedRequest {
        body: Value::Object(object),
        used,
        ignored,
    })
}

/// [`check_request`] on JSON bytes, parsed strictly (duplicate members refused).
///
/// # Errors
/// As [`check_request`], or [`DeprecationError::Json`].
pub fn check_request_json(
    target: &str,
    body: &[u8],
    now: UnixTime,
) -> Result<CheckedRequest, DeprecationError> {
    let value = crate::json::parse(body).map_err(DeprecationError::Json)?;
    check_request(target, value, now)
}

/// Applies the query-parameter rules of endpoint `target` (`METHOD /path`) to a query string
/// (without `?`; split on `&`, names percent-decoded). Returns the deprecated parameters used and accepted.
///
/// # Errors
/// [`DeprecationError::QueryParam`] past the date, [`DeprecationError::BothPresent`] when
/// a parameter and its replacement are both given.
pub fn check_query(
    target: &str,
    query: &str,
    now: UnixTime,
) -> Result<Vec<&'static Deprecation>, DeprecationError> {
    // Names are compared decoded (`%70rojectId` is `projectId`); a name that does not decode
    // names no registry parameter (all ASCII), and refusing the malformed query is the
    // endpoint's own parser's work.
    let names: Vec<String> = crate::urlencoded::names(query, Separators::Ampersand)
        .flatten()
        .collect();
    let named = |name: &str| names.iter().any(|n| n == name);
    let mut used = Vec::new();
    for row in for_target(target).filter(|row| row.kind == ItemKind::QueryParam) {
        if !named(row.name) {
            continue;
        }
        if row.is_enforced(now) {
            return Err(DeprecationError::QueryParam { row });
        }
        if row.replaced_by.is_some_and(named) {
            return Err(DeprecationError::BothPresent { row });
        }
        used.push(row);
    }
    Ok(used)
}

/// Applies the endpoint rule to a call of `endpoint` (`METHOD /path`). Returns the row when
/// the endpoint is deprecated but still served.
///
/// # Errors
/// [`DeprecationError::Endpoint`] from the endpoint's `takeActionBy` on.
pub fn check_endpoint(
    endpoint: &str,
    now: UnixTime,
) -> Result<Option<&'static Deprecation>, DeprecationError> {
    check_endpoint_in(for_target(endpoint), endpoint, now)
}

fn check_endpoint_in(
    mut rows: impl Iterator<Item = &'static Deprecation>,
    endpoint: &str,
    now: UnixTime,
) -> Result<Option<&'static Deprecation>, DeprecationError> {
    match rows.find(|row| row.kind == ItemKind::Endpoint && row.name == endpoint) {
        Some(row) if row.is_enforced(now) => Err(DeprecationError::Endpoint { row }),
        found => Ok(found),
    }
}

/// The value an Operating System returns for `isCloudInit`: whether `userData` is a
/// non-empty string (spec part B §9, first active row).
pub fn derived_is_cloud_init(object: &serde_json::Map<String, Value>) -> bool {
    object
        .get("userData")
        .and_then(Value::as_str)
        .is_some_and(|text| !text.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deprecation::registry::{Api, Handling, Listing};

    // No registry endpoint has a removal date yet; a dated row shows the rule.
    static DATED_ENDPOINT: Deprecation = Deprecation {
        id: "example-endpoint",
        api: Api::Infrastructure,
        resource: "Example",
        kind: ItemKind::Endpoint,
        name: "GET /old",
        targets: &["GET /old"],
        replaced_by: Some("GET /new"),
        deprecated_since: None,
        take_action_by: UnixTime::from_secs(1_000),
        listing: Listing::Active,
        handling: Handling::Accepted,
        detail: None,
    };

    #[test]
    fn a_dated_endpoint_is_refused_from_its_date_on() {
        let rows = || core::iter::once(&DATED_ENDPOINT);
        let at = |secs| UnixTime::from_secs(secs).unwrap();
        assert_eq!(
            check_endpoint_in(rows(), "GET /old", at(999)),
            Ok(Some(&DATED_ENDPOINT))
        );
        let error = check_endpoint_in(rows(), "GET /old", at(1_000)).unwrap_err();
        assert_eq!(error.code(), "ERR_DEPRECATED_ENDPOINT");
        assert_eq!(error.field(), Some("GET /old"));
        assert_eq!(
            alloc::string::ToString::to_string(&error),
            "Endpoint 'GET /old' is deprecated and no longer accepted since \
             1970-01-01T00:16:40Z; use 'GET /new' instead"
        );
        assert_eq!(check_endpoint_in(rows(), "GET /new", at(5_000)), Ok(None));
    }
}
