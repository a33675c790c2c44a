//! The wasm-bindgen layer: the only module with `#[wasm_bindgen]`. It converts JS values to
//! core inputs and core results or errors to JS values, and holds no policy.
//!
//! Errors cross the boundary in one place, [`error::to_js`]: a JS `Error` named
//! `EdgeAttestError` with a stable `code` and, where it applies, `field`.

// Exports reach JavaScript through #[wasm_bindgen], not Rust paths.
#![allow(unreachable_pub)]

#[cfg(feature = "js-full")]
pub mod access;
// A host's answer for a fetched resource (the service's fetch step, OCSP checks).
#[cfg(feature = "js-full")]
mod answer;
mod arch;
pub mod attest;
#[cfg(feature = "js-full")]
pub mod deprecation;
// serde types ⇄ JS values, with coded errors naming the member.
#[cfg_attr(not(feature = "js-full"), allow(dead_code))]
mod convert;
mod error;
#[cfg(feature = "js-full")]
pub mod evidence;
// Readers of single JS arguments shared by every binding; the client build uses only some.
#[cfg_attr(not(feature = "js-full"), allow(dead_code))]
mod args;
#[cfg(feature = "js-full")]
mod limits;
#[cfg(feature = "js-full")]
pub mod listing;
#[cfg(feature = "js-full")]
pub mod ocsp;
// Use-once work waiting on JS's verdicts (the client build's token verifications too).
mod pending;
#[cfg(feature = "js-full")]
pub mod rim;
// The JS `RuntimeEvidenceInput`, read into the core's `RuntimeEvidence`.
#[cfg(feature = "js-full")]
mod runtime;
#[cfg(feature = "js-full")]
pub mod service;
pub mod token;
