//! The `edgeattest:verifier` WebAssembly Component (WIT: `src/component/wit/verifier.wit`),
//! built for `wasm32-wasip2` with the `component` feature by `pkg-config/build-component.sh`.
//! It serves the hosts that run components without JavaScript (wasmtime, Spin, wasmCloud,
//! Fastly Compute) and any language with WIT bindings; the JS binding (`src/wasm`) is the
//! same core for the JS hosts.
//!
//! Interfaces: `attest` (request validation), `evidence` (evidence, certificate chains, batches,
//! a device's report with its RIMs and revocation, runtime values), `rim` (RIM verification,
//! identity, envelopes, ids, the comparison with evidence), `ocsp` (requests and responses of
//! a chain, and of the chain of a result's signer), `token` (JWTs, attestation results, raw P-384 checks), `policy` (NVIDIA's JSON
//! policies over a verified result). Each verifies with the software backend, and each
//! two-phase form hands the P-384 checks to the host instead ([`pending::Pending`]). Rego
//! policies are not here: they are the optional `rego` feature (regorus), shipped to JS alone.
//!
//! Thin conversions only, as `src/wasm` is: each function maps WIT records onto the core's
//! own option types (the members a JS caller writes, read by the same serde types, so the
//! same defaults and field names), calls the core, and maps the answer back. Time is a
//! parameter (`now`), documents are parameters; nothing is fetched and no randomness drawn.
//!
//! **Errors.** One record, `error { code, field, message }`, carrying the stable `ERR_*`
//! code and `field` of [`crate::ErrorCode`], not a variant with a case per code: the code set
//! is open (new codes are added every release) and a WIT variant or enum is closed, so every
//! new code would be a breaking change for every host; the strings are already the stable
//! contract (the JS `EdgeAttestError.code`). A variant appears only where a second kind of
//! failure exists: `verify-attestation-result`'s `refused` case, an authentic result whose
//! verdict is not a pass, which carries the result for a policy to read but can never be
//! mistaken for success.
//!
//! **Hostile inputs.** Every size limit is the core's (`MAX_*`); the canonical ABI validates
//! types and UTF-8 in the host. A list the core would only count later (nonces, answers,
//! devices, measurement blocks) is refused first by its length ([`at_most`], against the
//! core's bound), before anything is built from it. `panic = "abort"` makes a panic a trap,
//! and the core lints panics away; this layer has no `unwrap`.
//!
//! **Use once.** The two-phase resources (`evidence-batch`, `report-plan`, `pending-rim`,
//! `token-verification`) hold their work in a cell and give it up on `finish`/`verify`; a
//! second use is `ERR_BATCH_CONSUMED`, the JS binding's code and message.

// wit-bindgen's generated exports need `unsafe` (`export_name`, raw ABI pointers): allowed
// here alone; the crate denies it everywhere else.
#![allow(unsafe_code)]

mod args;
mod attest;
mod evidence;
mod ocsp;
mod ocsp_values;
mod pending;
mod policy;
mod report;
mod rim;
mod runtime;
mod signer_ocsp;
mod token;
mod token_values;
mod verification;

use alloc::string::{String, ToString};
use core::fmt::Display;

use crate::error_code::ErrorCode;

wit_bindgen::generate!({
    world: "verifier",
    path: "src/component/wit",
});

// `types` is exported (not only `use`d), so hosts see one shared definition of `error`.
use exports::edgeattest::verifier::types::Error as WitError;

/// The component's single export type.
struct Verifier;

export!(Verifier);

/// A core error as the WIT `error`.
fn coded<E: ErrorCode + Display>(error: &E) -> WitError {
    WitError {
        code: error.code().into(),
        field: error.field().map(Into::into),
        message: error.to_string(),
    }
}

/// A failure of this layer itself: `ERR_INVALID_ARGUMENT` naming the member, worded as the
/// JS binding words it (`{field} must be {expected}`).
fn invalid(field: &str, expected: impl Display) -> WitError {
    WitError {
        code: "ERR_INVALID_ARGUMENT".into(),
        field: Some(field.into()),
        message: alloc::format!("{field} must be {expected}"),
    }
}

/// `now` within the core's time range ([`crate::UnixTime::from_secs`]), named `now`.
fn checked_now(now: u64) -> Result<crate::time::UnixTime, WitError> {
    crate::time::UnixTime::from_secs(now).ok_or_else(|| {
        invalid(
            "now",
            "Unix seconds (a whole number from 0 to 253402300799)",
        )
    })
}

/// A list longer than the core could use, refused before anything reads it (research
/// §3.5: the host has copied it in already; nothing more is spent on it).
fn at_most<T>(list: &[T], max: usize, field: &str) -> Result<(), WitError> {
    if list.len() > max {
        return Err(invalid(field, alloc::format!("a list of at most {max}")));
    }
    Ok(())
}

/// A core value as the JS API's JSON text.
fn json<T: serde::Serialize + ?Sized>(value: &T) -> Result<String, WitError> {
    crate::json::write::to_string(value).map_err(|_| WitError {
        code: "ERR_INTERNAL".into(),
        field: None,
        message: "internal JSON error".to_string(),
    })
}
