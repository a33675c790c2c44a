//! The part of an attestation between the evidence checks and the tokens: what the verified
//! devices need fetched (RIM documents, OCSP answers for their chains and the RIMs' chains),
//! the RIM documents prepared, and the last round of checks (RIM signatures and the OCSP
//! responses' signatures), deduplicated because devices share their CAs and RIMs.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::context::Context;
use super::device::{device_outcomes, DeviceStage};
use super::fetch::{rim_url, FetchFailure, Fetched, OcspCacheEntry, Resource};
use super::mirror::{MirrorEntry, RIM_MIRROR_SECONDS};
use super::outcome::DeviceOutcome;
use super::report_outcome::{RimSources, RimVerdicts};
use super::revocation::{ChainQueries, ChainVerdict, Revocation, RevocationVerdicts};
use super::rims::{id_of_key, is_configured_roots_key};
use crate::attest::DeviceKind;
use crate::attest::ValidatedRequest;
use crate::crypto::{intern_check, SignatureCheck};
use crate::ocsp::{ChainKind, ChainRevocation, RevocationComponent, RevocationPolicy};
use crate::rim::{open_envelope, ParsedRim, PendingRim, RimCertStatus};
use crate::time::UnixTime;

/// One attestation after its evidence round.
#[derive(Debug)]
pub(crate) struct Appraisal {
    pub(crate) request: ValidatedRequest,
    stages: Vec<DeviceStage>,
    /// Unix seconds, for the words of the devices' reports.
    now: UnixTime,
    /// `None` when revocation is not checked (no responder configured).
    revocation: Option<Revocation>,
    /// Each device's chain queries (`None`: the evidence did not verify).
    device_chains: Vec<Option<ChainQueries>>,
    /// RIM documents fetched for this request, by id.
    fetched_rims: BTreeMap<String, Vec<u8>>,
    /// The store keys of RIMs the host gave from a kept copy (stale-if-error).
    kept_rims: alloc::collections::BTreeSet<String>,
    /// The RIM service's envelopes of those documents, as fetched, for the mirror.
    fetched_envelopes: BTreeMap<String, Vec<u8>>,
    /// Why a RIM could not be had from the RIM service (not 404): the real service's 5008.
    download_errors: BTreeMap<String, String>,
    /// Documents settled without signature checks (unreadable, bad digest).
    settled: RimVerdicts,
    /// Each prepared document with the indices of its checks.
    pending: Vec<(String, PendingRim, Vec<usize>)>,
    rim_chains: BTreeMap<String, ChainQueries>,
    /// The last round's checks: RIM signatures and OCSP response signatures.
    checks: Vec<SignatureCheck>,
    /// RIMs parsed in this request, for the service's memo (by their bytes' digest).
    parsed_rims: Vec<(String, ParsedRim)>,
}

impl Appraisal {
    /// The devices' stages after the evidence round; their chains' queries are added when
    /// the service checks revocation, folded under `policy` (the service's, with the
    /// request's `X-NVIDIA-OCSP-ALLOW-CERT-HOLD` applied).
    pub(crate) fn new(
        context: &Context<'_>,
        request: ValidatedRequest,
        stages: Vec<DeviceStage>,
        policy: RevocationPolicy,
    ) -> Self {
        let mut revocation = context.config.ocsp_url.clone().map(|url| {
            let mirrors = context.config.ocsp_mirrors.clone();
            let grace = context.config.ocsp_stale_if_error;
            Revocation::new(url, mirrors, grace, policy, context.entropy)
        });
        let device_component = match request.arch().device_kind() {
            DeviceKind::Gpu => RevocationComponent::DeviceChain,
            DeviceKind::Switch => RevocationComponent::SwitchChain,
        };
        let device_chains = stages
            .iter()
            .map(|stage| match (stage, revocation.as_mut()) {
                (DeviceStage::Verified { evidence, .. }, Some(revocation)) => {
                    let ders: Vec<&[u8]> = evidence
                        .chain()
                        .certificates()
                        .iter()
                        .map(|c| c.der.as_slice())
                        .collect();
                    Some(revocation.add_chain(&ders, ChainKind::Device, device_component))
                }
                _ => None,
            })
            .collect();
        Self {
            request,
            stages,
            now: context.now,
            revocation,
            device_chains,
            fetched_rims: BTreeMap::new(),
            fetched_envelopes: BTreeMap::new(),
            parsed_rims: Vec::new(),
            download_errors: BTreeMap::new(),
            kept_rims: alloc::collections::BTreeSet::new(),
            settled: RimVerdicts::new(),
            pending: Vec::new(),
            rim_chains: BTreeMap::new(),
            checks: Vec::new(),
        }
    }

    /// The store keys of the RIM documents the verified devices name.
    pub(crate) fn rim_keys(&self) -> impl Iterator<Item = &str> {
        self.stages.iter().flat_map(DeviceStage::rim_ids)
    }

    /// The first fetches: RIM documents the service lacks (when a RIM service is
    /// configured) and every OCSP query so far (the devices' chains).
    pub(crate) fn first_fetches(&self, context: &Context<'_>) -> (Vec<Resource>, Vec<Target>) {
        let mut resources = Vec::new();
        let mut targets = Vec::new();
        if let Some(base) = &context.config.rim_service_url {
            for key in self.stages.iter().flat_map(DeviceStage::rim_ids) {
                let asked = targets
                    .iter()
                    .any(|t| matches!(t, Target::Rim(a) if a == key));
                if !context.rims.contains(key) && !asked {
                    let id = id_of_key(key);
                    resources.push(Resource::Rim {
                        id: id.into(),
                        url: rim_url(base, id),
                        fallbacks: context
                            .config
                            .rim_mirrors
                            .iter()
                            .map(|mirror| rim_url(mirror, id))
                            .collect(),
                        formats: context.config.rim_formats,
                    });
                    targets.push(Target::Rim(key.into()));
                }
            }
        }
        self.push_ocsp_from(0, &mut resources, &mut targets);
        (resources, targets)
    }

    /// Records the host's answers, one per target.
    pub(crate) fn answer(&mut self, targets: &[Target], answers: &[Fetched], now: UnixTime) {
        self.answer_from(targets, answers, now, false);
    }

    /// Records answers, one per target; `remembered`: the memo's, which are neither handed
    /// back for the host's cache nor for its mirror, which have them.
    fn answer_from(
        &mut self,
        targets: &[Target],
        answers: &[Fetched],
        now: UnixTime,
        remembered: bool,
    ) {
        for (target, answer) in targets.iter().zip(answers) {
            match target {
                Target::Rim(id) => self.answer_rim(id, answer, remembered),
                Target::Ocsp(index) => {
                    if let Some(revocation) = self.revocation.as_mut() {
                        revocation.answer(*index, answer, now, &mut self.checks);
                        if remembered {
                            revocation.remembered(*index);
                        }
                    }
                }
            }
        }
    }

    /// Records answers the service's memo gave, one per target: used as the host's, but
    /// neither handed back for the host's cache nor for its mirror, which have them.
    pub(crate) fn answer_remembered(
        &mut self,
        targets: &[Target],
        answers: &[Fetched],
        now: UnixTime,
    ) {
        self.answer_from(targets, answers, now, true);
    }

    /// Prepares the RIM documents the verified devices name, from the service's store and
    /// this request's fetches, and adds their chains' OCSP queries. Returns the new fetches
    /// (the RIM chains' queries), empty when there are none.
    pub(crate) fn prepare_rims(&mut self, context: &Context<'_>) -> (Vec<Resource>, Vec<Target>) {
        let asked_before = self.revocation.as_ref().map_or(0, Revocation::len);
        let ids: Vec<String> = self
            .stages
            .iter()
            .flat_map(DeviceStage::rim_ids)
            .map(String::from)
            .collect();
        let driver_ids: Vec<String> = self
            .stages
            .iter()
            .filter_map(DeviceStage::driver_rim_id)
            .map(String::from)
            .collect();
        for id in ids {
            let seen = self.settled.contains_key(&id) || self.pending.iter().any(|p| p.0 == id);
            let xml = context
                .rims
                .get(&id)
                .or_else(|| self.fetched_rims.get(&id).map(Vec::as_slice));
            let Some(xml) = xml.filter(|_| !seen) else {
                continue;
            };
            // The document must be the RIM its id names, not only be stored or fetched under it.
            let (prepared, parsed) = context
                .memo
                .prepare_rim(xml, context.rim_trust, context.now);
            self.parsed_rims.extend(parsed);
            let prepared =
                prepared.and_then(|pending| pending.check_id(id_of_key(&id)).map(|()| pending));
            match prepared {
                Err(error) => {
                    self.settled.insert(id, Err(error));
                }
                Ok(pending) => {
                    if let (Some(revocation), true) =
                        (self.revocation.as_mut(), pending.chain_planned())
                    {
                        let component = if driver_ids.contains(&id) {
                            RevocationComponent::DriverRimChain
                        } else {
                            RevocationComponent::VbiosRimChain
                        };
                        let queries =
                            revocation.add_chain(pending.certificates(), ChainKind::Rim, component);
                        self.rim_chains.insert(id.clone(), queries);
                    }
                    let indices = pending
                        .signature_checks()
                        .iter()
                        .map(|check| intern_check(&mut self.checks, check))
                        .collect();
                    self.pending.push((id, pending, indices));
                }
            }
        }
        let mut resources = Vec::new();
        let mut targets = Vec::new();
        self.push_ocsp_from(asked_before, &mut resources, &mut targets);
        (resources, targets)
    }

    /// The RIMs parsed since the last call, for the service's memo.
    pub(crate) fn take_parsed_rims(&mut self) -> Vec<(String, ParsedRim)> {
        core::mem::take(&mut self.parsed_rims)
    }

    /// The last round's checks.
    pub(crate) fn checks(&self) -> &[SignatureCheck] {
        &self.checks
    }

    /// Completes the last round and builds every device's outcome; also returns the OCSP
    /// answers the host may cache and the fetched RIM envelopes that verified.
    pub(crate) fn finish(self, verdicts: &[bool]) -> Finished {
        let Self {
            request,
            stages,
            now,
            mut revocation,
            device_chains,
            download_errors,
            kept_rims,
            mut settled,
            pending,
            rim_chains,
            fetched_envelopes,
            ..
        } = self;
        for (id, rim, indices) in pending {
            let own: Vec<bool> = indices
                .iter()
                .map(|&i| verdicts.get(i).copied().unwrap_or(false))
                .collect();
            settled.insert(id, rim.finish(&own));
        }
        let (verdicts_by_chain, cacheable) = match revocation.as_mut() {
            Some(revocation) => {
                revocation.finish(verdicts);
                let device_component = match request.arch().device_kind() {
                    DeviceKind::Gpu => RevocationComponent::DeviceChain,
                    DeviceKind::Switch => RevocationComponent::SwitchChain,
                };
                let devices = device_chains
                    .iter()
                    .map(|chain| match chain {
                        Some(chain) => revocation.verdict(chain, now),
                        None => ChainVerdict::unanswered(device_component),
                    })
                    .collect();
                let rims = rim_chains
                    .iter()
                    .map(|(id, chain)| (id.clone(), revocation.verdict(chain, now)))
                    .collect();
                (
                    RevocationVerdicts {
                        configured: true,
                        devices,
                        rims,
                    },
                    revocation.cacheable(now),
                )
            }
            None => (
                RevocationVerdicts {
                    configured: false,
                    devices: Vec::new(),
                    rims: BTreeMap::new(),
                },
                Vec::new(),
            ),
        };
        let sources = RimSources {
            rims: &settled,
            download_errors: &download_errors,
            revocation: &verdicts_by_chain,
            kept_rims: &kept_rims,
        };
        let outcomes = device_outcomes(&request, stages, &sources, now);
        let fetched_rims = verified_envelopes(fetched_envelopes, &settled, &verdicts_by_chain, now);
        let verified_rims = fetched_rims
            .iter()
            .filter(|entry| !is_configured_roots_key(&entry.id))
            .cloned()
            .collect();
        Finished {
            request,
            outcomes,
            cacheable,
            verified_rims,
            fetched_rims,
        }
    }

    /// `key`: the store key (super::rims::store_key) the document was fetched for.
    fn answer_rim(&mut self, key: &str, answer: &Fetched, remembered: bool) {
        let id = id_of_key(key);
        match answer {
            Fetched::Body(body) | Fetched::Cached { body, .. } | Fetched::Stale { body, .. } => {
                match open_envelope(body, id) {
                    Ok(envelope) => {
                        if matches!(answer, Fetched::Stale { .. }) {
                            self.kept_rims.insert(key.into());
                        }
                        self.fetched_rims.insert(key.into(), envelope.rim);
                        if !remembered {
                            self.fetched_envelopes.insert(key.into(), body.clone());
                        }
                    }
                    Err(error) => {
                        self.download_errors.insert(
                            key.into(),
                            alloc::format!(
                                "The RIM service's answer for {id} is unusable: {error}"
                            ),
                        );
                    }
                }
            }
            // Not found, or not fetched: the real service's 5009, as for any missing RIM.
            Fetched::Failed(FetchFailure::HttpStatus(404) | FetchFailure::NotFetched) => {}
            Fetched::Failed(failure) => {
                self.download_errors.insert(
                    key.into(),
                    alloc::format!("RIM {id} could not be fetched from the RIM service: {failure}"),
                );
            }
        }
    }

    fn push_ocsp_from(
        &self,
        from: usize,
        resources: &mut Vec<Resource>,
        targets: &mut Vec<Target>,
    ) {
        if let Some(revocation) = &self.revocation {
            for (index, resource) in revocation.resources_from(from) {
                resources.push(resource);
                targets.push(Target::Ocsp(index));
            }
        }
    }
}

/// What the last round settled: the request, every device's outcome, the OCSP answers the
/// host may cache and the fetched RIM envelopes that verified (for the mirror).
pub(crate) struct Finished {
    pub(crate) request: ValidatedRequest,
    pub(crate) outcomes: Vec<DeviceOutcome>,
    pub(crate) cacheable: Vec<OcspCacheEntry>,
    pub(crate) verified_rims: Vec<MirrorEntry>,
    /// Every fetched envelope that verified, by store key (a configured root's too), for
    /// the service's memo.
    pub(crate) fetched_rims: Vec<MirrorEntry>,
}

/// The fetched envelopes whose document verified in this request — signature, chain valid
/// (not expired) at `now`, the RIM its id names — and whose chain is not reported revoked,
/// by store key. (A document kept for a configured root's devices is never mirrored under
/// NVIDIA's id: the mirror takes only NVIDIA's keys.)
fn verified_envelopes(
    envelopes: BTreeMap<String, Vec<u8>>,
    settled: &RimVerdicts,
    revocation: &RevocationVerdicts,
    now: UnixTime,
) -> Vec<MirrorEntry> {
    envelopes
        .into_iter()
        .filter_map(|(key, body)| {
            let Some(Ok(verified)) = settled.get(&key) else {
                return None;
            };
            let chain = verified.cert_chain();
            let revoked = matches!(
                revocation.rims.get(&key),
                Some(ChainVerdict::Checked(ChainRevocation::Revoked { .. }, ..))
            );
            if chain.status != RimCertStatus::Valid || revoked {
                return None;
            }
            let until = now.saturating_add(RIM_MIRROR_SECONDS);
            Some(MirrorEntry {
                id: key,
                body,
                until: chain.expiration.map_or(until, |expiry| expiry.min(until)),
            })
        })
        .collect()
}

/// What one fetched resource is for.
#[derive(Debug)]
pub(crate) enum Target {
    Rim(String),
    Ocsp(usize),
}
