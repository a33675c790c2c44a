//! The rule semantics (subset objects, JSON equality, missing claims, every rule reported)
//! and the refusals of malformed and hostile policies, each with its code.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::policy::{
    appraise, Policy, PolicyDecision, PolicyError, PolicyVersion, RuleStatus, MAX_POLICY_BYTES,
    MAX_RULES, MAX_RULE_ARRAY, MAX_RULE_DEPTH,
};
use edgeattest::token::{create_v1_result, sign_jwt, ResultFormat};
use edgeattest::ErrorCode;
use serde_json::{json, Value};

use super::signed::{detached, key, verify, with_times, KID};

fn policy(text: Value) -> Policy {
    Policy::parse(text.to_string().as_bytes()).unwrap()
}

fn v4(overall: Value, detached: Value) -> Policy {
    policy(json!({"version": "4.0", "authorization-rules": {
        "type": "JWT", "overall-claims": overall, "detached-claims": detached}}))
}

fn statuses(decision: &PolicyDecision) -> Vec<(String, RuleStatus)> {
    decision
        .devices()
        .iter()
        .flat_map(|d| d.rules())
        .map(|r| (r.path().to_owned(), r.status()))
        .collect()
}

fn refused(text: &[u8]) -> PolicyError {
    Policy::parse(text).unwrap_err()
}

#[test]
fn objects_match_as_subsets_and_every_rule_is_reported() {
    let result = detached(
        json!({"x-nvidia-overall-att-result": true}),
        &[(
            "GPU-0",
            json!({"chain": {"status": "valid", "ocsp": "good", "expires": "2030-01-01T00:00:00Z"},
                   "secboot": true, "driver": "550.90.07"}),
        )],
    );
    let rules = v4(
        json!({"x-nvidia-overall-att-result": true}),
        json!({"chain": {"status": "valid", "ocsp": "revoked"}, "secboot": true,
               "driver": "550.90.07", "dbgstat": "disabled", "a/b~c": {"d": 1}}),
    );
    let decision = appraise(&result, &rules).unwrap();
    assert!(!decision.passed());
    assert!(decision.overall().iter().all(|r| r.passed()));
    // The policy's order; the unnamed `expires` member is ignored; paths are JSON Pointers.
    assert_eq!(
        statuses(&decision),
        [
            ("/chain/status".into(), RuleStatus::Pass),
            ("/chain/ocsp".into(), RuleStatus::Mismatch),
            ("/secboot".into(), RuleStatus::Pass),
            ("/driver".into(), RuleStatus::Pass),
            ("/dbgstat".into(), RuleStatus::Missing),
            ("/a~1b~0c/d".into(), RuleStatus::Missing),
        ]
    );
    let missing: Vec<_> = decision.missing().collect();
    assert_eq!(
        missing,
        [(Some("GPU-0"), "/dbgstat"), (Some("GPU-0"), "/a~1b~0c/d")]
    );
    let device = &decision.devices()[0];
    assert_eq!(device.rules()[1].expected(), &json!("revoked"));
    assert_eq!(device.rules()[1].found(), Some(&json!("good")));
}

#[test]
fn equality_is_json_equality() {
    let claims = json!({"flag": true, "one": 1, "real": 1.0, "text": "abc", "null": null,
                        "list": [1, "a", {"k": true}], "object": {"k": 1}});
    let result = detached(json!({}), &[("GPU-0", claims)]);
    let cases = [
        (json!({"flag": true}), true),
        (json!({"flag": 1}), false),
        (json!({"one": 1.0}), true),
        (json!({"real": 1}), true),
        (json!({"one": 2}), false),
        (json!({"text": "ABC"}), false),
        (json!({"null": null}), true),
        (json!({"null": false}), false),
        (json!({"flag": null}), false),
        (json!({"list": [1, "a", {"k": true}]}), true),
        (json!({"list": ["a", 1, {"k": true}]}), false),
        (json!({"list": [1, "a"]}), false),
        // Inside an array, objects compare whole.
        (json!({"list": [1, "a", {}]}), false),
        // An empty rule object asks only for an object.
        (json!({"object": {}}), true),
        (json!({"text": {}}), false),
        // A rule object over a scalar claim: each rule under it fails with what is there.
        (json!({"text": {"k": "abc"}}), false),
    ];
    for (rules, pass) in cases {
        let decision = appraise(&result, &v4(json!({}), rules.clone())).unwrap();
        assert_eq!(decision.passed(), pass, "{rules}");
    }
    let decision = appraise(&result, &v4(json!({}), json!({"text": {"k": "abc"}}))).unwrap();
    let rule = &decision.devices()[0].rules()[0];
    assert_eq!(
        (rule.path(), rule.status()),
        ("/text/k", RuleStatus::Mismatch)
    );
    assert_eq!(rule.found(), Some(&json!("abc")));
}

#[test]
fn every_device_is_held_to_the_detached_rules() {
    let good = json!({"measres": "success"});
    let bad = json!({"measres": "fail"});
    let result = detached(
        json!({}),
        &[("GPU-0", good.clone()), ("GPU-1", bad), ("SWITCH-0", good)],
    );
    let decision = appraise(&result, &v4(json!({}), json!({"measres": "success"}))).unwrap();
    assert!(!decision.passed());
    let passed: Vec<_> = decision
        .devices()
        .iter()
        .map(|d| (d.label(), d.passed()))
        .collect();
    assert_eq!(
        passed,
        [("GPU-0", true), ("GPU-1", false), ("SWITCH-0", true)]
    );
    assert_eq!(
        decision
            .failures()
            .map(|(s, r)| (s, r.path()))
            .collect::<Vec<_>>(),
        [(Some("GPU-1"), "/measres")]
    );
    // The overall rules fail the decision on their own.
    let decision = appraise(
        &result,
        &v4(json!({"x-nvidia-ver": "3.0"}), json!({"measres": "fail"})),
    )
    .unwrap();
    assert_eq!(decision.overall()[0].status(), RuleStatus::Missing);
    assert!(!decision.passed());
}

#[test]
fn a_version_1_policy_reads_the_v1_single_token() {
    let key = key();
    let claims = with_times(
        json!({"x-nvidia-overall-att-result": true, "measres": "success",
        "x-nvidia-attestation-detailed-result": {"x-nvidia-gpu-arch-check": true}}),
    );
    let token = sign_jwt(&claims, &key, KID).unwrap();
    let result = verify(&create_v1_result(&token), ResultFormat::V1);
    let pass = policy(
        json!({"version": "1.0", "authorization-rules": {"measres": "success",
        "x-nvidia-attestation-detailed-result": {"x-nvidia-gpu-arch-check": true}}}),
    );
    let decision = appraise(&result, &pass).unwrap();
    assert!(decision.passed());
    assert_eq!(decision.version(), PolicyVersion::V1);
    assert!(decision.overall().is_empty());
    assert_eq!(decision.devices()[0].label(), "GPU-0");
    assert_eq!(decision.devices()[0].rules().len(), 2);
    let v4 = v4(json!({}), json!({"measres": "success"}));
    let error = appraise(&result, &v4).unwrap_err();
    assert_eq!(error.code(), "ERR_POLICY_RESULT_FORMAT");
}

#[test]
fn the_decision_serialises_for_the_js_api() {
    let result = detached(json!({}), &[("GPU-0", json!({"measres": "fail"}))]);
    let decision = appraise(
        &result,
        &v4(json!({}), json!({"measres": "success", "x": 1})),
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(&decision).unwrap(),
        json!({"passed": false, "version": "4.0", "overall": [], "devices": [{
            "label": "GPU-0", "passed": false, "rules": [
                {"path": "/measres", "expected": "success", "found": "fail", "status": "mismatch"},
                {"path": "/x", "expected": 1, "status": "missing"}]}]})
    );
}

#[test]
fn malformed_policies_are_refused_with_their_member() {
    let cases: [(Value, &str, Option<&str>); 10] = [
        (json!([]), "ERR_POLICY_SHAPE", Some("")),
        (
            json!({"authorization-rules": {}}),
            "ERR_POLICY_SHAPE",
            Some("/version"),
        ),
        (
            json!({"version": 4.0, "authorization-rules": {}}),
            "ERR_POLICY_SHAPE",
            Some("/version"),
        ),
        (
            json!({"version": "5.0", "authorization-rules": {}}),
            "ERR_POLICY_UNKNOWN_VERSION",
            Some("/version"),
        ),
        (
            json!({"version": "4.0"}),
            "ERR_POLICY_SHAPE",
            Some("/authorization-rules"),
        ),
        (
            json!({"version": "4.0", "authorization-rules": {"overall-claims": {}, "detached-claims": {"a": 1}}}),
            "ERR_POLICY_SHAPE",
            Some("/authorization-rules/type"),
        ),
        (
            json!({"version": "4.0", "authorization-rules": {"type": "JWS", "overall-claims": {}, "detached-claims": {"a": 1}}}),
            "ERR_POLICY_SHAPE",
            Some("/authorization-rules/type"),
        ),
        // A misspelt set is refused, not skipped.
        (
            json!({"version": "4.0", "authorization-rules": {"type": "JWT", "overall-claims": {}, "detached-claim": {"a": 1}}}),
            "ERR_POLICY_SHAPE",
            Some("/authorization-rules/detached-claim"),
        ),
        (
            json!({"version": "4.0", "authorization-rules": {"type": "JWT", "overall-claims": {}, "detached-claims": {}}}),
            "ERR_POLICY_SHAPE",
            Some("/authorization-rules"),
        ),
        (
            json!({"version": "1.0", "authorization-rules": {"a": true}, "comment": "x"}),
            "ERR_POLICY_SHAPE",
            Some("/comment"),
        ),
    ];
    for (text, code, field) in cases {
        let error = refused(text.to_string().as_bytes());
        assert_eq!((error.code(), error.field()), (code, field), "{text}");
    }
    let error = refused(br#"{"version": "4.0", "version": "1.0", "authorization-rules": {}}"#);
    assert_eq!(error.code(), "ERR_JSON_DUPLICATE_MEMBER");
    let error = refused(br#"{"version": "4.0", "authorization-rules": "#);
    assert_eq!(error.code(), "ERR_JSON_SYNTAX");
}

#[test]
fn hostile_policies_are_refused_before_any_work() {
    // Text past the budget, even when valid JSON.
    let mut big = String::from(r#"{"version":"1.0","authorization-rules":{"a":""#);
    big.push_str(&"x".repeat(MAX_POLICY_BYTES));
    big.push_str(r#""}}"#);
    assert_eq!(refused(big.as_bytes()).code(), "ERR_POLICY_TOO_LARGE");
    // JSON nesting past the JSON limit, and rule nesting past the rule limit.
    let deep_json = format!(
        r#"{{"version":"1.0","authorization-rules":{{"a":{}1{}}}}}"#,
        "[".repeat(40),
        "]".repeat(40)
    );
    assert_eq!(refused(deep_json.as_bytes()).code(), "ERR_JSON_TOO_DEEP");
    let mut nested = json!(true);
    for _ in 0..=MAX_RULE_DEPTH {
        nested = json!({ "n": nested });
    }
    let error = refused(
        json!({"version": "1.0", "authorization-rules": nested})
            .to_string()
            .as_bytes(),
    );
    assert_eq!(error.code(), "ERR_POLICY_TOO_DEEP");
    let mut within = json!(true);
    for _ in 0..MAX_RULE_DEPTH {
        within = json!({ "n": within });
    }
    assert!(Policy::parse(
        json!({"version": "1.0", "authorization-rules": within})
            .to_string()
            .as_bytes()
    )
    .is_ok());
    // Too many rules, counted across the sets.
    let rules: serde_json::Map<String, Value> = (0..=MAX_RULES)
        .map(|i| (format!("r{i}"), json!(true)))
        .collect();
    let error = refused(
        json!({"version": "1.0", "authorization-rules": rules})
            .to_string()
            .as_bytes(),
    );
    assert_eq!(error.code(), "ERR_POLICY_TOO_MANY_RULES");
    // A huge array, also inside another value.
    for array in [
        json!(vec![0; MAX_RULE_ARRAY + 1]),
        json!([[vec![0; MAX_RULE_ARRAY + 1]]]),
    ] {
        let error = refused(
            json!({"version": "1.0", "authorization-rules": {"list": array}})
                .to_string()
                .as_bytes(),
        );
        assert_eq!(
            (error.code(), error.field()),
            (
                "ERR_POLICY_ARRAY_TOO_LARGE",
                Some("/authorization-rules/list")
            )
        );
    }
}
