//! No file circle in `src/`: no file uses, directly or through others, a file that uses it.
//! A shared shape or error sits below the files that use it, a callback is a plain call or
//! argument, and a module's root file is its facade.
//!
//! A file uses another when one of its `use` items or `crate::`/`super::`/`self::` paths names
//! that file's module or an item it defines; an item named through a module's `pub use`
//! counts for the file that defines it (the layering check's reader follows re-exports). A
//! `pub use` item itself is a facade, not a use. Test modules count too, as in
//! `python3 pkg-config/layers.py --verbose`, which lists the same circles.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::reader::{strip, Crate};
use super::{module_path, ModulePath};

impl Crate {
    /// File → the files it uses (itself left out).
    fn file_graph(&self) -> BTreeMap<ModulePath, BTreeSet<ModulePath>> {
        let mut graph: BTreeMap<ModulePath, BTreeSet<ModulePath>> = self
            .files
            .keys()
            .map(|file| (file.clone(), BTreeSet::new()))
            .collect();
        for reference in &self.references {
            if reference.reexport || reference.path.is_empty() {
                continue;
            }
            let target = self.defining(&reference.path, 0);
            if target != reference.file && self.files.contains_key(&target) {
                if let Some(uses) = graph.get_mut(&reference.file) {
                    uses.insert(target);
                }
            }
        }
        graph
    }
}

/// The strongly connected groups of two or more files (Tarjan), each sorted.
fn circles(graph: &BTreeMap<ModulePath, BTreeSet<ModulePath>>) -> Vec<Vec<ModulePath>> {
    struct Search<'a> {
        graph: &'a BTreeMap<ModulePath, BTreeSet<ModulePath>>,
        index: BTreeMap<&'a ModulePath, (usize, usize)>,
        stack: Vec<&'a ModulePath>,
        on_stack: BTreeSet<&'a ModulePath>,
        out: Vec<Vec<ModulePath>>,
    }
    impl<'a> Search<'a> {
        fn visit(&mut self, file: &'a ModulePath) {
            let at = self.index.len();
            self.index.insert(file, (at, at));
            self.stack.push(file);
            self.on_stack.insert(file);
            for next in self.graph.get(file).into_iter().flatten() {
                let low = match self.index.get(next) {
                    None => {
                        self.visit(next);
                        self.index[next].1
                    }
                    Some(&(index, _)) if self.on_stack.contains(next) => index,
                    Some(_) => continue,
                };
                let entry = self.index.get_mut(file).unwrap();
                entry.1 = entry.1.min(low);
            }
            if self.index[file].0 == self.index[file].1 {
                let mut group = Vec::new();
                while let Some(member) = self.stack.pop() {
                    self.on_stack.remove(member);
                    group.push(member.clone());
                    if member == file {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    self.out.push(group);
                }
            }
        }
    }
    let mut search = Search {
        graph,
        index: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for file in graph.keys() {
        if !search.index.contains_key(file) {
            search.visit(file);
        }
    }
    search.out
}

fn names(circle: &[ModulePath]) -> Vec<String> {
    circle.iter().map(|file| file.join("::")).collect()
}

#[test]
fn no_file_circle_in_src() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let crate_ = Crate::read(&src);
    let graph = crate_.file_graph();
    let found: Vec<Vec<String>> = circles(&graph).iter().map(|c| names(c)).collect();
    assert!(
        found.is_empty(),
        "{} file circle(s) in src/ (a file reaches itself through the files it uses):\n{}",
        found.len(),
        found
            .iter()
            .map(|c| c.join(" <-> "))
            .collect::<Vec<_>>()
            .join("\n")
    );
    // The graph was read: a few edges every layer has.
    for (from, to) in [
        ("service::exchange", "service::context"),
        ("service::app", "service::exchange"),
        ("service::device", "service::codes"),
        ("token::jwt", "token::verified"),
        ("token::error", "token::verified"),
        ("access::store", "access::key_request"),
        ("chain::cache", "chain::pem"),
        ("rim::c14n", "rim::limits"),
    ] {
        assert!(
            graph[&module_path(from)].contains(&module_path(to)),
            "{from} uses {to}: {:?}",
            names(
                &graph[&module_path(from)]
                    .iter()
                    .cloned()
                    .collect::<Vec<_>>()
            )
        );
    }
}

/// The check itself, on a crate of four files: a circle through a re-export is found, a
/// module's `pub use` facade is not a use, and a parent's item used by a child is.
#[test]
fn a_circle_through_a_reexport_is_named() {
    let files = [
        ("", "mod token;"),
        (
            "token",
            "mod error; mod jwt; mod verified;\n\
             pub use error::TokenError; pub use jwt::verify; pub use verified::VerifiedJwt;\n\
             pub(crate) const MAX: usize = 1;",
        ),
        (
            "token::error",
            "pub enum TokenError { Refused(crate::token::VerifiedJwt) }",
        ),
        (
            "token::jwt",
            "use super::{TokenError, VerifiedJwt};\n\
             pub fn verify() -> Result<VerifiedJwt, TokenError> { todo!() }",
        ),
        (
            "token::verified",
            "pub struct VerifiedJwt;\n\
             impl VerifiedJwt { fn check(&self) -> Result<(), super::error::TokenError> { \
             let _ = super::MAX; Ok(()) } }",
        ),
    ];
    let crate_ = Crate::from_files(
        files
            .iter()
            .map(|(module, code)| (module_path(module), (*module).to_owned(), strip(code)))
            .collect(),
    );
    let graph = crate_.file_graph();
    assert_eq!(
        circles(&graph).iter().map(|c| names(c)).collect::<Vec<_>>(),
        [["token::error", "token::verified"]]
    );
    assert!(
        graph[&module_path("token")].is_empty(),
        "a facade uses nothing"
    );
    assert!(graph[&module_path("token::verified")].contains(&module_path("token")));
    assert_eq!(
        names(
            &graph[&module_path("token::jwt")]
                .iter()
                .cloned()
                .collect::<Vec<_>>()
        ),
        ["token::error", "token::verified"]
    );
}

/// A module's root file that re-exports a name and uses it in its own code uses the file that
/// defines it (a field or variable of the same name is not a use).
#[test]
fn a_root_file_using_what_it_reexports_is_a_use() {
    let files = [
        ("", "mod ear; mod ocsp;"),
        (
            "ocsp",
            "mod error; pub use error::OcspError;\n\
             pub const MAX: usize = 1;\n\
             pub fn check(len: usize) -> Result<(), OcspError> { Err(OcspError(len)) }",
        ),
        (
            "ocsp::error",
            "pub struct OcspError(pub usize);\n\
             impl OcspError { fn limit(&self) -> usize { super::MAX } }",
        ),
        (
            "ear",
            "mod build; pub use build::policy_id;\n\
             pub struct Ear { pub policy_id: u8 }\n\
             impl Ear { fn id(&self) -> u8 { let policy_id = self.policy_id; policy_id } }",
        ),
        (
            "ear::build",
            "pub fn policy_id(ear: &super::Ear) -> u8 { ear.policy_id }",
        ),
    ];
    let crate_ = Crate::from_files(
        files
            .iter()
            .map(|(module, code)| (module_path(module), (*module).to_owned(), strip(code)))
            .collect(),
    );
    let graph = crate_.file_graph();
    assert_eq!(
        circles(&graph).iter().map(|c| names(c)).collect::<Vec<_>>(),
        [["ocsp", "ocsp::error"]]
    );
    assert!(
        graph[&module_path("ear")].is_empty(),
        "a field is not the function"
    );
}
