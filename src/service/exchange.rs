//! One request on its way through the service, with every ECDSA operation handed out as
//! data: the host runs the verifications and signatures where it likes — the core's
//! software backend ([`Service::handle`]), or WebCrypto in a worker, whose private key never
//! enters the core.
//!
//! The rounds of an attestation: the evidence and certificate-path checks of every device;
//! the fetches the verified devices need — RIM documents the service lacks and OCSP answers
//! for their chains; the OCSP answers for the RIMs' own chains (known once the RIMs are);
//! the RIM documents' and the OCSP responses' checks; the device tokens' signatures; the
//! overall token's signature (it binds the device tokens' digests).
//! Rounds with nothing to do are skipped, and the signing rounds are done inside the core
//! when the service holds its key. Each round is one batch, so a host runs it in parallel.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::appraisal::{Appraisal, Finished};
use super::context::{Context, Service};
use super::device::{device_stages, plan_evidence};
use super::fetch::{FetchFailure, Fetched, OcspCacheEntry, Resource};
use super::http::Response;
use super::memo::{check_digest, Learned};
use super::mint::{MintPlan, Minted, Minter, OverallPending};
use super::mirror::MirrorEntry;
use super::negotiate::ResultKind;
use super::replay::Recorder;
use super::router::finish_attest_response;
use crate::attest::{Endpoint, ValidatedRequest};
use crate::chain::CertCache;
use crate::crypto::SignatureCheck;
use crate::error_code::ErrorBody;
use crate::evidence::BatchPlan;
use crate::time::UnixTime;
use error::misfit;
pub use error::ExchangeError;
use fetch_round::FetchRound;
use known::{answer_known, Asked};
use responses::{ear_response, result_response, token_failure};

mod error;
mod fetch_round;
mod known;
mod responses;

/// Most distinct evidence and certificate-path signature checks one request may need.
/// Real devices share their provisioner and identity CAs, so a device adds three (leaf,
/// BROM, evidence): 64 devices under 32 distinct provisioner CAs fit. Chains made up to
/// path-build but not to verify add up to ten each (640 for 64 items); past the budget the
/// request is refused (400 `ERR_REQUEST_SIGNATURE_BUDGET`) before any check runs.
pub const MAX_SIGNATURE_CHECKS: usize = 256;

/// What an [`Exchange`] needs next.
#[derive(Debug)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(as = "super::wire::StepOut<'static>", rename = "ServiceStep")
)]
pub enum Step<'a> {
    /// Run these ECDSA P-384/SHA-384 checks; answer with one verdict each, in order, with
    /// [`Exchange::verified`].
    Verify(&'a [SignatureCheck]),
    /// Fetch these resources — RIM documents the verified devices need and the service
    /// lacks, OCSP requests for their certificate chains — and answer with one [`Fetched`]
    /// each, in order, with [`Exchange::fetched`]. Only evidence whose signature and chain
    /// verified names anything here, so a forged transcript cannot make the host fetch.
    Fetch(&'a [Resource]),
    /// Sign each of these inputs (JWS signing inputs, or a CWT EAR's `Sig_structure`) with
    /// the service's active key (ES384 over their bytes, raw `r‖s`); answer with
    /// [`Exchange::signed`].
    Sign(&'a [Vec<u8>]),
    /// Send this response.
    Respond(&'a Response),
}

/// A request in progress; see the module documentation. Made by [`Service::begin`].
#[derive(Debug)]
pub struct Exchange {
    state: State,
    /// The tokens' `iss`, settled when the request was accepted.
    issuer: String,
    now: UnixTime,
    entropy: [u8; 32],
    endpoint: Option<Endpoint>,
    /// The OCSP answers that verified, for the host's cache (known once the checks ran).
    cacheable: Vec<OcspCacheEntry>,
    /// The fetched RIM envelopes that verified, for the host's mirror (known then too).
    verified_rims: Vec<MirrorEntry>,
    /// Every fetched RIM envelope that verified, by store key, for the service's memo.
    fetched_rims: Vec<MirrorEntry>,
    /// The result the request asked for.
    result: ResultKind,
    /// The inputs recorded for a replay bundle, when the request asked for one.
    recorder: Option<Box<Recorder>>,
    /// The checks of the current verify round that the service's memo does not know, when
    /// it knows some.
    asked: Option<Asked>,
    /// What the host's verdicts verified, for the service's memo.
    learned: Learned,
}

#[derive(Debug)]
enum State {
    Evidence {
        request: ValidatedRequest,
        plan: BatchPlan,
        allow_hold: bool,
    },
    Fetch(Box<FetchRound>),
    Checks(Box<Appraisal>),
    DeviceTokens(MintPlan),
    OverallToken(OverallPending),
    Done(Response),
}

impl Exchange {
    /// An exchange whose response is known at once (every route but attestation, and
    /// refused attestation requests).
    pub(crate) fn respond(response: Response, now: UnixTime) -> Self {
        Self {
            state: State::Done(response),
            issuer: String::new(),
            now,
            entropy: [0; 32],
            endpoint: None,
            cacheable: Vec::new(),
            verified_rims: Vec::new(),
            fetched_rims: Vec::new(),
            result: ResultKind::Nras,
            recorder: None,
            asked: None,
            learned: Learned::default(),
        }
    }

    /// An attestation request, validated: its first round is the evidence checks — unless
    /// it asks for more distinct ones than [`MAX_SIGNATURE_CHECKS`], when it is refused
    /// before any is run. `allow_hold`: the request accepts certificates on hold; `certs`:
    /// the certificates decoded before (see `CertCache`); `result`: what the request asked
    /// for (`negotiate`); `recording`: the request as received, when it asked for a replay
    /// bundle (recorded from the first round, as a warm service may finish in this call).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn attest(
        service: &Service,
        request: ValidatedRequest,
        result: ResultKind,
        allow_hold: bool,
        issuer: String,
        now: UnixTime,
        entropy: [u8; 32],
        certs: &mut CertCache,
        recording: Option<&crate::service::http::Request>,
    ) -> Self {
        let plan = plan_evidence(
            &request,
            service.device_trust(),
            now,
            service.config().fwid_policy,
            certs,
        );
        let planned = plan.signature_checks().len();
        if planned > MAX_SIGNATURE_CHECKS {
            let mut body = ErrorBody::new(
                400,
                "ERR_REQUEST_SIGNATURE_BUDGET",
                alloc::format!(
                    "the request needs {planned} distinct signature checks; at most \
                     {MAX_SIGNATURE_CHECKS} are run for one request"
                ),
            );
            body.field = Some(request.endpoint().evidence_field().into());
            let endpoint = request.endpoint();
            return Self::respond(
                finish_attest_response(body.into_response(), endpoint, now),
                now,
            );
        }
        let mut exchange = Self {
            endpoint: Some(request.endpoint()),
            state: State::Evidence {
                request,
                plan,
                allow_hold,
            },
            issuer,
            now,
            entropy,
            cacheable: Vec::new(),
            verified_rims: Vec::new(),
            fetched_rims: Vec::new(),
            result,
            recorder: recording.map(|request| Box::new(Recorder::new(request))),
            asked: None,
            learned: Learned::default(),
        };
        exchange.settle(service);
        exchange
    }

    /// Once the response is ready, replaces it with the bundle when recording.
    fn seal(&mut self, service: &Service) {
        if !matches!(self.state, State::Done(_)) {
            return;
        }
        if let Some(recorder) = self.recorder.take() {
            let state = core::mem::replace(&mut self.state, State::Done(Response::empty(500)));
            if let State::Done(response) = state {
                self.state = State::Done(recorder.seal(service, self.now, self.entropy, response));
            }
        }
    }

    /// What the exchange needs next.
    pub fn step(&self) -> Step<'_> {
        match &self.state {
            State::Evidence { plan, .. } => Step::Verify(self.asked_of(plan.signature_checks())),
            State::Fetch(round) => Step::Fetch(round.batch()),
            State::Checks(appraisal) => Step::Verify(self.asked_of(appraisal.checks())),
            State::DeviceTokens(plan) => Step::Sign(plan.signing_inputs()),
            State::OverallToken(pending) => Step::Sign(pending.signing_inputs()),
            State::Done(response) => Step::Respond(response),
        }
    }

    /// The response, once [`Self::step`] is [`Step::Respond`].
    pub fn into_response(self) -> Option<Response> {
        match self.state {
            State::Done(response) => Some(response),
            _ => None,
        }
    }

    /// The OCSP answers of this exchange that verified, for the host's cache (each until
    /// its `nextUpdate`, at most a day): known once the last round of checks ran, so only
    /// answers the core accepted are ever cached.
    pub fn cacheable(&self) -> &[OcspCacheEntry] {
        &self.cacheable
    }

    /// The RIM service envelopes fetched by this exchange whose documents verified (signature,
    /// chain valid at `now`, the RIM the id names; chain not reported revoked), for the host
    /// to keep under [`super::mirror_rim_key`] and serve from the mirror: known once the last
    /// round of checks ran, so a tampered or failing envelope is never among them.
    pub fn verified_rims(&self) -> &[MirrorEntry] {
        &self.verified_rims
    }

    /// Answers a [`Step::Verify`]: one verdict per check, in order. `service` is the one
    /// that began the exchange.
    ///
    /// # Errors
    /// [`ExchangeError`] when the exchange awaits something else or the count is wrong;
    /// the exchange is then unchanged.
    pub fn verified(&mut self, service: &Service, verdicts: &[bool]) -> Result<(), ExchangeError> {
        self.fits(Answer::Verdicts, verdicts.len())?;
        if let Step::Verify(asked) = self.step() {
            let verified = asked.iter().zip(verdicts).filter(|(_, ok)| **ok);
            let digests: Vec<[u8; 32]> = verified.map(|(check, _)| check_digest(check)).collect();
            self.learned.signatures.extend(digests);
        }
        let verdicts = match self.asked.take() {
            Some(asked) => asked.expand(verdicts),
            None => verdicts.to_vec(),
        };
        let verdicts = verdicts.as_slice();
        let state = core::mem::replace(&mut self.state, State::Done(Response::empty(500)));
        self.state = match state {
            State::Evidence {
                request,
                plan,
                allow_hold,
            } => self.after_evidence(service, request, plan, allow_hold, verdicts),
            State::Checks(appraisal) => self.mint(service, *appraisal, verdicts),
            other => other,
        };
        self.settle(service);
        Ok(())
    }

    /// Answers a [`Step::Fetch`]: one [`Fetched`] per resource of the step, in order
    /// ([`Fetched::Failed`] with [`FetchFailure::NotFetched`] for what the host does not
    /// fetch: a missing RIM then fails with the real service's 5009, an unasked OCSP
    /// query leaves revocation unchecked, with the warning claim). The exchange may then
    /// hand out a further batch (the RIMs' chains' queries).
    ///
    /// # Errors
    /// [`ExchangeError`] when the exchange awaits something else, the count is wrong or some
    /// of the step was answered with [`Self::fetched_one`]; the exchange is then unchanged.
    pub fn fetched(&mut self, service: &Service, answers: &[Fetched]) -> Result<(), ExchangeError> {
        self.fits(Answer::Fetched, answers.len())?;
        if let State::Fetch(round) = &mut self.state {
            round.answer_batch(answers, self.now).map_err(misfit)?;
        }
        self.advance_fetch(service);
        self.settle(service);
        Ok(())
    }

    /// Answers one resource of the fetch round as soon as the host has it: `index` is its
    /// position among all the round's resources, [`Self::fetch_offset`] plus its position in
    /// its step. A host that answers this way starts each fetch when its resource is handed
    /// out: once the RIMs are answered, [`Self::step`] hands out the next batch while the
    /// rest are still being fetched.
    ///
    /// # Errors
    /// [`ExchangeError::UnexpectedAnswer`] when no fetch is awaited,
    /// [`ExchangeError::FetchIndex`] for an index answered or not handed out.
    pub fn fetched_one(
        &mut self,
        service: &Service,
        index: usize,
        answer: &Fetched,
    ) -> Result<(), ExchangeError> {
        let State::Fetch(round) = &mut self.state else {
            return Err(unexpected(&self.step()));
        };
        round
            .answer(index, answer, self.now)
            .map_err(|_| ExchangeError::FetchIndex { index })?;
        self.advance_fetch(service);
        self.settle(service);
        Ok(())
    }

    /// The position of the current fetch step's first resource among all the round's (0
    /// when no fetch is awaited).
    pub fn fetch_offset(&self) -> usize {
        match &self.state {
            State::Fetch(round) => round.offset(),
            _ => 0,
        }
    }

    /// Answers a [`Step::Fetch`] as a host without network access: nothing fetched.
    ///
    /// # Errors
    /// [`ExchangeError::UnexpectedAnswer`] when the exchange awaits something else.
    pub fn fetched_nothing(&mut self, service: &Service) -> Result<(), ExchangeError> {
        let count = match self.step() {
            Step::Fetch(resources) => resources.len(),
            step => return Err(unexpected(&step)),
        };
        let answers = alloc::vec![Fetched::Failed(FetchFailure::NotFetched); count];
        self.fetched(service, &answers)
    }

    /// Answers a [`Step::Verify`] with the software backend, in the core.
    ///
    /// # Errors
    /// [`ExchangeError::UnexpectedAnswer`] when the exchange awaits something else.
    pub fn verify_in_core(&mut self, service: &Service) -> Result<(), ExchangeError> {
        let verdicts: Vec<bool> = match self.step() {
            Step::Verify(checks) => crate::crypto::software_verdicts(checks),
            step => return Err(unexpected(&step)),
        };
        self.verified(service, &verdicts)
    }

    /// Answers a [`Step::Sign`]: one raw `r‖s` ES384 signature (96 bytes) per signing
    /// input, in order, made with the key of `service` (the one that began the exchange).
    ///
    /// # Errors
    /// [`ExchangeError`] when the exchange awaits something else, the count is wrong or a
    /// signature is malformed; the exchange is then unchanged.
    pub fn signed(
        &mut self,
        service: &Service,
        signatures: &[Vec<u8>],
    ) -> Result<(), ExchangeError> {
        self.fits(Answer::Signatures, signatures.len())?;
        let next = match &self.state {
            State::DeviceTokens(plan) => match plan.devices_signed(signatures) {
                Ok(Minted::Done(text)) => self.done(result_response(text)),
                Ok(Minted::Ear { body, media_type }) => self.done(ear_response(body, media_type)),
                Ok(Minted::Overall(pending)) => State::OverallToken(pending),
                Err(error) => return Err(ExchangeError::Signature(error)),
            },
            State::OverallToken(pending) => match pending.signed(signatures) {
                Ok(text) => self.done(result_response(text)),
                Err(error) => return Err(ExchangeError::Signature(error)),
            },
            _ => return Err(unexpected(&self.step())),
        };
        self.state = next;
        self.settle(service);
        Ok(())
    }

    /// Whether `count` answers of `kind` fit the current step.
    fn fits(&self, kind: Answer, count: usize) -> Result<(), ExchangeError> {
        let expected = match (self.step(), kind) {
            (Step::Verify(checks), Answer::Verdicts) => checks.len(),
            (Step::Fetch(resources), Answer::Fetched) => resources.len(),
            (Step::Sign(inputs), Answer::Signatures) => inputs.len(),
            (step, _) => return Err(unexpected(&step)),
        };
        if count == expected {
            Ok(())
        } else {
            Err(ExchangeError::AnswerCount {
                expected,
                got: count,
            })
        }
    }

    /// Skips rounds with nothing to do, and signs in the core when the service holds its
    /// key (its signatures are always well-formed, so the answers cannot be refused).
    fn settle(&mut self, service: &Service) {
        loop {
            self.advance_fetch(service);
            self.split_checks(service);
            let progressed = match self.step() {
                Step::Verify([]) => self.verified(service, &[]).is_ok(),
                Step::Sign(inputs) => match service.keys().signing_key() {
                    Some(key) => {
                        let signatures: Vec<Vec<u8>> = inputs
                            .iter()
                            .map(|input| key.sign(input).to_vec())
                            .collect();
                        if self.signed(service, &signatures).is_err() {
                            self.state = self.done(token_failure());
                        }
                        true
                    }
                    None => false,
                },
                _ => false,
            };
            if !progressed {
                self.seal(service);
                return;
            }
        }
    }

    /// The checks of a verify round the host is asked for: `all` but those the memo knows.
    fn asked_of<'a>(&'a self, all: &'a [SignatureCheck]) -> &'a [SignatureCheck] {
        self.asked
            .as_ref()
            .map_or(all, |asked| asked.checks.as_slice())
    }

    /// On entering a verify round, sets aside the checks the service's memo knows verified.
    fn split_checks(&mut self, service: &Service) {
        if self.asked.is_some() {
            return;
        }
        let all = match &self.state {
            State::Evidence { plan, .. } => plan.signature_checks(),
            State::Checks(appraisal) => appraisal.checks(),
            _ => return,
        };
        self.asked = Asked::split(all, service.memo());
    }

    /// Moves the fetch round on: prepares the RIMs once every RIM document is answered and
    /// hands out their chains' queries, and ends the round once everything is answered.
    fn advance_fetch(&mut self, service: &Service) {
        let State::Fetch(round) = &mut self.state else {
            return;
        };
        if !round.rims_prepared && round.rims_answered() {
            if let Some(recorder) = self.recorder.as_mut() {
                recorder.held_rims(round.appraisal.rim_keys(), &service.rims);
            }
            let context = service.context(self.now, self.entropy);
            let (resources, targets) = round.appraisal.prepare_rims(&context);
            self.learned
                .parsed_rims
                .extend(round.appraisal.take_parsed_rims());
            let recording = self.recorder.is_some();
            let (resources, targets) = answer_known(
                service,
                recording,
                self.now,
                &mut round.appraisal,
                resources,
                targets,
            );
            round.rims_prepared = true;
            round.extend(resources, targets);
        }
        if !round.complete() {
            return;
        }
        let state = core::mem::replace(&mut self.state, State::Done(Response::empty(500)));
        if let State::Fetch(round) = state {
            let (appraisal, resources, recorded) = round.into_parts();
            if let (Some(recorder), Some(answers)) = (self.recorder.as_mut(), recorded) {
                recorder.fetched(&resources, &answers);
            }
            self.state = State::Checks(Box::new(appraisal));
        }
    }

    /// Completes the evidence round: the RIM documents the verified devices need and the
    /// OCSP queries of their chains are asked of the host.
    fn after_evidence(
        &self,
        service: &Service,
        request: ValidatedRequest,
        plan: BatchPlan,
        allow_hold: bool,
        verdicts: &[bool],
    ) -> State {
        let Ok(results) = plan.finish_detailed(verdicts) else {
            // Unreachable: the count was checked against the same plan.
            return self.done(token_failure());
        };
        let stages = device_stages(&request, results);
        let context = self.context(service);
        let policy = &context.config.revocation_policy;
        let policy = if allow_hold {
            policy.with_hold_allowed()
        } else {
            policy.clone()
        };
        let mut appraisal = Appraisal::new(&context, request, stages, policy);
        let (resources, targets) = appraisal.first_fetches(&context);
        let (resources, targets) = answer_known(
            service,
            self.recorder.is_some(),
            self.now,
            &mut appraisal,
            resources,
            targets,
        );
        let recording = self.recorder.is_some();
        State::Fetch(Box::new(FetchRound::new(
            appraisal, resources, targets, recording,
        )))
    }

    /// Completes the last round of checks, builds every device's outcome and plans the
    /// tokens.
    fn mint(&mut self, service: &Service, appraisal: Appraisal, verdicts: &[bool]) -> State {
        let Finished {
            request,
            outcomes,
            cacheable,
            verified_rims,
            fetched_rims,
        } = appraisal.finish(verdicts);
        self.cacheable = cacheable;
        self.verified_rims = verified_rims;
        self.fetched_rims = fetched_rims;
        let config = service.config();
        let minter = Minter::new(
            service.keys().kid(),
            &self.issuer,
            config.token_lifetime,
            i64::try_from(self.now.as_secs()).unwrap_or(i64::MAX),
            self.entropy,
        )
        .with_evidence_form(request.evidence_form());
        match minter.plan(
            request.endpoint(),
            request.claims_version(),
            request.nonce(),
            &outcomes,
            config.policy.as_ref(),
            match self.result {
                ResultKind::Ear(dialect, encoding) => Some((dialect, encoding)),
                ResultKind::Nras => None,
            },
        ) {
            Ok(plan) => State::DeviceTokens(plan),
            Err(_) => self.done(token_failure()),
        }
    }

    /// The context of this exchange's request, for its rounds: the service's configuration
    /// and trust, the time and the entropy.
    fn context<'a>(&self, service: &'a Service) -> Context<'a> {
        service.context(self.now, self.entropy)
    }

    /// The final state: the response with the attest endpoint's headers.
    fn done(&self, response: Response) -> State {
        State::Done(match self.endpoint {
            Some(endpoint) => finish_attest_response(response, endpoint, self.now),
            None => response,
        })
    }
}

impl Service {
    /// Keeps what `exchange`, one of this service's, verified for the next requests (its
    /// memo: [`super::VerifiedMemo`]), once its response is ready: the signature
    /// checks the host verified and, with `fetchCache` on, the OCSP answers and RIM envelopes
    /// that verified. Hosts that drive exchanges call it when one responds; an exchange that
    /// has not responded teaches nothing.
    pub fn remember(&mut self, exchange: &Exchange) {
        if matches!(exchange.state, State::Done(_)) {
            self.memo.learn(
                &exchange.learned,
                &exchange.cacheable,
                exchange
                    .fetched_rims
                    .iter()
                    .map(|rim| (rim.id.as_str(), rim.body.as_slice(), rim.until)),
                self.config.fetch_cache,
                exchange.now,
            );
        }
    }
}

/// The kinds of answer a host gives.
#[derive(Clone, Copy)]
enum Answer {
    Verdicts,
    Fetched,
    Signatures,
}

fn unexpected(step: &Step<'_>) -> ExchangeError {
    ExchangeError::UnexpectedAnswer {
        awaiting: match step {
            Step::Verify(_) => "verdicts",
            Step::Fetch(_) => "fetched resources",
            Step::Sign(_) => "signatures",
            Step::Respond(_) => "nothing",
        },
    }
}
