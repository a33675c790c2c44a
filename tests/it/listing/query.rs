//! Query-string parsing: every accepted form and every 400, with the parameter it names.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions may fail loudly too.

use edgeattest::listing::{
    error_body_json, Direction, FilterOp, ListError, ListQuery, Operand, Schema, SortKey,
    DEFAULT_RPP, MAX_FILTERS, MAX_RPP,
};
use edgeattest::ErrorCode;

fn alerts() -> &'static Schema {
    Schema::for_path("/analytics/alerts/filter").unwrap()
}

fn parse(query: &str) -> Result<ListQuery, ListError> {
    ListQuery::parse(alerts(), query)
}

fn col(name: &str) -> usize {
    alerts().column_index(name).unwrap()
}

/// Asserts the error code and the parameter it names.
fn refused(query: &str, code: &str, parameter: &str) -> ListError {
    let error = parse(query).expect_err(query);
    assert_eq!(error.code(), code, "{query}: {error}");
    assert_eq!(error.field(), Some(parameter), "{query}");
    assert_eq!(error.status(), 400);
    error
}

#[test]
fn defaults() {
    for query in ["", "?", "&&"] {
        let q = parse(query).unwrap();
        assert_eq!(q.page_number, 1);
        assert_eq!(q.rpp, DEFAULT_RPP);
        assert!(q.filters.is_empty() && q.sort.is_empty());
    }
}

#[test]
fn page_number_and_rpp() {
    let q = parse("?page_number=3&rpp=50").unwrap();
    assert_eq!((q.page_number, q.rpp), (3, 50));
    assert_eq!(parse(&format!("rpp={MAX_RPP}")).unwrap().rpp, MAX_RPP);
    assert_eq!(parse("rpp=1").unwrap().rpp, 1);
    // Leading zeros are still a positive integer.
    assert_eq!(parse("page_number=007").unwrap().page_number, 7);
    // Huge page numbers saturate (and are then past the end when the query runs).
    assert_eq!(
        parse("page_number=99999999999999999999999")
            .unwrap()
            .page_number,
        u64::MAX
    );
}

#[test]
fn bad_numbers() {
    for value in [
        "0", "-1", "1.5", "1e2", "+1", " 1", "1 ", "", "abc", "0x10", "%31%2E0",
    ] {
        refused(
            &format!("page_number={value}"),
            "ERR_LIST_INVALID_NUMBER",
            "page_number",
        );
        refused(&format!("rpp={value}"), "ERR_LIST_INVALID_NUMBER", "rpp");
    }
    refused("rpp", "ERR_LIST_INVALID_NUMBER", "rpp");
    let error = refused(
        &format!("rpp={}", MAX_RPP + 1),
        "ERR_LIST_RPP_TOO_LARGE",
        "rpp",
    );
    assert_eq!(error, ListError::RppTooLarge { rpp: MAX_RPP + 1 });
    refused("rpp=1000000000", "ERR_LIST_RPP_TOO_LARGE", "rpp");
}

#[test]
fn repeated_and_unknown_parameters() {
    refused(
        "page_number=1&page_number=2",
        "ERR_LIST_REPEATED_PARAMETER",
        "page_number",
    );
    refused("rpp=1&rpp=1", "ERR_LIST_REPEATED_PARAMETER", "rpp");
    refused(
        "sorting=severity[asc]&sorting=timestamp[asc]",
        "ERR_LIST_REPEATED_PARAMETER",
        "sorting",
    );
    refused("limit=10", "ERR_LIST_UNKNOWN_PARAMETER", "limit");
    // Names are case-sensitive.
    refused("RPP=10", "ERR_LIST_UNKNOWN_PARAMETER", "RPP");
    refused(
        "page%5Fnumber%20=1",
        "ERR_LIST_UNKNOWN_PARAMETER",
        "page_number ",
    );
}

#[test]
fn malformed_encoding() {
    refused(
        "filter=severity[eq]%E",
        "ERR_LIST_MALFORMED_ENCODING",
        "filter",
    );
    refused(
        "filter=severity[eq]%FF",
        "ERR_LIST_MALFORMED_ENCODING",
        "filter",
    );
    refused("%zz=1", "ERR_LIST_MALFORMED_ENCODING", "query");
}

#[test]
fn filters_keep_order_and_read_types() {
    let q = parse(
        "filter=severity[eq]critical&filter=occurrence[neq]-3&filter=percentage[eqm]1,2.5,-0\
         &filter=influencers[con]0xe4&filter=description[sw]Port+1%5B%5D&filter=alert_id[ew]7",
    )
    .unwrap();
    let got: Vec<(usize, FilterOp, Operand)> = q
        .filters
        .iter()
        .map(|f| (f.column, f.op, f.operand.clone()))
        .collect();
    assert_eq!(
        got,
        [
            (
                col("severity"),
                FilterOp::Eq,
                Operand::Text("critical".into())
            ),
            (col("occurrence"), FilterOp::Neq, Operand::Integer(-3)),
            (
                col("percentage"),
                FilterOp::Eqm,
                Operand::Numbers(vec![1.0, 2.5, 0.0])
            ),
            (
                col("influencers"),
                FilterOp::Con,
                Operand::Text("0xe4".into())
            ),
            (
                col("description"),
                FilterOp::Sw,
                Operand::Text("Port 1[]".into())
            ),
            (col("alert_id"), FilterOp::Ew, Operand::Text("7".into())),
        ]
    );
}

#[test]
fn filter_value_may_hold_brackets_and_empty_text() {
    let q = parse("filter=description[eq]a]b[c&filter=severity[eq]").unwrap();
    assert_eq!(q.filters[0].operand, Operand::Text("a]b[c".into()));
    assert_eq!(q.filters[1].operand, Operand::Text(String::new()));
}

#[test]
fn eqm_separator_and_escapes() {
    let q = parse(r"filter=description[eqm]a\,b,c\\,d").unwrap();
    assert_eq!(
        q.filters[0].operand,
        Operand::Texts(vec!["a,b".into(), r"c\".into(), "d".into()])
    );
    // %2C decodes to a comma before splitting: it separates; %5C%2C is the escape.
    let q = parse("filter=severity[eqm]a%2Cb%5C%2Cc").unwrap();
    assert_eq!(
        q.filters[0].operand,
        Operand::Texts(vec!["a".into(), "b,c".into()])
    );
    for bad in ["a,,b", ",a", "a,", "", r"a\b", "a%5C"] {
        refused(
            &format!("filter=severity[eqm]{bad}"),
            "ERR_LIST_INVALID_FILTER_VALUE",
            "filter",
        );
    }
    refused(
        "filter=occurrence[eqm]1,x",
        "ERR_LIST_INVALID_FILTER_VALUE",
        "filter",
    );
    assert_eq!(
        parse("filter=occurrence[eqm]1,-2").unwrap().filters[0].operand,
        Operand::Integers(vec![1, -2])
    );
}

#[test]
fn malformed_filters() {
    for (value, reason) in [
        ("severity", "no [ after the column name"),
        ("severity[eq", "the filter type is not closed by ]"),
        ("[eq]x", "the column name is empty"),
    ] {
        let error = refused(
            &format!("filter={value}"),
            "ERR_LIST_MALFORMED_FILTER",
            "filter",
        );
        assert_eq!(error, ListError::MalformedFilter { index: 0, reason });
    }
    refused("filter=", "ERR_LIST_MALFORMED_FILTER", "filter");
    // The index names which filter parameter is wrong.
    let error = refused(
        "filter=severity[eq]x&filter=severity",
        "ERR_LIST_MALFORMED_FILTER",
        "filter",
    );
    assert!(matches!(error, ListError::MalformedFilter { index: 1, .. }));
}

#[test]
fn unknown_columns_and_types() {
    let error = refused("filter=Severity[eq]x", "ERR_LIST_UNKNOWN_COLUMN", "filter");
    assert_eq!(
        error,
        ListError::UnknownColumn {
            parameter: "filter",
            column: "Severity".into()
        }
    );
    refused("sorting=nope[asc]", "ERR_LIST_UNKNOWN_COLUMN", "sorting");
    for code in ["EQ", "", "lt", "eq ", "contains"] {
        refused(
            &format!("filter=severity[{code}]x"),
            "ERR_LIST_UNKNOWN_FILTER_TYPE",
            "filter",
        );
    }
}

#[test]
fn typed_values() {
    for (filter, ok) in [
        ("occurrence[eq]12", true),
        ("occurrence[eq]-12", true),
        ("occurrence[eq]1.0", false),
        ("occurrence[eq]012", false),
        ("occurrence[eq]", false),
        ("occurrence[eq]9223372036854775808", false),
        ("percentage[eq]12", true),
        ("percentage[eq]1.25e1", true),
        ("percentage[eq]1.", false),
        ("percentage[eq]NaN", false),
        ("percentage[eq]1e999", false),
        ("percentage[neq]", false),
        ("timestamp[con]2024", true),
        ("timestamp[con]", false),
        ("description[con]", false),
        ("description[sw]", false),
        ("description[ew]", false),
        ("description[ncon]", false),
        ("influencers[eq]", true),
        ("influencers[neq]x", true),
    ] {
        let result = parse(&format!("filter={filter}"));
        if ok {
            assert!(result.is_ok(), "{filter}: {result:?}");
        } else {
            let error = result.expect_err(filter);
            assert_eq!(error.code(), "ERR_LIST_INVALID_FILTER_VALUE", "{filter}");
            assert_eq!(error.field(), Some("filter"));
        }
    }
}

#[test]
fn too_many_filters() {
    let ok: Vec<String> = (0..MAX_FILTERS)
        .map(|_| "filter=severity[neq]x".into())
        .collect();
    assert_eq!(parse(&ok.join("&")).unwrap().filters.len(), MAX_FILTERS);
    let too_many = format!("{}&filter=severity[neq]x", ok.join("&"));
    refused(&too_many, "ERR_LIST_TOO_MANY_FILTERS", "filter");
}

#[test]
fn sorting() {
    let q = parse("sorting=severity[asc],timestamp[desc]").unwrap();
    assert_eq!(
        q.sort,
        [
            SortKey {
                column: col("severity"),
                direction: Direction::Asc
            },
            SortKey {
                column: col("timestamp"),
                direction: Direction::Desc
            },
        ]
    );
    // Percent-encoded brackets and comma read the same.
    assert_eq!(
        parse("sorting=severity%5Basc%5D%2Ctimestamp%5Bdesc%5D")
            .unwrap()
            .sort,
        q.sort
    );
}

#[test]
fn bad_sorting() {
    for value in [
        "",
        "severity",
        "severity[asc",
        "severity[asc]x",
        "[asc]",
        "severity[asc],",
        ",severity[asc]",
        "severity[asc] ,timestamp[asc]",
    ] {
        let error = parse(&format!("sorting={value}")).expect_err(value);
        assert_eq!(error.field(), Some("sorting"), "{value}");
        assert!(
            matches!(
                error,
                ListError::MalformedSorting { .. } | ListError::UnknownColumn { .. }
            ),
            "{value}: {error:?}"
        );
    }
    for direction in ["ASC", "up", "", "descending"] {
        refused(
            &format!("sorting=severity[{direction}]"),
            "ERR_LIST_UNKNOWN_SORT_DIRECTION",
            "sorting",
        );
    }
    let error = refused(
        "sorting=severity[asc],timestamp[asc],severity[desc]",
        "ERR_LIST_REPEATED_SORT_COLUMN",
        "sorting",
    );
    assert_eq!(
        error,
        ListError::RepeatedSortColumn {
            column: "severity".into()
        }
    );
}

#[test]
fn error_body_names_the_parameter() {
    let error = parse("rpp=0").unwrap_err();
    assert_eq!(
        error_body_json(&error),
        r#"{"code":"ERR_LIST_INVALID_NUMBER","message":"rpp must be a positive decimal integer, not \"0\"","field":"rpp","status":400}"#
    );
    let error = parse("filter=severity[xx]a").unwrap_err();
    let body: serde_json::Value = serde_json::from_str(&error_body_json(&error)).unwrap();
    assert_eq!(body["field"], "filter");
    assert_eq!(body["code"], "ERR_LIST_UNKNOWN_FILTER_TYPE");
    assert!(body["message"].as_str().unwrap().contains("\"xx\""));
}

#[test]
fn first_error_in_parameter_order_wins() {
    refused("rpp=0&filter=bad", "ERR_LIST_INVALID_NUMBER", "rpp");
    refused("filter=bad&rpp=0", "ERR_LIST_MALFORMED_FILTER", "filter");
}
