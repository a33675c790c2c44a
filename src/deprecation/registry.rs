//! The deprecation registry: every deprecated attribute, query parameter and endpoint, as
//! data. Notice objects, request rules and headers are all computed from it, so they cannot
//! disagree.
//!
//! Sources: the infrastructure API's rows are the spec's tables
//! ("Active deprecations in one published state" and "Removed deprecations (Site)"); the
//! attestation service's row: generation-1 evidence is deprecated.
//!
//! Targets — the names notices attach to and requests are checked against:
//! - attribute rows attach to object kinds (`TenantAccount`, `AllocationConstraint`, …);
//! - query-parameter rows to the endpoint accepting them, written `METHOD /path` relative to
//!   the API's base URL (the spec names them only as "the list Instances endpoint", so the
//!   paths `/instance` and `/site` are ours);
//! - endpoint rows to themselves (`POST /v2/attest/gpu`).
//!
//! Dates the spec does not give stay absent: `takeActionBy` for `isCloudInit` ("not given")
//! and for generation-1 evidence ("older generations stay available", §9.1), and the
//! announcement date (the `Deprecation` header) of every infrastructure row. The attestation
//! service is ours, so its rows carry a deprecation date: [`ATTEST_GEN1_DEPRECATED_SINCE`].

use alloc::string::ToString;

use crate::time::UnixTime;

/// 2026-09-10T00:00:00Z, the removal date of five active rows.
pub const SEPT_10_2026: UnixTime = date(1_788_998_400);
/// 2026-10-10T00:00:00Z, the removal date of `infrastructureProviderId`.
pub const OCT_10_2026: UnixTime = date(1_791_590_400);
/// 2026-05-13T00:00:00Z, the removal date of the Site rows.
pub const MAY_13_2026: UnixTime = date(1_778_630_400);
/// 2026-01-01T00:00:00Z: the date from which this attestation service declares
/// generation-1 evidence deprecated. The spec marks it deprecated without a date; the
/// service predates no release with it undeprecated, so the start of the year of its first
/// release is used (RFC 9745 allows a date in the past).
pub const ATTEST_GEN1_DEPRECATED_SINCE: UnixTime = date(1_767_225_600);

/// A date of the table. Only evaluated in constants, so one out of range fails the build.
#[allow(clippy::panic)]
const fn date(secs: u64) -> UnixTime {
    match UnixTime::from_secs(secs) {
        Some(time) => time,
        None => panic!("a deprecation date past 9999"),
    }
}

/// What is deprecated: the naming field of the notice object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ItemKind {
    /// An attribute of an API object (notice field `attribute`).
    Attribute,
    /// A query parameter of an endpoint (notice field `queryParam`).
    QueryParam,
    /// An endpoint (notice field `endpoint`, written `METHOD /path`).
    Endpoint,
}

impl ItemKind {
    /// The notice object's member: `attribute`, `queryParam` or `endpoint`.
    pub const fn field(self) -> &'static str {
        match self {
            Self::Attribute => "attribute",
            Self::QueryParam => "queryParam",
            Self::Endpoint => "endpoint",
        }
    }

    /// The word used in notices: `Attribute`, `Query parameter`, `Endpoint`.
    pub const fn label(self) -> &'static str {
        match self {
            Self::Attribute => "Attribute",
            Self::QueryParam => "Query parameter",
            Self::Endpoint => "Endpoint",
        }
    }
}

/// The API a row belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Api {
    /// The infrastructure management API of the spec's part B.
    Infrastructure,
    /// This crate's attestation service.
    Attestation,
}

impl Api {
    /// `infrastructure` or `attestation`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Infrastructure => "infrastructure",
            Self::Attestation => "attestation",
        }
    }
}

/// Which of the spec's tables a row comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Listing {
    /// "Active deprecations", or an active deprecation of the attestation service.
    Active,
    /// "Removed deprecations": past `takeActionBy` when the spec was published.
    Removed,
}

/// What a create or update request containing the item gets before `takeActionBy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Handling {
    /// Accepted as before (spec §9 rule 5).
    Accepted,
    /// Accepted but ignored: removed from the body before processing (`isCloudInit`).
    Ignored,
}

/// One registry row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Deprecation {
    /// Stable identifier, also the anchor of the `rel="deprecation"` link.
    pub id: &'static str,
    /// The API.
    pub api: Api,
    /// The spec's resource column (e.g. `Tenant Account`).
    pub resource: &'static str,
    /// Attribute, query parameter or endpoint.
    pub kind: ItemKind,
    /// The deprecated name; for endpoints `METHOD /path`.
    pub name: &'static str,
    /// Where notices attach (see the module docs).
    pub targets: &'static [&'static str],
    /// The replacement's name, if there is one.
    pub replaced_by: Option<&'static str>,
    /// When the item was deprecated, if known (the `Deprecation` header).
    pub deprecated_since: Option<UnixTime>,
    /// From when the item is no longer accepted or available, if set.
    pub take_action_by: Option<UnixTime>,
    /// Which spec table the row comes from.
    pub listing: Listing,
    /// How requests using it are treated before `takeActionBy`.
    pub handling: Handling,
    /// A further sentence for the notice, if any.
    pub detail: Option<&'static str>,
}

#[allow(clippy::too_many_arguments)] // a table row: one argument per column
const fn row(
    id: &'static str,
    api: Api,
    resource: &'static str,
    kind: ItemKind,
    name: &'static str,
    targets: &'static [&'static str],
    replaced_by: Option<&'static str>,
    take_action_by: Option<UnixTime>,
    listing: Listing,
) -> Deprecation {
    Deprecation {
        id,
        api,
        resource,
        kind,
        name,
        targets,
        replaced_by,
        deprecated_since: None,
        take_action_by,
        listing,
        handling: Handling::Accepted,
        detail: None,
    }
}

use Api::{Attestation, Infrastructure};
use ItemKind::{Attribute, Endpoint, QueryParam};
use Listing::{Active, Removed};

const GEN1: &str = "It takes generation-1 evidence; generation-2 evidence is the base64 of the \
                    raw evidence bytes";

/// Every row. Infrastructure rows first, in the spec's order, then the attestation service.
#[rustfmt::skip]
pub static REGISTRY: &[Deprecation] = &[
    Deprecation {
        handling: Handling::Ignored,
        detail: Some(
            "It is ignored on create and update requests; the returned value is derived from \
             userData being non-empty",
        ),
        ..row(
            "operating-system-isCloudInit", Infrastructure, "Operating System", Attribute,
            "isCloudInit", &["OperatingSystem"], None, None, Active,
        )
    },
    row(
        "tenant-account-accountNumber", Infrastructure, "Tenant Account", Attribute,
        "accountNumber", &["TenantAccount"], None, Some(SEPT_10_2026), Active,
    ),
    row(
        "tenant-account-subscriptionId", Infrastructure, "Tenant Account", Attribute,
        "subscriptionId", &["TenantAccount"], None, Some(SEPT_10_2026), Active,
    ),
    row(
        "tenant-account-subscriptionTier", Infrastructure, "Tenant Account", Attribute,
        "subscriptionTier", &["TenantAccount"], None, Some(SEPT_10_2026), Active,
    ),
    row(
        "allocation-constraint-ResourceTypeID", Infrastructure, "Allocation", Attribute,
        "ResourceTypeID", &["AllocationConstraint"], Some("resourceTypeId"),
        Some(SEPT_10_2026), Active,
    ),
    row(
        "machine-instance-type-id", Infrastructure, "Instance Type", Attribute, "id",
        &["MachineInstanceType"], Some("machineId"), Some(SEPT_10_2026), Active,
    ),
    row(
        "nvlink-interface-nvLinklogicalPartitionId", Infrastructure, "Instance Type", Attribute,
        "nvLinklogicalPartitionId", &["NVLinkInterface"], Some("nvLinkLogicalPartitionId"),
        Some(SEPT_10_2026), Active,
    ),
    row(
        "propagation-details-object_id", Infrastructure, "Network Security Group", Attribute,
        "object_id", &["NetworkSecurityGroupPropagationDetails"], Some("objectId"),
        Some(SEPT_10_2026), Active,
    ),
    Deprecation {
        detail: Some(
            "Results are scoped to the organization's Tenant; siteId scopes results to the \
             Sites of one Infrastructure Provider",
        ),
        ..row(
            "instance-list-infrastructureProviderId", Infrastructure, "Instance", QueryParam,
            "infrastructureProviderId", &["GET /instance"], None, Some(OCT_10_2026), Active,
        )
    },
    row(
        "site-rackLevelAdministration", Infrastructure, "Site", Attribute,
        "rackLevelAdministration", &["SiteCapabilities"], Some("flow"), Some(MAY_13_2026),
        Removed,
    ),
    row(
        "site-list-isRackLevelAdministrationEnabled", Infrastructure, "Site", QueryParam,
        "isRackLevelAdministrationEnabled", &["GET /site"], Some("isFlowEnabled"),
        Some(MAY_13_2026), Removed,
    ),
    Deprecation {
        deprecated_since: Some(ATTEST_GEN1_DEPRECATED_SINCE),
        detail: Some(
            "Generation-1 evidence is the base64 of the hex text of the evidence; \
             generation 2 is the base64 of the raw bytes",
        ),
        ..row(
            "attest-gen1-evidences", Attestation, "Attestation request", Attribute,
            "evidences", &["AttestRequestV2"], Some("evidence_list"), None, Active,
        )
    },
    Deprecation {
        deprecated_since: Some(ATTEST_GEN1_DEPRECATED_SINCE),
        detail: Some(GEN1),
        ..row(
            "attest-v2-gpu", Attestation, "GPU attestation", Endpoint, "POST /v2/attest/gpu",
            &["POST /v2/attest/gpu"], Some("POST /v4/attest/gpu"), None, Active,
        )
    },
    Deprecation {
        deprecated_since: Some(ATTEST_GEN1_DEPRECATED_SINCE),
        detail: Some(GEN1),
        ..row(
            "attest-v2-switch", Attestation, "Switch attestation", Endpoint,
            "POST /v2/attest/switch", &["POST /v2/attest/switch"], Some("POST /v4/attest/switch"),
            None, Active,
        )
    },
];

/// The row with identifier `id`.
pub fn by_id(id: &str) -> Option<&'static Deprecation> {
    REGISTRY.iter().find(|row| row.id == id)
}

/// The rows attached to `target`.
pub fn for_target(target: &str) -> impl Iterator<Item = &'static Deprecation> + '_ {
    REGISTRY
        .iter()
        .filter(move |row| row.targets.contains(&target))
}

/// The registry as JSON (for a `/deprecations` page or a client): every row with camelCase
/// members, dates in RFC 3339 UTC, absent members omitted.
pub fn registry_json() -> alloc::string::String {
    serde_json::to_string_pretty(REGISTRY).unwrap_or_default()
}

impl serde::Serialize for Deprecation {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("id", self.id)?;
        map.serialize_entry("api", self.api.as_str())?;
        map.serialize_entry("resource", self.resource)?;
        map.serialize_entry(self.kind.field(), self.name)?;
        map.serialize_entry("targets", self.targets)?;
        if let Some(new) = self.replaced_by {
            map.serialize_entry("replacedBy", new)?;
        }
        if let Some(since) = self.deprecated_since.map(|since| since.to_string()) {
            map.serialize_entry("deprecatedSince", &since)?;
        }
        if let Some(date) = self.take_action_by.map(|date| date.to_string()) {
            map.serialize_entry("takeActionBy", &date)?;
        }
        let listing = match self.listing {
            Listing::Active => "active",
            Listing::Removed => "removed",
        };
        map.serialize_entry("listing", listing)?;
        let handling = match self.handling {
            Handling::Accepted => "accepted",
            Handling::Ignored => "ignored",
        };
        map.serialize_entry("handling", handling)?;
        if let Some(detail) = self.detail {
            map.serialize_entry("detail", detail)?;
        }
        map.end()
    }
}
