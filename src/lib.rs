//! # edgeattest
//!
//! NVIDIA GPU and switch attestation for browsers and edge runtimes: a `no_std` + `alloc`
//! core that verifies SPDM evidence, certificate chains and reference measurements, mints
//! and verifies ES384 tokens, and implements the API conventions around the service (API-key
//! scopes, list queries, deprecation notices).
//!
//! The core does no I/O: the caller passes the time (`now`, Unix seconds), randomness and
//! documents. Every fallible operation returns a typed error whose [`ErrorCode::code`] is a
//! stable `ERR_*` string, used unchanged in Rust, in JavaScript (`err.code`) and in HTTP
//! bodies.
//!
//! ## Features
//! | feature | default | what it adds |
//! |---|---|---|
//! | `std` | yes | conveniences of the standard library; the core needs only `alloc` |
//!
//! The wasm-bindgen layer (`src/wasm`) is compiled only for `wasm32` targets.
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod crypto;
mod error_code;
pub mod json;
pub mod time;
mod urlencoded;

pub mod access;
pub mod attest;
pub mod chain;
pub mod deprecation;
pub mod evidence;
pub mod listing;
pub mod ocsp;
pub mod rim;
pub mod service;
pub mod token;

// The JS binding. Public only so that the wasm test suites can call it with hostile JS values;
// JavaScript users reach it through the npm package.
#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub mod wasm;

pub use error_code::{
    registered_code, ErrorBody, ErrorCode, NoDetail, RegisteredCode, ERROR_CODES,
};
