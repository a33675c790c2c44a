//! Switch device claims, versions 1.0 to 4.0.
//! The switch's firmware RIM is its BIOS RIM; switches have no driver RIM.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::common::{CertChainClaim, TokenTimes};
use super::gpu::chain_valid;
use super::shared::{self, RimClaims, SharedClaims};
use crate::attest::Nonce;
use crate::service::codes::REVOCATION_WARNING;
use crate::service::outcome::{DeviceOutcome, ErrorDetails, MeasurementOutcome, RimOutcome};

fn bios<T>(outcome: &DeviceOutcome, read: impl Fn(&RimOutcome) -> Option<T>) -> Option<T> {
    outcome.firmware_rim.as_ref().and_then(read)
}

/// `x-nvidia-attestation-warning` of switch claims 1.0 and 2.0, which NVIDIA's service does
/// not write: present only when revocation was not checked (no responder), so that every
/// token says so and a relying party does not read the chain as confirmed.
fn revocation_warning(outcome: &DeviceOutcome) -> Option<String> {
    outcome
        .warning
        .as_deref()
        .filter(|warning| warning.contains(REVOCATION_WARNING))
        .map(|_| REVOCATION_WARNING.into())
}

/// Switch claims 1.0 (V2 detached), with the 1.0 `vbios` names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SwitchClaimsV1 {
    /// Token times.
    #[serde(flatten)]
    pub times: TokenTimes,
    /// Identity and evidence checks (1.0 names).
    #[serde(flatten)]
    pub shared: SharedClaims,
    /// The device chain validated.
    #[serde(rename = "x-nvidia-switch-attestation-report-cert-chain-validated")]
    pub report_cert_chain_validated: Option<bool>,
    /// Measurements check.
    #[serde(rename = "x-nvidia-switch-measurements-match")]
    pub measurements_match: bool,
    /// BIOS RIM checks, with the chain's.
    #[serde(flatten)]
    pub rim: RimClaims,
    /// The revocation warning, only when revocation was not checked.
    #[serde(
        rename = "x-nvidia-attestation-warning",
        skip_serializing_if = "Option::is_none"
    )]
    pub revocation_warning: Option<String>,
}

impl SwitchClaimsV1 {
    /// Claims 1.0 of one switch.
    pub fn new(outcome: &DeviceOutcome, nonce: &Nonce, times: TokenTimes) -> Self {
        Self {
            times,
            shared: SharedClaims::new(outcome, nonce, &shared::SWITCH_1_0),
            report_cert_chain_validated: chain_valid(outcome),
            measurements_match: matches!(outcome.measurements, MeasurementOutcome::Match),
            rim: RimClaims::new(outcome.firmware_rim.as_ref(), &shared::SWITCH_BIOS_1_0),
            revocation_warning: revocation_warning(outcome),
        }
    }
}

/// The claims switch claims 2.0 and 3.0 share.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SwitchCommonClaims {
    /// Token times.
    #[serde(flatten)]
    pub times: TokenTimes,
    /// Identity and evidence checks.
    #[serde(flatten)]
    pub shared: SharedClaims,
    /// BIOS RIM checks.
    #[serde(flatten)]
    pub rim: RimClaims,
}

impl SwitchCommonClaims {
    /// The shared claims of one switch.
    pub fn new(outcome: &DeviceOutcome, nonce: &Nonce, times: TokenTimes) -> Self {
        Self {
            times,
            shared: SharedClaims::new(outcome, nonce, &shared::SWITCH),
            rim: RimClaims::new(outcome.firmware_rim.as_ref(), &shared::SWITCH_BIOS),
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
    /// The revocation warning, only when revocation was not checked.
    #[serde(
        rename = "x-nvidia-attestation-warning",
        skip_serializing_if = "Option::is_none"
    )]
    pub revocation_warning: Option<String>,
    /// The first failure of a switch that failed after its evidence verified: its cause and
    /// remedy, as in 3.0.
    #[serde(
        rename = "x-nvidia-error-details",
        skip_serializing_if = "Option::is_none"
    )]
    pub error: Option<ErrorDetails>,
}

impl SwitchClaimsV2 {
    /// Claims 2.0 of one switch.
    pub fn new(outcome: &DeviceOutcome, nonce: &Nonce, times: TokenTimes) -> Self {
        Self {
            common: SwitchCommonClaims::new(outcome, nonce, times),
            report_cert_chain_validated: chain_valid(outcome),
            rim_cert_validated: bios(outcome, RimOutcome::cert_validated),
            revocation_warning: revocation_warning(outcome),
            error: outcome.error.clone(),
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
    /// The switch's own PDI, when the evidence carries it: NVIDIA's SDK writes it in its
    /// switch claims 3.0 for the protected-PCIe topology (the recorded service token, from a
    /// switch without it, has none).
    #[serde(
        rename = "x-nvidia-switch-pdi",
        skip_serializing_if = "Option::is_none"
    )]
    pub switch_pdi: Option<String>,
    /// The PDIs of the GPUs it is linked to, when the evidence carries them (NVIDIA's SDK).
    #[serde(
        rename = "x-nvidia-switch-gpu-pdis",
        skip_serializing_if = "Option::is_none"
    )]
    pub switch_gpu_pdis: Option<Vec<String>>,
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
            switch_pdi: outcome.switch_pdi.clone(),
            switch_gpu_pdis: outcome.switch_gpu_pdis.clone(),
            error: outcome.error.clone(),
        }
    }
}

/// `x-nvidia-switch-pdi`: the switch's own PDI (opaque tag 22) as NVAT writes it,
/// upper-case hex in stored order — the order of the GPUs' `x-nvidia-gpu-switch-pdis`.
pub fn switch_pdi_claim(pdi: &[u8; 8]) -> String {
    hex::encode_upper(pdi)
}

/// `x-nvidia-switch-gpu-pdis`: the PDIs of the GPUs the switch is linked to (opaque tag 26)
/// as NVAT writes them: upper-case hex in stored order, sorted, without repeats.
pub fn switch_gpu_pdis_claim(pdis: &[[u8; 8]]) -> Vec<String> {
    let unique: BTreeSet<String> = pdis.iter().map(hex::encode_upper).collect();
    unique.into_iter().collect()
}
