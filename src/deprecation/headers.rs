//! Standard deprecation headers from the same registry rows as the notice objects:
//! `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and `Link` with `rel="deprecation"` (RFC
//! 9745 §3) and `rel="successor-version"` (RFC 5829).
//!
//! - `Deprecation: @<seconds>` — a structured-field date (RFC 9745 §2.1, RFC 9651 §3.3.7):
//!   the earliest deprecation date of the rows. Rows without a known date contribute none,
//!   and when no row has one the header is left out rather than invented.
//! - `Sunset: <IMF-fixdate>` — the earliest `takeActionBy`. The registry guarantees it is
//!   not before the deprecation date (RFC 9745 §4), checked by a test.
//! - `Link: <doc#id>; rel="deprecation"` for each row, and `<path>; rel="successor-version"`
//!   for each replaced endpoint.
//! - `Access-Control-Expose-Headers: Deprecation, Sunset, Link`, since none of the three is
//!   CORS-safelisted and browser code could not read them otherwise.
//!
//! These headers describe the whole response's resource (RFC 9745 is resource-granular), so
//! they go on responses of deprecated endpoints, and on responses to requests that used a
//! deprecated attribute or query parameter ([`super::CheckedRequest::used`]); field-level
//! detail stays in the notice objects. Rows past their retention window produce nothing.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::notice::{Phase, Policy};
use super::registry::{by_id, for_target, Deprecation, ItemKind};
use crate::attest::Endpoint;
use crate::time::{format_http_date, UnixTime};

/// The headers a browser may read only when exposed.
pub const EXPOSE_HEADERS: &str = "Deprecation, Sunset, Link";

/// The headers for a set of rows (duplicates are ignored). Empty when no row is still
/// within its retention window.
pub fn headers_for_rows(
    rows: &[&Deprecation],
    now: UnixTime,
    policy: &Policy,
) -> Vec<(&'static str, String)> {
    let mut live: Vec<&Deprecation> = Vec::new();
    for row in rows {
        if row.phase(now, policy) != Phase::Gone && !live.iter().any(|r| r.id == row.id) {
            live.push(row);
        }
    }
    if live.is_empty() {
        return Vec::new();
    }
    let mut headers = Vec::new();
    if let Some(since) = live.iter().filter_map(|r| r.deprecated_since).min() {
        headers.push(("Deprecation", format!("@{}", since.as_secs())));
    }
    if let Some(sunset) = live
        .iter()
        .filter_map(|r| r.take_action_by)
        .min()
        .and_then(|date| format_http_date(date.as_secs()))
    {
        headers.push(("Sunset", sunset));
    }
    let mut links: Vec<String> = live
        .iter()
        .map(|r| format!("<{}#{}>; rel=\"deprecation\"", policy.doc_url, r.id))
        .collect();
    for row in &live {
        if row.kind != ItemKind::Endpoint {
            continue;
        }
        if let Some(path) = row
            .replaced_by
            .and_then(|r| r.split_once(' '))
            .map(|(_, p)| p)
        {
            let link = format!("<{path}>; rel=\"successor-version\"");
            if !links.contains(&link) {
                links.push(link);
            }
        }
    }
    headers.push(("Link", links.join(", ")));
    headers.push((
        "Access-Control-Expose-Headers",
        String::from(EXPOSE_HEADERS),
    ));
    headers
}

/// The headers for responses of endpoint `target` (`METHOD /path`): its own endpoint rows.
/// Empty for endpoints that are not deprecated.
pub fn deprecation_headers(
    target: &str,
    now: UnixTime,
    policy: &Policy,
) -> Vec<(&'static str, String)> {
    let rows: Vec<&Deprecation> = for_target(target)
        .filter(|row| row.kind == ItemKind::Endpoint)
        .collect();
    headers_for_rows(&rows, now, policy)
}

/// The headers for responses of an attest endpoint: for the deprecated ones (the V2
/// endpoints, which take generation-1 evidence: [`Endpoint::is_deprecated`]) their endpoint
/// row and the generation-1 `evidences` row; nothing for V1, V3 and V4.
pub fn attest_deprecation_headers(
    endpoint: Endpoint,
    now: UnixTime,
    policy: &Policy,
) -> Vec<(&'static str, String)> {
    if !endpoint.is_deprecated() {
        return Vec::new();
    }
    let target = format!("POST {}", endpoint.path());
    let mut rows: Vec<&Deprecation> = for_target(&target)
        .filter(|row| row.kind == ItemKind::Endpoint)
        .collect();
    rows.extend(by_id("attest-gen1-evidences"));
    headers_for_rows(&rows, now, policy)
}
