//! The wasm suite in headless Chromium (`wasm-pack test --headless --chrome -- --test wasm_browser`).
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::std_instead_of_core,
    clippy::std_instead_of_alloc
)] // tests: fail loudly, use std

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "common/wasm_suite.rs"]
mod wasm_suite;
