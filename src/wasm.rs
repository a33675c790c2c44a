//! The wasm-bindgen layer: the only module with `#[wasm_bindgen]`. It converts JS values to
//! core inputs and core results or errors to JS values, and holds no policy.
//!
//! Errors cross the boundary in one place, [`error::to_js`]: a JS `Error` named
//! `EdgeAttestError` with a stable `code` and, where it applies, `field`.

// Exports reach JavaScript through #[wasm_bindgen], not Rust paths.
#![allow(unreachable_pub)]

#[cfg(feature = "js-full")]
pub mod access;
mod arch;
pub mod attest;
#[cfg(feature = "js-full")]
pub mod deprecation;
mod error;
#[cfg(feature = "js-full")]
pub mod evidence;
// Readers shared by every binding; the client build uses only some of them.
#[cfg_attr(not(feature = "js-full"), allow(dead_code))]
mod js;
#[cfg(feature = "js-full")]
pub mod listing;
#[cfg(feature = "js-full")]
pub mod ocsp;
#[cfg(feature = "js-full")]
pub mod rim;
#[cfg(feature = "js-full")]
pub mod service;
pub mod token;
