//! GPU device claims, versions 1.0 to 4.0 (notes: attestation §e, "Per-device GPU claims").

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::Map;

use super::common::{measres, CertChainClaim, TokenTimes};
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

pub(super) fn fetched(rim: &Option<RimOutcome>) -> bool {
    rim.as_ref().is_some_and(|rim| rim.fetched)
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

/// The claims GPU claims 2.0, 3.0 and 4.0 share (notes: attestation §e).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GpuCommonClaims {
    /// Token times.
    #[serde(flatten)]
    pub times: TokenTimes,
    /// The request nonce.
    pub eat_nonce: String,
    /// `success` or `fail`.
    pub measres: &'static str,
    /// Secure boot: true only on success.
    pub secboot: Option<bool>,
    /// Debug status: `disabled` only on success.
    pub dbgstat: Option<String>,
    /// Hardware model.
    pub hwmodel: Option<String>,
    /// OEM id.
    pub oemid: Option<String>,
    /// Leaf serial number, decimal.
    pub ueid: Option<String>,
    /// Arch check.
    #[serde(rename = "x-nvidia-gpu-arch-check")]
    pub arch_check: bool,
    /// Driver version.
    #[serde(rename = "x-nvidia-gpu-driver-version")]
    pub driver_version: Option<String>,
    /// VBIOS version.
    #[serde(rename = "x-nvidia-gpu-vbios-version")]
    pub vbios_version: Option<String>,
    /// Warning.
    #[serde(rename = "x-nvidia-attestation-warning")]
    pub warning: Option<String>,
    /// The evidence parsed.
    #[serde(rename = "x-nvidia-gpu-attestation-report-parsed")]
    pub report_parsed: bool,
    /// The evidence signature verified.
    #[serde(rename = "x-nvidia-gpu-attestation-report-signature-verified")]
    pub report_signature_verified: Option<bool>,
    /// Nonce check.
    #[serde(rename = "x-nvidia-gpu-attestation-report-nonce-match")]
    pub report_nonce_match: Option<bool>,
    /// Driver RIM found.
    #[serde(rename = "x-nvidia-gpu-driver-rim-fetched")]
    pub driver_rim_fetched: bool,
    /// Driver RIM schema.
    #[serde(rename = "x-nvidia-gpu-driver-rim-schema-validated")]
    pub driver_rim_schema_validated: Option<bool>,
    /// Driver RIM signature.
    #[serde(rename = "x-nvidia-gpu-driver-rim-signature-verified")]
    pub driver_rim_signature_verified: Option<bool>,
    /// Driver RIM measurements.
    #[serde(rename = "x-nvidia-gpu-driver-rim-measurements-available")]
    pub driver_rim_measurements_available: Option<bool>,
    /// VBIOS RIM found.
    #[serde(rename = "x-nvidia-gpu-vbios-rim-fetched")]
    pub vbios_rim_fetched: bool,
    /// VBIOS RIM schema.
    #[serde(rename = "x-nvidia-gpu-vbios-rim-schema-validated")]
    pub vbios_rim_schema_validated: Option<bool>,
    /// VBIOS RIM signature.
    #[serde(rename = "x-nvidia-gpu-vbios-rim-signature-verified")]
    pub vbios_rim_signature_verified: Option<bool>,
    /// VBIOS RIM measurements.
    #[serde(rename = "x-nvidia-gpu-vbios-rim-measurements-available")]
    pub vbios_rim_measurements_available: Option<bool>,
    /// Driver and VBIOS RIMs measure disjoint indexes.
    #[serde(rename = "x-nvidia-gpu-vbios-index-no-conflict")]
    pub vbios_index_no_conflict: Option<bool>,
}

impl GpuCommonClaims {
    /// The shared claims of one GPU.
    pub fn new(outcome: &DeviceOutcome, nonce: &Nonce, times: TokenTimes) -> Self {
        Self {
            times,
            eat_nonce: nonce.to_hex(),
            measres: measres(outcome.passed()),
            secboot: outcome.secure_boot,
            dbgstat: outcome.debug_status.clone(),
            hwmodel: outcome.hwmodel.clone(),
            oemid: outcome.oemid.clone(),
            ueid: outcome.ueid.clone(),
            arch_check: outcome.arch_check,
            driver_version: outcome.driver_version.clone(),
            vbios_version: outcome.firmware_version.clone(),
            warning: outcome.warning.clone(),
            report_parsed: outcome.report_parsed,
            report_signature_verified: outcome.signature_verified,
            report_nonce_match: outcome.nonce_match,
            driver_rim_fetched: fetched(&outcome.driver_rim),
            driver_rim_schema_validated: rim_flag(&outcome.driver_rim, |r| r.schema_validated),
            driver_rim_signature_verified: rim_flag(&outcome.driver_rim, |r| r.signature_verified),
            driver_rim_measurements_available: rim_flag(&outcome.driver_rim, |r| {
                r.measurements_available
            }),
            vbios_rim_fetched: fetched(&outcome.firmware_rim),
            vbios_rim_schema_validated: rim_flag(&outcome.firmware_rim, |r| r.schema_validated),
            vbios_rim_signature_verified: rim_flag(&outcome.firmware_rim, |r| r.signature_verified),
            vbios_rim_measurements_available: rim_flag(&outcome.firmware_rim, |r| {
                r.measurements_available
            }),
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
}

impl GpuClaimsV2 {
    /// Claims 2.0 of one GPU.
    pub fn new(outcome: &DeviceOutcome, nonce: &Nonce, times: TokenTimes) -> Self {
        Self {
            common: GpuCommonClaims::new(outcome, nonce, times),
            report_cert_chain_validated: chain_valid(outcome),
            driver_rim_cert_validated: rim_flag(&outcome.driver_rim, RimOutcome::cert_validated),
            vbios_rim_cert_validated: rim_flag(&outcome.firmware_rim, RimOutcome::cert_validated),
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
