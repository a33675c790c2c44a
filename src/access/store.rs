//! A set of key records, read from configuration JSON and found by digest through a
//! secret-keyed index, with one constant-time comparison (the rule: [`super::index`]).
//!
//! The configuration form:
//!
//! ```json
//! {"keys": [
//!   {"id": "ci-nightly", "type": "service", "digest": "<64 hex: SHA-256 of the key text>",
//!    "scopes": ["lab:simulation_read"], "services": ["simulation"],
//!    "expiresAt": 1798761600, "revokedAt": 1790000000},
//!   {"id": "alice", "type": "personal", "digest": "…", "roles": ["lab_user"],
//!    "services": ["simulation"]}
//! ]}
//! ```
//!
//! Personal records carry `roles` and never `scopes`; service records carry `scopes` and
//! never `roles`, so a service key cannot be widened by roles. Times are Unix seconds.
//! Unknown members, roles and scopes are errors rather than ignored: a typo in a scope name
//! must not silently shrink or widen a grant.
//!
//! Limits, each checked before the work it protects: the text at most
//! [`MAX_KEYSTORE_BYTES`] (before JSON parsing), at most [`MAX_KEYS`] records (before any
//! record is read), ids at most [`MAX_KEY_ID_LEN`] bytes, every other string at most
//! [`MAX_KEYSTORE_STRING_LEN`] and every `roles` / `scopes` / `services` list at most
//! [`MAX_KEYSTORE_LIST_LEN`] items (before the names are looked up). The gateway may parse
//! the store on every request (`gatewayDecision` in JS), so its cost must stay bounded.
//!
//! A lookup costs the same whatever the number of records: one keyed SHA-256 block, a probe
//! or two of a hash table and one 32-byte constant-time comparison. Building the index is
//! linear in the records. The index key comes from the host's randomness when it passes a
//! seed ([`KeyStore::with_index_seed`]), otherwise from the stored digests themselves; both
//! are safe, and why is the index module's rule.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::{Map, Value};

use super::digest::KeyDigest;
use super::error::KeyStoreError;
use super::index::{DigestIndex, IndexKey};
use super::key::KeyType;
use super::key_request::{KeyRequest, KeyRequestError};
use super::limits::{
    MAX_KEYS, MAX_KEYSTORE_BYTES, MAX_KEYSTORE_LIST_LEN, MAX_KEYSTORE_STRING_LEN, MAX_KEY_ID_LEN,
};
use super::record::Grant;
use super::record::KeyRecord;
use crate::error_code::ErrorCode;
use crate::time::UnixTime;

/// Key records, found by digest.
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "KeyStoreJson"))]
pub struct KeyStore {
    #[cfg_attr(feature = "ts", ts(type = "KeyRecord[]"))]
    keys: Vec<KeyRecord>,
    #[serde(skip)]
    index: DigestIndex,
}

impl KeyStore {
    /// A store of `records`, its index keyed by a digest of their digests (see
    /// [`Self::with_index_seed`] for a key from the host's randomness). The host builds these
    /// itself, so no count cap applies here ([`MAX_KEYS`] is for configuration text); ids are
    /// checked in O(n log n), digests while the index is built, in O(n).
    ///
    /// # Errors
    /// The first problem in record order: [`KeyStoreError::InvalidId`],
    /// [`KeyStoreError::DuplicateId`] or [`KeyStoreError::DuplicateDigest`].
    pub fn new(records: Vec<KeyRecord>) -> Result<Self, KeyStoreError> {
        let key = IndexKey::derived(records.iter().map(KeyRecord::digest));
        let index = DigestIndex::build(key, &records);
        // An id problem is reported when its record comes no later than the first repeated
        // digest (a record's id is checked before its digest).
        let repeated = index.as_ref().err().copied().unwrap_or(usize::MAX);
        if let Some(error) = first_id_problem(&records, repeated) {
            return Err(error);
        }
        match index {
            Ok(index) => Ok(Self {
                keys: records,
                index,
            }),
            Err(position) => Err(KeyStoreError::DuplicateDigest {
                field: format!("keys[{position}].digest"),
            }),
        }
    }

    /// The store with its index rebuilt under a key drawn from `seed`: 32 bytes of the host's
    /// randomness, drawn once per store. The index key decides where each digest sits in the
    /// index, so a key no one else can compute keeps those positions unpredictable even to
    /// someone who has read the stored digests. Lookups find the same records either way.
    #[must_use]
    pub fn with_index_seed(mut self, seed: &[u8; 32]) -> Self {
        // The digests were found distinct when the store was built: no refusal is possible.
        if let Ok(index) = DigestIndex::build(IndexKey::from_seed(seed), &self.keys) {
            self.index = index;
        }
        self
    }

    /// Reads the configuration JSON described in the module documentation, strictly.
    ///
    /// # Errors
    /// The first problem found, naming its member (`keys[2].scopes[0]`); the limits of the
    /// module documentation first.
    pub fn from_json(json: &[u8]) -> Result<Self, KeyStoreError> {
        if json.len() > MAX_KEYSTORE_BYTES {
            return Err(KeyStoreError::TooLarge { size: json.len() });
        }
        let value = crate::json::parse(json).map_err(KeyStoreError::Json)?;
        let root = value.as_object().ok_or_else(|| KeyStoreError::WrongType {
            field: "$".into(),
            expected: "object",
        })?;
        reject_unknown(root, &["keys"], "")?;
        let keys = root
            .get("keys")
            .ok_or_else(|| KeyStoreError::MissingField {
                field: "keys".into(),
            })?
            .as_array()
            .ok_or_else(|| KeyStoreError::WrongType {
                field: "keys".into(),
                expected: "array",
            })?;
        if keys.len() > MAX_KEYS {
            return Err(KeyStoreError::TooManyKeys { count: keys.len() });
        }
        let records = keys
            .iter()
            .enumerate()
            .map(|(i, item)| record_from_json(item, &format!("keys[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        Self::new(records)
    }

    /// The configuration JSON of the store (round-trips through [`Self::from_json`]).
    pub fn to_json(&self) -> String {
        crate::json::write::to_string(self).unwrap_or_default()
    }

    /// The records.
    pub fn records(&self) -> &[KeyRecord] {
        &self.keys
    }

    /// The record whose digest equals `digest`.
    ///
    /// The index narrows the search to one candidate by a secret-keyed digest of `digest`,
    /// and that candidate (or, on a miss, a decoy record) is compared over all 32 bytes in
    /// constant time: the time taken does not grow with the number of records, and neither
    /// where the search goes nor the comparison depends on how many bytes a wrong digest
    /// shares with a stored one (`cargo bench --bench access` measures both).
    pub fn find(&self, digest: &KeyDigest) -> Option<&KeyRecord> {
        self.find_observed(digest, |_, _| {})
    }

    /// [`Self::find`], telling `observe(record, byte)` of every byte comparison.
    pub(crate) fn find_observed(
        &self,
        digest: &KeyDigest,
        observe: impl FnMut(usize, usize),
    ) -> Option<&KeyRecord> {
        let position = self.index.find(&self.keys, digest, observe)?;
        self.keys.get(position)
    }
}

/// Two stores are equal when their records are: the index key is not part of what a store
/// holds, only of how it finds them.
impl PartialEq for KeyStore {
    fn eq(&self, other: &Self) -> bool {
        self.keys == other.keys
    }
}

impl Eq for KeyStore {}

/// The first invalid or repeated id among the records before position `end` (inclusive).
fn first_id_problem(records: &[KeyRecord], end: usize) -> Option<KeyStoreError> {
    let mut ids = BTreeSet::new();
    for (i, record) in records.iter().enumerate().take(end.saturating_add(1)) {
        let field = || format!("keys[{i}].id");
        if let Err(error) = check_id(record.id(), field) {
            return Some(error);
        }
        if !ids.insert(record.id()) {
            return Some(KeyStoreError::DuplicateId {
                field: field(),
                id: record.id().into(),
            });
        }
    }
    None
}

impl KeyRecord {
    /// One record in the key-store form (a member of `keys`), read as a store of one reads
    /// it: errors name `keys[0]…`.
    ///
    /// # Errors
    /// As [`KeyStore::from_json`].
    pub fn from_json(json: &[u8]) -> Result<Self, KeyStoreError> {
        if json.len() > MAX_KEYSTORE_BYTES {
            return Err(KeyStoreError::TooLarge { size: json.len() });
        }
        let value = crate::json::parse(json).map_err(KeyStoreError::Json)?;
        record_from_json(&value, "keys[0]")
    }
}

fn record_from_json(value: &Value, path: &str) -> Result<KeyRecord, KeyStoreError> {
    let object = value.as_object().ok_or_else(|| KeyStoreError::WrongType {
        field: path.into(),
        expected: "object",
    })?;
    let id = member(object, path, "id")?
        .as_str()
        .ok_or_else(|| KeyStoreError::WrongType {
            field: join(path, "id"),
            expected: "string",
        })?;
    // Checked again by `KeyStore::new`; here so that a long id stops the record early.
    check_id(id, || join(path, "id"))?;
    let type_field = format!("{path}.type");
    let type_name = string_member(object, path, "type")?;
    let key_type = KeyType::parse(type_name).ok_or_else(|| KeyStoreError::UnknownKeyType {
        field: type_field,
        value: type_name.into(),
    })?;
    let digest_text = string_member(object, path, "digest")?;
    let digest = KeyDigest::from_hex(digest_text).ok_or_else(|| KeyStoreError::InvalidDigest {
        field: format!("{path}.digest"),
    })?;
    let services = string_array(object, path, "services")?
        .into_iter()
        .map(String::from)
        .collect();
    reject_unknown(
        object,
        &[
            "id",
            "type",
            "digest",
            "roles",
            "scopes",
            "services",
            "expiresAt",
            "revokedAt",
        ],
        path,
    )?;
    // The one rule on what a key may hold (`KeyRequest`, as `createApiKey` applies it): which
    // member the type allows, by presence before any name is read, then the names. Its
    // refusals keep the store's codes, under the record's path.
    let in_store = |error: KeyRequestError| in_store(error, object, path);
    KeyRequest::check_members(
        key_type,
        object.contains_key("roles"),
        object.contains_key("scopes"),
    )
    .map_err(in_store)?;
    let names = |name: &str| -> Result<Option<Vec<String>>, KeyStoreError> {
        let list = string_array(object, path, name)?;
        Ok(Some(list.into_iter().map(String::from).collect()))
    };
    let request = match key_type {
        KeyType::Personal => KeyRequest {
            roles: names("roles")?,
            ..KeyRequest::new(key_type)
        },
        KeyType::Service => KeyRequest {
            scopes: names("scopes")?,
            ..KeyRequest::new(key_type)
        },
    };
    let mut record = match request.grant().map_err(in_store)? {
        Grant::Personal { mut roles } => {
            // A store keeps each role once.
            let mut seen = Vec::new();
            roles.retain(|role| {
                let first = !seen.contains(role);
                seen.push(*role);
                first
            });
            KeyRecord::personal(id, digest, roles, services)
        }
        Grant::Service { scopes } => KeyRecord::service(id, digest, scopes, services),
    };
    if let Some(at) = time_member(object, path, "expiresAt")? {
        record = record.with_expiry(at);
    }
    if let Some(at) = time_member(object, path, "revokedAt")? {
        record = record.with_revocation(at);
    }
    Ok(record)
}

/// A [`KeyRequest`] refusal in a record at `path`, with the store's codes: a member the type
/// does not allow is `UnexpectedField`, an unknown name `UnknownRole` / `UnknownScope`.
fn in_store(error: KeyRequestError, object: &Map<String, Value>, path: &str) -> KeyStoreError {
    let value = |field: &str| {
        // `roles[2]` → the name at index 2, for the message.
        let (member, index) = field.split_once('[').unwrap_or((field, ""));
        let index: usize = index.trim_end_matches(']').parse().unwrap_or(0);
        object
            .get(member)
            .and_then(|list| list.get(index))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .into()
    };
    match error {
        KeyRequestError::UnknownRole { field } => KeyStoreError::UnknownRole {
            value: value(&field),
            field: join(path, &field),
        },
        KeyRequestError::UnknownScope { field } => KeyStoreError::UnknownScope {
            value: value(&field),
            field: join(path, &field),
        },
        other => KeyStoreError::UnexpectedField {
            field: join(path, other.field().unwrap_or_default()),
        },
    }
}

fn check_id(id: &str, field: impl FnOnce() -> String) -> Result<(), KeyStoreError> {
    let valid = !id.is_empty()
        && id.len() <= MAX_KEY_ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if valid {
        Ok(())
    } else {
        Err(KeyStoreError::InvalidId { field: field() })
    }
}

fn reject_unknown(
    object: &Map<String, Value>,
    allowed: &[&str],
    path: &str,
) -> Result<(), KeyStoreError> {
    match object.keys().find(|name| !allowed.contains(&name.as_str())) {
        Some(name) => Err(KeyStoreError::UnexpectedField {
            field: join(path, name),
        }),
        None => Ok(()),
    }
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

fn member<'a>(
    object: &'a Map<String, Value>,
    path: &str,
    name: &str,
) -> Result<&'a Value, KeyStoreError> {
    object.get(name).ok_or_else(|| KeyStoreError::MissingField {
        field: join(path, name),
    })
}

/// A string of at most [`MAX_KEYSTORE_STRING_LEN`] bytes.
fn capped_str(value: &Value, field: impl FnOnce() -> String) -> Result<&str, KeyStoreError> {
    match value.as_str() {
        Some(text) if text.len() <= MAX_KEYSTORE_STRING_LEN => Ok(text),
        Some(_) => Err(KeyStoreError::StringTooLong {
            field: field(),
            max: MAX_KEYSTORE_STRING_LEN,
        }),
        None => Err(KeyStoreError::WrongType {
            field: field(),
            expected: "string",
        }),
    }
}

fn string_member<'a>(
    object: &'a Map<String, Value>,
    path: &str,
    name: &str,
) -> Result<&'a str, KeyStoreError> {
    capped_str(member(object, path, name)?, || join(path, name))
}

fn string_array<'a>(
    object: &'a Map<String, Value>,
    path: &str,
    name: &str,
) -> Result<Vec<&'a str>, KeyStoreError> {
    let field = join(path, name);
    let items = member(object, path, name)?
        .as_array()
        .ok_or_else(|| KeyStoreError::WrongType {
            field: field.clone(),
            expected: "array",
        })?;
    if items.len() > MAX_KEYSTORE_LIST_LEN {
        return Err(KeyStoreError::TooManyItems {
            field,
            max: MAX_KEYSTORE_LIST_LEN,
        });
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| capped_str(item, || format!("{field}[{i}]")))
        .collect()
}

fn time_member(
    object: &Map<String, Value>,
    path: &str,
    name: &str,
) -> Result<Option<UnixTime>, KeyStoreError> {
    match object.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => value
            .as_u64()
            .and_then(UnixTime::from_secs)
            .map(Some)
            .ok_or_else(|| KeyStoreError::WrongType {
                field: join(path, name),
                expected: "Unix seconds (a non-negative integer)",
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::access::{Role, SIMULATION_SERVICE};

    fn store(n: usize) -> KeyStore {
        let records = (0..n)
            .map(|i| {
                KeyRecord::personal(
                    format!("k{i}"),
                    KeyDigest::of_key_text(&format!("key-{i}")),
                    alloc::vec![Role::LabUser],
                    alloc::vec![SIMULATION_SERVICE.into()],
                )
            })
            .collect();
        KeyStore::new(records).unwrap()
    }

    #[test]
    fn a_lookup_compares_one_record_over_all_32_bytes_wherever_the_match_is() {
        let store = store(5);
        let probes = (0..5)
            .map(|i| KeyDigest::of_key_text(&format!("key-{i}")))
            .chain([KeyDigest::of_key_text("absent")]);
        for (expected, probe) in probes.enumerate() {
            let mut seen = [[false; 32]; 5];
            let mut calls = 0;
            let found = store.find_observed(&probe, |record, byte| {
                seen[record][byte] = true;
                calls += 1;
            });
            assert_eq!(
                found.map(KeyRecord::id),
                (expected < 5).then(|| format!("k{expected}")).as_deref()
            );
            assert_eq!(calls, 32, "probe {expected}");
            let compared: Vec<usize> = (0..5).filter(|r| seen[*r].iter().all(|s| *s)).collect();
            assert_eq!(compared.len(), 1, "probe {expected}");
            if expected < 5 {
                assert_eq!(compared, [expected]);
            }
        }
    }

    #[test]
    fn a_seeded_store_finds_what_the_derived_one_finds() {
        let derived = store(50);
        let seeded = derived.clone().with_index_seed(&[7; 32]);
        assert_eq!(seeded, derived);
        for i in 0..60 {
            let probe = KeyDigest::of_key_text(&format!("key-{i}"));
            assert_eq!(
                seeded.find(&probe).map(KeyRecord::id),
                derived.find(&probe).map(KeyRecord::id)
            );
        }
        // The index key is never printed.
        assert_eq!(
            format!("{:?}", seeded.index),
            "DigestIndex { slots: 128, .. }"
        );
    }

    #[test]
    fn a_digest_sharing_all_but_the_last_byte_is_not_found() {
        let store = store(3);
        let mut near = *KeyDigest::of_key_text("key-1").as_bytes();
        near[31] ^= 0x80;
        assert!(store.find(&KeyDigest::from_bytes(near)).is_none());
    }
}
