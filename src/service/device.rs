//! Verifying the devices of one request: their evidence checks planned, each device's stage
//! after them (the RIMs it needs), and every device's outcome — its staged report
//! ([`crate::evidence::DeviceReport`], the one place that orders a device's checks)
//! translated by [`super::report_outcome`] — with the one rule across devices: a device sent
//! twice fails its repeats.

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::codes::{details, message_of, DUPLICATE_DEVICE_CODE};
use super::failure::failed_outcome;
use super::outcome::DeviceOutcome;
use super::report_outcome::{other_root, revocation_input, verified_outcome, RimKeys, RimSources};
use super::revocation::ChainVerdict;
use super::rims::store_key;
use crate::attest::{Arch, ValidatedRequest};
use crate::chain::{CertCache, ChainOptions, TrustStore};
use crate::evidence::{
    device_rims, staged_report, BatchPlan, DeviceInput, DeviceRims, FailedEvidence, FwidPolicy,
    RevocationInput, RimInputs, RimRevocation, Transcript, VerifiedEvidence, VerifyContext,
};
use crate::ocsp::RevocationComponent;
use crate::rim::{driver_rim_id, firmware_rim_id, RuntimeEvidence};
use crate::time::UnixTime;

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
    /// The store key of the driver RIM, when the device has one.
    pub(crate) fn driver_rim_id(&self) -> Option<&str> {
        match self {
            Self::Verified { driver_rim, .. } => driver_rim.as_ref().and_then(Option::as_deref),
            Self::Failed(_) => None,
        }
    }

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

/// The outcome of every device, in request order: each device's staged report, translated.
/// A device sent again in the same request (the same evidence bytes, or the same `ueid`)
/// fails every repeat, so one GPU cannot count as several passing devices — a deliberate
/// difference from the real service, which attests each item as if it were alone.
pub(crate) fn device_outcomes(
    request: &ValidatedRequest,
    stages: Vec<DeviceStage>,
    sources: &RimSources<'_>,
    now: UnixTime,
) -> Vec<DeviceOutcome> {
    let repeats = repeated_devices(request, &stages);
    request
        .devices()
        .iter()
        .zip(stages)
        .zip(repeats)
        .enumerate()
        .map(|(index, ((device, stage), repeat_of))| {
            let hint = device.firmware_version().map(|v| v.as_str().to_string());
            let mut outcome = match stage {
                DeviceStage::Verified {
                    evidence,
                    runtime,
                    firmware_rim,
                    driver_rim,
                } => {
                    let revocation = sources
                        .revocation
                        .devices
                        .get(index)
                        .unwrap_or(&ChainVerdict::NotChecked);
                    let keys = (
                        driver_rim.as_ref().map(|key| key.as_deref()),
                        firmware_rim.as_deref(),
                    );
                    let report = staged_report(
                        Ok(&evidence),
                        hint,
                        rim_inputs(keys, sources),
                        &revocation_input(revocation, "certificate"),
                        now,
                    );
                    verified_outcome(
                        &report,
                        &evidence,
                        (request.arch(), &runtime),
                        keys,
                        sources,
                        revocation,
                    )
                }
                DeviceStage::Failed(failed) => {
                    let report = staged_report(
                        Err(&failed),
                        hint,
                        (RimInputs::default(), RimRevocation::default()),
                        &RevocationInput::NotChecked,
                        now,
                    );
                    let mut outcome = failed_outcome(&report, &failed, device.evidence(), request);
                    // With a responder, nothing is "not checked": the device failed before
                    // its chain could be asked about, and its error says why.
                    if sources.revocation.configured {
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

/// The report's RIM inputs of a verified device: the documents the store holds under its
/// keys, and each one's signer-chain revocation verdict.
fn rim_inputs(
    (driver, firmware): RimKeys<'_>,
    sources: &RimSources<'_>,
) -> (RimInputs, RimRevocation) {
    let document = |key: Option<&str>| key.and_then(|key| sources.rims.get(key).cloned());
    let revocation = |key: Option<&str>, component| {
        key.map(|key| revocation_input(&sources.revocation.rim(key, component), "rim"))
    };
    let driver = driver.flatten();
    (
        RimInputs {
            driver: document(driver),
            firmware: document(firmware),
        },
        RimRevocation {
            driver: revocation(driver, RevocationComponent::DriverRimChain),
            firmware: revocation(firmware, RevocationComponent::VbiosRimChain),
        },
    )
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

/// The values of a transcript the RIM ids and the comparison need.
fn runtime_evidence(
    transcript: &Transcript,
    hwmodel: Option<String>,
    arch: Arch,
    hint: Option<String>,
) -> RuntimeEvidence {
    RuntimeEvidence::from_transcript(transcript, arch.device_kind(), hwmodel, hint)
}

/// The chip of an architecture when no certificate says it (RIM ids before verification):
/// its row's first chip.
fn default_chip(arch: Arch) -> Option<String> {
    Some(arch.profile().default_chip().word.into())
}
