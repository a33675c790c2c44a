//! What can still be said of a device whose evidence did not verify, read from its staged
//! report, and the error details (`x-nvidia-error-details`: code, field, message) of an
//! evidence failure.

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::codes::{details, message_of, REVOCATION_WARNING};
use super::outcome::{
    CertStatus, ChainOutcome, DeviceOutcome, ErrorDetails, MeasurementOutcome, RevocationStatus,
};
use crate::attest::{DeviceKind, ValidatedRequest};
use crate::chain::VerifiedChain;
use crate::evidence::{
    DeviceReport, FailedEvidence, StageId, StageStatus, Transcript, VerifyError,
};

/// A device whose evidence did not verify: what can still be said about it. The report's
/// first failure is the evidence's.
pub(super) fn failed_outcome(
    report: &DeviceReport,
    failed: &FailedEvidence,
    evidence: &[u8],
    request: &ValidatedRequest,
) -> DeviceOutcome {
    let chain = failed.chain.as_deref();
    let kind = request.arch().device_kind();
    let transcript = Transcript::parse(evidence).ok();
    let failed_at = report.failure.as_ref().map(|f| f.stage);
    // The claims count an opaque-data failure as a parse failure, as they always have:
    // nothing after parsing is claimed for it.
    let parse_failed = matches!(
        failed_at,
        Some(StageId::EvidenceParsed | StageId::OpaqueData)
    );
    let claim = |id: StageId| {
        let stage = report.stages.iter().find(|s| s.id == id)?;
        match stage.status {
            _ if parse_failed => None,
            StageStatus::Passed => Some(true),
            StageStatus::Failed => Some(false),
            _ => None,
        }
    };
    let opaque = transcript.as_ref().map(|t| &t.response.opaque);
    DeviceOutcome {
        arch_check: failed_at != Some(StageId::Architecture),
        report_parsed: transcript.is_some(),
        signature_verified: claim(StageId::EvidenceSignature),
        nonce_match: transcript
            .as_ref()
            .map(|t| &t.request.nonce == request.nonce().as_bytes()),
        cert_chain: Some(match chain {
            Some(chain) if failed_at != Some(StageId::CertificateChain) => {
                ChainOutcome::from(chain)
            }
            _ => ChainOutcome {
                status: CertStatus::Invalid,
                ocsp: RevocationStatus::Unknown,
                earliest_expiry: None,
                revocation_reason: None,
                revocation_time: None,
            },
        }),
        fwid_match: claim(StageId::Fwid),
        hwmodel: chain
            .and_then(VerifiedChain::hwmodel_chip)
            .map(String::from),
        ueid: chain.map(VerifiedChain::ueid),
        driver_version: opaque.and_then(|o| o.driver_version().ok().flatten()),
        firmware_version: opaque.and_then(|o| o.vbios_version(kind).ok().flatten()),
        error: Some(evidence_details(
            &failed.error,
            failed_at.unwrap_or(StageId::EvidenceParsed),
        )),
        ..unestablished(kind)
    }
}

/// The error details of an evidence failure at `stage` (of the report).
pub(super) fn evidence_details(error: &VerifyError, stage: StageId) -> ErrorDetails {
    let code = error.service_code();
    match error {
        VerifyError::NonceMismatch => {
            // The real service's exact wording, trailing space included (notes §h).
            details(
                4010,
                "nonce",
                "NONCE_NOT_MATCHING",
                "Nonce from request is not matching with evidence nonce ",
            )
        }
        VerifyError::Parse(_) | VerifyError::DriverVersionMissing => {
            details(code, "evidence", message_of(code), &error.to_string())
        }
        VerifyError::ArchMismatch { .. } => {
            details(code, "arch", message_of(code), &error.to_string())
        }
        _ => details(
            code,
            if stage == StageId::EvidenceSignature {
                "evidence"
            } else {
                "certificate"
            },
            message_of(code),
            &error.to_string(),
        ),
    }
}

/// A device of which nothing is established yet: every check not run, and the warning every
/// token carries until revocation is checked.
pub(super) fn unestablished(kind: DeviceKind) -> DeviceOutcome {
    DeviceOutcome {
        kind,
        evidence_verified: false,
        arch_check: false,
        report_parsed: false,
        signature_verified: None,
        nonce_match: None,
        cert_chain: None,
        fwid_match: None,
        hwmodel: None,
        ueid: None,
        oemid: None,
        driver_version: None,
        firmware_version: None,
        driver_rim: None,
        firmware_rim: None,
        index_no_conflict: None,
        measurements: MeasurementOutcome::NotRun,
        opaque_mismatches: Vec::new(),
        attester_claims: BTreeMap::new(),
        switch_pdis: None,
        mode: None,
        switch_pdi: None,
        switch_gpu_pdis: None,
        secure_boot: None,
        debug_status: None,
        warning: Some(REVOCATION_WARNING.into()),
        error: None,
    }
}
