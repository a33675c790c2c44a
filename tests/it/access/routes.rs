//! Invariants of the endpoint → scope table, its exports, and route matching.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions may fail loudly too.

use std::collections::BTreeSet;

use edgeattest::access::{
    match_route, route_table_json, route_table_markdown, Basis, CanonicalPath, Method, Requirement,
    RouteMatch, ScopeSet, API_PREFIX, ROUTES,
};
use serde_json::Value;

fn concrete(pattern: &str) -> String {
    pattern.replace("{id}", "x-1")
}

fn resolve(method: Method, path: &str) -> RouteMatch {
    match_route(method, &CanonicalPath::parse(path).unwrap())
}

#[test]
fn each_method_and_pattern_has_exactly_one_row() {
    let mut seen = BTreeSet::new();
    for route in ROUTES {
        assert!(
            seen.insert((route.method(), route.pattern())),
            "{route} appears twice"
        );
    }
}

#[test]
fn every_row_requires_a_scope_and_explains_itself() {
    for route in ROUTES {
        let scopes = route.requirement().scopes();
        assert!(!scopes.is_empty(), "{route} requires nothing");
        // Nothing is allowed by default: no scopes granted never meets a requirement.
        assert!(!route.requirement().is_met(ScopeSet::EMPTY), "{route}");
        assert!(route.rationale().len() > 10, "{route} has no rationale");
        assert!(
            matches!(
                route.method(),
                Method::Get | Method::Post | Method::Patch | Method::Delete
            ),
            "{route}"
        );
    }
    // Inferences are the majority, as the spec states scopes only by description; the
    // direct rows quote it.
    let direct = ROUTES.iter().filter(|r| r.basis() == Basis::Direct);
    for route in direct {
        assert!(
            route.rationale().contains('\''),
            "{route} quotes no description"
        );
    }
}

#[test]
fn patterns_are_canonical_and_under_the_api_prefix() {
    for route in ROUTES {
        let pattern = route.pattern();
        assert!(pattern.starts_with(&format!("{API_PREFIX}/")), "{pattern}");
        let canonical = CanonicalPath::parse(&concrete(pattern)).unwrap();
        assert_eq!(
            canonical.as_str(),
            concrete(pattern),
            "{pattern} is not canonical"
        );
    }
}

#[test]
fn every_row_is_reachable_by_its_own_path() {
    for route in ROUTES {
        match resolve(route.method(), &concrete(route.pattern())) {
            RouteMatch::Found(found) => assert_eq!(found, route),
            other => panic!("{route} resolves to {other:?}"),
        }
    }
}

#[test]
fn literal_segments_win_over_ids() {
    // `nodes` is not a simulation id, so DELETE on the node collection is not a deletion of
    // simulation "nodes": the collection has no DELETE row.
    match resolve(Method::Delete, "/api/v3/simulations/nodes/") {
        RouteMatch::MethodNotAllowed { pattern, allowed } => {
            assert_eq!(pattern, "/api/v3/simulations/nodes/");
            assert_eq!(allowed, vec![Method::Get, Method::Head, Method::Post]);
        }
        other => panic!("{other:?}"),
    }
    match resolve(Method::Get, "/api/v3/images/shares/") {
        RouteMatch::Found(route) => assert_eq!(route.pattern(), "/api/v3/images/shares/"),
        other => panic!("{other:?}"),
    }
    match resolve(Method::Get, "/api/v3/marketplace/demos/tags/") {
        RouteMatch::Found(route) => {
            assert_eq!(route.pattern(), "/api/v3/marketplace/demos/tags/")
        }
        other => panic!("{other:?}"),
    }
    // An id that is not a literal anywhere resolves to the parameterised row.
    match resolve(Method::Get, "/api/v3/images/tags/") {
        RouteMatch::Found(route) => assert_eq!(route.pattern(), "/api/v3/images/{id}/"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn unknown_paths_and_methods_are_refused() {
    for path in [
        "/api/v3/",
        "/api/v3/histories/",
        "/api/v2/simulations/",
        "/api/v3/simulations/a/b/c/d/e/",
        "/",
    ] {
        assert_eq!(resolve(Method::Get, path), RouteMatch::NotFound, "{path}");
    }
    for method in [Method::Put, Method::Other, Method::Options] {
        assert!(matches!(
            resolve(method, "/api/v3/simulations/"),
            RouteMatch::MethodNotAllowed { .. }
        ));
    }
}

#[test]
fn json_export_lists_every_row() {
    let table: Value = serde_json::from_str(&route_table_json()).unwrap();
    let rows = table.as_array().unwrap();
    assert_eq!(rows.len(), ROUTES.len());
    let first = &rows[0];
    assert_eq!(first["method"], "GET");
    assert_eq!(first["path"], "/api/v3/simulations/");
    assert_eq!(first["resource"], "simulation");
    assert_eq!(
        first["requires"],
        serde_json::json!({"all_of": ["lab:simulation_read"]})
    );
    assert_eq!(first["basis"], "direct");
    let any_of = rows
        .iter()
        .find(|r| r["path"] == "/api/v3/images/shares/" && r["method"] == "GET")
        .unwrap();
    assert_eq!(
        any_of["requires"],
        serde_json::json!({"any_of": ["lab:image_sharing", "lab:image_claiming"]})
    );
    for (row, route) in rows.iter().zip(ROUTES) {
        let key = match route.requirement() {
            Requirement::AllOf(_) => "all_of",
            Requirement::AnyOf(_) => "any_of",
            _ => unreachable!(),
        };
        assert!(row["requires"][key].is_array());
    }
}

/// The rendered table in `src/access/endpoint_table.rs` must equal the data. Run with
/// `EDGEATTEST_BLESS=1` to rewrite it after changing the table.
#[test]
fn rendered_table_matches_the_data() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/src/access/endpoint_table.rs");
    let text = std::fs::read_to_string(file).unwrap();
    let start = "//! GENERATED-TABLE-START\n";
    let end = "//! GENERATED-TABLE-END\n";
    let (head, rest) = text.split_once(start).unwrap();
    let (current, tail) = rest.split_once(end).unwrap();
    let rendered: String = route_table_markdown()
        .lines()
        .map(|line| format!("//! {line}\n"))
        .collect();
    if std::env::var_os("EDGEATTEST_BLESS").is_some() {
        std::fs::write(file, format!("{head}{start}{rendered}{end}{tail}")).unwrap();
        return;
    }
    assert_eq!(
        current, rendered,
        "run with EDGEATTEST_BLESS=1 to regenerate"
    );
}
