//! Resource limits (issue 11) of access control and the service: bearer headers, gateway
//! paths, key stores, the service's body. As in `tests/it/hardening/limits.rs`, each cap is
//! shown to be enforced before the work it protects.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::attest::MAX_BODY_BYTES;
use edgeattest::chain::TrustStore;
use edgeattest::rim::RimTrust;
use edgeattest::ErrorCode;
use edgeattest::UnixTime;

const NOW: UnixTime = UnixTime::from_secs(1_782_734_400).unwrap();

fn device_store() -> TrustStore {
    TrustStore::nvidia_device_identity().unwrap()
}

// ---- access (bearer headers, paths, key stores) and the service -------------------------

#[test]
fn authorization_header_cap_comes_before_reading_it() {
    use edgeattest::access::{bearer_token, CredentialError, Malformation, MAX_AUTHORIZATION_LEN};
    // Non-ASCII throughout: reading it would report NotVisibleAscii.
    let long = "é".repeat(MAX_AUTHORIZATION_LEN / 2 + 1);
    assert_eq!(
        bearer_token(Some(&long), None),
        Err(CredentialError::Malformed(Malformation::TooLong))
    );
    let short = "é".repeat(MAX_AUTHORIZATION_LEN / 2);
    assert_eq!(
        bearer_token(Some(&short), None),
        Err(CredentialError::Malformed(Malformation::NotVisibleAscii))
    );
}

#[test]
fn path_cap_comes_before_reading_the_path() {
    use edgeattest::access::{CanonicalPath, PathError, MAX_PATH_LEN};
    // Not absolute and full of forbidden bytes: reading it would say so.
    let long = "\u{1}".repeat(MAX_PATH_LEN + 1);
    assert_eq!(CanonicalPath::parse(&long), Err(PathError::TooLong));
    let at_cap = "\u{1}".repeat(MAX_PATH_LEN);
    assert_eq!(CanonicalPath::parse(&at_cap), Err(PathError::NotAbsolute));
}

#[test]
fn key_id_cap() {
    use edgeattest::access::{KeyStore, MAX_KEY_ID_LEN};
    let store = |id: &str| {
        let json = serde_json::json!({ "keys": [{
            "id": id, "type": "service", "digest": "ab".repeat(32),
            "scopes": ["lab:image_read"], "services": ["simulation"],
        }]});
        KeyStore::from_json(json.to_string().as_bytes())
    };
    assert!(store(&"k".repeat(MAX_KEY_ID_LEN)).is_ok());
    let error = store(&"k".repeat(MAX_KEY_ID_LEN + 1)).unwrap_err();
    assert_eq!(error.code(), "ERR_KEYSTORE_INVALID_ID");
}

#[test]
fn service_body_cap_comes_before_reading_the_body() {
    use edgeattest::service::{KeyRing, Request, Service, ServiceConfig};
    let service = Service::new(
        ServiceConfig::default(),
        KeyRing::new(
            edgeattest::crypto::SigningKey::generate(&[9u8; 48]).unwrap(),
            Some("k".into()),
        ),
        device_store(),
        RimTrust::nvidia(),
        1,
    );
    // A declared length over the cap is refused from the header alone (413), whatever the
    // body holds (here: not JSON).
    let request = Request::new("POST", "/v4/attest/gpu")
        .header("content-length", &(MAX_BODY_BYTES + 1).to_string())
        .body(b"not json".to_vec());
    let response = service.handle(&request, NOW, [0; 32]);
    assert_eq!(response.status, 413);
    let body: serde_json::Value = serde_json::from_slice(&response.body).unwrap();
    assert_eq!(body["code"], "ERR_REQUEST_TOO_LARGE");
    // An actual body over the cap without a declared length: the same.
    let request = Request::new("POST", "/v4/attest/gpu").body(vec![b'x'; MAX_BODY_BYTES + 1]);
    assert_eq!(service.handle(&request, NOW, [0; 32]).status, 413);
    // Within the cap, the body is read (and refused as JSON: 400).
    let request = Request::new("POST", "/v4/attest/gpu").body(b"not json".to_vec());
    assert_eq!(service.handle(&request, NOW, [0; 32]).status, 400);
}

fn key_record(id: &str) -> serde_json::Value {
    serde_json::json!({
        "id": id, "type": "service",
        // Distinct per id: the digests of a store must differ.
        "digest": edgeattest::access::KeyDigest::of_key_text(id).to_hex(),
        "scopes": ["lab:image_read"], "services": ["simulation"],
    })
}

#[test]
fn key_store_bytes_cap_comes_before_json_parsing() {
    use edgeattest::access::{KeyStore, KeyStoreError, MAX_KEYSTORE_BYTES};
    // Not JSON: parsing would report ERR_KEYSTORE_MALFORMED_JSON.
    let text = vec![b'x'; MAX_KEYSTORE_BYTES + 1];
    let error = KeyStore::from_json(&text).unwrap_err();
    assert_eq!(
        error,
        KeyStoreError::TooLarge {
            size: MAX_KEYSTORE_BYTES + 1
        }
    );
    assert_eq!(error.code(), "ERR_KEYSTORE_TOO_LARGE");
    assert_eq!(error.field(), None);
    let error = KeyStore::from_json(&text[..MAX_KEYSTORE_BYTES]).unwrap_err();
    assert_eq!(error.code(), "ERR_KEYSTORE_MALFORMED_JSON");
    // A valid store padded with whitespace to exactly the cap is read.
    let mut json = serde_json::json!({ "keys": [key_record("a")] }).to_string();
    json.push_str(&" ".repeat(MAX_KEYSTORE_BYTES - json.len()));
    assert_eq!(
        KeyStore::from_json(json.as_bytes())
            .unwrap()
            .records()
            .len(),
        1
    );
}

#[test]
fn key_store_record_count_cap_comes_before_any_record_is_read() {
    use edgeattest::access::{KeyStore, MAX_KEYS};
    // Records that are not objects: reading the first would report ERR_KEYSTORE_WRONG_TYPE.
    let json = format!("{{\"keys\":[{}0]}}", "0,".repeat(MAX_KEYS));
    let error = KeyStore::from_json(json.as_bytes()).unwrap_err();
    assert_eq!(error.code(), "ERR_KEYSTORE_TOO_MANY_KEYS");
    assert_eq!(error.field(), Some("keys"));
    assert!(
        error.to_string().contains(&(MAX_KEYS + 1).to_string()),
        "{error}"
    );
    // MAX_KEYS real records are accepted, and the text stays under the byte cap.
    let keys: Vec<_> = (0..MAX_KEYS)
        .map(|i| key_record(&format!("k{i}")))
        .collect();
    let json = serde_json::json!({ "keys": keys }).to_string();
    assert!(json.len() <= edgeattest::access::MAX_KEYSTORE_BYTES);
    assert_eq!(
        KeyStore::from_json(json.as_bytes())
            .unwrap()
            .records()
            .len(),
        MAX_KEYS
    );
}

#[test]
fn key_store_string_cap_comes_before_the_name_is_looked_up() {
    use edgeattest::access::{KeyStore, KeyStoreError, MAX_KEYSTORE_STRING_LEN};
    let over = "x".repeat(MAX_KEYSTORE_STRING_LEN + 1);
    let at_cap = "x".repeat(MAX_KEYSTORE_STRING_LEN);
    let digest = "ab".repeat(32);
    // (member, record with the long string there, the error at the cap: the lookup's own)
    let record = |member: &str, value: &str| {
        let mut record = serde_json::json!({
            "id": "a", "type": "personal", "digest": digest,
            "roles": ["lab_user"], "services": ["simulation"],
        });
        match member {
            "roles" | "services" => record[member] = serde_json::json!([value]),
            _ => record[member] = serde_json::json!(value),
        }
        serde_json::json!({ "keys": [record] }).to_string()
    };
    for (member, field, code_at_cap) in [
        ("type", "keys[0].type", "ERR_KEYSTORE_UNKNOWN_KEY_TYPE"),
        ("digest", "keys[0].digest", "ERR_KEYSTORE_INVALID_DIGEST"),
        ("roles", "keys[0].roles[0]", "ERR_KEYSTORE_UNKNOWN_ROLE"),
    ] {
        let error = KeyStore::from_json(record(member, &over).as_bytes()).unwrap_err();
        assert_eq!(
            error,
            KeyStoreError::StringTooLong {
                field: field.into(),
                max: MAX_KEYSTORE_STRING_LEN
            }
        );
        assert_eq!(error.code(), "ERR_KEYSTORE_STRING_TOO_LONG");
        let error = KeyStore::from_json(record(member, &at_cap).as_bytes()).unwrap_err();
        assert_eq!(error.code(), code_at_cap, "{member}");
    }
    // Service names are free text: at the cap one is accepted, over it refused.
    assert!(KeyStore::from_json(record("services", &at_cap).as_bytes()).is_ok());
    let error = KeyStore::from_json(record("services", &over).as_bytes()).unwrap_err();
    assert_eq!(error.code(), "ERR_KEYSTORE_STRING_TOO_LONG");
    assert_eq!(error.field(), Some("keys[0].services[0]"));
    // A long id stops the record before its other members are read (here a bad type).
    let mut bad = serde_json::json!({ "keys": [{ "id": over, "type": "nope" }] });
    let error = KeyStore::from_json(bad.to_string().as_bytes()).unwrap_err();
    assert_eq!(error.code(), "ERR_KEYSTORE_INVALID_ID");
    bad["keys"][0]["id"] = "a".into();
    let error = KeyStore::from_json(bad.to_string().as_bytes()).unwrap_err();
    assert_eq!(error.code(), "ERR_KEYSTORE_UNKNOWN_KEY_TYPE");
}

#[test]
fn key_store_list_cap_comes_before_any_item_is_read() {
    use edgeattest::access::{KeyStore, MAX_KEYSTORE_LIST_LEN};
    let digest = "ab".repeat(32);
    // Items that are not strings: reading the first would report ERR_KEYSTORE_WRONG_TYPE.
    for (kind, member) in [
        ("personal", "roles"),
        ("service", "scopes"),
        ("service", "services"),
    ] {
        let mut record = serde_json::json!({
            "id": "a", "type": kind, "digest": digest, "services": [],
        });
        record[if kind == "personal" {
            "roles"
        } else {
            "scopes"
        }] = serde_json::json!([]);
        record[member] = serde_json::json!(vec![0; MAX_KEYSTORE_LIST_LEN + 1]);
        let json = serde_json::json!({ "keys": [record.clone()] }).to_string();
        let error = KeyStore::from_json(json.as_bytes()).unwrap_err();
        assert_eq!(error.code(), "ERR_KEYSTORE_TOO_MANY_ITEMS", "{member}");
        assert_eq!(error.field(), Some(format!("keys[0].{member}").as_str()));
        record[member] = serde_json::json!(vec![0; MAX_KEYSTORE_LIST_LEN]);
        let json = serde_json::json!({ "keys": [record] }).to_string();
        let error = KeyStore::from_json(json.as_bytes()).unwrap_err();
        assert_eq!(error.code(), "ERR_KEYSTORE_WRONG_TYPE", "{member}");
    }
    // At the cap, a real list (one role repeated) is read.
    let roles = vec!["lab_user"; MAX_KEYSTORE_LIST_LEN];
    let json = serde_json::json!({ "keys": [{
        "id": "a", "type": "personal", "digest": digest, "roles": roles, "services": [],
    }]});
    assert!(KeyStore::from_json(json.to_string().as_bytes()).is_ok());
}
