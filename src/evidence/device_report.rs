//! One device's verification report: every check in order, each passed, failed, not
//! checked or not applicable, with the first failure's stable code and one overall verdict.
//! This is the one place that orders a device's checks and decides its verdict: the page and
//! every JS caller render it, and the service translates it into its outcome, error details
//! and claims (`service::report_outcome`). A new check is a stage here.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use super::report::EvidenceReport;
use super::report_stages::{
    chain_time, comparison_stages, evidence_stage, revocation_stage, rim_stage, Builder,
    EVIDENCE_STAGES,
};
use super::stage::{
    Failure, FailureCause, RevocationInput, RevocationState, RimRevocation, RimSteps, Stage,
    StageId, StageStatus, Verdict, ERR_CERT_REVOKED,
};
use super::verify::{FailedEvidence, FwidCheck, VerifiedEvidence};
use super::VerifyError;
use crate::attest::RimPath;
use crate::error_code::ErrorCode;
use crate::rim::{
    compare_gpu, compare_gpu_firmware, compare_switch, driver_rim_id, firmware_rim_id_of,
    CompareError, Comparison, RimError, RuntimeEvidence, VerifiedRim,
};
use crate::time::UnixTime;

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
/// (GSP), the firmware RIM alone (FSP), the switch BIOS (LS10); each through
/// [`VerifiedRim::compare`], which tries every alternative a CoRIM states.
pub fn compare_device(
    path: RimPath,
    driver: Option<&VerifiedRim>,
    firmware: Option<&VerifiedRim>,
    runtime: &RuntimeEvidence,
) -> Option<Result<Comparison, CompareError>> {
    match (path, driver, firmware) {
        (RimPath::DriverAndFirmware, Some(driver), Some(firmware)) => {
            Some(driver.compare(|d| firmware.compare(|f| compare_gpu(d, f, runtime))))
        }
        (RimPath::FirmwareOnly, _, Some(firmware)) => {
            Some(firmware.compare(|f| compare_gpu_firmware(f, runtime)))
        }
        (RimPath::Switch, _, Some(firmware)) => {
            Some(firmware.compare(|f| compare_switch(f, runtime)))
        }
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
    let mut report = staged_report(
        evidence.as_ref(),
        firmware_hint,
        (rims, RimRevocation::default()),
        revocation,
        now,
    );
    report.evidence = evidence.as_ref().ok().map(VerifiedEvidence::to_report);
    report
}

/// [`device_report`] without the evidence's summary (`evidence` is `None`), with the host's
/// revocation answers for the RIMs' signer chains too: the service's run, which asks about
/// every chain and writes its own claims.
pub(crate) fn staged_report(
    evidence: Result<&VerifiedEvidence, &FailedEvidence>,
    firmware_hint: Option<String>,
    (rims, rim_revocation): (RimInputs, RimRevocation),
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
                FailureCause::Evidence(error.clone()),
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
    // A revoked chain is reported revoked, not out of its validity: revocation decides.
    if matches!(revocation, RevocationInput::Failed { code, .. } if *code == ERR_CERT_REVOKED) {
        let validity = b
            .failures
            .iter()
            .position(|f| f.cause == FailureCause::ChainValidity);
        if let Some(at) = validity {
            if let Some(revoked) = b.failures.pop() {
                b.failures.insert(at, revoked);
            }
        }
    }

    let verified = evidence.ok();
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
        rim_revocation.driver.as_ref(),
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
        rim_revocation.firmware.as_ref(),
        verified.is_some(),
        now,
    );

    let comparison = match (path, &needed) {
        (Some(path), Some(needed)) => compare_device(
            path,
            driver.1.as_ref(),
            firmware.1.as_ref(),
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
    let passes_without_revocation = b.failures.iter().all(|f| {
        matches!(
            f.cause,
            FailureCause::Revocation | FailureCause::RimRevocation
        )
    });
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
            RevocationInput::Relaxed(_) => RevocationState::Relaxed,
            RevocationInput::Failed { .. } => RevocationState::Failed,
            _ => RevocationState::NotChecked,
        },
        measres: comparison.as_ref().map(Comparison::measres),
        comparison,
        evidence: None,
    }
}
