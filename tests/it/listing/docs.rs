//! The listing exports' schema documents, limits and responses as core serde types
//! (issue 18), with the JS shapes.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::listing::{generate_table, respond, ListLimits, Schema, MAX_RPP};
use edgeattest::ErrorCode;
use serde_json::json;

#[test]
fn schemas_serialise_as_documented() {
    let all = serde_json::to_value(Schema::all()).unwrap();
    assert_eq!(all.as_array().unwrap().len(), 9);
    for schema in all.as_array().unwrap() {
        let keys: Vec<&String> = schema.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["path", "item", "key", "columns"]);
        let columns = schema["columns"].as_array().unwrap();
        assert!(columns.iter().any(|c| c["name"] == schema["key"]));
        for column in columns {
            assert!(["integer", "number", "string", "array of string"]
                .contains(&column["type"].as_str().unwrap()));
            assert!(!column["doc"].as_str().unwrap().is_empty());
        }
    }
}

#[test]
fn a_path_is_found_or_refused_with_the_listing_code() {
    assert_eq!(
        Schema::find("/analytics/alerts/filter").unwrap().path,
        "/analytics/alerts/filter"
    );
    let error = Schema::find("/analytics/nope").unwrap_err();
    assert_eq!(error.code(), "ERR_LIST_UNKNOWN_PATH");
}

#[test]
fn limits_and_responses_serialise_as_the_js_shapes() {
    let limits = serde_json::to_value(ListLimits::CURRENT).unwrap();
    assert_eq!(limits["maxRpp"], MAX_RPP);
    assert_eq!(limits.as_object().unwrap().len(), 6);
    let schema = Schema::find("/analytics/alerts/filter").unwrap();
    let table = generate_table(schema, 3, 1).unwrap();
    let ok = serde_json::to_value(respond(schema.path, "rpp=2", &table)).unwrap();
    assert_eq!(ok["status"], 200);
    let page: serde_json::Value = serde_json::from_str(ok["body"].as_str().unwrap()).unwrap();
    assert_eq!(
        (
            page["filtered_resources"].clone(),
            page["num_of_pages"].clone()
        ),
        (json!(3), json!(2))
    );
    let bad = serde_json::to_value(respond(schema.path, "rpp=0", &table)).unwrap();
    assert_eq!(bad["status"], 400);
    let body: serde_json::Value = serde_json::from_str(bad["body"].as_str().unwrap()).unwrap();
    assert_eq!(body["field"], "rpp");
}
