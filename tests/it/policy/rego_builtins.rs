//! Which builtins a Rego policy reaches: only those of `REGO_ALLOWED_BUILTINS`, however the
//! call is spelled. The guard is the compiled program's builtin table, not the text: each
//! dotted builtin compiled into regorus and not allowed is refused through every spelling
//! (dotted, bracketed, a computed key, `with`, `data`-rooted), before anything runs.
#![cfg(all(not(target_arch = "wasm32"), feature = "rego"))]

use edgeattest::policy::{RegoError, RegoPolicy, REGO_ALLOWED_BUILTINS};
use edgeattest::ErrorCode;

fn parse(body: &str) -> Result<RegoPolicy, RegoError> {
    RegoPolicy::parse(format!("package policy\nimport rego.v1\n{body}\n").as_bytes())
}

/// The dotted builtins compiled into regorus, with their arity (the set operators `|` and `&`
/// are two of them).
fn dotted() -> Vec<(&'static str, u8)> {
    let mut names: Vec<(&'static str, u8)> = regorus::unstable::BUILTINS
        .iter()
        .filter(|(name, _)| name.contains('.'))
        .map(|(name, builtin)| (*name, builtin.1))
        .collect();
    names.sort_unstable();
    names
}

/// The operators `|` and `&`, which regorus compiles to builtin calls.
const OPERATORS: [&str; 2] = ["__builtin_sets.union", "__builtin_sets.intersection"];

/// The spellings regorus's compiler resolves to the builtin.
fn resolved(name: &str, args: &str) -> Vec<String> {
    let (root, rest) = name.split_once('.').unwrap();
    vec![
        format!("nv_match if {{ x := {name}({args}); x == x }}"),
        format!("nv_match if {{ x := {name} ({args}); x == x }}"),
        format!("nv_match if {{ x := {}({args}); x == x }}", bracketed(name)),
        format!("nv_match if {{ x := {root}[\"{rest}\"]({args}); x == x }}"),
        format!(
            "f(a) := {}({args}) if a\nnv_match if f(true)",
            bracketed(name)
        ),
        format!("nv_match if {{ not {}({args}) }}", bracketed(name)),
    ]
}

/// `numbers.range` as `numbers["range"]`, `crypto.x509.parse…` as `crypto["x509"]["parse…"]`.
fn bracketed(name: &str) -> String {
    let mut parts = name.split('.');
    let mut text = parts.next().unwrap().to_owned();
    for part in parts {
        text.push_str(&format!("[\"{part}\"]"));
    }
    text
}

fn args(arity: u8) -> String {
    vec!["1"; usize::from(arity)].join(", ")
}

#[test]
fn the_33_dotted_builtins_are_refused_however_spelled_unless_allowed() {
    let names = dotted();
    assert_eq!(names.len(), 33, "{names:?}");
    let mut refused = 0;
    for (name, arity) in names {
        let args = args(arity);
        if REGO_ALLOWED_BUILTINS.contains(&name) || OPERATORS.contains(&name) {
            for body in resolved(name, &args) {
                assert!(parse(&body).is_ok(), "{body}");
            }
            continue;
        }
        refused += 1;
        for body in resolved(name, &args) {
            let error = parse(&body).expect_err(&body);
            assert_eq!(
                error,
                RegoError::Builtin { name: name.into() },
                "{body}: {error}"
            );
            assert_eq!(error.code(), "ERR_REGO_BUILTIN");
        }
        // The spellings it does not resolve to a builtin: refused when compiled, whatever
        // the reason (a computed key is no function, `with` does not compile for the VM, a
        // `data`-rooted name is no builtin), never run.
        let (root, rest) = name.split_once('.').unwrap();
        let last = name.rsplit('.').next().unwrap();
        for body in [
            format!("k := \"{last}\"\nnv_match if {{ x := {root}[k]({args}); x == x }}"),
            format!("nv_match if count([1]) == 1 with count as {name}"),
            format!(
                "nv_match if count([1]) == 1 with count as {}",
                bracketed(name)
            ),
            format!("nv_match if {{ x := data.{name}({args}); x == x }}"),
            format!("nv_match if {{ x := data[\"{root}\"][\"{rest}\"]({args}); x == x }}"),
            format!("import data.{root}\nnv_match if {{ x := {name}({args}); x == x }}"),
        ] {
            let error = parse(&body).expect_err(&body);
            assert!(
                matches!(error.code(), "ERR_REGO_BUILTIN" | "ERR_REGO_PARSE"),
                "{body}: {error:?}"
            );
        }
    }
    assert_eq!(refused, 27);
}

#[test]
fn the_reviews_reproductions_are_refused_before_they_run() {
    // One instruction of 2.3 GB and 10 s.
    let range = "nv_match if count(numbers[\"range\"](1, 100000000)) > 0";
    assert_eq!(
        parse(range).unwrap_err(),
        RegoError::Builtin {
            name: "numbers.range".into()
        }
    );
    // 22 doublings of about 1 GB.
    let mut doublings = String::from("a0 := [1]\n");
    for i in 1..=22 {
        let j = i - 1;
        doublings.push_str(&format!("a{i} := array[\"concat\"](a{j}, a{j})\n"));
    }
    doublings.push_str("nv_match if count(a22) > 0");
    assert_eq!(
        parse(&doublings).unwrap_err(),
        RegoError::Builtin {
            name: "array.concat".into()
        }
    );
}

#[test]
fn the_allowed_builtins_still_compile_under_any_spelling() {
    for body in [
        "nv_match if count([1]) == 1",
        "nv_match if object[\"keys\"]({\"a\": 1}) == {\"a\"}",
        "nv_match if array[\"reverse\"]([1, 2]) == [2, 1]",
    ] {
        assert!(parse(body).is_ok(), "{body}");
    }
    // Operators that are no builtin call but multiply a number's size: refused on the
    // program too.
    assert_eq!(
        parse("s := input[0].n * 2\nnv_match if s == s").unwrap_err(),
        RegoError::Builtin { name: "*".into() }
    );
}
