//! One device's verification report: every check in the order the service runs it, each
//! passed, failed, not checked or not applicable, with the first failure's stable code and
//! one overall verdict. The page and every JS caller render this; they decide nothing.
//!
//! The rules that pick the RIMs and the comparison for a device ([`device_rims`],
//! [`compare_device`]) are the service's own: `service::device` calls them too.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use super::profile::RimPath;
use super::report::EvidenceReport;
use super::verify::{FailedEvidence, FwidCheck, VerifiedEvidence};
use super::VerifyError;
use crate::chain::{ChainStatus, VerifiedChain};
use crate::rim::{
    compare_gpu, compare_gpu_firmware, compare_switch, driver_rim_id, firmware_rim_id_of,
    CompareError, Comparison, RimCertStatus, RimDocument, RimError, RuntimeEvidence, VerifiedRim,
};
use crate::ErrorCode;

/// A RIM the device needs was not given (service 5009 `RIM_BUNDLE_NOT_FOUND`).
pub const ERR_RIM_NOT_AVAILABLE: &str = "ERR_RIM_NOT_AVAILABLE";
/// A RIM's signing chain has expired (service 4011).
pub const ERR_RIM_CHAIN_EXPIRED: &str = "ERR_RIM_CHAIN_EXPIRED";
/// A RIM's signing chain does not validate (service 4015).
pub const ERR_RIM_CHAIN_INVALID: &str = "ERR_RIM_CHAIN_INVALID";
/// Active golden measurements differ from the evidence (`measres` `fail`).
pub const ERR_MEASUREMENT_MISMATCH: &str = "ERR_MEASUREMENT_MISMATCH";
/// A RIM's version is not the evidence's (service 5015).
pub const ERR_RIM_VERSION_MISMATCH: &str = "ERR_RIM_VERSION_MISMATCH";
/// An opaque value is below a RIM's minimum SVN.
pub const ERR_OPAQUE_BELOW_MINIMUM: &str = "ERR_OPAQUE_BELOW_MINIMUM";
/// A certificate of the device chain is revoked, or its status could not be confirmed.
pub const ERR_CERT_REVOKED: &str = "ERR_CERT_REVOKED";

/// A check's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
    pub chain_status: Option<&'static str>,
    /// The signer chain's earliest `notAfter`, Unix seconds.
    pub chain_expiration: Option<u64>,
}

/// The device's RIMs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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

/// The revocation state in a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RevocationState {
    /// Not checked.
    NotChecked,
    /// Good.
    Good,
    /// Revoked or not confirmed.
    Failed,
}

/// One device's verification report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeviceReport {
    /// `passed`, `failed` or `partial`.
    pub verdict: Verdict,
    /// Every check, in the order the service runs them.
    pub stages: Vec<Stage>,
    /// The first failure.
    pub failure: Option<Failure>,
    /// Every failure, in stage order.
    pub failures: Vec<Failure>,
    /// What applies but was not checked, for people (the reasons of `partial`).
    pub not_checked: Vec<String>,
    /// The driver and firmware RIMs.
    pub rims: RimSteps,
    /// Revocation of the device chain.
    pub revocation: RevocationState,
    /// The measurement comparison, when it ran.
    pub comparison: Option<Comparison>,
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

/// The evidence checks in the order they run, with their titles.
const EVIDENCE_STAGES: [(StageId, &str); 8] = [
    (
        StageId::EvidenceParsed,
        "Transcript parsed (SPDM GET_MEASUREMENTS request and response)",
    ),
    (
        StageId::CertificateChain,
        "Certificate chain to the NVIDIA Device Identity CA",
    ),
    (
        StageId::EvidenceSignature,
        "Evidence signature (leaf key, ECDSA P-384/SHA-384)",
    ),
    (
        StageId::Nonce,
        "Nonce in the request part equals your nonce",
    ),
    (StageId::Architecture, "Device architecture"),
    (StageId::OpaqueData, "Opaque data values"),
    (
        StageId::Fwid,
        "FWID in the evidence equals the leaf certificate's",
    ),
    (
        StageId::DriverVersion,
        "Driver version in the evidence (its firmware always reports one)",
    ),
];

struct Builder {
    stages: Vec<Stage>,
    failures: Vec<Failure>,
    not_checked: Vec<String>,
}

impl Builder {
    fn push(&mut self, id: StageId, title: impl Into<String>, status: StageStatus) -> &mut Stage {
        self.stages.push(Stage {
            id,
            title: title.into(),
            status,
            detail: String::new(),
            warning: None,
            code: None,
        });
        let last = self.stages.len() - 1;
        &mut self.stages[last]
    }

    fn fail(
        &mut self,
        id: StageId,
        title: impl Into<String>,
        code: &'static str,
        message: String,
        service_code: Option<u16>,
    ) -> &mut Stage {
        self.failures.push(Failure {
            stage: id,
            code,
            message: message.clone(),
            service_code,
        });
        let stage = self.push(id, title, StageStatus::Failed);
        stage.code = Some(code);
        stage.detail = message;
        stage
    }
}

fn iso(seconds: u64) -> String {
    crate::time::format_rfc3339(seconds).unwrap_or_else(|| format!("{seconds} (Unix seconds)"))
}

fn chain_detail(chain: &VerifiedChain) -> String {
    let subjects: Vec<&str> = chain.subjects().collect();
    format!(
        "{}; {}",
        chain.status().as_claim_str(),
        subjects.join(" → ")
    )
}

/// The report of one device: `evidence` as [`super::BatchPlan::finish_detailed`] gives it,
/// the RIMs the caller has for it, the revocation state of its chain, at `now` (Unix
/// seconds, for the wording of times).
pub fn device_report(
    evidence: &Result<VerifiedEvidence, FailedEvidence>,
    firmware_hint: Option<String>,
    rims: RimInputs,
    revocation: &RevocationInput,
    now: u64,
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

    revocation_stage(
        &mut b,
        revocation,
        chain.is_some() && failed_at != Some(StageId::CertificateChain),
    );

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
    DeviceReport {
        verdict,
        failure: b.failures.first().cloned(),
        failures: b.failures,
        stages: b.stages,
        not_checked: b.not_checked,
        rims: RimSteps {
            driver: driver.0,
            firmware: firmware.0,
        },
        revocation: match revocation {
            RevocationInput::Good => RevocationState::Good,
            RevocationInput::Failed { .. } => RevocationState::Failed,
            _ => RevocationState::NotChecked,
        },
        comparison,
        evidence: verified.map(VerifiedEvidence::to_report),
    }
}

/// A passed evidence check's state and detail.
fn evidence_stage(
    id: StageId,
    evidence: &Result<VerifiedEvidence, FailedEvidence>,
    chain: Option<&VerifiedChain>,
) -> (StageStatus, String) {
    let Ok(verified) = evidence else {
        return (StageStatus::Passed, String::new());
    };
    match id {
        StageId::CertificateChain => (
            StageStatus::Passed,
            chain.map(chain_detail).unwrap_or_default(),
        ),
        StageId::Nonce => (
            StageStatus::Passed,
            hex::encode(verified.transcript().request.nonce),
        ),
        StageId::Architecture => (
            StageStatus::Passed,
            format!(
                "{} ({}), firmware {}",
                verified.arch().as_str(),
                verified.hwmodel().unwrap_or("no hwmodel"),
                verified.profile().as_str()
            ),
        ),
        StageId::Fwid => match verified.fwid() {
            FwidCheck::Matched => (StageStatus::Passed, String::new()),
            FwidCheck::NotInEvidence => (
                StageStatus::NotChecked,
                "the evidence carries no FWID (firmware before FWID reporting): nothing to compare"
                    .into(),
            ),
            _ => (
                StageStatus::NotApplicable,
                "this device's evidence has no FWID".into(),
            ),
        },
        StageId::DriverVersion => match verified.profile().rim_path() {
            RimPath::DriverAndFirmware => (
                StageStatus::Passed,
                verified.driver_version().unwrap_or_default().into(),
            ),
            _ => (
                StageStatus::NotApplicable,
                "this device's evidence has no driver RIM".into(),
            ),
        },
        _ => (StageStatus::Passed, String::new()),
    }
}

/// A chain that path-validated but is outside its validity fails the device, as the service
/// fails it (4011).
fn chain_time(b: &mut Builder, chain: &VerifiedChain) {
    let code = match chain.status() {
        ChainStatus::Valid => return,
        ChainStatus::Expired => "ERR_CHAIN_EXPIRED",
        _ => "ERR_CHAIN_NOT_YET_VALID",
    };
    let message = format!(
        "the device certificate chain is {} (earliest notAfter {})",
        chain.status().as_claim_str(),
        chain.earliest_not_after_iso()
    );
    b.failures.push(Failure {
        stage: StageId::CertificateChain,
        code,
        message: message.clone(),
        service_code: Some(4011),
    });
    if let Some(stage) = b
        .stages
        .iter_mut()
        .find(|s| s.id == StageId::CertificateChain)
    {
        stage.status = StageStatus::Failed;
        stage.code = Some(code);
        stage.detail = format!("{}; {message}", stage.detail);
    }
}

fn revocation_stage(b: &mut Builder, revocation: &RevocationInput, reached: bool) {
    let title = "Revocation (OCSP) of the certificate chain";
    if !reached {
        b.push(StageId::Revocation, title, StageStatus::NotChecked)
            .detail = "not reached: the certificate chain did not validate".into();
        return;
    }
    match revocation {
        RevocationInput::Good => {
            b.push(StageId::Revocation, title, StageStatus::Passed)
                .detail = "good: every certificate asked about is good".into();
        }
        RevocationInput::Failed { code, message } => {
            b.fail(
                StageId::Revocation,
                title,
                code,
                message.clone(),
                Some(5001),
            );
        }
        RevocationInput::NotChecked | RevocationInput::NotCheckedBecause(_) => {
            let why = match revocation {
                RevocationInput::NotCheckedBecause(why) => why.as_str(),
                _ => "no OCSP answers were given",
            };
            b.push(StageId::Revocation, title, StageStatus::NotChecked)
                .detail = format!("not checked: {why}");
            b.not_checked.push("revocation (OCSP)".into());
        }
    }
}

/// A RIM's stage: not applicable, not reached, not given (a failure, as the service fails a
/// device whose RIM it cannot get), unreadable, or verified with its signer chain's state.
#[expect(clippy::too_many_arguments, reason = "one call per RIM kind")]
fn rim_stage(
    b: &mut Builder,
    id: StageId,
    label: &str,
    applies: bool,
    wanted: Option<String>,
    given: Option<Result<VerifiedRim, RimError>>,
    reached: bool,
    now: u64,
) -> (RimStep, Option<VerifiedRim>) {
    let lower = label.to_lowercase();
    let mut step = RimStep {
        id: wanted.clone(),
        status: StageStatus::NotApplicable,
        version: None,
        signature_verified: None,
        chain_status: None,
        chain_expiration: None,
    };
    let title = format!("{label} RIM");
    if !applies {
        b.push(id, title, StageStatus::NotApplicable).detail =
            format!("this device's evidence has no {lower} RIM");
        return (step, None);
    }
    if !reached {
        step.status = StageStatus::NotChecked;
        b.push(id, title, StageStatus::NotChecked).detail =
            "not reached: the evidence did not verify".into();
        return (step, None);
    }
    let Some(given) = given else {
        step.status = StageStatus::Failed;
        let name = wanted.as_deref().unwrap_or("(the evidence names none)");
        b.fail(
            id,
            title,
            ERR_RIM_NOT_AVAILABLE,
            format!("the {lower} RIM {name} is not available"),
            Some(5009),
        );
        return (step, None);
    };
    match given {
        Err(error) => {
            step.status = StageStatus::Failed;
            step.signature_verified = Some(false);
            b.fail(
                id,
                format!("{label} RIM signature"),
                error.code(),
                format!("the {lower} RIM: {}: {error}", error.code()),
                Some(error.service_code()),
            );
            (step, None)
        }
        Ok(rim) => {
            let chain = rim.cert_chain();
            let version = rim.document().meta.colloquial_version.clone();
            step.version = Some(version.clone());
            step.signature_verified = Some(true);
            step.chain_status = Some(chain.status.as_str());
            step.chain_expiration = chain.expiration;
            let until = chain.expiration.map_or_else(|| "unknown".into(), iso);
            let title = format!("{label} RIM: {version}");
            match chain.status {
                RimCertStatus::Valid => {
                    step.status = StageStatus::Passed;
                    b.push(id, title, StageStatus::Passed).detail =
                        format!("signer chain valid at {} (until {until})", iso(now));
                }
                status => {
                    step.status = StageStatus::Failed;
                    let (code, service) = match status {
                        RimCertStatus::Expired => (ERR_RIM_CHAIN_EXPIRED, 4011),
                        _ => (ERR_RIM_CHAIN_INVALID, 4015),
                    };
                    let message = format!(
                        "the {lower} RIM's signing certificate chain is {} at {}",
                        status.as_str(),
                        iso(now)
                    );
                    let stage = b.fail(id, title, code, message, Some(service));
                    let mut detail = format!(
                        "signature verifies, but the signer chain is {} at {}",
                        status.as_str(),
                        iso(now)
                    );
                    if status == RimCertStatus::Expired {
                        detail.push_str(&format!(" (it expired {until})"));
                    }
                    if let (Some(code), Some(problem)) = (chain.error_code, &chain.problem) {
                        detail.push_str(&format!(" — {code}: {problem}"));
                    }
                    stage.detail = detail;
                }
            }
            (step, Some(rim))
        }
    }
}

fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// The comparison's stages: measurements, the versions, the opaque floors.
fn comparison_stages(
    b: &mut Builder,
    comparison: Option<Result<Comparison, CompareError>>,
    path: Option<RimPath>,
    untrusted: bool,
) -> Option<Comparison> {
    let title = "Measurements against the RIMs";
    let comparison = match comparison {
        None => {
            b.push(StageId::Measurements, title, StageStatus::NotChecked)
                .detail = "not compared: the RIMs it needs are not all verified".into();
            return None;
        }
        Some(Err(error)) => {
            b.fail(
                StageId::Measurements,
                title,
                error.code(),
                format!("the RIM comparison: {}: {error}", error.code()),
                Some(error.service_code()),
            );
            return None;
        }
        Some(Ok(comparison)) => comparison,
    };
    let mut warnings = Vec::new();
    if path == Some(RimPath::FirmwareOnly) {
        warnings.push("firmware RIM only: the driver measurements were not compared");
        b.not_checked
            .push("the driver measurements (no driver RIM for this firmware)".into());
    }
    if untrusted && comparison.measurements_match {
        warnings.push(
            "against a RIM whose signer is not trusted at this time: the match does not count",
        );
    }
    let count = comparison.mismatches.len();
    let detail = format!("{} active measurements compared", comparison.compared);
    if comparison.measurements_match {
        let stage = b.push(
            StageId::Measurements,
            format!("{title}: {}", comparison.measres()),
            StageStatus::Passed,
        );
        stage.detail = detail;
        stage.warning = (!warnings.is_empty()).then(|| warnings.join("; "));
    } else {
        let differ = plural(count, "measurement", "measurements");
        let indexes: Vec<String> = comparison
            .mismatches
            .iter()
            .map(|m| m.index.to_string())
            .collect();
        let message = format!(
            "{differ} {} from the RIM (indexes {})",
            if count == 1 { "differs" } else { "differ" },
            indexes.join(", ")
        );
        let stage = b.fail(
            StageId::Measurements,
            format!(
                "{title}: {} — {differ} differ from the RIM",
                comparison.measres()
            ),
            ERR_MEASUREMENT_MISMATCH,
            message,
            None,
        );
        stage.detail = detail;
    }
    for (id, label, check) in [
        (
            StageId::DriverRimVersion,
            "Driver",
            comparison.driver_version.as_ref(),
        ),
        (
            StageId::FirmwareRimVersion,
            "Firmware",
            Some(&comparison.firmware_version),
        ),
    ] {
        let Some(check) = check else { continue };
        let evidence = check.evidence_version.as_deref();
        let title = format!(
            "{label} version: evidence {}, RIM {}",
            evidence.unwrap_or("absent"),
            check.rim_version
        );
        if check.matches {
            b.push(id, title, StageStatus::Passed);
        } else {
            let message = format!(
                "the {} version {} is not the RIM's {}",
                label.to_lowercase(),
                evidence.unwrap_or("(absent)"),
                check.rim_version
            );
            b.fail(id, title, ERR_RIM_VERSION_MISMATCH, message, Some(5015));
        }
    }
    for floor in &comparison.opaque_mismatches {
        let runtime = floor
            .runtime_value
            .map_or_else(|| "absent".into(), |v| v.to_string());
        b.fail(
            StageId::OpaqueFloors,
            format!(
                "{}: evidence {runtime} below the RIM's minimum {}",
                floor.name, floor.golden_value
            ),
            ERR_OPAQUE_BELOW_MINIMUM,
            format!("{} is below the RIM's minimum", floor.name),
            None,
        );
    }
    Some(comparison)
}
