//! # edgeattest
//!
//! NVIDIA GPU and switch attestation for browsers and edge runtimes: a `no_std` + `alloc`
//! core that verifies SPDM evidence, certificate chains and reference measurements, mints
//! and verifies ES384 tokens, and implements the API conventions around the service (API-key
//! scopes, list queries, deprecation notices).
//!
//! The core does no I/O: the caller passes the time (`now`, a [`UnixTime`]), randomness and
//! documents. Every fallible operation returns a typed error whose [`ErrorCode::code`] is a
//! stable `ERR_*` string, used unchanged in Rust, in JavaScript (`err.code`) and in HTTP
//! bodies.
//!
//! ## The API
//!
//! The attestation core is one public module per step; the crate root keeps only the two names
//! every step shares: [`ErrorCode`], the trait whose [`ErrorCode::code`] every error answers
//! (it must be in scope to call), and [`UnixTime`], the clock reading every check takes as
//! `now`. Everything else is named by its step (`edgeattest::chain::verify_chain`), so a
//! reader of a `use` line sees which step a name belongs to, and one name is one type.
//!
//! A point in time is a [`UnixTime`]: the verifiers' and the service's `now`, built by a host
//! once at its edge ([`UnixTime::from_secs`], [`UnixTime::from_millis`]), so no check can be
//! handed a duration or a millisecond count by mistake, and every time a report carries (a
//! certificate's validity, an OCSP answer's updates, a key's expiry, a deprecation date), which
//! JSON writes as Unix seconds. A duration (a clock tolerance, a token lifetime, a cache age)
//! stays whole seconds as `u64`.
//!
//! | step | module | entry points | proof or result |
//! |---|---|---|---|
//! | build or check an attest request | [`attest`] | [`AttestRequestBuilder`](attest::AttestRequestBuilder), [`validate_request`](attest::validate_request) | [`ValidatedRequest`](attest::ValidatedRequest) |
//! | parse and verify device evidence | [`evidence`] | [`Transcript::parse`](evidence::Transcript::parse), [`verify_evidence`](evidence::verify_evidence), [`BatchPlan`](evidence::BatchPlan) | [`VerifiedEvidence`](evidence::VerifiedEvidence) |
//! | certificate chains | [`chain`] | [`parse_pem_chain`](chain::parse_pem_chain), [`verify_chain`](chain::verify_chain), [`ChainPlan`](chain::ChainPlan) | [`VerifiedChain`](chain::VerifiedChain) |
//! | revocation (OCSP) | [`ocsp`] | [`chain_requests`](ocsp::chain_requests), [`check_response`](ocsp::check_response), [`fold_chain`](ocsp::fold_chain) | [`CheckedOcsp`](ocsp::CheckedOcsp), [`ChainRevocation`](ocsp::ChainRevocation) |
//! | reference measurements (RIMs) | [`rim`] | [`driver_rim_id`](rim::driver_rim_id), [`verify_rim`](rim::verify_rim), [`compare_gpu`](rim::compare_gpu) | [`VerifiedRim`](rim::VerifiedRim), [`Comparison`](rim::Comparison) |
//! | tokens and results | [`token`] | [`sign_jwt`](token::sign_jwt), [`verify_jwt`](token::verify_jwt), [`create_detached_eat`](token::create_detached_eat), [`verify_attestation_result`](token::verify_attestation_result) | [`VerifiedJwt`](token::VerifiedJwt), [`VerifiedAttestationResult`](token::VerifiedAttestationResult) |
//! | relying-party policies | [`policy`] | [`Policy::parse`](policy::Policy::parse), [`appraise`](policy::appraise) | [`PolicyDecision`](policy::PolicyDecision) |
//! | EAT Attestation Results | [`ear`] | [`Ear::from_result`](ear::Ear::from_result), [`verify_ear`](ear::verify_ear) | [`EarAppraisal`](ear::EarAppraisal) |
//! | keys and signatures | [`crypto`] | [`SigningKey`](crypto::SigningKey), [`PublicKey`](crypto::PublicKey), [`SignatureCheck`](crypto::SignatureCheck) | |
//! | time | [`time`] | [`UnixTime`], [`parse_rfc3339`](time::parse_rfc3339), [`format_http_date`](time::format_http_date) | |
//!
//! Three small modules hold what every step shares: [`error_code`] (the codes' registry and
//! the one error body), [`json`] (the strict JSON reader every outside document goes
//! through, usable for a host's own documents too) and [`bytes`] (the byte members of the
//! option shapes). The SPDM opaque-data tag numbers that
//! [`OpaqueData`](evidence::OpaqueData)'s accessors take are [`evidence::tag`].
//!
//! A request built by a client and checked as the service checks it:
//!
//! ```
//! use edgeattest::attest::{
//!     validate_request, Arch, AttestRequestBuilder, ClaimsVersion, Endpoint, EvidenceInput, Nonce,
//! };
//!
//! # let (transcript, pem) = (vec![0x11, 0xe0, 0, 0], "-----BEGIN CERTIFICATE-----\n...\n");
//! let nonce = Nonce::from_bytes([7; 32]); // 32 bytes of the host's randomness
//! let body = AttestRequestBuilder::new(Endpoint::GpuV4, nonce)
//!     .arch(Arch::Hopper)
//!     .claims_version(ClaimsVersion::V3_0)
//!     .evidence(EvidenceInput { evidence: &transcript, certificate_pem: pem, firmware_version: None })
//!     .build()?;
//! let json = body.to_json();
//! assert!(json.starts_with(r#"{"nonce":"0707"#));
//!
//! // The service side: the same checks, then the decoded evidence.
//! let request = validate_request(Endpoint::GpuV4, json.as_bytes())?;
//! assert_eq!(request.devices()[0].evidence(), transcript.as_slice());
//! assert_eq!(request.claims_version(), ClaimsVersion::V3_0);
//! # Ok::<(), edgeattest::attest::RequestError>(())
//! ```
//!
//! The HTTP-facing parts are one module each, with their own vocabulary: [`service`] (the
//! attestation service as a request → response function), [`access`] (API keys, scopes and
//! the gateway), [`listing`] (list queries) and [`deprecation`] (notices and headers). HTTP
//! plumbing (routing, response decoration, header-forwarding helpers) is private to the
//! crate.
//!
//! ## Features
//! | feature | default | what it adds |
//! |---|---|---|
//! | `std` | yes | conveniences of the standard library; the core needs only `alloc` |
//!
//! The wasm-bindgen layer (`src/wasm`) is compiled only for `wasm32-unknown-unknown`; the
//! WebAssembly Component (`src/component`, feature `component`) only for `wasm32-wasip2`.
// `ts` (the TypeScript generator's feature, in no module build) keeps the std prelude: ts-rs's
// derive writes `format!`, `String` and `to_string` unqualified.
#![cfg_attr(not(feature = "ts"), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

// Crate helpers, private: certificate parsing (reached through `chain`'s errors), the host's
// answers (reached through `service` and `ocsp`), sorting and URL encoding.
mod host_answer;
mod sort;
mod urlencoded;
mod x509;

// What every step shares: codes, strict JSON (a Rust host applies it to the documents it
// reads before they reach the core: `json::from_slice::<ServiceOptions>`), strict CBOR,
// byte members and time.
pub mod bytes;
pub mod cbor;
pub mod error_code;
pub mod json;
pub mod time;

// The attestation core: one public module per step. Each module file's `pub use` list is
// its facade; its submodules are private, so a module's layout can change without breaking
// a user.
pub mod attest;
pub mod chain;
pub mod cose;
pub mod crypto;
pub mod ear;
pub mod evidence;
pub mod ocsp;
pub mod policy;
pub mod rim;
pub mod token;

// The HTTP-facing parts: one public module each.
pub mod access;
pub mod deprecation;
pub mod listing;
pub mod service;

// The JS binding. Public only so that the wasm test suites can call it with hostile JS values;
// JavaScript users reach it through the npm package. Only on the JS target
// (wasm32-unknown-unknown): wasm32-wasip2 builds the WebAssembly Component instead.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
#[doc(hidden)]
pub mod wasm;

// The `edgeattest:verifier` WebAssembly Component (WIT world), built for wasm32-wasip2.
#[cfg(all(target_arch = "wasm32", target_os = "wasi", feature = "component"))]
mod component;

// The two names every step shares: the trait that reads any error's code, and the clock
// reading every check takes.
pub use error_code::ErrorCode;
pub use time::UnixTime;
