//! The nine schemas and the deterministic generator.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions may fail loudly too.

use std::collections::HashSet;

use edgeattest::listing::{
    generate_json, generate_rows, generate_table, list_response, ColumnType, Schema, Table,
    GENERATED_EPOCH_END,
};
use edgeattest::ErrorCode;
use serde_json::Value;

#[test]
fn nine_paths_in_spec_order() {
    let paths: Vec<&str> = Schema::all().iter().map(|s| s.path).collect();
    assert_eq!(
        paths,
        [
            "/analytics/anomalies/network",
            "/analytics/alerts/filter",
            "/analytics/anomalies/tenant",
            "/analytics/anomalies/logical-server",
            "/analytics/telemetry/link-status",
            "/analytics/prediction/link-anomaly",
            "/analytics/prediction/link-failure",
            "/analytics/anomalies/cable/threshold",
            "/analytics/anomalies/cable/deviation",
        ]
    );
    assert!(Schema::for_path("/analytics/alerts/filter/").is_none());
    assert!(Schema::for_path("/ANALYTICS/alerts/filter").is_none());
}

#[test]
fn alert_item_is_the_spec_table() {
    let schema = Schema::for_path("/analytics/alerts/filter").unwrap();
    let columns: Vec<(&str, ColumnType)> = schema
        .columns
        .iter()
        .map(|c| (c.name, c.column_type))
        .collect();
    assert_eq!(
        columns,
        [
            ("alert_id", ColumnType::Integer),
            ("occurrence", ColumnType::Integer),
            ("severity", ColumnType::String),
            ("description", ColumnType::String),
            ("influencers", ColumnType::StringArray),
            ("percentage", ColumnType::Number),
            ("influencers_display_names", ColumnType::StringArray),
            ("timestamp", ColumnType::Integer),
        ]
    );
    assert_eq!(schema.key_name(), "alert_id");
}

#[test]
fn every_schema_is_well_formed() {
    for schema in Schema::all() {
        let key = &schema.columns[schema.key];
        assert_eq!(key.column_type, ColumnType::Integer, "{}", schema.path);
        assert!(key.name.ends_with("_id"), "{}", schema.path);
        let names: HashSet<&str> = schema.columns.iter().map(|c| c.name).collect();
        assert_eq!(
            names.len(),
            schema.columns.len(),
            "{}: repeated column",
            schema.path
        );
        for column in schema.columns {
            assert!(!column.doc.is_empty(), "{}.{}", schema.path, column.name);
            assert!(
                column
                    .name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{}",
                column.name
            );
        }
        assert!(!schema.item.is_empty());
    }
}

#[test]
fn generator_is_deterministic_and_fits_every_schema() {
    for schema in Schema::all() {
        let a = generate_json(schema, 500, 7).unwrap();
        assert_eq!(a, generate_json(schema, 500, 7).unwrap(), "{}", schema.path);
        assert_ne!(a, generate_json(schema, 500, 8).unwrap(), "{}", schema.path);
        let table = Table::from_json(schema, a.as_bytes()).unwrap();
        assert_eq!(table.len(), 500);
        // Keys are exactly 1..=500; loading orders by key.
        for (i, row) in [0usize, 499]
            .into_iter()
            .map(|i| (i, table.row(i).unwrap()))
        {
            assert_eq!(row[schema.key_name()].as_i64(), Some(i as i64 + 1));
        }
        let rows = generate_rows(schema, 500, 7).unwrap();
        // Input order is shuffled, not key order.
        let keys: Vec<i64> = rows
            .iter()
            .map(|r| r[schema.key_name()].as_i64().unwrap())
            .collect();
        assert_ne!(keys, (1..=500).collect::<Vec<_>>());
        if schema.column_index("timestamp").is_some() {
            for row in &rows {
                let t = row["timestamp"].as_i64().unwrap();
                assert!((GENERATED_EPOCH_END - 30 * 86_400..GENERATED_EPOCH_END).contains(&t));
            }
        }
    }
}

/// A golden value: the first generated alert for seed 1 never changes, so the worker's
/// embedded data set is the same in every build.
#[test]
fn generator_golden_alert() {
    let schema = Schema::for_path("/analytics/alerts/filter").unwrap();
    let rows = generate_rows(schema, 3, 1).unwrap();
    let first = serde_json::to_string(&rows[0]).unwrap();
    let again = serde_json::to_string(&generate_rows(schema, 3, 1).unwrap()[0]).unwrap();
    assert_eq!(first, again);
    let value: Value = rows[0].clone();
    let guids = value["influencers"].as_array().unwrap();
    let names = value["influencers_display_names"].as_array().unwrap();
    assert_eq!(guids.len(), names.len());
    for guid in guids {
        let guid = guid.as_str().unwrap();
        assert_eq!(guid.len(), 18, "{guid}");
        assert!(guid.starts_with("0x"));
    }
    assert!(["critical", "major", "minor", "warning", "info"]
        .contains(&value["severity"].as_str().unwrap()));
    let percentage = value["percentage"].as_f64().unwrap();
    assert!((0.0..100.0).contains(&percentage));
    // Pins the exact output of the generator (SplitMix64, seed 1).
    assert_eq!(first, GOLDEN_ALERT_SEED1);
}

const GOLDEN_ALERT_SEED1: &str = concat!(
    r#"{"alert_id":1,"occurrence":486,"severity":"minor","description":"Congestion on uplink group 49","#,
    r#""influencers":["0xe41d2d03000a020e","0xe41d2d0300728f67","0xe41d2d03002b1723","0xe41d2d03007205fb"],"#,
    r#""percentage":60.54,"influencers_display_names":["host-139","host-018","host-278","host-078"],"#,
    r#""timestamp":1766046400}"#
);

#[test]
fn generated_table_answers_every_path() {
    for schema in Schema::all() {
        let table = generate_table(schema, 1000, 42).unwrap();
        let body = list_response(schema.path, "rpp=7&page_number=3", &table).unwrap();
        let page: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(page["data"].as_array().unwrap().len(), 7);
        assert_eq!(page["first_index"], 15);
        assert_eq!(page["filtered_resources"], 1000);
        assert_eq!(page["num_of_pages"], 143);
    }
}

#[test]
fn generator_refuses_too_many_rows() {
    let schema = Schema::for_path("/analytics/alerts/filter").unwrap();
    let error = generate_rows(schema, usize::MAX, 0).unwrap_err();
    assert_eq!(error.code(), "ERR_LIST_DATA_TOO_MANY_ROWS");
}

/// The module documentation lists every schema exactly as the data defines it, so the
/// documented schemas cannot drift from the served ones.
#[test]
fn documented_schemas_match_the_data() {
    let source = include_str!("../../../src/listing.rs");
    let doc: Vec<&str> = source
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .map(str::trim)
        .collect();
    for schema in Schema::all() {
        let head = format!("- `{}`:", schema.path);
        let start = doc
            .iter()
            .position(|line| line.starts_with(&head))
            .unwrap_or_else(|| panic!("{} is not documented", schema.path));
        let entry: Vec<&str> = doc[start..]
            .iter()
            .enumerate()
            .take_while(|(i, line)| *i == 0 || !(line.starts_with("- ") || line.is_empty()))
            .map(|(_, line)| *line)
            .collect();
        let entry = entry.join(" ");
        let expected = schema
            .columns
            .iter()
            .map(|c| format!("`{}` {}", c.name, c.column_type))
            .collect::<Vec<_>>()
            .join(", ");
        assert!(
            entry.ends_with(&format!(": {expected}.")),
            "{}: documented as {entry:?}, defined as {expected:?}",
            schema.path
        );
        assert!(entry.contains(&format!("key `{}`", schema.key_name())));
    }
}
