//! Device and overall token claims, one typed struct per claims version.
//! Builders read a [`super::DeviceOutcome`] and never assemble JSON by hand.
//!
//! | endpoint | claims |
//! |---|---|
//! | V1 GPU | 1.0, single token with `x-nvidia-attestation-detailed-result` |
//! | V2 GPU/switch | 1.0, detached |
//! | V3 GPU/switch | 2.0 |
//! | V4 GPU | 2.0, 3.0 (default), 4.0 |
//! | V4 switch | 2.0, 3.0 (default) |
//!
//! Failures: claims 1.0 and 2.0 follow the real service's observed behaviour — a device
//! whose evidence or certificate chain did not verify gets a token holding only the times
//! and `x-nvidia-error-details`; a device that failed at the RIM stage (no document, an
//! expired signer, a mismatch) keeps every claim, false where a check failed, and claims 2.0
//! add its `x-nvidia-error-details` when the failure has a code (a RIM or an OCSP answer that
//! could not be had: the cause and the remedy). Claims 3.0 and 4.0 carry every claim even on
//! failure (spec §4 rule 2), `null` where a value could not be computed, and add
//! `x-nvidia-error-details` naming the first failure so that clients such as NVIDIA's SDK
//! report the right error.

mod common;
mod gpu;
mod gpu_v1;
mod overall;
mod shared;
mod switch;

pub use common::{CertChainClaim, ErrorOnlyClaims, TokenTimes};
pub use gpu::{switch_pdis_claim, GpuClaimsV2, GpuClaimsV3, GpuClaimsV4, GpuCommonClaims};
pub use gpu_v1::{GpuClaimsV1, GpuDetailedResultV1, GpuSingleTokenV1};
pub use overall::OverallClaims;
pub use shared::{RimClaims, RimNames, SharedClaims, SharedNames};
pub use switch::{
    switch_gpu_pdis_claim, switch_pdi_claim, SwitchClaimsV1, SwitchClaimsV2, SwitchClaimsV3,
    SwitchCommonClaims,
};

use alloc::string::String;

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use super::outcome::DeviceOutcome;
use crate::attest::{ClaimsVersion, DeviceKind, Nonce};

/// The claims of one device token, of whichever version was asked for.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum DeviceClaims {
    /// A failed device under claims 1.0 or 2.0.
    ErrorOnly(ErrorOnlyClaims),
    /// GPU, claims 1.0 (V2 detached).
    GpuV1(GpuClaimsV1),
    /// GPU, claims 2.0.
    GpuV2(GpuClaimsV2),
    /// GPU, claims 3.0.
    GpuV3(GpuClaimsV3),
    /// GPU, claims 4.0.
    GpuV4(GpuClaimsV4),
    /// Switch, claims 1.0.
    SwitchV1(SwitchClaimsV1),
    /// Switch, claims 2.0.
    SwitchV2(SwitchClaimsV2),
    /// Switch, claims 3.0.
    SwitchV3(SwitchClaimsV3),
}

impl DeviceClaims {
    /// The claims of `version` for one device. Switches have no 4.0 claims; they get 3.0
    /// (request validation refuses 4.0 on switch endpoints before this point).
    pub fn build(
        outcome: &DeviceOutcome,
        version: ClaimsVersion,
        nonce: &Nonce,
        times: TokenTimes,
    ) -> Self {
        let error_only = matches!(version, ClaimsVersion::V1_0 | ClaimsVersion::V2_0)
            && !outcome.evidence_verified;
        if let (true, Some(error)) = (error_only, outcome.error.clone()) {
            return Self::ErrorOnly(ErrorOnlyClaims { times, error });
        }
        match (outcome.kind, version) {
            (DeviceKind::Switch, ClaimsVersion::V1_0) => {
                Self::SwitchV1(SwitchClaimsV1::new(outcome, nonce, times))
            }
            (DeviceKind::Switch, ClaimsVersion::V2_0) => {
                Self::SwitchV2(SwitchClaimsV2::new(outcome, nonce, times))
            }
            (DeviceKind::Switch, _) => Self::SwitchV3(SwitchClaimsV3::new(outcome, nonce, times)),
            (_, ClaimsVersion::V1_0) => Self::GpuV1(GpuClaimsV1::new(outcome, nonce, times)),
            (_, ClaimsVersion::V2_0) => Self::GpuV2(GpuClaimsV2::new(outcome, nonce, times)),
            (_, ClaimsVersion::V3_0) => Self::GpuV3(GpuClaimsV3::new(outcome, nonce, times)),
            (_, _) => Self::GpuV4(GpuClaimsV4::new(outcome, nonce, times)),
        }
    }

    /// The claims as a JSON object, ready to sign.
    pub fn to_json(&self) -> Map<String, Value> {
        // Serialising plain structs of strings, numbers and booleans cannot fail.
        match serde_json::to_value(self) {
            Ok(Value::Object(map)) => map,
            _ => Map::new(),
        }
    }
}

/// The claims of the variant, member for member: what [`DeviceClaims::to_json`] holds. The
/// minter signs them through this, without building the JSON object twice.
impl Serialize for DeviceClaims {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::ErrorOnly(claims) => claims.serialize(serializer),
            Self::GpuV1(claims) => claims.serialize(serializer),
            Self::GpuV2(claims) => claims.serialize(serializer),
            Self::GpuV3(claims) => claims.serialize(serializer),
            Self::GpuV4(claims) => claims.serialize(serializer),
            Self::SwitchV1(claims) => claims.serialize(serializer),
            Self::SwitchV2(claims) => claims.serialize(serializer),
            Self::SwitchV3(claims) => claims.serialize(serializer),
        }
    }
}
