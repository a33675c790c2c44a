//! Properties over arbitrary input: the request rules and time parsers never panic, and
//! notices at any instant keep the spec's shape.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions may fail loudly too.

use super::at;
use edgeattest::deprecation::{check_query, check_request_json, Policy, AFTER, BEFORE, REGISTRY};
use edgeattest::time::{parse_http_date, parse_rfc3339, MAX_SECS};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn request_checks_are_total(
        target in prop_oneof![Just("TenantAccount"), Just("OperatingSystem"), Just("AllocationConstraint"), Just("x")],
        body in prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..100),
            "\\{(\"(isCloudInit|ResourceTypeID|resourceTypeId|accountNumber|userData)\":(1|\"x\"|null),?){0,4}\\}".prop_map(String::into_bytes),
        ],
        now in (0..=MAX_SECS).prop_map(at),
    ) {
        let _ = check_request_json(target, &body, now);
    }

    #[test]
    fn query_checks_are_total(query in "[ -~]{0,60}", now in (0..=MAX_SECS).prop_map(at)) {
        let _ = check_query("GET /instance", &query, now);
        let _ = check_query("GET /site", &query, now);
    }

    #[test]
    fn time_parsers_are_total(text in prop_oneof!["[0-9TZ:+.-]{0,30}", any::<String>()]) {
        let _ = parse_rfc3339(&text);
        let _ = parse_http_date(&text);
    }

    #[test]
    fn notices_keep_their_shape_at_every_instant(now in (0..=MAX_SECS).prop_map(at)) {
        for row in REGISTRY {
            if let Some(notice) = row.notice(now, &Policy::default()) {
                prop_assert!(notice.notice.ends_with(BEFORE) || notice.notice.ends_with(AFTER));
                let before = row.take_action_by.is_some_and(|date| now < date);
                prop_assert_eq!(notice.notice.ends_with(BEFORE), before);
            } else {
                let date = row.take_action_by.unwrap();
                prop_assert!(now.as_secs() >= date.as_secs() + Policy::default().release_cycle_secs);
            }
        }
    }
}
