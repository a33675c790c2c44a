//! The gateway's decision for one request: forward it, or answer it with an RFC 6750
//! status, challenge and JSON body. Pure: the host applies the decision.
//!
//! Every body has the shape of all the service's error bodies ([`crate::error_code::ErrorBody`]:
//! `code`, `message`, `field`, `status`, then [`AccessDetail`]); the RFC 6750 members
//! are in the challenge only.
//!
//! | situation | status | `WWW-Authenticate` (after `Bearer realm="…"`) | body `code` |
//! |---|---|---|---|
//! | no `Authorization`, or another scheme | 401 | nothing more (RFC 6750 §3.1) | `ERR_ACCESS_NO_CREDENTIALS` |
//! | malformed header, two credentials, key in the URL | 400 | `error="invalid_request"` | `ERR_ACCESS_INVALID_REQUEST` |
//! | key text malformed or checksum wrong | 401 | `error="invalid_token"` | `ERR_ACCESS_MALFORMED_KEY` |
//! | key unknown, revoked, expired, or not issued for the service | 401 | `error="invalid_token"` | `ERR_ACCESS_INVALID_TOKEN` |
//! | path not in canonical form | 400 | — | `ERR_ACCESS_INVALID_PATH` |
//! | no route for the path | 404 | — | `ERR_ACCESS_UNKNOWN_ROUTE` |
//! | route exists, method does not | 405 (`Allow`) | — | `ERR_ACCESS_METHOD_NOT_ALLOWED` |
//! | scope missing | 403 | `error="insufficient_scope"`, `scope="…"` | `ERR_ACCESS_INSUFFICIENT_SCOPE` |
//! | more headers, or larger, than the caps | 431 | — | `ERR_ACCESS_TOO_MANY_HEADERS`, `ERR_ACCESS_HEADERS_TOO_LARGE` |
//! | query longer than its cap | 414 | — | `ERR_ACCESS_QUERY_TOO_LONG` |
//!
//! The four invalid-key cases produce byte-identical answers, so a caller cannot tell an
//! unknown key from a revoked one; only the decision's `audit` (for the host's logs, never
//! sent) says which. Credentials are checked before the path, so an anonymous caller
//! learns nothing about routes. `OPTIONS` (CORS preflight) is answered without credentials,
//! since browsers never send them on a preflight. The caps are checked first, before any
//! work on the request.
//!
//! An allowed request's [`Forward`] is exactly what to send upstream: the target with the
//! cleaned query and the header list (see [`super::forward`] for what is stripped and why).

use alloc::borrow::ToOwned;
use alloc::string::String;
use alloc::vec::Vec;
use alloc::{format, vec};

use serde::Serialize;

use super::credential::{bearer_token, CredentialError};
pub use super::denial::Denial;
use super::endpoint::{match_route, Requirement, Route, RouteMatch};
use super::error::GatewayConfigError;
use super::forward::{clean_query, forward_headers, HeaderBudget};
use super::key::ApiKey;
use super::limits::MAX_QUERY_LEN;
#[cfg(doc)]
use super::limits::{MAX_REQUEST_HEADERS, MAX_REQUEST_HEADER_BYTES};
use super::path::{split_target, CanonicalPath, Method};
use super::record::{KeyRecord, KeyStatus, SIMULATION_SERVICE};
use super::scope::ScopeSet;
use super::store::KeyStore;
use crate::error_code::{ErrorBody, ErrorCode};
use crate::time::UnixTime;

/// The response headers a browser may read only when exposed (Fetch: `WWW-Authenticate` is
/// not CORS-safelisted). Hosts add the deprecation module's headers to the same list.
pub const EXPOSE_HEADERS: &str = "WWW-Authenticate";

/// Header set on forwarded requests: the record id of the key.
pub const FORWARD_KEY_ID: &str = "X-Edgeattest-Key-Id";
/// Header set on forwarded requests: `personal` or `service`.
pub const FORWARD_KEY_TYPE: &str = "X-Edgeattest-Key-Type";
/// Header set on forwarded requests: the granted scopes, space-separated.
pub const FORWARD_SCOPES: &str = "X-Edgeattest-Scopes";

/// The gateway's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GatewayConfig {
    realm: String,
    service: String,
}

impl GatewayConfig {
    /// The default realm, `edgeattest`.
    pub const DEFAULT_REALM: &'static str = "edgeattest";

    /// A configuration with `realm` (the `WWW-Authenticate` realm) and `service` (the name a
    /// key must be issued for).
    ///
    /// # Errors
    /// [`GatewayConfigError`] when the realm is empty, longer than 64 bytes or holds `"`,
    /// `\` or non-visible characters, or the service name is empty.
    pub fn new(realm: &str, service: &str) -> Result<Self, GatewayConfigError> {
        let realm_ok = !realm.is_empty()
            && realm.len() <= 64
            && realm
                .bytes()
                .all(|b| (0x20..0x7F).contains(&b) && b != b'"' && b != b'\\');
        if !realm_ok {
            return Err(GatewayConfigError::InvalidRealm);
        }
        if service.is_empty() || service.len() > 64 {
            return Err(GatewayConfigError::InvalidService);
        }
        Ok(Self {
            realm: realm.to_owned(),
            service: service.to_owned(),
        })
    }

    /// The realm.
    pub fn realm(&self) -> &str {
        &self.realm
    }

    /// The service keys must be issued for.
    pub fn service(&self) -> &str {
        &self.service
    }
}

impl Default for GatewayConfig {
    /// Realm `edgeattest`, service [`SIMULATION_SERVICE`].
    fn default() -> Self {
        Self {
            realm: Self::DEFAULT_REALM.to_owned(),
            service: SIMULATION_SERVICE.to_owned(),
        }
    }
}

/// The parts of a request the gateway looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GatewayRequest<'a> {
    /// The method token.
    pub method: &'a str,
    /// The request target: the path, optionally followed by `?query`.
    pub target: &'a str,
    /// The `Authorization` header value, if present (several joined by `, `, as Fetch's
    /// `Headers.get` does, so that two credentials are refused).
    pub authorization: Option<&'a str>,
    /// Every client header, name and value, in order (an `Authorization` among them is never
    /// forwarded). At most [`MAX_REQUEST_HEADERS`] and [`MAX_REQUEST_HEADER_BYTES`].
    pub headers: &'a [(&'a str, &'a str)],
}

impl GatewayRequest<'_> {
    /// The caps, checked before any work on the request.
    fn check_budget(&self) -> Result<(), Denial> {
        let mut budget = HeaderBudget::new();
        for (name, value) in self.headers {
            budget.admit(name.len(), value.len())?;
        }
        let (_, query) = split_target(self.target);
        if query.is_some_and(|q| q.len() > MAX_QUERY_LEN) {
            return Err(Denial::QueryTooLong);
        }
        Ok(())
    }
}

/// The detail members of a denial's body (`code` is `ERR_ACCESS_*`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct AccessDetail {
    /// The route pattern, once resolved (403, 405).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub route: Option<String>,
    /// `all_of` or `any_of` (403).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = r#""all_of" | "any_of""#))]
    pub requirement: Option<&'static str>,
    /// The scopes the route requires (403).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "Scope[]"))]
    pub required_scopes: Option<ScopeSet>,
    /// The scopes the key holds on this service (403).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "Scope[]"))]
    pub granted_scopes: Option<ScopeSet>,
    /// Required scopes the key lacks (403).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "Scope[]"))]
    pub missing_scopes: Option<ScopeSet>,
    /// The methods the route accepts (405).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_methods: Option<Vec<&'static str>>,
}

/// What to send upstream for an allowed request: `target` and `headers` are the whole of
/// it; the host copies them and adds nothing but the method and the body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GatewayForward"))]
#[serde(rename_all = "camelCase")]
pub struct Forward {
    /// The canonical path, without the query.
    pub path: String,
    /// The canonical path and the query without method overrides: what to request upstream.
    pub target: String,
    /// The headers to send: the client's that survive stripping, in order, then the
    /// gateway's own ([`Self::set_headers`]), each of those exactly once.
    pub headers: Vec<(String, String)>,
    /// The gateway's own headers (also in [`Self::headers`]).
    pub set_headers: Vec<(&'static str, String)>,
    /// The client's header names stripped, `Authorization` always first: for hosts that
    /// edit the incoming headers (delete these, then set [`Self::set_headers`]) instead of
    /// sending [`Self::headers`].
    pub remove_headers: Vec<String>,
}

/// What the host's logs should record; never sent to the client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct Audit {
    /// `allowed`, `preflight`, or the precise denial reason: `no_credentials`,
    /// `unsupported_scheme`, a malformation name, `malformed_key`, `unknown_key`,
    /// `revoked`, `expired`, `wrong_service`, `invalid_path`, `unknown_route`,
    /// `method_not_allowed`, `insufficient_scope`.
    pub reason: &'static str,
    /// The record id of the key, once found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_id: Option<String>,
    /// The route pattern, once resolved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub route: Option<&'static str>,
}

/// The gateway's decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "GatewayDecision"))]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    /// Whether the request may go upstream.
    pub allow: bool,
    /// The status to answer with; 0 when the request is forwarded (upstream answers).
    pub status: u16,
    /// Response headers to answer with (denials and preflights).
    pub headers: Vec<(&'static str, String)>,
    /// The JSON body of a denial: the members of every error body of the service
    /// ([`ErrorBody`]: `code`, `message`, `field`, `status`), then the details of a 403 or
    /// 405 ([`AccessDetail`]). Absent members are omitted.
    ///
    /// The RFC 6750 members (`error`, `error_description`, `scope`) are in the
    /// `WWW-Authenticate` challenge only, never in the body: `message` is the same sentence as
    /// the challenge's `error_description`, and `field` names the `Authorization` header (or
    /// the `access_token` query parameter) for credential refusals.
    #[cfg_attr(feature = "ts", ts(type = "AccessErrorBody | null"))]
    pub body: Option<ErrorBody<AccessDetail>>,
    /// How to forward an allowed request.
    pub forward: Option<Forward>,
    /// For the host's logs only.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub audit: Audit,
    /// Why the request was denied, for Rust callers.
    #[serde(skip)]
    pub denial: Option<Denial>,
}

impl Decision {
    /// The denial's code (`ERR_ACCESS_*`), or `None` when not denied.
    pub fn code(&self) -> Option<&'static str> {
        self.denial.as_ref().map(ErrorCode::code)
    }

    /// The value of response header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON text (empty when there is none).
    pub fn body_json(&self) -> String {
        self.body
            .as_ref()
            .and_then(|body| crate::json::write::to_string(body).ok())
            .unwrap_or_default()
    }

    /// The whole decision as JSON, for hosts in other languages.
    pub fn to_json(&self) -> String {
        crate::json::write::to_string(self).unwrap_or_default()
    }

    /// The answer to a request over a cap ([`Denial::TooManyHeaders`],
    /// [`Denial::HeadersTooLarge`], [`Denial::QueryTooLong`]), for hosts that meet the cap
    /// while converting the request (see [`HeaderBudget`]).
    pub fn over_budget(config: &GatewayConfig, denial: Denial) -> Self {
        let reason = match denial {
            Denial::TooManyHeaders => "too_many_headers",
            Denial::HeadersTooLarge => "headers_too_large",
            _ => "query_too_long",
        };
        deny(config, denial, reason, None)
    }
}

/// Decides a request against a key store: credential, key, path, route, scope.
pub fn authorize(
    request: &GatewayRequest<'_>,
    store: &KeyStore,
    config: &GatewayConfig,
    now: UnixTime,
) -> Decision {
    if let Err(denial) = request.check_budget() {
        return Decision::over_budget(config, denial);
    }
    let (raw_path, query) = split_target(request.target);
    let method = Method::parse(request.method);
    if method == Method::Options {
        return preflight(raw_path);
    }
    let token = match bearer_token(request.authorization, query) {
        Ok(token) => token,
        Err(CredentialError::Missing) => {
            return deny(config, Denial::NoCredentials, "no_credentials", None)
        }
        Err(CredentialError::UnsupportedScheme) => {
            return deny(config, Denial::NoCredentials, "unsupported_scheme", None)
        }
        Err(CredentialError::Malformed(problem)) => {
            return deny(
                config,
                Denial::InvalidRequest(problem),
                problem.as_str(),
                None,
            )
        }
    };
    let Ok(key) = ApiKey::parse(token) else {
        return deny(config, Denial::MalformedKey, "malformed_key", None);
    };
    let Some(record) = store.find(&key.digest()) else {
        return deny(config, Denial::InvalidToken, "unknown_key", None);
    };
    decide(record, method, request.target, request.headers, config, now)
}

/// Decides a request made with the key of `record`, already authenticated: lifecycle,
/// service, path, route, scope. `target` is the path, optionally with `?query`. The request
/// has no client headers: its [`Forward::headers`] are the gateway's alone.
pub fn decide_for_record(
    record: &KeyRecord,
    method: Method,
    target: &str,
    config: &GatewayConfig,
    now: UnixTime,
) -> Decision {
    let request = GatewayRequest {
        method: method.as_str(),
        target,
        authorization: None,
        headers: &[],
    };
    if let Err(denial) = request.check_budget() {
        return Decision::over_budget(config, denial);
    }
    decide(record, method, target, &[], config, now)
}

fn decide(
    record: &KeyRecord,
    method: Method,
    target: &str,
    headers: &[(&str, &str)],
    config: &GatewayConfig,
    now: UnixTime,
) -> Decision {
    let (raw_path, query) = split_target(target);
    let key_id = Some(String::from(record.id()));
    let invalid = |reason| {
        let mut decision = deny(config, Denial::InvalidToken, reason, None);
        decision.audit.key_id.clone_from(&key_id);
        decision
    };
    match record.status(now) {
        KeyStatus::Active => {}
        KeyStatus::Revoked => return invalid("revoked"),
        KeyStatus::Expired => return invalid("expired"),
    }
    if !record.issued_for(config.service()) {
        return invalid("wrong_service");
    }
    let granted = record.scopes_for(config.service());
    let with_key = |mut decision: Decision| {
        decision.audit.key_id.clone_from(&key_id);
        decision
    };
    let Ok(path) = CanonicalPath::parse(raw_path) else {
        return with_key(deny(config, Denial::InvalidPath, "invalid_path", None));
    };
    let route = match match_route(method, &path) {
        RouteMatch::Found(route) => route,
        RouteMatch::NotFound => {
            return with_key(deny(config, Denial::UnknownRoute, "unknown_route", None))
        }
        RouteMatch::MethodNotAllowed { pattern, allowed } => {
            let names: Vec<&'static str> = allowed.iter().map(|m| m.as_str()).collect();
            let mut decision = deny(config, Denial::MethodNotAllowed, "method_not_allowed", None);
            decision.headers.push(("Allow", names.join(", ")));
            if let Some(body) = decision.body.as_mut() {
                body.detail.route = Some(pattern.into());
                body.detail.allowed_methods = Some(names);
            }
            decision.audit.route = Some(pattern);
            return with_key(decision);
        }
    };
    let requirement = route.requirement();
    if !requirement.is_met(granted) {
        return with_key(deny(
            config,
            Denial::InsufficientScope,
            "insufficient_scope",
            Some((route, granted)),
        ));
    }
    let set_headers = vec![
        (FORWARD_KEY_ID, record.id().into()),
        (FORWARD_KEY_TYPE, record.key_type().as_str().into()),
        (FORWARD_SCOPES, format!("{granted}")),
    ];
    let (forwarded, stripped) = forward_headers(headers, &set_headers);
    let mut remove_headers = vec![String::from("Authorization")];
    remove_headers.extend(
        stripped
            .into_iter()
            .filter(|name| !name.eq_ignore_ascii_case("authorization")),
    );
    let target = match query.and_then(clean_query) {
        Some(query) => format!("{}?{query}", path.as_str()),
        None => path.as_str().into(),
    };
    Decision {
        allow: true,
        status: 0,
        headers: Vec::new(),
        body: None,
        forward: Some(Forward {
            path: path.as_str().into(),
            target,
            headers: forwarded,
            set_headers,
            remove_headers,
        }),
        audit: Audit {
            reason: "allowed",
            key_id,
            route: Some(route.pattern()),
        },
        denial: None,
    }
}

/// A CORS preflight: 204 with the route's methods, or the path's error.
fn preflight(raw_path: &str) -> Decision {
    let config = GatewayConfig::default();
    let Ok(path) = CanonicalPath::parse(raw_path) else {
        return deny(&config, Denial::InvalidPath, "invalid_path", None);
    };
    let allowed = match match_route(Method::Options, &path) {
        RouteMatch::MethodNotAllowed { allowed, .. } => allowed,
        RouteMatch::Found(_) | RouteMatch::NotFound => {
            return deny(&config, Denial::UnknownRoute, "unknown_route", None)
        }
    };
    let mut methods: Vec<&str> = allowed.iter().map(|m| m.as_str()).collect();
    methods.push("OPTIONS");
    let methods = methods.join(", ");
    Decision {
        allow: false,
        status: 204,
        headers: vec![
            ("Allow", methods.clone()),
            ("Access-Control-Allow-Methods", methods),
            (
                "Access-Control-Allow-Headers",
                "Authorization, Content-Type".into(),
            ),
            ("Access-Control-Max-Age", "600".into()),
        ],
        body: None,
        forward: None,
        audit: Audit {
            reason: "preflight",
            key_id: None,
            route: None,
        },
        denial: None,
    }
}

fn deny(
    config: &GatewayConfig,
    denial: Denial,
    reason: &'static str,
    scope: Option<(&'static Route, ScopeSet)>,
) -> Decision {
    let mut headers = Vec::new();
    if denial.challenges() {
        let description = alloc::string::ToString::to_string(&denial);
        headers.push((
            "WWW-Authenticate",
            challenge(config, denial, &description, scope),
        ));
    }
    headers.push(("Content-Type", "application/json".into()));
    headers.push(("Cache-Control", "no-store".into()));
    headers.push(("Access-Control-Expose-Headers", EXPOSE_HEADERS.into()));
    let mut body = ErrorBody::of(denial.status(), &denial).with_detail(AccessDetail::default());
    let mut route_pattern = None;
    if let Some((route, granted)) = scope {
        let requirement = route.requirement();
        body.detail.route = Some(route.pattern().into());
        body.detail.requirement = Some(requirement.mode());
        body.detail.required_scopes = Some(requirement.scopes());
        body.detail.granted_scopes = Some(granted);
        body.detail.missing_scopes = Some(missing(requirement, granted));
        route_pattern = Some(route.pattern());
    }
    Decision {
        allow: false,
        status: denial.status(),
        headers,
        body: Some(body),
        forward: None,
        audit: Audit {
            reason,
            key_id: None,
            route: route_pattern,
        },
        denial: Some(denial),
    }
}

/// For all-of: the required scopes not granted. For any-of (none granted): all of them.
fn missing(requirement: Requirement, granted: ScopeSet) -> ScopeSet {
    requirement.scopes().difference(granted)
}

/// `Bearer realm="…"[, error="…", error_description="…"][, scope="…"]` (RFC 6750 §3).
/// Every value is ours and free of `"` and `\`, so no escaping is needed.
fn challenge(
    config: &GatewayConfig,
    denial: Denial,
    description: &str,
    scope: Option<(&'static Route, ScopeSet)>,
) -> String {
    let mut value = format!("Bearer realm=\"{}\"", config.realm());
    if let Some(error) = denial.oauth_error() {
        value.push_str(&format!(
            ", error=\"{error}\", error_description=\"{description}\""
        ));
    }
    if let Some((route, _)) = scope {
        value.push_str(&format!(", scope=\"{}\"", route.requirement().scopes()));
    }
    value
}
