//! A small reader of the `.d.ts` fragments (`export interface` / `export type` declarations:
//! object types with optional and quoted members, index signatures, unions, intersections,
//! arrays, literals, `Omit` and `Record`), and the walk of a written JSON value along a type.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
pub(super) const TYPES: &str = "src/wasm/types";

/// A TypeScript type, as far as these declarations use them.
#[derive(Clone, Debug)]
pub(super) enum Ty {
    /// A primitive, a declaration, or a generic (`Omit<…>`, `Record<…>`).
    Name(String, Vec<Ty>),
    Lit(Value),
    /// Members and the index signature.
    Obj(Vec<Member>, Option<Box<Ty>>),
    Arr(Box<Ty>),
    Tuple,
    Union(Vec<Ty>),
    Inter(Vec<Ty>),
}

#[derive(Clone, Debug)]
pub(super) struct Member {
    name: String,
    optional: bool,
    ty: Ty,
}

/// Words, quoted literals (quotes kept) and punctuation; comments dropped.
fn tokens(text: &str) -> Vec<String> {
    let c: Vec<char> = text.chars().collect();
    let at = |i: usize, s: &str| c[i..].iter().take(s.len()).copied().eq(s.chars());
    let (mut out, mut i) = (Vec::new(), 0);
    while i < c.len() {
        let start = i;
        if c[i].is_whitespace() {
            i += 1;
            continue;
        } else if at(i, "//") {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
            continue;
        } else if at(i, "/*") {
            while !at(i, "*/") {
                i += 1;
            }
            i += 2;
            continue;
        } else if matches!(c[i], '"' | '\'' | '`') {
            i += 1;
            while c[i] != c[start] {
                i += 1;
            }
            i += 1;
        } else if c[i].is_alphanumeric() || matches!(c[i], '_' | '$') {
            while i < c.len() && (c[i].is_alphanumeric() || matches!(c[i], '_' | '$' | '.')) {
                i += 1;
            }
        } else {
            i += if at(i, "=>") { 2 } else { 1 };
        }
        out.push(c[start..i].iter().collect());
    }
    out
}

struct Parser {
    t: Vec<String>,
    i: usize,
}

impl Parser {
    fn peek(&self, ahead: usize) -> &str {
        self.t.get(self.i + ahead).map_or("", String::as_str)
    }
    fn next(&mut self) -> String {
        self.i += 1;
        self.t[self.i - 1].clone()
    }
    fn eat(&mut self, s: &str) -> bool {
        let hit = self.peek(0) == s;
        self.i += usize::from(hit);
        hit
    }
    fn expect(&mut self, s: &str) {
        assert!(
            self.eat(s),
            "expected `{s}` at `{}`",
            self.t[self.i..][..8].join(" ")
        );
    }
    fn ty(&mut self) -> Ty {
        self.eat("|");
        let mut alternatives = vec![self.intersection()];
        while self.eat("|") {
            alternatives.push(self.intersection());
        }
        one_or(alternatives, Ty::Union)
    }
    fn intersection(&mut self) -> Ty {
        let mut parts = vec![self.postfix()];
        while self.eat("&") {
            parts.push(self.postfix());
        }
        one_or(parts, Ty::Inter)
    }
    fn postfix(&mut self) -> Ty {
        let mut ty = self.primary();
        while self.peek(0) == "[" && self.peek(1) == "]" {
            self.i += 2;
            ty = Ty::Arr(Box::new(ty));
        }
        ty
    }
    fn primary(&mut self) -> Ty {
        let word = self.next();
        match word.as_str() {
            "{" => self.members(),
            "(" => {
                let ty = self.ty();
                self.expect(")");
                ty
            }
            "[" => {
                while !self.eat("]") {
                    self.ty();
                    self.eat(",");
                }
                Ty::Tuple
            }
            "readonly" => self.primary(),
            "true" | "false" => Ty::Lit(json!(word == "true")),
            _ if word.starts_with(['"', '\'']) => Ty::Lit(json!(word[1..word.len() - 1])),
            _ if word.parse::<f64>().is_ok() => Ty::Lit(word.parse().unwrap()),
            _ => {
                let mut args = Vec::new();
                if self.eat("<") {
                    args.push(self.ty());
                    while self.eat(",") {
                        args.push(self.ty());
                    }
                    self.expect(">");
                }
                Ty::Name(word, args)
            }
        }
    }
    /// An object type's members, after its `{`.
    fn members(&mut self) -> Ty {
        let (mut members, mut index) = (Vec::new(), None);
        while !self.eat("}") {
            if self.peek(0) == "readonly" && !matches!(self.peek(1), ":" | "?") {
                self.i += 1;
            }
            if self.eat("[") {
                self.i += 3; // `key: string`
                self.expect("]");
                self.expect(":");
                index = Some(Box::new(self.ty()));
            } else {
                let name = self.next().trim_matches(['"', '\'']).to_owned();
                let optional = self.eat("?");
                self.expect(":");
                let ty = self.ty();
                members.push(Member { name, optional, ty });
            }
            if !self.eat(";") {
                self.eat(",");
            }
        }
        Ty::Obj(members, index)
    }
}

fn one_or(mut list: Vec<Ty>, many: fn(Vec<Ty>) -> Ty) -> Ty {
    if list.len() == 1 {
        list.pop().unwrap()
    } else {
        many(list)
    }
}

pub(super) fn parse_type(text: &str) -> Ty {
    Parser {
        t: tokens(text),
        i: 0,
    }
    .ty()
}

/// Names declared outside these fragments: the generated `Arch` union, and the token claim
/// sets of src/js/claims.d.ts (the service's claims, passed through, not a core shape).
const ELSEWHERE: [(&str, &str); 3] = [
    ("Arch", "string"),
    ("DeviceClaims", "unknown"),
    ("OverallTokenClaims", "unknown"),
];

/// Every `export interface` and `export type` of the fragments, with its file. A name
/// declared twice is merged, as TypeScript merges interfaces.
pub(super) struct Ts {
    pub(super) decls: BTreeMap<String, (Ty, String)>,
    /// `Decl.member` of every member met in a written value.
    pub(super) seen: RefCell<BTreeSet<String>>,
}

impl Ts {
    pub(super) fn load() -> Self {
        let mut decls: BTreeMap<String, (Ty, String)> = BTreeMap::new();
        // The generated fragments, then the hand-written ones (`hand/`) spliced beside them.
        let mut files: Vec<_> = ["", "hand/"]
            .into_iter()
            .flat_map(|dir| {
                std::fs::read_dir(format!("{ROOT}/{TYPES}/{dir}"))
                    .unwrap()
                    .map(Result::unwrap)
                    .filter(|e| e.file_type().unwrap().is_file())
                    .map(move |e| format!("{dir}{}", e.file_name().into_string().unwrap()))
            })
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(format!("{ROOT}/{TYPES}/{file}")).unwrap();
            let mut p = Parser {
                t: tokens(&text),
                i: 0,
            };
            while p.i < p.t.len() {
                let exported = p.i > 0 && p.t[p.i - 1] == "export";
                let (name, ty) = match p.next().as_str() {
                    "interface" if exported => {
                        let name = p.next();
                        // Type parameters (`ListPage<T = …>`) are not followed.
                        let mut depth = i32::from(p.eat("<"));
                        while depth > 0 {
                            depth += match p.next().as_str() {
                                "<" => 1,
                                ">" => -1,
                                _ => 0,
                            };
                        }
                        let mut parts = Vec::new();
                        if p.eat("extends") {
                            parts.push(p.postfix());
                            while p.eat(",") {
                                parts.push(p.postfix());
                            }
                        }
                        p.expect("{");
                        parts.push(p.members());
                        (name, one_or(parts, Ty::Inter))
                    }
                    "type" if exported => {
                        let name = p.next();
                        p.expect("=");
                        (name, p.ty())
                    }
                    "{" => {
                        // A class body or an import list: skipped.
                        let mut depth = 1;
                        while depth > 0 {
                            depth += match p.next().as_str() {
                                "{" => 1,
                                "}" => -1,
                                _ => 0,
                            };
                        }
                        continue;
                    }
                    _ => continue,
                };
                let file = format!("{TYPES}/{file}");
                let ty = match decls.remove(&name) {
                    Some((before, _)) => Ty::Inter(vec![before, ty]),
                    None => ty,
                };
                decls.insert(name, (ty, file));
            }
        }
        Self {
            decls,
            seen: RefCell::default(),
        }
    }

    /// The members and index signature of an object type (interfaces with their bases,
    /// intersections, `Omit`, `Record`); `None` for any other type.
    fn object(&self, ty: &Ty) -> Option<(Vec<Member>, Option<Ty>)> {
        match ty {
            Ty::Obj(members, index) => Some((members.clone(), index.as_deref().cloned())),
            Ty::Inter(parts) => parts.iter().try_fold((Vec::new(), None), |mut out, part| {
                let (members, index) = self.object(part)?;
                for member in members {
                    out.0.retain(|m: &Member| m.name != member.name);
                    out.0.push(member);
                }
                Some((out.0, index.or(out.1)))
            }),
            Ty::Name(name, args) if name == "Omit" => {
                let (mut members, index) = self.object(&args[0])?;
                let dropped = self.literals(&args[1]);
                members.retain(|m| !dropped.contains(&m.name));
                Some((members, index))
            }
            Ty::Name(name, args) if name == "Record" => Some((Vec::new(), Some(args[1].clone()))),
            Ty::Name(name, _) => self.object(&self.decls.get(name)?.0),
            _ => None,
        }
    }

    /// The string literals of a union, through aliases and `| null`.
    pub(super) fn literals(&self, ty: &Ty) -> Vec<String> {
        match ty {
            Ty::Lit(Value::String(s)) => vec![s.clone()],
            Ty::Union(alternatives) => alternatives.iter().flat_map(|a| self.literals(a)).collect(),
            Ty::Name(name, _) => self
                .decls
                .get(name)
                .map_or(Vec::new(), |d| self.literals(&d.0)),
            _ => Vec::new(),
        }
    }

    /// The type at `Decl.member.member…` (arrays stepped through).
    pub(super) fn type_at(&self, path: &str) -> Ty {
        let mut words = path.split('.');
        let mut ty = self.decls[words.next().unwrap()].0.clone();
        for word in words {
            while let Ty::Arr(inner) = ty {
                ty = *inner;
            }
            let (members, _) = self
                .object(&ty)
                .unwrap_or_else(|| panic!("{path}: not an object"));
            ty = members.into_iter().find(|m| m.name == word).expect(path).ty;
        }
        ty
    }

    /// How a message names where a type is declared.
    fn what(&self, (decl, file): &(String, String)) -> String {
        if decl.contains('.') {
            format!("the type of {decl} ({file})")
        } else if self
            .decls
            .get(decl)
            .is_some_and(|d| self.object(&d.0).is_none())
        {
            format!("type {decl} ({file})")
        } else {
            format!("interface {decl} ({file})")
        }
    }

    /// Walks `v` along `ty`, one message in `out` per disagreement: `path` names the value,
    /// `at` the declaration the type is in (`Decl` or `Decl.member…`) and its file.
    pub(super) fn check(
        &self,
        ty: &Ty,
        v: &Value,
        path: &str,
        at: &(String, String),
        out: &mut Vec<String>,
    ) {
        let what = self.what(at);
        let shown = || v.to_string().chars().take(60).collect::<String>();
        match ty {
            Ty::Lit(literal) if literal != v => {
                out.push(format!(
                    "{path}: the core writes {}, {what} says {literal}",
                    shown()
                ));
            }
            Ty::Lit(_) | Ty::Tuple => {}
            Ty::Arr(inner) => match v.as_array() {
                Some(items) => (items.iter().enumerate()).for_each(|(n, item)| {
                    self.check(inner, item, &format!("{path}[{n}]"), at, out)
                }),
                None => out.push(format!(
                    "{path}: the core writes {}, {what} says an array",
                    shown()
                )),
            },
            Ty::Union(alternatives) => {
                let mut best: Option<Vec<String>> = None;
                for alternative in alternatives {
                    let mut errors = Vec::new();
                    self.check(alternative, v, path, at, &mut errors);
                    if errors.is_empty() {
                        return;
                    }
                    if best.as_ref().is_none_or(|b| errors.len() < b.len()) {
                        best = Some(errors);
                    }
                }
                let literals = self.literals(ty);
                if v.is_string() && !literals.is_empty() {
                    let union = literals.join("\" | \"");
                    out.push(format!(
                        "{path}: the core writes {v}, not one of \"{union}\" in {what}"
                    ));
                } else {
                    out.extend(best.unwrap());
                }
            }
            Ty::Name(name, args) => {
                let primitive = ELSEWHERE
                    .iter()
                    .find(|e| e.0 == name)
                    .map_or(name.as_str(), |e| e.1);
                let ok = match primitive {
                    "string" => v.is_string(),
                    "number" => v.is_number(),
                    "boolean" => v.is_boolean(),
                    "null" => v.is_null(),
                    "unknown" => true,
                    "Uint8Array" | "ArrayBuffer" => v
                        .as_array()
                        .is_some_and(|a| a.iter().all(|b| b.as_u64().is_some_and(|b| b < 256))),
                    "Omit" | "Record" => {
                        let inner = match &args[0] {
                            Ty::Name(inner, _) if name == "Omit" => {
                                (inner.clone(), self.decls[inner].1.clone())
                            }
                            _ => at.clone(),
                        };
                        return self.check_object(ty, v, path, &inner, out);
                    }
                    _ => match self.decls.get(name) {
                        Some((decl, file)) => {
                            return self.check(decl, v, path, &(name.clone(), file.clone()), out)
                        }
                        None => {
                            out.push(format!(
                                "{path}: {what} names `{name}`, which no {TYPES}/*.d.ts declares"
                            ));
                            return;
                        }
                    },
                };
                if !ok {
                    out.push(format!(
                        "{path}: the core writes {}, {what} says {name}",
                        shown()
                    ));
                }
            }
            Ty::Obj(..) => self.check_object(ty, v, path, at, out),
            // An intersection that is not of objects (`Uint8Array & {…}`): its first part.
            Ty::Inter(parts) if self.object(ty).is_none() => {
                self.check(&parts[0], v, path, at, out)
            }
            Ty::Inter(_) => self.check_object(ty, v, path, at, out),
        }
    }

    fn check_object(
        &self,
        ty: &Ty,
        v: &Value,
        path: &str,
        at: &(String, String),
        out: &mut Vec<String>,
    ) {
        let (members, index) = self.object(ty).unwrap();
        let what = self.what(at);
        let Some(map) = v.as_object() else {
            return out.push(format!(
                "{path}: the core writes {v}, {what} says an object"
            ));
        };
        for (key, value) in map {
            let inner = (format!("{}.{key}", at.0), at.1.clone());
            match (members.iter().find(|m| m.name == *key), &index) {
                (Some(member), _) => {
                    self.seen.borrow_mut().insert(inner.0.clone());
                    self.check(&member.ty, value, &format!("{path}.{key}"), &inner, out);
                }
                (None, Some(index)) => {
                    self.check(index, value, &format!("{path}.{key}"), &inner, out)
                }
                (None, None) => out.push(format!(
                    "{path}: member `{key}` written by the core is not in {what}"
                )),
            }
        }
        for member in members
            .iter()
            .filter(|m| !m.optional && !map.contains_key(&m.name))
        {
            out.push(format!(
                "{path}: member `{}` of {what} is not written by the core",
                member.name
            ));
        }
    }
}
