//! The key format and checksum, digests, key records and the key-store configuration.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions may fail loudly too.

use edgeattest::access::{
    dev_key_set, store_of, ApiKey, IssuedKey, KeyDigest, KeyFormatError, KeyRecord, KeyStatus,
    KeyStore, KeyStoreError, KeyType, Role, Scope, ScopeSet, KEY_LEN, SIMULATION_SERVICE,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use sha2::{Digest, Sha256};

const BASE62: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

#[test]
fn generated_keys_have_the_documented_shape() {
    let personal = ApiKey::generate(KeyType::Personal, &[0; 32]);
    let text = personal.expose_secret();
    assert_eq!(text.len(), KEY_LEN);
    assert_eq!(KEY_LEN, 58);
    let parts: Vec<&str> = text.split('_').collect();
    assert_eq!(parts.len(), 4, "{text}");
    assert_eq!(parts[0], "eak");
    assert_eq!(parts[1], "per");
    // 32 zero bytes are the number 0: 43 zero digits.
    assert_eq!(parts[2], "0".repeat(43));
    assert_eq!(parts[3].len(), 6);
    assert!(parts[3].bytes().all(|b| b.is_ascii_alphanumeric()));

    let service = ApiKey::generate(KeyType::Service, &[0xA5; 32]);
    assert!(service.expose_secret().starts_with("eak_svc_"));
    assert_eq!(ApiKey::parse(service.expose_secret()).unwrap(), service);
    assert_eq!(ApiKey::parse(text).unwrap().key_type(), KeyType::Personal);
}

#[test]
fn the_checksum_is_crc32_of_the_text_before_it_in_base62() {
    let key = ApiKey::generate(KeyType::Service, &[0x11; 32]);
    let text = key.expose_secret();
    let (body, checksum) = text.rsplit_once('_').unwrap();
    // Independent CRC-32 (ISO-HDLC) and base62 implementation.
    let mut crc = 0xFFFF_FFFFu32;
    for byte in body.bytes() {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    let mut value = u64::from(!crc);
    let mut digits = Vec::new();
    for _ in 0..6 {
        digits.push(BASE62.as_bytes()[(value % 62) as usize]);
        value /= 62;
    }
    digits.reverse();
    assert_eq!(checksum.as_bytes(), digits.as_slice());
}

#[test]
fn random_part_is_the_bytes_in_base62() {
    // 32 bytes holding the number 61 → 42 zeros then "z"; 62 → "10".
    let mut bytes = [0u8; 32];
    bytes[31] = 61;
    let key = ApiKey::generate(KeyType::Personal, &bytes);
    assert_eq!(&key.expose_secret()[8..51], format!("{}z", "0".repeat(42)));
    bytes[31] = 62;
    let key = ApiKey::generate(KeyType::Personal, &bytes);
    assert_eq!(&key.expose_secret()[8..51], format!("{}10", "0".repeat(41)));
}

#[test]
fn every_single_character_typo_is_rejected_offline() {
    let key = ApiKey::generate(KeyType::Personal, &[0x3C; 32]);
    let text = key.expose_secret();
    let mut checked = 0;
    for position in 8..text.len() {
        if text.as_bytes()[position] == b'_' {
            continue;
        }
        for replacement in BASE62.chars() {
            if replacement == char::from(text.as_bytes()[position]) {
                continue;
            }
            let mut typo = text.to_owned();
            typo.replace_range(position..=position, &replacement.to_string());
            assert_eq!(
                ApiKey::parse(&typo),
                Err(KeyFormatError::Checksum),
                "{typo}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, (43 + 6) * 61);
}

#[test]
fn adjacent_transpositions_are_rejected() {
    let key = ApiKey::generate(KeyType::Service, &[0x77; 32]);
    let text = key.expose_secret().as_bytes().to_vec();
    for i in 8..text.len() - 1 {
        if text[i] == text[i + 1] || text[i] == b'_' || text[i + 1] == b'_' {
            continue;
        }
        let mut swapped = text.clone();
        swapped.swap(i, i + 1);
        let swapped = String::from_utf8(swapped).unwrap();
        assert!(ApiKey::parse(&swapped).is_err(), "{swapped}");
    }
}

#[test]
fn malformed_keys_name_their_problem() {
    let good = ApiKey::generate(KeyType::Personal, &[1; 32]);
    let text = good.expose_secret();
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "ERR_KEY_LENGTH"),
        (text[..KEY_LEN - 1].to_owned(), "ERR_KEY_LENGTH"),
        (format!("{text}0"), "ERR_KEY_LENGTH"),
        (text.replacen("eak_", "eax_", 1), "ERR_KEY_PREFIX"),
        (text.replacen("eak_per_", "eak_adm_", 1), "ERR_KEY_TYPE"),
        (text.replacen("eak_per_", "eak_PER_", 1), "ERR_KEY_TYPE"),
        (text.replacen("eak_per_", "eak_per-", 1), "ERR_KEY_TYPE"),
        (
            format!("{}-{}", &text[..51], &text[52..]),
            "ERR_KEY_CHARSET",
        ),
        (
            format!("{}+{}", &text[..20], &text[21..]),
            "ERR_KEY_CHARSET",
        ),
        (
            format!("{}é{}", &text[..20], &text[22..]),
            "ERR_KEY_CHARSET",
        ),
        ("nvapi-".to_owned() + &"a".repeat(52), "ERR_KEY_PREFIX"),
    ];
    for (input, code) in cases {
        let error = ApiKey::parse(&input).unwrap_err();
        assert_eq!(error.code(), code, "{input:?}: {error}");
        assert!(!error.to_string().is_empty());
    }
}

#[test]
fn the_secret_never_shows_in_debug_or_redacted_form() {
    let key = ApiKey::generate(KeyType::Service, &[0xEE; 32]);
    let secret = key.expose_secret();
    let random_part = &secret[8..51];
    let debug = format!("{key:?}");
    assert!(!debug.contains(random_part), "{debug}");
    let redacted = key.redacted();
    assert!(redacted.starts_with("eak_svc_…"));
    assert!(secret.ends_with(&redacted["eak_svc_…".len()..]));
    assert!(!redacted.contains(random_part));
    let issued = IssuedKey::service("x", ScopeSet::EMPTY, vec![], &[0xEE; 32]);
    assert!(!format!("{issued:?}").contains(random_part));
    let digest = key.digest();
    assert!(!format!("{digest:?}").contains(&digest.to_hex()));
}

#[test]
fn the_digest_is_sha256_of_the_key_text() {
    let key = ApiKey::generate(KeyType::Personal, &[5; 32]);
    let expected: [u8; 32] = Sha256::digest(key.expose_secret().as_bytes()).into();
    assert_eq!(key.digest().as_bytes(), &expected);
    assert_eq!(
        KeyDigest::from_hex(&hex::encode(expected)),
        Some(key.digest())
    );
}

#[test]
fn records_expire_and_are_revoked_at_the_exact_instant() {
    let digest = KeyDigest::of_key_text("k");
    let record = KeyRecord::personal("a", digest, vec![Role::LabUser], vec!["simulation".into()])
        .with_expiry(at(1000));
    assert_eq!(record.status(at(999)), KeyStatus::Active);
    assert_eq!(record.status(at(1000)), KeyStatus::Expired);
    let revoked = record.clone().with_revocation(at(500));
    assert_eq!(revoked.status(at(499)), KeyStatus::Active);
    assert_eq!(revoked.status(at(500)), KeyStatus::Revoked);
    // Revocation wins over expiry.
    assert_eq!(revoked.status(at(2000)), KeyStatus::Revoked);
}

#[test]
fn a_key_grants_nothing_on_a_service_it_was_not_issued_for() {
    let digest = KeyDigest::of_key_text("k");
    let record = KeyRecord::service(
        "a",
        digest,
        Scope::ALL.into_iter().collect(),
        vec!["attestation".into()],
    );
    assert_eq!(record.scopes().len(), 13);
    assert!(record.scopes_for(SIMULATION_SERVICE).is_empty());
    assert!(!record.issued_for("Simulation"));
}

fn digest_hex(seed: u8) -> String {
    ApiKey::generate(KeyType::Personal, &[seed; 32])
        .digest()
        .to_hex()
}

#[test]
fn key_store_json_round_trips() {
    let json = format!(
        r#"{{"keys":[
          {{"id":"alice","type":"personal","digest":"{}","roles":["lab_user","lab_image_sharer"],"services":["simulation"],"expiresAt":2000000000}},
          {{"id":"ci.nightly","type":"service","digest":"{}","scopes":["lab:image_read","lab:simulation_read"],"services":["simulation","other"],"revokedAt":1900000000}}
        ]}}"#,
        digest_hex(1),
        digest_hex(2)
    );
    let store = KeyStore::from_json(json.as_bytes()).unwrap();
    let records = store.records();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].key_type(), KeyType::Personal);
    assert!(records[0].scopes().contains(Scope::ImageSharing));
    assert_eq!(records[0].expires_at(), Some(at(2_000_000_000)));
    assert_eq!(
        records[1].scopes(),
        ScopeSet::of(&[Scope::SimulationRead, Scope::ImageRead])
    );
    assert_eq!(records[1].revoked_at(), Some(at(1_900_000_000)));
    let again = KeyStore::from_json(store.to_json().as_bytes()).unwrap();
    assert_eq!(again, store);
    assert!(store
        .to_json()
        .contains(r#""scopes":["lab:simulation_read","lab:image_read"]"#));
}

#[test]
fn key_store_errors_name_the_member() {
    let d = digest_hex(1);
    let d2 = digest_hex(2);
    let personal = |extra: &str| {
        format!(
            r#"{{"keys":[{{"id":"a","type":"personal","digest":"{d}","roles":["lab_user"],"services":["simulation"]{extra}}}]}}"#
        )
    };
    let cases: Vec<(String, &str, Option<&str>)> = vec![
        ("[]".into(), "ERR_KEYSTORE_WRONG_TYPE", Some("$")),
        ("{}".into(), "ERR_KEYSTORE_MISSING_FIELD", Some("keys")),
        (
            r#"{"keys":[],"keys":[]}"#.into(),
            "ERR_KEYSTORE_DUPLICATE_MEMBER",
            Some("keys"),
        ),
        ("{".into(), "ERR_KEYSTORE_MALFORMED_JSON", None),
        (
            r#"{"keys":[],"extra":1}"#.into(),
            "ERR_KEYSTORE_UNEXPECTED_FIELD",
            Some("extra"),
        ),
        (
            personal(r#","scopes":["lab:image_read"]"#),
            "ERR_KEYSTORE_UNEXPECTED_FIELD",
            Some("keys[0].scopes"),
        ),
        (
            personal(r#","expiresAt":"tomorrow""#),
            "ERR_KEYSTORE_WRONG_TYPE",
            Some("keys[0].expiresAt"),
        ),
        (
            personal(r#","expiresAt":-1"#),
            "ERR_KEYSTORE_WRONG_TYPE",
            Some("keys[0].expiresAt"),
        ),
        (
            personal(r#","note":"x""#),
            "ERR_KEYSTORE_UNEXPECTED_FIELD",
            Some("keys[0].note"),
        ),
        (
            format!(
                r#"{{"keys":[{{"id":"a","type":"service","digest":"{d}","scopes":["lab:image_read"],"roles":["lab_user"],"services":["simulation"]}}]}}"#
            ),
            "ERR_KEYSTORE_UNEXPECTED_FIELD",
            Some("keys[0].roles"),
        ),
        (
            format!(
                r#"{{"keys":[{{"id":"a","type":"service","digest":"{d}","scopes":["lab:image_read","lab:image_delete"],"services":["simulation"]}}]}}"#
            ),
            "ERR_KEYSTORE_UNKNOWN_SCOPE",
            Some("keys[0].scopes[1]"),
        ),
        (
            format!(
                r#"{{"keys":[{{"id":"a","type":"personal","digest":"{d}","roles":["LAB_USER"],"services":["simulation"]}}]}}"#
            ),
            "ERR_KEYSTORE_UNKNOWN_ROLE",
            Some("keys[0].roles[0]"),
        ),
        (
            format!(r#"{{"keys":[{{"id":"a","type":"admin","digest":"{d}","services":[]}}]}}"#),
            "ERR_KEYSTORE_UNKNOWN_KEY_TYPE",
            Some("keys[0].type"),
        ),
        (
            r#"{"keys":[{"id":"a","type":"personal","digest":"abc","roles":[],"services":[]}]}"#
                .into(),
            "ERR_KEYSTORE_INVALID_DIGEST",
            Some("keys[0].digest"),
        ),
        (
            format!(
                r#"{{"keys":[{{"id":"a b","type":"personal","digest":"{d}","roles":[],"services":[]}}]}}"#
            ),
            "ERR_KEYSTORE_INVALID_ID",
            Some("keys[0].id"),
        ),
        (
            format!(r#"{{"keys":[{{"id":"a","type":"personal","digest":"{d}","roles":[]}}]}}"#),
            "ERR_KEYSTORE_MISSING_FIELD",
            Some("keys[0].services"),
        ),
        (
            format!(
                r#"{{"keys":[{{"id":"a","type":"personal","digest":"{d}","roles":[],"services":[1]}}]}}"#
            ),
            "ERR_KEYSTORE_WRONG_TYPE",
            Some("keys[0].services[0]"),
        ),
        (
            format!(
                r#"{{"keys":[{{"id":"a","type":"personal","digest":"{d}","roles":[],"services":[]}},{{"id":"a","type":"personal","digest":"{d2}","roles":[],"services":[]}}]}}"#
            ),
            "ERR_KEYSTORE_DUPLICATE_ID",
            Some("keys[1].id"),
        ),
        (
            format!(
                r#"{{"keys":[{{"id":"a","type":"personal","digest":"{d}","roles":[],"services":[]}},{{"id":"b","type":"service","digest":"{}","scopes":[],"services":[]}}]}}"#,
                d.to_uppercase()
            ),
            "ERR_KEYSTORE_DUPLICATE_DIGEST",
            Some("keys[1].digest"),
        ),
    ];
    for (json, code, field) in cases {
        let error = KeyStore::from_json(json.as_bytes()).unwrap_err();
        assert_eq!(error.code(), code, "{json}: {error}");
        assert_eq!(error.field(), field, "{json}");
        assert!(!error.to_string().is_empty());
    }
    assert!(matches!(
        KeyStore::from_json(b"{}"),
        Err(KeyStoreError::MissingField { .. })
    ));
}

#[test]
fn the_dev_key_set_has_one_key_per_role_and_four_service_keys() {
    let keys = dev_key_set(&[3; 32], at(1_000));
    assert_eq!(keys.len(), 12);
    for role in Role::ALL {
        let key = keys
            .iter()
            .find(|k| k.record().id() == format!("dev-{role}"))
            .unwrap();
        assert_eq!(key.record().key_type(), KeyType::Personal);
        assert_eq!(key.record().scopes(), role.scopes());
        assert!(key.key().expose_secret().starts_with("eak_per_"));
    }
    let services: Vec<_> = keys
        .iter()
        .filter(|k| k.record().key_type() == KeyType::Service)
        .collect();
    assert_eq!(services.len(), 4);
    for key in &keys {
        assert_eq!(key.record().expires_at(), Some(at(1_000 + 30 * 86_400)));
        assert_eq!(
            ApiKey::parse(key.key().expose_secret()).unwrap(),
            *key.key()
        );
    }
    // Same seed, same keys; another seed, other keys.
    assert_eq!(dev_key_set(&[3; 32], at(1_000)), keys);
    let other = dev_key_set(&[4; 32], at(1_000));
    assert!(keys
        .iter()
        .zip(&other)
        .all(|(a, b)| a.key().expose_secret() != b.key().expose_secret()));
    let store = store_of(&keys).unwrap();
    for key in &keys {
        assert_eq!(
            store.find(&key.key().digest()).unwrap().id(),
            key.record().id()
        );
    }
    // The printable form carries the secret and the scopes.
    let printed = serde_json::to_value(&keys[0]).unwrap();
    assert_eq!(printed["key"], keys[0].key().expose_secret());
    assert_eq!(printed["roles"], serde_json::json!(["lab_user"]));
    assert!(printed["scopes"].as_array().unwrap().len() == 7);
}

fn at(secs: u64) -> UnixTime {
    UnixTime::from_secs(secs).unwrap()
}
