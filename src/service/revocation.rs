//! Revocation (OCSP) of one request's certificate chains, as NVIDIA's verifiers check it:
//! which certificates are asked about, one query per certificate
//! however many chains share it (eight GPUs of a node share their ICA and Identity CA), the
//! answers the host fetched, and each chain's folded status.
//!
//! The rule of a chain's verdict ([`Revocation::verdict`]): each chain is folded with its
//! component's rule of the service's [`RevocationPolicy`] (strict by default, as NRAS),
//! every relaxation a warning of its device; a verified `revoked` the rule does not pass
//! always decides; with a responder configured, a certificate left unasked or unanswered makes the
//! chain an error of its device (5001 `ERROR_DURING_OCSP_QUERY`, as NRAS), never "not
//! checked"; "not checked" exists only in a service without a responder
//! (`EDGEATTEST_OCSP_URL=off`), and then every device token says so (the claims' `unknown`
//! and [`super::REVOCATION_WARNING`]).
//!
//! The core never fetches: it names the responder (the configured URL, never one read from
//! a certificate) and the DER request; the host POSTs it, or answers from its cache with the
//! nonce that fetched the cached bytes.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use sha2::{Digest, Sha384};

use super::codes::{details, REVOCATION_WARNING};
use super::fetch::{FetchFailure, Fetched, OcspCacheEntry, Resource};
use super::outcome::{CertStatus, ChainOutcome, ErrorDetails, RevocationStatus};
use super::remedy::OCSP_UNREACHABLE;
use crate::crypto::{intern_check, SignatureCheck};
use crate::error_code::ErrorCode;
use crate::ocsp::{
    check_response_within, fold_chain, ocsp_targets, CertRevocation, ChainKind, ChainRevocation,
    CheckedOcsp, OcspError, OcspRequest, PendingOcsp, Relaxation, RevocationComponent,
    RevocationPolicy, RevocationReason,
};
use crate::time::UnixTime;

/// Most distinct certificates one request asks about: 64 devices under shared CAs need 66;
/// RIM chains add three each. A chain with a certificate past it is an error (5001).
pub const MAX_OCSP_QUERIES: usize = 256;

/// The queries of one request and their answers.
#[derive(Debug)]
pub(crate) struct Revocation {
    url: String,
    /// The responder's mirrors, tried after it.
    mirrors: Vec<String>,
    /// Seconds past its validity a kept answer may be (the service's `ocspStaleIfError`).
    grace: u64,
    policy: RevocationPolicy,
    entropy: [u8; 32],
    queries: Vec<Query>,
}

/// The query indices of one chain's certificates, in chain order (leaf side first).
#[derive(Clone, Debug)]
pub(crate) struct ChainQueries {
    /// Whose rule of the policy folds the chain.
    component: RevocationComponent,
    indices: Vec<usize>,
    /// A certificate was left unasked (over [`MAX_OCSP_QUERIES`], or no request could be made).
    incomplete: bool,
}

#[derive(Debug)]
struct Query {
    request: OcspRequest,
    issuer: Vec<u8>,
    state: QueryState,
    /// Answered from the service's memo: the host has it already, so it is not handed back
    /// for its cache.
    remembered: bool,
}

#[derive(Debug)]
enum QueryState {
    /// Handed to the host, not yet answered.
    Asked,
    /// Answered; the response's signature checks are at these indices of the round's checks.
    Checking {
        pending: Box<PendingOcsp>,
        indices: Vec<usize>,
        body: Vec<u8>,
        nonce: Vec<u8>,
    },
    /// The host did not fetch (an offline host): an error of the chains that need it.
    NotFetched,
    Done {
        result: Result<CheckedOcsp, OcspError>,
        /// The bytes and nonce, kept for the host's cache when the answer verified.
        cache: Option<(Vec<u8>, Vec<u8>)>,
    },
}

/// One chain's revocation verdict, for the claims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ChainVerdict {
    /// The service has no responder (`EDGEATTEST_OCSP_URL=off`): nothing is asked, and every
    /// token says so. With a responder, a chain is always [`Self::Checked`].
    NotChecked,
    /// The folded status of every certificate asked about, under the rule of the component,
    /// and the revocation time of the certificate the chain is reported revoked (or on hold)
    /// for ([`revocation_time`]).
    Checked(ChainRevocation, RevocationComponent, Option<UnixTime>),
}

impl Revocation {
    /// Queries for the responder at `url` (then its `mirrors`), folded under `policy`; a
    /// kept answer may be `grace` seconds past its validity; nonces derive from the request's
    /// `entropy`.
    pub(crate) fn new(
        url: String,
        mirrors: Vec<String>,
        grace: u64,
        policy: RevocationPolicy,
        entropy: [u8; 32],
    ) -> Self {
        Self {
            url,
            mirrors,
            grace,
            policy,
            entropy,
            queries: Vec::new(),
        }
    }

    /// Adds the certificates of `chain` (DER, leaf first, anchor last) that `kind` asks
    /// about, reusing the query of a certificate already asked about; `component` names
    /// the rule its verdict is folded with.
    pub(crate) fn add_chain<C: AsRef<[u8]>>(
        &mut self,
        chain: &[C],
        kind: ChainKind,
        component: RevocationComponent,
    ) -> ChainQueries {
        let mut queries = ChainQueries {
            component,
            indices: Vec::new(),
            incomplete: false,
        };
        for subject in ocsp_targets(chain.len(), kind) {
            let (Some(cert), Some(issuer)) = (chain.get(subject), chain.get(subject + 1)) else {
                queries.incomplete = true;
                continue;
            };
            let (cert, issuer) = (cert.as_ref(), issuer.as_ref());
            let nonce = self.nonce(self.queries.len());
            let Ok(request) = OcspRequest::new(cert, issuer, nonce) else {
                queries.incomplete = true;
                continue;
            };
            let key = request.cache_key();
            if let Some(index) = self
                .queries
                .iter()
                .position(|q| q.request.cache_key() == key)
            {
                queries.indices.push(index);
            } else if self.queries.len() < MAX_OCSP_QUERIES {
                queries.indices.push(self.queries.len());
                self.queries.push(Query {
                    request,
                    issuer: issuer.to_vec(),
                    state: QueryState::Asked,
                    remembered: false,
                });
            } else {
                queries.incomplete = true;
            }
        }
        queries
    }

    /// The resources of the queries not yet handed out since `from`, with their indices.
    pub(crate) fn resources_from(&self, from: usize) -> Vec<(usize, Resource)> {
        self.queries
            .iter()
            .enumerate()
            .skip(from)
            .map(|(index, query)| {
                (
                    index,
                    Resource::Ocsp {
                        url: self.url.clone(),
                        fallbacks: self.mirrors.clone(),
                        request: query.request.der().to_vec(),
                        nonce: query.request.nonce().to_vec(),
                        cache_key: query.request.cache_key(),
                    },
                )
            })
            .collect()
    }

    /// Number of queries so far.
    pub(crate) fn len(&self) -> usize {
        self.queries.len()
    }

    /// Records the host's answer to query `index` and plans its signature checks into
    /// `checks` (shared with the round's other checks, deduplicated).
    pub(crate) fn answer(
        &mut self,
        index: usize,
        answer: &Fetched,
        now: UnixTime,
        checks: &mut Vec<SignatureCheck>,
    ) {
        let Some(query) = self.queries.get_mut(index) else {
            return;
        };
        let mut grace = 0;
        let (body, nonce) = match answer {
            Fetched::Body(body) => (body, query.request.nonce().to_vec()),
            Fetched::Cached { body, nonce } => (body, nonce.clone()),
            Fetched::Stale { body, nonce } => {
                grace = self.grace;
                let nonce = nonce.clone();
                (
                    body,
                    nonce.unwrap_or_else(|| query.request.nonce().to_vec()),
                )
            }
            Fetched::Failed(FetchFailure::NotFetched) => {
                query.state = QueryState::NotFetched;
                return;
            }
            Fetched::Failed(failure) => {
                query.state = QueryState::Done {
                    result: Err(OcspError::Unavailable(*failure)),
                    cache: None,
                };
                return;
            }
        };
        let checked =
            check_response_within(body, &query.request, &nonce, &query.issuer, now, grace);
        query.state = match checked {
            Ok(pending) => {
                let indices = pending
                    .signature_checks()
                    .iter()
                    .map(|check| intern_check(checks, check))
                    .collect();
                QueryState::Checking {
                    pending: Box::new(pending),
                    indices,
                    body: body.clone(),
                    nonce,
                }
            }
            Err(error) => QueryState::Done {
                result: Err(error),
                cache: None,
            },
        };
    }

    /// Marks query `index` as answered from the service's memo (see [`Query::remembered`]).
    pub(crate) fn remembered(&mut self, index: usize) {
        if let Some(query) = self.queries.get_mut(index) {
            query.remembered = true;
        }
    }

    /// Completes every answered query with the verdicts of the round's checks.
    pub(crate) fn finish(&mut self, verdicts: &[bool]) {
        for query in &mut self.queries {
            let state = core::mem::replace(&mut query.state, QueryState::Asked);
            query.state = match state {
                QueryState::Checking {
                    pending,
                    indices,
                    body,
                    nonce,
                } => {
                    let own: Vec<bool> = indices
                        .iter()
                        .map(|&i| verdicts.get(i).copied().unwrap_or(false))
                        .collect();
                    let result = pending.finish(&own);
                    let cache = result.is_ok().then_some((body, nonce));
                    QueryState::Done { result, cache }
                }
                // Asked but never answered: the host skipped it.
                QueryState::Asked => QueryState::NotFetched,
                other => other,
            };
        }
    }

    /// The folded verdict of one chain at `now`, with a responder configured, under its
    /// component's rule: a verified `revoked` the rule does not pass (nor a hold it does not
    /// allow) decides whatever its sibling queries gave; otherwise a certificate left
    /// unasked or unanswered is an error of the chain (5001, or a warning under
    /// `allowUnknown`), never "not checked" — only a service without a responder leaves
    /// chains unchecked.
    pub(crate) fn verdict(&self, chain: &ChainQueries, now: UnixTime) -> ChainVerdict {
        let rule = self.policy.rule(chain.component);
        let checked = |revocation, results: &[Result<CheckedOcsp, OcspError>]| {
            let at = revocation_time(&revocation, results);
            ChainVerdict::Checked(revocation, chain.component, at)
        };
        let unanswered = || Err(OcspError::Unavailable(FetchFailure::NotFetched));
        let results: Vec<Result<CheckedOcsp, OcspError>> = chain
            .indices
            .iter()
            .map(|&index| match self.queries.get(index).map(|q| &q.state) {
                Some(QueryState::Done { result, .. }) => result.clone(),
                _ => unanswered(),
            })
            .collect();
        let revoked = results.iter().find_map(|result| {
            let one = core::slice::from_ref(result);
            let folded = fold_chain(one, rule, now);
            matches!(folded, ChainRevocation::Revoked { .. }).then_some((folded, one))
        });
        if let Some((revoked, deciding)) = revoked {
            return checked(revoked, deciding);
        }
        let mut results = results;
        if chain.incomplete {
            if !rule.allow_unknown {
                return ChainVerdict::unanswered(chain.component);
            }
            // A certificate left unasked is unanswered, which the rule passes with a warning.
            results.push(unanswered());
        }
        checked(fold_chain(&results, rule, now), &results)
    }

    /// The answers that verified and are still fresh at `now`, for the host's cache (a kept
    /// answer used past its validity is not handed back).
    pub(crate) fn cacheable(&self, now: UnixTime) -> Vec<OcspCacheEntry> {
        self.queries
            .iter()
            .filter(|query| !query.remembered)
            .filter_map(|query| match &query.state {
                QueryState::Done {
                    result: Ok(checked),
                    cache: Some((body, nonce)),
                } if checked.cache_until > now => Some(OcspCacheEntry {
                    cache_key: query.request.cache_key(),
                    body: body.clone(),
                    nonce: nonce.clone(),
                    until: checked.cache_until,
                    keep_until: match checked.next_update {
                        Some(next) if self.grace > 0 => next.saturating_add(self.grace),
                        _ => checked.cache_until,
                    },
                }),
                _ => None,
            })
            .collect()
    }

    /// The nonce of query `index`: SHA-384 over the request's entropy and the index, so the
    /// nonces are as unpredictable as the entropy and distinct within the request.
    fn nonce(&self, index: usize) -> [u8; 32] {
        let digest = Sha384::new()
            .chain_update(b"edgeattest OCSP nonce\0")
            .chain_update(self.entropy)
            .chain_update((index as u64).to_be_bytes())
            .finalize();
        let mut nonce = [0u8; 32];
        nonce.copy_from_slice(&digest[..32]);
        nonce
    }
}

/// The revocation time of the certificate a chain folded to `revocation` from `results` is
/// reported revoked (or on hold) for: a refused chain's certificate that decides (`results`
/// is then that one answer); for a passed chain, the earliest revoked in its grace period
/// (its grace ends first, and its reason is the one reported), else the earliest passed on
/// hold; `None` when no certificate is reported revoked.
fn revocation_time(
    revocation: &ChainRevocation,
    results: &[Result<CheckedOcsp, OcspError>],
) -> Option<UnixTime> {
    let revoked_at = |hold_only: bool| {
        results
            .iter()
            .filter_map(|result| match result {
                Ok(CheckedOcsp {
                    status: CertRevocation::Revoked { reason, at },
                    ..
                }) if !hold_only || *reason == Some(RevocationReason::CertificateHold) => Some(*at),
                _ => None,
            })
            .min()
    };
    match revocation {
        ChainRevocation::Revoked { .. } => revoked_at(false),
        ChainRevocation::Good { relaxations } => {
            earliest_grace(relaxations).map(|(_, at)| at).or_else(|| {
                relaxations
                    .contains(&Relaxation::Held)
                    .then(|| revoked_at(true))
                    .flatten()
            })
        }
        _ => None,
    }
}

/// The relaxation of a certificate revoked in its grace period with the earliest revocation
/// time, as its reason and time.
fn earliest_grace(relaxations: &[Relaxation]) -> Option<(Option<RevocationReason>, UnixTime)> {
    relaxations
        .iter()
        .filter_map(|relaxation| match relaxation {
            Relaxation::RevokedInGrace { reason, at, .. } => Some((*reason, *at)),
            _ => None,
        })
        .min_by_key(|(_, at)| *at)
}

/// Each device's and each RIM's revocation verdict, for the outcomes.
#[derive(Debug)]
pub(crate) struct RevocationVerdicts {
    /// A responder is configured: every chain reached is asked about, and none is "not
    /// checked".
    pub(crate) configured: bool,
    /// Per device, in request order.
    pub(crate) devices: Vec<ChainVerdict>,
    /// Per RIM id.
    pub(crate) rims: BTreeMap<String, ChainVerdict>,
}

impl RevocationVerdicts {
    /// The verdict of RIM `id` (whose chain is `component`'s). A RIM without queries while a
    /// responder is configured (its chain was not built, so its own failure comes first) is
    /// not "not checked" either.
    pub(crate) fn rim(&self, id: &str, component: RevocationComponent) -> ChainVerdict {
        match self.rims.get(id) {
            Some(verdict) => verdict.clone(),
            None if self.configured => ChainVerdict::unanswered(component),
            None => ChainVerdict::NotChecked,
        }
    }
}

/// What a chain's revocation verdict adds to a device's outcome.
pub(crate) struct Applied {
    /// The warning the token carries, when something was left unchecked or accepted (one
    /// sentence per relaxation, joined by "; ").
    pub(crate) warning: Option<String>,
    /// The failure, as the real service reports it (5001, 5002, 5003).
    pub(crate) error: Option<ErrorDetails>,
}

impl ChainVerdict {
    /// A chain whose status could not be had although a responder is configured: 5001.
    /// `component`: whose chain it is.
    pub(crate) fn unanswered(component: RevocationComponent) -> Self {
        Self::Checked(
            ChainRevocation::Failed(OcspError::Unavailable(FetchFailure::NotFetched)),
            component,
            None,
        )
    }

    /// Writes the verdict into `chain` (`x-nvidia-cert-ocsp-status`,
    /// `x-nvidia-cert-revocation-reason`, `x-nvidia-cert-status: revoked`, the revocation
    /// time) and says what the device gets from it. `field`: `certificate` (device chain) or
    /// `rim`.
    pub(crate) fn apply(&self, chain: &mut ChainOutcome, field: &str) -> Applied {
        let none = Applied {
            warning: None,
            error: None,
        };
        // A chain not checked is `unknown` in the claims (with the warning); a checked one has
        // its folded status.
        chain.ocsp = match self {
            Self::NotChecked => RevocationStatus::Unknown,
            Self::Checked(revocation, _, at) => {
                chain.revocation_time = *at;
                revocation.status()
            }
        };
        match self {
            Self::NotChecked => Applied {
                warning: Some(REVOCATION_WARNING.into()),
                ..none
            },
            Self::Checked(ChainRevocation::Good { relaxations }, component, _) => {
                // A revoked certificate passed in its grace period is still reported revoked
                // (the one whose grace ends first, as its time says).
                if let Some((reason, _)) = earliest_grace(relaxations) {
                    chain.status = CertStatus::Revoked;
                    chain.revocation_reason = reason.map(|r| String::from(r.as_str()));
                }
                let mut sentences: Vec<String> = Vec::new();
                for sentence in relaxations.iter().map(|r| r.warning(*component)) {
                    if !sentences.contains(&sentence) {
                        sentences.push(sentence);
                    }
                }
                Applied {
                    warning: (!sentences.is_empty()).then(|| sentences.join("; ")),
                    ..none
                }
            }
            Self::Checked(ChainRevocation::Revoked { reason }, _, _) => {
                chain.status = CertStatus::Revoked;
                chain.revocation_reason = reason.map(|r| String::from(r.as_str()));
                let reason = reason.map_or("unspecified", |r| r.as_str());
                Applied {
                    error: Some(details(
                        5002,
                        field,
                        "CERTIFICATE_STATUS_REVOKED",
                        &alloc::format!("A certificate of the chain is revoked ({reason})"),
                    )),
                    ..none
                }
            }
            Self::Checked(ChainRevocation::Unknown, _, _) => Applied {
                error: Some(details(
                    5003,
                    field,
                    "CERTIFICATE_STATUS_UNKNOWN",
                    "The OCSP responder does not know a certificate of the chain",
                )),
                ..none
            },
            Self::Checked(ChainRevocation::Failed(error), _, _) => Applied {
                error: Some(details(
                    5001,
                    field,
                    "ERROR_DURING_OCSP_QUERY",
                    &match error {
                        OcspError::Unavailable(failure) if *failure != FetchFailure::NotFetched => {
                            alloc::format!("{error} ({}): {OCSP_UNREACHABLE}", error.code())
                        }
                        _ => alloc::format!("{} ({})", error, error.code()),
                    },
                )),
                ..none
            },
        }
    }
}
