//! Standard headers (RFC 9745 Deprecation, RFC 8594 Sunset, Link) and the hand-written
//! time conversions behind them.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions may fail loudly too.

use super::at;
use edgeattest::attest::Endpoint;
use edgeattest::deprecation::{
    attest_deprecation_headers, by_id, check_query, deprecation_headers, headers_for_rows, Policy,
    ATTEST_GEN1_DEPRECATED_SINCE,
};
use edgeattest::time::{
    format_http_date, format_rfc3339, parse_http_date, parse_rfc3339, DateTime, TimeError, MAX_SECS,
};
use proptest::prelude::*;

const SEPT_10: u64 = 1_788_998_400;
const OCT_10: u64 = 1_791_590_400;

fn get<'a>(headers: &'a [(&'static str, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.as_str())
}

#[test]
fn v2_attest_responses_carry_deprecation_and_successor_links() {
    let headers = attest_deprecation_headers(Endpoint::GpuV2, at(SEPT_10), &Policy::default());
    assert_eq!(
        headers,
        vec![
            ("Deprecation", "@1767225600".to_owned()),
            (
                "Link",
                concat!(
                    r#"</deprecations#attest-v2-gpu>; rel="deprecation", "#,
                    r#"</deprecations#attest-gen1-evidences>; rel="deprecation", "#,
                    r#"</v4/attest/gpu>; rel="successor-version""#
                )
                .to_owned()
            ),
            (
                "Access-Control-Expose-Headers",
                "Deprecation, Sunset, Link".to_owned()
            ),
        ]
    );
    assert_eq!(
        ATTEST_GEN1_DEPRECATED_SINCE.as_secs(),
        parse_rfc3339("2026-01-01T00:00:00Z").unwrap()
    );
    // No removal date: no Sunset.
    assert!(get(&headers, "Sunset").is_none());
    let switch = attest_deprecation_headers(Endpoint::SwitchV2, at(0), &Policy::default());
    assert!(get(&switch, "Link")
        .unwrap()
        .contains("</v4/attest/switch>; rel=\"successor-version\""));
    // V1 encodes evidence the same way but is not marked deprecated (spec §2, §9.5).
    for endpoint in [
        Endpoint::GpuV1,
        Endpoint::GpuV3,
        Endpoint::GpuV4,
        Endpoint::SwitchV3,
        Endpoint::SwitchV4,
    ] {
        assert!(attest_deprecation_headers(endpoint, at(0), &Policy::default()).is_empty());
    }
    let custom = Policy {
        doc_url: "https://attest.example/docs/deprecations".into(),
        ..Policy::default()
    };
    let headers = attest_deprecation_headers(Endpoint::GpuV2, at(0), &custom);
    assert!(get(&headers, "Link")
        .unwrap()
        .starts_with("<https://attest.example/docs/deprecations#attest-v2-gpu>"));
}

#[test]
fn used_query_parameters_give_a_sunset_header() {
    let used = check_query(
        "GET /instance",
        "infrastructureProviderId=p",
        at(OCT_10 - 1),
    )
    .unwrap();
    let headers = headers_for_rows(&used, at(OCT_10 - 1), &Policy::default());
    assert_eq!(
        get(&headers, "Sunset"),
        Some("Sat, 10 Oct 2026 00:00:00 GMT")
    );
    // The spec gives no announcement date for this API: no Deprecation header is invented.
    assert!(get(&headers, "Deprecation").is_none());
    assert_eq!(
        get(&headers, "Link"),
        Some(r#"</deprecations#instance-list-infrastructureProviderId>; rel="deprecation""#)
    );
    // After the retention window, nothing.
    assert!(headers_for_rows(&used, at(OCT_10 + 30 * 86_400), &Policy::default()).is_empty());
    // The earliest Sunset wins when rows are combined.
    let rows = [
        by_id("instance-list-infrastructureProviderId").unwrap(),
        by_id("tenant-account-accountNumber").unwrap(),
    ];
    let headers = headers_for_rows(&rows, at(SEPT_10 - 1), &Policy::default());
    assert_eq!(
        get(&headers, "Sunset"),
        Some("Thu, 10 Sep 2026 00:00:00 GMT")
    );
}

#[test]
fn endpoints_that_are_not_deprecated_get_no_headers() {
    assert!(deprecation_headers("POST /v4/attest/gpu", at(0), &Policy::default()).is_empty());
    assert!(deprecation_headers("GET /instance", at(0), &Policy::default()).is_empty());
    assert_eq!(
        deprecation_headers("POST /v2/attest/switch", at(0), &Policy::default())[0],
        ("Deprecation", "@1767225600".to_owned())
    );
}

#[test]
fn rfc3339_and_http_dates_known_values() {
    assert_eq!(format_rfc3339(0).unwrap(), "1970-01-01T00:00:00Z");
    assert_eq!(format_rfc3339(SEPT_10).unwrap(), "2026-09-10T00:00:00Z");
    assert_eq!(format_rfc3339(951_782_400).unwrap(), "2000-02-29T00:00:00Z");
    assert_eq!(format_rfc3339(MAX_SECS).unwrap(), "9999-12-31T23:59:59Z");
    assert_eq!(format_rfc3339(MAX_SECS + 1), None);
    // RFC 9110 §5.6.7's example.
    assert_eq!(
        format_http_date(784_111_777).unwrap(),
        "Sun, 06 Nov 1994 08:49:37 GMT"
    );
    assert_eq!(
        parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap(),
        784_111_777
    );
    assert_eq!(
        format_http_date(0).unwrap(),
        "Thu, 01 Jan 1970 00:00:00 GMT"
    );
    assert_eq!(parse_rfc3339("1994-11-06T08:49:37Z").unwrap(), 784_111_777);
    assert_eq!(parse_rfc3339("1994-11-06t08:49:37z").unwrap(), 784_111_777);
    assert_eq!(
        parse_rfc3339("1994-11-06T09:49:37.999+01:00").unwrap(),
        784_111_777
    );
    assert_eq!(
        parse_rfc3339("1994-11-06T03:19:37-05:30").unwrap(),
        784_111_777
    );
}

#[test]
fn malformed_and_impossible_times_are_refused() {
    for text in [
        "",
        "2026-09-10",
        "2026-09-10 00:00:00Z",
        "2026-09-10T00:00:00",
        "2026-9-10T00:00:00Z",
        "2026-09-10T00:00:00.Z",
        "2026-09-10T00:00:00+0100",
        "2026-09-10T00:00:00ZZ",
        "+2026-09-10T00:00:00Z",
        "２026-09-10T00:00:00Z",
    ] {
        assert_eq!(parse_rfc3339(text), Err(TimeError::Syntax), "{text:?}");
    }
    for text in [
        "2026-02-29T00:00:00Z",
        "2100-02-29T00:00:00Z",
        "2026-04-31T00:00:00Z",
        "2026-13-01T00:00:00Z",
        "2026-00-01T00:00:00Z",
        "2026-09-10T24:00:00Z",
        "2026-09-10T23:60:00Z",
        "2016-12-31T23:59:60Z",
        "1969-12-31T23:59:59Z",
        "1970-01-01T00:30:00+01:00",
        "2026-09-10T00:00:00+24:00",
    ] {
        assert_eq!(parse_rfc3339(text), Err(TimeError::Range), "{text:?}");
    }
    assert_eq!(
        parse_http_date("Mon, 06 Nov 1994 08:49:37 GMT"),
        Err(TimeError::Range)
    );
    assert_eq!(
        parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"),
        Err(TimeError::Syntax)
    );
    assert_eq!(
        parse_http_date("Sun, 06 Nov 1994 08:49:37 UTC"),
        Err(TimeError::Syntax)
    );
    assert_eq!(
        parse_http_date("Sun, 06 nov 1994 08:49:37 GMT"),
        Err(TimeError::Syntax)
    );
    assert!(DateTime {
        year: 2024,
        month: 2,
        day: 29,
        hour: 0,
        minute: 0,
        second: 0
    }
    .to_unix()
    .is_some());
}

proptest! {
    #[test]
    fn formats_round_trip(secs in 0..=MAX_SECS) {
        let text = format_rfc3339(secs).unwrap();
        prop_assert_eq!(parse_rfc3339(&text).unwrap(), secs);
        let http = format_http_date(secs).unwrap();
        prop_assert_eq!(parse_http_date(&http).unwrap(), secs);
        let t = DateTime::from_unix(secs).unwrap();
        prop_assert_eq!(t.to_unix(), Some(secs));
    }
}
