//! The wasm suite in Node (`wasm-pack test --node -- --test wasm_node`).
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

#[path = "common/wasm_suite.rs"]
mod wasm_suite;
