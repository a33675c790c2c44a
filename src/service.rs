//! The attestation service as an HTTP-shaped router (NVIDIA's NRAS API): a request
//! (method, path, headers, body) and a context (`now`, keys, trust stores, RIMs,
//! configuration) in, a response (status, headers, JSON body) out. No I/O.

mod answer;
mod app;
mod appraisal;
mod bindings;
pub mod claims;
mod device;
mod error;
mod error_response;
mod exchange;
mod failure;
mod fetch;
mod health;
mod http;
mod keys;
mod limits;
mod mint;
mod negotiate;
mod options;
mod outcome;
mod policy_gate;
mod remedy;
mod revocation;
mod rims;
mod router;
mod test_pki;
mod wire;

pub use answer::{AnswerError, AnswerFailure, FetchAnswer};
pub use app::{Service, ServiceConfig, DEFAULT_TOKEN_LIFETIME};
pub use bindings::{
    BindingsError, CryptoChoice, HostSettings, RimDocument, DEFAULT_OCSP_TIMEOUT_MS,
    MAX_OCSP_TIMEOUT_MS,
};
pub use device::{
    DUPLICATE_DEVICE_CODE, FWID_NOT_IN_EVIDENCE_WARNING, OTHER_ROOT_WARNING, REVOCATION_WARNING,
};
pub use error::ErrorBody;
pub use error_response::{ErrorResponse, ErrorResponseInit, InitError};
pub use exchange::{Exchange, ExchangeError, Step, MAX_SIGNATURE_CHECKS};
pub use fetch::{
    is_source_url, FetchFailure, Fetched, OcspCacheEntry, Resource, FETCH_CACHE_ENTRIES,
    FETCH_CONCURRENCY, MAX_FETCHED_BYTES, NVIDIA_OCSP_URL, NVIDIA_RIM_SERVICE_URL,
    RIM_CACHE_SECONDS, RIM_MISS_SECONDS, RIM_TIMEOUT_MS,
};
pub use health::{Health, HealthInputs, KeyLocation, Source, SourceState};
pub use http::{Request, Response};
pub use keys::{thumbprint, KeyRing};
pub use limits::ServiceLimits;
pub use options::{OptionsError, ServiceOptions, Setting, MAX_TOKEN_LIFETIME, MIN_TOKEN_LIFETIME};
pub use outcome::{
    CertStatus, ChainOutcome, DeviceOutcome, ErrorDetails, MeasurementOutcome, OcspStatus,
    RimOutcome,
};
pub use policy_gate::POLICY_NOT_MET_CODE;
pub use revocation::{CERTIFICATE_HOLD_WARNING, MAX_OCSP_QUERIES};
pub use rims::{RimStore, CONFIGURED_ROOTS, MAX_STORED_RIMS};
pub use test_pki::{TestPki, TestPkiAnswers, TestPkiError};
pub use wire::MAX_LAST_ERROR_CHARS;
// HTTP plumbing (routing, CORS and security headers, HEAD) stays crate-private: app.rs uses
// it, and a host's own error answers carry the same headers (`ErrorResponseInit`).
