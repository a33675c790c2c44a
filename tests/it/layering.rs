//! The crate's stack: its layers as a table, and a check that every `crate::` path of `src/`
//! (in `use` lines and in code) points down it. A path names the file that defines the item
//! (a module's re-exports are followed), so `crate::attest::Arch` is the architecture table's,
//! not the request layer's. Internal code names a module path, never the root's re-export
//! list (`crate::ErrorCode`): the root is the public facade, not a layer.
//!
//! `python3 pkg-config/layers.py` reads the same table to count the edges and file circles.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, bottom to top: (layer, its module paths, the layers it may import). A file
/// belongs to the layer of the longest module path that is a prefix of its own
/// (`attest::arch` is src/attest/arch.rs and what is below it). A layer that lists itself
/// lets its modules import each other; the two skins do not, and share only the core.
const LAYERS: &[(&str, &[&str], &[&str])] = &[
    (
        "base",
        &[
            "json",
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
        &["revocation", "chain", "x509", "profiles", "crypto", "base"],
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
            "crypto",
            "base",
        ],
    ),
    (
        "tokens",
        &["token"],
        &["x509", "profiles", "crypto", "base"],
    ),
    (
        "appraisal",
        &["policy", "ear"],
        &["appraisal", "tokens", "profiles", "crypto", "base"],
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

/// One `use` item or code path: the module it is written in and the path from the crate root.
struct Reference {
    file: ModulePath,
    path: ModulePath,
}

struct Crate {
    /// Module path → the file's name (for messages).
    files: BTreeMap<ModulePath, String>,
    /// Module path (inline modules too) → names its `use` items bring in → their paths.
    imports: BTreeMap<ModulePath, BTreeMap<String, ModulePath>>,
    /// Module path → modules it glob-imports.
    globs: BTreeMap<ModulePath, Vec<ModulePath>>,
    /// Module path → its code, comments and literals removed.
    code: BTreeMap<ModulePath, String>,
    references: Vec<Reference>,
}

impl Crate {
    fn read(src: &Path) -> Self {
        let mut files = Vec::new();
        walk(src, src, &mut files);
        Self::from_files(files)
    }

    fn from_files(files: Vec<(ModulePath, String, String)>) -> Self {
        let mut crate_ = Crate {
            files: BTreeMap::new(),
            imports: BTreeMap::new(),
            globs: BTreeMap::new(),
            code: BTreeMap::new(),
            references: Vec::new(),
        };
        for (module, name, code) in &files {
            crate_.files.insert(module.clone(), name.clone());
            crate_.code.insert(module.clone(), code.clone());
        }
        for (file, _, code) in &files {
            let inline = inline_modules(code);
            let mut uses = Vec::new();
            for (start, end, tree) in use_declarations(code) {
                uses.push((start, end));
                let mut module = file.clone();
                module.extend(inline_path(&inline, start));
                for (path, alias) in expand(&tree) {
                    let Some(absolute) = crate_.absolute(&module, &path) else {
                        continue;
                    };
                    if absolute.last().is_some_and(|s| s == "*") {
                        let glob = absolute[..absolute.len() - 1].to_vec();
                        crate_
                            .globs
                            .entry(module.clone())
                            .or_default()
                            .push(glob.clone());
                        crate_.references.push(Reference {
                            file: file.clone(),
                            path: glob,
                        });
                        continue;
                    }
                    if let Some(name) = alias.or_else(|| absolute.last().cloned()) {
                        if name != "_" && name != "self" {
                            crate_
                                .imports
                                .entry(module.clone())
                                .or_default()
                                .insert(name, absolute.clone());
                        }
                    }
                    crate_.references.push(Reference {
                        file: file.clone(),
                        path: absolute,
                    });
                }
            }
            for (start, path) in code_paths(code, &uses) {
                let mut module = file.clone();
                module.extend(inline_path(&inline, start));
                if let Some(absolute) = crate_.absolute(&module, &path) {
                    crate_.references.push(Reference {
                        file: file.clone(),
                        path: absolute,
                    });
                }
            }
        }
        crate_
    }

    /// `path` written in `module`, from the crate root; `None` for another crate's path.
    fn absolute(&self, module: &[String], path: &[String]) -> Option<ModulePath> {
        let first = path.first()?;
        match first.as_str() {
            "crate" | "$crate" => Some(path[1..].to_vec()),
            "self" | "super" => {
                let mut base = module.to_vec();
                let mut rest = path;
                while let Some(head) = rest.first() {
                    match head.as_str() {
                        "super" => {
                            base.pop();
                        }
                        "self" => {}
                        _ => break,
                    }
                    rest = &rest[1..];
                }
                base.extend(rest.iter().cloned());
                Some(base)
            }
            _ => {
                let mut child = module.to_vec();
                child.push(first.clone());
                self.files.contains_key(&child).then(|| {
                    let mut out = module.to_vec();
                    out.extend(path.iter().cloned());
                    out
                })
            }
        }
    }

    /// The module that defines what `path` names, following `use` items (re-exports).
    fn defining(&self, path: &[String], depth: usize) -> ModulePath {
        let mut module: ModulePath = Vec::new();
        let mut rest = path;
        while let Some(head) = rest.first() {
            let mut next = module.clone();
            next.push(head.clone());
            if !self.files.contains_key(&next) {
                break;
            }
            module = next;
            rest = &rest[1..];
        }
        let Some(name) = rest.first() else {
            return module;
        };
        if depth > 16 {
            return module;
        }
        if let Some(target) = self.imports.get(&module).and_then(|names| names.get(name)) {
            if target.as_slice() != path {
                let mut next = target.clone();
                next.extend(rest[1..].iter().cloned());
                return self.defining(&next, depth + 1);
            }
        }
        if !defines(self.code.get(&module).map_or("", String::as_str), name) {
            for glob in self.globs.get(&module).into_iter().flatten() {
                let mut next = glob.clone();
                next.extend(rest.iter().cloned());
                let found = self.defining(&next, depth + 1);
                if &found != glob {
                    return found;
                }
            }
        }
        module
    }

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

/// Whether `code` defines `name` itself (rather than importing it).
fn defines(code: &str, name: &str) -> bool {
    let words: Vec<&str> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '!'))
        .filter(|w| !w.is_empty())
        .collect();
    words.windows(2).any(|pair| {
        pair[1] == name
            && matches!(
                pair[0],
                "fn" | "struct"
                    | "enum"
                    | "trait"
                    | "type"
                    | "const"
                    | "static"
                    | "mod"
                    | "union"
                    | "macro_rules!"
            )
    })
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<(ModulePath, String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap().with_extension("");
            let mut module: ModulePath = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if module == ["lib"] {
                module.clear();
            } else if module.last().is_some_and(|m| m == "mod") {
                module.pop();
            }
            let code = strip(&std::fs::read_to_string(&path).unwrap());
            out.push((module, rel.display().to_string(), code));
        }
    }
}

/// The code without comments, and string and character literals emptied.
fn strip(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        let after_ident = i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            let (mut depth, mut j) = (1, 2);
            while j < rest.len() && depth > 0 {
                if rest[j..].starts_with("/*") {
                    depth += 1;
                    j += 2;
                } else if rest[j..].starts_with("*/") {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            i += j;
        } else if !after_ident && raw_string_start(rest).is_some() {
            let (open, hashes) = raw_string_start(rest).unwrap();
            let close = format!("\"{}", "#".repeat(hashes));
            i += open
                + rest[open..]
                    .find(&close)
                    .map_or(rest.len() - open, |j| j + close.len());
            out.push_str("\"\"");
        } else if bytes[i] == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if bytes[i] == b'\'' && char_literal_len(rest).is_some() {
            i += char_literal_len(rest).unwrap();
            out.push_str("' '");
        } else {
            let ch = rest.chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// `r"`, `r#"`, `br##"`…: the opening's length and its number of `#`.
fn raw_string_start(rest: &str) -> Option<(usize, usize)> {
    let body = rest.strip_prefix('b').unwrap_or(rest);
    let body = body.strip_prefix('r')?;
    let hashes = body.bytes().take_while(|&b| b == b'#').count();
    (body.as_bytes().get(hashes) == Some(&b'"'))
        .then(|| (rest.len() - body.len() + hashes + 1, hashes))
}

/// `'x'`, `'\n'`, `'\u{..}'` (not a lifetime): its length.
fn char_literal_len(rest: &str) -> Option<usize> {
    let mut chars = rest.char_indices().skip(1);
    let (_, first) = chars.next()?;
    if first == '\\' {
        let end = rest[2..].find('\'')?;
        return (end < 10).then_some(end + 3);
    }
    let (at, second) = chars.next()?;
    (second == '\'' && first != '\'').then_some(at + 1)
}

/// The inline `mod name { … }` blocks: (start, end, name).
fn inline_modules(code: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("mod ") {
        if at > 0 && is_ident(code.as_bytes()[at - 1]) {
            continue;
        }
        let rest = &code[at + 4..];
        let name: String = rest.chars().take_while(|&c| is_ident_char(c)).collect();
        let after = rest[name.len()..].trim_start();
        if name.is_empty() || !after.starts_with('{') {
            continue;
        }
        let open = at + 4 + rest.len() - after.len();
        let mut depth = 0;
        let mut end = code.len();
        for (j, b) in code.as_bytes()[open..].iter().enumerate() {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + j;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push((at, end, name));
    }
    out
}

fn inline_path(inline: &[(usize, usize, String)], at: usize) -> Vec<String> {
    inline
        .iter()
        .filter(|(start, end, _)| *start < at && at < *end)
        .map(|(_, _, name)| name.clone())
        .collect()
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every `use` declaration: (start, end, its tree without whitespace).
fn use_declarations(code: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("use ") {
        if at > 0 && (is_ident(code.as_bytes()[at - 1]) || code.as_bytes()[at - 1] == b'$') {
            continue;
        }
        let Some(len) = code[at..].find(';') else {
            continue;
        };
        let tree = &code[at + 4..at + len];
        if tree.contains(['(', '=', '"']) {
            continue;
        }
        let tree: String = tree.split_whitespace().collect::<Vec<_>>().join(" ");
        out.push((at, at + len, tree));
    }
    out
}

/// A use tree as (path, alias) items: `a::{b, c::d as e}` → `a::b`, `a::c::d` as `e`.
fn expand(tree: &str) -> Vec<(ModulePath, Option<String>)> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let (path, alias) = match tree.split_once(" as ") {
            Some((path, alias)) => (path.trim(), Some(alias.trim().to_owned())),
            None => (tree, None),
        };
        return vec![(module_path(&path.replace(' ', "")), alias)];
    };
    let prefix = tree[..open].replace(' ', "");
    let close = tree.rfind('}').unwrap_or(tree.len());
    let inner = &tree[open + 1..close];
    let (mut depth, mut start, mut out) = (0, 0, Vec::new());
    let mut items = Vec::new();
    for (j, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..j]);
                start = j + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    for item in items.into_iter().map(str::trim).filter(|i| !i.is_empty()) {
        if item == "self" {
            out.push((module_path(prefix.trim_end_matches(':')), None));
        } else if let Some(alias) = item.strip_prefix("self as ") {
            out.push((
                module_path(prefix.trim_end_matches(':')),
                Some(alias.to_owned()),
            ));
        } else {
            out.extend(expand(&format!("{prefix}{item}")));
        }
    }
    out
}

/// The `crate::…`, `super::…` and `self::…` paths in code outside `use` declarations.
fn code_paths(code: &str, uses: &[(usize, usize)]) -> Vec<(usize, ModulePath)> {
    let mut out = Vec::new();
    for start_word in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(start_word) {
            let before = at.checked_sub(1).map(|i| code.as_bytes()[i]);
            if before.is_some_and(|b| is_ident(b) || b == b':') {
                continue;
            }
            if uses.iter().any(|(s, e)| *s <= at && at < *e) {
                continue;
            }
            let text: String = code[at..]
                .chars()
                .take_while(|&c| is_ident_char(c) || c == ':')
                .collect();
            let path = module_path(text.trim_end_matches(':'));
            let mut path = path;
            if before == Some(b'$') {
                path[0] = "crate".into();
            }
            out.push((at, path));
        }
    }
    out
}
