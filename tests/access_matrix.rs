//! The full role × endpoint matrix, checked end to end through `authorize` with one
//! development key per role, against an oracle written by hand from the spec's tables
//! (access-control.md §5) — not derived from the library's own tables.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions may fail loudly too.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::std_instead_of_alloc
)]

use std::collections::BTreeSet;

use edgeattest::access::{
    authorize, dev_key_set, store_of, GatewayConfig, GatewayRequest, IssuedKey, KeyStore, ROUTES,
};
use serde_json::Value;

const NOW: u64 = 1_800_000_000;

// The spec's "Role to scope mapping", copied by hand.
const SPEC_ROLES: &[(&str, &[&str])] = &[
    (
        "lab_user",
        &[
            "lab:simulation_read",
            "lab:simulation_create",
            "lab:simulation_edit",
            "lab:simulation_delete",
            "lab:simulation_start_stop",
            "lab:image_read",
            "lab:marketplace_demo_write",
        ],
    ),
    (
        "lab_org_admin",
        &[
            "lab:simulation_read",
            "lab:simulation_create",
            "lab:simulation_edit",
            "lab:simulation_delete",
            "lab:simulation_start_stop",
            "lab:image_read",
            "lab:marketplace_demo_write",
        ],
    ),
    ("lab_instructor", &["lab:training_instructor"]),
    (
        "lab_demo_manager",
        &["lab:marketplace_demo_write", "lab:marketplace_demo_publish"],
    ),
    ("lab_image_uploader", &["lab:image_read", "lab:image_write"]),
    (
        "lab_image_publisher",
        &["lab:image_read", "lab:image_write", "lab:image_publish"],
    ),
    ("lab_image_sharer", &["lab:image_sharing"]),
    ("lab_image_claimer", &["lab:image_claiming"]),
];

// Who may call what, derived by hand from the table above.
const USERS: &[&str] = &["lab_user", "lab_org_admin"];
const IMAGE_READERS: &[&str] = &[
    "lab_user",
    "lab_org_admin",
    "lab_image_uploader",
    "lab_image_publisher",
];
const IMAGE_WRITERS: &[&str] = &["lab_image_uploader", "lab_image_publisher"];
const IMAGE_PUBLISHERS: &[&str] = &["lab_image_publisher"];
const SHARERS: &[&str] = &["lab_image_sharer"];
const CLAIMERS: &[&str] = &["lab_image_claimer"];
const SHARE_READERS: &[&str] = &["lab_image_sharer", "lab_image_claimer"];
const DEMO_READERS: &[&str] = &["lab_user", "lab_org_admin", "lab_demo_manager"];
const DEMO_WRITERS: &[&str] = &["lab_user", "lab_org_admin", "lab_demo_manager"];
const DEMO_PUBLISHERS: &[&str] = &["lab_demo_manager"];
const INSTRUCTORS: &[&str] = &["lab_instructor"];

const READ: &[&str] = &["lab:simulation_read"];
const CREATE: &[&str] = &["lab:simulation_create"];
const EDIT: &[&str] = &["lab:simulation_edit"];
const DELETE: &[&str] = &["lab:simulation_delete"];
const POWER: &[&str] = &["lab:simulation_start_stop"];
const IMG_READ: &[&str] = &["lab:image_read"];
const IMG_WRITE: &[&str] = &["lab:image_write"];
const IMG_PUBLISH: &[&str] = &["lab:image_publish"];
const IMG_SHARE: &[&str] = &["lab:image_sharing"];
const IMG_CLAIM: &[&str] = &["lab:image_claiming"];
const SHARE_ANY: &[&str] = &["lab:image_sharing", "lab:image_claiming"];
const DEMO_ANY: &[&str] = &[
    "lab:simulation_read",
    "lab:marketplace_demo_write",
    "lab:marketplace_demo_publish",
];
const DEMO_WRITE: &[&str] = &["lab:marketplace_demo_write"];
const DEMO_PUBLISH: &[&str] = &["lab:marketplace_demo_publish"];
const TRAINING: &[&str] = &["lab:training_instructor"];

/// (method, concrete path, required scopes, "all_of"/"any_of", roles allowed)
type Row = (
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static str,
    &'static [&'static str],
);

const MATRIX: &[Row] = &[
    ("GET", "/api/v3/simulations/", READ, "all_of", USERS),
    ("POST", "/api/v3/simulations/", CREATE, "all_of", USERS),
    ("GET", "/api/v3/simulations/6b1c-42/", READ, "all_of", USERS),
    (
        "PATCH",
        "/api/v3/simulations/6b1c-42/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "DELETE",
        "/api/v3/simulations/6b1c-42/",
        DELETE,
        "all_of",
        USERS,
    ),
    (
        "POST",
        "/api/v3/simulations/import/",
        CREATE,
        "all_of",
        USERS,
    ),
    (
        "POST",
        "/api/v3/simulations/parse/",
        CREATE,
        "all_of",
        USERS,
    ),
    (
        "POST",
        "/api/v3/simulations/clone/",
        &["lab:simulation_read", "lab:simulation_create"],
        "all_of",
        USERS,
    ),
    (
        "GET",
        "/api/v3/simulations/6b1c-42/export/",
        READ,
        "all_of",
        USERS,
    ),
    (
        "PATCH",
        "/api/v3/simulations/6b1c-42/start/",
        POWER,
        "all_of",
        USERS,
    ),
    (
        "PATCH",
        "/api/v3/simulations/6b1c-42/shutdown/",
        POWER,
        "all_of",
        USERS,
    ),
    (
        "PATCH",
        "/api/v3/simulations/6b1c-42/rebuild/",
        POWER,
        "all_of",
        USERS,
    ),
    (
        "PATCH",
        "/api/v3/simulations/6b1c-42/enable-auto-oob/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "PATCH",
        "/api/v3/simulations/6b1c-42/disable-auto-oob/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "PATCH",
        "/api/v3/simulations/6b1c-42/enable-auto-netq/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "PATCH",
        "/api/v3/simulations/6b1c-42/disable-auto-netq/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "POST",
        "/api/v3/simulations/6b1c-42/nodes/bulk-assign/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "POST",
        "/api/v3/simulations/6b1c-42/nodes/bulk-reset/",
        POWER,
        "all_of",
        USERS,
    ),
    (
        "POST",
        "/api/v3/simulations/6b1c-42/nodes/bulk-rebuild/",
        POWER,
        "all_of",
        USERS,
    ),
    (
        "GET",
        "/api/v3/simulations/6b1c-42/ztp-script/",
        READ,
        "all_of",
        USERS,
    ),
    (
        "PATCH",
        "/api/v3/simulations/6b1c-42/ztp-script/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "DELETE",
        "/api/v3/simulations/6b1c-42/ztp-script/",
        EDIT,
        "all_of",
        USERS,
    ),
    ("GET", "/api/v3/simulations/nodes/", READ, "all_of", USERS),
    ("POST", "/api/v3/simulations/nodes/", EDIT, "all_of", USERS),
    (
        "POST",
        "/api/v3/simulations/nodes/from-system-node/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "GET",
        "/api/v3/simulations/nodes/n-7/",
        READ,
        "all_of",
        USERS,
    ),
    (
        "PATCH",
        "/api/v3/simulations/nodes/n-7/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "DELETE",
        "/api/v3/simulations/nodes/n-7/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "GET",
        "/api/v3/simulations/nodes/instructions/",
        READ,
        "all_of",
        USERS,
    ),
    (
        "POST",
        "/api/v3/simulations/nodes/instructions/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "GET",
        "/api/v3/simulations/nodes/instructions/i-1/",
        READ,
        "all_of",
        USERS,
    ),
    (
        "DELETE",
        "/api/v3/simulations/nodes/instructions/i-1/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "GET",
        "/api/v3/simulations/nodes/interfaces/",
        READ,
        "all_of",
        USERS,
    ),
    (
        "POST",
        "/api/v3/simulations/nodes/interfaces/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "GET",
        "/api/v3/simulations/nodes/interfaces/swp1/",
        READ,
        "all_of",
        USERS,
    ),
    (
        "PATCH",
        "/api/v3/simulations/nodes/interfaces/swp1/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "DELETE",
        "/api/v3/simulations/nodes/interfaces/swp1/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "POST",
        "/api/v3/simulations/nodes/interfaces/swp1/breakout/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "POST",
        "/api/v3/simulations/nodes/interfaces/swp1/revert-breakout/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "GET",
        "/api/v3/simulations/nodes/interfaces/links/",
        READ,
        "all_of",
        USERS,
    ),
    (
        "POST",
        "/api/v3/simulations/nodes/interfaces/links/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "GET",
        "/api/v3/simulations/nodes/interfaces/links/l-2/",
        READ,
        "all_of",
        USERS,
    ),
    (
        "DELETE",
        "/api/v3/simulations/nodes/interfaces/links/l-2/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "GET",
        "/api/v3/simulations/nodes/interfaces/services/",
        READ,
        "all_of",
        USERS,
    ),
    (
        "POST",
        "/api/v3/simulations/nodes/interfaces/services/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "GET",
        "/api/v3/simulations/nodes/interfaces/services/ssh/",
        READ,
        "all_of",
        USERS,
    ),
    (
        "PATCH",
        "/api/v3/simulations/nodes/interfaces/services/ssh/",
        EDIT,
        "all_of",
        USERS,
    ),
    (
        "DELETE",
        "/api/v3/simulations/nodes/interfaces/services/ssh/",
        EDIT,
        "all_of",
        USERS,
    ),
    ("GET", "/api/v3/images/", IMG_READ, "all_of", IMAGE_READERS),
    (
        "POST",
        "/api/v3/images/",
        IMG_WRITE,
        "all_of",
        IMAGE_WRITERS,
    ),
    (
        "GET",
        "/api/v3/images/cumulus-5.9/",
        IMG_READ,
        "all_of",
        IMAGE_READERS,
    ),
    (
        "PATCH",
        "/api/v3/images/cumulus-5.9/",
        IMG_WRITE,
        "all_of",
        IMAGE_WRITERS,
    ),
    (
        "DELETE",
        "/api/v3/images/cumulus-5.9/",
        IMG_WRITE,
        "all_of",
        IMAGE_WRITERS,
    ),
    (
        "PATCH",
        "/api/v3/images/cumulus-5.9/clear-upload/",
        IMG_WRITE,
        "all_of",
        IMAGE_WRITERS,
    ),
    (
        "PATCH",
        "/api/v3/images/cumulus-5.9/publish/",
        IMG_PUBLISH,
        "all_of",
        IMAGE_PUBLISHERS,
    ),
    (
        "PATCH",
        "/api/v3/images/cumulus-5.9/unpublish/",
        IMG_PUBLISH,
        "all_of",
        IMAGE_PUBLISHERS,
    ),
    (
        "GET",
        "/api/v3/images/shares/",
        SHARE_ANY,
        "any_of",
        SHARE_READERS,
    ),
    (
        "POST",
        "/api/v3/images/shares/",
        IMG_SHARE,
        "all_of",
        SHARERS,
    ),
    (
        "GET",
        "/api/v3/images/shares/s-9/",
        SHARE_ANY,
        "any_of",
        SHARE_READERS,
    ),
    (
        "DELETE",
        "/api/v3/images/shares/s-9/",
        IMG_SHARE,
        "all_of",
        SHARERS,
    ),
    (
        "POST",
        "/api/v3/images/claim-image-share/",
        IMG_CLAIM,
        "all_of",
        CLAIMERS,
    ),
    (
        "GET",
        "/api/v3/marketplace/demos/",
        DEMO_ANY,
        "any_of",
        DEMO_READERS,
    ),
    (
        "POST",
        "/api/v3/marketplace/demos/",
        DEMO_WRITE,
        "all_of",
        DEMO_WRITERS,
    ),
    (
        "GET",
        "/api/v3/marketplace/demos/evpn/",
        DEMO_ANY,
        "any_of",
        DEMO_READERS,
    ),
    (
        "PATCH",
        "/api/v3/marketplace/demos/evpn/",
        DEMO_WRITE,
        "all_of",
        DEMO_WRITERS,
    ),
    (
        "DELETE",
        "/api/v3/marketplace/demos/evpn/",
        DEMO_WRITE,
        "all_of",
        DEMO_WRITERS,
    ),
    (
        "PATCH",
        "/api/v3/marketplace/demos/evpn/publish/",
        DEMO_PUBLISH,
        "all_of",
        DEMO_PUBLISHERS,
    ),
    (
        "PATCH",
        "/api/v3/marketplace/demos/evpn/unpublish/",
        DEMO_PUBLISH,
        "all_of",
        DEMO_PUBLISHERS,
    ),
    (
        "POST",
        "/api/v3/marketplace/demos/evpn/provision/",
        CREATE,
        "all_of",
        USERS,
    ),
    (
        "GET",
        "/api/v3/marketplace/demos/tags/",
        DEMO_ANY,
        "any_of",
        DEMO_READERS,
    ),
    (
        "POST",
        "/api/v3/marketplace/demos/tags/",
        DEMO_WRITE,
        "all_of",
        DEMO_WRITERS,
    ),
    (
        "DELETE",
        "/api/v3/marketplace/demos/tags/t-3/",
        DEMO_WRITE,
        "all_of",
        DEMO_WRITERS,
    ),
    ("GET", "/api/v3/trainings/", TRAINING, "all_of", INSTRUCTORS),
    (
        "POST",
        "/api/v3/trainings/",
        TRAINING,
        "all_of",
        INSTRUCTORS,
    ),
    (
        "GET",
        "/api/v3/trainings/tr-5/",
        TRAINING,
        "all_of",
        INSTRUCTORS,
    ),
    (
        "PATCH",
        "/api/v3/trainings/tr-5/",
        TRAINING,
        "all_of",
        INSTRUCTORS,
    ),
    (
        "DELETE",
        "/api/v3/trainings/tr-5/",
        TRAINING,
        "all_of",
        INSTRUCTORS,
    ),
    (
        "PATCH",
        "/api/v3/trainings/tr-5/attendees/add/",
        TRAINING,
        "all_of",
        INSTRUCTORS,
    ),
    (
        "PATCH",
        "/api/v3/trainings/tr-5/attendees/remove/",
        TRAINING,
        "all_of",
        INSTRUCTORS,
    ),
    (
        "GET",
        "/api/v3/trainings/tr-5/external-user-group/",
        TRAINING,
        "all_of",
        INSTRUCTORS,
    ),
];

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
            assert_eq!(body["error"], "insufficient_scope");
            assert_eq!(body["code"], "ERR_ACCESS_INSUFFICIENT_SCOPE");
            assert_eq!(body["requirement"], *mode, "{method} {path}");
            assert_eq!(
                names(&body["required_scopes"]),
                set(required),
                "{method} {path}"
            );
            assert_eq!(names(&body["granted_scopes"]), set(role_scopes), "{role}");
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
    };
    let decision = authorize(&request, &none, &GatewayConfig::default(), NOW);
    assert_eq!(decision.status, 403);
    let body: Value = serde_json::from_str(&decision.body_json()).unwrap();
    assert_eq!(body["granted_scopes"], serde_json::json!([]));
}
