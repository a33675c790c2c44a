//! Issuing keys: a new key from a [`KeyRequest`] and the record a store keeps for it, and the
//! development key set the gateway creates when no key store is configured.

use alloc::string::String;
use alloc::vec::Vec;
use alloc::{format, vec};

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use sha2::{Digest, Sha256};

use super::error::KeyStoreError;
use super::key::{ApiKey, KeyType};
use super::key_request::{KeyRequest, KeyRequestError};
use super::record::{Grant, KeyRecord, SIMULATION_SERVICE};
use super::role::Role;
use super::scope::{Scope, ScopeSet};
use super::store::KeyStore;
use crate::time::UnixTime;

impl KeyRequest {
    /// A new key `id` with this request's grant, from 32 random bytes of the host.
    ///
    /// # Errors
    /// As [`Self::grant`]. The id is checked when the record joins a store ([`store_of`]).
    pub fn issue(
        &self,
        id: impl Into<String>,
        random: &[u8; 32],
    ) -> Result<IssuedKey, KeyRequestError> {
        let services = self
            .services
            .clone()
            .unwrap_or_else(|| vec![String::from(SIMULATION_SERVICE)]);
        Ok(match self.grant()? {
            Grant::Personal { roles } => IssuedKey::personal(id, roles, services, random),
            Grant::Service { scopes } => IssuedKey::service(id, scopes, services, random),
        })
    }
}

/// A freshly issued key: the secret, to show its holder once, and the record to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IssuedKey {
    key: ApiKey,
    record: KeyRecord,
}

impl IssuedKey {
    /// A personal key for a user holding `roles`.
    pub fn personal(
        id: impl Into<String>,
        roles: Vec<Role>,
        services: Vec<String>,
        random: &[u8; 32],
    ) -> Self {
        let key = ApiKey::generate(KeyType::Personal, random);
        let record = KeyRecord::personal(id, key.digest(), roles, services);
        Self { key, record }
    }

    /// A service key holding exactly `scopes`.
    pub fn service(
        id: impl Into<String>,
        scopes: ScopeSet,
        services: Vec<String>,
        random: &[u8; 32],
    ) -> Self {
        let key = ApiKey::generate(KeyType::Service, random);
        let record = KeyRecord::service(id, key.digest(), scopes, services);
        Self { key, record }
    }

    /// Sets the record's expiry.
    #[must_use]
    pub fn with_expiry(mut self, expires_at: UnixTime) -> Self {
        self.record = self.record.with_expiry(expires_at);
        self
    }

    /// The key (secret).
    pub const fn key(&self) -> &ApiKey {
        &self.key
    }

    /// The record to store.
    pub const fn record(&self) -> &KeyRecord {
        &self.record
    }
}

/// The printable form: the record's members plus `key`, the secret. Only for showing a new
/// key to its holder (and the development keys at gateway start).
impl Serialize for IssuedKey {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let record = &self.record;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("id", record.id())?;
        map.serialize_entry("type", record.key_type().as_str())?;
        map.serialize_entry("key", self.key.expose_secret())?;
        match record.grant() {
            Grant::Personal { roles } => {
                map.serialize_entry("roles", roles)?;
                map.serialize_entry("scopes", &record.scopes())?;
            }
            Grant::Service { scopes } => map.serialize_entry("scopes", scopes)?,
        }
        map.serialize_entry("services", record.services())?;
        if let Some(at) = record.expires_at() {
            map.serialize_entry("expiresAt", &at)?;
        }
        map.end()
    }
}

/// Lifetime of development keys: 30 days from the gateway's start.
pub const DEV_KEY_LIFETIME: u64 = 30 * 24 * 60 * 60;

/// The service a development key is issued for to show that keys for other services grant
/// nothing here.
pub const OTHER_SERVICE: &str = "attestation";

/// The development key set: one personal key per role (`dev-<role>`) and four service keys:
///
/// | id | scopes | services |
/// |---|---|---|
/// | `svc-ci-readonly` | `lab:simulation_read`, `lab:image_read` | simulation |
/// | `svc-ci-simulations` | the five `lab:simulation_*` | simulation |
/// | `svc-image-pipeline` | `lab:image_read`, `lab:image_write`, `lab:image_publish` | simulation |
/// | `svc-other-service` | every scope | `attestation` only, so none here |
///
/// Keys are derived from `seed` (32 random bytes from the host) with SHA-256 over a label,
/// the seed and the id, so one seed gives one reproducible set and different seeds give
/// unrelated keys. Each expires [`DEV_KEY_LIFETIME`] after `now`.
pub fn dev_key_set(seed: &[u8; 32], now: UnixTime) -> Vec<IssuedKey> {
    let expires_at = now.saturating_add(DEV_KEY_LIFETIME);
    let simulation = || vec![String::from(SIMULATION_SERVICE)];
    let mut keys: Vec<IssuedKey> = Role::ALL
        .into_iter()
        .map(|role| {
            let id = format!("dev-{}", role.as_str());
            let random = derive(seed, &id);
            IssuedKey::personal(id, vec![role], simulation(), &random)
        })
        .collect();
    let services: [(&str, ScopeSet, &str); 4] = [
        (
            "svc-ci-readonly",
            ScopeSet::of(&[Scope::SimulationRead, Scope::ImageRead]),
            SIMULATION_SERVICE,
        ),
        (
            "svc-ci-simulations",
            ScopeSet::of(&[
                Scope::SimulationRead,
                Scope::SimulationCreate,
                Scope::SimulationEdit,
                Scope::SimulationDelete,
                Scope::SimulationStartStop,
            ]),
            SIMULATION_SERVICE,
        ),
        (
            "svc-image-pipeline",
            ScopeSet::of(&[Scope::ImageRead, Scope::ImageWrite, Scope::ImagePublish]),
            SIMULATION_SERVICE,
        ),
        (
            "svc-other-service",
            Scope::ALL.into_iter().collect(),
            OTHER_SERVICE,
        ),
    ];
    for (id, scopes, service) in services {
        let random = derive(seed, id);
        keys.push(IssuedKey::service(
            id,
            scopes,
            vec![String::from(service)],
            &random,
        ));
    }
    keys.into_iter()
        .map(|key| key.with_expiry(expires_at))
        .collect()
}

/// The store holding the records of `keys`.
///
/// # Errors
/// [`KeyStoreError`] when two keys share an id or digest.
pub fn store_of(keys: &[IssuedKey]) -> Result<KeyStore, KeyStoreError> {
    KeyStore::new(keys.iter().map(|key| key.record.clone()).collect())
}

fn derive(seed: &[u8; 32], id: &str) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(b"edgeattest dev key v1\0");
    hasher.update(seed);
    hasher.update(id.as_bytes());
    hasher.finalize().into()
}
