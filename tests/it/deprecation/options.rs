//! The deprecation exports' options and check results as core serde types (issue 18): read
//! from JSON, answered with the JS shapes.
#![cfg(not(target_arch = "wasm32"))]

use super::at;
use edgeattest::deprecation::{
    attest_path_headers, DeprecationOptions, RequestCheck, SEPT_10_2026,
};
use edgeattest::ErrorCode;
use serde_json::json;

const BEFORE: u64 = SEPT_10_2026.as_secs() - 86_400;

fn options(value: serde_json::Value) -> DeprecationOptions {
    serde_json::from_value(value).expect("options")
}

#[test]
fn options_default_each_absent_member() {
    let default = options(json!({})).policy();
    assert_eq!(
        (default.release_cycle_secs, default.doc_url.as_str()),
        (30 * 86_400, "/deprecations")
    );
    let given =
        options(json!({"releaseCycleSeconds": 60, "docUrl": "https://d.example/list"})).policy();
    assert_eq!(
        (given.release_cycle_secs, given.doc_url.as_str()),
        (60, "https://d.example/list")
    );
    for bad in [
        json!({"releaseCycleSeconds": -1}),
        json!({"releaseCycleSeconds": 1.5}),
        json!({"releaseCycleSeconds": "60"}),
        json!({"docUrl": 5}),
    ] {
        assert!(
            serde_json::from_value::<DeprecationOptions>(bad.clone()).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn a_request_check_is_the_answer_to_send() {
    let policy = options(json!({})).policy();
    let used = RequestCheck::request(
        "MachineInstanceType",
        br#"{"id":"m1"}"#,
        at(BEFORE),
        &policy,
    );
    assert!(used.is_accepted());
    let value = serde_json::to_value(&used).unwrap();
    assert_eq!(value["ok"], true);
    assert_eq!(value["body"], json!({"id": "m1"}));
    assert_eq!(value["used"][0]["attribute"], "id");
    assert_eq!(value["ignored"], json!([]));
    assert!(value["headers"]
        .as_array()
        .unwrap()
        .iter()
        .any(|h| h[0] == "Link"));
    let ignored = serde_json::to_value(RequestCheck::request(
        "OperatingSystem",
        br#"{"name":"u","isCloudInit":true}"#,
        at(BEFORE),
        &policy,
    ))
    .unwrap();
    assert_eq!(ignored["body"], json!({"name": "u"}));
    assert_eq!(ignored["ignored"][0]["attribute"], "isCloudInit");
    let both = serde_json::to_value(RequestCheck::request(
        "MachineInstanceType",
        br#"{"id":"m1","machineId":"m1"}"#,
        at(BEFORE),
        &policy,
    ))
    .unwrap();
    assert_eq!(both["ok"], false);
    assert_eq!(both["status"], 400);
    assert_eq!(both["body"]["code"], "ERR_DEPRECATED_BOTH_PRESENT");
    assert_eq!(both["body"]["field"], "id");
    let late = serde_json::to_value(RequestCheck::request(
        "MachineInstanceType",
        br#"{"id":"m1"}"#,
        SEPT_10_2026,
        &policy,
    ))
    .unwrap();
    assert_eq!(late["body"]["code"], "ERR_DEPRECATED_ATTRIBUTE");
    let not_json = serde_json::to_value(RequestCheck::request(
        "MachineInstanceType",
        b"{",
        at(BEFORE),
        &policy,
    ))
    .unwrap();
    assert_eq!(
        (not_json["ok"].clone(), not_json["status"].clone()),
        (json!(false), json!(400))
    );
}

#[test]
fn a_query_check_strips_the_question_mark_and_has_no_body() {
    let policy = options(json!({})).policy();
    let with = serde_json::to_value(RequestCheck::query(
        "GET /instance",
        "?infrastructureProviderId=p1",
        at(BEFORE),
        &policy,
    ))
    .unwrap();
    let without = serde_json::to_value(RequestCheck::query(
        "GET /instance",
        "infrastructureProviderId=p1",
        at(BEFORE),
        &policy,
    ))
    .unwrap();
    assert_eq!(with, without);
    assert_eq!(with["ok"], true);
    assert!(with.get("body").is_none());
    assert_eq!(with["used"][0]["queryParam"], "infrastructureProviderId");
    let plain = serde_json::to_value(RequestCheck::query(
        "GET /instance",
        "",
        at(BEFORE),
        &policy,
    ))
    .unwrap();
    assert_eq!(
        plain,
        json!({"ok": true, "used": [], "ignored": [], "headers": []})
    );
}

#[test]
fn attest_headers_by_path() {
    let policy = options(json!({"docUrl": "/d"})).policy();
    let v2 = attest_path_headers("/v2/attest/gpu", at(BEFORE), &policy).unwrap();
    assert!(v2
        .iter()
        .any(|(name, value)| *name == "Link" && value.starts_with("</d#")));
    assert!(attest_path_headers("/v4/attest/gpu", at(BEFORE), &policy)
        .unwrap()
        .is_empty());
    let error = attest_path_headers("/v9/attest/gpu", at(BEFORE), &policy).unwrap_err();
    assert_eq!(error.code(), "ERR_REQUEST_UNKNOWN_ENDPOINT");
}
