//! `edgeattest:verifier/evidence`: devices' evidence, certificate chains, batches, a device's
//! report with its RIMs and revocation, and the runtime values RIMs are compared with — each
//! read by the core's [`EvidenceOptions`] (the JS `verifyEvidence`, `verifyCertificateChain`,
//! `prepareEvidence`, `evidenceReport`, `prepareEvidenceReport`, `runtimeEvidence` options).

use alloc::vec::Vec;

use super::args::{Arg, Members};
use super::exports::edgeattest::verifier::evidence::{
    BatchOptions, ChainOptions, ChainReport, DeviceEvidence, DeviceReport, DeviceResult,
    EvidenceBatch as WitBatch, EvidenceOptions as WitOptions, EvidenceReport, Guest,
    GuestEvidenceBatch, GuestReportPlan, ReportOptions, ReportPlan as WitPlan, RevocationStatus,
    RuntimeEvidence, RuntimeEvidenceOptions,
};
use super::exports::edgeattest::verifier::types::SignatureCheck;
use super::pending::Pending;
use super::report::{chain_status, evidence_out, report_out, results_out};
use super::runtime::runtime_out;
use super::{at_most, checked_now, coded, Verifier, WitError};
use crate::attest::MAX_EVIDENCE_ITEMS;
use crate::crypto::Deferred;
use crate::evidence::{
    BatchPlan, DeviceResult as CoreResult, EvidenceOptions, OptionsError, ReportPlan,
};
use crate::time::UnixTime;

impl Guest for Verifier {
    type EvidenceBatch = Batch;
    type ReportPlan = Plan;

    fn verify_evidence(
        options: WitOptions,
        device: DeviceEvidence,
    ) -> Result<EvidenceReport, WitError> {
        let read = read(common(&options)?.with_device(&device))?;
        let verified = read
            .verify_evidence(clock)
            .map_err(|e| coded(&e))?
            .map_err(|e| coded(&e))?;
        Ok(evidence_out(&verified.to_report()))
    }

    fn verify_certificate_chain(options: ChainOptions) -> Result<ChainReport, WitError> {
        let read = read(
            Members::new()
                .with("certificate", Arg::Str(&options.certificate))
                .with("now", Arg::U64(checked_now(options.now)?.as_secs()))
                .with_some(
                    "trustAnchors",
                    options.trust_anchors.as_deref().map(Arg::Str),
                )
                .with("enforceTime", Arg::Bool(options.enforce_time)),
        )?;
        let chain = read
            .verify_certificate_chain(clock)
            .map_err(|e| coded(&e))?
            .map_err(|e| coded(&e))?;
        Ok(ChainReport {
            status: chain_status(chain.status),
            expiration_date: chain.expiration_date,
            subjects: chain.subjects,
            ueid: chain.ueid,
            hwmodel: chain.hwmodel,
            leaf_public_key: chain.leaf_public_key,
        })
    }

    fn verify_device_report(options: ReportOptions) -> Result<DeviceReport, WitError> {
        Ok(report_out(&report_plan(&options)?.verify()))
    }

    fn read_runtime_evidence(options: RuntimeEvidenceOptions) -> Result<RuntimeEvidence, WitError> {
        let read = read(
            Members::new()
                .with("evidence", Arg::document(&options.evidence))
                .with_some(
                    "evidenceEncoding",
                    options.evidence_encoding.as_deref().map(Arg::Str),
                )
                .with("arch", Arg::Str(&options.arch))
                .with_some("hwmodel", options.hwmodel.as_deref().map(Arg::Str))
                .with_some(
                    "firmwareVersion",
                    options.firmware_version.as_deref().map(Arg::Str),
                ),
        )?;
        Ok(runtime_out(read.runtime_evidence().map_err(|e| coded(&e))?))
    }
}

/// The `evidence-batch` resource (the JS `EvidenceBatch`).
pub(super) struct Batch(Pending<BatchPlan>);

impl GuestEvidenceBatch for Batch {
    fn prepare(options: BatchOptions) -> Result<WitBatch, WitError> {
        at_most(&options.devices, MAX_EVIDENCE_ITEMS, "devices")?;
        let devices = options
            .devices
            .iter()
            .map(|device| {
                Members::new()
                    .with("evidence", Arg::document(&device.evidence))
                    .with_some("certificate", device.certificate.as_deref().map(Arg::Str))
                    .object()
            })
            .collect();
        let read = read(common(&options.options)?.with("devices", Arg::Seq(devices)))?;
        let plan = read.batch_plan(clock).map_err(|e| coded(&e))?;
        Ok(WitBatch::new(Batch(Pending::new(plan, "batch"))))
    }

    fn signature_checks(&self) -> Result<Vec<SignatureCheck>, WitError> {
        self.0.checks()
    }

    fn finish(&self, verdicts: Vec<bool>) -> Result<Vec<DeviceResult>, WitError> {
        let results = self.0.take()?.finish(&verdicts).map_err(|e| coded(&e))?;
        Ok(results_out(CoreResult::list(results)))
    }

    fn verify(&self) -> Result<Vec<DeviceResult>, WitError> {
        Ok(results_out(CoreResult::list(self.0.take()?.verify())))
    }
}

/// The `report-plan` resource (the JS `EvidenceReportPlan`).
pub(super) struct Plan(Pending<ReportPlan>);

impl GuestReportPlan for Plan {
    fn prepare(options: ReportOptions) -> Result<WitPlan, WitError> {
        Ok(WitPlan::new(Plan(Pending::new(
            report_plan(&options)?,
            "batch",
        ))))
    }

    fn signature_checks(&self) -> Result<Vec<SignatureCheck>, WitError> {
        self.0.checks()
    }

    fn finish(&self, verdicts: Vec<bool>) -> Result<DeviceReport, WitError> {
        let report = Deferred::finish(self.0.take()?, &verdicts).map_err(|e| coded(&e))?;
        Ok(report_out(&report))
    }

    fn verify(&self) -> Result<DeviceReport, WitError> {
        Ok(report_out(&self.0.take()?.verify()))
    }
}

/// The device, its RIMs, their anchors, the firmware hint and the revocation input.
fn report_plan(options: &ReportOptions) -> Result<ReportPlan, WitError> {
    let rims = Members::new()
        .with_some("driver", options.rims.driver.as_ref().map(Arg::document))
        .with_some(
            "firmware",
            options.rims.firmware.as_ref().map(Arg::document),
        )
        .object();
    let revocation = options.revocation.as_ref().map(|revocation| {
        let warnings = revocation.warnings.iter().map(|w| Arg::Str(w)).collect();
        Members::new()
            .with("status", Arg::Str(revocation_word(revocation.status)))
            .with_some("message", revocation.message.as_deref().map(Arg::Str))
            .with("warnings", Arg::Seq(warnings))
            .object()
    });
    let read = read(
        common(&options.options)?
            .with_device(&options.device)
            .with("rims", rims)
            .with_some("rimAnchors", options.rim_anchors.as_deref().map(Arg::Str))
            .with_some(
                "firmwareVersion",
                options.firmware_version.as_deref().map(Arg::Str),
            )
            .with_some("revocation", revocation),
    )?;
    read.report_plan(clock).map_err(|e| coded(&e))
}

/// The JS API's revocation words ([`crate::evidence::RevocationInput::from_status`]).
fn revocation_word(status: RevocationStatus) -> &'static str {
    match status {
        RevocationStatus::Good => "good",
        RevocationStatus::NotChecked => "not-checked",
        RevocationStatus::Revoked => "revoked",
        RevocationStatus::Unknown => "unknown",
        RevocationStatus::Failed => "failed",
    }
}

/// The members every evidence function shares.
fn common(options: &WitOptions) -> Result<Members<'_>, WitError> {
    Ok(Members::new()
        .with("nonce", Arg::document(&options.nonce))
        .with("arch", Arg::Str(&options.arch))
        .with("now", Arg::U64(checked_now(options.now)?.as_secs()))
        .with_some(
            "trustAnchors",
            options.trust_anchors.as_deref().map(Arg::Str),
        )
        .with_some(
            "evidenceEncoding",
            options.evidence_encoding.as_deref().map(Arg::Str),
        )
        .with("requireFwid", Arg::Bool(options.require_fwid)))
}

impl<'a> Members<'a> {
    fn with_device(self, device: &'a DeviceEvidence) -> Self {
        self.with("evidence", Arg::document(&device.evidence))
            .with_some("certificate", device.certificate.as_deref().map(Arg::Str))
    }
}

fn read(members: Members<'_>) -> Result<EvidenceOptions, WitError> {
    members.read().map_err(|e| shape(&e))
}

/// A member the core's option type refused while reading (the WIT types leave little room).
fn shape(error: &serde::de::value::Error) -> WitError {
    WitError {
        code: "ERR_INVALID_ARGUMENT".into(),
        field: Some("options".into()),
        message: alloc::string::ToString::to_string(error),
    }
}

/// `now` is always a member (the WIT requires it), read and range-checked by the core as
/// a [`UnixTime`]; the fallback clock is never reached.
fn clock(now: Option<&UnixTime>) -> Result<UnixTime, OptionsError> {
    UnixTime::given_or(UnixTime::MAX)(now)
}
