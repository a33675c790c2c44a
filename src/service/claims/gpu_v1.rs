//! GPU claims 1.0: the device token of a V2 detached result and the V1 single token.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::common::{measres_v1, TokenTimes};
use super::gpu::{chain_valid, fetched, mismatches, rim_flag};
use crate::attest::Nonce;
use crate::rim::MismatchRecord;
use crate::service::outcome::{DeviceOutcome, ErrorDetails, MeasurementOutcome, RimOutcome};

/// GPU claims 1.0, the device token of a V2 detached result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GpuClaimsV1 {
    /// Token times.
    #[serde(flatten)]
    pub times: TokenTimes,
    /// The request nonce, lowercase hex.
    pub eat_nonce: String,
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
    /// Nonce check (1.0 name).
    #[serde(rename = "x-nvidia-gpu-nonce-match")]
    pub nonce_match: Option<bool>,
    /// Measurement check (1.0 only).
    #[serde(rename = "x-nvidia-gpu-measurements-match")]
    pub measurements_match: bool,
    /// The device chain validated.
    #[serde(rename = "x-nvidia-gpu-attestation-report-cert-chain-validated")]
    pub report_cert_chain_validated: Option<bool>,
    /// Driver RIM found.
    #[serde(rename = "x-nvidia-gpu-driver-rim-schema-fetched")]
    pub driver_rim_schema_fetched: bool,
    /// Driver RIM schema.
    #[serde(rename = "x-nvidia-gpu-driver-rim-schema-validated")]
    pub driver_rim_schema_validated: Option<bool>,
    /// Driver RIM chain.
    #[serde(rename = "x-nvidia-gpu-driver-rim-cert-validated")]
    pub driver_rim_cert_validated: Option<bool>,
    /// Driver RIM signature.
    #[serde(rename = "x-nvidia-gpu-driver-rim-signature-verified")]
    pub driver_rim_signature_verified: Option<bool>,
    /// Driver RIM measurements (the detached 1.0 name; the V1 single token's grouped
    /// result calls it `…-driver-rim-driver-measurements-available`).
    #[serde(rename = "x-nvidia-gpu-driver-rim-measurements-available")]
    pub driver_rim_measurements_available: Option<bool>,
    /// VBIOS RIM found.
    #[serde(rename = "x-nvidia-gpu-vbios-rim-schema-fetched")]
    pub vbios_rim_schema_fetched: bool,
    /// VBIOS RIM schema.
    #[serde(rename = "x-nvidia-gpu-vbios-rim-schema-validated")]
    pub vbios_rim_schema_validated: Option<bool>,
    /// VBIOS RIM chain.
    #[serde(rename = "x-nvidia-gpu-vbios-rim-cert-validated")]
    pub vbios_rim_cert_validated: Option<bool>,
    /// VBIOS RIM signature.
    #[serde(rename = "x-nvidia-gpu-vbios-rim-signature-verified")]
    pub vbios_rim_signature_verified: Option<bool>,
    /// VBIOS RIM measurements.
    #[serde(rename = "x-nvidia-gpu-vbios-rim-measurements-available")]
    pub vbios_rim_measurements_available: Option<bool>,
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
            eat_nonce: nonce.to_hex(),
            measres: measres_v1(outcome.passed()),
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
            nonce_match: outcome.nonce_match,
            measurements_match: matches!(outcome.measurements, MeasurementOutcome::Match),
            report_cert_chain_validated: chain_valid(outcome),
            driver_rim_schema_fetched: fetched(&outcome.driver_rim),
            driver_rim_schema_validated: rim_flag(&outcome.driver_rim, |r| r.schema_validated),
            driver_rim_cert_validated: rim_flag(&outcome.driver_rim, RimOutcome::cert_validated),
            driver_rim_signature_verified: rim_flag(&outcome.driver_rim, |r| r.signature_verified),
            driver_rim_measurements_available: rim_flag(&outcome.driver_rim, |r| {
                r.measurements_available
            }),
            vbios_rim_schema_fetched: fetched(&outcome.firmware_rim),
            vbios_rim_schema_validated: rim_flag(&outcome.firmware_rim, |r| r.schema_validated),
            vbios_rim_cert_validated: rim_flag(&outcome.firmware_rim, RimOutcome::cert_validated),
            vbios_rim_signature_verified: rim_flag(&outcome.firmware_rim, |r| r.signature_verified),
            vbios_rim_measurements_available: rim_flag(&outcome.firmware_rim, |r| {
                r.measurements_available
            }),
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
    /// Driver RIM found.
    #[serde(rename = "x-nvidia-gpu-driver-rim-schema-fetched")]
    pub driver_rim_schema_fetched: bool,
    /// Driver RIM schema.
    #[serde(rename = "x-nvidia-gpu-driver-rim-schema-validated")]
    pub driver_rim_schema_validated: Option<bool>,
    /// Driver RIM chain.
    #[serde(rename = "x-nvidia-gpu-driver-rim-cert-validated")]
    pub driver_rim_cert_validated: Option<bool>,
    /// Driver RIM signature.
    #[serde(rename = "x-nvidia-gpu-driver-rim-signature-verified")]
    pub driver_rim_signature_verified: Option<bool>,
    /// Driver RIM measurements.
    #[serde(rename = "x-nvidia-gpu-driver-rim-driver-measurements-available")]
    pub driver_rim_measurements_available: Option<bool>,
    /// VBIOS RIM found.
    #[serde(rename = "x-nvidia-gpu-vbios-rim-schema-fetched")]
    pub vbios_rim_schema_fetched: bool,
    /// VBIOS RIM schema.
    #[serde(rename = "x-nvidia-gpu-vbios-rim-schema-validated")]
    pub vbios_rim_schema_validated: Option<bool>,
    /// VBIOS RIM chain.
    #[serde(rename = "x-nvidia-gpu-vbios-rim-cert-validated")]
    pub vbios_rim_cert_validated: Option<bool>,
    /// VBIOS RIM signature.
    #[serde(rename = "x-nvidia-gpu-vbios-rim-signature-verified")]
    pub vbios_rim_signature_verified: Option<bool>,
    /// VBIOS RIM measurements.
    #[serde(rename = "x-nvidia-gpu-vbios-rim-measurements-available")]
    pub vbios_rim_measurements_available: Option<bool>,
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
                arch_check: flat.arch_check,
                report_parsed: flat.report_parsed,
                report_signature_verified: flat.report_signature_verified,
                nonce_match: flat.nonce_match,
                measurements_match: flat.measurements_match,
                report_cert_chain_validated: flat.report_cert_chain_validated,
                driver_rim_schema_fetched: flat.driver_rim_schema_fetched,
                driver_rim_schema_validated: flat.driver_rim_schema_validated,
                driver_rim_cert_validated: flat.driver_rim_cert_validated,
                driver_rim_signature_verified: flat.driver_rim_signature_verified,
                driver_rim_measurements_available: flat.driver_rim_measurements_available,
                vbios_rim_schema_fetched: flat.vbios_rim_schema_fetched,
                vbios_rim_schema_validated: flat.vbios_rim_schema_validated,
                vbios_rim_cert_validated: flat.vbios_rim_cert_validated,
                vbios_rim_signature_verified: flat.vbios_rim_signature_verified,
                vbios_rim_measurements_available: flat.vbios_rim_measurements_available,
            },
            times: flat.times,
            eat_nonce: flat.eat_nonce,
            measres: flat.measres,
            secboot: flat.secboot,
            dbgstat: flat.dbgstat,
            hwmodel: flat.hwmodel,
            oemid: flat.oemid,
            ueid: flat.ueid,
            driver_version: flat.driver_version,
            vbios_version: flat.vbios_version,
            warning: flat.warning,
            mismatch_measurement_records: flat.mismatch_measurement_records,
            mismatch_indexes: flat.mismatch_indexes,
            error: outcome.error.clone(),
        }
    }
}
