//! The fetch round of an exchange: what the verified devices need fetched, handed to the host
//! in batches as soon as each resource is known, and the host's answers, taken one by one or
//! a batch at a time.
//!
//! The first batch holds the RIM documents the service lacks and the OCSP queries of the
//! devices' chains. The RIMs' own chains are known once their documents are: their queries
//! are a second batch, handed out as soon as the last RIM is answered, while the first
//! batch's OCSP answers may still be on their way — nothing waits on what it does not need.
//! When no RIM is fetched (the service holds them), both go out in one batch.

use alloc::vec::Vec;

use super::super::appraisal::{Appraisal, Target};
use super::super::fetch::{Fetched, Resource};
use crate::time::UnixTime;

/// The resources of one attestation and which of them are answered.
#[derive(Debug)]
pub(super) struct FetchRound {
    pub(super) appraisal: Appraisal,
    resources: Vec<Resource>,
    targets: Vec<Target>,
    answered: Vec<bool>,
    /// The answers, in resource order, when the exchange records a replay bundle.
    recorded: Option<Vec<Option<Fetched>>>,
    /// Where the batch handed out last begins.
    batch: usize,
    /// Whether the RIM documents are prepared and their chains' queries added.
    pub(super) rims_prepared: bool,
}

/// Why an answer does not fit the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Misfit {
    /// No resource has the index, or it was answered.
    Index {
        /// The index given.
        index: usize,
    },
    /// A batch answer while some of the batch was answered one by one.
    Mixed,
}

impl FetchRound {
    /// A round whose first batch is `resources`, each for its target; `recording`: keep the
    /// answers for a replay bundle.
    pub(super) fn new(
        appraisal: Appraisal,
        resources: Vec<Resource>,
        targets: Vec<Target>,
        recording: bool,
    ) -> Self {
        let count = resources.len();
        Self {
            appraisal,
            resources,
            targets,
            answered: alloc::vec![false; count],
            recorded: recording.then(|| alloc::vec![None; count]),
            batch: 0,
            rims_prepared: false,
        }
    }

    /// The batch handed out last.
    pub(super) fn batch(&self) -> &[Resource] {
        &self.resources[self.batch..]
    }

    /// The index of the batch's first resource among all the round's.
    pub(super) fn offset(&self) -> usize {
        self.batch
    }

    /// Records the answer to resource `index` (of all the round's).
    pub(super) fn answer(
        &mut self,
        index: usize,
        answer: &Fetched,
        now: UnixTime,
    ) -> Result<(), Misfit> {
        match self.answered.get(index) {
            Some(false) => {}
            _ => return Err(Misfit::Index { index }),
        }
        self.answered[index] = true;
        if let Some(slot) = self.recorded.as_mut().and_then(|r| r.get_mut(index)) {
            *slot = Some(answer.clone());
        }
        let target = core::slice::from_ref(&self.targets[index]);
        self.appraisal
            .answer(target, core::slice::from_ref(answer), now);
        Ok(())
    }

    /// Records the answers to the whole last batch, in order (the count is the caller's).
    pub(super) fn answer_batch(
        &mut self,
        answers: &[Fetched],
        now: UnixTime,
    ) -> Result<(), Misfit> {
        if self.answered[self.batch..].iter().any(|&done| done) {
            return Err(Misfit::Mixed);
        }
        for (i, answer) in answers.iter().enumerate() {
            self.answer(self.batch + i, answer, now)?;
        }
        Ok(())
    }

    /// Whether every RIM document of the round is answered (the RIMs can be prepared).
    pub(super) fn rims_answered(&self) -> bool {
        self.targets
            .iter()
            .zip(&self.answered)
            .all(|(target, &done)| done || !matches!(target, Target::Rim(_)))
    }

    /// Hands out `resources`: joined to the current batch while none of it is answered (so
    /// nothing is handed out yet), else as a new batch; an empty list changes nothing.
    pub(super) fn extend(&mut self, resources: Vec<Resource>, targets: Vec<Target>) {
        if resources.is_empty() {
            return;
        }
        if self.answered[self.batch..].iter().any(|&done| done) {
            self.batch = self.resources.len();
        }
        let count = self.resources.len() + resources.len();
        self.answered.resize(count, false);
        if let Some(recorded) = self.recorded.as_mut() {
            recorded.resize(count, None);
        }
        self.resources.extend(resources);
        self.targets.extend(targets);
    }

    /// Whether the round is over: the RIMs prepared and every resource answered.
    pub(super) fn complete(&self) -> bool {
        self.rims_prepared && self.answered.iter().all(|&done| done)
    }

    /// The resources and, when recording, their answers in order.
    pub(super) fn into_parts(self) -> (Appraisal, Vec<Resource>, Option<Vec<Fetched>>) {
        let recorded = self
            .recorded
            .map(|answers| answers.into_iter().flatten().collect());
        (self.appraisal, self.resources, recorded)
    }
}
