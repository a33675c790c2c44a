//! JS API for `crate::deprecation`: `deprecationNotices`, `checkDeprecatedRequest`,
//! `checkDeprecatedQuery`, `deprecationHeaders`, `attestDeprecationHeaders`,
//! `deprecationRegistry`, `formatRfc3339`, `formatHttpDate`.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::access::{options_value, to_js_value, unix_seconds};
use super::args;
use super::error::{invalid_argument, to_js};
use crate::attest::{Endpoint, RequestError};
use crate::deprecation::{
    attest_deprecation_headers, check_query, check_request_json, deprecation_headers,
    headers_for_rows, notices_for, registry_json, Deprecation, DeprecationError, ErrorBody, Policy,
};
use crate::time::{format_http_date, format_rfc3339};

#[wasm_bindgen(typescript_custom_section)]
const TS_DEPRECATION: &str = include_str!("types/deprecation.d.ts");

/// The notice objects attached to `target` (an object kind such as `TenantAccount`, or an
/// endpoint `METHOD /path`) at `now`.
#[wasm_bindgen(js_name = deprecationNotices, unchecked_return_type = "DeprecationNotice[]")]
pub fn deprecation_notices(
    #[wasm_bindgen(unchecked_param_type = "string")] target: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DeprecationOptions")] options: Option<
        js_sys::Object,
    >,
) -> Result<JsValue, JsValue> {
    let target: &str = &args::string_arg(&target, "target")?;
    let now = args::time(&now, "now")?.as_secs();
    let policy = policy_from(options)?;
    to_js_value(&notices_for(target, now, &policy))
}

/// Applies the request rules of `resource` (an object kind) to a create or update body
/// (JSON text, bytes or object). Never throws for rule violations: returns the 400 to send.
#[wasm_bindgen(js_name = checkDeprecatedRequest, unchecked_return_type = "DeprecationCheck")]
pub fn check_deprecated_request(
    #[wasm_bindgen(unchecked_param_type = "string")] resource: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | object")] body: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DeprecationOptions")] options: Option<
        js_sys::Object,
    >,
) -> Result<JsValue, JsValue> {
    let resource: &str = &args::string_arg(&resource, "resource")?;
    let now = args::time(&now, "now")?.as_secs();
    let policy = policy_from(options)?;
    let bytes = args::json_bytes(&body, "body")?;
    match check_request_json(resource, &bytes, now) {
        Ok(checked) => to_js_value(&Accepted {
            ok: true,
            body: Some(&checked.body),
            used: notices(&checked.used, now),
            ignored: notices(&checked.ignored, now),
            headers: headers_for_rows(&checked.used, now, &policy),
        }),
        Err(error) => rejected(&error, now, &policy),
    }
}

/// Applies the query-parameter rules of endpoint `target` (`METHOD /path`) to a query string
/// (with or without the leading `?`).
#[wasm_bindgen(js_name = checkDeprecatedQuery, unchecked_return_type = "DeprecationQueryCheck")]
pub fn check_deprecated_query(
    #[wasm_bindgen(unchecked_param_type = "string")] target: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DeprecationOptions")] options: Option<
        js_sys::Object,
    >,
) -> Result<JsValue, JsValue> {
    let target: &str = &args::string_arg(&target, "target")?;
    let query: &str = &args::string_arg(&query, "query")?;
    let now = args::time(&now, "now")?.as_secs();
    let policy = policy_from(options)?;
    let query = query.strip_prefix('?').unwrap_or(query);
    match check_query(target, query, now) {
        Ok(used) => to_js_value(&Accepted {
            ok: true,
            body: None,
            used: notices(&used, now),
            ignored: Vec::new(),
            headers: headers_for_rows(&used, now, &policy),
        }),
        Err(error) => rejected(&error, now, &policy),
    }
}

/// `Deprecation`, `Sunset`, `Link` (and `Access-Control-Expose-Headers`) for responses of
/// endpoint `target` (`METHOD /path`); empty when it is not deprecated.
#[wasm_bindgen(js_name = deprecationHeaders, unchecked_return_type = "[string, string][]")]
pub fn deprecation_headers_js(
    #[wasm_bindgen(unchecked_param_type = "string")] target: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DeprecationOptions")] options: Option<
        js_sys::Object,
    >,
) -> Result<JsValue, JsValue> {
    let target: &str = &args::string_arg(&target, "target")?;
    let now = args::time(&now, "now")?.as_secs();
    let policy = policy_from(options)?;
    to_js_value(&deprecation_headers(target, now, &policy))
}

/// The headers for responses of an attest endpoint path (`/v2/attest/gpu`): the endpoint's
/// and generation-1 evidence's deprecation for V2; empty for V1, V3 and V4.
#[wasm_bindgen(js_name = attestDeprecationHeaders, unchecked_return_type = "[string, string][]")]
pub fn attest_deprecation_headers_js(
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DeprecationOptions")] options: Option<
        js_sys::Object,
    >,
) -> Result<JsValue, JsValue> {
    let path: &str = &args::string_arg(&path, "path")?;
    let now = args::time(&now, "now")?.as_secs();
    let policy = policy_from(options)?;
    let endpoint = Endpoint::from_path(path)
        .ok_or_else(|| to_js(&RequestError::UnknownEndpoint { path: path.into() }))?;
    to_js_value(&attest_deprecation_headers(endpoint, now, &policy))
}

/// Every registry row, for a deprecation page or a client.
#[wasm_bindgen(js_name = deprecationRegistry, unchecked_return_type = "DeprecationRow[]")]
pub fn deprecation_registry() -> Result<JsValue, JsValue> {
    args::parse_json(&registry_json())
}

/// Unix seconds as RFC 3339 UTC (`2026-09-10T00:00:00Z`).
#[wasm_bindgen(js_name = formatRfc3339)]
pub fn format_rfc3339_js(
    #[wasm_bindgen(unchecked_param_type = "number")] secs: JsValue,
) -> Result<String, JsValue> {
    format_rfc3339(args::time(&secs, "secs")?.as_secs())
        .ok_or_else(|| invalid_argument("secs", "at most 9999-12-31T23:59:59Z"))
}

/// Unix seconds as an HTTP IMF-fixdate (`Thu, 10 Sep 2026 00:00:00 GMT`).
#[wasm_bindgen(js_name = formatHttpDate)]
pub fn format_http_date_js(
    #[wasm_bindgen(unchecked_param_type = "number")] secs: JsValue,
) -> Result<String, JsValue> {
    format_http_date(args::time(&secs, "secs")?.as_secs())
        .ok_or_else(|| invalid_argument("secs", "at most 9999-12-31T23:59:59Z"))
}

fn policy_from(options: Option<js_sys::Object>) -> Result<Policy, JsValue> {
    let options = &options_value(options);
    let mut policy = Policy::default();
    if let Some(secs) = args::member(options, "releaseCycleSeconds").as_f64() {
        policy.release_cycle_secs = unix_seconds(secs, "releaseCycleSeconds")?;
    }
    if let Some(url) = args::optional_string(&args::member(options, "docUrl"), "docUrl")? {
        policy.doc_url = url;
    }
    Ok(policy)
}

fn notices(rows: &[&'static Deprecation], now: u64) -> Vec<crate::deprecation::Notice> {
    // Used items are reported even past the retention window.
    let forever = Policy {
        release_cycle_secs: u64::MAX,
        ..Policy::default()
    };
    rows.iter()
        .filter_map(|row| row.notice(now, &forever))
        .collect()
}

fn rejected(error: &DeprecationError, now: u64, policy: &Policy) -> Result<JsValue, JsValue> {
    to_js_value(&Rejected {
        ok: false,
        status: error.status(),
        body: error.body(now, policy),
    })
}

#[derive(Serialize)]
struct Accepted<'a> {
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<&'a Value>,
    used: Vec<crate::deprecation::Notice>,
    ignored: Vec<crate::deprecation::Notice>,
    headers: Vec<(&'static str, String)>,
}

#[derive(Serialize)]
struct Rejected {
    ok: bool,
    status: u16,
    body: ErrorBody,
}
