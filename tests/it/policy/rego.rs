//! Rego policies: the input document (version 1), the decision's shape, and hostile or
//! malformed policies refused with their codes — loops and recursion stopped by the budget or
//! the compiler, allocating builtins refused before evaluation, oversized text and nesting.
#![cfg(all(not(target_arch = "wasm32"), feature = "rego"))]

use edgeattest::policy::{
    appraise_rego, PolicyDecision, RegoError, RegoPolicy, RegoSyntax, RuleStatus, MAX_POLICY_BYTES,
    MAX_REGO_NESTING,
};
use edgeattest::token::{create_v1_result, sign_jwt, ResultFormat, VerifiedAttestationResult};
use edgeattest::ErrorCode;
use serde_json::{json, Value};

use super::signed::{detached, key, verify, with_times, KID};

fn two_devices() -> VerifiedAttestationResult {
    detached(
        json!({"x-nvidia-overall-att-result": true}),
        &[
            ("GPU-0", json!({"measres": "success", "secboot": true})),
            (
                "SWITCH-0",
                json!({"measres": "fail", "x-nvidia-device-type": "nvswitch-as-written"}),
            ),
        ],
    )
}

fn parse(text: &str) -> Result<RegoPolicy, RegoError> {
    RegoPolicy::parse(text.as_bytes())
}

fn decide(text: &str) -> Result<PolicyDecision, RegoError> {
    appraise_rego(&two_devices(), &parse(text)?)
}

const HEAD: &str = "package policy\nimport rego.v1\n";

fn policy(body: &str) -> String {
    format!("{HEAD}{body}\n")
}

fn code(result: Result<impl std::fmt::Debug, RegoError>) -> &'static str {
    result.unwrap_err().code()
}

#[test]
fn the_input_is_nvidias_device_array_with_the_context_in_data() {
    // input: one object per device, the claims verbatim; the device type added only when
    // absent; data.edgeattest: version, format, overall claims, labels.
    let text = policy(
        r#"
default nv_match := false
nv_match if {
    count(input) == 2
    input[0]["x-nvidia-device-type"] == "gpu"
    input[0].secboot == true
    input[1]["x-nvidia-device-type"] == "nvswitch-as-written"
    input[1].measres == "fail"
    data.edgeattest.version == 1
    data.edgeattest.format == "detached"
    data.edgeattest.labels == ["GPU-0", "SWITCH-0"]
    data.edgeattest.overall["x-nvidia-overall-att-result"] == true
    data.edgeattest.overall.eat_nonce == "931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb"
}"#,
    );
    let decision = decide(&text).unwrap();
    assert!(decision.passed());
    // Without reasons, each device's decision is the policy's.
    assert_eq!(decision.devices().len(), 2);
    assert!(decision
        .devices()
        .iter()
        .all(|d| d.passed() && d.rules().is_empty()));
    assert_eq!(
        serde_json::to_value(&decision).unwrap(),
        json!({"passed": true, "version": "rego", "overall": [], "devices": [
            {"label": "GPU-0", "passed": true, "rules": []},
            {"label": "SWITCH-0", "passed": true, "rules": []}]})
    );
    // A switch label without a type claim is an "nvswitch".
    let switch = detached(json!({}), &[("SWITCH-3", json!({}))]);
    let typed = parse(&policy(
        r#"nv_match if input[0]["x-nvidia-device-type"] == "nvswitch""#,
    ))
    .unwrap();
    assert!(appraise_rego(&switch, &typed).unwrap().passed());
}

#[test]
fn a_v1_result_is_one_device_and_the_overall_token() {
    let claims = json!({"measres": "success", "x-nvidia-overall-att-result": true});
    let token = sign_jwt(&with_times(claims), &key(), KID).unwrap();
    let result = verify(&create_v1_result(&token), ResultFormat::V1);
    let text = policy(
        r#"nv_match if {
    data.edgeattest.format == "v1"
    data.edgeattest.labels == ["GPU-0"]
    input[0].measres == "success"
    data.edgeattest.overall.measres == "success"
}"#,
    );
    let decision = appraise_rego(&result, &parse(&text).unwrap()).unwrap();
    assert!(decision.passed());
    assert_eq!(decision.devices()[0].label(), "GPU-0");
}

#[test]
fn nvidias_own_form_runs_unchanged() {
    // NVIDIA's rp-policy-permissive.rego shape (v0 keywords imported, `every`).
    let text = r#"package policy
import future.keywords.every
default nv_match := false
nv_match {
    count(input) > 0
    every result in input {
        result["x-nvidia-device-type"] == "gpu"
        result.secboot
    }
}"#;
    let result = detached(
        json!({}),
        &[
            ("GPU-0", json!({"secboot": true})),
            ("GPU-1", json!({"secboot": true})),
        ],
    );
    // v0 syntax (`nv_match {` without `if`) is read as v0, and means what its v1 form does.
    let policy = RegoPolicy::parse(text.as_bytes()).unwrap();
    assert_eq!(policy.syntax(), RegoSyntax::V0);
    assert!(appraise_rego(&result, &policy).unwrap().passed());
    let v1 = text.replace("nv_match {", "nv_match if {");
    let policy = RegoPolicy::parse(v1.as_bytes()).unwrap();
    assert_eq!(policy.syntax(), RegoSyntax::V1);
    assert!(appraise_rego(&result, &policy).unwrap().passed());
    let failing = detached(
        json!({}),
        &[
            ("GPU-0", json!({"secboot": true})),
            ("GPU-1", json!({"secboot": false})),
        ],
    );
    let decision = appraise_rego(&failing, &policy).unwrap();
    assert!(!decision.passed());
    assert!(decision.devices().iter().all(|d| !d.passed()));
}

#[test]
fn reasons_fill_the_rule_lists() {
    let text = policy(
        r#"
default nv_match := false
nv_match if count(reasons) == 0
reasons contains {"device": data.edgeattest.labels[i], "path": "/measres", "expected": "success", "found": d.measres} if {
    some i, d in input
    d.measres != "success"
}
reasons contains {"path": "/x-nvidia-ver", "expected": "3.0", "status": "missing"} if not data.edgeattest.overall["x-nvidia-ver"]
"#,
    );
    let decision = decide(&text).unwrap();
    assert!(!decision.passed());
    let failures: Vec<_> = decision
        .failures()
        .map(|(scope, r)| (scope, r.path(), r.found().cloned(), r.status()))
        .collect();
    assert_eq!(
        failures,
        [
            (None, "/x-nvidia-ver", None, RuleStatus::Missing),
            (
                Some("SWITCH-0"),
                "/measres",
                Some(json!("fail")),
                RuleStatus::Mismatch
            ),
        ]
    );
    assert!(decision.devices()[0].passed());
    assert!(!decision.devices()[1].passed());
    // A reason is a failure even when nv_match says true.
    let contradictory = text.replace("nv_match if count(reasons) == 0", "nv_match := true");
    assert!(!decide(&contradictory).unwrap().passed());
}

#[test]
fn results_of_the_wrong_shape_are_refused() {
    for (body, detail) in [
        ("nv_match := \"yes\"", "boolean"),
        ("nv_match := 1", "boolean"),
        ("allow := true", "nv_match"),
        ("nv_match := true\nreasons := 3", "reasons"),
        ("nv_match := true\nreasons contains \"measres\"", "reasons"),
        (
            "nv_match := true\nreasons contains {\"path\": 1}",
            "reasons",
        ),
        (
            "nv_match := true\nreasons contains {\"path\": \"/a\", \"status\": \"pass\"}",
            "reasons",
        ),
        (
            "nv_match := true\nreasons contains {\"path\": \"/a\", \"device\": \"GPU-9\"}",
            "device",
        ),
    ] {
        let error = decide(&policy(body)).unwrap_err();
        assert_eq!(error.code(), "ERR_REGO_RESULT", "{body}");
        assert!(error.to_string().contains(detail), "{body}: {error}");
    }
    // Undefined is false, as in NVIDIA's SDK.
    let decision = decide(&policy("nv_match if input[0].measres == \"nope\"")).unwrap();
    assert!(!decision.passed());
    assert!(decision.devices().iter().all(|d| !d.passed()));
}

#[test]
fn malformed_policies_do_not_compile() {
    for text in [
        String::new(),
        "package policy\nnv_match if {".into(),
        policy("nv_match := undefined_function(1)"),
        "\u{0}".into(),
    ] {
        assert_eq!(code(parse(&text)), "ERR_REGO_PARSE", "{text:?}");
    }
    assert_eq!(code(RegoPolicy::parse(&[0xff, 0xfe])), "ERR_REGO_PARSE");
    // No decision rule.
    assert_eq!(
        code(parse("package other\nnv_match := true")),
        "ERR_REGO_RESULT"
    );
    // Conflicting values: regorus's VM gives no value (an error in OPA); either way, no pass.
    let conflict = policy("nv_match := true\nnv_match := false");
    match decide(&conflict) {
        Ok(decision) => assert!(!decision.passed()),
        Err(error) => assert_eq!(error.code(), "ERR_REGO_EVAL"),
    }
}

#[test]
fn oversized_text_lines_and_nesting_are_refused_before_reading() {
    let big = policy(&format!(
        "nv_match := true\n# {}",
        "x".repeat(MAX_POLICY_BYTES)
    ));
    assert_eq!(code(parse(&big)), "ERR_POLICY_TOO_LARGE");
    let lines = policy(&format!("nv_match := true{}", "\n".repeat(2_001)));
    assert_eq!(code(parse(&lines)), "ERR_REGO_PARSE");
    let wide = policy(&format!("nv_match := \"{}\" != \"\"", "x".repeat(300)));
    assert_eq!(code(parse(&wide)), "ERR_REGO_PARSE");
    // Nesting past MAX_REGO_NESTING, of any bracket: refused before the parser, which takes
    // seconds over a 22-deep array literal. At the limit, it parses.
    for (open, close) in [("(", ")"), ("[", "]"), ("{\"a\": ", "}")] {
        let at = |depth| {
            policy(&format!(
                "x := {}1{}\nnv_match := true",
                open.repeat(depth),
                close.repeat(depth)
            ))
        };
        assert_eq!(
            code(parse(&at(MAX_REGO_NESTING + 1))),
            "ERR_REGO_TOO_DEEP",
            "{open}"
        );
        assert_eq!(code(parse(&at(33))), "ERR_REGO_TOO_DEEP", "{open}");
        assert!(decide(&at(MAX_REGO_NESTING)).unwrap().passed(), "{open}");
    }
    // A rule body counts as one level.
    let body = policy(&format!(
        "nv_match if {{ x := {}1{} }}",
        "[".repeat(MAX_REGO_NESTING),
        "]".repeat(MAX_REGO_NESTING)
    ));
    assert_eq!(code(parse(&body)), "ERR_REGO_TOO_DEEP");
    // Brackets in strings and comments do not count.
    let quoted = policy(&format!(
        "# {}\nnv_match := \"{}\" != \"\"",
        "[".repeat(40),
        "{".repeat(40)
    ));
    assert!(decide(&quoted).unwrap().passed());
}

#[test]
fn allocating_builtins_and_multiplication_are_refused_before_evaluation() {
    for (body, name) in [
        (
            "nv_match if count([x | some x in numbers.range(1, 100000000)]) > 0",
            "numbers.range",
        ),
        (
            "nv_match if count(numbers.range_step(1, 100000000, 1)) > 0",
            "numbers.range_step",
        ),
        (
            "s := concat(\"\", [\"a\", \"a\"])\nnv_match if s == s",
            "concat",
        ),
        (
            "s := sprintf(\"%s%s\", [\"a\", \"a\"])\nnv_match if s == s",
            "sprintf",
        ),
        (
            "s := array.concat([1], [1])\nnv_match if s == s",
            "array.concat",
        ),
        ("s := json.marshal([1])\nnv_match if s == s", "json.marshal"),
        ("s := count(input) * 2\nnv_match if s == s", "*"),
    ] {
        let error = parse(&policy(body)).unwrap_err();
        assert_eq!(error.code(), "ERR_REGO_BUILTIN", "{body}");
        assert_eq!(error, RegoError::Builtin { name: name.into() }, "{body}");
    }
    // Spellings the VM's compiler does not take (`with` is unsupported): refused all the same.
    for body in [
        "nv_match if count(numbers . range(1, 100000000)) > 0",
        "nv_match if count(input) > 0 with count as numbers.range",
    ] {
        let code = parse(&policy(body)).unwrap_err().code();
        assert!(
            matches!(code, "ERR_REGO_BUILTIN" | "ERR_REGO_PARSE"),
            "{body}: {code}"
        );
    }
    // What the program cannot reach is not compiled, so it cannot call anything.
    assert!(decide(&policy(
        "unused := numbers.range(1, 100000000)\nnv_match := true"
    ))
    .unwrap()
    .passed());
    // In a comment or a string, the name is no call.
    let text = policy("# numbers.range(1, 100000000) and 2 * 2\nnv_match := \"numbers.range(1, 2) * 3\" == \"numbers.range(1, 2) * 3\"");
    assert!(decide(&text).unwrap().passed());
}

#[test]
fn loops_and_deep_iteration_are_stopped_by_the_budget() {
    // A comprehension over a 2 × 2 × 52³ cross product (no numbers.range: refused).
    let huge_input_loop = r#"
letters := split("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz", "")
xs := [x |
    some a in input
    some b in input
    some c in letters
    some d in letters
    some e in letters
    x := [a, b, c, d, e]
]
nv_match if count(xs) > 0"#;
    let error = decide(&policy(huge_input_loop)).unwrap_err();
    assert_eq!(error.code(), "ERR_REGO_BUDGET", "{error}");
    // Nested `every` over a 26^4 cross product.
    let every = r#"
letters := split("abcdefghijklmnopqrstuvwxyz", "")
nv_match if {
    every a in letters {
        every b in letters {
            every c in letters {
                every d in letters {
                    a != concat_free(b, c, d)
                }
            }
        }
    }
}
concat_free(b, c, d) := "-" if { b; c; d }"#;
    assert_eq!(code(decide(&policy(every))), "ERR_REGO_BUDGET");
    // A huge array literal: its text is past the size cap; a huge array built at run time
    // is past the budget.
    let literal = format!("nv_match := count([{}]) > 0", "1,".repeat(40_000));
    assert_eq!(code(parse(&policy(&literal))), "ERR_POLICY_TOO_LARGE");
}

#[test]
fn recursion_is_refused() {
    let only = std::env::var("REGO_PROBE")
        .ok()
        .and_then(|v| v.parse::<usize>().ok());
    for (i, body) in [
        "nv_match if a\na if b\nb if a",
        "nv_match if f(1)\nf(x) if g(x)\ng(x) if f(x)",
        "nv_match if count(s) > 0\ns contains x if { some x in s }",
    ]
    .into_iter()
    .enumerate()
    {
        if only.is_some_and(|o| o != i) {
            continue;
        }
        eprintln!("{body}");
        let result = parse(&policy(body)).and_then(|p| appraise_rego(&two_devices(), &p));
        let error = result.unwrap_err();
        assert!(
            matches!(error.code(), "ERR_REGO_RECURSION" | "ERR_REGO_BUDGET"),
            "{body}: {error:?}"
        );
    }
}

#[test]
fn no_input_is_a_panic() {
    // Odd but valid texts, and random bytes, give a decision or a coded error.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for len in 0..200 {
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                b"package policy\nimport rego.v1\nnv_match if {}[]()\"#:=.,_ xyz019 every some in contains"[(seed % 76) as usize]
            })
            .collect();
        if let Ok(policy) = RegoPolicy::parse(&bytes) {
            let _ = appraise_rego(&two_devices(), &policy);
        }
    }
    let _ = Value::Null;
}
