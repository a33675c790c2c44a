//! Reading `src/` for the layering check: every file's module path, its `use` items and the
//! `crate::` paths of its code (comments and literals removed), and which file defines what a
//! path names (re-exports followed).

use std::collections::BTreeMap;
use std::path::Path;

use super::{module_path, ModulePath};

/// One `use` item or code path: the module it is written in, the path from the crate root,
/// and whether it is a re-export (a `pub use` item: the module's facade, not a use of what
/// it names).
pub(super) struct Reference {
    pub(super) file: ModulePath,
    pub(super) path: ModulePath,
    pub(super) reexport: bool,
}

pub(super) struct Crate {
    /// Module path → the file's name (for messages).
    pub(super) files: BTreeMap<ModulePath, String>,
    /// Module path (inline modules too) → names its `use` items bring in → their paths.
    pub(super) imports: BTreeMap<ModulePath, BTreeMap<String, ModulePath>>,
    /// Module path → modules it glob-imports.
    pub(super) globs: BTreeMap<ModulePath, Vec<ModulePath>>,
    /// Module path → its code, comments and literals removed.
    pub(super) code: BTreeMap<ModulePath, String>,
    pub(super) references: Vec<Reference>,
}

impl Crate {
    pub(super) fn read(src: &Path) -> Self {
        let mut files = Vec::new();
        walk(src, src, &mut files);
        Self::from_files(files)
    }

    pub(super) fn from_files(files: Vec<(ModulePath, String, String)>) -> Self {
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
            let mut reexported = Vec::new();
            for (start, end, tree) in use_declarations(code) {
                uses.push((start, end));
                let reexport = is_public(code, start);
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
                            reexport,
                        });
                        continue;
                    }
                    if let Some(name) = alias.or_else(|| absolute.last().cloned()) {
                        if name != "_" && name != "self" {
                            if reexport {
                                reexported.push((name.clone(), absolute.clone()));
                            }
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
                        reexport,
                    });
                }
            }
            // A name a file re-exports and also uses in its own code is a use of it.
            let outside_uses = blank(code, &uses);
            for (name, path) in reexported {
                if names_item(&outside_uses, &name) {
                    crate_.references.push(Reference {
                        file: file.clone(),
                        path,
                        reexport: false,
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
                        reexport: false,
                    });
                }
            }
        }
        crate_
    }

    /// `path` written in `module`, from the crate root; `None` for another crate's path.
    pub(super) fn absolute(&self, module: &[String], path: &[String]) -> Option<ModulePath> {
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
    pub(super) fn defining(&self, path: &[String], depth: usize) -> ModulePath {
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
}

/// Whether `code` defines `name` itself (rather than importing it).
pub(super) fn defines(code: &str, name: &str) -> bool {
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

pub(super) fn walk(root: &Path, dir: &Path, out: &mut Vec<(ModulePath, String, String)>) {
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
pub(super) fn strip(text: &str) -> String {
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
pub(super) fn raw_string_start(rest: &str) -> Option<(usize, usize)> {
    let body = rest.strip_prefix('b').unwrap_or(rest);
    let body = body.strip_prefix('r')?;
    let hashes = body.bytes().take_while(|&b| b == b'#').count();
    (body.as_bytes().get(hashes) == Some(&b'"'))
        .then(|| (rest.len() - body.len() + hashes + 1, hashes))
}

/// `'x'`, `'\n'`, `'\u{..}'` (not a lifetime): its length.
pub(super) fn char_literal_len(rest: &str) -> Option<usize> {
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
pub(super) fn inline_modules(code: &str) -> Vec<(usize, usize, String)> {
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

pub(super) fn inline_path(inline: &[(usize, usize, String)], at: usize) -> Vec<String> {
    inline
        .iter()
        .filter(|(start, end, _)| *start < at && at < *end)
        .map(|(_, _, name)| name.clone())
        .collect()
}

pub(super) fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

pub(super) fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `code` with the spans blanked out.
fn blank(code: &str, spans: &[(usize, usize)]) -> String {
    let mut out = code.to_owned();
    for &(start, end) in spans {
        out.replace_range(start..end, &" ".repeat(end - start));
    }
    out
}

/// Whether `code` names the item `name` (not a field or method of that name): a type, trait
/// or constant (capitalised) as a word, a function or module followed by `(`, `::` or `!`.
fn names_item(code: &str, name: &str) -> bool {
    code.match_indices(name).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| is_ident_char(c) || c == ':' || c == '.') {
            return false;
        }
        let after = &code[at + name.len()..];
        if name.starts_with(|c: char| c.is_ascii_uppercase()) {
            !after.starts_with(is_ident_char)
        } else {
            let after = after.trim_start();
            after.starts_with('(') || after.starts_with("::") || after.starts_with('!')
        }
    })
}

/// Whether the `use` at `at` is public (`pub`, `pub(crate)`, `pub(super)`, …).
pub(super) fn is_public(code: &str, at: usize) -> bool {
    let before = code[..at].trim_end();
    let before = match before.strip_suffix(')') {
        Some(rest) => rest
            .rfind('(')
            .map_or(before, |open| rest[..open].trim_end()),
        None => before,
    };
    before.ends_with("pub") && !before[..before.len() - 3].ends_with(is_ident_char)
}

/// Every `use` declaration: (start, end, its tree without whitespace).
pub(super) fn use_declarations(code: &str) -> Vec<(usize, usize, String)> {
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
pub(super) fn expand(tree: &str) -> Vec<(ModulePath, Option<String>)> {
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
pub(super) fn code_paths(code: &str, uses: &[(usize, usize)]) -> Vec<(usize, ModulePath)> {
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
