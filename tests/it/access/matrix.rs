//! The full role × endpoint matrix, checked end to end through `authorize` with one
//! development key per role, against an oracle written by hand from the spec's tables
//! (access-control.md §5) — not derived from the library's own tables.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions may fail loudly too.

use std::collections::BTreeSet;

use edgeattest::access::{
    authorize, dev_key_set, store_of, GatewayConfig, GatewayRequest, IssuedKey, KeyStore, ROUTES,
};
use edgeattest::UnixTime;
use serde_json::Value;

const NOW: UnixTime = UnixTime::from_secs(1_800_000_000).unwrap();

#[path = "../../common/access_oracle.rs"]
mod oracle;

use oracle::{MATRIX, SPEC_ROLES};

fn fixture() -> (Vec<IssuedKey>, KeyStore) {
    let keys = dev_key_set(&[0x42; 32], NOW);
    let store = store_of(&keys).unwrap();
    (keys, store)
}

fn bearer(keys: &[IssuedKey], id: &str) -> String {
    let key = keys.iter().find(|k| k.record().id() == id).unwrap();
    format!("Bearer {}", key.key().expose_secret())
}

fn names(value: &Value) -> BTreeSet<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn every_role_against_every_endpoint() {
    let (keys, store) = fixture();
    let config = GatewayConfig::default();
    let mut allowed_count = 0;
    let mut denied_count = 0;
    for (method, path, required, mode, allowed) in MATRIX {
        for (role, role_scopes) in SPEC_ROLES {
            let auth = bearer(&keys, &format!("dev-{role}"));
            let request = GatewayRequest {
                method,
                target: path,
                authorization: Some(&auth),
                headers: &[],
            };
            let decision = authorize(&request, &store, &config, NOW);
            let expect_allow = allowed.contains(role);
            assert_eq!(
                decision.allow, expect_allow,
                "{role} {method} {path}: {:?}",
                decision.body
            );
            if expect_allow {
                allowed_count += 1;
                let forward = decision.forward.as_ref().unwrap();
                assert_eq!(forward.path, *path);
                continue;
            }
            denied_count += 1;
            assert_eq!(decision.status, 403, "{role} {method} {path}");
            let body: Value = serde_json::from_str(&decision.body_json()).unwrap();
            assert!(decision
                .header("WWW-Authenticate")
                .unwrap()
                .contains(r#"error="insufficient_scope""#));
            assert_eq!(body["code"], "ERR_ACCESS_INSUFFICIENT_SCOPE");
            assert_eq!(body["requirement"], *mode, "{method} {path}");
            assert_eq!(
                names(&body["requiredScopes"]),
                set(required),
                "{method} {path}"
            );
            assert_eq!(names(&body["grantedScopes"]), set(role_scopes), "{role}");
            let challenge = decision.header("WWW-Authenticate").unwrap();
            let scope_attr = challenge
                .split("scope=\"")
                .nth(1)
                .unwrap()
                .trim_end_matches('"');
            assert_eq!(
                scope_attr
                    .split(' ')
                    .map(str::to_owned)
                    .collect::<BTreeSet<_>>(),
                set(required)
            );
        }
    }
    // Every role reaches something, and nobody reaches everything.
    assert!(allowed_count > 0 && denied_count > allowed_count);
}

#[test]
fn the_matrix_covers_every_route_exactly_once() {
    let (keys, store) = fixture();
    let auth = bearer(&keys, "dev-lab_user");
    let mut seen = BTreeSet::new();
    for (method, path, ..) in MATRIX {
        let request = GatewayRequest {
            method,
            target: path,
            authorization: Some(&auth),
            headers: &[],
        };
        let decision = authorize(&request, &store, &GatewayConfig::default(), NOW);
        let route = decision
            .audit
            .route
            .unwrap_or_else(|| panic!("{method} {path} has no route"));
        assert!(
            seen.insert(format!("{method} {route}")),
            "{method} {path} twice"
        );
    }
    let table: BTreeSet<String> = ROUTES.iter().map(ToString::to_string).collect();
    assert_eq!(seen, table);
    assert_eq!(MATRIX.len(), ROUTES.len());
}

#[test]
fn head_is_authorized_as_get() {
    let (keys, store) = fixture();
    for (role, allowed) in [("dev-lab_user", true), ("dev-lab_instructor", false)] {
        let auth = bearer(&keys, role);
        let request = GatewayRequest {
            method: "HEAD",
            target: "/api/v3/simulations/",
            authorization: Some(&auth),
            headers: &[],
        };
        let decision = authorize(&request, &store, &GatewayConfig::default(), NOW);
        assert_eq!(decision.allow, allowed, "{role}");
    }
}

#[test]
fn personal_key_scopes_are_the_union_of_the_users_roles_and_follow_role_changes() {
    let record = |roles: &str| {
        format!(
            r#"{{"keys":[{{"id":"alice","type":"personal","digest":"{}","roles":{roles},"services":["simulation"]}}]}}"#,
            edgeattest::access::ApiKey::generate(edgeattest::access::KeyType::Personal, &[9; 32])
                .digest()
                .to_hex()
        )
    };
    let key = edgeattest::access::ApiKey::generate(edgeattest::access::KeyType::Personal, &[9; 32]);
    let auth = format!("Bearer {}", key.expose_secret());
    let ask = |store: &KeyStore, method, target| {
        let request = GatewayRequest {
            method,
            target,
            authorization: Some(&auth),
            headers: &[],
        };
        authorize(&request, store, &GatewayConfig::default(), NOW).allow
    };
    let both =
        KeyStore::from_json(record(r#"["lab_instructor","lab_image_sharer"]"#).as_bytes()).unwrap();
    assert!(ask(&both, "POST", "/api/v3/trainings/"));
    assert!(ask(&both, "POST", "/api/v3/images/shares/"));
    assert!(!ask(&both, "GET", "/api/v3/simulations/"));
    // The platform removes a role: the same key loses its scopes on the next load.
    let fewer = KeyStore::from_json(record(r#"["lab_instructor"]"#).as_bytes()).unwrap();
    assert!(ask(&fewer, "POST", "/api/v3/trainings/"));
    assert!(!ask(&fewer, "POST", "/api/v3/images/shares/"));
    // No roles: a valid key that grants nothing (403, not 401).
    let none = KeyStore::from_json(record("[]").as_bytes()).unwrap();
    let request = GatewayRequest {
        method: "GET",
        target: "/api/v3/trainings/",
        authorization: Some(&auth),
        headers: &[],
    };
    let decision = authorize(&request, &none, &GatewayConfig::default(), NOW);
    assert_eq!(decision.status, 403);
    let body: Value = serde_json::from_str(&decision.body_json()).unwrap();
    assert_eq!(body["grantedScopes"], serde_json::json!([]));
}
