//! API keys, roles and scopes, per-endpoint authorization (spec: access-control.md).
