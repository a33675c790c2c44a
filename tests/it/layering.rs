//! The crate's stack: its layers as a table, and a check that every `crate::` path of `src/`
//! (in `use` lines and in code) points down it. A path names the file that defines the item
//! (a module's re-exports are followed), so `crate::attest::Arch` is the architecture table's,
//! not the request layer's. Internal code names a module path, never the root's re-export
//! list (`crate::ErrorCode`): the root is the public facade, not a layer. Within the stack,
//! no file circle (`file_graph`: the same reader, the graph of files).
//!
//! `python3 pkg-config/layers.py` reads the same table to count the edges and file circles.

use std::collections::BTreeSet;
use std::path::Path;

mod file_graph;
mod reader;

use reader::{strip, Crate};

/// The layers, bottom to top: (layer, its module paths, the layers it may import). A file
/// belongs to the layer of the longest module path that is a prefix of its own
/// (`attest::arch` is src/attest/arch.rs and what is below it). A layer that lists itself
/// lets its modules import each other; the two skins do not, and share only the core.
const LAYERS: &[(&str, &[&str], &[&str])] = &[
    (
        "base",
        &[
            "json",
            "cbor",
            "time",
            "bytes",
            "error_code",
            "sort",
            "urlencoded",
            "host_answer",
        ],
        &["base"],
    ),
    ("crypto", &["crypto"], &["base"]),
    // COSE_Sign1: the envelope of CWT results and signed CoRIMs (signatures, not trust).
    ("cose", &["cose"], &["crypto", "base"]),
    ("x509", &["x509"], &["crypto", "base"]),
    (
        "profiles",
        &[
            "attest::arch",
            "attest::arch_row",
            "attest::endpoint",
            "attest::encoding",
            "attest::error",
            "attest::firmware_version",
            "attest::nonce",
            "attest::profile",
        ],
        &["profiles", "base"],
    ),
    ("chain", &["chain"], &["x509", "profiles", "crypto", "base"]),
    (
        "revocation",
        &["ocsp"],
        &["chain", "x509", "profiles", "crypto", "base"],
    ),
    (
        "rim",
        &["rim"],
        &[
            "revocation",
            "chain",
            "x509",
            "profiles",
            "cose",
            "crypto",
            "base",
        ],
    ),
    (
        "evidence",
        &["evidence"],
        &[
            "rim",
            "revocation",
            "chain",
            "x509",
            "profiles",
            "cose",
            "crypto",
            "base",
        ],
    ),
    // Tokens read the relying party's revocation policy (the one shape of `ocsp::policy`).
    (
        "tokens",
        &["token"],
        &["revocation", "x509", "profiles", "crypto", "base"],
    ),
    (
        "appraisal",
        &["policy", "ear"],
        &["appraisal", "tokens", "profiles", "cose", "crypto", "base"],
    ),
    ("requests", &["attest"], &["profiles", "base"]),
    (
        "conventions",
        &["access", "listing", "deprecation"],
        &["requests", "profiles", "base"],
    ),
    (
        "service",
        &["service"],
        &[
            "conventions",
            "requests",
            "appraisal",
            "tokens",
            "evidence",
            "rim",
            "revocation",
            "chain",
            "profiles",
            "x509",
            "cose",
            "crypto",
            "base",
        ],
    ),
    (
        "skins",
        &["wasm", "component"],
        &[
            "service",
            "conventions",
            "requests",
            "appraisal",
            "tokens",
            "evidence",
            "rim",
            "revocation",
            "chain",
            "profiles",
            "x509",
            "cose",
            "crypto",
            "base",
        ],
    ),
];

/// Edges that still point up while the stack is being restored: (file's module, the module
/// it reaches). Each one is a debt; the list only shrinks.
const KNOWN: &[(&str, &str)] = &[];

#[test]
fn every_crate_path_points_down_the_stack() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let crate_ = Crate::read(&src);
    let known: BTreeSet<(String, String)> = KNOWN
        .iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect();
    let mut unused = known.clone();
    let forbidden: Vec<String> = crate_
        .forbidden_edges()
        .into_iter()
        .filter(|edge| {
            let key = (edge.from.clone(), edge.to.clone());
            unused.remove(&key);
            !known.contains(&key)
        })
        .map(|edge| edge.to_string())
        .collect();
    assert!(
        forbidden.is_empty(),
        "{} forbidden edge(s):\n{}",
        forbidden.len(),
        forbidden.join("\n")
    );
    assert!(
        unused.is_empty(),
        "KNOWN lists edges that are gone: {unused:?}"
    );
}

#[test]
fn the_table_is_a_stack_that_holds_every_file() {
    let mut below: BTreeSet<&str> = BTreeSet::new();
    for (layer, _, knows) in LAYERS {
        for known in *knows {
            assert!(
                below.contains(known) || known == layer,
                "{layer} may import {known}, which is not below it"
            );
        }
        below.insert(layer);
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let crate_ = Crate::read(&src);
    for (_, modules, _) in LAYERS {
        for module in *modules {
            let path = module_path(module);
            assert!(
                crate_.files.contains_key(&path),
                "no module {module} in src/"
            );
        }
    }
    for module in crate_.files.keys().filter(|m| !m.is_empty()) {
        assert!(
            layer_of(module).is_some(),
            "{} is in no layer",
            module.join("::")
        );
    }
}

/// The check itself, on a crate of three files: the table's rule, a use through the root's
/// re-export list, and a re-export followed to the file that defines the name.
#[test]
fn an_upward_use_is_named() {
    let files = [
        ("", "mod attest; mod chain; pub use chain::VerifiedChain;"),
        ("attest", "mod validate;"),
        ("attest::validate", "pub struct ValidatedRequest;"),
        ("chain", "mod verified; pub use verified::VerifiedChain;"),
        (
            "chain::verified",
            "use crate::attest::validate::ValidatedRequest;\n\
             pub struct VerifiedChain(crate::VerifiedChain);",
        ),
    ];
    let crate_ = Crate::from_files(
        files
            .iter()
            .map(|(module, code)| (module_path(module), (*module).to_owned(), strip(code)))
            .collect(),
    );
    let edges: Vec<String> = crate_
        .forbidden_edges()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        edges,
        [
            "chain::verified -> attest::validate: chain may not import requests",
            "chain::verified -> crate::VerifiedChain: through the root's re-export list \
             (name the module path)",
        ]
    );
}

// ---- reading src/ ----

type ModulePath = Vec<String>;

fn module_path(text: &str) -> ModulePath {
    text.split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

fn layer_of(module: &[String]) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    for (index, (_, modules, _)) in LAYERS.iter().enumerate() {
        for prefix in *modules {
            let prefix = module_path(prefix);
            if module.starts_with(&prefix) && best.is_none_or(|(_, len)| prefix.len() > len) {
                best = Some((index, prefix.len()));
            }
        }
    }
    best
}

/// A path that breaks the layering.
struct Edge {
    from: String,
    to: String,
    why: String,
}

impl std::fmt::Display for Edge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} -> {}: {}", self.from, self.to, self.why)
    }
}

impl Crate {
    fn forbidden_edges(&self) -> Vec<Edge> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for reference in &self.references {
            if reference.file.is_empty() || reference.path.is_empty() {
                continue;
            }
            let from = reference.file.join("::");
            let mut top = vec![reference.path[0].clone()];
            if !self.files.contains_key(&top) {
                top.clear();
                let to = format!("crate::{}", reference.path[0]);
                if seen.insert((from.clone(), to.clone())) {
                    out.push(Edge {
                        from,
                        to,
                        why: "through the root's re-export list (name the module path)".into(),
                    });
                }
                continue;
            }
            let target = self.defining(&reference.path, 0);
            let (Some((a, _)), Some((b, _))) = (layer_of(&reference.file), layer_of(&target))
            else {
                continue;
            };
            let same_module = reference.file[0] == target[0];
            let (layer, _, knows) = LAYERS[a];
            let (target_layer, _, _) = LAYERS[b];
            let allowed = (a == b && (same_module || knows.contains(&layer)))
                || (a != b && knows.contains(&target_layer));
            let to = target.join("::");
            if !allowed && seen.insert((from.clone(), to.clone())) {
                out.push(Edge {
                    from,
                    to,
                    why: format!("{layer} may not import {target_layer}"),
                });
            }
        }
        out
    }
}
