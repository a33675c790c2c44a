//! A node's topology from its devices' evidence (`checkTopology`): the GPUs and the switches
//! as two batches of the evidence entries' options, each device verified (transcript,
//! signature, chain, nonce, architecture) before its links are read.

use alloc::vec::Vec;

use serde::Deserialize;

use super::error::TopologyError;
use super::input::{bound, label, TopologyInput, TopologyOptions};
use super::report::TopologyReport;
use crate::attest::DeviceKind;
use crate::evidence::options::{EvidenceOptions, OptionsError};
use crate::evidence::verify::{BatchPlan, VerifiedEvidence};
use crate::time::UnixTime;

/// The options of a topology check over evidence: `gpus` and `switches` are each
/// `prepareEvidence`'s options (`devices`, `nonce`, `arch`, `trustAnchors`, `now`, …), and the
/// counts the node must have (8 and 4 by default, an HGX board).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TopologyEvidenceOptions<Now = UnixTime> {
    gpus: EvidenceOptions<Now>,
    switches: EvidenceOptions<Now>,
    expected_gpus: Option<usize>,
    expected_switches: Option<usize>,
}

impl<Now> TopologyEvidenceOptions<Now> {
    /// Verifies every device with the software backend, then checks the node's topology.
    /// `clock` reads each batch's `now` (see [`UnixTime::given_or`]).
    ///
    /// # Errors
    /// Options that cannot be used (as `prepareEvidence`'s, with `gpus.`/`switches.` before
    /// the member); [`TopologyError::Device`] for the first device whose evidence does not
    /// verify (a topology is read only from devices that passed); the errors of
    /// [`super::check_topology`].
    pub fn check<E: From<OptionsError> + From<TopologyError>>(
        &self,
        clock: impl Fn(Option<&Now>) -> Result<UnixTime, E>,
    ) -> Result<TopologyReport, E> {
        let gpus = verified(&self.gpus, DeviceKind::Gpu, &clock)?;
        let switches = verified(&self.switches, DeviceKind::Switch, &clock)?;
        let input = TopologyInput::from_evidence(&gpus, &switches)?;
        let defaults = TopologyOptions::default();
        let options = TopologyOptions {
            expected_gpus: self.expected_gpus.unwrap_or(defaults.expected_gpus),
            expected_switches: self.expected_switches.unwrap_or(defaults.expected_switches),
            ..defaults
        };
        Ok(super::check_topology(&input, &options)?)
    }
}

/// One batch's devices, each verified, or the first one's failure named by its label.
fn verified<Now, E: From<OptionsError> + From<TopologyError>>(
    batch: &EvidenceOptions<Now>,
    kind: DeviceKind,
    clock: &impl Fn(Option<&Now>) -> Result<UnixTime, E>,
) -> Result<Vec<VerifiedEvidence>, E> {
    let plan: BatchPlan = batch
        .batch_plan(|now| clock(now).map_err(BatchError::Clock))
        .map_err(|error| match error {
            BatchError::Clock(error) => error,
            BatchError::Options(error) => E::from(error.under(batch_name(kind))),
        })?;
    // The budget is checked before any signature is: a hostile batch costs no verification.
    bound(plan.device_count(), batch_name(kind))?;
    plan.verify()
        .into_iter()
        .enumerate()
        .map(|(i, result)| {
            result.map_err(|error| {
                E::from(TopologyError::Device {
                    device: label(kind, i),
                    error,
                })
            })
        })
        .collect()
}

/// The options member of a device kind's batch.
fn batch_name(kind: DeviceKind) -> &'static str {
    match kind {
        DeviceKind::Gpu => "gpus",
        DeviceKind::Switch => "switches",
    }
}

/// A batch's error: the host clock's own, or its options'.
enum BatchError<E> {
    Clock(E),
    Options(OptionsError),
}

impl<E> From<OptionsError> for BatchError<E> {
    fn from(error: OptionsError) -> Self {
        Self::Options(error)
    }
}
