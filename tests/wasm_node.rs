//! The wasm suite in Node (`wasm-pack test --node -- --test wasm_node`).
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::std_instead_of_core,
    clippy::std_instead_of_alloc
)] // tests: fail loudly, use std

#[path = "common/wasm_suite.rs"]
mod wasm_suite;
