//! Certificate revocation by OCSP (RFC 6960), as NVIDIA's verifiers check device and RIM
//! chains — without I/O: the caller passes `now`, the nonces and the
//! response bytes; the host does the HTTP POSTs and the caching.
//!
//! # API
//!
//! ```text
//! ocsp_targets(chain_len, ChainKind::Device | Rim) -> Range<usize>    // which certificates
//! OcspRequest::new(subject_der, issuer_der, nonce)?  .der() / .nonce() / .cache_key()
//! chain_requests(&chain, kind, entropy)? -> Vec<OcspRequest>           // one per target
//! check_response(response_der, &request, nonce, issuer_der, now)? -> PendingOcsp
//!     .signature_checks() / .finish(&verdicts)? / .verify_in_core()? -> CheckedOcsp
//! fold_chain(&results, &rule, now) -> ChainRevocation                 // one status per chain
//! RevocationPolicy{device_chain, ..}.rule(component) -> &RevocationRule // what passes, warned
//! OcspRequestsOptions{kind, nonces}.requests(chain_pem, fresh)?        // a host's requests (serde)
//! CheckOcspOptions{rule, allow_hold}.check(chain_pem, kind, &answers, now)? -> OcspChainStatus
//! ```
//!
//! * Requests: CertID with SHA-384 as NVIDIA's verifiers send them, and a 32-byte nonce.
//! * Responses: at most [`MAX_RESPONSE_LEN`] bytes of DER; `responseStatus` successful;
//!   `id-pkix-ocsp-basic`; ecdsa-with-SHA384 by a P-384 key (allow-list); signed by the
//!   issuing CA or by a responder certificate it issued with `id-kp-OCSPSigning`, valid at
//!   `now` (`responder.rs`); exactly one SingleResponse about the certificate asked about
//!   among at most [`MAX_SINGLE_RESPONSES`], at most [`MAX_RESPONSE_CERTS`] certificates;
//!   `thisUpdate ≤ now + skew` and `now < nextUpdate + skew` ([`OCSP_CLOCK_SKEW`]); the
//!   nonce, when echoed, equal to the request's. Each failure is its own [`OcspError`] with
//!   a stable `ERR_OCSP_*` code.
//! * Not RustCrypto's `x509-ocsp` (it targets `der` 0.7 / `x509-cert` 0.2: two `der` versions
//!   in the wasm module), nor types derived with `der` 0.8 (tried first: 30 KB gzipped in
//!   wasm for the feature, 12.5 KB now): the request is written as DER by hand (`asn1.rs`),
//!   responses are read with `der`'s reader primitives (`parse.rs`), certificates with the
//!   chain module's parser. SHA-1 is used for one thing only, `ResponderID byKey`, whose
//!   hash RFC 6960 fixes.
//! * A revoked or unknown certificate is a status ([`CertRevocation`]), not an error; a
//!   failed fetch is [`OcspError::Unavailable`], so that [`fold_chain`] sees every outcome.

mod asn1;
mod chain_check;
mod error;
mod fold;
mod parse;
mod policy;
mod relay;
mod request;
mod responder;
mod response;
mod status;
mod targets;

pub use crate::host_answer::FetchFailure;
pub use asn1::CertId;
pub(crate) use chain_check::{check_fetched, subject_name};
pub use chain_check::{
    ChainOcspRequest, CheckOcspOptions, OcspCertificateStatus, OcspChainStatus, OcspInputError,
    OcspNonce, OcspRequestsOptions,
};
pub use error::{OcspError, ResponderProblem, ResponseStatus};
pub use fold::{fold_chain, ChainRevocation};
pub use policy::{
    Relaxation, RevocationComponent, RevocationPolicy, RevocationRule, HOLD_ACCEPTED,
};
pub use relay::mirror_cache_key;
pub use request::{OcspRequest, NONCE_LEN};
pub(crate) use response::check_response_within;
pub use response::{check_response, screen_response, PendingOcsp};
pub use status::{CertRevocation, CheckedOcsp, NonceCheck, RevocationReason};
pub use targets::{chain_requests, ocsp_targets, ChainKind};

/// Clock tolerance, in seconds, on both ends of a response's validity window: host clocks
/// and responder clocks drift, and NVIDIA's responder signs with thisUpdate = now.
pub const OCSP_CLOCK_SKEW: u64 = 300;

/// How long a response without nextUpdate stays current after its thisUpdate (7 days);
/// such a response is never cached ([`CheckedOcsp::cache_until`] = 0).
pub const MAX_AGE_WITHOUT_NEXT_UPDATE: u64 = 7 * 24 * 3600;

/// The longest a host may cache a response (1 day), whatever its nextUpdate.
pub const MAX_CACHE_SECONDS: u64 = 24 * 3600;

/// Largest response accepted (64 KiB; NVIDIA's are about 1.5 KiB with a responder
/// certificate).
pub const MAX_RESPONSE_LEN: usize = 64 * 1024;

/// Most SingleResponses read from one response (a request asks about one certificate).
pub const MAX_SINGLE_RESPONSES: usize = 16;

/// Most certificates accepted in a response's `certs` (a delegated responder sends one).
pub const MAX_RESPONSE_CERTS: usize = 4;
