//! What a service holds ([`Service`]: configuration, keys, trust anchors, RIM documents) and
//! the plain [`Context`] one request is answered with: that configuration and trust, the
//! time and the request's entropy. The exchange reads the holdings and hands each of its
//! rounds a context; nothing here or below calls back into the request handling (`app.rs`).

use alloc::vec::Vec;

use super::breaker::SourceBook;
use super::config::ServiceConfig;
use super::keys::KeyRing;
use super::memo::VerifiedMemo;
use super::rims::RimStore;
use super::source::{Source, SourceState};
use crate::chain::{CertCache, TrustStore};
use crate::rim::RimTrust;
use crate::time::UnixTime;

/// The attestation service: configuration, keys, trust anchors and RIM documents. Pure:
/// `handle` takes the time and the entropy of the request and does no I/O.
#[derive(Clone, Debug)]
pub struct Service {
    pub(super) config: ServiceConfig,
    pub(super) keys: KeyRing,
    /// The key set's JSON, built once: the keys never change for the life of a service.
    /// `None` when the key set cannot be built (repeated `kid`s among the retired keys).
    pub(super) jwks_json: Option<Vec<u8>>,
    pub(super) device_trust: TrustStore,
    pub(super) rim_trust: RimTrust,
    pub(super) rim_anchors: usize,
    pub(super) rims: RimStore,
    pub(super) rim_service: SourceState,
    pub(super) ocsp: SourceState,
    /// The breakers of the sources and what each attempt saw, kept by the host's fetches.
    pub(super) sources: SourceBook,
    /// Chain certificates decoded by [`Self::begin_cached`], for the next requests.
    pub(super) certs: CertCache,
    /// What this service verified, for the next requests ([`Self::remember`]).
    pub(super) memo: VerifiedMemo,
}

impl Service {
    /// A service with the given keys and anchors, and no RIM documents yet.
    pub fn new(
        config: ServiceConfig,
        keys: KeyRing,
        device_trust: TrustStore,
        rim_trust: RimTrust,
        rim_anchors: usize,
    ) -> Self {
        let jwks_json = keys.jwks().ok().map(|jwks| jwks.to_json().into_bytes());
        Self {
            config,
            keys,
            jwks_json,
            device_trust,
            rim_trust,
            rim_anchors,
            rims: RimStore::new(),
            rim_service: SourceState::default(),
            ocsp: SourceState::default(),
            sources: SourceBook::new(),
            certs: CertCache::default(),
            memo: VerifiedMemo::default(),
        }
    }

    /// The RIM documents, for the host to add bundled, folder or fetched ones.
    pub fn rims_mut(&mut self) -> &mut RimStore {
        &mut self.rims
    }

    /// Number of RIM documents held.
    pub fn rim_count(&self) -> usize {
        self.rims.len()
    }

    /// Records what the host last saw of a remote source (for `/health`).
    pub fn set_source_state(&mut self, source: Source, state: SourceState) {
        match source {
            Source::RimService => self.rim_service = state,
            Source::Ocsp => self.ocsp = state,
        }
    }

    /// What this service verified and keeps for the next requests.
    pub fn memo(&self) -> &VerifiedMemo {
        &self.memo
    }

    /// The breakers of the remote sources and what the host's attempts saw of each
    /// ([`super::FetchAttempts`] reads and counts them; `/health` shows them).
    pub fn sources(&self) -> &SourceBook {
        &self.sources
    }

    /// The same, for the host's attempts to count in.
    pub fn sources_mut(&mut self) -> &mut SourceBook {
        &mut self.sources
    }

    /// The configuration.
    pub fn config(&self) -> &ServiceConfig {
        &self.config
    }

    pub(crate) fn keys(&self) -> &KeyRing {
        &self.keys
    }

    pub(crate) fn device_trust(&self) -> &TrustStore {
        &self.device_trust
    }

    /// The context of one request answered at `now` (Unix seconds) with `entropy` (32 fresh
    /// random bytes from the host).
    pub(crate) fn context(&self, now: UnixTime, entropy: [u8; 32]) -> Context<'_> {
        Context {
            config: &self.config,
            rim_trust: &self.rim_trust,
            rims: &self.rims,
            memo: &self.memo,
            now,
            entropy,
        }
    }
}

/// One request's context: the service's configuration, the RIM documents and their trust,
/// the time and the entropy. Plain data, passed down to the rounds of an exchange.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Context<'a> {
    pub(crate) config: &'a ServiceConfig,
    /// The roots RIM signing chains must end at.
    pub(crate) rim_trust: &'a RimTrust,
    /// The RIM documents the service holds.
    pub(crate) rims: &'a RimStore,
    /// What the service verified and parsed before.
    pub(crate) memo: &'a VerifiedMemo,
    /// Unix seconds.
    pub(crate) now: UnixTime,
    /// 32 fresh random bytes from the host (token ids, OCSP nonces).
    pub(crate) entropy: [u8; 32],
}
