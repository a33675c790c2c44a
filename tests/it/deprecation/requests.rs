//! Request rules: both-present, rejection from the date on, ignored attributes, query
//! parameters, endpoints, and the error bodies.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions may fail loudly too.

use super::at;
use edgeattest::deprecation::{
    check_endpoint, check_query, check_request, check_request_json, derived_is_cloud_init,
    DeprecationError, Policy,
};
use edgeattest::{ErrorCode, UnixTime};
use serde_json::{json, Value};

const SEPT_10: u64 = 1_788_998_400;
const OCT_10: u64 = 1_791_590_400;
const MAY_13: u64 = 1_778_630_400;
const YEAR: u64 = 365 * 86_400;

#[test]
fn before_the_date_either_name_is_accepted() {
    let old = check_request(
        "AllocationConstraint",
        json!({"ResourceTypeID": "t1"}),
        at(SEPT_10 - 1),
    )
    .unwrap();
    assert_eq!(old.used.len(), 1);
    assert_eq!(old.used[0].name, "ResourceTypeID");
    assert_eq!(old.body, json!({"ResourceTypeID": "t1"}));
    let new = check_request(
        "AllocationConstraint",
        json!({"resourceTypeId": "t1"}),
        at(SEPT_10 - 1),
    )
    .unwrap();
    assert!(new.used.is_empty() && new.ignored.is_empty());
}

#[test]
fn both_names_together_are_refused_with_the_new_one_preferred() {
    let body = json!({"ResourceTypeID": "t1", "resourceTypeId": "t1"});
    let error = check_request("AllocationConstraint", body, at(SEPT_10 - 1)).unwrap_err();
    assert_eq!(error.code(), "ERR_DEPRECATED_BOTH_PRESENT");
    assert_eq!(error.field(), Some("ResourceTypeID"));
    assert_eq!(error.status(), 400);
    let message = error.to_string();
    assert!(
        message.contains("'resourceTypeId' is preferred"),
        "{message}"
    );
    assert!(message.contains("'ResourceTypeID'"), "{message}");
    let body = serde_json::to_value(error.body(at(SEPT_10 - 1), &Policy::default())).unwrap();
    assert_eq!(
        body,
        json!({
            "code": "ERR_DEPRECATED_BOTH_PRESENT",
            "message": "The request names both 'ResourceTypeID' and its replacement 'resourceTypeId'; the new attribute 'resourceTypeId' is preferred: send only 'resourceTypeId'",
            "field": "ResourceTypeID",
            "status": 400,
            "deprecation": {
                "attribute": "ResourceTypeID",
                "replacedBy": "resourceTypeId",
                "takeActionBy": "2026-09-10T00:00:00Z",
                "notice": "Attribute 'ResourceTypeID' is being deprecated in favor of 'resourceTypeId'. Please take action prior to the specified date"
            }
        })
    );
    for (target, old, new) in [
        ("MachineInstanceType", "id", "machineId"),
        (
            "NVLinkInterface",
            "nvLinklogicalPartitionId",
            "nvLinkLogicalPartitionId",
        ),
        (
            "NetworkSecurityGroupPropagationDetails",
            "object_id",
            "objectId",
        ),
    ] {
        let body = json!({ old: 1, new: 1 });
        let error = check_request(target, body, at(SEPT_10 - 86_400)).unwrap_err();
        assert_eq!(error.code(), "ERR_DEPRECATED_BOTH_PRESENT", "{target}");
    }
}

#[test]
fn from_the_date_on_the_deprecated_attribute_is_refused() {
    for now in [SEPT_10, SEPT_10 + 1, SEPT_10 + YEAR] {
        let error = check_request(
            "AllocationConstraint",
            json!({"ResourceTypeID": "t"}),
            at(now),
        )
        .unwrap_err();
        assert_eq!(error.code(), "ERR_DEPRECATED_ATTRIBUTE");
        assert_eq!(
            error.to_string(),
            "Attribute 'ResourceTypeID' is deprecated and no longer accepted since 2026-09-10T00:00:00Z; use 'resourceTypeId' instead"
        );
        // With the replacement too, the attribute's own refusal comes first.
        let both = json!({"ResourceTypeID": "t", "resourceTypeId": "t"});
        assert_eq!(
            check_request("AllocationConstraint", both, at(now))
                .unwrap_err()
                .code(),
            "ERR_DEPRECATED_ATTRIBUTE"
        );
    }
    // Still shown with its notice, even past the retention window.
    let error = check_request(
        "TenantAccount",
        json!({"subscriptionTier": "gold"}),
        at(SEPT_10 + YEAR),
    )
    .unwrap_err();
    assert_eq!(error.to_string(), "Attribute 'subscriptionTier' is deprecated and no longer accepted since 2026-09-10T00:00:00Z");
    let body = serde_json::to_value(error.body(at(SEPT_10 + YEAR), &Policy::default())).unwrap();
    assert_eq!(body["deprecation"]["attribute"], "subscriptionTier");
    assert!(body["deprecation"].get("replacedBy").is_none());
    assert!(body["deprecation"]["notice"]
        .as_str()
        .unwrap()
        .ends_with("Please take action immediately"));
    // The replacement alone is fine at any time.
    assert!(check_request(
        "AllocationConstraint",
        json!({"resourceTypeId": "t"}),
        at(SEPT_10 + YEAR)
    )
    .is_ok());
    // Removed Site attribute.
    let error = check_request(
        "SiteCapabilities",
        json!({"rackLevelAdministration": true}),
        at(MAY_13),
    )
    .unwrap_err();
    assert!(error.to_string().ends_with("use 'flow' instead"));
}

#[test]
fn is_cloud_init_is_ignored_and_derived_from_user_data() {
    for now in [0, SEPT_10, SEPT_10 + 10 * YEAR] {
        let checked = check_request(
            "OperatingSystem",
            json!({"name": "ubuntu", "isCloudInit": false, "userData": "#cloud-config"}),
            at(now),
        )
        .unwrap();
        assert_eq!(
            checked.body,
            json!({"name": "ubuntu", "userData": "#cloud-config"})
        );
        assert_eq!(checked.ignored.len(), 1);
        assert_eq!(checked.ignored[0].name, "isCloudInit");
        assert!(checked.used.is_empty());
        assert!(derived_is_cloud_init(checked.body.as_object().unwrap()));
    }
    let empty = json!({"userData": ""});
    assert!(!derived_is_cloud_init(empty.as_object().unwrap()));
    let absent = json!({"isCloudInit": true});
    assert!(!derived_is_cloud_init(absent.as_object().unwrap()));
    let not_text = json!({"userData": 5});
    assert!(!derived_is_cloud_init(not_text.as_object().unwrap()));
}

#[test]
fn query_parameters() {
    assert_eq!(
        check_query(
            "GET /instance",
            "siteId=s1&infrastructureProviderId=p",
            at(OCT_10 - 1)
        )
        .unwrap()
        .len(),
        1
    );
    let error = check_query("GET /instance", "infrastructureProviderId=p", at(OCT_10)).unwrap_err();
    assert_eq!(error.code(), "ERR_DEPRECATED_QUERY_PARAM");
    assert_eq!(error.field(), Some("infrastructureProviderId"));
    assert_eq!(
        error.to_string(),
        "Query parameter 'infrastructureProviderId' is deprecated and no longer accepted since 2026-10-10T00:00:00Z"
    );
    // The removed Site parameter is refused; its replacement is not.
    let error = check_query(
        "GET /site",
        "isRackLevelAdministrationEnabled=true",
        at(MAY_13 + YEAR),
    )
    .unwrap_err();
    assert!(error.to_string().ends_with("use 'isFlowEnabled' instead"));
    assert!(
        check_query("GET /site", "isFlowEnabled=true", at(MAY_13 + YEAR))
            .unwrap()
            .is_empty()
    );
    let error = check_query(
        "GET /site",
        "isRackLevelAdministrationEnabled=1&isFlowEnabled=1",
        at(MAY_13 - 1),
    )
    .unwrap_err();
    assert_eq!(error.code(), "ERR_DEPRECATED_BOTH_PRESENT");
    // Names are matched whole; values do not count.
    assert!(
        check_query("GET /instance", "x=infrastructureProviderId", at(OCT_10))
            .unwrap()
            .is_empty()
    );
    assert!(
        check_query("GET /instance", "infrastructureProviderIds=1", at(OCT_10))
            .unwrap()
            .is_empty()
    );
    assert!(check_query("GET /instance", "", at(OCT_10))
        .unwrap()
        .is_empty());
}

#[test]
fn endpoints() {
    let row = check_endpoint("POST /v2/attest/gpu", UnixTime::MAX)
        .unwrap()
        .unwrap();
    assert_eq!(row.replaced_by, Some("POST /v4/attest/gpu"));
    assert!(check_endpoint("POST /v4/attest/gpu", at(0))
        .unwrap()
        .is_none());
    assert!(check_endpoint("GET /instance", at(0)).unwrap().is_none());
}

#[test]
fn bodies_must_be_json_objects() {
    assert_eq!(
        check_request("TenantAccount", json!([1]), at(0)).unwrap_err(),
        DeprecationError::NotAnObject
    );
    let error = check_request_json("TenantAccount", br#"{"a":1,"a":2}"#, at(0)).unwrap_err();
    assert_eq!(error.code(), "ERR_JSON_DUPLICATE_MEMBER");
    assert_eq!(
        check_request_json("TenantAccount", b"{", at(0))
            .unwrap_err()
            .code(),
        "ERR_JSON_SYNTAX"
    );
    let ok = check_request_json(
        "TenantAccount",
        br#"{"accountNumber":"1"}"#,
        at(SEPT_10 - 1),
    )
    .unwrap();
    assert_eq!(ok.used.len(), 1);
    let _: Value = ok.body;
}
