//! The attestation service as an HTTP-shaped router (spec: attestation-service.md): a request
//! (method, path, headers, body) and a context (`now`, keys, trust stores, RIMs,
//! configuration) in, a response (status, headers, JSON body) out. No I/O.

pub mod claims;
mod error;
mod health;
mod http;
mod keys;
mod outcome;
mod router;

pub use error::ErrorBody;
pub use health::{Health, HealthInputs, RimServiceState};
pub use http::{Request, Response};
pub use keys::{thumbprint, KeyRing};
pub use outcome::{
    CertStatus, ChainOutcome, DeviceOutcome, ErrorDetails, MeasurementMismatch, MeasurementOutcome,
    MeasurementSource, OcspStatus, OpaqueMismatch, RimOutcome,
};
pub use router::{decorate, route, strip_body_for_head, Route};
