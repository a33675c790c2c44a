//! The native integration tests, one binary: one module per concern, one file per topic
//! (`tests/it/<concern>/<topic>.rs`). One binary links the crate once instead of once per
//! file. Run one concern or topic with a filter: `cargo test --test it chain::nvidia`.
//!
//! Some files are shared with the wasm suites (`tests/wasm_node.rs`, `tests/wasm_browser.rs`),
//! which include them by path with the same crate-level `fixture_files` and `verdicts`
//! modules as here. Fixtures are read from `tests/fixtures/` (relative to
//! `CARGO_MANIFEST_DIR`) or embedded through `tests/common/fixture_files.rs`.
//!
//! A new test file: put it under its concern's folder and add a `mod` line below.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::std_instead_of_core,
    clippy::std_instead_of_alloc
)]
// tests: fail loudly, use std
// The shared files each declare fixture_files and verdicts for themselves (for their own
// crate when they were separate binaries); they use the crate-level ones (`crate::`) here, as
// in the wasm suites.
#![allow(clippy::duplicate_mod)]

#[path = "../common/fixture_files.rs"]
mod fixture_files;

/// The member names of a JSON object, in order: the shapes the tests pin.
fn keys(value: &serde_json::Value) -> Vec<&str> {
    value
        .as_object()
        .expect("a JSON object")
        .keys()
        .map(String::as_str)
        .collect()
}
/// A checked-in generated file is what its source renders: with `EDGEATTEST_BLESS` set, the
/// file is rewritten instead (`regenerate` is the command the failure names). Native only, as
/// the files' tests (they read and write the source tree).
#[cfg(not(target_arch = "wasm32"))]
fn generated_file_is(file: &std::path::Path, rendered: &str, regenerate: &str) {
    if std::env::var_os("EDGEATTEST_BLESS").is_some() {
        std::fs::write(file, rendered).unwrap();
        return;
    }
    let current = std::fs::read_to_string(file).unwrap_or_default();
    assert!(
        current == rendered,
        "{} is not what its source renders: run `{regenerate}`",
        file.display()
    );
}
#[path = "../common/verdicts.rs"]
mod verdicts;

/// Role scopes, the gateway, forwarding, key stores and the route table.
mod access {
    mod forward;
    mod forward_properties;
    mod gateway;
    mod key_request;
    mod keys;
    mod matrix;
    mod options;
    mod properties;
    mod routes;
    mod store_lookup;
}

/// Relying-party policies (NVIDIA's JSON format) against verified results.
mod policy {
    mod nvidia;
    mod rego;
    mod rego_builtins;
    mod rego_cost;
    mod rego_nvat;
    mod rego_nvidia;
    mod rego_prepared;
    mod rules;
    pub(crate) mod signed;
}

/// The public surface: the root re-export list and the few public modules.
mod api {
    mod surface;
}

/// Attestation request bodies: building, validation, refusals.
mod attest {
    mod arch_profiles;
    mod request;
    mod request_errors;
    mod summary;
}

/// Certificate chains: NVIDIA device chains, RIM signing chains, generated and limbo cases.
mod chain {
    mod generated;
    mod limbo;
    mod nvidia;
    mod purpose;
    mod rim_signers;
}

/// Deprecation notices, headers and request checks.
mod deprecation {
    mod headers;
    mod notices;
    mod options;
    mod properties;
    mod requests;

    /// The instant `secs` seconds after the epoch (the tables give dates as seconds).
    #[cfg(not(target_arch = "wasm32"))]
    fn at(secs: u64) -> edgeattest::UnixTime {
        edgeattest::UnixTime::from_secs(secs).unwrap()
    }
}

/// The one two-phase shape (`Deferred`) of every verifier that needs signatures.
mod deferred_protocol;

/// The one problem-body shape of every module's errors.
mod error_bodies;

/// The TypeScript claim sets (src/js/claims.d.ts) written from the service's claims structs.
mod claims_dts;

/// The registry of error codes against the source and the TypeScript union.
mod error_codes;

/// SPDM evidence: encodings, fixtures, generated transcripts, parsing, per-arch profiles,
/// the PPCIE topology verdict.
/// CMW-wrapped evidence: both serialisations, NVIDIA's profile, every entry that takes it.
mod cmw {
    mod attest;
    mod cbor;
    mod json;
    mod options;
    pub(crate) mod support;
}

mod evidence {
    mod chips;
    pub(crate) mod edit;
    mod encoding;
    mod fixtures;
    mod generated;
    mod mode;
    mod options;
    mod parsed;
    mod profiles;
    mod report;
    mod topology;
    mod topology_join;
}

/// Caps on hostile input, and the committed fuzz inputs replayed.
mod hardening {
    mod fuzz_replay;
    mod limits;
    mod limits_access;
}

/// The crate's layers as a table, every `crate::` path of `src/` pointing down them, and no
/// file circle in `src/`.
mod layering;

/// The list engine: queries, schemas, robustness.
mod listing {
    mod docs;
    mod engine;
    mod properties;
    mod query;
    mod robustness;
    mod schemas;
}

/// OCSP requests, responses and their fold into chain revocation.
mod ocsp {
    mod chain_check;
    mod fold;
    mod properties;
    mod request;
    mod response;
}

/// The one query-string splitter.
mod query_strings;

/// Reference integrity manifests: signatures, signer chains, ids, comparison, budgets.
mod rim {
    mod budget;
    mod cert_chain;
    mod compare;
    mod corim;
    mod corim_pipeline;
    mod corim_signed;
    mod corim_validity;
    mod host_options;
    mod identity;
    mod ids;
    mod kind;
    mod properties;
    mod signature;
}

/// The revocation policy's table: the local verifier against it, the README's copy of it.
mod revocation_policy;

/// The attestation service: the exchange, claims, keys, OCSP policy, request rules, the
/// serde shapes hosts exchange with it.
mod service {
    mod attest;
    mod bindings;
    mod blackwell;
    mod claims;
    mod claims_bytes;
    mod collateral;
    mod ear;
    mod exchange;
    mod fetch_attempts;
    mod fetch_round;
    mod keys;
    mod memo;
    mod mirror;
    mod ocsp;
    mod ocsp_policy;
    mod ocsp_unanswered;
    mod options;
    mod policy_gate;
    pub(crate) mod replay;
    mod replay_tamper;
    mod request_rules;
    mod result_text;
    pub(crate) mod revocation_policy;
    mod stale_if_error;
    mod test_pki;
    mod wire;
}

/// EAT Attestation Results: the claims → AR4SI mapping, the draft's schema, the service.
mod ear {
    mod composite;
    mod cwt;
    mod dialects;
    mod interop;
    mod mapping;
    mod schema;
}

/// The TypeScript declarations against the serde shapes the core writes.
mod ts_drift;

/// The TypeScript generated from the core's serde types (feature `ts`), and its staleness.
mod ts_generated;

/// ES384 tokens: JWT attacks, EAT, NRAS results, appraisal, Wycheproof, property tests.
mod token {
    mod appraisal;
    mod appraisal_versions;
    mod attacks;
    mod claim_boundaries;
    mod eat;
    mod jwt_helpers;
    mod nras;
    mod properties;
    mod result_format;
    mod revocation_policy;
    mod revocation_time;
    mod revocation_verdict;
    mod sec1_keys;
    mod signer;
    mod signer_ocsp;
    pub(crate) mod teep;
    mod verdict_level;
    mod verify_input;
    mod wycheproof;
}
