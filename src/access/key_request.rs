//! What a request for a new key may hold ([`KeyRequest`]: personal keys take `roles`, service
//! keys `scopes`, never the other): the one rule that `createApiKey` and a key store apply.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Deserializer};

use super::key::KeyType;
use super::record::Grant;
use super::role::Role;
use super::scope::{Scope, ScopeSet};
use crate::error_code::ErrorCode;

/// What a new key grants: its type, and `roles` (personal keys) or `scopes` (service keys)
/// by name, for `services` (default: the simulation service). The JS `createApiKey` options
/// carry these members next to `id` and `expiresAt`, which [`KeyRequest::issue`] takes apart.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyRequest {
    /// `personal` or `service`.
    #[serde(rename = "type")]
    pub kind: KeyType,
    /// Role names; only for personal keys. Present (even empty, or `null`) is not absent.
    #[serde(default, deserialize_with = "present")]
    pub roles: Option<Vec<String>>,
    /// Scope names; only for service keys. Present (even empty, or `null`) is not absent.
    #[serde(default, deserialize_with = "present")]
    pub scopes: Option<Vec<String>>,
    /// The services the key is for; absent means [`SIMULATION_SERVICE`](super::SIMULATION_SERVICE).
    #[serde(default)]
    pub services: Option<Vec<String>>,
}

/// A list member given, `null` included (as an empty list); absent is `None` (`serde(default)`).
pub(super) fn present<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Vec<String>>, D::Error> {
    Ok(Some(
        Option::<Vec<String>>::deserialize(deserializer)?.unwrap_or_default(),
    ))
}

impl KeyRequest {
    /// A request for a key of `kind`, with no roles, scopes or services given.
    pub const fn new(kind: KeyType) -> Self {
        Self {
            kind,
            roles: None,
            scopes: None,
            services: None,
        }
    }

    /// The grant this request asks for: the rule that a personal key takes its scopes from
    /// `roles` and a service key holds exactly `scopes`, so neither may carry the other, and
    /// every name must be one the spec defines. Roles keep their order (repeats included).
    ///
    /// # Errors
    /// [`KeyRequestError`]: the member the type does not allow, or the first
    /// unknown name with its index.
    pub fn grant(&self) -> Result<Grant, KeyRequestError> {
        Self::check_members(self.kind, self.roles.is_some(), self.scopes.is_some())?;
        match self.kind {
            KeyType::Personal => {
                let roles = self
                    .roles
                    .iter()
                    .flatten()
                    .enumerate()
                    .map(|(index, name)| {
                        Role::parse(name).ok_or(KeyRequestError::UnknownRole {
                            field: format!("roles[{index}]"),
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Grant::Personal { roles })
            }
            KeyType::Service => {
                let mut scopes = ScopeSet::EMPTY;
                for (index, name) in self.scopes.iter().flatten().enumerate() {
                    scopes.insert(Scope::parse(name).ok_or(KeyRequestError::UnknownScope {
                        field: format!("scopes[{index}]"),
                    })?);
                }
                Ok(Grant::Service { scopes })
            }
        }
    }

    /// The first half of [`Self::grant`], on the members' presence alone (a key store applies
    /// it before reading the names): a personal key may not carry `scopes`, a service key
    /// not `roles`, even empty.
    ///
    /// # Errors
    /// [`KeyRequestError::ScopesOnPersonal`] or [`KeyRequestError::RolesOnService`].
    pub const fn check_members(
        kind: KeyType,
        has_roles: bool,
        has_scopes: bool,
    ) -> Result<(), KeyRequestError> {
        match kind {
            KeyType::Personal if has_scopes => Err(KeyRequestError::ScopesOnPersonal),
            KeyType::Service if has_roles => Err(KeyRequestError::RolesOnService),
            _ => Ok(()),
        }
    }
}

/// Why a [`KeyRequest`] was refused: `ERR_INVALID_ARGUMENT`, naming the member.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyRequestError {
    /// A required member (`type`, `id`) is absent.
    Missing {
        /// The member.
        field: &'static str,
    },
    /// `scopes` on a personal key, whose scopes come from its roles.
    ScopesOnPersonal,
    /// `roles` on a service key, which holds exactly its chosen scopes.
    RolesOnService,
    /// A role name the spec does not define.
    UnknownRole {
        /// The member: `roles[2]`.
        field: String,
    },
    /// A scope name the spec does not define.
    UnknownScope {
        /// The member: `scopes[0]`.
        field: String,
    },
}

impl fmt::Display for KeyRequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing { field } => write!(f, "{field} must be given"),
            Self::ScopesOnPersonal => {
                f.write_str("personal keys get their scopes from roles; scopes is not allowed")
            }
            Self::RolesOnService => {
                f.write_str("service keys hold exactly their chosen scopes; roles is not allowed")
            }
            Self::UnknownRole { field } => write!(f, "{field} must be a role name"),
            Self::UnknownScope { field } => write!(f, "{field} must be a scope name"),
        }
    }
}

impl core::error::Error for KeyRequestError {}

impl ErrorCode for KeyRequestError {
    fn code(&self) -> &'static str {
        "ERR_INVALID_ARGUMENT"
    }

    fn field(&self) -> Option<&str> {
        Some(match self {
            Self::Missing { field } => field,
            Self::ScopesOnPersonal => "scopes",
            Self::RolesOnService => "roles",
            Self::UnknownRole { field } | Self::UnknownScope { field } => field,
        })
    }
}
