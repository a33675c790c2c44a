//! What can still be said of a device whose evidence did not verify, with its error details
//! (`x-nvidia-error-details`: code, field, message).

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::codes::{details, message_of, REVOCATION_WARNING};
use super::outcome::{
    CertStatus, ChainOutcome, DeviceOutcome, MeasurementOutcome, RevocationStatus,
};
use crate::attest::{DeviceKind, ValidatedRequest};
use crate::chain::VerifiedChain;
use crate::evidence::{failed_stage, FailedEvidence, StageId, Transcript, VerifyError};

/// A device whose evidence did not verify: what can still be said about it.
pub(super) fn failed_outcome(
    failed: FailedEvidence,
    evidence: &[u8],
    request: &ValidatedRequest,
) -> DeviceOutcome {
    let FailedEvidence { error, chain } = failed;
    let chain = chain.map(|boxed| *boxed);
    let error = &error;
    let kind = request.arch().device_kind();
    let transcript = Transcript::parse(evidence).ok();
    // Checks run in this order: parse, chain, signature, nonce, arch (and the firmware
    // profile), opaque and FWID, then what the profile requires of the opaque data. The
    // stage is the core's rule (the verification report's); a parse error counts as the
    // parse stage here whenever it is found, as the claims have always said.
    let stage = match failed_stage(error, false) {
        StageId::EvidenceParsed => 0,
        StageId::CertificateChain => 1,
        StageId::EvidenceSignature => 2,
        StageId::Nonce => 3,
        StageId::Architecture => 4,
        StageId::DriverVersion => 6,
        _ => 5,
    };
    let passed_stage = |s: u8| {
        if stage > s {
            Some(true)
        } else if stage == s {
            Some(false)
        } else {
            None
        }
    };
    let opaque = transcript.as_ref().map(|t| &t.response.opaque);
    let code = error.service_code();
    DeviceOutcome {
        arch_check: stage != 4,
        report_parsed: transcript.is_some(),
        signature_verified: passed_stage(2),
        nonce_match: transcript
            .as_ref()
            .map(|t| &t.request.nonce == request.nonce().as_bytes()),
        cert_chain: Some(match &chain {
            Some(chain) if stage != 1 => ChainOutcome::from(chain),
            _ => ChainOutcome {
                status: CertStatus::Invalid,
                ocsp: RevocationStatus::Unknown,
                earliest_expiry: None,
                revocation_reason: None,
            },
        }),
        fwid_match: passed_stage(5),
        hwmodel: chain
            .as_ref()
            .and_then(VerifiedChain::hwmodel_chip)
            .map(String::from),
        ueid: chain.as_ref().map(VerifiedChain::ueid),
        driver_version: opaque.and_then(|o| o.driver_version().ok().flatten()),
        firmware_version: opaque.and_then(|o| o.vbios_version(kind).ok().flatten()),
        error: Some(match error {
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
                if stage == 2 {
                    "evidence"
                } else {
                    "certificate"
                },
                message_of(code),
                &error.to_string(),
            ),
        }),
        ..unestablished(kind)
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
        secure_boot: None,
        debug_status: None,
        warning: Some(REVOCATION_WARNING.into()),
        error: None,
    }
}
