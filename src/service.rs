//! The attestation service as an HTTP-shaped router (NVIDIA's NRAS API): a request
//! (method, path, headers, body) and a context (`now`, keys, trust stores, RIMs,
//! configuration) in, a response (status, headers, JSON body) out. No I/O.

mod app;
mod appraisal;
mod attempts;
mod bindings;
mod breaker;
pub mod claims;
mod codes;
mod config;
mod context;
mod device;
mod error;
mod error_response;
mod exchange;
mod failure;
mod fetch;
mod health;
mod health_probe;
mod http;
mod keys;
mod limits;
mod memo;
mod mint;
mod mirror;
mod negotiate;
mod options;
mod outcome;
mod policy_gate;
mod remedy;
pub mod replay;
mod report_outcome;
mod revocation;
mod rims;
mod router;
mod source;
mod test_pki;
mod wire;

pub use crate::host_answer::{AnswerError, AnswerFailure, FetchAnswer};
pub use attempts::{
    backoff_ms, Attempt, FetchAttempts, BACKOFF_BASE_MS, BACKOFF_MAX_MS, DEADLINE_FACTOR,
    FETCH_ROUNDS,
};
pub use bindings::{
    BindingsError, CryptoChoice, HostSettings, RimDocument, DEFAULT_OCSP_TIMEOUT_MS,
    MAX_OCSP_TIMEOUT_MS,
};
pub use breaker::{
    origin_of, AttemptOutcome, BreakerState, SourceBook, SourceRecord, BREAKER_FAILURES,
    BREAKER_OPEN_MS,
};
pub use codes::{
    CERTIFICATE_HOLD_WARNING, DUPLICATE_DEVICE_CODE, FWID_NOT_IN_EVIDENCE_WARNING,
    OTHER_ROOT_WARNING, POLICY_NOT_MET_CODE, REVOCATION_WARNING,
};
pub use config::{ServiceConfig, DEFAULT_TOKEN_LIFETIME};
pub use context::Service;
pub use error_response::{ErrorResponse, ErrorResponseInit, InitError};
pub use exchange::{Exchange, ExchangeError, Step, MAX_SIGNATURE_CHECKS};
pub use fetch::{
    is_source_url, FetchFailure, Fetched, OcspCacheEntry, Resource, FETCH_CACHE_ENTRIES,
    FETCH_CONCURRENCY, MAX_FETCHED_BYTES, MAX_MIRRORS, MAX_OCSP_STALE_IF_ERROR, NVIDIA_OCSP_URL,
    NVIDIA_RIM_SERVICE_URL, RIM_CACHE_SECONDS, RIM_KEEP_SECONDS, RIM_MISS_SECONDS, RIM_TIMEOUT_MS,
};
pub use health::{Health, HealthInputs, KeptAnswers, KeyLocation, SourceHealth};
pub use health_probe::{
    probe_targets, Network, ProbeTarget, PROBE_INTERVAL_SECONDS, PROBE_TIMEOUT_MS,
};
pub use http::{Request, Response};
pub use keys::{thumbprint, KeyRing};
pub use limits::ServiceLimits;
pub use memo::{
    MemoCounts, VerifiedMemo, MEMO_OCSP_ANSWERS, MEMO_PARSED_RIMS, MEMO_RIMS, MEMO_RIM_BYTES,
    MEMO_SIGNATURES,
};
pub use mirror::{
    mirror_rim_id, mirror_rim_key, MirrorAnswer, MirrorEntry, RimServiceEnvelope, RimServiceIds,
    MIRROR_RIM_PATH, RIM_MIRROR_SECONDS,
};
pub use options::{OptionsError, ServiceOptions, Setting, MAX_TOKEN_LIFETIME, MIN_TOKEN_LIFETIME};
pub use outcome::{
    CertStatus, ChainOutcome, DeviceOutcome, ErrorDetails, MeasurementOutcome, RimOutcome,
};
pub use revocation::MAX_OCSP_QUERIES;
pub use rims::{RimStore, CONFIGURED_ROOTS, MAX_STORED_RIMS};
pub use source::{Source, SourceState, MAX_LAST_ERROR_CHARS};
pub use test_pki::{TestPki, TestPkiAnswers, TestPkiCollateral, TestPkiError, TestPkiRim};
// HTTP plumbing (routing, CORS and security headers, HEAD) stays crate-private: app.rs uses
// it, and a host's own error answers carry the same headers (`ErrorResponseInit`).
