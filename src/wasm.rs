//! The wasm-bindgen layer: the only module with `#[wasm_bindgen]`. It converts JS values to
//! core inputs and core results or errors to JS values, and holds no policy.
//!
//! Errors cross the boundary in one place, [`error::to_js`]: a JS `Error` named
//! `EdgeAttestError` with a stable `code` and, where it applies, `field`.

// Exports reach JavaScript through #[wasm_bindgen], not Rust paths.
#![allow(unreachable_pub)]

/// Declares each module of the binding in the npm entries its row names, and in no other:
/// `default` (`edgeattest`, no binding feature), `local` (`edgeattest/local`, `js-verifier`),
/// `service` (`edgeattest/service`, `js-service`), `rego` (`edgeattest/rego`, `js-rego`). A
/// build of several binding features (the tests' `--features js-rego`) holds the modules of
/// each. What each entry is in features is written here once, in the arms below. After `=>`,
/// the JS modules of src/js/ that wrap the row's module: the build puts them in the same
/// entries (every other one of src/js/ is in default, local and service).
macro_rules! entries {
    ($($(#[$attr:meta])* $vis:vis mod $name:ident: $($entry:ident)+ $(=> $($js:ident)+)?;)*) => {
        $( entries!(@gate [] $($entry)+ => $(#[$attr])* $vis mod $name;); )*
    };
    (@gate [$($p:tt)*] default $($rest:ident)* => $item:item) => {
        entries!(@gate [$($p)* all(not(feature = "js-verifier"), not(feature = "js-rego")),]
            $($rest)* => $item);
    };
    (@gate [$($p:tt)*] local $($rest:ident)* => $item:item) => {
        entries!(@gate [$($p)* all(feature = "js-verifier", not(feature = "js-service")),]
            $($rest)* => $item);
    };
    (@gate [$($p:tt)*] service $($rest:ident)* => $item:item) => {
        entries!(@gate [$($p)* feature = "js-service",] $($rest)* => $item);
    };
    (@gate [$($p:tt)*] rego $($rest:ident)* => $item:item) => {
        entries!(@gate [$($p)* feature = "js-rego",] $($rest)* => $item);
    };
    (@gate [$($p:tt)*] => $item:item) => {
        #[cfg(any($($p)*))]
        $item
    };
}

// The entry table: which module, and so which export, is in which npm entry. The build and
// tests/js/entries.test.mjs read it; keep one row a line.
entries! {
    pub mod access: service;
    // A host's answer for a fetched resource (the service's fetch step, OCSP checks).
    mod answer: local service;
    mod attempts: service;
    mod arch: default local service;
    pub mod architectures: local service;
    pub mod attest: default local service;
    pub mod deprecation: service;
    // The worker's EDGEATTEST_* bindings, read by the core.
    mod bindings: service;
    pub mod ear: default local service;
    // CWT EARs (CBOR, COSE): kept out of the default module.
    pub mod ear_cwt: local service => ear_cwt;
    // Composite EARs (our GPU submodules beside a caller's CPU appraisal), signed and read:
    // the service entry only, keeping the local module within its size budget.
    pub mod ear_composite: service => ear_composite;
    // serde types ⇄ JS values, with coded errors naming the member.
    #[cfg_attr(not(feature = "js-service"), allow(dead_code, unused_imports))]
    mod convert: default local service rego;
    mod error: default local service rego;
    pub mod evidence: local service => evidence;
    // Readers of single JS arguments shared by every binding; the smaller builds use only some.
    #[cfg_attr(not(feature = "js-service"), allow(dead_code, unused_imports))]
    mod args: default local service rego;
    mod limits: local service;
    mod host_answers: service;
    pub mod listing: service;
    pub mod ocsp: local service => ocsp;
    // Use-once work waiting on JS's verdicts (the default build's token verifications too).
    mod pending: default local service;
    pub mod policy: default local service;
    pub mod rim: local service;
    // appraiseRego alone, with regorus.
    pub mod rego: rego;
    // A verified result's claims read back from JS, for the JSON and Rego policies.
    mod verified: default local service rego;
    // The JS `RuntimeEvidenceInput`, read into the core's `RuntimeEvidence`.
    mod runtime: local service;
    // A bundle's verdict recomputed offline (`x-edgeattest-replay: bundle`).
    pub mod replay: service;
    pub mod service: service => service fetch mirror;
    pub mod token: default local service;
    // The PPCIE topology of a node, from evidence or from two verified results.
    pub mod topology: local service;
}
