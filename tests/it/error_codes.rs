//! The registry of error codes (`edgeattest::error_code::ERROR_CODES`) against the source: every code
//! the crate or its JavaScript gives is registered once, every registered code is given, and
//! the TypeScript union in `src/js/codes.d.ts` is the registry's. Run with
//! `EDGEATTEST_BLESS=1` to rewrite `codes.d.ts` after adding a code.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use edgeattest::error_code::{registered_code, ERROR_CODES};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The `.rs` and `.js` files under `dir`, recursively.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path
            .extension()
            .is_some_and(|ext| ext == "rs" || ext == "js")
        {
            out.push(path);
        }
    }
}

/// The `ERR_*` codes written as string literals (`"ERR_X"`, `'ERR_X'`, `` `ERR_X` `` in JS)
/// in `text`: how every error type states its code. Prose mentions (`ERR_ACCESS_*`) are not
/// literals and do not count.
fn code_literals(text: &str) -> BTreeSet<String> {
    let bytes = text.as_bytes();
    let mut found = BTreeSet::new();
    let mut at = 0;
    while let Some(offset) = text[at..].find("ERR_") {
        let start = at + offset;
        let end = start
            + text[start..]
                .bytes()
                .take_while(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_')
                .count();
        let quote = start.checked_sub(1).map(|i| bytes[i]);
        if matches!(quote, Some(b'"' | b'\'' | b'`')) && bytes.get(end) == quote.as_ref() {
            found.insert(text[start..end].to_owned());
        }
        at = end.max(start + 4);
    }
    found
}

/// Every code literal under `src/` and in the edge worker's modules (`www/worker*.js`, whose
/// error answers the core makes: `errorResponse` takes registered codes only), with the files
/// that write it.
fn codes_in_source() -> BTreeMap<String, Vec<String>> {
    let mut files = Vec::new();
    sources(&Path::new(ROOT).join("src"), &mut files);
    for entry in std::fs::read_dir(Path::new(ROOT).join("www")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("worker") && name.ends_with(".js") {
            files.push(path);
        }
    }
    let mut codes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.strip_prefix(ROOT).unwrap().display().to_string();
        for code in code_literals(&text) {
            codes.entry(code).or_default().push(name.clone());
        }
    }
    codes
}

#[test]
fn the_literal_scanner_finds_literals_only() {
    let text = r#"x "ERR_A" 'ERR_B1' `ERR_C_D` ERR_E "ERR_F_*" ("ERR_G") "ERR_H' ERR_"#;
    let found: Vec<String> = code_literals(text).into_iter().collect();
    assert_eq!(found, ["ERR_A", "ERR_B1", "ERR_C_D", "ERR_G"]);
}

#[test]
fn every_code_in_the_source_is_registered() {
    let source = codes_in_source();
    // The crate is full of codes: an empty scan would make the test pass for nothing.
    assert!(source.len() > 200, "{} codes found", source.len());
    let missing: Vec<String> = source
        .iter()
        .filter(|(code, _)| registered_code(code).is_none())
        .map(|(code, files)| format!("{code} ({})", files.join(", ")))
        .collect();
    assert!(
        missing.is_empty(),
        "not in src/error_code/registry.rs: {missing:#?}"
    );
}

#[test]
fn every_registered_code_is_given_somewhere() {
    let source = codes_in_source();
    let unused: Vec<&str> = ERROR_CODES
        .iter()
        .map(|entry| entry.code)
        .filter(|code| !source.contains_key(*code))
        .collect();
    assert!(unused.is_empty(), "registered but never given: {unused:?}");
}

#[test]
fn codes_are_registered_once_well_formed_and_sorted_by_module() {
    let mut seen = BTreeSet::new();
    let mut modules: Vec<&str> = Vec::new();
    for pair in ERROR_CODES.windows(2) {
        if pair[0].module == pair[1].module {
            assert!(pair[0].code < pair[1].code, "{pair:?} out of order");
        }
    }
    for entry in ERROR_CODES {
        assert!(seen.insert(entry.code), "{} twice", entry.code);
        assert!(
            entry.code.len() > 4
                && entry.code.starts_with("ERR_")
                && !entry.code.ends_with('_')
                && entry
                    .code
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_'),
            "{}",
            entry.code
        );
        if modules.last() != Some(&entry.module) {
            assert!(
                !modules.contains(&entry.module),
                "{} split in two",
                entry.module
            );
            modules.push(entry.module);
        }
    }
    assert_eq!(
        registered_code("ERR_REQUEST_INVALID_NONCE").map(|e| e.module),
        Some("attest")
    );
    assert_eq!(registered_code("ERR_NO_SUCH_CODE"), None);
}

/// The TypeScript union of every code, one member a line, grouped by module.
fn typescript() -> String {
    let mut out = String::from(
        "// GENERATED from the registry of error codes (src/error_code/registry.rs) by\n\
         // tests/it/error_codes.rs; do not edit. Regenerate: EDGEATTEST_BLESS=1 cargo test --test it error_codes\n\
         \n\
         /** Every stable `code` an `EdgeAttestError` or an error body can carry. Codes are never renamed. */\n\
         export type ErrorCodeName =\n",
    );
    let mut module = "";
    for entry in ERROR_CODES {
        if entry.module != module {
            module = entry.module;
            out.push_str(&format!("  // {module}\n"));
        }
        out.push_str(&format!("  | '{}'\n", entry.code));
    }
    // The last member ends the statement.
    out.pop();
    out.push_str(";\n");
    out
}

#[test]
fn codes_d_ts_is_the_registry() {
    crate::generated_file_is(
        &Path::new(ROOT).join("src/js/codes.d.ts"),
        &typescript(),
        "EDGEATTEST_BLESS=1 cargo test --test it error_codes",
    );
}
