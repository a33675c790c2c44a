//! Verifying the devices of one request and turning what was established into
//! [`DeviceOutcome`]s: evidence and chain ([`crate::evidence`]), then the RIMs
//! ([`crate::rim`]) and the measurement comparison.
//!
//! The first failure of a device becomes its `x-nvidia-error-details` with the real
//! service's code; the checks that ran before it keep their results, the ones after it are
//! `None` (claims 3.0: null).

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::claims::switch_pdis_claim;
use super::codes::{
    details, message_of, DUPLICATE_DEVICE_CODE, FWID_NOT_IN_EVIDENCE_WARNING, OTHER_ROOT_WARNING,
};
use super::failure::{failed_outcome, unestablished};
use super::outcome::{
    CertStatus, ChainOutcome, DeviceOutcome, ErrorDetails, MeasurementOutcome, RevocationStatus,
    RimOutcome,
};
use super::remedy::{rim_download_failed, rim_not_found};
use super::revocation::{ChainVerdict, RevocationVerdicts};
use super::rims::store_key;
use crate::attest::{Arch, DeviceKind, ValidatedRequest};
use crate::chain::CertCache;
use crate::chain::{
    parse_pem_chain, ChainOptions, TrustStore, VerifiedChain, NVIDIA_DEVICE_IDENTITY_CA_PEM,
};
use crate::evidence::{
    compare_device, device_rims, BatchPlan, DeviceInput, DeviceRims, FailedEvidence, FwidCheck,
    FwidPolicy, RimPath, Transcript, VerifiedEvidence, VerifyContext,
};
use crate::rim::{
    driver_rim_id, firmware_rim_id, RimCertStatus, RimError, RuntimeEvidence, VerifiedRim,
};
use crate::time::UnixTime;

/// The root a verified chain ends at, unless it is NVIDIA's Device Identity CA.
fn other_root(chain: &VerifiedChain) -> Option<&str> {
    let last = chain.certificates().last()?;
    let nvidia = parse_pem_chain(NVIDIA_DEVICE_IDENTITY_CA_PEM)
        .ok()
        .and_then(|ders| ders.into_iter().next());
    (nvidia.as_deref() != Some(last.der.as_slice())).then_some(last.subject.as_str())
}

/// The signature checks of every device of `request`, planned against `device_trust` at
/// `now` (Unix seconds).
pub(crate) fn plan_evidence(
    request: &ValidatedRequest,
    device_trust: &TrustStore,
    now: UnixTime,
    fwid_policy: FwidPolicy,
    certs: &mut CertCache,
) -> BatchPlan {
    let inputs: Vec<DeviceInput<'_>> = request
        .devices()
        .iter()
        .map(|device| DeviceInput {
            evidence: device.evidence(),
            certificate_pem: device.certificate_pem(),
        })
        .collect();
    let context = VerifyContext {
        arch: request.arch(),
        nonce: *request.nonce(),
        now,
        trust_store: device_trust,
        chain_options: ChainOptions::default(),
        fwid_policy,
    };
    BatchPlan::with_parser(&inputs, &context, |der, at| certs.parse(der, at))
}

/// A device after its evidence and chain checks, before its RIMs.
#[derive(Debug)]
#[expect(
    clippy::large_enum_variant,
    reason = "one per device of a request, short-lived"
)]
pub(crate) enum DeviceStage {
    /// The evidence verified; the values the RIM comparison needs, and the store keys of its
    /// RIMs (super::rims::store_key: the RIM ids, in the family of the device's root).
    Verified {
        evidence: VerifiedEvidence,
        runtime: RuntimeEvidence,
        firmware_rim: Option<String>,
        /// `None` where no driver RIM applies (switches, FSP evidence): the evidence
        /// profile decides, never whether a tag is present.
        driver_rim: Option<Option<String>>,
    },
    /// The evidence did not verify.
    Failed(FailedEvidence),
}

impl DeviceStage {
    /// The store keys of the RIMs this device needs (driver first).
    pub(crate) fn rim_ids(&self) -> impl Iterator<Item = &str> {
        let (driver, firmware) = match self {
            Self::Verified {
                driver_rim,
                firmware_rim,
                ..
            } => (
                driver_rim.as_ref().and_then(Option::as_ref),
                firmware_rim.as_ref(),
            ),
            Self::Failed(_) => (None, None),
        };
        driver.into_iter().chain(firmware).map(String::as_str)
    }
}

/// Each device's stage from its evidence result, in request order.
pub(crate) fn device_stages(
    request: &ValidatedRequest,
    results: Vec<Result<VerifiedEvidence, FailedEvidence>>,
) -> Vec<DeviceStage> {
    request
        .devices()
        .iter()
        .zip(results)
        .map(|(device, result)| match result {
            Err(failed) => DeviceStage::Failed(failed),
            Ok(evidence) => {
                let hint = device.firmware_version().map(|v| v.as_str().to_string());
                // The same rule the verification report uses (crate::evidence::device_rims).
                let DeviceRims {
                    runtime,
                    driver,
                    firmware,
                } = device_rims(&evidence, hint);
                // RIMs are looked up in the family of the device's root (super::rims).
                let nvidia = other_root(evidence.chain()).is_none();
                let key = |id: String| store_key(&id, nvidia);
                DeviceStage::Verified {
                    runtime,
                    firmware_rim: firmware.map(key),
                    driver_rim: driver.map(|driver| driver.map(key)),
                    evidence,
                }
            }
        })
        .collect()
}

/// The RIM documents of one request, by the id asked for: only ids the store holds.
pub(crate) type RimVerdicts = BTreeMap<String, Result<VerifiedRim, RimError>>;

/// The outcome of every device, in request order. A device sent again in the same request
/// (the same evidence bytes, or the same `ueid`) fails every repeat, so one GPU cannot count
/// as several passing devices — a deliberate difference from the real service, which
/// attests each item as if it were alone.
pub(crate) fn device_outcomes(
    request: &ValidatedRequest,
    stages: Vec<DeviceStage>,
    rims: &RimVerdicts,
    download_errors: &BTreeMap<String, String>,
    revocation: &RevocationVerdicts,
) -> Vec<DeviceOutcome> {
    let repeats = repeated_devices(request, &stages);
    request
        .devices()
        .iter()
        .zip(stages)
        .zip(repeats)
        .enumerate()
        .map(|(index, ((device, stage), repeat_of))| {
            let mut outcome = match stage {
                DeviceStage::Verified {
                    evidence,
                    runtime,
                    firmware_rim,
                    driver_rim,
                } => verified_outcome(
                    &evidence,
                    request.arch(),
                    &runtime,
                    (driver_rim, firmware_rim),
                    &RimSources {
                        rims,
                        download_errors,
                        revocation,
                    },
                    revocation
                        .devices
                        .get(index)
                        .unwrap_or(&ChainVerdict::NotChecked),
                ),
                DeviceStage::Failed(failed) => {
                    let mut outcome = failed_outcome(failed, device.evidence(), request);
                    // With a responder, nothing is "not checked": the device failed before
                    // its chain could be asked about, and its error says why.
                    if revocation.configured {
                        outcome.warning = None;
                    }
                    outcome
                }
            };
            if let Some(first) = repeat_of {
                outcome.error = Some(details(
                    DUPLICATE_DEVICE_CODE,
                    "evidence",
                    message_of(DUPLICATE_DEVICE_CODE),
                    &alloc::format!(
                        "The device was already attested as item {first} of this request"
                    ),
                ));
                outcome.secure_boot = None;
                outcome.debug_status = None;
            }
            outcome
        })
        .collect()
}

/// For each device, the index of the earlier device it repeats: identical evidence bytes,
/// or the same `ueid` (leaf serial of a chain that validated, even if the device failed
/// later). O(n log n).
fn repeated_devices(request: &ValidatedRequest, stages: &[DeviceStage]) -> Vec<Option<usize>> {
    let mut by_evidence: BTreeMap<&[u8], usize> = BTreeMap::new();
    let mut by_ueid: BTreeMap<String, usize> = BTreeMap::new();
    request
        .devices()
        .iter()
        .zip(stages)
        .enumerate()
        .map(|(index, (device, stage))| {
            let ueid = match stage {
                DeviceStage::Verified { evidence, .. } => Some(evidence.ueid()),
                DeviceStage::Failed(failed) => failed.chain.as_ref().map(|chain| chain.ueid()),
            };
            let by_bytes = *by_evidence.entry(device.evidence()).or_insert(index);
            let by_serial = ueid.map(|ueid| *by_ueid.entry(ueid).or_insert(index));
            let first = by_serial.map_or(by_bytes, |serial| serial.min(by_bytes));
            (first != index).then_some(first)
        })
        .collect()
}

/// The RIM ids a device of `arch` needs, `(driver, firmware)`, read from its transcript
/// alone (no verification: the host fetches these before the request is verified).
pub(crate) fn rim_ids(
    transcript: &Transcript,
    arch: Arch,
    hint: Option<String>,
) -> (Option<String>, Option<String>) {
    let runtime = runtime_evidence(transcript, default_chip(arch), arch, hint);
    // None where the architecture has no driver RIM (its row's `driver_rim`).
    let driver = driver_rim_id(arch, &runtime).ok();
    (driver, firmware_rim_id(arch, &runtime).ok())
}

/// What the RIM outcomes are read from.
struct RimSources<'a> {
    rims: &'a RimVerdicts,
    download_errors: &'a BTreeMap<String, String>,
    revocation: &'a RevocationVerdicts,
}

fn verified_outcome(
    verified: &VerifiedEvidence,
    arch: Arch,
    runtime: &RuntimeEvidence,
    (driver_id, firmware_id): (Option<Option<String>>, Option<String>),
    sources: &RimSources<'_>,
    revocation: &ChainVerdict,
) -> DeviceOutcome {
    let kind = arch.device_kind();
    let mut chain = ChainOutcome::from(verified.chain());
    let revoked = revocation.apply(&mut chain, "certificate");
    let mut warnings: Vec<String> = other_root(verified.chain())
        .map(|root| OTHER_ROOT_WARNING.replace("{root}", root))
        .into_iter()
        .chain(revoked.warning.map(String::from))
        .collect();
    // A verified device's FWID check passed: matched, or passed as NVIDIA's verifiers pass
    // it (the warning then says it was not compared), or not part of the evidence format.
    if verified.fwid() == FwidCheck::NotInEvidence {
        warnings.push(FWID_NOT_IN_EVIDENCE_WARNING.into());
    }
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
        cert_chain: Some(chain.clone()),
        ..unestablished(kind)
    };
    if chain.status != CertStatus::Valid && chain.status != CertStatus::Revoked {
        outcome.error = Some(details(
            4011,
            "certificate",
            "CERTIFICATE_EXPIRED",
            "Device certificate chain is not valid at the time of verification",
        ));
    }
    if outcome.error.is_none() {
        outcome.error = revoked.error;
    }

    let firmware = rim_outcome(firmware_id, sources);
    let driver = driver_id.map(|id| rim_outcome(id, sources));
    for rim in driver.iter().chain(core::iter::once(&firmware)) {
        if let Some(warning) = rim
            .warning
            .filter(|w| !warnings.iter().any(|have| have == w))
        {
            warnings.push(warning.into());
        }
    }
    outcome.warning = (!warnings.is_empty()).then(|| warnings.join("; "));
    outcome.firmware_rim = Some(firmware.summary.clone());
    outcome.driver_rim = driver.as_ref().map(|d| d.summary.clone());
    outcome.oemid = driver
        .as_ref()
        .and_then(|d| d.verified.as_ref())
        .and_then(|rim| rim.document().meta.firmware_manufacturer_id.clone());

    // The first RIM failure, driver before firmware, as the real service reports it.
    for rim in driver.iter().chain(core::iter::once(&firmware)) {
        if outcome.error.is_none() {
            outcome.error = rim.error.clone();
        }
    }

    let comparison = compare_device(
        verified.profile().rim_path(),
        driver
            .as_ref()
            .and_then(|d| d.verified.as_ref())
            .map(VerifiedRim::document),
        firmware.verified.as_ref().map(VerifiedRim::document),
        runtime,
    );
    match comparison {
        Some(Ok(result)) => {
            outcome.index_no_conflict =
                (kind == DeviceKind::Gpu && driver.is_some()).then_some(true);
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
            if !result.all_match() && outcome.error.is_none() && result.measurements_match {
                outcome.error = Some(details(
                    5015,
                    "rim",
                    "ERROR_ATTESTING_EVIDENCE",
                    "RIM version does not match the version in the evidence",
                ));
            }
        }
        Some(Err(error)) => {
            outcome.index_no_conflict = Some(error.service_code() != 4009);
            if outcome.error.is_none() {
                outcome.error = Some(details(
                    error.service_code(),
                    "rim",
                    message_of(error.service_code()),
                    &error.to_string(),
                ));
            }
        }
        None => {}
    }
    if outcome.passed() {
        outcome.secure_boot = Some(true);
        outcome.debug_status = Some("disabled".into());
    }
    outcome
}

struct RimResult {
    summary: RimOutcome,
    verified: Option<VerifiedRim>,
    error: Option<ErrorDetails>,
    warning: Option<&'static str>,
}

fn rim_outcome(id: Option<String>, sources: &RimSources<'_>) -> RimResult {
    let not_found = |what: &str| RimResult {
        summary: RimOutcome::default(),
        verified: None,
        error: Some(details(5009, "rim", "RIM_BUNDLE_NOT_FOUND", what)),
        warning: None,
    };
    let Some(id) = id else {
        return not_found("The evidence does not name a reference measurement document");
    };
    let Some(result) = sources.rims.get(&id).cloned() else {
        if let Some(problem) = sources.download_errors.get(&id) {
            let problem = rim_download_failed(problem, &id);
            return RimResult {
                error: Some(details(5008, "rim", "ERROR_DURING_RIM_DOWNLOAD", &problem)),
                ..not_found("")
            };
        }
        return not_found(&rim_not_found(&id));
    };
    match result {
        Ok(verified) => {
            let chain = verified.cert_chain();
            let status = match chain.status {
                RimCertStatus::Valid => CertStatus::Valid,
                RimCertStatus::Expired => CertStatus::Expired,
                _ => CertStatus::Invalid,
            };
            let mut cert_chain = ChainOutcome {
                status,
                ocsp: RevocationStatus::Unknown,
                earliest_expiry: chain.expiration,
                revocation_reason: None,
            };
            let revoked = sources.revocation.rim(&id).apply(&mut cert_chain, "rim");
            let error = match chain.status.failure() {
                None => revoked.error,
                Some(failure) => Some(details(
                    failure.service_code,
                    "rim",
                    failure.service_message,
                    failure.description,
                )),
            };
            let measurements_available = verified.document().active_measurements().next().is_some();
            RimResult {
                summary: RimOutcome {
                    fetched: true,
                    schema_validated: Some(true),
                    cert_chain: Some(cert_chain),
                    signature_verified: Some(true),
                    version_match: None,
                    measurements_available: Some(measurements_available),
                },
                verified: Some(verified),
                error,
                warning: revoked.warning,
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
            RimResult {
                summary: RimOutcome {
                    fetched: true,
                    schema_validated: Some(schema_ok),
                    signature_verified: (schema_ok && signature_checked).then_some(false),
                    ..RimOutcome::default()
                },
                verified: None,
                error: Some(details(
                    error.service_code(),
                    "rim",
                    message_of(error.service_code()),
                    &error.to_string(),
                )),
                warning: None,
            }
        }
    }
}

/// The values of a transcript the RIM ids and the comparison need.
fn runtime_evidence(
    transcript: &Transcript,
    hwmodel: Option<String>,
    arch: Arch,
    hint: Option<String>,
) -> RuntimeEvidence {
    RuntimeEvidence::from_transcript(transcript, arch.device_kind(), hwmodel, hint)
}

/// The chip name of an architecture when no certificate says it (RIM ids of FSP evidence):
/// its row's RIM chip.
fn default_chip(arch: Arch) -> Option<String> {
    Some(arch.profile().rim_chip.into())
}
