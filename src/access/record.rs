//! What a service stores about a key: never the key, only its digest, its grant and its
//! lifecycle (spec §5, "Key types").

use alloc::string::String;
use alloc::vec::Vec;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::digest::KeyDigest;
use super::key::KeyType;
use super::role::{scopes_of_roles, Role};
use super::scope::ScopeSet;
use crate::time::UnixTime;

/// The service name a key must have been issued for to reach the simulation service
/// (spec §5, "Credential" 2: the service must be selected when the key is generated).
pub const SIMULATION_SERVICE: &str = "simulation";

/// Where a key's scopes come from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Grant {
    /// A personal key: the union of the scopes of its user's current roles.
    Personal {
        /// The user's roles on the platform.
        roles: Vec<Role>,
    },
    /// A service key: exactly the scopes chosen at creation; roles never widen them.
    Service {
        /// The scopes chosen at creation.
        scopes: ScopeSet,
    },
}

/// One stored key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyRecord {
    id: String,
    digest: KeyDigest,
    grant: Grant,
    services: Vec<String>,
    expires_at: Option<UnixTime>,
    revoked_at: Option<UnixTime>,
}

impl KeyRecord {
    /// A personal key record for a user holding `roles`, issued for `services`.
    pub fn personal(
        id: impl Into<String>,
        digest: KeyDigest,
        roles: Vec<Role>,
        services: Vec<String>,
    ) -> Self {
        Self::new(id.into(), digest, Grant::Personal { roles }, services)
    }

    /// A service key record with exactly `scopes`, issued for `services`.
    pub fn service(
        id: impl Into<String>,
        digest: KeyDigest,
        scopes: ScopeSet,
        services: Vec<String>,
    ) -> Self {
        Self::new(id.into(), digest, Grant::Service { scopes }, services)
    }

    fn new(id: String, digest: KeyDigest, grant: Grant, services: Vec<String>) -> Self {
        Self {
            id,
            digest,
            grant,
            services,
            expires_at: None,
            revoked_at: None,
        }
    }

    /// Sets the expiry: the key stops working at `expires_at`.
    #[must_use]
    pub fn with_expiry(mut self, expires_at: UnixTime) -> Self {
        self.expires_at = Some(expires_at);
        self
    }

    /// Marks the key revoked from `revoked_at` on.
    #[must_use]
    pub fn with_revocation(mut self, revoked_at: UnixTime) -> Self {
        self.revoked_at = Some(revoked_at);
        self
    }

    /// The record's non-secret identifier, used in logs and forwarded upstream.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The digest of the key.
    pub const fn digest(&self) -> &KeyDigest {
        &self.digest
    }

    /// Personal or service.
    pub const fn key_type(&self) -> KeyType {
        match self.grant {
            Grant::Personal { .. } => KeyType::Personal,
            Grant::Service { .. } => KeyType::Service,
        }
    }

    /// The grant as stored.
    pub const fn grant(&self) -> &Grant {
        &self.grant
    }

    /// The services the key was issued for.
    pub fn services(&self) -> &[String] {
        &self.services
    }

    /// When the key stops working, if ever.
    pub const fn expires_at(&self) -> Option<UnixTime> {
        self.expires_at
    }

    /// When the key was revoked, if it was.
    pub const fn revoked_at(&self) -> Option<UnixTime> {
        self.revoked_at
    }

    /// The scopes the key holds: roles' union for personal keys, the chosen set for service
    /// keys. Independent of the service; see [`Self::scopes_for`].
    pub fn scopes(&self) -> ScopeSet {
        match &self.grant {
            Grant::Personal { roles } => scopes_of_roles(roles),
            Grant::Service { scopes } => *scopes,
        }
    }

    /// Whether the key was issued for `service` (exact, case-sensitive name).
    pub fn issued_for(&self, service: &str) -> bool {
        self.services.iter().any(|s| s == service)
    }

    /// The scopes the key grants on `service`: none unless it was issued for it.
    pub fn scopes_for(&self, service: &str) -> ScopeSet {
        if self.issued_for(service) {
            self.scopes()
        } else {
            ScopeSet::EMPTY
        }
    }

    /// The state of the key at `now`.
    pub fn status(&self, now: UnixTime) -> KeyStatus {
        if self.revoked_at.is_some_and(|at| now >= at) {
            KeyStatus::Revoked
        } else if self.expires_at.is_some_and(|at| now >= at) {
            KeyStatus::Expired
        } else {
            KeyStatus::Active
        }
    }
}

/// A key's lifecycle state at one instant. Revocation wins over expiry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyStatus {
    /// Usable.
    Active,
    /// Past its `expiresAt` (the instant itself included).
    Expired,
    /// At or past its `revokedAt`.
    Revoked,
}

impl KeyStatus {
    /// `active`, `expired` or `revoked`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Expired => "expired",
            Self::Revoked => "revoked",
        }
    }
}

/// The key-store JSON form of a record (see [`super::KeyStore::from_json`]); absent
/// members are omitted.
impl Serialize for KeyRecord {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("type", self.key_type().as_str())?;
        map.serialize_entry("digest", &self.digest.to_hex())?;
        match &self.grant {
            Grant::Personal { roles } => map.serialize_entry("roles", roles)?,
            Grant::Service { scopes } => map.serialize_entry("scopes", scopes)?,
        }
        map.serialize_entry("services", &self.services)?;
        if let Some(at) = self.expires_at {
            map.serialize_entry("expiresAt", &at)?;
        }
        if let Some(at) = self.revoked_at {
            map.serialize_entry("revokedAt", &at)?;
        }
        map.end()
    }
}
