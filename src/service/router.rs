//! Routing: which of the ten endpoints (spec §4) a request names, and the answers that need
//! no handler — 404, 405 with `Allow`, 413, 415, CORS preflight — plus the CORS headers every
//! response carries.

use alloc::string::String;

use super::http::{is_json_media_type, Request, Response};
use crate::attest::{Endpoint, MAX_BODY_BYTES};
use crate::deprecation::{attest_deprecation_headers, Policy};
use crate::error_code::ErrorBody;
use crate::time::UnixTime;

/// A request that reached an endpoint with an allowed method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) enum Route {
    /// `GET /`: the documentation pointer.
    Info,
    /// `GET /health`.
    Health,
    /// `GET /.well-known/jwks.json`.
    Jwks,
    /// `POST` to an attest endpoint (body size and content type already checked).
    Attest(Endpoint),
    /// `GET /v1/rim/ids` or `/v1/rim/<id>`: the verified RIM mirror (`super::mirror`).
    Mirror,
}

/// The path prefix of the verified RIM mirror's routes (`super::mirror`).
pub(crate) const MIRROR_RIM_PATH: &str = "/v1/rim/";

/// Request headers a browser may send cross-origin (preflight answer).
/// (`accept`: the EAR's media type has a quoted parameter, which is not CORS-safelisted.)
const ALLOWED_HEADERS: &str =
    "content-type, authorization, x-nvidia-ocsp-allow-cert-hold, accept, x-edgeattest-replay";
/// Response headers a browser script may read: deprecation signalling (RFC 9745, RFC 8594,
/// RFC 8288) and the request id.
const EXPOSED_HEADERS: &str = "deprecation, sunset, link, www-authenticate, x-request-id";
/// How long a browser may cache a preflight answer, in seconds.
const PREFLIGHT_MAX_AGE: &str = "86400";

/// Resolves a request to a [`Route`], or answers it directly.
///
/// # Errors
/// The finished [`Response`] for requests no handler should see: unknown path (404), method
/// not allowed (405 with `Allow`), CORS preflight (204), oversize body (413), non-JSON body
/// (415).
pub(crate) fn route(request: &Request) -> Result<Route, Response> {
    // A host may pass the query string in `path` (`?result=ear`, read by `negotiate`).
    let path = normalise(request.path.split('?').next().unwrap_or(""));
    let (candidate, allow) = match path {
        "/" => (Route::Info, "GET, HEAD, OPTIONS"),
        "/health" => (Route::Health, "GET, HEAD, OPTIONS"),
        "/.well-known/jwks.json" => (Route::Jwks, "GET, HEAD, OPTIONS"),
        mirror if mirror.starts_with(MIRROR_RIM_PATH) => (Route::Mirror, "GET, HEAD, OPTIONS"),
        other => match Endpoint::from_path(other) {
            Some(endpoint) => (Route::Attest(endpoint), "POST, OPTIONS"),
            None => return Err(not_found(&request.path)),
        },
    };
    let is_post_route = matches!(candidate, Route::Attest(_));
    match request.method.as_str() {
        "OPTIONS" => return Err(preflight(allow)),
        "GET" | "HEAD" if !is_post_route => return Ok(candidate),
        "POST" if is_post_route => {}
        method => {
            let body = ErrorBody::new(
                405,
                "ERR_METHOD_NOT_ALLOWED",
                alloc::format!("{method} is not allowed on {path}; allowed: {allow}"),
            );
            return Err(body.into_response().with_header("allow", allow));
        }
    }
    let declared = request
        .header_value("content-length")
        .and_then(|value| value.trim().parse::<usize>().ok());
    let size = declared.unwrap_or(0).max(request.body.len());
    if size > MAX_BODY_BYTES {
        return Err(ErrorBody::new(
            413,
            "ERR_REQUEST_TOO_LARGE",
            alloc::format!(
                "request body of {size} bytes exceeds the limit of {MAX_BODY_BYTES} bytes"
            ),
        )
        .into_response());
    }
    if let Some(content_type) = request.header_value("content-type") {
        if !is_json_media_type(content_type) {
            return Err(ErrorBody::new(
                415,
                "ERR_UNSUPPORTED_MEDIA_TYPE",
                alloc::format!("request body must be application/json, not {content_type:?}"),
            )
            .into_response()
            .with_header("accept-post", "application/json"));
        }
    }
    Ok(candidate)
}

/// Adds the headers every response carries: CORS for browser callers (any origin: the
/// service holds no ambient credentials, its tokens are bearer results) and no sniffing.
pub(crate) fn decorate(mut response: Response) -> Response {
    response
        .headers
        .push(("access-control-allow-origin".into(), "*".into()));
    response.headers.push((
        "access-control-expose-headers".into(),
        EXPOSED_HEADERS.into(),
    ));
    response
        .headers
        .push(("x-content-type-options".into(), "nosniff".into()));
    if !response.body.is_empty() {
        response
            .headers
            .push(("cache-control".into(), "no-store".into()));
    }
    response
}

/// `HEAD` answers like `GET` without a body (RFC 9110 §9.3.2).
pub(crate) fn strip_body_for_head(request: &Request, mut response: Response) -> Response {
    if request.method == "HEAD" {
        response.body.clear();
    }
    response
}

fn preflight(allow: &'static str) -> Response {
    Response::empty(204)
        .with_header("allow", allow)
        .with_header("access-control-allow-methods", allow)
        .with_header("access-control-allow-headers", ALLOWED_HEADERS)
        .with_header("access-control-max-age", PREFLIGHT_MAX_AGE)
}

fn not_found(path: &str) -> Response {
    let shown: String = path.chars().take(200).collect();
    ErrorBody::new(
        404,
        "ERR_NOT_FOUND",
        alloc::format!("no resource at {shown:?}"),
    )
    .into_response()
}

/// A single trailing slash is tolerated on every path but the root.
fn normalise(path: &str) -> &str {
    match path.strip_suffix('/') {
        Some(stripped) if !stripped.is_empty() => stripped,
        _ => path,
    }
}

/// The last touch on every attest response. The V2 endpoints take deprecated generation-1
/// evidence: their responses, errors included, carry `Deprecation`, `Sunset` and `Link` from
/// the deprecation registry (RFC 9745, RFC 8594, RFC 8288); the router already exposes these
/// headers to browsers.
pub(crate) fn finish_attest_response(
    mut response: Response,
    endpoint: Endpoint,
    now: UnixTime,
) -> Response {
    for (name, value) in attest_deprecation_headers(endpoint, now, &Policy::default()) {
        if !name.eq_ignore_ascii_case("access-control-expose-headers") {
            response.headers.push((name.into(), value));
        }
    }
    // The body depends on `Accept` (an EAR or NVIDIA's JSON, `negotiate`).
    response.headers.push(("vary".into(), "Accept".into()));
    decorate(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(result: Result<Route, Response>) -> u16 {
        match result {
            Ok(_) => 200,
            Err(response) => response.status,
        }
    }

    #[test]
    fn routes_the_ten_endpoints() {
        assert_eq!(route(&Request::new("GET", "/")), Ok(Route::Info));
        assert_eq!(route(&Request::new("GET", "/health")), Ok(Route::Health));
        assert_eq!(route(&Request::new("HEAD", "/health/")), Ok(Route::Health));
        assert_eq!(
            route(&Request::new("GET", "/.well-known/jwks.json")),
            Ok(Route::Jwks)
        );
        for endpoint in Endpoint::ALL {
            let request =
                Request::new("POST", endpoint.path()).header("content-type", "application/json");
            assert_eq!(route(&request), Ok(Route::Attest(endpoint)));
        }
    }

    #[test]
    fn answers_what_needs_no_handler() {
        assert_eq!(status(route(&Request::new("GET", "/v5/attest/gpu"))), 404);
        assert_eq!(status(route(&Request::new("GET", "/health/x"))), 404);
        let wrong_method = route(&Request::new("GET", "/v4/attest/gpu")).unwrap_err();
        assert_eq!(wrong_method.status, 405);
        assert_eq!(wrong_method.header_value("allow"), Some("POST, OPTIONS"));
        let post_health = route(&Request::new("POST", "/health")).unwrap_err();
        assert_eq!(
            post_health.header_value("allow"),
            Some("GET, HEAD, OPTIONS")
        );
        assert_eq!(status(route(&Request::new("post", "/v4/attest/gpu"))), 405);

        let preflight = route(&Request::new("OPTIONS", "/v4/attest/gpu")).unwrap_err();
        assert_eq!(preflight.status, 204);
        assert!(preflight
            .header_value("access-control-allow-headers")
            .unwrap()
            .contains("content-type"));

        let form = Request::new("POST", "/v4/attest/gpu")
            .header("Content-Type", "application/x-www-form-urlencoded");
        assert_eq!(status(route(&form)), 415);
        // No content type at all is accepted: simple clients omit it.
        assert!(route(&Request::new("POST", "/v4/attest/gpu")).is_ok());

        let big =
            Request::new("POST", "/v4/attest/gpu").body(alloc::vec![b' '; MAX_BODY_BYTES + 1]);
        assert_eq!(status(route(&big)), 413);
        let declared = Request::new("POST", "/v4/attest/gpu").header("content-length", "99999999");
        assert_eq!(status(route(&declared)), 413);
    }

    #[test]
    fn every_response_is_decorated() {
        let response = decorate(route(&Request::new("GET", "/nope")).unwrap_err());
        assert_eq!(
            response.header_value("access-control-allow-origin"),
            Some("*")
        );
        assert!(response
            .header_value("access-control-expose-headers")
            .unwrap()
            .contains("deprecation"));
        let body: serde_json::Value = serde_json::from_slice(&response.body).unwrap();
        assert_eq!(body["code"], "ERR_NOT_FOUND");
        assert_eq!(body["status"], 404);
    }
}
