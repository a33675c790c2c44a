//! GPU device claims, versions 1.0 to 4.0.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::Map;

use super::common::{CertChainClaim, TokenTimes};
use super::shared::{self, RimClaims, SharedClaims};
use crate::attest::Nonce;
use crate::rim::{MismatchRecord, OpaqueMismatch};
use crate::service::outcome::{
    CertStatus, DeviceOutcome, ErrorDetails, MeasurementOutcome, RimOutcome,
};

pub(super) fn rim_flag(
    rim: &Option<RimOutcome>,
    read: impl Fn(&RimOutcome) -> Option<bool>,
) -> Option<bool> {
    rim.as_ref().and_then(read)
}

pub(super) fn chain_claim(rim: &Option<RimOutcome>) -> Option<CertChainClaim> {
    rim.as_ref()
        .and_then(|rim| rim.cert_chain.as_ref())
        .map(CertChainClaim::new)
}

/// `…-cert-chain-validated` of claims 1.0 and 2.0.
pub(super) fn chain_valid(outcome: &DeviceOutcome) -> Option<bool> {
    outcome
        .cert_chain
        .as_ref()
        .map(|chain| chain.status == CertStatus::Valid)
}

pub(super) fn mismatches(outcome: &DeviceOutcome) -> Option<Vec<MismatchRecord>> {
    match &outcome.measurements {
        MeasurementOutcome::Mismatch(records) => Some(records.clone()),
        _ => None,
    }
}

/// `x-nvidia-gpu-switch-pdis` from the PDIs of opaque tag 22, as NVIDIA's verifier writes
/// them: each PDI's bytes reversed (the order in which a switch reports its own PDI, so a
/// relying party can match the two), upper-case hex, sorted, without repeats (a GPU lists
/// each switch once per link).
pub fn switch_pdis_claim(pdis: &[[u8; 8]]) -> Vec<String> {
    let unique: BTreeSet<String> = pdis
        .iter()
        .map(|pdi| {
            let mut reversed = *pdi;
            reversed.reverse();
            hex::encode_upper(reversed)
        })
        .collect();
    unique.into_iter().collect()
}

/// The claims GPU claims 2.0, 3.0 and 4.0 share.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GpuCommonClaims {
    /// Token times.
    #[serde(flatten)]
    pub times: TokenTimes,
    /// Identity and evidence checks.
    #[serde(flatten)]
    pub shared: SharedClaims,
    /// Driver RIM checks.
    #[serde(flatten)]
    pub driver_rim: RimClaims,
    /// VBIOS RIM checks.
    #[serde(flatten)]
    pub vbios_rim: RimClaims,
    /// Driver and VBIOS RIMs measure disjoint indexes.
    #[serde(rename = "x-nvidia-gpu-vbios-index-no-conflict")]
    pub vbios_index_no_conflict: Option<bool>,
}

impl GpuCommonClaims {
    /// The shared claims of one GPU.
    pub fn new(outcome: &DeviceOutcome, nonce: &Nonce, times: TokenTimes) -> Self {
        Self {
            times,
            shared: SharedClaims::new(outcome, nonce, &shared::GPU),
            driver_rim: RimClaims::new(outcome.driver_rim.as_ref(), &shared::GPU_DRIVER),
            vbios_rim: RimClaims::new(outcome.firmware_rim.as_ref(), &shared::GPU_VBIOS),
            vbios_index_no_conflict: outcome.index_no_conflict,
        }
    }
}

/// GPU claims 2.0 (V3, and V4 on request): the real service's v3 token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GpuClaimsV2 {
    /// The shared claims.
    #[serde(flatten)]
    pub common: GpuCommonClaims,
    /// The device chain validated.
    #[serde(rename = "x-nvidia-gpu-attestation-report-cert-chain-validated")]
    pub report_cert_chain_validated: Option<bool>,
    /// Driver RIM chain.
    #[serde(rename = "x-nvidia-gpu-driver-rim-cert-validated")]
    pub driver_rim_cert_validated: Option<bool>,
    /// VBIOS RIM chain.
    #[serde(rename = "x-nvidia-gpu-vbios-rim-cert-validated")]
    pub vbios_rim_cert_validated: Option<bool>,
    /// The first failure of a device that failed after its evidence verified (a RIM or an
    /// OCSP answer missing, a RIM chain expired…): its cause and remedy, as in 3.0.
    #[serde(
        rename = "x-nvidia-error-details",
        skip_serializing_if = "Option::is_none"
    )]
    pub error: Option<ErrorDetails>,
}

impl GpuClaimsV2 {
    /// Claims 2.0 of one GPU.
    pub fn new(outcome: &DeviceOutcome, nonce: &Nonce, times: TokenTimes) -> Self {
        Self {
            common: GpuCommonClaims::new(outcome, nonce, times),
            report_cert_chain_validated: chain_valid(outcome),
            driver_rim_cert_validated: rim_flag(&outcome.driver_rim, RimOutcome::cert_validated),
            vbios_rim_cert_validated: rim_flag(&outcome.firmware_rim, RimOutcome::cert_validated),
            error: outcome.error.clone(),
        }
    }
}

/// GPU claims 3.0 (the V4 default): every claim present, null when not computed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GpuClaimsV3 {
    /// The shared claims.
    #[serde(flatten)]
    pub common: GpuCommonClaims,
    /// The device chain's verdict.
    #[serde(rename = "x-nvidia-gpu-attestation-report-cert-chain")]
    pub report_cert_chain: Option<CertChainClaim>,
    /// The evidence FWID equals the leaf's.
    #[serde(rename = "x-nvidia-gpu-attestation-report-cert-chain-fwid-match")]
    pub report_cert_chain_fwid_match: Option<bool>,
    /// Driver RIM signing chain's verdict.
    #[serde(rename = "x-nvidia-gpu-driver-rim-cert-chain")]
    pub driver_rim_cert_chain: Option<CertChainClaim>,
    /// Driver RIM version equals the evidence's.
    #[serde(rename = "x-nvidia-gpu-driver-rim-version-match")]
    pub driver_rim_version_match: Option<bool>,
    /// VBIOS RIM signing chain's verdict.
    #[serde(rename = "x-nvidia-gpu-vbios-rim-cert-chain")]
    pub vbios_rim_cert_chain: Option<CertChainClaim>,
    /// VBIOS RIM version equals the evidence's.
    #[serde(rename = "x-nvidia-gpu-vbios-rim-version-match")]
    pub vbios_rim_version_match: Option<bool>,
    /// The GPU's mode as its evidence signs it (`mpt`, `spt`, `ppcie`, `invalid`), named as
    /// NVIDIA's SDK names it; absent when the evidence has no feature flag.
    #[serde(rename = "x-nvidia-gpu-mode", skip_serializing_if = "Option::is_none")]
    pub mode: Option<&'static str>,
    /// The first failure, when there was one.
    #[serde(
        rename = "x-nvidia-error-details",
        skip_serializing_if = "Option::is_none"
    )]
    pub error: Option<ErrorDetails>,
}

impl GpuClaimsV3 {
    /// Claims 3.0 of one GPU.
    pub fn new(outcome: &DeviceOutcome, nonce: &Nonce, times: TokenTimes) -> Self {
        Self {
            common: GpuCommonClaims::new(outcome, nonce, times),
            report_cert_chain: outcome.cert_chain.as_ref().map(CertChainClaim::new),
            report_cert_chain_fwid_match: outcome.fwid_match,
            driver_rim_cert_chain: chain_claim(&outcome.driver_rim),
            driver_rim_version_match: rim_flag(&outcome.driver_rim, |r| r.version_match),
            vbios_rim_cert_chain: chain_claim(&outcome.firmware_rim),
            vbios_rim_version_match: rim_flag(&outcome.firmware_rim, |r| r.version_match),
            mode: outcome.mode,
            error: outcome.error.clone(),
        }
    }
}

/// GPU claims 4.0: 3.0 plus the measurement and opaque-data mismatch records, the attester
/// claims, the device type and the claims version (NVIDIA attestation SDK, `gpu/claims.cpp`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GpuClaimsV4 {
    /// Everything of 3.0.
    #[serde(flatten)]
    pub base: GpuClaimsV3,
    /// `gpu`.
    #[serde(rename = "x-nvidia-device-type")]
    pub device_type: &'static str,
    /// `4.0`.
    #[serde(rename = "x-nvidia-gpu-claims-version")]
    pub claims_version: &'static str,
    /// Mismatching measurements, or null.
    #[serde(rename = "x-nvidia-mismatch-measurement-records")]
    pub mismatch_measurement_records: Option<Vec<MismatchRecord>>,
    /// Opaque values below their RIM floors, or null when none.
    #[serde(rename = "x-nvidia-mismatch-opaque-data-records")]
    pub mismatch_opaque_data_records: Option<Vec<OpaqueMismatch>>,
    /// Opaque values the RIMs flag for the relying party; always present, maybe `{}`.
    #[serde(rename = "x-nvidia-attester-claims")]
    pub attester_claims: Map<String, serde_json::Value>,
    /// PDIs of the connected switches, when the evidence carries them.
    #[serde(
        rename = "x-nvidia-gpu-switch-pdis",
        skip_serializing_if = "Option::is_none"
    )]
    pub switch_pdis: Option<Vec<String>>,
}

impl GpuClaimsV4 {
    /// Claims 4.0 of one GPU.
    pub fn new(outcome: &DeviceOutcome, nonce: &Nonce, times: TokenTimes) -> Self {
        Self {
            base: GpuClaimsV3::new(outcome, nonce, times),
            device_type: "gpu",
            claims_version: "4.0",
            mismatch_measurement_records: mismatches(outcome),
            mismatch_opaque_data_records: (!outcome.opaque_mismatches.is_empty())
                .then(|| outcome.opaque_mismatches.clone()),
            attester_claims: outcome
                .attester_claims
                .iter()
                .map(|(name, value)| (name.clone(), serde_json::Value::from(*value)))
                .collect(),
            switch_pdis: outcome.switch_pdis.clone(),
        }
    }
}
