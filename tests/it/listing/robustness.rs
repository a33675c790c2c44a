//! No input makes the list code panic (a panic would kill the wasm instance): random query
//! strings built from the syntax's own characters, and random or mutated data sets.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions may fail loudly too.

use edgeattest::listing::{generate_json, list_page, ListQuery, Schema, Table};
use edgeattest::ErrorCode;
use proptest::prelude::*;

const PIECES: &[&str] = &[
    "page_number",
    "rpp",
    "filter",
    "sorting",
    "=",
    "&",
    "?",
    "[",
    "]",
    ",",
    "\\",
    "%",
    "%2",
    "%5B",
    "%5D",
    "%2C",
    "%FF",
    "%C3%A9",
    "+",
    " ",
    "0",
    "1",
    "-1",
    "99999999999999999999",
    "1.5",
    "e",
    "eq",
    "neq",
    "con",
    "ncon",
    "sw",
    "ew",
    "eqm",
    "asc",
    "desc",
    "severity",
    "alert_id",
    "influencers",
    "percentage",
    "timestamp",
    "description",
    "a",
    "é",
    "✓",
];

fn query_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..24).prop_map(|p| p.concat())
}

fn alerts() -> &'static Schema {
    Schema::for_path("/analytics/alerts/filter").unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_query_string_is_answered_or_refused(query in query_text()) {
        let schema = alerts();
        let table = Table::from_json(schema, generate_json(schema, 40, 5).unwrap().as_bytes()).unwrap();
        match ListQuery::parse(schema, &query) {
            Ok(parsed) => {
                let _ = table.query(&parsed);
            }
            Err(error) => {
                prop_assert!(error.code().starts_with("ERR_LIST_"));
                prop_assert!(error.field().is_some());
                prop_assert_eq!(error.status(), 400);
            }
        }
        let _ = list_page(schema.path, &query, &table);
    }

    #[test]
    fn arbitrary_bytes_never_panic_the_loader(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = Table::from_json(alerts(), &bytes);
    }

    #[test]
    fn mutated_data_sets_load_or_are_refused(cut in 0usize..4000, byte in any::<u8>()) {
        let schema = alerts();
        let mut json = generate_json(schema, 12, 9).unwrap().into_bytes();
        let at = cut % json.len();
        json[at] = byte;
        if let Err(error) = Table::from_json(schema, &json) {
            prop_assert!(error.code().starts_with("ERR_LIST_DATA_"), "{}", error.code());
        }
        // Any proper prefix of the array is unterminated.
        json.truncate(at);
        prop_assert!(Table::from_json(schema, &json).is_err());
    }
}
