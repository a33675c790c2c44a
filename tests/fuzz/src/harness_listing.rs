//! Fuzz target bodies for lists: query strings over generated tables, and upstream rows.
//! Part of `harness.rs`.

use std::sync::OnceLock;

use super::{check, split, text};

fn list_tables() -> &'static Vec<edgeattest::listing::Table> {
    static TABLES: OnceLock<Vec<edgeattest::listing::Table>> = OnceLock::new();
    TABLES.get_or_init(|| {
        edgeattest::listing::Schema::all()
            .iter()
            .map(|schema| edgeattest::listing::generate_table(schema, 120, 7).expect("table"))
            .collect()
    })
}

/// `listing_query`: a list query string against a generated table of the endpoint the
/// selector byte picks. Every answer is 200, 400 or 404 with a JSON body; a 200 page holds
/// at most `rpp` items.
pub fn listing_query(data: &[u8]) {
    use edgeattest::listing::respond;
    let Some((&selector, query)) = data.split_first() else {
        return;
    };
    let tables = list_tables();
    let table = &tables[usize::from(selector) % tables.len()];
    let path = table.schema().path;
    let response = respond(path, &text(query), table);
    assert!(
        matches!(response.status, 200 | 400 | 404),
        "status {}",
        response.status
    );
    let body = edgeattest::json::parse(response.body.as_bytes()).expect("list body is JSON");
    if response.status == 200 {
        let items = body.get("data").and_then(|d| d.as_array()).expect("data");
        assert!(items.len() <= edgeattest::listing::MAX_RPP as usize);
    } else {
        let code = body
            .get("code")
            .and_then(|c| c.as_str())
            .unwrap_or_default();
        assert!(code.starts_with("ERR_"), "{body}");
    }
}

/// `listing_table`: upstream JSON rows for the endpoint the selector byte picks, then a
/// query over them.
pub fn listing_table(data: &[u8]) {
    use edgeattest::listing::{respond, Schema, Table};
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let schemas = Schema::all();
    let schema = &schemas[usize::from(selector) % schemas.len()];
    let parts = split(rest, 2);
    let table = Table::from_json(schema, parts[0]);
    check(&table);
    if let Ok(table) = table {
        let response = respond(schema.path, &text(parts[1]), &table);
        assert!(matches!(response.status, 200 | 400 | 404));
        edgeattest::json::parse(response.body.as_bytes()).expect("list body is JSON");
    }
}
