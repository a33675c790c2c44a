//! One architecture as hosts list it (the JS `architectures()`): its row of the table and
//! what the other tables say about it (its evidence profiles, the endpoints that take it).

use alloc::vec::Vec;

use serde::Serialize;

use super::arch::ArchProfile;
use super::endpoint::{Arch, Endpoint};
use super::profile::EvidenceProfile;

/// One architecture's row, with its evidence profiles and endpoints (the JS `Architecture`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "Architecture"))]
#[serde(rename_all = "camelCase")]
pub struct ArchitectureRow {
    /// The architecture table's row.
    #[serde(flatten)]
    pub profile: &'static ArchProfile,
    /// Its evidence profiles (firmware engines), as reports name them.
    pub evidence_profiles: Vec<&'static str>,
    /// The attest endpoints that accept it as `arch`.
    #[cfg_attr(feature = "ts", ts(type = "AttestEndpoint[]"))]
    pub endpoints: Vec<&'static str>,
}

impl ArchitectureRow {
    /// The row of `arch`.
    pub fn of(arch: Arch) -> Self {
        Self {
            profile: arch.profile(),
            evidence_profiles: EvidenceProfile::of_arch(arch)
                .map(EvidenceProfile::as_str)
                .collect(),
            endpoints: Endpoint::ALL
                .into_iter()
                .filter(|endpoint| endpoint.arches().contains(&arch))
                .map(Endpoint::path)
                .collect(),
        }
    }

    /// Every architecture's row, in the table's order.
    pub fn all() -> Vec<Self> {
        Arch::ALL.iter().map(|&arch| Self::of(arch)).collect()
    }
}
