//! Switch device claims, versions 1.0 to 3.0 (notes: attestation §e, "Per-device switch
//! claims"). The switch's firmware RIM is its BIOS RIM; switches have no driver RIM.

use alloc::string::String;

use serde::Serialize;

use super::common::{measres, measres_v1, CertChainClaim, TokenTimes};
use crate::attest::Nonce;
use crate::service::outcome::{
    CertStatus, DeviceOutcome, ErrorDetails, MeasurementOutcome, RimOutcome,
};

fn bios<T>(outcome: &DeviceOutcome, read: impl Fn(&RimOutcome) -> Option<T>) -> Option<T> {
    outcome.firmware_rim.as_ref().and_then(read)
}

fn bios_fetched(outcome: &DeviceOutcome) -> bool {
    outcome.firmware_rim.as_ref().is_some_and(|rim| rim.fetched)
}

fn chain_valid(outcome: &DeviceOutcome) -> Option<bool> {
    outcome
        .cert_chain
        .as_ref()
        .map(|chain| chain.status == CertStatus::Valid)
}

/// Switch claims 1.0 (V2 detached), with the 1.0 `vbios` names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SwitchClaimsV1 {
    /// Token times.
    #[serde(flatten)]
    pub times: TokenTimes,
    /// The request nonce.
    pub eat_nonce: String,
    /// `comparison-successful` or `comparison-fail`.
    pub measres: &'static str,
    /// Secure boot.
    pub secboot: Option<bool>,
    /// Debug status.
    pub dbgstat: Option<String>,
    /// Hardware model.
    pub hwmodel: Option<String>,
    /// Leaf serial number, decimal.
    pub ueid: Option<String>,
    /// Arch check.
    #[serde(rename = "x-nvidia-switch-arch-check")]
    pub arch_check: bool,
    /// BIOS version.
    #[serde(rename = "x-nvidia-switch-bios-version")]
    pub bios_version: Option<String>,
    /// The evidence parsed.
    #[serde(rename = "x-nvidia-switch-attestation-report-parsed")]
    pub report_parsed: bool,
    /// The evidence signature verified.
    #[serde(rename = "x-nvidia-switch-attestation-report-signature-verified")]
    pub report_signature_verified: Option<bool>,
    /// Nonce check (1.0 name).
    #[serde(rename = "x-nvidia-switch-nonce-match")]
    pub nonce_match: Option<bool>,
    /// The device chain validated.
    #[serde(rename = "x-nvidia-switch-attestation-report-cert-chain-validated")]
    pub report_cert_chain_validated: Option<bool>,
    /// Measurements check.
    #[serde(rename = "x-nvidia-switch-measurements-match")]
    pub measurements_match: bool,
    /// BIOS RIM found.
    #[serde(rename = "x-nvidia-switch-vbios-rim-schema-fetched")]
    pub rim_schema_fetched: bool,
    /// BIOS RIM schema.
    #[serde(rename = "x-nvidia-switch-vbios-rim-schema-validated")]
    pub rim_schema_validated: Option<bool>,
    /// BIOS RIM chain.
    #[serde(rename = "x-nvidia-switch-vbios-rim-cert-validated")]
    pub rim_cert_validated: Option<bool>,
    /// BIOS RIM signature.
    #[serde(rename = "x-nvidia-switch-vbios-rim-signature-verified")]
    pub rim_signature_verified: Option<bool>,
    /// BIOS RIM measurements.
    #[serde(rename = "x-nvidia-switch-vbios-rim-measurements-available")]
    pub rim_measurements_available: Option<bool>,
}

impl SwitchClaimsV1 {
    /// Claims 1.0 of one switch.
    pub fn new(outcome: &DeviceOutcome, nonce: &Nonce, times: TokenTimes) -> Self {
        Self {
            times,
            eat_nonce: nonce.to_hex(),
            measres: measres_v1(outcome.passed()),
            secboot: outcome.secure_boot,
            dbgstat: outcome.debug_status.clone(),
            hwmodel: outcome.hwmodel.clone(),
            ueid: outcome.ueid.clone(),
            arch_check: outcome.arch_check,
            bios_version: outcome.firmware_version.clone(),
            report_parsed: outcome.report_parsed,
            report_signature_verified: outcome.signature_verified,
            nonce_match: outcome.nonce_match,
            report_cert_chain_validated: chain_valid(outcome),
            measurements_match: matches!(outcome.measurements, MeasurementOutcome::Match),
            rim_schema_fetched: bios_fetched(outcome),
            rim_schema_validated: bios(outcome, |r| r.schema_validated),
            rim_cert_validated: bios(outcome, RimOutcome::cert_validated),
            rim_signature_verified: bios(outcome, |r| r.signature_verified),
            rim_measurements_available: bios(outcome, |r| r.measurements_available),
        }
    }
}

/// The claims switch claims 2.0 and 3.0 share.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SwitchCommonClaims {
    /// Token times.
    #[serde(flatten)]
    pub times: TokenTimes,
    /// The request nonce.
    pub eat_nonce: String,
    /// `success` or `fail`.
    pub measres: &'static str,
    /// Secure boot.
    pub secboot: Option<bool>,
    /// Debug status.
    pub dbgstat: Option<String>,
    /// Hardware model.
    pub hwmodel: Option<String>,
    /// Leaf serial number, decimal.
    pub ueid: Option<String>,
    /// Arch check.
    #[serde(rename = "x-nvidia-switch-arch-check")]
    pub arch_check: bool,
    /// BIOS version.
    #[serde(rename = "x-nvidia-switch-bios-version")]
    pub bios_version: Option<String>,
    /// The evidence parsed.
    #[serde(rename = "x-nvidia-switch-attestation-report-parsed")]
    pub report_parsed: bool,
    /// The evidence signature verified.
    #[serde(rename = "x-nvidia-switch-attestation-report-signature-verified")]
    pub report_signature_verified: Option<bool>,
    /// Nonce check.
    #[serde(rename = "x-nvidia-switch-attestation-report-nonce-match")]
    pub report_nonce_match: Option<bool>,
    /// BIOS RIM found.
    #[serde(rename = "x-nvidia-switch-bios-rim-fetched")]
    pub rim_fetched: bool,
    /// BIOS RIM schema.
    #[serde(rename = "x-nvidia-switch-bios-rim-schema-validated")]
    pub rim_schema_validated: Option<bool>,
    /// BIOS RIM signature.
    #[serde(rename = "x-nvidia-switch-bios-rim-signature-verified")]
    pub rim_signature_verified: Option<bool>,
    /// BIOS RIM measurements.
    #[serde(rename = "x-nvidia-switch-bios-rim-measurements-available")]
    pub rim_measurements_available: Option<bool>,
}

impl SwitchCommonClaims {
    /// The shared claims of one switch.
    pub fn new(outcome: &DeviceOutcome, nonce: &Nonce, times: TokenTimes) -> Self {
        Self {
            times,
            eat_nonce: nonce.to_hex(),
            measres: measres(outcome.passed()),
            secboot: outcome.secure_boot,
            dbgstat: outcome.debug_status.clone(),
            hwmodel: outcome.hwmodel.clone(),
            ueid: outcome.ueid.clone(),
            arch_check: outcome.arch_check,
            bios_version: outcome.firmware_version.clone(),
            report_parsed: outcome.report_parsed,
            report_signature_verified: outcome.signature_verified,
            report_nonce_match: outcome.nonce_match,
            rim_fetched: bios_fetched(outcome),
            rim_schema_validated: bios(outcome, |r| r.schema_validated),
            rim_signature_verified: bios(outcome, |r| r.signature_verified),
            rim_measurements_available: bios(outcome, |r| r.measurements_available),
        }
    }
}

/// Switch claims 2.0 (V3, and V4 on request).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SwitchClaimsV2 {
    /// The shared claims.
    #[serde(flatten)]
    pub common: SwitchCommonClaims,
    /// The device chain validated.
    #[serde(rename = "x-nvidia-switch-attestation-report-cert-chain-validated")]
    pub report_cert_chain_validated: Option<bool>,
    /// BIOS RIM chain.
    #[serde(rename = "x-nvidia-switch-bios-rim-cert-validated")]
    pub rim_cert_validated: Option<bool>,
}

impl SwitchClaimsV2 {
    /// Claims 2.0 of one switch.
    pub fn new(outcome: &DeviceOutcome, nonce: &Nonce, times: TokenTimes) -> Self {
        Self {
            common: SwitchCommonClaims::new(outcome, nonce, times),
            report_cert_chain_validated: chain_valid(outcome),
            rim_cert_validated: bios(outcome, RimOutcome::cert_validated),
        }
    }
}

/// Switch claims 3.0 (the V4 default): the real staging token's claim set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SwitchClaimsV3 {
    /// The shared claims.
    #[serde(flatten)]
    pub common: SwitchCommonClaims,
    /// Always null for switches, as the real service.
    pub oemid: Option<String>,
    /// Warning.
    #[serde(rename = "x-nvidia-attestation-warning")]
    pub warning: Option<String>,
    /// The device chain's verdict.
    #[serde(rename = "x-nvidia-switch-attestation-report-cert-chain")]
    pub report_cert_chain: Option<CertChainClaim>,
    /// FWID check (passes when the evidence has no FWID, as the real service).
    #[serde(rename = "x-nvidia-switch-attestation-report-cert-chain-fwid-match")]
    pub report_cert_chain_fwid_match: Option<bool>,
    /// BIOS RIM signing chain's verdict.
    #[serde(rename = "x-nvidia-switch-bios-rim-cert-chain")]
    pub rim_cert_chain: Option<CertChainClaim>,
    /// BIOS RIM version equals the evidence's.
    #[serde(rename = "x-nvidia-switch-bios-rim-version-match")]
    pub rim_version_match: Option<bool>,
    /// The first failure, when there was one.
    #[serde(
        rename = "x-nvidia-error-details",
        skip_serializing_if = "Option::is_none"
    )]
    pub error: Option<ErrorDetails>,
}

impl SwitchClaimsV3 {
    /// Claims 3.0 of one switch.
    pub fn new(outcome: &DeviceOutcome, nonce: &Nonce, times: TokenTimes) -> Self {
        Self {
            common: SwitchCommonClaims::new(outcome, nonce, times),
            oemid: None,
            warning: outcome.warning.clone(),
            report_cert_chain: outcome.cert_chain.as_ref().map(CertChainClaim::new),
            report_cert_chain_fwid_match: outcome.fwid_match,
            rim_cert_chain: outcome
                .firmware_rim
                .as_ref()
                .and_then(|r| r.cert_chain.as_ref())
                .map(CertChainClaim::new),
            rim_version_match: bios(outcome, |r| r.version_match),
            error: outcome.error.clone(),
        }
    }
}
