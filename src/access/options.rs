//! What the access exports are given and what they answer, as serde types, so that a Rust host
//! (through `serde_json`) and the JS binding share one rule: the gateway's options and their
//! defaults ([`AccessOptions`]), the key `evaluateAccess` asks about ([`AccessKey`]), a new
//! key ([`NewKeyOptions`] → [`CreatedKey`]), the development set ([`DevKeys`]), a key's
//! offline summary ([`KeySummary`]) and the role → scope table ([`RoleScopes`]).
//!
//! `keyStore` and `now` are generic: JSON gives key-store JSON and Unix seconds; the binding
//! keeps the JS values, since there a key store is text or an object, a time may be a `Date`,
//! and the host clock is the default (the core reads none).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};

use super::decision::{authorize, decide_for_record, Decision, GatewayConfig, GatewayRequest};
use super::error::{GatewayConfigError, KeyStoreError};
use super::key::{ApiKey, KeyType, KEY_PREFIX};
use super::key_issuance::{dev_key_set, store_of, IssuedKey};
use super::key_request::{KeyRequest, KeyRequestError};
use super::path::Method;
use super::record::{KeyRecord, SIMULATION_SERVICE};
use super::role::Role;
use super::store::KeyStore;
use crate::error_code::ErrorCode;
use crate::time::UnixTime;

/// The gateway's options (the JS `GatewayOptions`, and `EvaluateAccessOptions`, which adds
/// `keyStore` and `now`). Absent members keep the defaults.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(rename = "EvaluateAccessOptions", optional_fields, concrete(Store = String, Time = u64))
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AccessOptions<Store = serde_json::Value, Time = UnixTime> {
    /// The `WWW-Authenticate` realm; default [`GatewayConfig::DEFAULT_REALM`].
    pub realm: Option<String>,
    /// The service keys must be issued for; default [`SIMULATION_SERVICE`].
    pub service: Option<String>,
    /// `evaluateAccess` given key text: the store to look it up in.
    #[cfg_attr(feature = "ts", ts(optional, type = "string | KeyStoreJson"))]
    pub key_store: Option<Store>,
    /// `evaluateAccess`: the time of the decision.
    pub now: Option<Time>,
}

impl<Store, Time> Default for AccessOptions<Store, Time> {
    fn default() -> Self {
        Self {
            realm: None,
            service: None,
            key_store: None,
            now: None,
        }
    }
}

impl<Store, Time> AccessOptions<Store, Time> {
    /// The configuration: the defaults, with the members given, each checked.
    ///
    /// # Errors
    /// [`GatewayConfigError`] for a realm or service the gateway cannot send or match.
    pub fn config(&self) -> Result<GatewayConfig, GatewayConfigError> {
        if self.realm.is_none() && self.service.is_none() {
            return Ok(GatewayConfig::default());
        }
        GatewayConfig::new(
            self.realm
                .as_deref()
                .unwrap_or(GatewayConfig::DEFAULT_REALM),
            self.service.as_deref().unwrap_or(SIMULATION_SERVICE),
        )
    }
}

/// The key `evaluateAccess` is asked about.
#[derive(Clone, Copy, Debug)]
pub enum AccessKey<'a> {
    /// A stored record: decided as if its key were presented.
    Record(&'a KeyRecord),
    /// An API key (`eak_…`) or an `Authorization` value (`Bearer eak_…`), found in `store`.
    Text {
        /// The key or header value.
        text: &'a str,
        /// The store holding its record.
        store: &'a KeyStore,
    },
}

/// Allow or deny `method` on `url` (a path, or a URL whose path and query are used) for
/// `key` at `now`: the gateway's decision without client headers.
pub fn evaluate_access(
    key: AccessKey<'_>,
    method: &str,
    url: &str,
    config: &GatewayConfig,
    now: UnixTime,
) -> Decision {
    let target = target_of(url);
    match key {
        AccessKey::Record(record) => {
            decide_for_record(record, Method::parse(method), target, config, now)
        }
        AccessKey::Text { text, store } => {
            let authorization = if text.starts_with(KEY_PREFIX) {
                format!("Bearer {text}")
            } else {
                String::from(text)
            };
            let request = GatewayRequest {
                method,
                target,
                authorization: Some(&authorization),
                headers: &[],
            };
            authorize(&request, store, config, now)
        }
    }
}

/// The path and query of a URL or a path (`https://h/p?q` → `/p?q`; `https://h` → `/`).
pub fn target_of(url: &str) -> &str {
    let Some(scheme_end) = url.find("://") else {
        return url;
    };
    let after = url.get(scheme_end + 3..).unwrap_or("");
    match after.find(['/', '?']) {
        Some(start) => after.get(start..).unwrap_or("/"),
        None => "/",
    }
}

/// A new key as a host asks for it (the JS `CreateApiKeyOptions`): the [`KeyRequest`]
/// members, the record's `id` and its optional `expiresAt`. `roles` or `scopes` given as
/// `null` is present and empty (refused on the other key type as any other value).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(rename = "CreateApiKeyOptions", optional_fields, concrete(Time = u64))
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewKeyOptions<Time = UnixTime> {
    /// `personal` or `service`; required.
    #[serde(rename = "type")]
    #[cfg_attr(feature = "ts", ts(as = "KeyType", inline))]
    pub kind: Option<KeyType>,
    /// The record's id; required.
    #[cfg_attr(feature = "ts", ts(as = "String"))]
    pub id: Option<String>,
    /// As [`KeyRequest::roles`].
    #[serde(default, deserialize_with = "super::key_request::present")]
    #[cfg_attr(feature = "ts", ts(optional, type = "Role[]"))]
    pub roles: Option<Vec<String>>,
    /// As [`KeyRequest::scopes`].
    #[serde(default, deserialize_with = "super::key_request::present")]
    #[cfg_attr(feature = "ts", ts(optional, type = "Scope[]"))]
    pub scopes: Option<Vec<String>>,
    /// As [`KeyRequest::services`].
    pub services: Option<Vec<String>>,
    /// When the key stops working.
    pub expires_at: Option<Time>,
}

impl<Time> NewKeyOptions<Time> {
    /// The key: `type` and `id` required, [`KeyRequest::grant`]'s rule, then the id checked as
    /// a store checks it; `expires_at` is the record's expiry.
    ///
    /// # Errors
    /// [`NewKeyError`]: a member missing or refused, or an id no store accepts.
    pub fn issue_at(
        &self,
        random: &[u8; 32],
        expires_at: Option<UnixTime>,
    ) -> Result<CreatedKey, NewKeyError> {
        let kind = self
            .kind
            .ok_or(KeyRequestError::Missing { field: "type" })?;
        let id = self
            .id
            .clone()
            .ok_or(KeyRequestError::Missing { field: "id" })?;
        let request = KeyRequest {
            kind,
            roles: self.roles.clone(),
            scopes: self.scopes.clone(),
            services: self.services.clone(),
        };
        let issued = request.issue(id, random)?;
        let issued = match expires_at {
            Some(at) => issued.with_expiry(at),
            None => issued,
        };
        store_of(core::slice::from_ref(&issued))?;
        Ok(CreatedKey(issued))
    }
}

impl NewKeyOptions {
    /// [`Self::issue_at`] with the options' own `expiresAt`.
    ///
    /// # Errors
    /// As [`Self::issue_at`].
    pub fn issue(&self, random: &[u8; 32]) -> Result<CreatedKey, NewKeyError> {
        self.issue_at(random, self.expires_at)
    }
}

/// Why [`NewKeyOptions`] made no key.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NewKeyError {
    /// A member missing or refused (`ERR_INVALID_ARGUMENT`).
    Request(KeyRequestError),
    /// An id no store accepts (`ERR_KEYSTORE_INVALID_ID`, `keys[0].id`).
    Store(KeyStoreError),
}

impl From<KeyRequestError> for NewKeyError {
    fn from(error: KeyRequestError) -> Self {
        Self::Request(error)
    }
}

impl From<KeyStoreError> for NewKeyError {
    fn from(error: KeyStoreError) -> Self {
        Self::Store(error)
    }
}

impl fmt::Display for NewKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Request(error) => error.fmt(f),
            Self::Store(error) => error.fmt(f),
        }
    }
}

impl core::error::Error for NewKeyError {}

impl ErrorCode for NewKeyError {
    fn code(&self) -> &'static str {
        match self {
            Self::Request(error) => error.code(),
            Self::Store(error) => error.code(),
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::Request(error) => error.field(),
            Self::Store(error) => error.field(),
        }
    }
}

/// A new key as `createApiKey` answers: `{key, redacted, record}`. Show `key` once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreatedKey(pub IssuedKey);

impl Serialize for CreatedKey {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("key", self.0.key().expose_secret())?;
        map.serialize_entry("redacted", &self.0.key().redacted())?;
        map.serialize_entry("record", self.0.record())?;
        map.end()
    }
}

/// A key checked offline (`parseApiKey`): its type, redacted form and digest (hex).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ParsedApiKey"))]
pub struct KeySummary {
    /// `personal` or `service`.
    #[serde(rename = "type")]
    #[cfg_attr(feature = "ts", ts(as = "KeyType", inline))]
    pub key_type: &'static str,
    /// `eak_svc_…abcd`.
    pub redacted: String,
    /// The SHA-256 of the key text, as a store keeps it.
    pub digest: String,
}

impl From<&ApiKey> for KeySummary {
    fn from(key: &ApiKey) -> Self {
        Self {
            key_type: key.key_type().as_str(),
            redacted: key.redacted(),
            digest: key.digest().to_hex(),
        }
    }
}

/// The development key set with its store (`devKeySet`): `{keys, keyStore}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "DevKeySet"))]
#[serde(rename_all = "camelCase")]
pub struct DevKeys {
    /// The keys, secrets included ([`dev_key_set`]).
    #[cfg_attr(feature = "ts", ts(type = "DevKey[]"))]
    pub keys: Vec<IssuedKey>,
    /// Their records.
    pub key_store: KeyStore,
}

impl DevKeys {
    /// [`dev_key_set`] for `seed` at `now`, and its store.
    pub fn new(seed: &[u8; 32], now: UnixTime) -> Self {
        let keys = dev_key_set(seed, now);
        // The set's ids and digests are distinct: a store of it cannot be refused.
        let key_store = store_of(&keys).unwrap_or_default();
        Self { keys, key_store }
    }
}

/// The spec's role → scope table (`roleScopes`), serialised as a map by role name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoleScopes;

impl Serialize for RoleScopes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(Role::ALL.len()))?;
        for role in Role::ALL {
            map.serialize_entry(role.as_str(), &role.scopes())?;
        }
        map.end()
    }
}
