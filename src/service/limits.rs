//! The limits the core enforces, as one table for hosts to read instead of copying: a worker
//! stops reading a body, a fetch or an OCSP answer where the core would refuse it anyway.

use serde::Serialize;

/// The core's limits, in bytes (the JS `ServiceLimits`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceLimits {
    /// An attestation request body ([`crate::attest::MAX_BODY_BYTES`]); past it the service
    /// answers 413 `ERR_REQUEST_TOO_LARGE`.
    pub max_body_bytes: usize,
    /// A fetched RIM service envelope or OCSP answer ([`super::MAX_FETCHED_BYTES`]).
    pub max_fetched_bytes: usize,
    /// An OCSP response ([`crate::ocsp::MAX_RESPONSE_LEN`]).
    pub max_ocsp_response_bytes: usize,
    /// An `Authorization` header value ([`crate::access::MAX_AUTHORIZATION_LEN`]).
    pub max_authorization_bytes: usize,
}

impl ServiceLimits {
    /// The limits of this build of the core.
    pub const CORE: Self = Self {
        max_body_bytes: crate::attest::MAX_BODY_BYTES,
        max_fetched_bytes: super::MAX_FETCHED_BYTES,
        max_ocsp_response_bytes: crate::ocsp::MAX_RESPONSE_LEN,
        max_authorization_bytes: crate::access::MAX_AUTHORIZATION_LEN,
    };
}
