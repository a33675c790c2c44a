//! What the deprecation exports are given and answer, as serde types shared by Rust hosts
//! (`serde_json`) and the JS binding: the host's [`Policy`] as options
//! ([`DeprecationOptions`]), and a request or query check as the answer to send
//! ([`RequestCheck`]: the accepted body with its notices and headers, or the 400).

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::headers::{attest_deprecation_headers, headers_for_rows};
use super::notice::{Notice, Policy};
use super::registry::Deprecation;
use super::request::{check_query, check_request_json, DeprecationDetail, DeprecationError};
use crate::attest::{Endpoint, RequestError};
use crate::error_code::ErrorBody;
use crate::time::UnixTime;

/// The host's settings as given (the JS `DeprecationOptions`); absent members keep
/// [`Policy::default`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeprecationOptions {
    /// Seconds one release cycle lasts ([`Policy::release_cycle_secs`]).
    pub release_cycle_seconds: Option<u64>,
    /// The deprecation list's URL ([`Policy::doc_url`]).
    pub doc_url: Option<String>,
}

impl DeprecationOptions {
    /// The policy: the defaults, with the members given.
    pub fn policy(&self) -> Policy {
        let default = Policy::default();
        Policy {
            release_cycle_secs: self
                .release_cycle_seconds
                .unwrap_or(default.release_cycle_secs),
            doc_url: self.doc_url.clone().unwrap_or(default.doc_url),
        }
    }
}

/// The outcome of a request or query check (the JS `DeprecationCheck`,
/// `DeprecationQueryCheck`): never an error for a rule violation, but the 400 to send.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum RequestCheck {
    /// `ok: true`: the body to process (a request check's), the deprecated items used and
    /// ignored, and the headers for the response.
    Accepted {
        /// Always `true`.
        ok: bool,
        /// The body with ignored attributes removed (request checks only).
        #[serde(skip_serializing_if = "Option::is_none")]
        body: Option<Value>,
        /// Items used and accepted; reported even past the retention window.
        used: Vec<Notice>,
        /// Attributes removed because the API ignores them.
        ignored: Vec<Notice>,
        /// `Deprecation`, `Sunset`, `Link` for the response.
        headers: Vec<(&'static str, String)>,
    },
    /// `ok: false`: the status and body to answer with.
    Rejected {
        /// Always `false`.
        ok: bool,
        /// 400.
        status: u16,
        /// The error body with the row's notice.
        body: ErrorBody<DeprecationDetail>,
    },
}

impl RequestCheck {
    /// The request rules of `resource` (an object kind) applied to a create or update body
    /// (JSON bytes) at `now`.
    pub fn request(resource: &str, body: &[u8], now: UnixTime, policy: &Policy) -> Self {
        match check_request_json(resource, body, now) {
            Ok(checked) => Self::accepted(
                Some(checked.body),
                &checked.used,
                &checked.ignored,
                now,
                policy,
            ),
            Err(error) => Self::rejected(&error, now, policy),
        }
    }

    /// The query-parameter rules of endpoint `target` (`METHOD /path`) applied to a query
    /// string, with or without its leading `?`.
    pub fn query(target: &str, query: &str, now: UnixTime, policy: &Policy) -> Self {
        let query = query.strip_prefix('?').unwrap_or(query);
        match check_query(target, query, now) {
            Ok(used) => Self::accepted(None, &used, &[], now, policy),
            Err(error) => Self::rejected(&error, now, policy),
        }
    }

    /// Whether the request may proceed.
    pub const fn is_accepted(&self) -> bool {
        matches!(self, Self::Accepted { .. })
    }

    fn accepted(
        body: Option<Value>,
        used: &[&'static Deprecation],
        ignored: &[&'static Deprecation],
        now: UnixTime,
        policy: &Policy,
    ) -> Self {
        Self::Accepted {
            ok: true,
            body,
            used: notices(used, now),
            ignored: notices(ignored, now),
            headers: headers_for_rows(used, now, policy),
        }
    }

    fn rejected(error: &DeprecationError, now: UnixTime, policy: &Policy) -> Self {
        Self::Rejected {
            ok: false,
            status: error.status(),
            body: error.body(now, policy),
        }
    }
}

/// The notices of rows a request used: reported even past the retention window.
fn notices(rows: &[&'static Deprecation], now: UnixTime) -> Vec<Notice> {
    let forever = Policy {
        release_cycle_secs: u64::MAX,
        ..Policy::default()
    };
    rows.iter()
        .filter_map(|row| row.notice(now, &forever))
        .collect()
}

/// [`attest_deprecation_headers`] for an attest endpoint's path (`/v2/attest/gpu`).
///
/// # Errors
/// [`RequestError::UnknownEndpoint`] for a path that is no attest endpoint.
pub fn attest_path_headers(
    path: &str,
    now: UnixTime,
    policy: &Policy,
) -> Result<Vec<(&'static str, String)>, RequestError> {
    let endpoint = Endpoint::from_path(path)
        .ok_or_else(|| RequestError::UnknownEndpoint { path: path.into() })?;
    Ok(attest_deprecation_headers(endpoint, now, policy))
}
