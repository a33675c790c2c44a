//! The service's files form no circle: no file of `src/service/` uses, directly or through
//! others, a file that uses it. Shared codes sit at the bottom (`codes.rs`), the exchange
//! reads a plain context (`context.rs`) and the request handling (`app.rs`) sits on top.
//!
//! A file uses another when one of its `use` trees or inline `super::`/`crate::service::`
//! paths names a module, or an item that module defines; an item named through a parent's
//! `pub use` counts for the file that defines it. Test modules are left out (a test may use
//! what it likes). `python3 pkg-config/layers.py --verbose` lists the circles of the whole of
//! `src/`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Module path (below `service`, e.g. `["claims", "switch"]`) of every file, with its text.
fn files() -> BTreeMap<Vec<String>, String> {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<Vec<String>, String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            let mut module = prefix.to_vec();
            module.push(stem.to_string());
            if path.is_dir() {
                walk(&path, &module, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.insert(module, code_of(&fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    out.insert(
        Vec::new(),
        code_of(&fs::read_to_string(src.join("service.rs")).unwrap()),
    );
    walk(&src.join("service"), &[], &mut out);
    out
}

/// The code of a file: without comments, and without its test module.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap();
    text.lines()
        .map(|line| match line.find("//") {
            // `//` in a string (a URL) is preceded by `:`; a comment is not.
            Some(at) if !line[..at].ends_with(':') => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path of `use` trees (braces expanded) and every inline `super::`/`crate::` path.
fn paths(code: &str) -> Vec<Vec<String>> {
    fn expand(tree: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
        let (mut depth, mut start) = (0, 0);
        let mut parts = Vec::new();
        for (i, c) in tree.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&tree[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&tree[start..]);
        for part in parts {
            let part = part.split(" as ").next().unwrap().trim();
            match part.find('{') {
                Some(open) => {
                    let close = part.rfind('}').unwrap();
                    let mut head = prefix.to_vec();
                    head.extend(segments(&part[..open]));
                    expand(&part[open + 1..close], &head, out);
                }
                None if !part.is_empty() => {
                    let mut path = prefix.to_vec();
                    path.extend(segments(part));
                    out.push(path);
                }
                None => {}
            }
        }
    }
    fn segments(text: &str) -> Vec<String> {
        text.split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty() && *s != "self" && *s != "*")
            .map(String::from)
            .collect()
    }
    let mut out = Vec::new();
    // A `use` statement starts a line (after its visibility) and ends at `;`.
    for statement in code.split(';') {
        let mut offset = 0;
        for line in statement.split_inclusive('\n') {
            let text = line.trim_start();
            let text = ["pub(crate) ", "pub(super) ", "pub "]
                .iter()
                .find_map(|v| text.strip_prefix(v))
                .unwrap_or(text);
            if let Some(tree) = text.strip_prefix("use ") {
                let at = offset + (line.len() - tree.len());
                expand(&statement[at..], &[], &mut out);
                break;
            }
            offset += line.len();
        }
    }
    for (at, _) in code
        .match_indices("super::")
        .chain(code.match_indices("crate::"))
    {
        let word_start =
            at == 0 || !code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':');
        if word_start {
            let end = code[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |n| at + n);
            out.push(segments(&code[at..end]));
        }
    }
    out
}

/// The file below `service` a path written in file `module` names, if any.
fn target(
    files: &BTreeMap<Vec<String>, String>,
    module: &[String],
    path: &[String],
) -> Option<Vec<String>> {
    let mut at: Vec<String> = module.to_vec();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") if rest.get(1).map(String::as_str) == Some("service") => {
            at.clear();
            rest = &rest[2..];
        }
        Some("super") => {
            while rest.first().map(String::as_str) == Some("super") {
                at.pop()?;
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    Some(resolve(files, &[at, rest.to_vec()].concat()))
}

/// The file that defines what the absolute path (below `service`) names: down through child
/// modules; an item a module re-exports from a child belongs to that child.
fn resolve(files: &BTreeMap<Vec<String>, String>, path: &[String]) -> Vec<String> {
    let mut at: Vec<String> = Vec::new();
    for (i, name) in path.iter().enumerate() {
        let child = [at.clone(), vec![name.clone()]].concat();
        if files.contains_key(&child) {
            at = child;
            continue;
        }
        let reexport = paths(&files[&at]).into_iter().find(|p| {
            p.len() >= 2
                && p.last() == Some(name)
                && files.contains_key(&[at.clone(), vec![p[0].clone()]].concat())
        });
        return match reexport {
            Some(p) => resolve(files, &[at.clone(), p, path[i + 1..].to_vec()].concat()),
            None => at,
        };
    }
    at
}

#[test]
fn the_service_files_form_no_circle() {
    let files = files();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (module, code) in &files {
        // A parent's `pub use` lists are its facade, not a dependency of the parent's code.
        let facade_free: String = code
            .split(';')
            .filter(|s| {
                !s.trim_start().starts_with("pub use")
                    && !s.trim_start().starts_with("mod ")
                    && !s.trim_start().starts_with("pub mod ")
            })
            .collect::<Vec<_>>()
            .join(";");
        let uses = edges.entry(module.clone()).or_default();
        for path in paths(&facade_free) {
            if let Some(to) = target(&files, module, &path) {
                if &to != module && !to.is_empty() {
                    uses.insert(to);
                }
            }
        }
    }
    // A circle is a file that reaches itself.
    for start in edges.keys() {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&Vec<String>> = edges[start].iter().collect();
        while let Some(next) = todo.pop() {
            assert_ne!(
                next,
                start,
                "src/service/{}.rs reaches itself through the files it uses: {edges:#?}",
                start.join("/")
            );
            if seen.insert(next) {
                todo.extend(edges.get(next).into_iter().flatten());
            }
        }
    }
    // The graph was read: the exchange uses the context, the request handling the exchange.
    let names = |from: &str| -> BTreeSet<String> {
        edges[&vec![from.to_string()]]
            .iter()
            .map(|m| m.join("/"))
            .collect()
    };
    assert!(
        names("exchange").contains("context"),
        "{:?}",
        names("exchange")
    );
    assert!(names("app").contains("exchange"), "{:?}", names("app"));
    assert!(names("device").contains("codes"), "{:?}", names("device"));
}
