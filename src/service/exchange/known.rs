//! What the service's memo spares an exchange: the checks of a verify round it knows verified,
//! and the fetches it holds fresh answers for.

use alloc::vec::Vec;

use super::super::appraisal::{Appraisal, Target};
use super::super::context::Service;
use super::super::fetch::Resource;
use super::super::memo::{Target as MemoTarget, VerifiedMemo};
use crate::crypto::SignatureCheck;
use crate::time::UnixTime;

/// The part of a verify round handed to the host: the checks the memo does not know, and
/// where each of the round's checks is among them (`None`: known to have verified).
#[derive(Debug)]
pub(super) struct Asked {
    pub(super) checks: Vec<SignatureCheck>,
    positions: Vec<Option<usize>>,
}

impl Asked {
    /// The checks of `all` that `memo` does not know; `None` when it knows none of them.
    pub(super) fn split(all: &[SignatureCheck], memo: &VerifiedMemo) -> Option<Self> {
        let known: Vec<bool> = all.iter().map(|check| memo.knows(check)).collect();
        if !known.contains(&true) {
            return None;
        }
        let mut checks = Vec::new();
        let positions = all
            .iter()
            .zip(known)
            .map(|(check, known)| {
                (!known).then(|| {
                    checks.push(check.clone());
                    checks.len() - 1
                })
            })
            .collect();
        Some(Self { checks, positions })
    }

    /// The verdicts of the whole round from the host's `verdicts` of the asked checks.
    pub(super) fn expand(&self, verdicts: &[bool]) -> Vec<bool> {
        self.positions
            .iter()
            .map(|position| position.is_none_or(|i| verdicts.get(i).copied().unwrap_or(false)))
            .collect()
    }
}

/// Answers from the service's memo the resources it holds fresh at `now` (not while
/// `recording` a replay bundle, whose fetches must be all the request needed, nor with the
/// service's `fetchCache` off); returns the rest, for the host.
pub(super) fn answer_known(
    service: &Service,
    recording: bool,
    now: UnixTime,
    appraisal: &mut Appraisal,
    resources: Vec<Resource>,
    targets: Vec<Target>,
) -> (Vec<Resource>, Vec<Target>) {
    if !service.config().fetch_cache || recording {
        return (resources, targets);
    }
    let (mut known_targets, mut known_answers) = (Vec::new(), Vec::new());
    let (mut rest, mut rest_targets) = (Vec::new(), Vec::new());
    for (resource, target) in resources.into_iter().zip(targets) {
        let kept = match (&resource, &target) {
            (Resource::Ocsp { cache_key, .. }, _) => Some(MemoTarget::Ocsp(cache_key)),
            (_, Target::Rim(key)) => Some(MemoTarget::Rim(key)),
            _ => None,
        };
        match kept.and_then(|kept| service.memo().answer(&kept, now)) {
            Some(answer) => {
                known_targets.push(target);
                known_answers.push(answer);
            }
            None => {
                rest.push(resource);
                rest_targets.push(target);
            }
        }
    }
    appraisal.answer_remembered(&known_targets, &known_answers, now);
    (rest, rest_targets)
}
