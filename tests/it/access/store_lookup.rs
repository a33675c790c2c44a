//! Finding a record by digest: hits and misses (near and far), records found and then refused
//! by their lifecycle, duplicates refused while the index is built, a large store, seeded and
//! derived index keys, and agreement with a linear constant-time scan on random stores.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions may fail loudly too.

use edgeattest::access::{
    authorize, ApiKey, GatewayConfig, GatewayRequest, KeyDigest, KeyRecord, KeyStore,
    KeyStoreError, KeyType, Role, SIMULATION_SERVICE,
};
use edgeattest::{ErrorCode, UnixTime};
use proptest::prelude::*;

const NOW: UnixTime = UnixTime::from_secs(1_800_000_000).unwrap();

fn digest(i: usize) -> KeyDigest {
    KeyDigest::of_key_text(&format!("key-{i}"))
}

fn record(i: usize, digest: KeyDigest) -> KeyRecord {
    KeyRecord::personal(
        format!("k{i}"),
        digest,
        vec![Role::LabUser],
        vec![SIMULATION_SERVICE.into()],
    )
}

fn store(n: usize) -> KeyStore {
    KeyStore::new((0..n).map(|i| record(i, digest(i))).collect()).unwrap()
}

/// The reference: every record compared in constant time, the match kept.
fn scan<'a>(store: &'a KeyStore, digest: &KeyDigest) -> Option<&'a KeyRecord> {
    let mut found = None;
    for record in store.records() {
        if bool::from(record.digest().ct_eq(digest)) {
            found = Some(record);
        }
    }
    found
}

fn flipped(digest: &KeyDigest, byte: usize) -> KeyDigest {
    let mut bytes = *digest.as_bytes();
    bytes[byte] ^= 0x01;
    KeyDigest::from_bytes(bytes)
}

#[test]
fn every_stored_digest_is_found_and_near_and_far_misses_are_not() {
    for n in [0, 1, 2, 12, 300] {
        let store = store(n);
        for i in 0..n {
            assert_eq!(
                store.find(&digest(i)).map(KeyRecord::id),
                Some(&*format!("k{i}"))
            );
            for byte in [0, 15, 31] {
                assert!(
                    store.find(&flipped(&digest(i), byte)).is_none(),
                    "n={n} i={i}"
                );
            }
        }
        assert!(store.find(&digest(n)).is_none());
        assert!(store.find(&KeyDigest::from_bytes([0; 32])).is_none());
    }
    assert!(KeyStore::default().find(&digest(0)).is_none());
}

#[test]
fn a_seeded_store_finds_the_same_records_and_equals_the_derived_one() {
    let derived = store(200);
    let a = derived.clone().with_index_seed(&[1; 32]);
    let b = derived.clone().with_index_seed(&[2; 32]);
    assert_eq!(a, derived);
    assert_eq!(a, b);
    assert_eq!(a.to_json(), derived.to_json());
    for i in 0..210 {
        let expected = derived.find(&digest(i)).map(KeyRecord::id);
        assert_eq!(a.find(&digest(i)).map(KeyRecord::id), expected);
        assert_eq!(b.find(&digest(i)).map(KeyRecord::id), expected);
    }
    // A store read back from its JSON indexes itself again and finds the same records.
    let again = KeyStore::from_json(a.to_json().as_bytes()).unwrap();
    assert_eq!(again.find(&digest(7)).map(KeyRecord::id), Some("k7"));
}

#[test]
fn revoked_and_expired_records_are_found_then_refused() {
    let keys: Vec<ApiKey> = (0..3u8)
        .map(|i| ApiKey::generate(KeyType::Personal, &[i + 1; 32]))
        .collect();
    let past = UnixTime::from_secs(NOW.as_secs() - 1).unwrap();
    let records = vec![
        record(0, keys[0].digest()),
        record(1, keys[1].digest()).with_revocation(past),
        record(2, keys[2].digest()).with_expiry(past),
    ];
    let store = KeyStore::new(records).unwrap().with_index_seed(&[9; 32]);
    let decide = |key: &ApiKey| {
        let header = format!("Bearer {}", key.expose_secret());
        authorize(
            &GatewayRequest {
                method: "GET",
                target: "/api/v3/simulations/",
                authorization: Some(&header),
                headers: &[],
            },
            &store,
            &GatewayConfig::default(),
            NOW,
        )
    };
    let allowed = decide(&keys[0]);
    assert!(allowed.allow);
    for (key, reason, id) in [(&keys[1], "revoked", "k1"), (&keys[2], "expired", "k2")] {
        let decision = decide(key);
        assert!(!decision.allow);
        assert_eq!(decision.status, 401);
        assert_eq!(decision.audit.reason, reason);
        assert_eq!(
            decision.audit.key_id.as_deref(),
            Some(id),
            "found, then refused"
        );
        assert_eq!(decision.code(), Some("ERR_ACCESS_INVALID_TOKEN"));
    }
    let unknown = decide(&ApiKey::generate(KeyType::Personal, &[0x77; 32]));
    assert_eq!(unknown.audit.reason, "unknown_key");
    assert_eq!(unknown.audit.key_id, None);
}

#[test]
fn duplicate_digests_are_refused_and_the_first_problem_in_record_order_wins() {
    let field = |error: KeyStoreError| (error.code(), error.field().map(str::to_owned));
    // The repeated digest at record 3 is reported at record 3.
    let mut records: Vec<KeyRecord> = (0..5).map(|i| record(i, digest(i))).collect();
    records[3] = record(3, digest(1));
    assert_eq!(
        field(KeyStore::new(records.clone()).unwrap_err()),
        (
            "ERR_KEYSTORE_DUPLICATE_DIGEST",
            Some("keys[3].digest".into())
        )
    );
    // An id problem at the same record or earlier comes first; a later one does not.
    let mut same = records.clone();
    same[3] = record(1, digest(1));
    assert_eq!(
        field(KeyStore::new(same).unwrap_err()),
        ("ERR_KEYSTORE_DUPLICATE_ID", Some("keys[3].id".into()))
    );
    let mut earlier = records.clone();
    earlier[2] = KeyRecord::personal("bad id", digest(2), vec![], vec![]);
    assert_eq!(
        field(KeyStore::new(earlier).unwrap_err()),
        ("ERR_KEYSTORE_INVALID_ID", Some("keys[2].id".into()))
    );
    let mut later = records;
    later[4] = record(0, digest(4));
    assert_eq!(
        field(KeyStore::new(later).unwrap_err()),
        (
            "ERR_KEYSTORE_DUPLICATE_DIGEST",
            Some("keys[3].digest".into())
        )
    );
}

#[test]
fn a_store_of_100_000_keys_finds_every_thousandth_and_misses_the_rest() {
    let n = 100_000;
    let store = store(n).with_index_seed(&[0x5A; 32]);
    for i in (0..n).step_by(1000) {
        let found = store.find(&digest(i)).unwrap();
        assert_eq!(found.id(), format!("k{i}"));
        assert_eq!(found.digest(), &digest(i));
        assert!(store.find(&flipped(&digest(i), 31)).is_none());
        assert!(store.find(&flipped(&digest(i), 0)).is_none());
        assert!(store.find(&digest(n + i)).is_none());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn lookups_agree_with_a_linear_constant_time_scan(
        stored in proptest::collection::btree_set(any::<[u8; 32]>(), 0..200),
        absent in proptest::collection::vec(any::<[u8; 32]>(), 0..20),
        flips in proptest::collection::vec((0usize..32, 1u8..=255), 0..20),
        seed in proptest::option::of(any::<[u8; 32]>()),
    ) {
        let digests: Vec<KeyDigest> = stored.into_iter().map(KeyDigest::from_bytes).collect();
        let records = digests.iter().enumerate().map(|(i, d)| record(i, *d)).collect();
        let mut store = KeyStore::new(records).unwrap();
        if let Some(seed) = seed {
            store = store.with_index_seed(&seed);
        }
        let near = digests.iter().zip(&flips).map(|(d, (byte, bits))| {
            let mut bytes = *d.as_bytes();
            bytes[*byte] ^= bits;
            KeyDigest::from_bytes(bytes)
        });
        let probes: Vec<KeyDigest> = digests
            .iter()
            .copied()
            .chain(absent.into_iter().map(KeyDigest::from_bytes))
            .chain(near)
            .collect();
        for probe in &probes {
            prop_assert_eq!(
                store.find(probe).map(KeyRecord::id),
                scan(&store, probe).map(KeyRecord::id)
            );
        }
        for (i, d) in digests.iter().enumerate() {
            let expected = format!("k{i}");
            prop_assert_eq!(store.find(d).map(KeyRecord::id), Some(expected.as_str()));
        }
    }
}
