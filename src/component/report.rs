//! Evidence results as WIT records: a verified device's [`EvidenceReport`], a batch's
//! [`DeviceResult`]s and a device's [`DeviceReport`] with its RIMs and revocation (the JS
//! `evidenceReport`). Member for member; every verdict is the core's.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::exports::edgeattest::verifier::evidence::{
    DeviceChain, DeviceFailure, DeviceReport as WitReport, DeviceResult as WitResult,
    DeviceVerdict, EvidenceForm as WitForm, EvidenceReport as WitEvidence, FwidCheck,
    MeasurementBlock, OpaqueEntry, OpaqueFormat, ReportFailure, ReportStage,
    RevocationState as WitRevocation, RimStep as WitStep, RimSteps as WitSteps,
    StageStatus as WitStatus, ValueRepresentation,
};
use super::exports::edgeattest::verifier::types::ChainStatus;
use super::runtime::comparison_out;
use crate::evidence::{
    DeviceReport, DeviceResult, EvidenceReport, Failure, RevocationState, RimStep, StageStatus,
    Verdict,
};

/// A verified device's facts, member for member.
pub(super) fn evidence_out(report: &EvidenceReport) -> WitEvidence {
    WitEvidence {
        arch: report.arch.into(),
        profile: report.profile.into(),
        ueid: report.ueid.clone(),
        hwmodel: report.hwmodel.clone(),
        hwmodel_chip: report.hwmodel_chip.clone(),
        driver_version: report.driver_version.clone(),
        vbios_version: report.vbios_version.clone(),
        mode: report.mode.map(String::from),
        fwid: match report.fwid {
            "matched" => FwidCheck::Matched,
            "not-in-evidence" => FwidCheck::NotInEvidence,
            _ => FwidCheck::NotApplicable,
        },
        cert_chain: DeviceChain {
            status: chain_status(report.cert_chain.status),
            expiration_date: report.cert_chain.expiration_date.clone(),
            subjects: report.cert_chain.subjects.clone(),
        },
        nonce: report.nonce.clone(),
        responder_nonce: report.responder_nonce.clone(),
        opaque_format: match report.opaque_format {
            "legacy" => OpaqueFormat::Legacy,
            _ => OpaqueFormat::Nvdaod,
        },
        measurements: report
            .measurements
            .iter()
            .map(|block| MeasurementBlock {
                index: block.index,
                value_type: block.value_type,
                representation: match block.representation {
                    "digest" => ValueRepresentation::Digest,
                    _ => ValueRepresentation::Raw,
                },
                value: block.value.clone(),
            })
            .collect(),
        opaque: report
            .opaque
            .iter()
            .map(|entry| OpaqueEntry {
                tag: entry.tag,
                name: entry.name.map(Into::into),
                value_type: entry.value_type,
                value: entry.value.clone(),
            })
            .collect(),
        signature: report.signature.clone(),
        evidence_form: match report.evidence_form {
            "json-cmw" => WitForm::JsonCmw,
            "cbor-cmw" => WitForm::CborCmw,
            _ => WitForm::Plain,
        },
    }
}

/// `valid`, `expired` or `invalid` (the core's claim words) as the WIT enum.
pub(super) fn chain_status(status: &str) -> ChainStatus {
    match status {
        "valid" => ChainStatus::Valid,
        "expired" => ChainStatus::Expired,
        _ => ChainStatus::Invalid,
    }
}

/// One device of a batch: passed with its report, or failed with its code.
fn result_out(result: DeviceResult) -> WitResult {
    match result {
        DeviceResult::Passed { report, .. } => WitResult::Passed(evidence_out(&report)),
        DeviceResult::Failed { error, .. } => WitResult::Failed(DeviceFailure {
            code: error.code.into(),
            message: error.message,
            service_code: error.service_code,
        }),
    }
}

/// A device report as the WIT record.
pub(super) fn report_out(report: &DeviceReport) -> WitReport {
    WitReport {
        verdict: match report.verdict {
            Verdict::Passed => DeviceVerdict::Passed,
            Verdict::Failed => DeviceVerdict::Failed,
            Verdict::Partial => DeviceVerdict::Partial,
        },
        passes_without_revocation: report.passes_without_revocation,
        stages: report
            .stages
            .iter()
            .map(|stage| ReportStage {
                id: word(&stage.id),
                title: stage.title.clone(),
                status: status(stage.status),
                detail: stage.detail.clone(),
                warning: stage.warning.clone(),
                code: stage.code.map(Into::into),
            })
            .collect(),
        failure: report.failure.as_ref().map(failure),
        failures: report.failures.iter().map(failure).collect(),
        not_checked: report.not_checked.clone(),
        rims: WitSteps {
            driver: step(&report.rims.driver),
            firmware: step(&report.rims.firmware),
        },
        revocation: match report.revocation {
            RevocationState::NotReached => WitRevocation::NotReached,
            RevocationState::NotChecked => WitRevocation::NotChecked,
            RevocationState::Good => WitRevocation::Good,
            RevocationState::Relaxed => WitRevocation::Relaxed,
            RevocationState::Failed => WitRevocation::Failed,
        },
        comparison: report.comparison.as_ref().map(comparison_out),
        evidence: report.evidence.as_ref().map(evidence_out),
    }
}

fn failure(failure: &Failure) -> ReportFailure {
    ReportFailure {
        stage: word(&failure.stage),
        code: failure.code.into(),
        message: failure.message.clone(),
        service_code: failure.service_code,
    }
}

fn step(step: &RimStep) -> WitStep {
    WitStep {
        id: step.id.clone(),
        status: status(step.status),
        version: step.version.clone(),
        signature_verified: step.signature_verified,
        chain_status: step.chain_status.map(chain_status),
        chain_expiration: step.chain_expiration.map(crate::time::UnixTime::as_secs),
    }
}

fn status(status: StageStatus) -> WitStatus {
    match status {
        StageStatus::Passed => WitStatus::Passed,
        StageStatus::Failed => WitStatus::Failed,
        StageStatus::NotChecked => WitStatus::NotChecked,
        StageStatus::NotApplicable => WitStatus::NotApplicable,
    }
}

/// A kebab-case id (`StageId`) as its wire word: the open set stays a string in the WIT.
fn word<T: Serialize>(value: &T) -> String {
    let text = crate::json::write::to_string(value).unwrap_or_default();
    text.trim_matches('"').into()
}

/// Every result of a batch, in order.
pub(super) fn results_out(results: Vec<DeviceResult>) -> Vec<WitResult> {
    results.into_iter().map(result_out).collect()
}
