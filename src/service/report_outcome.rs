//! A verified device's [`DeviceOutcome`] as a translation of its staged report
//! ([`crate::evidence::DeviceReport`]): the report orders the checks and names the first
//! failure; here it is worded as the real service words it (`x-nvidia-error-details`), and
//! the claims' values are read from what was verified. Nothing here orders a check.

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::claims::{switch_gpu_pdis_claim, switch_pdi_claim, switch_pdis_claim};
use super::codes::{details, message_of, FWID_NOT_IN_EVIDENCE_WARNING, OTHER_ROOT_WARNING};
use super::failure::{evidence_details, unestablished};
use super::outcome::{
    CertStatus, ChainOutcome, DeviceOutcome, ErrorDetails, MeasurementOutcome, RevocationStatus,
    RimOutcome,
};
use super::remedy::{rim_download_failed, rim_not_found};
use super::revocation::{Applied, ChainVerdict, RevocationVerdicts};
use crate::attest::{Arch, DeviceKind};
use crate::chain::{parse_pem_chain, VerifiedChain, NVIDIA_DEVICE_IDENTITY_CA_PEM};
use crate::evidence::{
    DeviceReport, Failure, FailureCause, FeatureFlag, FwidCheck, RevocationInput, RimPath, StageId,
    VerifiedEvidence, ERR_CERT_REVOCATION_UNKNOWN, ERR_CERT_REVOKED, ERR_OCSP_UNAVAILABLE,
};
use crate::ocsp::{ChainRevocation, RevocationComponent};
use crate::rim::{RimCertStatus, RimError, RuntimeEvidence, VerifiedRim};

/// The root a verified chain ends at, unless it is NVIDIA's Device Identity CA.
pub(super) fn other_root(chain: &VerifiedChain) -> Option<&str> {
    let last = chain.certificates().last()?;
    let nvidia = parse_pem_chain(NVIDIA_DEVICE_IDENTITY_CA_PEM)
        .ok()
        .and_then(|ders| ders.into_iter().next());
    (nvidia.as_deref() != Some(last.der.as_slice())).then_some(last.subject.as_str())
}

/// The RIM documents of one request, by the store key asked for: only keys the store holds.
pub(crate) type RimVerdicts = BTreeMap<String, Result<VerifiedRim, RimError>>;

/// What the service holds beyond a device's report: the RIM documents and why one could not
/// be had, and every chain's revocation verdict.
pub(super) struct RimSources<'a> {
    pub(super) rims: &'a RimVerdicts,
    pub(super) download_errors: &'a BTreeMap<String, String>,
    pub(super) revocation: &'a RevocationVerdicts,
    /// The store keys of RIMs the host gave from a kept copy because every source failed.
    pub(super) kept_rims: &'a alloc::collections::BTreeSet<String>,
}

/// The store keys of a device's RIMs: `(driver, firmware)`, the driver `None` where none
/// applies and `Some(None)` where the evidence names none.
pub(super) type RimKeys<'a> = (Option<Option<&'a str>>, Option<&'a str>);

/// The report's input for a chain's revocation verdict: the service's words are kept in the
/// message, and its error details are the verdict's own ([`ChainVerdict::apply`]).
pub(super) fn revocation_input(verdict: &ChainVerdict, field: &str) -> RevocationInput {
    let Some(error) = applied(verdict, field).error else {
        return match verdict {
            ChainVerdict::NotChecked => RevocationInput::NotChecked,
            ChainVerdict::Checked(revocation, component, _)
                if !revocation.relaxations().is_empty() =>
            {
                RevocationInput::Relaxed(
                    revocation
                        .relaxations()
                        .iter()
                        .map(|r| r.warning(*component))
                        .collect(),
                )
            }
            ChainVerdict::Checked(..) => RevocationInput::Good,
        };
    };
    RevocationInput::Failed {
        code: match verdict {
            ChainVerdict::Checked(ChainRevocation::Revoked { .. }, ..) => ERR_CERT_REVOKED,
            ChainVerdict::Checked(ChainRevocation::Unknown, ..) => ERR_CERT_REVOCATION_UNKNOWN,
            _ => ERR_OCSP_UNAVAILABLE,
        },
        message: error.description,
    }
}

/// What `verdict` adds to a chain's claims, the claims left aside.
fn applied(verdict: &ChainVerdict, field: &str) -> Applied {
    let mut scratch = ChainOutcome {
        status: CertStatus::Valid,
        ocsp: RevocationStatus::Unknown,
        earliest_expiry: None,
        revocation_reason: None,
        revocation_time: None,
    };
    verdict.apply(&mut scratch, field)
}

/// The outcome of a device whose evidence verified, from its report.
pub(super) fn verified_outcome(
    report: &DeviceReport,
    verified: &VerifiedEvidence,
    (arch, runtime): (Arch, &RuntimeEvidence),
    keys: RimKeys<'_>,
    sources: &RimSources<'_>,
    revocation: &ChainVerdict,
) -> DeviceOutcome {
    let kind = arch.device_kind();
    let mut chain = ChainOutcome::from(verified.chain());
    let revoked = revocation.apply(&mut chain, "certificate");
    let mut warnings: Vec<String> = other_root(verified.chain())
        .map(|root| OTHER_ROOT_WARNING.replace("{root}", root))
        .into_iter()
        .chain(revoked.warning.clone())
        .collect();
    // A verified device's FWID check passed: matched, or passed as NVIDIA's verifiers pass
    // it (the warning then says it was not compared), or not part of the evidence format.
    if verified.fwid() == FwidCheck::NotInEvidence {
        warnings.push(FWID_NOT_IN_EVIDENCE_WARNING.into());
    }
    // A switch's own PDI (tag 22) and its GPUs' (tag 26); a GPU's tag 22 is its switches'.
    let switch_opaque =
        (kind == DeviceKind::Switch).then_some(&verified.transcript().response.opaque);
    let mut outcome = DeviceOutcome {
        evidence_verified: true,
        arch_check: true,
        report_parsed: true,
        signature_verified: Some(true),
        nonce_match: Some(true),
        fwid_match: Some(true),
        hwmodel: verified.chain().hwmodel_chip().map(String::from),
        ueid: Some(verified.ueid()),
        driver_version: verified.driver_version().map(String::from),
        // FSP evidence reports no firmware version: its RIM was named and checked by the hint.
        firmware_version: match verified.profile().rim_path() {
            RimPath::FirmwareOnly => runtime.firmware_version_hint.clone(),
            _ => verified.vbios_version().map(String::from),
        },
        switch_pdis: verified.switch_pdis().map(|pdis| switch_pdis_claim(&pdis)),
        mode: verified.mode().map(FeatureFlag::as_str),
        switch_pdi: switch_opaque
            .and_then(|opaque| opaque.device_pdi().ok().flatten())
            .map(|pdi| switch_pdi_claim(&pdi)),
        switch_gpu_pdis: switch_opaque
            .and_then(|opaque| opaque.switch_gpu_pdis().ok().flatten())
            .map(|list| switch_gpu_pdis_claim(&list.pdis)),
        cert_chain: Some(chain),
        ..unestablished(kind)
    };

    let (driver_key, firmware_key) = keys;
    let firmware = rim_claims(firmware_key, RevocationComponent::VbiosRimChain, sources);
    let driver =
        driver_key.map(|key| rim_claims(key, RevocationComponent::DriverRimChain, sources));
    for rim in driver.iter().chain(core::iter::once(&firmware)) {
        if let Some(warning) = rim
            .warning
            .as_ref()
            .filter(|w| !warnings.iter().any(|have| have == *w))
        {
            warnings.push(warning.clone());
        }
    }
    outcome.warning = (!warnings.is_empty()).then(|| warnings.join("; "));
    outcome.firmware_rim = Some(firmware.summary);
    outcome.driver_rim = driver.as_ref().map(|d| d.summary.clone());
    outcome.oemid = driver
        .and_then(|d| d.verified)
        .and_then(|rim| rim.document().meta.firmware_manufacturer_id.clone());

    // The report's first failure decides the error; the words are the real service's.
    outcome.error = report
        .failure
        .as_ref()
        .and_then(|failure| error_details(failure, &revoked, keys, sources));

    if let Some(result) = &report.comparison {
        outcome.index_no_conflict =
            (kind == DeviceKind::Gpu && driver_key.is_some()).then_some(true);
        if let (Some(rim), Some(check)) =
            (outcome.driver_rim.as_mut(), result.driver_version.as_ref())
        {
            rim.version_match = Some(check.matches);
        }
        if let Some(rim) = outcome.firmware_rim.as_mut() {
            rim.version_match = Some(result.firmware_version.matches);
        }
        outcome.opaque_mismatches = result.opaque_mismatches.clone();
        outcome.attester_claims = result.attester_claims.clone();
        outcome.measurements = if result.measurements_match {
            MeasurementOutcome::Match
        } else {
            MeasurementOutcome::Mismatch(result.mismatches.clone())
        };
    }
    let comparison_error = report.failures.iter().find_map(|f| match &f.cause {
        FailureCause::Comparison(error) => Some(error),
        _ => None,
    });
    if let Some(error) = comparison_error {
        outcome.index_no_conflict = Some(error.service_code() != 4009);
    }
    if report.failure.is_none() {
        outcome.secure_boot = Some(true);
        outcome.debug_status = Some("disabled".into());
    }
    outcome
}

/// A failure of the report in the real service's words: code, field, symbolic name and
/// description. `None` where the service names none (the measurements say it).
pub(super) fn error_details(
    failure: &Failure,
    device_revocation: &Applied,
    (driver_key, firmware_key): RimKeys<'_>,
    sources: &RimSources<'_>,
) -> Option<ErrorDetails> {
    let (key, component) = match failure.stage {
        StageId::DriverRim => (driver_key.flatten(), RevocationComponent::DriverRimChain),
        _ => (firmware_key, RevocationComponent::VbiosRimChain),
    };
    match &failure.cause {
        FailureCause::Evidence(error) => Some(evidence_details(error, failure.stage)),
        FailureCause::ChainValidity => Some(details(
            4011,
            "certificate",
            "CERTIFICATE_EXPIRED",
            "Device certificate chain is not valid at the time of verification",
        )),
        FailureCause::Revocation => device_revocation.error.clone(),
        FailureCause::RimNotAvailable { .. } => Some(missing_rim(key, sources.download_errors)),
        FailureCause::Rim(error) => Some(details(
            error.service_code(),
            "rim",
            message_of(error.service_code()),
            &error.to_string(),
        )),
        FailureCause::RimSigner(status) => status.failure().map(|failure| {
            details(
                failure.service_code,
                "rim",
                failure.service_message,
                failure.description,
            )
        }),
        FailureCause::RimRevocation => {
            key.and_then(|key| applied(&sources.revocation.rim(key, component), "rim").error)
        }
        FailureCause::Comparison(error) => Some(details(
            error.service_code(),
            "rim",
            message_of(error.service_code()),
            &error.to_string(),
        )),
        FailureCause::RimVersion => Some(details(
            5015,
            "rim",
            "ERROR_ATTESTING_EVIDENCE",
            "RIM version does not match the version in the evidence",
        )),
        FailureCause::Measurements | FailureCause::OpaqueFloor => None,
    }
}

/// 5009 (no document named, or none held) or 5008 (the RIM service could not give it).
fn missing_rim(key: Option<&str>, download_errors: &BTreeMap<String, String>) -> ErrorDetails {
    let Some(key) = key else {
        return details(
            5009,
            "rim",
            "RIM_BUNDLE_NOT_FOUND",
            "The evidence does not name a reference measurement document",
        );
    };
    match download_errors.get(key) {
        Some(problem) => details(
            5008,
            "rim",
            "ERROR_DURING_RIM_DOWNLOAD",
            &rim_download_failed(problem, key),
        ),
        None => details(5009, "rim", "RIM_BUNDLE_NOT_FOUND", &rim_not_found(key)),
    }
}

/// The warning of a RIM the host gave from a kept copy (stale-if-error).
fn kept_rim_warning(id: &str) -> String {
    alloc::format!(
        "RIM {id} comes from a copy the host kept: every RIM source failed; it was verified as \
         fetched (its signature, its chain now and the chain's revocation)"
    )
}

/// Two optional warnings as one, joined by "; ".
fn join_warnings(first: Option<String>, second: Option<String>) -> Option<String> {
    match (first, second) {
        (Some(first), Some(second)) => Some(alloc::format!("{first}; {second}")),
        (first, second) => first.or(second),
    }
}

/// One RIM's claims, the document when it verified, and the warning its chain's revocation
/// adds.
struct RimClaims<'a> {
    summary: RimOutcome,
    verified: Option<&'a VerifiedRim>,
    warning: Option<String>,
}

fn rim_claims<'a>(
    key: Option<&str>,
    component: RevocationComponent,
    sources: &RimSources<'a>,
) -> RimClaims<'a> {
    let absent = RimClaims {
        summary: RimOutcome::default(),
        verified: None,
        warning: None,
    };
    let Some(result) = key.and_then(|key| sources.rims.get(key)) else {
        return absent;
    };
    match result {
        Ok(verified) => {
            let chain = verified.cert_chain();
            let mut cert_chain = ChainOutcome {
                status: match chain.status {
                    RimCertStatus::Valid => CertStatus::Valid,
                    RimCertStatus::Expired => CertStatus::Expired,
                    _ => CertStatus::Invalid,
                },
                ocsp: RevocationStatus::Unknown,
                earliest_expiry: chain.expiration,
                revocation_reason: None,
                revocation_time: None,
            };
            let revoked = key.map(|key| {
                sources
                    .revocation
                    .rim(key, component)
                    .apply(&mut cert_chain, "rim")
            });
            let measurements_available = verified.document().active_measurements().next().is_some();
            RimClaims {
                summary: RimOutcome {
                    fetched: true,
                    schema_validated: Some(true),
                    cert_chain: Some(cert_chain),
                    signature_verified: Some(true),
                    version_match: None,
                    measurements_available: Some(measurements_available),
                },
                verified: Some(verified),
                warning: join_warnings(
                    key.filter(|key| sources.kept_rims.contains(*key))
                        .map(|key| kept_rim_warning(super::rims::id_of_key(key))),
                    revoked.and_then(|applied| applied.warning),
                ),
            }
        }
        Err(error) => {
            let schema_ok = !matches!(
                error,
                RimError::Schema { .. }
                    | RimError::Xml { .. }
                    | RimError::TooDeep
                    | RimError::TooLarge { .. }
                    | RimError::TooManyAttributes { .. }
                    | RimError::TooManyNamespaces { .. }
                    | RimError::WorkBudgetExceeded { .. }
            );
            // A document of another id is refused before its signature is checked.
            let signature_checked = !matches!(error, RimError::IdMismatch { .. });
            RimClaims {
                summary: RimOutcome {
                    fetched: true,
                    schema_validated: Some(schema_ok),
                    signature_verified: (schema_ok && signature_checked).then_some(false),
                    ..RimOutcome::default()
                },
                ..absent
            }
        }
    }
}
