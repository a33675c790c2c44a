//! The access exports' options and results as core serde types (issue 18): read from JSON
//! as a Rust host reads them, with the rules and codes the JS exports show.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::access::{
    evaluate_access, target_of, AccessKey, AccessOptions, ApiKey, DevKeys, KeyRecord, KeyStore,
    KeySummary, NewKeyOptions, RoleScopes,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::json;

const NOW: UnixTime = UnixTime::from_secs(1_800_000_000).unwrap();
const RANDOM: [u8; 32] = [9; 32];

fn options(value: serde_json::Value) -> AccessOptions {
    serde_json::from_value(value).expect("options")
}

#[test]
fn gateway_options_default_each_absent_member() {
    let default = options(json!({})).config().unwrap();
    assert_eq!(
        (default.realm(), default.service()),
        ("edgeattest", "simulation")
    );
    let realm = options(json!({"realm": "lab"})).config().unwrap();
    assert_eq!((realm.realm(), realm.service()), ("lab", "simulation"));
    let service = options(json!({"service": "attestation", "now": 5}))
        .config()
        .unwrap();
    assert_eq!(
        (service.realm(), service.service()),
        ("edgeattest", "attestation")
    );
    let error = options(json!({"realm": "a\"b"})).config().unwrap_err();
    assert_eq!(
        (error.code(), error.field()),
        ("ERR_ACCESS_INVALID_REALM", Some("realm"))
    );
    let error = options(json!({"service": ""})).config().unwrap_err();
    assert_eq!(error.code(), "ERR_ACCESS_INVALID_SERVICE");
    assert!(serde_json::from_value::<AccessOptions>(json!({"realm": 5})).is_err());
}

#[test]
fn evaluate_access_takes_a_record_a_key_or_a_bearer_value() {
    let keys = DevKeys::new(&[0x42; 32], NOW);
    let sharer = keys
        .keys
        .iter()
        .find(|k| k.record().id() == "dev-lab_image_sharer")
        .unwrap();
    let config = options(json!({})).config().unwrap();
    let key = sharer.key().expose_secret();
    let store = &keys.key_store;
    let by_key = evaluate_access(
        AccessKey::Text { text: key, store },
        "DELETE",
        "https://h/api/v3/simulations/s1/",
        &config,
        NOW,
    );
    let bearer = format!("Bearer {key}");
    let by_header = evaluate_access(
        AccessKey::Text {
            text: &bearer,
            store,
        },
        "DELETE",
        "/api/v3/simulations/s1/",
        &config,
        NOW,
    );
    let record_json = serde_json::to_vec(sharer.record()).unwrap();
    let record = KeyRecord::from_json(&record_json).unwrap();
    let by_record = evaluate_access(
        AccessKey::Record(&record),
        "DELETE",
        "/api/v3/simulations/s1/",
        &config,
        NOW,
    );
    for decision in [&by_key, &by_header, &by_record] {
        assert_eq!(decision.status, 403);
        assert_eq!(decision.code(), Some("ERR_ACCESS_INSUFFICIENT_SCOPE"));
    }
    let sharing = evaluate_access(
        AccessKey::Record(&record),
        "POST",
        "/api/v3/images/shares/",
        &config,
        NOW,
    );
    assert!(sharing.allow, "{:?}", sharing.audit);
    // Not a key at all: the credential is refused, not looked up.
    let basic = evaluate_access(
        AccessKey::Text {
            text: "Basic abc",
            store,
        },
        "GET",
        "/api/v3/images/",
        &config,
        NOW,
    );
    assert_eq!(basic.status, 401);
    // Past its expiry the record grants nothing.
    let late = evaluate_access(
        AccessKey::Record(&record),
        "POST",
        "/api/v3/images/shares/",
        &config,
        NOW.saturating_add(31 * 86_400),
    );
    assert_eq!(late.status, 401);
}

#[test]
fn a_single_record_is_read_as_a_store_reads_it() {
    let digest = "ab".repeat(32);
    let record = json!({"id": "a", "type": "service", "digest": digest, "scopes": ["lab:nope"], "services": []});
    let error = KeyRecord::from_json(record.to_string().as_bytes()).unwrap_err();
    assert_eq!(
        (error.code(), error.field()),
        ("ERR_KEYSTORE_UNKNOWN_SCOPE", Some("keys[0].scopes[0]"))
    );
    let error = KeyRecord::from_json(b"[]").unwrap_err();
    assert_eq!(
        (error.code(), error.field()),
        ("ERR_KEYSTORE_WRONG_TYPE", Some("keys[0]"))
    );
}

#[test]
fn target_of_keeps_the_path_and_query_of_a_url() {
    assert_eq!(
        target_of("https://sim.example/api/v3/x?a=1"),
        "/api/v3/x?a=1"
    );
    assert_eq!(target_of("https://sim.example?a=1"), "?a=1");
    assert_eq!(target_of("https://sim.example"), "/");
    assert_eq!(target_of("/api/v3/x"), "/api/v3/x");
}

fn new_key(value: serde_json::Value) -> NewKeyOptions {
    serde_json::from_value(value).expect("new key options")
}

#[test]
fn a_new_key_from_json_options() {
    let created = new_key(
        json!({"type": "service", "id": "ci", "scopes": ["lab:image_read"], "expiresAt": NOW}),
    )
    .issue(&RANDOM)
    .unwrap();
    let shown = serde_json::to_value(&created).unwrap();
    let key = shown["key"].as_str().unwrap();
    assert_eq!(
        ApiKey::parse(key).unwrap().digest().to_hex(),
        shown["record"]["digest"]
    );
    assert_eq!(
        shown["redacted"],
        format!("eak_svc_…{}", &key[key.len() - 4..])
    );
    assert_eq!(
        shown["record"],
        json!({"id": "ci", "type": "service", "digest": shown["record"]["digest"], "scopes": ["lab:image_read"], "services": ["simulation"], "expiresAt": NOW})
    );
    let personal = new_key(json!({"type": "personal", "id": "alice", "roles": ["lab_user"]}))
        .issue(&RANDOM)
        .unwrap();
    assert_eq!(personal.0.record().expires_at(), None);
}

#[test]
fn a_new_key_refused_names_the_member() {
    let refused = |value: serde_json::Value| new_key(value).issue(&RANDOM).unwrap_err();
    for (options, code, field) in [
        (json!({"id": "x"}), "ERR_INVALID_ARGUMENT", "type"),
        (json!({"type": "service"}), "ERR_INVALID_ARGUMENT", "id"),
        (
            json!({"type": "service", "id": "x", "roles": ["lab_user"]}),
            "ERR_INVALID_ARGUMENT",
            "roles",
        ),
        // `null` is given, and refused on the other key type as an empty list would be.
        (
            json!({"type": "service", "id": "x", "roles": null}),
            "ERR_INVALID_ARGUMENT",
            "roles",
        ),
        (
            json!({"type": "personal", "id": "x", "scopes": []}),
            "ERR_INVALID_ARGUMENT",
            "scopes",
        ),
        (
            json!({"type": "service", "id": "x", "scopes": ["lab:everything"]}),
            "ERR_INVALID_ARGUMENT",
            "scopes[0]",
        ),
        (
            json!({"type": "service", "id": "a b", "scopes": []}),
            "ERR_KEYSTORE_INVALID_ID",
            "keys[0].id",
        ),
    ] {
        let error = refused(options.clone());
        assert_eq!(
            (error.code(), error.field()),
            (code, Some(field)),
            "{options}"
        );
    }
    assert!(serde_json::from_value::<NewKeyOptions>(json!({"type": "admin", "id": "x"})).is_err());
    // Absent is not given: a personal key without roles holds no scope.
    let bare = new_key(json!({"type": "personal", "id": "x", "roles": null}))
        .issue(&RANDOM)
        .unwrap();
    assert!(bare.0.record().scopes().is_empty());
}

#[test]
fn the_store_and_create_api_key_apply_one_rule() {
    // Every case `createApiKey` refuses for its grant, a store record refuses at the same
    // member, with the store's code family.
    let digest = "cd".repeat(32);
    for (grant, api_field, store_code) in [
        (
            json!({"type": "personal", "roles": ["lab_user"], "scopes": []}),
            "scopes",
            "ERR_KEYSTORE_UNEXPECTED_FIELD",
        ),
        (
            json!({"type": "service", "scopes": [], "roles": []}),
            "roles",
            "ERR_KEYSTORE_UNEXPECTED_FIELD",
        ),
        (
            json!({"type": "personal", "roles": ["lab_user", "no_role"]}),
            "roles[1]",
            "ERR_KEYSTORE_UNKNOWN_ROLE",
        ),
        (
            json!({"type": "service", "scopes": ["lab:image_read", "lab_user"]}),
            "scopes[1]",
            "ERR_KEYSTORE_UNKNOWN_SCOPE",
        ),
    ] {
        let mut options = grant.clone();
        options["id"] = json!("x");
        let error = new_key(options).issue(&RANDOM).unwrap_err();
        assert_eq!(
            (error.code(), error.field()),
            ("ERR_INVALID_ARGUMENT", Some(api_field)),
            "{grant}"
        );
        let mut record = grant.clone();
        record["id"] = json!("x");
        record["digest"] = json!(digest);
        record["services"] = json!(["simulation"]);
        let error =
            KeyStore::from_json(json!({"keys": [record]}).to_string().as_bytes()).unwrap_err();
        assert_eq!(error.code(), store_code, "{grant}");
        assert_eq!(
            error.field(),
            Some(format!("keys[0].{api_field}").as_str()),
            "{grant}"
        );
    }
    // The store names the unknown value in its message.
    let record = json!({"id": "x", "type": "personal", "digest": digest, "roles": ["no_role"], "services": []});
    let error = KeyStore::from_json(json!({"keys": [record]}).to_string().as_bytes()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "key store: keys[0].roles[0] names an unknown role \"no_role\""
    );
    // And keeps each role once, where a new key keeps them as given.
    let record = json!({"id": "x", "type": "personal", "digest": digest, "roles": ["lab_user", "lab_user"], "services": []});
    let store = KeyStore::from_json(json!({"keys": [record]}).to_string().as_bytes()).unwrap();
    assert_eq!(
        serde_json::to_value(&store).unwrap()["keys"][0]["roles"],
        json!(["lab_user"])
    );
}

#[test]
fn summaries_dev_keys_and_the_role_table_serialise_as_the_js_shapes() {
    let keys = DevKeys::new(&[1; 32], NOW);
    let value = serde_json::to_value(&keys).unwrap();
    assert_eq!(value["keys"].as_array().unwrap().len(), 12);
    assert_eq!(value["keyStore"]["keys"].as_array().unwrap().len(), 12);
    assert!(value["keyStore"]["keys"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r.get("key").is_none()));
    let first = &keys.keys[0];
    let summary = serde_json::to_value(KeySummary::from(first.key())).unwrap();
    assert_eq!(
        summary,
        json!({"type": "personal", "redacted": first.key().redacted(), "digest": first.record().digest().to_hex()})
    );
    let table = serde_json::to_value(RoleScopes).unwrap();
    assert_eq!(table.as_object().unwrap().len(), 8);
    assert_eq!(table["lab_org_admin"], table["lab_user"]);
    assert_eq!(table["lab_image_sharer"], json!(["lab:image_sharing"]));
}
