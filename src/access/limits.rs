//! The access layer's bounds on hostile input: what the gateway takes of a client request, and
//! what a key store's configuration text may hold. The errors that report a bound name it,
//! so the numbers sit below both the checks and the errors.

/// Most client headers the gateway takes (Cloudflare and browsers send a few dozen).
pub const MAX_REQUEST_HEADERS: usize = 128;
/// Most bytes of client header names and values together (Cloudflare's own cap is 128 KiB
/// for the whole header block; this library's callers are edge hosts, not browsers).
pub const MAX_REQUEST_HEADER_BYTES: usize = 64 * 1024;
/// Longest query string (without `?`), in bytes.
pub const MAX_QUERY_LEN: usize = 8192;

/// Longest accepted record id.
pub const MAX_KEY_ID_LEN: usize = 64;

/// Longest accepted key-store JSON text, in bytes (1 MiB: some 7,000 minimal records).
pub const MAX_KEYSTORE_BYTES: usize = 1 << 20;

/// Most records [`KeyStore::from_json`](super::KeyStore::from_json) accepts: a bound on the
/// work of reading configuration text, which the gateway may do on every request. Lookups do
/// not grow with the count; a host with more keys builds its records itself
/// ([`KeyStore::new`](super::KeyStore::new) has no cap).
pub const MAX_KEYS: usize = 4096;

/// Longest accepted string other than `id` (`type`, `digest`, role, scope and service
/// names), in bytes. The longest name the spec defines has 28.
pub const MAX_KEYSTORE_STRING_LEN: usize = 128;

/// Most items of one record's `roles`, `scopes` or `services` (the spec defines 8 roles
/// and 13 scopes).
pub const MAX_KEYSTORE_LIST_LEN: usize = 64;
