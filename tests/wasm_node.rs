//! The wasm suites in Node (`wasm-pack test --node -- --test wasm_node`): the same modules
//! as `tests/wasm_browser.rs` (keep the two lists equal).
#![cfg(target_arch = "wasm32")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::std_instead_of_core,
    clippy::std_instead_of_alloc
)]
// tests: fail loudly, use std
// The native suites below each declare fixture_files and verdicts for their own crate; here
// they use the crate-level ones (`crate::`), and their own copies are unused.
#![allow(clippy::duplicate_mod)]

// The fixtures (no file system in a browser) and the expected verdicts, shared with the
// native suites below.
#[path = "common/fixture_files.rs"]
mod fixture_files;
#[path = "common/verdicts.rs"]
mod verdicts;

// The binding with real and hostile JS values.
#[path = "common/wasm_suite.rs"]
mod wasm_suite;
// Evidence, device chains, RIMs and the Wycheproof vectors with WebCrypto as the backend.
#[path = "common/wasm_webcrypto.rs"]
mod wasm_webcrypto;

// The native suites themselves, run here unchanged (their `#[test]` is wasm-bindgen-test's).
#[path = "it/chain/nvidia.rs"]
mod chain_nvidia;
#[path = "it/evidence/fixtures.rs"]
mod evidence_fixtures;
#[path = "it/token/jwt_helpers.rs"]
mod jwt_helpers;
#[path = "it/rim/cert_chain.rs"]
mod rim_chain;
#[path = "it/rim/signature.rs"]
mod rim_signature;
#[path = "it/service/exchange.rs"]
mod service_exchange;
#[path = "it/token/attacks.rs"]
mod token_attacks;
#[path = "it/token/claim_boundaries.rs"]
mod token_claim_boundaries;
#[path = "it/token/wycheproof.rs"]
mod token_wycheproof;
