//! One query-string splitter (`src/urlencoded.rs`): every reader of a query decodes names
//! the same way, and a bad escape gets the reader's own typed error.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::deprecation::{check_query, DeprecationError};
use edgeattest::listing::{ListError, ListQuery, Schema};
use edgeattest::{ErrorCode, UnixTime};

const OCT_10: UnixTime = UnixTime::from_secs(1_791_590_400).unwrap();
const ALERTS: &str = "/analytics/alerts/filter";

#[test]
fn a_deprecated_parameter_is_found_however_its_name_is_encoded() {
    for query in [
        "infrastructureProviderId=p",
        "%69nfrastructureProviderId=p",
        "infrastructure%50roviderId=p",
        "a=1&&infrastructureProviderId",
    ] {
        let error = check_query("GET /instance", query, OCT_10).unwrap_err();
        assert!(
            matches!(error, DeprecationError::QueryParam { .. }),
            "{query}"
        );
        assert_eq!(error.code(), "ERR_DEPRECATED_QUERY_PARAM", "{query}");
        assert_eq!(error.field(), Some("infrastructureProviderId"));
        // Before the date it is accepted and reported as used.
        assert_eq!(
            check_query(
                "GET /instance",
                query,
                UnixTime::from_secs(OCT_10.as_secs() - 1).unwrap()
            )
            .unwrap()
            .len(),
            1,
            "{query}"
        );
    }
}

#[test]
fn a_name_that_does_not_decode_names_no_deprecated_parameter() {
    // `;` is not a separator for the service's own parameters, and a bad escape spells no
    // registry name: the list parser refuses such a query, the deprecation check passes it.
    for query in [
        "infrastructureProviderId%ZZ=p",
        "infrastructureProviderId%=p",
        "a=1;infrastructureProviderId=p",
        "infrastructureProviderIdx=p",
        "",
    ] {
        assert!(
            check_query("GET /instance", query, OCT_10)
                .unwrap()
                .is_empty(),
            "{query}"
        );
    }
}

#[test]
fn a_bad_escape_in_a_list_query_is_the_list_error_naming_the_parameter() {
    let schema = Schema::for_path(ALERTS).unwrap();
    for (query, parameter) in [
        ("rpp=1&page_number=%ZZ", "page_number"),
        ("page_number=%", "page_number"),
        ("rpp=%C3", "rpp"),
        ("%ZZ=1", "query"),
        ("rpp=1&%FF=1", "query"),
    ] {
        let error = ListQuery::parse(schema, query).unwrap_err();
        assert_eq!(
            error,
            ListError::MalformedEncoding {
                parameter: parameter.into()
            },
            "{query}"
        );
        assert_eq!(error.code(), "ERR_LIST_MALFORMED_ENCODING");
        assert_eq!(error.field(), Some(parameter));
    }
    // The same names, well encoded, parse.
    assert!(ListQuery::parse(schema, "%72pp=10&page_number=1").is_ok());
}
