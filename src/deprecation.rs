//! Deprecation registry, notice objects, request rules and standard headers (the
//! deprecation-notice convention of an infrastructure management REST API).
//!
//! One [`REGISTRY`] of rows feeds everything, so the body objects and the headers never
//! disagree:
//! - [`notices_for`] / [`attach_notices`]: the spec's deprecation objects, byte-exact, for
//!   the injected `now`, kept for one release cycle after `takeActionBy` ([`Policy`]);
//! - [`check_request`], [`check_query`], [`check_endpoint`]: the 400s of rules 5–6, and
//!   `isCloudInit` ignored;
//! - [`deprecation_headers`], [`attest_deprecation_headers`]: `Deprecation`, `Sunset` and
//!   `Link` headers, exposed to CORS.
//!
//! The RFC 3339 and IMF-fixdate conversions are the root's
//! [`format_rfc3339`](crate::time::format_rfc3339), [`parse_http_date`](crate::time::parse_http_date) and
//! their pairs, usable by any module.
//!
//! ```
//! use edgeattest::deprecation::{notices_for, Policy};
//! use edgeattest::UnixTime;
//!
//! let now = UnixTime::from_secs(1_780_000_000).unwrap();
//! let before = notices_for("AllocationConstraint", now, &Policy::default());
//! assert_eq!(
//!     serde_json::to_string(&before[0]).unwrap(),
//!     concat!(
//!         r#"{"attribute":"ResourceTypeID","replacedBy":"resourceTypeId","#,
//!         r#""takeActionBy":"2026-09-10T00:00:00Z","#,
//!         r#""notice":"Attribute 'ResourceTypeID' is being deprecated in favor of "#,
//!         r#"'resourceTypeId'. Please take action prior to the specified date"}"#
//!     )
//! );
//! ```

mod headers;
mod notice;
mod options;
mod registry;
mod request;

pub use headers::{
    attest_deprecation_headers, deprecation_headers, headers_for_rows, EXPOSE_HEADERS,
};
pub use notice::{
    attach_notices, notices_for, Notice, Phase, Policy, AFTER, BEFORE, DEFAULT_RELEASE_CYCLE_SECS,
};
pub use options::{attest_path_headers, DeprecationOptions, RequestCheck};
pub use registry::{
    by_id, for_target, registry_json, Api, Deprecation, Handling, ItemKind, Listing,
    ATTEST_GEN1_DEPRECATED_SINCE, MAY_13_2026, OCT_10_2026, REGISTRY, SEPT_10_2026,
};
pub use request::{
    check_endpoint, check_query, check_request, check_request_json, derived_is_cloud_init,
    CheckedRequest, DeprecationDetail, DeprecationError,
};
