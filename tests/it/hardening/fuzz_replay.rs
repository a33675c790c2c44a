//! Replays every committed fuzz input — the seed corpora (tests/fuzz/corpus/<target>/) and
//! the regression inputs of past findings (tests/fuzz/regressions/<target>/) — through the
//! fuzz target bodies natively, under `cargo test`, without cargo-fuzz or libFuzzer. A
//! finding that comes back fails here by name.
#![cfg(not(target_arch = "wasm32"))]
#![allow(unreachable_pub, dead_code)] // the harness is shared with the fuzz crate

#[path = "../../fuzz/src/harness.rs"]
mod harness;

use std::path::{Path, PathBuf};

fn inputs(kind: &str, target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz")
        .join(kind)
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

fn replay(kind: &str) -> usize {
    let mut count = 0;
    for (target, body) in harness::TARGETS {
        for file in inputs(kind, target) {
            let data = std::fs::read(&file).unwrap();
            let outcome = std::panic::catch_unwind(|| body(&data));
            assert!(outcome.is_ok(), "{target}: {} panics", file.display());
            count += 1;
        }
    }
    count
}

#[test]
fn every_target_has_a_seed_corpus() {
    for (target, _) in harness::TARGETS {
        assert!(
            !inputs("corpus", target).is_empty(),
            "tests/fuzz/corpus/{target}/ is empty"
        );
        let source = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fuzz/fuzz_targets")
            .join(format!("{target}.rs"));
        assert!(source.is_file(), "no cargo-fuzz target for {target}");
    }
}

#[test]
fn seed_corpora_replay_cleanly() {
    assert!(replay("corpus") > 100);
}

#[test]
fn regression_inputs_replay_cleanly() {
    replay("regressions");
}

#[test]
fn split_keeps_documents_and_pads_missing_ones() {
    let parts = harness::split(b"a\n%%\nb\n%%\nc", 2);
    assert_eq!(parts, vec![&b"a"[..], &b"b\n%%\nc"[..]]);
    assert_eq!(
        harness::split(b"only", 3),
        vec![&b"only"[..], &b""[..], &b""[..]]
    );
}

#[test]
fn p384_verification_agrees_with_rustcrypto_on_every_edge_case() {
    // Keys from scalars (1, n−1, a middling one; n and 0 are not keys) and of edge
    // coordinates, signatures valid, high-s, of edge scalars (0, n, ≥ n): both implementations
    // decide alike on each (the harness asserts it), and every valid signature is accepted.
    let (decided, accepted) = harness::p384_edge_cases();
    assert_eq!((decided, accepted), (394, 12));
}
