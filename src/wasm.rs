//! The wasm-bindgen layer: the only module with `#[wasm_bindgen]`. It converts JS values to
//! core inputs and core results or errors to JS values, and holds no policy.
//!
//! Errors cross the boundary in one place, [`error::to_js`]: a JS `Error` named
//! `EdgeAttestError` with a stable `code` and, where it applies, `field`.

// Exports reach JavaScript through #[wasm_bindgen], not Rust paths.
#![allow(unreachable_pub)]

mod access;
mod attest;
mod deprecation;
mod error;
mod evidence;
mod js;
mod listing;
mod rim;
mod service;
mod token;
