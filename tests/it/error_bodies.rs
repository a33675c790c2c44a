//! One shape for every error body (issue 17): the gateway's refusals, the attestation
//! service's own errors, the lists' and the deprecation checks' 400s all carry `code`,
//! `message`, `status` (and `field` where one input is at fault), camelCase, with the RFC
//! 6750 members in the `WWW-Authenticate` challenge only (`edgeattest::error_code::ErrorBody`).
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use edgeattest::access::{
    authorize, dev_key_set, ApiKey, Decision, Denial, GatewayConfig, GatewayRequest, KeyStore,
    KeyType, MAX_QUERY_LEN, MAX_REQUEST_HEADERS, MAX_REQUEST_HEADER_BYTES,
};
use edgeattest::chain::TrustStore;
use edgeattest::crypto::SigningKey;
use edgeattest::deprecation::{check_query, check_request, Policy, OCT_10_2026, SEPT_10_2026};
use edgeattest::error_code::ErrorBody;
use edgeattest::listing::{respond, Schema, Table};
use edgeattest::rim::RimTrust;
use edgeattest::service::{KeyRing, Request, Service, ServiceConfig};
use edgeattest::UnixTime;
use serde_json::{json, Value};

const NOW: UnixTime = UnixTime::from_secs(1_800_000_000).unwrap();
const SIMS: &str = "/api/v3/simulations/";

/// Members a kind of error may add after the common ones.
const DETAILS: [&str; 8] = [
    "errorCode",
    "route",
    "requirement",
    "requiredScopes",
    "grantedScopes",
    "missingScopes",
    "allowedMethods",
    "deprecation",
];

/// Asserts the one shape; returns the body.
fn assert_shape(text: &str, status: u16, what: &str) -> Value {
    let body: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}: {text}"));
    let members = body.as_object().unwrap_or_else(|| panic!("{what}: {text}"));
    let keys: Vec<&str> = members.keys().map(String::as_str).collect();
    // The common members lead, in the reference's order (errorCode and field where present).
    let common: Vec<&str> = keys
        .iter()
        .copied()
        .filter(|k| ErrorBody::MEMBERS.contains(k) || *k == "field" || *k == "errorCode")
        .collect();
    assert_eq!(&keys[..common.len()], &common[..], "{what}: {text}");
    for member in ErrorBody::MEMBERS {
        assert!(members.contains_key(member), "{what}: no {member}: {text}");
    }
    assert!(
        body["code"].as_str().is_some_and(|c| c.starts_with("ERR_")),
        "{what}: {text}"
    );
    let message = body["message"].as_str().unwrap_or("");
    assert!(!message.is_empty(), "{what}: {text}");
    assert_eq!(body["status"], json!(status), "{what}: {text}");
    if let Some(field) = body.get("field") {
        assert!(
            field.as_str().is_some_and(|f| !f.is_empty()),
            "{what}: {text}"
        );
    }
    for key in &keys {
        assert!(
            ErrorBody::MEMBERS.contains(key) || *key == "field" || DETAILS.contains(key),
            "{what}: unexpected member {key}: {text}"
        );
        assert!(!key.contains('_'), "{what}: {key} is not camelCase");
    }
    body
}

/// The gateway's challenge parameter `name`, if present.
fn challenge_param<'a>(challenge: &'a str, name: &str) -> Option<&'a str> {
    let start = challenge.find(&format!("{name}=\""))? + name.len() + 2;
    let rest = &challenge[start..];
    Some(&rest[..rest.find('"')?])
}

/// A refusal's body has the shape; the RFC 6750 members are in the header, not the body, and
/// the body's message is the challenge's description.
fn assert_refusal(decision: &Decision, code: &str, what: &str) -> Value {
    assert!(!decision.allow, "{what}");
    assert_eq!(decision.code(), Some(code), "{what}");
    let body = assert_shape(&decision.body_json(), decision.status, what);
    assert_eq!(body["code"], code, "{what}");
    for member in ["error", "error_description", "scope"] {
        assert!(body.get(member).is_none(), "{what}: {member} in the body");
    }
    if let Some(challenge) = decision.header("WWW-Authenticate") {
        if let Some(description) = challenge_param(challenge, "error_description") {
            assert_eq!(body["message"], description, "{what}");
            assert!(challenge_param(challenge, "error").is_some(), "{what}");
        }
    }
    body
}

struct Gate {
    store: KeyStore,
    keys: Vec<edgeattest::access::IssuedKey>,
}

impl Gate {
    fn new() -> Self {
        let keys = dev_key_set(&[0x21; 32], NOW);
        let records: Vec<_> = keys.iter().map(|k| k.record().clone()).collect();
        Self {
            store: KeyStore::new(records).unwrap(),
            keys,
        }
    }

    fn bearer(&self, id: &str) -> String {
        let key = self.keys.iter().find(|k| k.record().id() == id).unwrap();
        format!("Bearer {}", key.key().expose_secret())
    }

    fn ask(&self, method: &str, target: &str, auth: Option<&str>, now: UnixTime) -> Decision {
        self.ask_with(method, target, auth, &[], now)
    }

    fn ask_with(
        &self,
        method: &str,
        target: &str,
        auth: Option<&str>,
        headers: &[(&str, &str)],
        now: UnixTime,
    ) -> Decision {
        authorize(
            &GatewayRequest {
                method,
                target,
                authorization: auth,
                headers,
            },
            &self.store,
            &GatewayConfig::default(),
            now,
        )
    }
}

#[test]
fn every_gateway_refusal_has_the_one_shape() {
    let g = Gate::new();
    let user = g.bearer("dev-lab_user");
    let reader = g.bearer("svc-ci-readonly");
    let unknown = format!(
        "Bearer {}",
        ApiKey::generate(KeyType::Personal, &[0xCD; 32]).expose_secret()
    );
    let long_query = format!("{SIMS}?q={}", "a".repeat(MAX_QUERY_LEN));
    let many: Vec<(String, String)> = (0..=MAX_REQUEST_HEADERS)
        .map(|i| (format!("x-h{i}"), "v".into()))
        .collect();
    let many: Vec<(&str, &str)> = many.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let big = "v".repeat(MAX_REQUEST_HEADER_BYTES + 1);
    let big = [("x-big", big.as_str())];
    let token_in_query = format!("{SIMS}?access_token=abc");
    let cases: Vec<(Decision, &str, Option<&str>)> = vec![
        (
            g.ask("GET", SIMS, None, NOW),
            "ERR_ACCESS_NO_CREDENTIALS",
            Some("Authorization"),
        ),
        (
            g.ask("GET", SIMS, Some("Basic dXNlcjpwYXNz"), NOW),
            "ERR_ACCESS_NO_CREDENTIALS",
            Some("Authorization"),
        ),
        (
            g.ask("GET", SIMS, Some("Bearer"), NOW),
            "ERR_ACCESS_INVALID_REQUEST",
            Some("Authorization"),
        ),
        (
            g.ask("GET", &token_in_query, None, NOW),
            "ERR_ACCESS_INVALID_REQUEST",
            Some("access_token"),
        ),
        (
            g.ask("GET", SIMS, Some("Bearer abc.def"), NOW),
            "ERR_ACCESS_MALFORMED_KEY",
            Some("Authorization"),
        ),
        (
            g.ask("GET", SIMS, Some(&unknown), NOW),
            "ERR_ACCESS_INVALID_TOKEN",
            Some("Authorization"),
        ),
        (
            g.ask("GET", SIMS, Some(&user), NOW.saturating_add(400 * 86_400)),
            "ERR_ACCESS_INVALID_TOKEN",
            Some("Authorization"),
        ),
        (
            g.ask("GET", "/api/v3//simulations/", Some(&user), NOW),
            "ERR_ACCESS_INVALID_PATH",
            None,
        ),
        (
            g.ask("GET", "/api/v3/histories/", Some(&user), NOW),
            "ERR_ACCESS_UNKNOWN_ROUTE",
            None,
        ),
        (
            g.ask("PUT", "/api/v3/simulations/abc/", Some(&user), NOW),
            "ERR_ACCESS_METHOD_NOT_ALLOWED",
            None,
        ),
        (
            g.ask("DELETE", "/api/v3/simulations/abc/", Some(&reader), NOW),
            "ERR_ACCESS_INSUFFICIENT_SCOPE",
            Some("Authorization"),
        ),
        (
            g.ask_with("GET", SIMS, Some(&user), &many, NOW),
            "ERR_ACCESS_TOO_MANY_HEADERS",
            None,
        ),
        (
            g.ask_with("GET", SIMS, Some(&user), &big, NOW),
            "ERR_ACCESS_HEADERS_TOO_LARGE",
            None,
        ),
        (
            g.ask("GET", &long_query, Some(&user), NOW),
            "ERR_ACCESS_QUERY_TOO_LONG",
            None,
        ),
        (
            Decision::over_budget(&GatewayConfig::default(), Denial::QueryTooLong),
            "ERR_ACCESS_QUERY_TOO_LONG",
            None,
        ),
    ];
    let mut statuses = BTreeSet::new();
    let mut codes = BTreeSet::new();
    for (decision, code, field) in &cases {
        let body = assert_refusal(decision, code, code);
        assert_eq!(body.get("field").and_then(Value::as_str), *field, "{code}");
        statuses.insert(decision.status);
        codes.insert(*code);
    }
    // Every kind of refusal was seen: 400, 401, 403, 404, 405, 414, 431; all eleven codes.
    assert_eq!(
        statuses.into_iter().collect::<Vec<_>>(),
        [400, 401, 403, 404, 405, 414, 431]
    );
    assert_eq!(codes.len(), 11);

    // The details of 403 and 405 follow the common members, camelCase.
    let scope = assert_refusal(&cases[10].0, "ERR_ACCESS_INSUFFICIENT_SCOPE", "403");
    assert_eq!(scope["missingScopes"], json!(["lab:simulation_delete"]));
    assert_eq!(
        challenge_param(cases[10].0.header("WWW-Authenticate").unwrap(), "scope"),
        Some("lab:simulation_delete"),
        "scope stays in the challenge"
    );
    let method = assert_refusal(&cases[9].0, "ERR_ACCESS_METHOD_NOT_ALLOWED", "405");
    assert_eq!(
        method["allowedMethods"],
        json!(["GET", "HEAD", "PATCH", "DELETE"])
    );
}

fn service() -> Service {
    Service::new(
        ServiceConfig::default(),
        KeyRing::new(SigningKey::generate(&[4u8; 48]).unwrap(), None),
        TrustStore::nvidia_device_identity().unwrap(),
        RimTrust::nvidia(),
        1,
    )
}

#[test]
fn the_service_lists_and_deprecations_share_the_shape() {
    let svc = service();
    let ask = |request: Request| {
        let response = svc.handle(&request.origin("https://attest.example"), NOW, [7; 32]);
        let text = String::from_utf8(response.body).unwrap();
        assert_shape(&text, response.status, &text)
    };
    let attest = ask(Request::new("POST", "/v4/attest/gpu").body(r#"{"nonce":"12"}"#));
    assert_eq!(attest["code"], "ERR_REQUEST_INVALID_NONCE");
    assert_eq!(attest["errorCode"], 4003);
    assert_eq!(attest["field"], "nonce");
    assert_eq!(
        ask(Request::new("GET", "/v9/nothing"))["code"],
        "ERR_NOT_FOUND"
    );
    assert_eq!(
        ask(Request::new("GET", "/v4/attest/gpu"))["code"],
        "ERR_METHOD_NOT_ALLOWED"
    );
    assert_eq!(
        ask(Request::new("POST", "/v4/attest/gpu")
            .header("content-type", "text/plain")
            .body("{}"))["status"],
        415
    );

    let path = "/analytics/alerts/filter";
    let table = Table::from_json(Schema::for_path(path).unwrap(), b"[]").unwrap();
    let list = respond(path, "rpp=0", &table);
    assert_eq!(
        assert_shape(&list.body, list.status, "list")["field"],
        "rpp"
    );

    let error = check_request(
        "AllocationConstraint",
        json!({"ResourceTypeID": "t"}),
        SEPT_10_2026.saturating_add(1),
    )
    .unwrap_err();
    let body =
        serde_json::to_string(&error.body(SEPT_10_2026.saturating_add(1), &Policy::default()))
            .unwrap();
    let body = assert_shape(&body, 400, "deprecated attribute");
    assert_eq!(body["field"], "ResourceTypeID");
    assert!(body["message"].as_str().unwrap().contains("is deprecated"));
    let error =
        check_query("GET /instance", "infrastructureProviderId=p", OCT_10_2026).unwrap_err();
    let body = serde_json::to_string(&error.body(OCT_10_2026, &Policy::default())).unwrap();
    assert_eq!(
        assert_shape(&body, 400, "deprecated query parameter")["field"],
        "infrastructureProviderId"
    );
}
