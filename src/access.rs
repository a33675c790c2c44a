//! API keys, roles and scopes, per-endpoint authorization, and the edge gateway's decision
//! (the access-control model of the simulation service's API).
//!
//! - [`ApiKey`]: the key text format `eak_<per|svc>_<43 base62>_<6 base62 CRC-32>`; keys are
//!   generated from caller-supplied random bytes and kept only as a SHA-256 [`KeyDigest`].
//! - [`KeyRecord`], [`KeyStore`]: what a service stores; personal keys get the union of their
//!   user's [`Role`] scopes, service keys exactly the [`Scope`]s chosen at creation; a key
//!   grants nothing unless issued for the service; expiry and revocation; lookup by digest
//!   through a secret-keyed index and one constant-time comparison, at a cost that does not
//!   grow with the number of keys.
//! - [`ROUTES`]: the endpoint → scope table, every route once, every inference explained
//!   ([`endpoint_table`] renders it).
//! - [`authorize`]: the pure decision for one request, RFC 6750 statuses, challenges and JSON
//!   bodies; the host forwards or answers as told, sending upstream exactly the target and
//!   headers of the decision's [`Forward`] ([`forward`] says what is stripped).
//!
//! ```
//! use edgeattest::access::{authorize, dev_key_set, store_of, GatewayConfig, GatewayRequest};
//! use edgeattest::UnixTime;
//!
//! let now = UnixTime::from_secs(1_800_000_000).unwrap();
//! let keys = dev_key_set(&[7; 32], now);
//! let store = store_of(&keys).unwrap();
//! let user = keys.iter().find(|k| k.record().id() == "dev-lab_user").unwrap();
//! let bearer = format!("Bearer {}", user.key().expose_secret());
//! let request = GatewayRequest {
//!     method: "GET",
//!     target: "/api/v3/simulations/",
//!     authorization: Some(&bearer),
//!     headers: &[("Accept", "application/json"), ("X-HTTP-Method-Override", "DELETE")],
//! };
//! let decision = authorize(&request, &store, &GatewayConfig::default(), now);
//! assert!(decision.allow);
//! // The override never reaches the upstream: the decision was made for GET.
//! let forward = decision.forward.unwrap();
//! assert!(forward.headers.iter().all(|(name, _)| name != "X-HTTP-Method-Override"));
//! let request = GatewayRequest { method: "POST", target: "/api/v3/trainings/", ..request };
//! let decision = authorize(&request, &store, &GatewayConfig::default(), now);
//! assert_eq!(decision.status, 403);
//! ```

mod credential;
mod decision;
mod denial;
mod digest;
mod endpoint;
pub mod endpoint_table;
mod error;
pub mod forward;
mod index;
mod key;
mod key_issuance;
mod key_request;
mod limits;
mod options;
mod path;
mod record;
mod role;
mod scope;
mod store;

pub use credential::{bearer_token, CredentialError, Malformation, MAX_AUTHORIZATION_LEN};
pub use decision::{
    authorize, decide_for_record, AccessDetail, Audit, Decision, Denial, Forward, GatewayConfig,
    GatewayRequest, EXPOSE_HEADERS, FORWARD_KEY_ID, FORWARD_KEY_TYPE, FORWARD_SCOPES,
};
pub use digest::KeyDigest;
pub use endpoint::{
    match_route, route_table_json, route_table_markdown, Basis, Requirement, Resource, Route,
    RouteMatch, API_PREFIX, ROUTES,
};
pub use error::{GatewayConfigError, KeyFormatError, KeyStoreError};
pub use forward::HeaderBudget;
pub use key::{ApiKey, KeyType, CHECKSUM_CHARS, KEY_LEN, KEY_PREFIX, RANDOM_CHARS};
pub use key_issuance::{dev_key_set, store_of, IssuedKey, DEV_KEY_LIFETIME, OTHER_SERVICE};
pub use key_request::{KeyRequest, KeyRequestError};
pub use limits::{
    MAX_KEYS, MAX_KEYSTORE_BYTES, MAX_KEYSTORE_LIST_LEN, MAX_KEYSTORE_STRING_LEN, MAX_KEY_ID_LEN,
    MAX_QUERY_LEN, MAX_REQUEST_HEADERS, MAX_REQUEST_HEADER_BYTES,
};
pub use options::{
    evaluate_access, target_of, AccessKey, AccessOptions, CreatedKey, DevKeys, KeySummary,
    NewKeyError, NewKeyOptions, RoleScopes,
};
pub use path::{split_target, CanonicalPath, Method, PathError, MAX_PATH_LEN};
pub use record::{Grant, KeyRecord, KeyStatus, SIMULATION_SERVICE};
pub use role::{scopes_of_roles, Role};
pub use scope::{Scope, ScopeSet};
pub use store::KeyStore;
