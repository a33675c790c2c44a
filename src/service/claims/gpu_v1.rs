//! GPU claims 1.0: the device token of a V2 detached result and the V1 single token.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::common::TokenTimes;
use super::gpu::{chain_valid, mismatches};
use super::shared::{self, RimClaims, SharedClaims};
use crate::attest::Nonce;
use crate::rim::MismatchRecord;
use crate::service::outcome::{DeviceOutcome, ErrorDetails, MeasurementOutcome};

/// GPU claims 1.0, the device token of a V2 detached result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GpuClaimsV1 {
    /// Token times.
    #[serde(flatten)]
    pub times: TokenTimes,
    /// Identity and evidence checks (1.0 names).
    #[serde(flatten)]
    pub shared: SharedClaims,
    /// Measurement check (1.0 only).
    #[serde(rename = "x-nvidia-gpu-measurements-match")]
    pub measurements_match: bool,
    /// The device chain validated.
    #[serde(rename = "x-nvidia-gpu-attestation-report-cert-chain-validated")]
    pub report_cert_chain_validated: Option<bool>,
    /// Driver RIM checks, with the chain's (the detached 1.0 names; the V1 single token's
    /// grouped result calls its measurements `…-driver-rim-driver-measurements-available`).
    #[serde(flatten)]
    pub driver_rim: RimClaims,
    /// VBIOS RIM checks, with the chain's.
    #[serde(flatten)]
    pub vbios_rim: RimClaims,
    /// Mismatching measurements, or null.
    #[serde(rename = "x-nvidia-mismatch-measurement-records")]
    pub mismatch_measurement_records: Option<Vec<MismatchRecord>>,
    /// The RIM indexes that mismatched, or null.
    #[serde(rename = "x-nvidia-mismatch-indexes")]
    pub mismatch_indexes: Option<Vec<u32>>,
}

impl GpuClaimsV1 {
    /// Claims 1.0 of one GPU.
    pub fn new(outcome: &DeviceOutcome, nonce: &Nonce, times: TokenTimes) -> Self {
        let records = mismatches(outcome);
        Self {
            times,
            shared: SharedClaims::new(outcome, nonce, &shared::GPU_1_0),
            measurements_match: matches!(outcome.measurements, MeasurementOutcome::Match),
            report_cert_chain_validated: chain_valid(outcome),
            driver_rim: RimClaims::new(outcome.driver_rim.as_ref(), &shared::GPU_DRIVER_1_0),
            vbios_rim: RimClaims::new(outcome.firmware_rim.as_ref(), &shared::GPU_VBIOS_1_0),
            mismatch_indexes: records
                .as_ref()
                .map(|r| r.iter().map(|m| m.index).collect()),
            mismatch_measurement_records: records,
        }
    }
}

/// The boolean checks of the V1 single token, grouped as the real service groups them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GpuDetailedResultV1 {
    /// Arch check.
    #[serde(rename = "x-nvidia-gpu-arch-check")]
    pub arch_check: bool,
    /// The evidence parsed.
    #[serde(rename = "x-nvidia-gpu-attestation-report-parsed")]
    pub report_parsed: bool,
    /// The evidence signature verified.
    #[serde(rename = "x-nvidia-gpu-attestation-report-signature-verified")]
    pub report_signature_verified: Option<bool>,
    /// Nonce check.
    #[serde(rename = "x-nvidia-gpu-nonce-match")]
    pub nonce_match: Option<bool>,
    /// Measurements check.
    #[serde(rename = "x-nvidia-gpu-measurements-match")]
    pub measurements_match: bool,
    /// The device chain validated.
    #[serde(rename = "x-nvidia-gpu-attestation-report-cert-chain-validated")]
    pub report_cert_chain_validated: Option<bool>,
    /// Driver RIM checks (grouped names).
    #[serde(flatten)]
    pub driver_rim: RimClaims,
    /// VBIOS RIM checks.
    #[serde(flatten)]
    pub vbios_rim: RimClaims,
}

/// The V1 single token (`{"eat": jwt}`): claims 1.0 with the checks grouped, plus `sub`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GpuSingleTokenV1 {
    /// `NVIDIA-GPU-ATTESTATION`.
    pub sub: &'static str,
    /// Token times.
    #[serde(flatten)]
    pub times: TokenTimes,
    /// `1.0`.
    #[serde(rename = "x-nvidia-ver")]
    pub ver: &'static str,
    /// `EAT-21`, the EAT draft the 1.0 claims follow.
    #[serde(rename = "x-nvidia-eat-ver")]
    pub eat_ver: &'static str,
    /// The request nonce.
    pub eat_nonce: String,
    /// Overall result of the device.
    #[serde(rename = "x-nvidia-overall-att-result")]
    pub overall_result: bool,
    /// `comparison-successful` or `comparison-fail`.
    pub measres: &'static str,
    /// Secure boot.
    pub secboot: Option<bool>,
    /// Debug status.
    pub dbgstat: Option<String>,
    /// Hardware model.
    pub hwmodel: Option<String>,
    /// OEM id.
    pub oemid: Option<String>,
    /// Leaf serial number, decimal.
    pub ueid: Option<String>,
    /// `NVIDIA Corporation`.
    #[serde(rename = "x-nvidia-gpu-manufacturer")]
    pub manufacturer: &'static str,
    /// `GPU`.
    #[serde(rename = "x-nvidia-attestation-type")]
    pub attestation_type: &'static str,
    /// Driver version.
    #[serde(rename = "x-nvidia-gpu-driver-version")]
    pub driver_version: Option<String>,
    /// VBIOS version.
    #[serde(rename = "x-nvidia-gpu-vbios-version")]
    pub vbios_version: Option<String>,
    /// Warning.
    #[serde(rename = "x-nvidia-attestation-warning")]
    pub warning: Option<String>,
    /// Mismatching measurements, or null.
    #[serde(rename = "x-nvidia-mismatch-measurement-records")]
    pub mismatch_measurement_records: Option<Vec<MismatchRecord>>,
    /// The RIM indexes that mismatched, or null.
    #[serde(rename = "x-nvidia-mismatch-indexes")]
    pub mismatch_indexes: Option<Vec<u32>>,
    /// The checks.
    #[serde(rename = "x-nvidia-attestation-detailed-result")]
    pub detailed_result: GpuDetailedResultV1,
    /// The first failure, when there was one.
    #[serde(
        rename = "x-nvidia-error-details",
        skip_serializing_if = "Option::is_none"
    )]
    pub error: Option<ErrorDetails>,
}

impl GpuSingleTokenV1 {
    /// The V1 token of one GPU.
    pub fn new(outcome: &DeviceOutcome, nonce: &Nonce, times: TokenTimes) -> Self {
        let flat = GpuClaimsV1::new(outcome, nonce, times);
        Self {
            sub: "NVIDIA-GPU-ATTESTATION",
            ver: "1.0",
            eat_ver: "EAT-21",
            overall_result: outcome.passed(),
            manufacturer: "NVIDIA Corporation",
            attestation_type: "GPU",
            detailed_result: GpuDetailedResultV1 {
                arch_check: flat.shared.arch_check,
                report_parsed: flat.shared.report_parsed,
                report_signature_verified: flat.shared.report_signature_verified,
                nonce_match: flat.shared.nonce_match,
                measurements_match: flat.measurements_match,
                report_cert_chain_validated: flat.report_cert_chain_validated,
                driver_rim: flat.driver_rim.named(&shared::GPU_DRIVER_1_0_GROUPED),
                vbios_rim: flat.vbios_rim,
            },
            times: flat.times,
            eat_nonce: flat.shared.eat_nonce,
            measres: flat.shared.measres,
            secboot: flat.shared.secboot,
            dbgstat: flat.shared.dbgstat,
            hwmodel: flat.shared.hwmodel,
            oemid: flat.shared.oemid,
            ueid: flat.shared.ueid,
            driver_version: flat.shared.driver_version,
            vbios_version: flat.shared.firmware_version,
            warning: flat.shared.warning,
            mismatch_measurement_records: flat.mismatch_measurement_records,
            mismatch_indexes: flat.mismatch_indexes,
            error: outcome.error.clone(),
        }
    }
}
