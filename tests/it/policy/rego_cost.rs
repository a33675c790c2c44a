//! The Rego cost budget: an instruction is charged by the size of the values it can read, so
//! a comparison or a sort over a huge value — one instruction — is refused, quickly, and so
//! is a value whose size doubles with each `[a, a]`; ordinary policies keep running.
#![cfg(all(not(target_arch = "wasm32"), feature = "rego"))]

use edgeattest::policy::{appraise_rego, PolicyDecision, RegoError, RegoPolicy};
use edgeattest::ErrorCode;
use serde_json::json;

use super::signed::detached;

fn decide(body: &str) -> Result<PolicyDecision, RegoError> {
    let text = format!("package policy\nimport rego.v1\n{body}\n");
    let policy = RegoPolicy::parse(text.as_bytes())?;
    let result = detached(
        json!({"x-nvidia-overall-att-result": true}),
        &[("GPU-0", json!({"measres": "success"}))],
    );
    appraise_rego(&result, &policy)
}

fn budget(body: &str) {
    let error = decide(body).unwrap_err();
    assert_eq!(error.code(), "ERR_REGO_BUDGET", "{body}: {error}");
}

/// 40 letters: three nested loops over them make 64,000 elements.
const LETTERS: &str = r#"l := split("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN", "")"#;

#[test]
fn sort_and_equality_over_a_64000_element_array_are_refused() {
    // The review's reproductions: one `==` or `sort` instruction over an array of 64,000
    // elements, each a shared copy of one 1,600-element array, against an equal array built
    // apart (seconds of CPU for one instruction, within the instruction budget).
    let big = "big := [[a, b] | some a in l; some b in l]";
    let big2 = "big2 := [[a, b] | some a in l; some b in l]";
    let xs = "xs := [big | some a in l; some b in l; some c in l]";
    let ys = "ys := [big2 | some a in l; some b in l; some c in l]";
    budget(&format!(
        "{LETTERS}\n{big}\n{big2}\n{xs}\n{ys}\nnv_match if xs == ys"
    ));
    let mixed = "zs := [v | some a in l; some b in l; some v in [big, big2]]";
    budget(&format!(
        "{LETTERS}\n{big}\n{big2}\n{mixed}\nnv_match if count(sort(zs)) > 0"
    ));
}

#[test]
fn a_value_doubled_by_sharing_is_refused() {
    // `[a, a]` doubles a value's size in one instruction; 40 of them make 2^40 members,
    // which one `==` would walk.
    let mut body = String::from("a0 := [1, 2]\nb0 := [1, 2]\n");
    for i in 1..=40 {
        let j = i - 1;
        body.push_str(&format!("a{i} := [a{j}, a{j}]\nb{i} := [b{j}, b{j}]\n"));
    }
    body.push_str("nv_match if a40 == b40");
    budget(&body);
    // Also as a set member (inserting compares it) and through a function.
    let mut body = String::from("f(x) := [x, x]\na0 := [1, 2]\n");
    for i in 1..=40 {
        body.push_str(&format!("a{i} := f(a{})\n", i - 1));
    }
    body.push_str("nv_match if count({a40, [a39, a39]}) == 1");
    budget(&body);
}

#[test]
fn rule_definitions_compared_by_the_vm_are_charged() {
    // A complete rule defined twice: the VM compares the two values (equal, so no conflict)
    // as the second body ends, with no instruction of its own.
    let mut body = String::from("a0 := [1, 2]\nb0 := [1, 2]\n");
    for i in 1..=40 {
        let j = i - 1;
        body.push_str(&format!("a{i} := [a{j}, a{j}]\nb{i} := [b{j}, b{j}]\n"));
    }
    body.push_str("r := a40 if true\nr := b40 if true\nnv_match if count(r) == 2");
    budget(&body);
}

#[test]
fn a_huge_reasons_value_is_refused() {
    let mut body = String::from("a0 := [1, 2]\n");
    for i in 1..=16 {
        body.push_str(&format!("a{i} := [a{0}, a{0}]\n", i - 1));
    }
    body.push_str(
        "nv_match := true\nreasons contains {\"path\": \"/x\", \"expected\": a16, \"found\": 1}",
    );
    let error = decide(&body).unwrap_err();
    assert_eq!(error.code(), "ERR_REGO_RESULT", "{error}");
}

#[test]
fn ordinary_collections_stay_within_the_budget() {
    // 8,000 three-letter arrays, sorted and compared: well within it.
    let small = r#"l := split("abcdefghijklmnopqrst", "")"#;
    let xs = "xs := [[a, b, c] | some a in l; some b in l; some c in l]";
    let ys = "ys := [[a, b, c] | some a in l; some b in l; some c in l]";
    let body = format!("{small}\n{xs}\n{ys}\nnv_match if {{ sort(xs) == ys; count(xs) == 8000 }}");
    assert!(decide(&body).unwrap().passed());
}
