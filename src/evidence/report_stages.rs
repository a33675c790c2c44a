//! The stages of a [`super::DeviceReport`], one builder per kind of check: the evidence
//! checks, the chain's validity, revocation, each RIM, and the comparison.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::stage::{
    Failure, FailureCause, RevocationInput, RimStep, Stage, StageId, StageStatus,
    ERR_MEASUREMENT_MISMATCH, ERR_OPAQUE_BELOW_MINIMUM, ERR_RIM_NOT_AVAILABLE,
    ERR_RIM_VERSION_MISMATCH,
};
use super::verify::{FailedEvidence, FwidCheck, VerifiedEvidence};
use crate::attest::RimPath;
use crate::chain::{ChainStatus, VerifiedChain};
use crate::error_code::ErrorCode;
use crate::rim::{CompareError, Comparison, RimCertStatus, RimError, VerifiedRim};
use crate::time::UnixTime;

/// The evidence checks in the order they run, with their titles.
pub(super) const EVIDENCE_STAGES: [(StageId, &str); 8] = [
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

pub(super) struct Builder {
    pub(super) stages: Vec<Stage>,
    pub(super) failures: Vec<Failure>,
    pub(super) not_checked: Vec<String>,
}

impl Builder {
    pub(super) fn push(
        &mut self,
        id: StageId,
        title: impl Into<String>,
        status: StageStatus,
    ) -> &mut Stage {
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

    pub(super) fn fail(
        &mut self,
        id: StageId,
        title: impl Into<String>,
        code: &'static str,
        message: String,
        service_code: Option<u16>,
        cause: FailureCause,
    ) -> &mut Stage {
        self.failures.push(Failure {
            stage: id,
            code,
            message: message.clone(),
            service_code,
            cause,
        });
        let stage = self.push(id, title, StageStatus::Failed);
        stage.code = Some(code);
        stage.detail = message;
        stage
    }
}

pub(super) fn chain_detail(chain: &VerifiedChain) -> String {
    let subjects: Vec<&str> = chain.subjects().collect();
    format!(
        "{}; {}",
        chain.status().as_claim_str(),
        subjects.join(" → ")
    )
}

/// A passed evidence check's state and detail.
pub(super) fn evidence_stage(
    id: StageId,
    evidence: Result<&VerifiedEvidence, &FailedEvidence>,
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
pub(super) fn chain_time(b: &mut Builder, chain: &VerifiedChain) {
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
        cause: FailureCause::ChainValidity,
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

pub(super) fn revocation_stage(b: &mut Builder, revocation: &RevocationInput, reached: bool) {
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
        RevocationInput::Relaxed(warnings) => {
            b.push(StageId::Revocation, title, StageStatus::Passed)
                .detail = format!(
                "passed under the revocation policy, with warnings: {}",
                warnings.join("; ")
            );
        }
        RevocationInput::Failed { code, message } => {
            b.fail(
                StageId::Revocation,
                title,
                code,
                message.clone(),
                Some(5001),
                FailureCause::Revocation,
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
/// device whose RIM it cannot get), unreadable, or verified with its signer chain's state,
/// then (when the host gave one) its signer chain's revocation.
#[expect(clippy::too_many_arguments, reason = "one call per RIM kind")]
pub(super) fn rim_stage(
    b: &mut Builder,
    id: StageId,
    label: &str,
    applies: bool,
    wanted: Option<String>,
    given: Option<Result<VerifiedRim, RimError>>,
    revocation: Option<&RevocationInput>,
    reached: bool,
    now: UnixTime,
) -> (RimStep, Option<VerifiedRim>) {
    let lower = label.to_ascii_lowercase();
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
            FailureCause::RimNotAvailable { id: wanted },
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
                FailureCause::Rim(error),
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
            let until = chain
                .expiration
                .map_or_else(|| "unknown".into(), |date| date.to_string());
            let title = format!("{label} RIM: {version}");
            let status = chain.status;
            match status.failure() {
                None => match revocation {
                    Some(RevocationInput::Failed { code, message }) => {
                        step.status = StageStatus::Failed;
                        let message = format!("the {lower} RIM's signer chain: {message}");
                        b.fail(
                            id,
                            title,
                            code,
                            message,
                            Some(5001),
                            FailureCause::RimRevocation,
                        );
                    }
                    _ => {
                        step.status = StageStatus::Passed;
                        b.push(id, title, StageStatus::Passed).detail = match revocation {
                            Some(RevocationInput::Relaxed(warnings)) => format!(
                                "signer chain valid at {} (until {until}); revocation passed \
                                 under the revocation policy, with warnings: {}",
                                now,
                                warnings.join("; ")
                            ),
                            _ => format!("signer chain valid at {} (until {until})", now),
                        };
                        if matches!(
                            revocation,
                            Some(
                                RevocationInput::NotChecked | RevocationInput::NotCheckedBecause(_)
                            )
                        ) {
                            b.not_checked.push(format!(
                                "revocation (OCSP) of the {lower} RIM's signer chain"
                            ));
                        }
                    }
                },
                Some(failure) => {
                    step.status = StageStatus::Failed;
                    let (code, service) = (failure.code, failure.service_code);
                    let message = format!(
                        "the {lower} RIM's signing certificate chain is {} at {}",
                        status.as_str(),
                        now
                    );
                    let cause = FailureCause::RimSigner(status);
                    let stage = b.fail(id, title, code, message, Some(service), cause);
                    let mut detail = format!(
                        "signature verifies, but the signer chain is {} at {}",
                        status.as_str(),
                        now
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

pub(super) fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// The comparison's stages: measurements, the versions, the opaque floors.
pub(super) fn comparison_stages(
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
                FailureCause::Comparison(error),
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
    let detail = format!("{} active measurements compared.", comparison.compared);
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
            FailureCause::Measurements,
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
                label.to_ascii_lowercase(),
                evidence.unwrap_or("(absent)"),
                check.rim_version
            );
            let cause = FailureCause::RimVersion;
            b.fail(
                id,
                title,
                ERR_RIM_VERSION_MISMATCH,
                message,
                Some(5015),
                cause,
            );
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
            FailureCause::OpaqueFloor,
        );
    }
    Some(comparison)
}
