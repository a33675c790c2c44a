//! Deprecation notice objects, exactly as the spec defines them (part B §2), and when they
//! are emitted (§9 rules 2–4 and 7).
//!
//! - Exactly one of `attribute`, `queryParam`, `endpoint`; `replacedBy` only when there is a
//!   replacement; `takeActionBy` as RFC 3339 UTC (`2026-09-10T00:00:00Z`) only when the row
//!   has a date. Absent members are omitted, never `null`.
//! - The notice ends with "Please take action prior to the specified date" while `now` is
//!   strictly before `takeActionBy`, and with "Please take action immediately" from that
//!   instant on. A row without a date ends with "immediately": there is no date to act
//!   before, and such rows are already in force (`isCloudInit` is ignored today, and
//!   generation-2 endpoints exist today).
//! - Retention (rule 7, "one more release cycle after takeActionBy"): a release cycle is a
//!   span of time, [`Policy::release_cycle_secs`], 30 days unless the host sets its own.
//!   Notices are emitted while `now < takeActionBy + release_cycle_secs`, then dropped.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::{Map, Value};

use super::registry::{for_target, Deprecation, ItemKind};
use crate::time::UnixTime;

/// The ending before `takeActionBy`.
pub const BEFORE: &str = "Please take action prior to the specified date";
/// The ending from `takeActionBy` on.
pub const AFTER: &str = "Please take action immediately";

/// The default release cycle: 30 days.
pub const DEFAULT_RELEASE_CYCLE_SECS: u64 = 30 * 24 * 60 * 60;

/// Host settings for notices and headers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// How long one release cycle lasts, in seconds: notices are kept this long after
    /// `takeActionBy` (rule 7).
    pub release_cycle_secs: u64,
    /// The URL of the human-readable deprecation list; each row's `Link rel="deprecation"`
    /// is this URL plus `#<row id>`.
    pub doc_url: String,
}

impl Default for Policy {
    /// 30-day release cycle; documentation at `/deprecations` (relative to the request).
    fn default() -> Self {
        Self {
            release_cycle_secs: DEFAULT_RELEASE_CYCLE_SECS,
            doc_url: String::from("/deprecations"),
        }
    }
}

/// Where a row stands at one instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Phase {
    /// Before `takeActionBy`: accepted, notice says "prior to the specified date".
    Announced,
    /// From `takeActionBy` (or always, for rows without a date) until the end of the
    /// retention window: rejected if dated, notice says "immediately".
    Due,
    /// After the retention window: no more notices; still rejected.
    Gone,
}

impl Deprecation {
    /// The row's phase at `now`.
    pub fn phase(&self, now: UnixTime, policy: &Policy) -> Phase {
        match self.take_action_by {
            Some(date) if now < date => Phase::Announced,
            Some(date)
                if now.as_secs() < date.as_secs().saturating_add(policy.release_cycle_secs) =>
            {
                Phase::Due
            }
            Some(_) => Phase::Gone,
            None => Phase::Due,
        }
    }

    /// Whether requests using the item are refused at `now` (rule 6): only dated rows, from
    /// `takeActionBy` on.
    pub fn is_enforced(&self, now: UnixTime) -> bool {
        self.take_action_by.is_some_and(|date| now >= date)
    }

    /// The notice object at `now`, or `None` once the retention window has passed.
    pub fn notice(&self, now: UnixTime, policy: &Policy) -> Option<Notice> {
        let phase = self.phase(now, policy);
        if phase == Phase::Gone {
            return None;
        }
        let name = Some(String::from(self.name));
        let (attribute, query_param, endpoint) = match self.kind {
            ItemKind::Attribute => (name, None, None),
            ItemKind::QueryParam => (None, name, None),
            ItemKind::Endpoint => (None, None, name),
        };
        Some(Notice {
            attribute,
            query_param,
            endpoint,
            replaced_by: self.replaced_by.map(String::from),
            take_action_by: self.take_action_by.map(|date| date.to_string()),
            notice: self.notice_text(phase == Phase::Announced),
        })
    }

    fn notice_text(&self, before: bool) -> String {
        let verb = if before {
            "is being deprecated"
        } else {
            "has been deprecated"
        };
        let mut text = format!("{} '{}' {verb}", self.kind.label(), self.name);
        if let Some(replacement) = self.replaced_by {
            text.push_str(&format!(" in favor of '{replacement}'"));
        }
        text.push_str(". ");
        if let Some(detail) = self.detail {
            text.push_str(detail);
            text.push_str(". ");
        }
        text.push_str(if before { BEFORE } else { AFTER });
        text
    }
}

/// A deprecation object (spec part B §2), serialised with its exact member names and order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "DeprecationNotice"))]
#[serde(rename_all = "camelCase")]
pub struct Notice {
    /// The deprecated attribute.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub attribute: Option<String>,
    /// The deprecated query parameter.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub query_param: Option<String>,
    /// The deprecated endpoint, `METHOD /path`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub endpoint: Option<String>,
    /// The replacement, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub replaced_by: Option<String>,
    /// RFC 3339 UTC, when the row has a date.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub take_action_by: Option<String>,
    /// The message, ending with [`BEFORE`] or [`AFTER`].
    pub notice: String,
}

/// The notices attached to `target` at `now` (an object kind, or an endpoint `METHOD
/// /path`, which gets both its own and its query parameters' notices), in registry order.
pub fn notices_for(target: &str, now: UnixTime, policy: &Policy) -> Vec<Notice> {
    for_target(target)
        .filter_map(|row| row.notice(now, policy))
        .collect()
}

/// Sets `object["deprecations"]` to the notices of `target` at `now`, or leaves the object
/// unchanged when there are none (rule 2: only objects with deprecations carry the array).
pub fn attach_notices(
    object: &mut Map<String, Value>,
    target: &str,
    now: UnixTime,
    policy: &Policy,
) {
    let notices = notices_for(target, now, policy);
    if notices.is_empty() {
        return;
    }
    if let Ok(value) = serde_json::to_value(&notices) {
        object.insert(String::from("deprecations"), value);
    }
}
