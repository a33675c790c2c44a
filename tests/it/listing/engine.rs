//! The engine on a small hand-written alert set: a vector for each filter type on each
//! column type, sorting per type, ties, the envelope, and loading errors.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions may fail loudly too.

use edgeattest::listing::{
    list_page, list_response, respond, ListError, ListQuery, Schema, Table, TableError,
};
use edgeattest::ErrorCode;
use serde_json::Value;

const ALERTS: &str = "/analytics/alerts/filter";

/// Five alerts, deliberately not in key order.
const ROWS: &str = r#"[
 {"alert_id":3,"occurrence":7,"severity":"critical","description":"Ünïcode ✓ port","influencers":["0xb"],"percentage":12.5,"influencers_display_names":["b"],"timestamp":100},
 {"alert_id":1,"occurrence":5,"severity":"critical","description":"Port 1 down","influencers":["0xa","0xb"],"percentage":12.5,"influencers_display_names":["a","b"],"timestamp":100},
 {"alert_id":5,"occurrence":10,"severity":"Critical","description":"port 10 UP","influencers":["0xab"],"percentage":100,"influencers_display_names":["ab"],"timestamp":150},
 {"alert_id":2,"occurrence":5,"severity":"major","description":"Link flap, port 2","influencers":[],"percentage":0.25,"influencers_display_names":[],"timestamp":200},
 {"alert_id":4,"occurrence":-1,"severity":"minor","description":"","influencers":["0xc","0xa"],"percentage":-0.0,"influencers_display_names":["c","a"],"timestamp":300}
]"#;

fn schema() -> &'static Schema {
    Schema::for_path(ALERTS).unwrap()
}

fn table() -> Table {
    Table::from_json(schema(), ROWS.as_bytes()).unwrap()
}

/// The alert ids of page 1 at the largest rpp.
fn ids(table: &Table, query: &str) -> Vec<i64> {
    let query = if query.is_empty() {
        "rpp=1000".to_string()
    } else {
        format!("{query}&rpp=1000")
    };
    let page = list_page(ALERTS, &query, table).unwrap_or_else(|e| panic!("{query}: {e}"));
    page.data
        .iter()
        .map(|item| item["alert_id"].as_i64().unwrap())
        .collect()
}

fn check(table: &Table, vectors: &[(&str, &[i64])]) {
    for (query, expected) in vectors {
        assert_eq!(ids(table, query), *expected, "{query}");
    }
}

#[test]
fn string_filters() {
    let t = table();
    check(
        &t,
        &[
            ("filter=severity[eq]critical", &[1, 3]),
            ("filter=severity[neq]critical", &[2, 4, 5]),
            ("filter=severity[con]rit", &[1, 3, 5]),
            ("filter=severity[ncon]rit", &[2, 4]),
            ("filter=severity[sw]C", &[5]),
            ("filter=severity[sw]c", &[1, 3]),
            ("filter=severity[ew]or", &[2, 4]),
            ("filter=severity[eqm]critical,minor", &[1, 3, 4]),
            ("filter=severity[eqm]CRITICAL", &[]),
            ("filter=description[eq]", &[4]),
            ("filter=description[neq]", &[1, 2, 3, 5]),
            ("filter=description[con]%E2%9C%93", &[3]),
            ("filter=description[sw]%C3%9C", &[3]),
            ("filter=description[con]port", &[2, 3, 5]),
            ("filter=description[ew]UP", &[5]),
            (
                r"filter=description[eqm]Link+flap\,+port+2,port+10+UP",
                &[2, 5],
            ),
        ],
    );
}

#[test]
fn string_array_filters() {
    let t = table();
    check(
        &t,
        &[
            ("filter=influencers[eq]0xa", &[1, 4]),
            ("filter=influencers[neq]0xa", &[2, 3, 5]),
            ("filter=influencers[con]0xa", &[1, 4, 5]),
            ("filter=influencers[ncon]0xa", &[2, 3]),
            ("filter=influencers[sw]0xa", &[1, 4, 5]),
            ("filter=influencers[ew]b", &[1, 3, 5]),
            ("filter=influencers[eqm]0xc,0xab", &[4, 5]),
            ("filter=influencers[eq]", &[]),
            ("filter=influencers[neq]", &[1, 2, 3, 4, 5]),
            ("filter=influencers_display_names[eq]b", &[1, 3]),
        ],
    );
}

#[test]
fn integer_filters() {
    let t = table();
    check(
        &t,
        &[
            ("filter=occurrence[eq]5", &[1, 2]),
            ("filter=occurrence[neq]5", &[3, 4, 5]),
            ("filter=occurrence[eqm]7,-1,99", &[3, 4]),
            ("filter=occurrence[con]1", &[4, 5]),
            ("filter=occurrence[ncon]1", &[1, 2, 3]),
            ("filter=occurrence[sw]-", &[4]),
            ("filter=occurrence[ew]0", &[5]),
            ("filter=timestamp[eq]100", &[1, 3]),
            ("filter=alert_id[eq]4", &[4]),
            ("filter=alert_id[eq]6", &[]),
        ],
    );
}

#[test]
fn number_filters() {
    let t = table();
    check(
        &t,
        &[
            ("filter=percentage[eq]12.5", &[1, 3]),
            ("filter=percentage[eq]1.25e1", &[1, 3]),
            ("filter=percentage[eq]0", &[4]),
            ("filter=percentage[eq]-0", &[4]),
            ("filter=percentage[eq]100", &[5]),
            ("filter=percentage[neq]12.5", &[2, 4, 5]),
            ("filter=percentage[eqm]0.25,100.0", &[2, 5]),
            // Text forms as output: 12.5, 0.25, 0.0, 100.0.
            ("filter=percentage[con].", &[1, 2, 3, 4, 5]),
            ("filter=percentage[sw]1", &[1, 3, 5]),
            ("filter=percentage[ew].0", &[4, 5]),
            ("filter=percentage[ncon]5", &[4, 5]),
        ],
    );
}

/// A number filter reads its value as the table read the item: the same text is the same
/// number to the last bit, for long mantissas and extreme exponents too.
#[test]
fn number_filter_values_read_like_loaded_values() {
    let texts = [
        "0.30000000000000004",
        "0.1",
        "123456789.12345678901234",
        "9007199254740993",
        "1.7976931348623157e308",
        "2.2250738585072014e-308",
        "4.9e-324",
        "3.141592653589793238462643383279",
        "7.3177701707893310e15",
        "1e23",
    ];
    let items: Vec<String> = texts
        .iter()
        .zip(1..)
        .map(|(text, id)| {
            format!(
                r#"{{"alert_id":{id},"occurrence":1,"severity":"s","description":"d","influencers":[],"percentage":{text},"influencers_display_names":[],"timestamp":1}}"#
            )
        })
        .collect();
    let table = Table::from_json(schema(), format!("[{}]", items.join(",")).as_bytes()).unwrap();
    for (text, id) in texts.iter().zip(1..) {
        assert_eq!(
            ids(&table, &format!("filter=percentage[eq]{text}")),
            [id],
            "{text}"
        );
        let others: Vec<i64> = (1..=texts.len() as i64).filter(|&i| i != id).collect();
        assert_eq!(
            ids(&table, &format!("filter=percentage[neq]{text}")),
            others,
            "{text}"
        );
    }
}

#[test]
fn filters_are_anded() {
    let t = table();
    check(
        &t,
        &[
            (
                "filter=severity[eq]critical&filter=timestamp[eq]100",
                &[1, 3],
            ),
            (
                "filter=severity[eq]critical&filter=timestamp[eq]100&filter=occurrence[eq]7",
                &[3],
            ),
            // Two filters on one column.
            ("filter=description[con]port&filter=description[con]1", &[5]),
            ("filter=severity[eq]critical&filter=severity[eq]major", &[]),
        ],
    );
}

#[test]
fn sorting_per_type_with_ties_broken_by_key() {
    let t = table();
    check(
        &t,
        &[
            ("", &[1, 2, 3, 4, 5]),
            ("sorting=timestamp[asc]", &[1, 3, 5, 2, 4]),
            // Ties (1 and 3 at 100) stay in key order whatever the direction.
            ("sorting=timestamp[desc]", &[4, 2, 5, 1, 3]),
            // Code point order: upper case before lower case.
            ("sorting=severity[asc]", &[5, 1, 3, 2, 4]),
            ("sorting=severity[desc]", &[4, 2, 1, 3, 5]),
            ("sorting=percentage[desc],occurrence[asc]", &[5, 1, 3, 2, 4]),
            (
                "sorting=percentage[desc],occurrence[desc]",
                &[5, 3, 1, 2, 4],
            ),
            ("sorting=occurrence[asc]", &[4, 1, 2, 3, 5]),
            // [] < [0xa,0xb] < [0xab] < [0xb] < [0xc,0xa]
            ("sorting=influencers[asc]", &[2, 1, 5, 3, 4]),
            ("sorting=influencers[desc]", &[4, 3, 5, 1, 2]),
            // "" < "Link…" < "Port…" < "port…" < "Ü…"
            ("sorting=description[asc]", &[4, 2, 1, 5, 3]),
            ("sorting=alert_id[desc]", &[5, 4, 3, 2, 1]),
            (
                "sorting=severity[asc],timestamp[desc]&filter=severity[con]ri",
                &[5, 1, 3],
            ),
        ],
    );
}

#[test]
fn envelope_fields() {
    let t = table();
    let page = |q: &str| list_page(ALERTS, q, &t);
    let p1 = page("rpp=2").unwrap();
    assert_eq!(
        (
            p1.filtered_resources,
            p1.first_index,
            p1.last_index,
            p1.num_of_pages
        ),
        (5, 1, 2, 3)
    );
    let p2 = page("rpp=2&page_number=2").unwrap();
    assert_eq!((p2.first_index, p2.last_index, p2.data.len()), (3, 4, 2));
    let p3 = page("rpp=2&page_number=3").unwrap();
    assert_eq!((p3.first_index, p3.last_index, p3.data.len()), (5, 5, 1));
    assert_eq!(
        page("rpp=2&page_number=4"),
        Err(ListError::PageOutOfRange {
            page_number: 4,
            num_of_pages: 3
        })
    );
    let exact = page("rpp=5").unwrap();
    assert_eq!((exact.num_of_pages, exact.last_index), (1, 5));
    assert_eq!(
        page("rpp=5&page_number=2").unwrap_err().code(),
        "ERR_LIST_PAGE_OUT_OF_RANGE"
    );

    // Nothing matches: page 1 exists and is all zeros; page 2 does not.
    let none = "filter=severity[eq]none";
    assert_eq!(
        list_response(ALERTS, none, &t).unwrap(),
        r#"{"data":[],"filtered_resources":0,"first_index":0,"last_index":0,"num_of_pages":0}"#
    );
    let error = page(&format!("{none}&page_number=2")).unwrap_err();
    assert_eq!(
        error,
        ListError::PageOutOfRange {
            page_number: 2,
            num_of_pages: 0
        }
    );
    assert_eq!((error.status(), error.field()), (400, Some("page_number")));

    // Filtered count is before paging.
    let filtered = page("filter=severity[eq]critical&rpp=1&page_number=2").unwrap();
    assert_eq!(
        (
            filtered.filtered_resources,
            filtered.first_index,
            filtered.num_of_pages
        ),
        (2, 2, 2)
    );
    assert_eq!(filtered.data[0]["alert_id"], 3);
}

#[test]
fn items_serialise_in_schema_order() {
    let t = table();
    let body = list_response(ALERTS, "filter=alert_id[eqm]4,5", &t).unwrap();
    assert_eq!(
        body,
        concat!(
            r#"{"data":["#,
            r#"{"alert_id":4,"occurrence":-1,"severity":"minor","description":"","influencers":["0xc","0xa"],"percentage":0.0,"influencers_display_names":["c","a"],"timestamp":300},"#,
            r#"{"alert_id":5,"occurrence":10,"severity":"Critical","description":"port 10 UP","influencers":["0xab"],"percentage":100.0,"influencers_display_names":["ab"],"timestamp":150}"#,
            r#"],"filtered_resources":2,"first_index":1,"last_index":2,"num_of_pages":1}"#
        )
    );
    // Array order within an item is kept, not sorted.
    assert_eq!(
        t.row(3).unwrap()["influencers"],
        serde_json::json!(["0xc", "0xa"])
    );
}

#[test]
fn respond_is_http_shaped() {
    let t = table();
    let ok = respond(ALERTS, "rpp=1&page_number=5", &t);
    assert_eq!(ok.status, 200);
    assert!(
        ok.body.contains(r#""first_index":5,"last_index":5"#),
        "{}",
        ok.body
    );
    let bad = respond(ALERTS, "rpp=1&page_number=6", &t);
    assert_eq!(bad.status, 400);
    assert_eq!(
        bad.body,
        r#"{"code":"ERR_LIST_PAGE_OUT_OF_RANGE","message":"page_number 6 is past the last page (5 pages)","field":"page_number","status":400}"#
    );
    let missing = respond("/analytics/nope", "", &t);
    assert_eq!(missing.status, 404);
    assert_eq!(
        missing.body,
        r#"{"code":"ERR_LIST_UNKNOWN_PATH","message":"no list endpoint at \"/analytics/nope\"","status":404}"#
    );
}

#[test]
fn paths() {
    let t = table();
    let error = list_response("/analytics/alerts", "", &t).unwrap_err();
    assert_eq!(
        (error.status(), error.code()),
        (404, "ERR_LIST_UNKNOWN_PATH")
    );
    // A real path, but not this table's.
    let error = list_response("/analytics/anomalies/network", "", &t).unwrap_err();
    assert_eq!(error.status(), 404);
    assert_eq!(Schema::all().len(), 9);
}

#[test]
fn query_on_parsed_query() {
    let t = table();
    let query = ListQuery::parse(schema(), "sorting=timestamp[desc]&rpp=2&page_number=2").unwrap();
    let rows = t.page_rows(&query).unwrap();
    // Row positions are in key order: alert_id 5 is position 4, alert_id 1 is position 0.
    assert_eq!(rows.rows, [4, 0]);
    assert_eq!(
        (rows.first_index, rows.last_index, rows.filtered),
        (3, 4, 5)
    );
}

fn load_error(json: &str) -> TableError {
    Table::from_json(schema(), json.as_bytes()).unwrap_err()
}

fn item(edit: impl FnOnce(&mut serde_json::Map<String, Value>)) -> String {
    let mut rows: Vec<Value> = serde_json::from_str(ROWS).unwrap();
    edit(rows[1].as_object_mut().unwrap());
    serde_json::to_string(&rows).unwrap()
}

#[test]
fn load_errors_name_the_member() {
    assert_eq!(load_error("{}"), TableError::NotAnArray);
    assert_eq!(load_error("[1]").field(), Some("[0]"));
    assert_eq!(load_error("[1]").code(), "ERR_LIST_DATA_NOT_OBJECT");
    assert_eq!(load_error("[").code(), "ERR_LIST_DATA_MALFORMED_JSON");
    assert_eq!(
        load_error(r#"[{"alert_id":1,"alert_id":2}]"#).code(),
        "ERR_LIST_DATA_DUPLICATE_MEMBER"
    );

    let e = load_error(&item(|o| {
        o.remove("severity");
    }));
    assert_eq!(
        (e.code(), e.field()),
        ("ERR_LIST_DATA_MISSING_FIELD", Some("[1].severity"))
    );
    let e = load_error(&item(|o| {
        o.insert("extra".into(), Value::Null);
    }));
    assert_eq!(
        (e.code(), e.field()),
        ("ERR_LIST_DATA_UNKNOWN_FIELD", Some("[1].extra"))
    );
    for (column, value, field) in [
        ("occurrence", serde_json::json!(1.5), "[1].occurrence"),
        ("occurrence", serde_json::json!("1"), "[1].occurrence"),
        ("occurrence", serde_json::json!(u64::MAX), "[1].occurrence"),
        ("percentage", serde_json::json!("1"), "[1].percentage"),
        ("severity", serde_json::json!(1), "[1].severity"),
        ("severity", Value::Null, "[1].severity"),
        ("influencers", serde_json::json!("0xa"), "[1].influencers"),
        (
            "influencers",
            serde_json::json!(["0xa", 1]),
            "[1].influencers[1]",
        ),
    ] {
        let e = load_error(&item(|o| {
            o.insert(column.into(), value.clone());
        }));
        assert_eq!(
            (e.code(), e.field()),
            ("ERR_LIST_DATA_WRONG_TYPE", Some(field)),
            "{value}"
        );
    }
    let e = load_error(&item(|o| {
        o.insert("alert_id".into(), 3.into());
    }));
    assert_eq!(e.code(), "ERR_LIST_DATA_DUPLICATE_KEY");
    // Integer-valued numbers are fine in a number column.
    assert!(Table::from_json(
        schema(),
        item(|o| {
            o.insert("percentage".into(), 7.into());
        })
        .as_bytes()
    )
    .is_ok());
}

#[test]
fn empty_table() {
    let t = Table::from_json(schema(), b"[]").unwrap();
    assert!(t.is_empty());
    assert_eq!(
        list_response(ALERTS, "sorting=severity[desc]&filter=severity[eq]x", &t).unwrap(),
        r#"{"data":[],"filtered_resources":0,"first_index":0,"last_index":0,"num_of_pages":0}"#
    );
}

/// The streaming loader and the value loader agree, and both refuse what strict JSON
/// refuses.
#[test]
fn streaming_loader_matches_value_loader() {
    let rows: Vec<Value> = serde_json::from_str(ROWS).unwrap();
    let a = Table::from_values(schema(), rows).unwrap();
    let b = table();
    for i in 0..5 {
        assert_eq!(a.row(i), b.row(i));
    }
    // Escaped member names are the same member.
    let e = load_error(r#"[{"alert_id":1,"\u0061lert_id":2}]"#);
    assert_eq!(e.code(), "ERR_LIST_DATA_DUPLICATE_MEMBER");
    assert_eq!(e.field(), Some("alert_id"));
    assert_eq!(load_error("[] x").code(), "ERR_LIST_DATA_MALFORMED_JSON");
    assert_eq!(load_error("[,]").code(), "ERR_LIST_DATA_MALFORMED_JSON");
    assert_eq!(load_error("").code(), "ERR_LIST_DATA_MALFORMED_JSON");
    assert_eq!(load_error("  \"x\"").code(), "ERR_LIST_DATA_NOT_ARRAY");
    assert_eq!(load_error("[[1]]").field(), Some("[0]"));
    assert_eq!(load_error("[null]").code(), "ERR_LIST_DATA_NOT_OBJECT");
    // The first missing column in schema order is named.
    assert_eq!(
        load_error(r#"[{"timestamp":1}]"#).field(),
        Some("[0].alert_id")
    );
    let deep = format!(
        "[{{\"influencers\":{}{}",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    assert_eq!(load_error(&deep).code(), "ERR_LIST_DATA_WRONG_TYPE");
    let deep = format!("[{}{}]", "[".repeat(10_000), "]".repeat(10_000));
    assert_eq!(load_error(&deep).code(), "ERR_LIST_DATA_NOT_OBJECT");
    assert_eq!(
        load_error(r#"[{"alert_id":1,"occurrence":-0.0}]"#).field(),
        Some("[0].occurrence")
    );
}
