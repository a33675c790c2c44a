//! `edgeattest:verifier/evidence`: one device's evidence and a certificate chain, read by the
//! core's [`EvidenceOptions`] (the JS `verifyEvidence` / `verifyCertificateChain` options) and
//! verified with the software backend.

use super::args::{Arg, Members};
use super::exports::edgeattest::verifier::evidence::{
    ChainOptions, ChainReport, ChainStatus, DeviceEvidence, EvidenceOptions as WitOptions,
    EvidenceReport, Guest,
};
use super::{checked_now, coded, json, Verifier, WitError};
use crate::evidence::{EvidenceOptions, OptionsError};
use crate::time::{UnixSeconds, UnixTime};

impl Guest for Verifier {
    fn verify_evidence(
        options: WitOptions,
        device: DeviceEvidence,
    ) -> Result<EvidenceReport, WitError> {
        let read: EvidenceOptions = Members::new()
            .with("nonce", Arg::document(&options.nonce))
            .with("arch", Arg::Str(&options.arch))
            .with("now", Arg::U64(checked_now(options.now)?))
            .with_some(
                "trustAnchors",
                options.trust_anchors.as_deref().map(Arg::Str),
            )
            .with_some(
                "evidenceEncoding",
                options.evidence_encoding.as_deref().map(Arg::Str),
            )
            .with("requireFwid", Arg::Bool(options.require_fwid))
            .with("evidence", Arg::document(&device.evidence))
            .with("certificate", Arg::Str(&device.certificate))
            .read()
            .map_err(|e| shape(&e))?;
        let verified = read
            .verify_evidence(clock)
            .map_err(|e| coded(&e))?
            .map_err(|e| coded(&e))?;
        let report = verified.to_report();
        Ok(EvidenceReport {
            arch: report.arch.into(),
            profile: report.profile.into(),
            ueid: report.ueid.clone(),
            hwmodel: report.hwmodel.clone(),
            driver_version: report.driver_version.clone(),
            vbios_version: report.vbios_version.clone(),
            report: json(&report)?,
        })
    }

    fn verify_certificate_chain(options: ChainOptions) -> Result<ChainReport, WitError> {
        let read: EvidenceOptions = Members::new()
            .with("certificate", Arg::Str(&options.certificate))
            .with("now", Arg::U64(checked_now(options.now)?))
            .with_some(
                "trustAnchors",
                options.trust_anchors.as_deref().map(Arg::Str),
            )
            .with("enforceTime", Arg::Bool(options.enforce_time))
            .read()
            .map_err(|e| shape(&e))?;
        let chain = read
            .verify_certificate_chain(clock)
            .map_err(|e| coded(&e))?
            .map_err(|e| coded(&e))?;
        let status = match chain.status {
            "valid" => ChainStatus::Valid,
            "expired" => ChainStatus::Expired,
            _ => ChainStatus::Invalid,
        };
        Ok(ChainReport {
            status,
            expiration_date: chain.expiration_date,
            subjects: chain.subjects,
            ueid: chain.ueid,
            hwmodel: chain.hwmodel,
            leaf_public_key: chain.leaf_public_key,
        })
    }
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
/// [`UnixSeconds`]; the fallback clock is never reached.
fn clock(now: Option<&UnixSeconds>) -> Result<UnixTime, OptionsError> {
    UnixSeconds::or(UnixTime::MAX)(now)
}
