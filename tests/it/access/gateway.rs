//! The gateway's answers (RFC 6750 §3): missing, malformed, invalid and under-scoped
//! credentials; paths; preflight; forwarding; service keys.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions may fail loudly too.

use edgeattest::access::{
    authorize, dev_key_set, store_of, ApiKey, GatewayConfig, GatewayRequest, IssuedKey, KeyStore,
    KeyType, Scope, ScopeSet, SIMULATION_SERVICE,
};
use edgeattest::UnixTime;
use serde_json::{json, Value};

const NOW: UnixTime = UnixTime::from_secs(1_800_000_000).unwrap();
const SIMS: &str = "/api/v3/simulations/";

struct Fixture {
    keys: Vec<IssuedKey>,
    store: KeyStore,
}

impl Fixture {
    fn new() -> Self {
        let mut keys = dev_key_set(&[0x21; 32], NOW);
        keys.push(IssuedKey::service(
            "svc-revoked",
            ScopeSet::of(&[Scope::SimulationRead]),
            vec![SIMULATION_SERVICE.into()],
            &[0x99; 32],
        ));
        let mut records: Vec<_> = keys.iter().map(|k| k.record().clone()).collect();
        let last = records
            .pop()
            .unwrap()
            .with_revocation(UnixTime::from_secs(NOW.as_secs() - 10).unwrap());
        records.push(last);
        let store = KeyStore::new(records).unwrap();
        Self { keys, store }
    }

    fn secret(&self, id: &str) -> &str {
        self.keys
            .iter()
            .find(|k| k.record().id() == id)
            .unwrap()
            .key()
            .expose_secret()
    }

    fn ask(
        &self,
        method: &str,
        target: &str,
        authorization: Option<&str>,
    ) -> edgeattest::access::Decision {
        self.ask_at(method, target, authorization, NOW)
    }

    fn ask_at(
        &self,
        method: &str,
        target: &str,
        authorization: Option<&str>,
        now: UnixTime,
    ) -> edgeattest::access::Decision {
        let request = GatewayRequest {
            method,
            target,
            authorization,
            headers: &[],
        };
        authorize(&request, &self.store, &GatewayConfig::default(), now)
    }

    fn bearer(&self, id: &str) -> String {
        format!("Bearer {}", self.secret(id))
    }
}

fn body(decision: &edgeattest::access::Decision) -> Value {
    serde_json::from_str(&decision.body_json()).unwrap()
}

#[test]
fn no_credentials_is_401_with_a_bare_challenge() {
    let f = Fixture::new();
    let d = f.ask("GET", SIMS, None);
    assert!(!d.allow);
    assert_eq!(d.status, 401);
    assert_eq!(
        d.header("www-authenticate"),
        Some(r#"Bearer realm="edgeattest""#)
    );
    assert_eq!(
        d.header("Access-Control-Expose-Headers"),
        Some("WWW-Authenticate")
    );
    assert_eq!(d.header("Cache-Control"), Some("no-store"));
    assert_eq!(d.header("Content-Type"), Some("application/json"));
    let b = body(&d);
    assert!(
        b.get("error").is_none(),
        "no error code without credentials (RFC 6750 §3.1)"
    );
    assert_eq!(b["code"], "ERR_ACCESS_NO_CREDENTIALS");
    assert_eq!(b["status"], 401);
    assert_eq!(d.audit.reason, "no_credentials");
}

#[test]
fn another_scheme_is_treated_as_no_credentials() {
    let f = Fixture::new();
    for header in [
        "Basic dXNlcjpwYXNz",
        "Token abc",
        "Digest username=\"x\"",
        "Negotiate",
    ] {
        let d = f.ask("GET", SIMS, Some(header));
        assert_eq!(d.status, 401, "{header}");
        assert_eq!(
            d.header("WWW-Authenticate"),
            Some(r#"Bearer realm="edgeattest""#)
        );
        assert_eq!(d.audit.reason, "unsupported_scheme");
    }
}

#[test]
fn every_malformed_header_is_400_invalid_request() {
    let f = Fixture::new();
    let key = f.secret("dev-lab_user").to_owned();
    let long = format!("Bearer {}", "a".repeat(600));
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "empty"),
        ("   ".into(), "empty"),
        ("Bearer".into(), "missing_token"),
        ("Bearer    ".into(), "missing_token"),
        (format!("Bearer\t{key}"), "bad_separator"),
        (format!("Bearer{key}"), "bad_separator"),
        (format!("Bearer,{key}"), "bad_separator"),
        (format!("Bearer {key} extra"), "invalid_token_character"),
        (format!("Bearer \"{key}\""), "invalid_token_character"),
        (format!("Bearer {key}=x"), "invalid_token_character"),
        ("Bearer ====".into(), "invalid_token_character"),
        (
            format!("Bearer {key}, Bearer {key}"),
            "multiple_credentials",
        ),
        (format!("Bearer {key},{key}"), "multiple_credentials"),
        (
            format!("Basic dXNlcjpwYXNz, Bearer {key}"),
            "multiple_credentials",
        ),
        (format!("Bearer {key}\u{0}"), "not_visible_ascii"),
        (
            format!("Bearer {key}\r\nX-Injected: 1"),
            "not_visible_ascii",
        ),
        (format!("Bearer ключ{key}"), "not_visible_ascii"),
        (long, "too_long"),
    ];
    for (header, reason) in cases {
        let d = f.ask("GET", SIMS, Some(&header));
        assert_eq!(d.status, 400, "{header:?}");
        assert_eq!(d.audit.reason, reason, "{header:?}");
        let b = body(&d);
        assert_eq!(b["code"], "ERR_ACCESS_INVALID_REQUEST");
        assert_eq!(b["field"], "Authorization");
        assert!(
            b.get("error").is_none(),
            "RFC 6750 members stay in the header"
        );
        let challenge = d.header("WWW-Authenticate").unwrap();
        assert!(
            challenge.starts_with(
                r#"Bearer realm="edgeattest", error="invalid_request", error_description=""#
            ),
            "{challenge}"
        );
        // Quoted-string safety: exactly the quotes we put there.
        assert_eq!(challenge.matches('"').count(), 6, "{challenge}");
    }
}

#[test]
fn a_key_in_the_url_is_refused_even_with_a_header() {
    let f = Fixture::new();
    let key = f.secret("dev-lab_user").to_owned();
    for target in [
        format!("{SIMS}?access_token={key}"),
        format!("{SIMS}?limit=5&access_token={key}"),
        format!("{SIMS}?Access%5Ftoken={key}"),
    ] {
        for header in [None, Some(f.bearer("dev-lab_user"))] {
            let d = f.ask("GET", &target, header.as_deref());
            assert_eq!(d.status, 400, "{target}");
            assert_eq!(d.audit.reason, "token_in_query");
            assert_eq!(body(&d)["code"], "ERR_ACCESS_INVALID_REQUEST");
            assert_eq!(body(&d)["field"], "access_token");
            let challenge = d.header("WWW-Authenticate").unwrap();
            assert!(
                challenge.contains(r#"error="invalid_request""#),
                "{challenge}"
            );
        }
    }
    // Other query parameters are fine and do not change the authorized path.
    let d = f.ask(
        "GET",
        &format!("{SIMS}?limit=5"),
        Some(&f.bearer("dev-lab_user")),
    );
    assert!(d.allow);
    assert_eq!(d.forward.unwrap().path, SIMS);
}

#[test]
fn unknown_revoked_expired_and_foreign_keys_get_one_identical_401() {
    let f = Fixture::new();
    let unknown = format!(
        "Bearer {}",
        ApiKey::generate(KeyType::Personal, &[0xCD; 32]).expose_secret()
    );
    let revoked = f.bearer("svc-revoked");
    let user = f.bearer("dev-lab_user");
    let foreign = f.bearer("svc-other-service");
    let expires = NOW.saturating_add(30 * 86_400);
    let answers = [
        (f.ask("GET", SIMS, Some(&unknown)), "unknown_key"),
        (f.ask("GET", SIMS, Some(&revoked)), "revoked"),
        (f.ask_at("GET", SIMS, Some(&user), expires), "expired"),
        (
            f.ask_at("GET", SIMS, Some(&user), expires.saturating_add(1)),
            "expired",
        ),
        (f.ask("GET", SIMS, Some(&foreign)), "wrong_service"),
    ];
    let first = &answers[0].0;
    assert_eq!(first.status, 401);
    assert_eq!(
        first.header("WWW-Authenticate"),
        Some(
            r#"Bearer realm="edgeattest", error="invalid_token", error_description="The API key is not valid""#
        )
    );
    assert_eq!(
        body(first),
        json!({"code": "ERR_ACCESS_INVALID_TOKEN", "message": "The API key is not valid",
               "field": "Authorization", "status": 401})
    );
    for (decision, reason) in &answers {
        assert_eq!(decision.status, first.status, "{reason}");
        assert_eq!(decision.headers, first.headers, "{reason}");
        assert_eq!(decision.body_json(), first.body_json(), "{reason}");
        // Only the audit, which never leaves the host, tells them apart.
        assert_eq!(decision.audit.reason, *reason);
    }
    // One second before expiry the key still works.
    assert!(
        f.ask_at(
            "GET",
            SIMS,
            Some(&user),
            UnixTime::from_secs(expires.as_secs() - 1).unwrap()
        )
        .allow
    );
}

#[test]
fn a_mistyped_key_is_rejected_before_lookup_as_invalid_token() {
    let f = Fixture::new();
    let mut typo = f.secret("dev-lab_user").to_owned();
    let last = typo.pop().unwrap();
    typo.push(if last == 'a' { 'b' } else { 'a' });
    for header in [
        format!("Bearer {typo}"),
        "Bearer nvapi-abcdef".into(),
        "Bearer abc.def.ghi".into(),
    ] {
        let d = f.ask("GET", SIMS, Some(&header));
        assert_eq!(d.status, 401, "{header}");
        assert_eq!(d.audit.reason, "malformed_key");
        let b = body(&d);
        assert_eq!(b["code"], "ERR_ACCESS_MALFORMED_KEY");
        assert!(d
            .header("WWW-Authenticate")
            .unwrap()
            .contains(r#"error="invalid_token""#));
    }
}

#[test]
fn scheme_name_is_case_insensitive_and_spaces_are_tolerated() {
    let f = Fixture::new();
    let key = f.secret("dev-lab_user");
    for header in [
        format!("bearer {key}"),
        format!("BEARER {key}"),
        format!("Bearer    {key}"),
        format!("  Bearer {key}\t"),
    ] {
        assert!(f.ask("GET", SIMS, Some(&header)).allow, "{header:?}");
    }
}

#[test]
fn insufficient_scope_names_required_granted_and_missing() {
    let f = Fixture::new();
    let d = f.ask(
        "DELETE",
        "/api/v3/simulations/abc/",
        Some(&f.bearer("svc-ci-readonly")),
    );
    assert_eq!(d.status, 403);
    assert_eq!(
        d.header("WWW-Authenticate"),
        Some(concat!(
            r#"Bearer realm="edgeattest", error="insufficient_scope", "#,
            r#"error_description="The API key lacks a scope this endpoint requires", "#,
            r#"scope="lab:simulation_delete""#
        ))
    );
    assert_eq!(
        body(&d),
        json!({
            "code": "ERR_ACCESS_INSUFFICIENT_SCOPE",
            "message": "The API key lacks a scope this endpoint requires",
            "field": "Authorization",
            "status": 403,
            "route": "/api/v3/simulations/{id}/",
            "requirement": "all_of",
            "requiredScopes": ["lab:simulation_delete"],
            "grantedScopes": ["lab:simulation_read", "lab:image_read"],
            "missingScopes": ["lab:simulation_delete"]
        })
    );
    assert_eq!(d.audit.key_id.as_deref(), Some("svc-ci-readonly"));
}

#[test]
fn service_keys_hold_exactly_their_chosen_scopes() {
    let f = Fixture::new();
    let ci = f.bearer("svc-ci-simulations");
    assert!(
        f.ask("POST", "/api/v3/simulations/import/", Some(&ci))
            .allow
    );
    assert!(
        f.ask("PATCH", "/api/v3/simulations/a/start/", Some(&ci))
            .allow
    );
    // lab_user would also hold image_read and marketplace_demo_write; this key does not.
    assert_eq!(f.ask("GET", "/api/v3/images/", Some(&ci)).status, 403);
    assert_eq!(
        f.ask("POST", "/api/v3/marketplace/demos/", Some(&ci))
            .status,
        403
    );
    let images = f.bearer("svc-image-pipeline");
    assert!(
        f.ask("PATCH", "/api/v3/images/a/publish/", Some(&images))
            .allow
    );
    assert_eq!(f.ask("GET", SIMS, Some(&images)).status, 403);
    let d = f.ask("GET", "/api/v3/images/shares/", Some(&images));
    assert_eq!(d.status, 403);
    assert_eq!(body(&d)["requirement"], "any_of");
    assert_eq!(
        body(&d)["missingScopes"],
        json!(["lab:image_sharing", "lab:image_claiming"])
    );
}

#[test]
fn clone_and_provision_need_both_create_and_read() {
    let create_only = IssuedKey::service(
        "create-only",
        ScopeSet::of(&[Scope::SimulationCreate]),
        vec![SIMULATION_SERVICE.into()],
        &[0x31; 32],
    );
    let store = store_of(core::slice::from_ref(&create_only)).unwrap();
    let auth = format!("Bearer {}", create_only.key().expose_secret());
    let ask = |target| {
        authorize(
            &GatewayRequest {
                method: "POST",
                target,
                authorization: Some(&auth),
                headers: &[],
            },
            &store,
            &GatewayConfig::default(),
            NOW,
        )
    };
    assert!(ask("/api/v3/simulations/import/").allow);
    // Both copy a source the key could not otherwise read: a simulation, a demo.
    for target in [
        "/api/v3/simulations/clone/",
        "/api/v3/marketplace/demos/evpn/provision/",
    ] {
        let d = ask(target);
        assert_eq!(d.status, 403, "{target}");
        assert_eq!(body(&d)["missingScopes"], json!(["lab:simulation_read"]));
        assert_eq!(
            d.header("WWW-Authenticate")
                .unwrap()
                .rsplit("scope=")
                .next(),
            Some(r#""lab:simulation_read lab:simulation_create""#)
        );
    }
}

#[test]
fn paths_are_checked_after_credentials() {
    let f = Fixture::new();
    let user = f.bearer("dev-lab_user");
    // Anonymous callers learn nothing about routes.
    assert_eq!(f.ask("GET", "/api/v3/nothing/", None).status, 401);
    assert_eq!(f.ask("GET", "/api/v3/../etc/", None).status, 401);
    for bad in [
        "/api/v3/simulations/../images/",
        "/api/v3//simulations/",
        "/api/v3/simulations/%2e%2e/",
        "/api/v3/simulations/a%2Fb/",
        "/api/v3/simulations\\x/",
        "/api/v3/simulations/a;b/",
        "api/v3/simulations/",
    ] {
        let d = f.ask("GET", bad, Some(&user));
        assert_eq!(d.status, 400, "{bad}");
        assert_eq!(body(&d)["code"], "ERR_ACCESS_INVALID_PATH");
        assert!(d.header("WWW-Authenticate").is_none());
    }
    let d = f.ask("GET", "/api/v3/histories/", Some(&user));
    assert_eq!(d.status, 404);
    assert_eq!(body(&d)["code"], "ERR_ACCESS_UNKNOWN_ROUTE");
    let d = f.ask("PUT", "/api/v3/simulations/abc/", Some(&user));
    assert_eq!(d.status, 405);
    assert_eq!(d.header("Allow"), Some("GET, HEAD, PATCH, DELETE"));
    let b = body(&d);
    assert_eq!(b["code"], "ERR_ACCESS_METHOD_NOT_ALLOWED");
    assert_eq!(
        b["allowedMethods"],
        json!(["GET", "HEAD", "PATCH", "DELETE"])
    );
    assert_eq!(f.ask("get", SIMS, Some(&user)).status, 405);
}

#[test]
fn allowed_requests_are_forwarded_in_canonical_form_without_the_key() {
    let f = Fixture::new();
    let d = f.ask(
        "GET",
        "/api/v3/simulations",
        Some(&f.bearer("dev-lab_org_admin")),
    );
    assert!(d.allow);
    assert_eq!(d.status, 0);
    assert!(d.body.is_none());
    let forward = d.forward.as_ref().unwrap();
    assert_eq!(forward.path, SIMS);
    assert_eq!(forward.remove_headers, vec!["Authorization"]);
    assert_eq!(
        forward.set_headers,
        vec![
            ("X-Edgeattest-Key-Id", "dev-lab_org_admin".to_owned()),
            ("X-Edgeattest-Key-Type", "personal".to_owned()),
            (
                "X-Edgeattest-Scopes",
                "lab:simulation_read lab:simulation_create lab:simulation_edit lab:simulation_delete lab:simulation_start_stop lab:image_read lab:marketplace_demo_write".to_owned()
            ),
        ]
    );
    let json: Value = serde_json::from_str(&d.to_json()).unwrap();
    assert_eq!(json["allow"], true);
    assert_eq!(json["forward"]["path"], SIMS);
    assert_eq!(json["audit"]["reason"], "allowed");
    assert_eq!(json["audit"]["route"], SIMS);
}

#[test]
fn preflight_needs_no_credentials() {
    let f = Fixture::new();
    let d = f.ask("OPTIONS", "/api/v3/simulations/abc/", None);
    assert_eq!(d.status, 204);
    assert!(!d.allow);
    assert_eq!(
        d.header("Access-Control-Allow-Methods"),
        Some("GET, HEAD, PATCH, DELETE, OPTIONS")
    );
    assert_eq!(
        d.header("Access-Control-Allow-Headers"),
        Some("Authorization, Content-Type")
    );
    assert_eq!(f.ask("OPTIONS", "/api/v3/nothing/", None).status, 404);
    assert_eq!(f.ask("OPTIONS", "/api/v3/../x/", None).status, 400);
}

#[test]
fn realm_is_configurable_and_validated() {
    let f = Fixture::new();
    let config = GatewayConfig::new("lab", "simulation").unwrap();
    let d = authorize(
        &GatewayRequest {
            method: "GET",
            target: SIMS,
            authorization: None,
            headers: &[],
        },
        &f.store,
        &config,
        NOW,
    );
    assert_eq!(d.header("WWW-Authenticate"), Some(r#"Bearer realm="lab""#));
    for bad in ["", "a\"b", "a\\b", "line\nbreak", &"r".repeat(65)] {
        assert!(GatewayConfig::new(bad, "simulation").is_err(), "{bad:?}");
    }
    assert!(GatewayConfig::new("lab", "").is_err());
    // A gateway for another service refuses the simulation keys.
    let other = GatewayConfig::new("lab", "attestation").unwrap();
    let d = authorize(
        &GatewayRequest {
            method: "GET",
            target: SIMS,
            authorization: Some(&f.bearer("dev-lab_user")),
            headers: &[],
        },
        &f.store,
        &other,
        NOW,
    );
    assert_eq!(d.status, 401);
}
