//! One device's verification report: every check in the order the service runs it, each
//! passed, failed, not checked or not applicable, with the first failure's stable code and
//! one overall verdict. The page and every JS caller render this; they decide nothing.
//!
//! The rules that pick the RIMs and the comparison for a device ([`device_rims`],
//! [`compare_device`]) are the service's own: `service::device` calls them too.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use super::report::EvidenceReport;
use super::report_stages::{
    chain_time, comparison_stages, evidence_stage, revocation_stage, rim_stage, Builder,
    EVIDENCE_STAGES,
};
use super::verify::{FailedEvidence, FwidCheck, VerifiedEvidence};
use super::VerifyError;
use crate::attest::RimPath;
use crate::error_code::ErrorCode;
use crate::rim::{
    compare_gpu, compare_gpu_firmware, compare_switch, driver_rim_id, firmware_rim_id_of,
    CompareError, Comparison, RimDocument, RimError, RuntimeEvidence, VerifiedRim,
};
use crate::time::UnixTime;

/// A RIM the device needs was not given (service 5009 `RIM_BUNDLE_NOT_FOUND`).
pub const ERR_RIM_NOT_AVAILABLE: &str = "ERR_RIM_NOT_AVAILABLE";
/// Active golden measurements differ from the evidence (`measres` `fail`).
pub const ERR_MEASUREMENT_MISMATCH: &str = "ERR_MEASUREMENT_MISMATCH";
/// A RIM's version is not the evidence's (service 5015).
pub const ERR_RIM_VERSION_MISMATCH: &str = "ERR_RIM_VERSION_MISMATCH";
/// An opaque value is below a RIM's minimum SVN.
pub const ERR_OPAQUE_BELOW_MINIMUM: &str = "ERR_OPAQUE_BELOW_MINIMUM";
/// A certificate of the device chain is revoked.
pub const ERR_CERT_REVOKED: &str = "ERR_CERT_REVOKED";
/// The OCSP responder does not know a certificate of the device chain.
pub const ERR_CERT_REVOCATION_UNKNOWN: &str = "ERR_CERT_REVOCATION_UNKNOWN";
/// No revocation answer could be had or checked (the code the OCSP module uses for it).
pub const ERR_OCSP_UNAVAILABLE: &str = "ERR_OCSP_UNAVAILABLE";

/// A check's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum StageStatus {
    /// The check ran and passed.
    Passed,
    /// The check ran and failed.
    Failed,
    /// The check applies but did not run (an earlier failure, or an input not given).
    NotChecked,
    /// The check does not apply to this device (a switch has no driver RIM).
    NotApplicable,
}

/// The overall verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Every check that applies ran and passed.
    Passed,
    /// A check failed.
    Failed,
    /// Nothing failed, but something that applies was not checked (revocation, an FWID the
    /// evidence lacks, the driver measurements of FSP evidence).
    Partial,
}

/// Which check a stage is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum StageId {
    /// The SPDM transcript parsed.
    EvidenceParsed,
    /// The device chain validated to the anchors and is valid now.
    CertificateChain,
    /// The transcript signature verified with the leaf key.
    EvidenceSignature,
    /// The transcript's nonce is the caller's.
    Nonce,
    /// The chain names the requested architecture and a known firmware profile.
    Architecture,
    /// The opaque data values are well formed.
    OpaqueData,
    /// The evidence FWID equals the leaf certificate's.
    Fwid,
    /// The evidence carries the driver version its profile requires.
    DriverVersion,
    /// Revocation (OCSP) of the device chain.
    Revocation,
    /// The driver RIM: available, signature, signer chain.
    DriverRim,
    /// The firmware (VBIOS / switch BIOS) RIM.
    FirmwareRim,
    /// The measurements against the RIMs.
    Measurements,
    /// The driver RIM's version against the evidence's.
    DriverRimVersion,
    /// The firmware RIM's version against the evidence's.
    FirmwareRimVersion,
    /// Opaque values against the RIMs' minimum SVNs.
    OpaqueFloors,
}

/// One check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ReportStage"))]
#[serde(rename_all = "camelCase")]
pub struct Stage {
    /// Which check.
    pub id: StageId,
    /// What it checks, for people.
    pub title: String,
    /// Its state.
    pub status: StageStatus,
    /// What it found, for people (empty when there is nothing to add).
    pub detail: String,
    /// A passed check whose result does not fully count, said why (amber).
    pub warning: Option<String>,
    /// The stable code of a failed check.
    pub code: Option<&'static str>,
}

/// A failed check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ReportFailure"))]
#[serde(rename_all = "camelCase")]
pub struct Failure {
    /// The check that failed.
    pub stage: StageId,
    /// Stable `ERR_*` code.
    pub code: &'static str,
    /// Why, for people.
    pub message: String,
    /// The real service's error number, where one applies.
    pub service_code: Option<u16>,
}

/// One RIM of the device.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ReportRimStep"))]
#[serde(rename_all = "camelCase")]
pub struct RimStep {
    /// The id the device's evidence names (absent when it names none, or none applies).
    pub id: Option<String>,
    /// The RIM as a whole.
    pub status: StageStatus,
    /// The document's `colloquialVersion`, when it was read.
    pub version: Option<String>,
    /// The XML signature verified.
    pub signature_verified: Option<bool>,
    /// The signer chain: `valid`, `expired` or `invalid`.
    #[cfg_attr(feature = "ts", ts(as = "Option<crate::rim::RimCertStatus>", inline))]
    pub chain_status: Option<&'static str>,
    /// The signer chain's earliest `notAfter`, Unix seconds.
    pub chain_expiration: Option<u64>,
}

/// The device's RIMs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RimSteps {
    /// The driver RIM.
    pub driver: RimStep,
    /// The firmware RIM.
    pub firmware: RimStep,
}

/// Revocation (OCSP) of the device chain as the host found it: the core does no I/O.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum RevocationInput {
    /// Not asked; why, for people.
    #[default]
    NotChecked,
    /// Not asked, with the reason.
    NotCheckedBecause(String),
    /// Every certificate's responder said good.
    Good,
    /// Revoked, unknown, or no answer that could be checked: fails the device.
    Failed {
        /// Stable code (`ERR_OCSP_UNAVAILABLE`), or [`ERR_CERT_REVOKED`].
        code: &'static str,
        /// Why.
        message: String,
    },
}

impl RevocationInput {
    /// The host's revocation answer by its status word (the page's and the JS OCSP
    /// helpers' `status`): `good`, `not-checked` (with `message` as the reason), `revoked`,
    /// `unknown`, or anything else (no answer that could be checked).
    pub fn from_status(status: &str, message: Option<String>) -> Self {
        let message = message.unwrap_or_default();
        match status {
            "good" => Self::Good,
            "not-checked" if message.is_empty() => Self::NotChecked,
            "not-checked" => Self::NotCheckedBecause(message),
            "revoked" => Self::Failed {
                code: ERR_CERT_REVOKED,
                message: nonempty(message, "a certificate of the chain is revoked"),
            },
            "unknown" => Self::Failed {
                code: ERR_CERT_REVOCATION_UNKNOWN,
                message: nonempty(
                    message,
                    "the responder does not know a certificate of the chain",
                ),
            },
            _ => Self::Failed {
                code: ERR_OCSP_UNAVAILABLE,
                message: nonempty(message, "no revocation answer could be had or checked"),
            },
        }
    }
}

fn nonempty(message: String, otherwise: &str) -> String {
    if message.is_empty() {
        otherwise.into()
    } else {
        message
    }
}

/// The revocation state in a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum RevocationState {
    /// Not asked: the chain did not validate, so there is nothing to ask about.
    NotReached,
    /// Due, but not checked (no answers given): a host that can ask should.
    NotChecked,
    /// Good.
    Good,
    /// Revoked or not confirmed.
    Failed,
}

/// One device's verification report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct DeviceReport {
    /// `passed`, `failed` or `partial`.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub verdict: Verdict,
    /// The overall result the attestation service gives this device, with the same RIMs and
    /// time, when it does not check revocation (the page's in-page service run): true unless
    /// a check other than revocation failed. The page compares it with the service's answer.
    pub passes_without_revocation: bool,
    /// Every check, in the order the service runs them.
    pub stages: Vec<Stage>,
    /// The first failure.
    pub failure: Option<Failure>,
    /// Every failure, in stage order.
    pub failures: Vec<Failure>,
    /// What applies but was not checked, for people (the reasons of `partial`).
    pub not_checked: Vec<String>,
    /// The driver and firmware RIMs.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub rims: RimSteps,
    /// Revocation of the device chain.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub revocation: RevocationState,
    /// The measurement comparison, when it ran.
    #[cfg_attr(
        feature = "ts",
        ts(type = "Omit<RimComparison, \"allMatch\" | \"measres\"> | null")
    )]
    pub comparison: Option<Comparison>,
    /// Its `measres` claim (`success` / `fail`), when it ran.
    #[cfg_attr(feature = "ts", ts(type = "\"success\" | \"fail\" | null"))]
    pub measres: Option<&'static str>,
    /// The evidence's facts, when it verified.
    pub evidence: Option<EvidenceReport>,
}

/// The RIMs a verified device needs, and the values they are compared with. `driver` is
/// `None` where the profile has no driver RIM (switches, FSP evidence), `Some(None)` where
/// one applies but the evidence does not name it.
#[derive(Clone, Debug)]
pub struct DeviceRims {
    /// The values of the transcript the ids and the comparison read.
    pub runtime: RuntimeEvidence,
    /// The driver RIM id.
    pub driver: Option<Option<String>>,
    /// The firmware RIM id.
    pub firmware: Option<String>,
}

/// The RIM ids of a verified device: its profile (read from the chain) decides whether a
/// driver RIM applies, never which tags the transcript carries.
pub fn device_rims(evidence: &VerifiedEvidence, firmware_hint: Option<String>) -> DeviceRims {
    let arch = evidence.arch();
    let chip = evidence.chain().hwmodel_chip().map(String::from);
    let runtime = RuntimeEvidence::from_transcript(
        evidence.transcript(),
        arch.device_kind(),
        chip,
        firmware_hint,
    );
    let firmware = firmware_rim_id_of(evidence.profile(), &runtime).ok();
    let driver = match evidence.profile().rim_path() {
        RimPath::DriverAndFirmware => Some(driver_rim_id(arch, &runtime).ok()),
        _ => None,
    };
    DeviceRims {
        runtime,
        driver,
        firmware,
    }
}

/// The comparison a device's profile calls for, when its RIMs are there: driver and VBIOS
/// (GSP), the firmware RIM alone (FSP), the switch BIOS (LS10).
pub fn compare_device(
    path: RimPath,
    driver: Option<&RimDocument>,
    firmware: Option<&RimDocument>,
    runtime: &RuntimeEvidence,
) -> Option<Result<Comparison, CompareError>> {
    match (path, driver, firmware) {
        (RimPath::DriverAndFirmware, Some(driver), Some(firmware)) => {
            Some(compare_gpu(driver, firmware, runtime))
        }
        (RimPath::FirmwareOnly, _, Some(firmware)) => Some(compare_gpu_firmware(firmware, runtime)),
        (RimPath::Switch, _, Some(firmware)) => Some(compare_switch(firmware, runtime)),
        _ => None,
    }
}

/// The RIM documents given for a device, verified (`None`: not given).
#[derive(Clone, Debug, Default)]
pub struct RimInputs {
    /// The driver RIM.
    pub driver: Option<Result<VerifiedRim, RimError>>,
    /// The firmware RIM.
    pub firmware: Option<Result<VerifiedRim, RimError>>,
}

/// Which stage of evidence verification a failure belongs to. A parse error after the chain
/// validated is the opaque-data check (the transcript parsed; its opaque values did not).
pub fn failed_stage(error: &VerifyError, chain_validated: bool) -> StageId {
    match error {
        VerifyError::Parse(_) if chain_validated => StageId::OpaqueData,
        VerifyError::Parse(_) => StageId::EvidenceParsed,
        VerifyError::Chain(_) => StageId::CertificateChain,
        VerifyError::Signature => StageId::EvidenceSignature,
        VerifyError::NonceMismatch => StageId::Nonce,
        VerifyError::ArchMismatch { .. } | VerifyError::UnknownProfile { .. } => {
            StageId::Architecture
        }
        VerifyError::DriverVersionMissing => StageId::DriverVersion,
        _ => StageId::Fwid,
    }
}

/// The report of one device: `evidence` as [`super::BatchPlan::finish_detailed`] gives it,
/// the RIMs the caller has for it, the revocation state of its chain, at `now` (Unix
/// seconds, for the wording of times).
pub fn device_report(
    evidence: &Result<VerifiedEvidence, FailedEvidence>,
    firmware_hint: Option<String>,
    rims: RimInputs,
    revocation: &RevocationInput,
    now: UnixTime,
) -> DeviceReport {
    let mut b = Builder {
        stages: Vec::new(),
        failures: Vec::new(),
        not_checked: Vec::new(),
    };
    let chain = match evidence {
        Ok(verified) => Some(verified.chain()),
        Err(failed) => failed.chain.as_deref(),
    };
    // The evidence checks: all passed up to the failed one, none after it.
    let failed_at = match evidence {
        Ok(_) => None,
        Err(failed) => Some(failed_stage(&failed.error, failed.chain.is_some())),
    };
    let mut reached = true;
    for (id, title) in EVIDENCE_STAGES {
        if Some(id) == failed_at {
            let Err(failed) = evidence else { continue };
            let error = &failed.error;
            b.fail(
                id,
                title,
                error.code(),
                error.to_string(),
                Some(error.service_code()),
            );
            reached = false;
            continue;
        }
        if !reached {
            b.push(id, title, StageStatus::NotChecked).detail =
                "not reached: the core stops at the first failure".into();
            continue;
        }
        let (status, detail) = evidence_stage(id, evidence, chain);
        let stage = b.push(id, title, status);
        stage.detail = detail;
    }
    if let Some(chain) = chain {
        if failed_at.is_none_or(|s| s != StageId::CertificateChain) {
            chain_time(&mut b, chain);
        }
    }
    if let Ok(verified) = evidence {
        if verified.fwid() == FwidCheck::NotInEvidence {
            b.not_checked
                .push("the FWID (the evidence carries none)".into());
        }
    }

    // Revocation is asked about a chain that path-validated (expired or not).
    let revocation_reached = chain.is_some() && failed_at != Some(StageId::CertificateChain);
    revocation_stage(&mut b, revocation, revocation_reached);

    let verified = evidence.as_ref().ok();
    let needed = verified.map(|v| device_rims(v, firmware_hint));
    let path = verified.map(|v| v.profile().rim_path());
    let driver_applies = path.is_none_or(|p| p == RimPath::DriverAndFirmware);
    let driver = rim_stage(
        &mut b,
        StageId::DriverRim,
        "Driver",
        driver_applies,
        needed.as_ref().and_then(|n| n.driver.clone().flatten()),
        rims.driver,
        verified.is_some(),
        now,
    );
    let firmware = rim_stage(
        &mut b,
        StageId::FirmwareRim,
        "Firmware",
        true,
        needed.as_ref().and_then(|n| n.firmware.clone()),
        rims.firmware,
        verified.is_some(),
        now,
    );

    let comparison = match (path, &needed) {
        (Some(path), Some(needed)) => compare_device(
            path,
            driver.1.as_ref().map(VerifiedRim::document),
            firmware.1.as_ref().map(VerifiedRim::document),
            &needed.runtime,
        ),
        _ => None,
    };
    let untrusted = [&driver.1, &firmware.1]
        .into_iter()
        .flatten()
        .any(|rim| !rim.is_trusted());
    let comparison = comparison_stages(&mut b, comparison, path, untrusted);

    let verdict = if !b.failures.is_empty() {
        Verdict::Failed
    } else if !b.not_checked.is_empty()
        || b.stages.iter().any(|s| s.status == StageStatus::NotChecked)
    {
        Verdict::Partial
    } else {
        Verdict::Passed
    };
    let passes_without_revocation = b.failures.iter().all(|f| f.stage == StageId::Revocation);
    DeviceReport {
        verdict,
        passes_without_revocation,
        failure: b.failures.first().cloned(),
        failures: b.failures,
        stages: b.stages,
        not_checked: b.not_checked,
        rims: RimSteps {
            driver: driver.0,
            firmware: firmware.0,
        },
        revocation: match revocation {
            _ if !revocation_reached => RevocationState::NotReached,
            RevocationInput::Good => RevocationState::Good,
            RevocationInput::Failed { .. } => RevocationState::Failed,
            _ => RevocationState::NotChecked,
        },
        measres: comparison.as_ref().map(Comparison::measres),
        comparison,
        evidence: verified.map(VerifiedEvidence::to_report),
    }
}
