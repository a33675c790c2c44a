//! Golden notice objects for every registry row: one second before its date, at the
//! boundary instant, after it, and at the edges of the retention window; registry
//! validation; attaching to objects.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions may fail loudly too.

use super::at;
use edgeattest::deprecation::{
    attach_notices, by_id, notices_for, Api, ItemKind, Listing, Phase, Policy, AFTER, BEFORE,
    REGISTRY,
};
use edgeattest::time::{format_rfc3339, parse_rfc3339, MAX_SECS};
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};

const SEPT_10: u64 = 1_788_998_400; // 2026-09-10T00:00:00Z
const OCT_10: u64 = 1_791_590_400; // 2026-10-10T00:00:00Z
const MAY_13: u64 = 1_778_630_400; // 2026-05-13T00:00:00Z
const DAY: u64 = 86_400;

/// (row id, target, date, golden before, golden from the date on)
const DATED: &[(&str, &str, u64, &str, &str)] = &[
    (
        "tenant-account-accountNumber",
        "TenantAccount",
        SEPT_10,
        r#"{"attribute":"accountNumber","takeActionBy":"2026-09-10T00:00:00Z","notice":"Attribute 'accountNumber' is being deprecated. Please take action prior to the specified date"}"#,
        r#"{"attribute":"accountNumber","takeActionBy":"2026-09-10T00:00:00Z","notice":"Attribute 'accountNumber' has been deprecated. Please take action immediately"}"#,
    ),
    (
        "tenant-account-subscriptionId",
        "TenantAccount",
        SEPT_10,
        r#"{"attribute":"subscriptionId","takeActionBy":"2026-09-10T00:00:00Z","notice":"Attribute 'subscriptionId' is being deprecated. Please take action prior to the specified date"}"#,
        r#"{"attribute":"subscriptionId","takeActionBy":"2026-09-10T00:00:00Z","notice":"Attribute 'subscriptionId' has been deprecated. Please take action immediately"}"#,
    ),
    (
        "tenant-account-subscriptionTier",
        "TenantAccount",
        SEPT_10,
        r#"{"attribute":"subscriptionTier","takeActionBy":"2026-09-10T00:00:00Z","notice":"Attribute 'subscriptionTier' is being deprecated. Please take action prior to the specified date"}"#,
        r#"{"attribute":"subscriptionTier","takeActionBy":"2026-09-10T00:00:00Z","notice":"Attribute 'subscriptionTier' has been deprecated. Please take action immediately"}"#,
    ),
    (
        "allocation-constraint-ResourceTypeID",
        "AllocationConstraint",
        SEPT_10,
        r#"{"attribute":"ResourceTypeID","replacedBy":"resourceTypeId","takeActionBy":"2026-09-10T00:00:00Z","notice":"Attribute 'ResourceTypeID' is being deprecated in favor of 'resourceTypeId'. Please take action prior to the specified date"}"#,
        r#"{"attribute":"ResourceTypeID","replacedBy":"resourceTypeId","takeActionBy":"2026-09-10T00:00:00Z","notice":"Attribute 'ResourceTypeID' has been deprecated in favor of 'resourceTypeId'. Please take action immediately"}"#,
    ),
    (
        "machine-instance-type-id",
        "MachineInstanceType",
        SEPT_10,
        r#"{"attribute":"id","replacedBy":"machineId","takeActionBy":"2026-09-10T00:00:00Z","notice":"Attribute 'id' is being deprecated in favor of 'machineId'. Please take action prior to the specified date"}"#,
        r#"{"attribute":"id","replacedBy":"machineId","takeActionBy":"2026-09-10T00:00:00Z","notice":"Attribute 'id' has been deprecated in favor of 'machineId'. Please take action immediately"}"#,
    ),
    (
        "nvlink-interface-nvLinklogicalPartitionId",
        "NVLinkInterface",
        SEPT_10,
        r#"{"attribute":"nvLinklogicalPartitionId","replacedBy":"nvLinkLogicalPartitionId","takeActionBy":"2026-09-10T00:00:00Z","notice":"Attribute 'nvLinklogicalPartitionId' is being deprecated in favor of 'nvLinkLogicalPartitionId'. Please take action prior to the specified date"}"#,
        r#"{"attribute":"nvLinklogicalPartitionId","replacedBy":"nvLinkLogicalPartitionId","takeActionBy":"2026-09-10T00:00:00Z","notice":"Attribute 'nvLinklogicalPartitionId' has been deprecated in favor of 'nvLinkLogicalPartitionId'. Please take action immediately"}"#,
    ),
    (
        "propagation-details-object_id",
        "NetworkSecurityGroupPropagationDetails",
        SEPT_10,
        r#"{"attribute":"object_id","replacedBy":"objectId","takeActionBy":"2026-09-10T00:00:00Z","notice":"Attribute 'object_id' is being deprecated in favor of 'objectId'. Please take action prior to the specified date"}"#,
        r#"{"attribute":"object_id","replacedBy":"objectId","takeActionBy":"2026-09-10T00:00:00Z","notice":"Attribute 'object_id' has been deprecated in favor of 'objectId'. Please take action immediately"}"#,
    ),
    (
        "instance-list-infrastructureProviderId",
        "GET /instance",
        OCT_10,
        r#"{"queryParam":"infrastructureProviderId","takeActionBy":"2026-10-10T00:00:00Z","notice":"Query parameter 'infrastructureProviderId' is being deprecated. Results are scoped to the organization's Tenant; siteId scopes results to the Sites of one Infrastructure Provider. Please take action prior to the specified date"}"#,
        r#"{"queryParam":"infrastructureProviderId","takeActionBy":"2026-10-10T00:00:00Z","notice":"Query parameter 'infrastructureProviderId' has been deprecated. Results are scoped to the organization's Tenant; siteId scopes results to the Sites of one Infrastructure Provider. Please take action immediately"}"#,
    ),
    (
        "site-rackLevelAdministration",
        "SiteCapabilities",
        MAY_13,
        r#"{"attribute":"rackLevelAdministration","replacedBy":"flow","takeActionBy":"2026-05-13T00:00:00Z","notice":"Attribute 'rackLevelAdministration' is being deprecated in favor of 'flow'. Please take action prior to the specified date"}"#,
        r#"{"attribute":"rackLevelAdministration","replacedBy":"flow","takeActionBy":"2026-05-13T00:00:00Z","notice":"Attribute 'rackLevelAdministration' has been deprecated in favor of 'flow'. Please take action immediately"}"#,
    ),
    (
        "site-list-isRackLevelAdministrationEnabled",
        "GET /site",
        MAY_13,
        r#"{"queryParam":"isRackLevelAdministrationEnabled","replacedBy":"isFlowEnabled","takeActionBy":"2026-05-13T00:00:00Z","notice":"Query parameter 'isRackLevelAdministrationEnabled' is being deprecated in favor of 'isFlowEnabled'. Please take action prior to the specified date"}"#,
        r#"{"queryParam":"isRackLevelAdministrationEnabled","replacedBy":"isFlowEnabled","takeActionBy":"2026-05-13T00:00:00Z","notice":"Query parameter 'isRackLevelAdministrationEnabled' has been deprecated in favor of 'isFlowEnabled'. Please take action immediately"}"#,
    ),
];

/// Rows without a date: the same object at every instant.
const UNDATED: &[(&str, &str, &str)] = &[
    (
        "operating-system-isCloudInit",
        "OperatingSystem",
        r#"{"attribute":"isCloudInit","notice":"Attribute 'isCloudInit' has been deprecated. It is ignored on create and update requests; the returned value is derived from userData being non-empty. Please take action immediately"}"#,
    ),
    (
        "attest-gen1-evidences",
        "AttestRequestV2",
        r#"{"attribute":"evidences","replacedBy":"evidence_list","notice":"Attribute 'evidences' has been deprecated in favor of 'evidence_list'. Generation-1 evidence is the base64 of the hex text of the evidence; generation 2 is the base64 of the raw bytes. Please take action immediately"}"#,
    ),
    (
        "attest-v2-gpu",
        "POST /v2/attest/gpu",
        r#"{"endpoint":"POST /v2/attest/gpu","replacedBy":"POST /v4/attest/gpu","notice":"Endpoint 'POST /v2/attest/gpu' has been deprecated in favor of 'POST /v4/attest/gpu'. It takes generation-1 evidence; generation-2 evidence is the base64 of the raw evidence bytes. Please take action immediately"}"#,
    ),
    (
        "attest-v2-switch",
        "POST /v2/attest/switch",
        r#"{"endpoint":"POST /v2/attest/switch","replacedBy":"POST /v4/attest/switch","notice":"Endpoint 'POST /v2/attest/switch' has been deprecated in favor of 'POST /v4/attest/switch'. It takes generation-1 evidence; generation-2 evidence is the base64 of the raw evidence bytes. Please take action immediately"}"#,
    ),
];

fn notice_json(id: &str, now: UnixTime, policy: &Policy) -> Option<String> {
    by_id(id)
        .unwrap()
        .notice(now, policy)
        .map(|n| serde_json::to_string(&n).unwrap())
}

#[test]
fn every_dated_row_before_at_and_after_its_date() {
    let policy = Policy::default();
    for (id, target, date, before, after) in DATED {
        assert_eq!(
            notice_json(id, at(date - 1), &policy).as_deref(),
            Some(*before),
            "{id} before"
        );
        assert_eq!(
            notice_json(id, at(date - 30 * DAY), &policy).as_deref(),
            Some(*before),
            "{id} early"
        );
        // At the instant itself the item is due: "immediately".
        assert_eq!(
            notice_json(id, at(*date), &policy).as_deref(),
            Some(*after),
            "{id} at"
        );
        assert_eq!(
            notice_json(id, at(date + 1), &policy).as_deref(),
            Some(*after),
            "{id} after"
        );
        // The same objects through the target they attach to.
        let through_target: Vec<String> = notices_for(target, at(date - 1), &policy)
            .iter()
            .map(|n| serde_json::to_string(n).unwrap())
            .collect();
        assert!(
            through_target.iter().any(|n| n == before),
            "{id} via {target}"
        );
    }
}

#[test]
fn notices_are_kept_for_one_release_cycle_after_the_date_then_dropped() {
    let policy = Policy::default();
    assert_eq!(policy.release_cycle_secs, 30 * DAY);
    for (id, _, date, _, after) in DATED {
        let end = date + policy.release_cycle_secs;
        assert_eq!(
            notice_json(id, at(end - 1), &policy).as_deref(),
            Some(*after),
            "{id}"
        );
        assert_eq!(notice_json(id, at(end), &policy), None, "{id}");
        assert_eq!(notice_json(id, at(end + 365 * DAY), &policy), None, "{id}");
        assert_eq!(by_id(id).unwrap().phase(at(end), &policy), Phase::Gone);
    }
    // A host with a 90-day release cycle keeps them longer.
    let quarterly = Policy {
        release_cycle_secs: 90 * DAY,
        ..Policy::default()
    };
    assert!(notice_json(
        "tenant-account-accountNumber",
        at(SEPT_10 + 60 * DAY),
        &quarterly
    )
    .is_some());
    assert!(notice_json(
        "tenant-account-accountNumber",
        at(SEPT_10 + 90 * DAY),
        &quarterly
    )
    .is_none());
}

#[test]
fn undated_rows_read_the_same_at_every_instant() {
    let policy = Policy::default();
    for (id, target, golden) in UNDATED {
        for now in [0, MAY_13, SEPT_10, OCT_10, MAX_SECS] {
            assert_eq!(
                notice_json(id, at(now), &policy).as_deref(),
                Some(*golden),
                "{id} at {now}"
            );
        }
        let via = notices_for(target, at(SEPT_10), &policy);
        assert_eq!(serde_json::to_string(&via[0]).unwrap(), *golden);
    }
}

#[test]
fn the_golden_tables_cover_the_whole_registry() {
    let mut ids: Vec<&str> = DATED
        .iter()
        .map(|r| r.0)
        .chain(UNDATED.iter().map(|r| r.0))
        .collect();
    ids.sort_unstable();
    let mut registry: Vec<&str> = REGISTRY.iter().map(|r| r.id).collect();
    registry.sort_unstable();
    assert_eq!(ids, registry);
}

#[test]
fn notice_objects_follow_the_schema() {
    let policy = Policy::default();
    for row in REGISTRY {
        for now in [0, MAY_13, SEPT_10, OCT_10] {
            let Some(notice) = row.notice(at(now), &policy) else {
                continue;
            };
            let value = serde_json::to_value(&notice).unwrap();
            let object = value.as_object().unwrap();
            let naming = ["attribute", "queryParam", "endpoint"]
                .iter()
                .filter(|k| object.contains_key(**k))
                .count();
            assert_eq!(naming, 1, "{}", row.id);
            assert_eq!(
                object.contains_key("replacedBy"),
                row.replaced_by.is_some(),
                "{}",
                row.id
            );
            assert_eq!(
                object.contains_key("takeActionBy"),
                row.take_action_by.is_some()
            );
            assert!(
                object.values().all(|v| !v.is_null()),
                "{}: null member",
                row.id
            );
            let text = object["notice"].as_str().unwrap();
            assert!(text.ends_with(BEFORE) || text.ends_with(AFTER), "{text}");
            if let Some(date) = object.get("takeActionBy") {
                let date = date.as_str().unwrap();
                assert_eq!(
                    parse_rfc3339(date).unwrap(),
                    row.take_action_by.unwrap().as_secs()
                );
                assert!(date.ends_with('Z') && date.len() == 20, "{date}");
            }
            let keys: Vec<&String> = object.keys().collect();
            let order = [
                "attribute",
                "queryParam",
                "endpoint",
                "replacedBy",
                "takeActionBy",
                "notice",
            ];
            let positions: Vec<usize> = keys
                .iter()
                .map(|k| order.iter().position(|o| o == k).unwrap())
                .collect();
            assert!(positions.windows(2).all(|w| w[0] < w[1]), "{keys:?}");
        }
    }
}

#[test]
fn the_registry_is_valid() {
    let mut ids = std::collections::BTreeSet::new();
    for row in REGISTRY {
        assert!(ids.insert(row.id), "duplicate id {}", row.id);
        assert!(!row.targets.is_empty(), "{}", row.id);
        assert!(row
            .id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        if let Some(new) = row.replaced_by {
            assert_ne!(new, row.name, "{}", row.id);
        }
        // RFC 9745 §4: Sunset must not precede Deprecation.
        if let (Some(since), Some(until)) = (row.deprecated_since, row.take_action_by) {
            assert!(until >= since, "{}", row.id);
        }
        match row.kind {
            ItemKind::Endpoint => {
                let (method, path) = row.name.split_once(' ').unwrap();
                assert!(["GET", "POST", "PUT", "PATCH", "DELETE"].contains(&method));
                assert!(path.starts_with('/'));
                assert_eq!(row.targets, &[row.name]);
                if let Some(new) = row.replaced_by {
                    assert!(new.split_once(' ').unwrap().1.starts_with('/'));
                }
            }
            ItemKind::QueryParam => {
                for target in row.targets {
                    assert!(target.starts_with("GET /"), "{target}");
                }
            }
            ItemKind::Attribute => {
                for target in row.targets {
                    assert!(!target.contains(' '), "{target}");
                }
            }
            _ => unreachable!(),
        }
        if row.listing == Listing::Removed {
            assert!(row.take_action_by.is_some());
        }
        if let Some(date) = row.take_action_by {
            assert_eq!(
                parse_rfc3339(&format_rfc3339(date.as_secs()).unwrap()).unwrap(),
                date.as_secs()
            );
        }
    }
}

#[test]
fn the_registry_holds_the_spec_tables() {
    let infra: Vec<_> = REGISTRY
        .iter()
        .filter(|r| r.api == Api::Infrastructure)
        .collect();
    // Seven active rows; the Tenant Account row names three attributes.
    let active: Vec<_> = infra
        .iter()
        .filter(|r| r.listing == Listing::Active)
        .collect();
    assert_eq!(active.len(), 9);
    let mut rows: Vec<(&str, Option<&str>, Option<UnixTime>)> = active
        .iter()
        .map(|r| (r.resource, r.replaced_by, r.take_action_by))
        .collect();
    rows.dedup();
    assert_eq!(rows.len(), 7);
    let removed: Vec<_> = infra
        .iter()
        .filter(|r| r.listing == Listing::Removed)
        .collect();
    assert_eq!(removed.len(), 2);
    assert!(removed
        .iter()
        .all(|r| r.resource == "Site" && r.take_action_by == Some(at(MAY_13))));
    let attestation: Vec<_> = REGISTRY
        .iter()
        .filter(|r| r.api == Api::Attestation)
        .collect();
    assert_eq!(attestation.len(), 3);
    assert!(attestation
        .iter()
        .all(|r| r.deprecated_since.is_some() && r.take_action_by.is_none()));
    // The attestation rows agree with the attest module's own view of deprecation.
    for endpoint in edgeattest::attest::Endpoint::ALL {
        let target = format!("POST {}", endpoint.path());
        assert_eq!(
            !notices_for(&target, at(0), &Policy::default()).is_empty(),
            endpoint.is_deprecated(),
            "{target}"
        );
    }
}

#[test]
fn attach_adds_the_array_only_where_there_are_notices() {
    let policy = Policy::default();
    let mut account: Map<String, Value> = json!({"id": "a1", "accountNumber": "42"})
        .as_object()
        .unwrap()
        .clone();
    attach_notices(&mut account, "TenantAccount", at(SEPT_10 - 1), &policy);
    let list = account["deprecations"].as_array().unwrap();
    assert_eq!(list.len(), 3);
    assert_eq!(
        list.iter()
            .map(|n| n["attribute"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["accountNumber", "subscriptionId", "subscriptionTier"]
    );
    let mut plain: Map<String, Value> = json!({"id": "x"}).as_object().unwrap().clone();
    attach_notices(&mut plain, "Instance", at(SEPT_10), &policy);
    assert!(!plain.contains_key("deprecations"));
    // After the retention window the array is no longer attached.
    let mut late = json!({"id": "a1"}).as_object().unwrap().clone();
    attach_notices(&mut late, "TenantAccount", at(SEPT_10 + 31 * DAY), &policy);
    assert!(!late.contains_key("deprecations"));
    // The list endpoint carries its query parameter's notice.
    assert_eq!(
        notices_for("GET /instance", at(OCT_10 - 1), &policy).len(),
        1
    );
}

#[test]
fn the_registry_exports_as_json() {
    let rows: Value = serde_json::from_str(&edgeattest::deprecation::registry_json()).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), REGISTRY.len());
    let cloud_init = &rows[0];
    assert_eq!(
        cloud_init,
        &json!({
            "id": "operating-system-isCloudInit",
            "api": "infrastructure",
            "resource": "Operating System",
            "attribute": "isCloudInit",
            "targets": ["OperatingSystem"],
            "listing": "active",
            "handling": "ignored",
            "detail": "It is ignored on create and update requests; the returned value is derived from userData being non-empty"
        })
    );
    let v2 = rows.iter().find(|r| r["id"] == "attest-v2-gpu").unwrap();
    assert_eq!(v2["endpoint"], "POST /v2/attest/gpu");
    assert_eq!(v2["deprecatedSince"], "2026-01-01T00:00:00Z");
    assert!(v2.get("takeActionBy").is_none());
    let site = rows
        .iter()
        .find(|r| r["id"] == "site-list-isRackLevelAdministrationEnabled")
        .unwrap();
    assert_eq!(site["queryParam"], "isRackLevelAdministrationEnabled");
    assert_eq!(site["takeActionBy"], "2026-05-13T00:00:00Z");
    assert_eq!(site["listing"], "removed");
}
