//! JS API for `crate::deprecation`: `deprecationNotices`, `checkDeprecatedRequest`,
//! `checkDeprecatedQuery`, `deprecationHeaders`, `attestDeprecationHeaders`,
//! `deprecationRegistry`, `formatRfc3339`, `formatHttpDate`. Options are the core's
//! `DeprecationOptions`; results its `RequestCheck`, notices and headers.

use alloc::string::String;

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::args;
use super::convert::json_to_js as to_js_value;
use super::convert::{optional_options_from_js, parse_json};
use super::error::{invalid_argument, OrJs};
use crate::deprecation::{
    attest_path_headers, deprecation_headers, notices_for, registry_json, DeprecationOptions,
    Policy, RequestCheck,
};
use crate::time::{format_http_date, format_rfc3339, UnixTime};

#[wasm_bindgen(typescript_custom_section)]
const TS_DEPRECATION: &str = include_str!("types/deprecation.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const TS_DEPRECATION_HAND: &str = include_str!("types/hand/deprecation.d.ts");

/// The deprecation notices attached to `target` (an object kind such as `TenantAccount`, or
/// an endpoint `METHOD /path`) at `now`: one per deprecated attribute, query parameter or
/// endpoint still listed (kept one release cycle after its take-action date).
///
/// @throws EdgeAttestError `ERR_INVALID_ARGUMENT` for a `now` that is not a time, or options or
/// arguments of the wrong shape.
///
/// @example
/// ```ts
/// const notices = deprecationNotices('TenantAccount', Math.floor(Date.now() / 1000));
/// const body = { id: 'tenant-1', deprecations: notices };
/// ```
#[wasm_bindgen(js_name = deprecationNotices, unchecked_return_type = "DeprecationNotice[]")]
pub fn deprecation_notices(
    #[wasm_bindgen(unchecked_param_type = "string")] target: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DeprecationOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let (target, now, policy) = read(&target, "target", &now, &options)?;
    to_js_value(&notices_for(&target, now, &policy))
}

/// Applies the request rules of `resource` (an object kind) to a create or update body
/// (JSON text, bytes or object): a deprecated attribute is accepted (mapped to its
/// replacement) or ignored as the registry says, and one given together with its replacement
/// is refused. Never throws for rule violations: returns the 400 to send
/// (`ERR_DEPRECATED_*`).
///
/// @throws EdgeAttestError `ERR_INVALID_ARGUMENT` for a `now` that is not a time, or options or
/// arguments of the wrong shape.
///
/// @example
/// ```ts
/// declare const body: string; // the request body
/// const check = checkDeprecatedRequest('TenantAccount', body, Math.floor(Date.now() / 1000));
/// const response = check.ok
///   ? new Response(JSON.stringify(check.body), { headers: check.headers })
///   : new Response(JSON.stringify(check.body), { status: check.status });
/// ```
#[wasm_bindgen(js_name = checkDeprecatedRequest, unchecked_return_type = "DeprecationCheck")]
pub fn check_deprecated_request(
    #[wasm_bindgen(unchecked_param_type = "string")] resource: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | object")] body: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DeprecationOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let (resource, now, policy) = read(&resource, "resource", &now, &options)?;
    let body = args::json_bytes(&body, "body")?;
    to_js_value(&RequestCheck::request(&resource, &body, now, &policy))
}

/// Applies the query-parameter rules of endpoint `target` (`METHOD /path`) to a query string
/// (with or without the leading `?`): a deprecated parameter is accepted, or refused when
/// given with its replacement. Never throws for rule violations: returns the 400 to send
/// (`ERR_DEPRECATED_*`).
///
/// @throws EdgeAttestError `ERR_INVALID_ARGUMENT` for a `now` that is not a time, or options or
/// arguments of the wrong shape.
///
/// @example
/// ```ts
/// const url = new URL('https://api.example.com/instance?infrastructureProviderId=p1');
/// const check = checkDeprecatedQuery('GET /instance', url.search, Math.floor(Date.now() / 1000));
/// if (!check.ok) console.error(check.body.code, check.body.field);
/// ```
#[wasm_bindgen(js_name = checkDeprecatedQuery, unchecked_return_type = "DeprecationQueryCheck")]
pub fn check_deprecated_query(
    #[wasm_bindgen(unchecked_param_type = "string")] target: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DeprecationOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let target = args::string_arg(&target, "target")?;
    let (query, now, policy) = read(&query, "query", &now, &options)?;
    to_js_value(&RequestCheck::query(&target, &query, now, &policy))
}

/// The `Deprecation`, `Sunset`, `Link` (and `Access-Control-Expose-Headers`) headers for
/// responses of endpoint `target` (`METHOD /path`) at `now`; empty when it is not deprecated.
///
/// @throws EdgeAttestError `ERR_INVALID_ARGUMENT` for a `now` that is not a time, or options or
/// arguments of the wrong shape.
///
/// @example
/// ```ts
/// const headers = new Headers(deprecationHeaders('POST /v2/attest/gpu', Math.floor(Date.now() / 1000)));
/// ```
#[wasm_bindgen(js_name = deprecationHeaders, unchecked_return_type = "[string, string][]")]
pub fn deprecation_headers_js(
    #[wasm_bindgen(unchecked_param_type = "string")] target: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DeprecationOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let (target, now, policy) = read(&target, "target", &now, &options)?;
    to_js_value(&deprecation_headers(&target, now, &policy))
}

/// The deprecation headers for responses of an attest endpoint path (`/v2/attest/gpu`) at
/// `now`: the endpoint's and generation-1 evidence's deprecation for V2; empty for V1, V3
/// and V4.
///
/// @throws EdgeAttestError `ERR_REQUEST_UNKNOWN_ENDPOINT` for a path that is not an attest
/// endpoint; `ERR_INVALID_ARGUMENT` for a `now` that is not a time, or options or
/// arguments of the wrong shape.
///
/// @example
/// ```ts
/// for (const [name, value] of attestDeprecationHeaders('/v2/attest/gpu', Math.floor(Date.now() / 1000))) {
///   console.log(`${name}: ${value}`);
/// }
/// ```
#[wasm_bindgen(js_name = attestDeprecationHeaders, unchecked_return_type = "[string, string][]")]
pub fn attest_deprecation_headers_js(
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DeprecationOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let (path, now, policy) = read(&path, "path", &now, &options)?;
    to_js_value(&attest_path_headers(&path, now, &policy).or_js()?)
}

/// Every row of the deprecation registry (attributes, query parameters, endpoints; active
/// and removed), for a deprecation page or a client.
///
/// @example
/// ```ts
/// const active = deprecationRegistry().filter((row) => row.listing === 'active');
/// ```
#[wasm_bindgen(js_name = deprecationRegistry, unchecked_return_type = "DeprecationRow[]")]
pub fn deprecation_registry() -> Result<JsValue, JsValue> {
    parse_json(&registry_json())
}

/// Formats Unix seconds as RFC 3339 UTC (`2026-09-10T00:00:00Z`), as notices write
/// `takeActionBy`.
///
/// @throws EdgeAttestError `ERR_INVALID_ARGUMENT` for a time that is not a whole number of
/// seconds from 0 to 9999-12-31T23:59:59Z.
///
/// @example
/// ```ts
/// formatRfc3339(1789000000); // "2026-09-10T00:26:40Z"
/// ```
#[wasm_bindgen(js_name = formatRfc3339)]
pub fn format_rfc3339_js(
    #[wasm_bindgen(unchecked_param_type = "number")] secs: JsValue,
) -> Result<String, JsValue> {
    format_rfc3339(args::time(&secs, "secs")?.as_secs()).ok_or_else(out_of_range)
}

/// Formats Unix seconds as an HTTP IMF-fixdate (`Thu, 10 Sep 2026 00:00:00 GMT`), as the
/// `Sunset` header writes it.
///
/// @throws EdgeAttestError `ERR_INVALID_ARGUMENT` for a time that is not a whole number of
/// seconds from 0 to 9999-12-31T23:59:59Z.
///
/// @example
/// ```ts
/// formatHttpDate(1789000000); // "Thu, 10 Sep 2026 00:26:40 GMT"
/// ```
#[wasm_bindgen(js_name = formatHttpDate)]
pub fn format_http_date_js(
    #[wasm_bindgen(unchecked_param_type = "number")] secs: JsValue,
) -> Result<String, JsValue> {
    format_http_date(args::time(&secs, "secs")?.as_secs()).ok_or_else(out_of_range)
}

fn out_of_range() -> JsValue {
    invalid_argument("secs", "at most 9999-12-31T23:59:59Z")
}

/// The string argument `field`, `now` and the policy of the options, read in that order.
fn read(
    text: &JsValue,
    field: &str,
    now: &JsValue,
    options: &JsValue,
) -> Result<(String, UnixTime, Policy), JsValue> {
    let text = args::string_arg(text, field)?;
    let now = args::time(now, "now")?;
    let options: DeprecationOptions = optional_options_from_js(options)?;
    Ok((text, now, options.policy()))
}
