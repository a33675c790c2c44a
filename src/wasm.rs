//! The wasm-bindgen layer: the only module with `#[wasm_bindgen]`. It converts JS values to
//! core inputs and core results or errors to JS values, and holds no policy.
//!
//! Errors cross the boundary in one place, [`error::to_js`]: a JS `Error` named
//! `EdgeAttestError` with a stable `code` and, where it applies, `field`.

// Exports reach JavaScript through #[wasm_bindgen], not Rust paths.
#![allow(unreachable_pub)]

#[cfg(feature = "js-service")]
pub mod access;
// A host's answer for a fetched resource (the service's fetch step, OCSP checks).
#[cfg(feature = "js-verifier")]
mod answer;
#[cfg(any(feature = "js-verifier", not(feature = "js-rego")))]
mod arch;
#[cfg(any(feature = "js-verifier", not(feature = "js-rego")))]
pub mod attest;
#[cfg(feature = "js-service")]
pub mod deprecation;
// The worker's EDGEATTEST_* bindings, read by the core.
#[cfg(feature = "js-service")]
mod bindings;
#[cfg(any(feature = "js-verifier", not(feature = "js-rego")))]
pub mod ear;
// serde types ⇄ JS values, with coded errors naming the member.
#[cfg_attr(not(feature = "js-service"), allow(dead_code, unused_imports))]
mod convert;
mod error;
#[cfg(feature = "js-verifier")]
pub mod evidence;
// Readers of single JS arguments shared by every binding; the smaller builds use only some.
#[cfg_attr(not(feature = "js-service"), allow(dead_code, unused_imports))]
mod args;
#[cfg(feature = "js-verifier")]
mod limits;
#[cfg(feature = "js-service")]
pub mod listing;
#[cfg(feature = "js-verifier")]
pub mod ocsp;
// Use-once work waiting on JS's verdicts (the default build's token verifications too).
#[cfg(any(feature = "js-verifier", not(feature = "js-rego")))]
mod pending;
#[cfg(any(feature = "js-verifier", not(feature = "js-rego")))]
pub mod policy;
#[cfg(feature = "js-verifier")]
pub mod rim;
// The Rego module (`edgeattest/rego`, `--features std,js-rego`): appraiseRego alone, so the
// client bindings above are left out of that build (they are in every other one).
#[cfg(feature = "js-rego")]
pub mod rego;
// A verified result's claims read back from JS, for the JSON and Rego policies.
mod verified;
// The JS `RuntimeEvidenceInput`, read into the core's `RuntimeEvidence`.
#[cfg(feature = "js-verifier")]
mod runtime;
#[cfg(feature = "js-service")]
pub mod service;
#[cfg(any(feature = "js-verifier", not(feature = "js-rego")))]
pub mod token;
