//! What this service has verified, kept for the life of the process so that a warm
//! attestation repeats only the work that depends on the device:
//! - **signature verdicts**: a check (key, message, signature) that verified, by its
//!   SHA-256; ECDSA verification is a pure function, so a check seen before needs no second
//!   run. Only verified checks are kept: a failing one is asked again every time;
//! - **OCSP answers** that verified, by their query's nonce-less key, with the nonce they
//!   were fetched with, until their freshness ends (`nextUpdate`, at most a day): the query
//!   is answered here and not handed to the host;
//! - **RIM envelopes** fetched from the RIM service whose document verified, by RIM id, for
//!   [`RIM_CACHE_SECONDS`] (the host cache's freshness) or until their chain expires;
//! - **parsed RIMs**: what a RIM's bytes alone give (content, reference digest checked,
//!   signature check, certificates), by the bytes' SHA-256, so that a RIM the service holds
//!   or was sent again is parsed and canonicalised once per process; each request still
//!   plans its certificate path at its time and has the signatures checked (or found
//!   verified). Kept with `fetchCache` off too: like a verdict, it is a function of the bytes.
//!
//! An answer from here is checked again as a fetched one would be — the OCSP response
//! against the request's certificate and `now`, the RIM's signature and chain at `now` and its
//! chain's revocation — only its signature checks are found verified. Nothing enters but
//! what the core accepted in an exchange of this process, so bytes a shared cache handed
//! out are verified once per process before they are trusted. Each part is bounded; when one
//! is full, expired entries go first, then the oldest. A service built with
//! `fetchCache: false` keeps no answers (every attestation asks its sources again) and still
//! keeps signature verdicts.

use alloc::collections::VecDeque;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::fetch::{Fetched, OcspCacheEntry, RIM_CACHE_SECONDS};
use crate::crypto::SignatureCheck;
use crate::rim::{parse_rim, ParsedRim, PendingRim, RimError, RimTrust};
use crate::time::UnixTime;

/// Most signature verdicts kept (32 bytes each).
pub const MEMO_SIGNATURES: usize = 4096;
/// Most OCSP answers kept (a node of 8 GPUs and its RIMs need about 20).
pub const MEMO_OCSP_ANSWERS: usize = 1024;
/// Most RIM envelopes kept (a fleet's firmware: a driver and a VBIOS RIM per version).
pub const MEMO_RIMS: usize = 64;
/// Most parsed RIMs kept (about 10 KB each: the measurements and the certificates).
pub const MEMO_PARSED_RIMS: usize = 64;
/// Most bytes of RIM envelopes kept. NVIDIA's RIMs are 20–26 KB (about 35 KB as envelopes), so
/// [`MEMO_RIMS`] of them fit; a RIM may be up to a MiB, and a worker's memory is small.
pub const MEMO_RIM_BYTES: usize = 4 << 20;

/// The verified verdicts and answers of this process; see the module documentation.
#[derive(Clone, Debug, Default)]
pub struct VerifiedMemo {
    /// The kept verdicts, sorted.
    signatures: Vec<[u8; 32]>,
    /// The kept verdicts, oldest first, for eviction.
    order: VecDeque<[u8; 32]>,
    ocsp: Kept<OcspCacheEntry>,
    rims: Kept<KeptRim>,
    /// By the hex of the bytes' SHA-256.
    parsed: Kept<KeptParse>,
}

/// Entries by key in a vector sorted by key, found by binary search. Not a `BTreeMap`: the
/// memo's maps hold at most a thousand entries, inserted once per exchange at the most, and
/// a `BTreeMap`'s insertion and removal code, instantiated for each value type, cost the
/// service module about 12 KB gzip.
#[derive(Clone, Debug)]
struct Kept<T> {
    entries: Vec<(String, T)>,
}

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
        }
    }
}

impl<T> Kept<T> {
    fn find(&self, key: &str) -> Result<usize, usize> {
        self.entries
            .binary_search_by(|(kept, _)| kept.as_str().cmp(key))
    }

    fn get(&self, key: &str) -> Option<&T> {
        self.find(key).ok().map(|at| &self.entries[at].1)
    }

    fn insert(&mut self, key: &str, value: T) {
        match self.find(key) {
            Ok(at) => self.entries[at].1 = value,
            Err(at) => self.entries.insert(at, (key.into(), value)),
        }
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    /// Drops the entries expired at `now`, then the ones that end first, until the rest
    /// `fits`.
    fn evict(
        &mut self,
        now: UnixTime,
        until: impl Fn(&T) -> UnixTime,
        fits: impl Fn(&Self) -> bool,
    ) {
        if fits(self) {
            return;
        }
        self.entries.retain(|(_, entry)| until(entry) > now);
        while !fits(self) {
            let first = self
                .entries
                .iter()
                .enumerate()
                .min_by_key(|(_, (_, entry))| until(entry))
                .map(|(at, _)| at);
            match first {
                Some(at) => {
                    self.entries.remove(at);
                }
                None => return,
            }
        }
    }
}

/// A RIM service envelope whose document verified, until when it is used.
#[derive(Clone, Debug)]
struct KeptRim {
    body: Vec<u8>,
    until: UnixTime,
}

/// A parsed RIM, and until when it is kept at the least (eviction goes by it).
#[derive(Clone, Debug)]
struct KeptParse {
    rim: ParsedRim,
    until: UnixTime,
}

/// What a kept answer is looked up by.
pub(crate) enum Target<'a> {
    /// A RIM document, by store key.
    Rim(&'a str),
    /// An OCSP query, by [`Resource::Ocsp::cache_key`].
    Ocsp(&'a str),
}

/// What a finished exchange verified, for [`VerifiedMemo::learn`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Learned {
    pub(crate) signatures: Vec<[u8; 32]>,
    /// RIMs parsed in the exchange, by the hex of their bytes' SHA-256.
    pub(crate) parsed_rims: Vec<(String, ParsedRim)>,
}

/// How many entries of each kind a memo holds (`/health`'s `verified`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MemoCounts {
    /// Signature verdicts.
    pub signatures: usize,
    /// OCSP answers.
    pub ocsp_answers: usize,
    /// RIM envelopes.
    pub rims: usize,
    /// Parsed RIMs.
    pub parsed_rims: usize,
}

impl VerifiedMemo {
    /// Whether `check` verified before.
    pub(crate) fn knows(&self, check: &SignatureCheck) -> bool {
        self.signatures.binary_search(&check_digest(check)).is_ok()
    }

    /// The kept answer for `target`, still fresh at `now`: a RIM by its store key (a
    /// configured root's document is never the answer for NVIDIA's key of the same id), an
    /// OCSP query by its nonce-less key.
    pub(crate) fn answer(&self, target: &Target<'_>, now: UnixTime) -> Option<Fetched> {
        match target {
            Target::Ocsp(cache_key) => {
                let entry = self.ocsp.get(cache_key).filter(|e| e.until > now)?;
                Some(Fetched::Cached {
                    body: entry.body.clone(),
                    nonce: entry.nonce.clone(),
                })
            }
            Target::Rim(key) => {
                let entry = self.rims.get(key).filter(|e| e.until > now)?;
                Some(Fetched::Cached {
                    body: entry.body.clone(),
                    nonce: Vec::new(),
                })
            }
        }
    }

    /// Keeps what an exchange verified at `now`: its verified signature checks, and, when
    /// `answers` (the service's `fetchCache`), its OCSP answers and RIM envelopes (store
    /// key, envelope, until when the document may be used).
    pub(crate) fn learn<'a>(
        &mut self,
        learned: &Learned,
        ocsp: &[OcspCacheEntry],
        rims: impl Iterator<Item = (&'a str, &'a [u8], UnixTime)>,
        answers: bool,
        now: UnixTime,
    ) {
        for digest in &learned.signatures {
            if let Err(at) = self.signatures.binary_search(digest) {
                self.signatures.insert(at, *digest);
                self.order.push_back(*digest);
            }
        }
        while self.order.len() > MEMO_SIGNATURES {
            let oldest = self.order.pop_front();
            if let Some(at) = oldest.and_then(|d| self.signatures.binary_search(&d).ok()) {
                self.signatures.remove(at);
            }
        }
        let until = now.saturating_add(RIM_CACHE_SECONDS);
        for (digest, rim) in &learned.parsed_rims {
            let rim = rim.clone();
            self.parsed.insert(digest, KeptParse { rim, until });
        }
        self.parsed
            .evict(now, |e| e.until, |kept| kept.len() <= MEMO_PARSED_RIMS);
        if !answers {
            return;
        }
        for entry in ocsp.iter().filter(|e| e.until > now) {
            self.ocsp.insert(&entry.cache_key, entry.clone());
        }
        self.ocsp
            .evict(now, |e| e.until, |kept| kept.len() <= MEMO_OCSP_ANSWERS);
        let fresh_until = now.saturating_add(RIM_CACHE_SECONDS);
        let small = |rim: &(&str, &[u8], UnixTime)| rim.1.len() <= MEMO_RIM_BYTES;
        for (key, body, until) in rims.filter(|rim| rim.2 > now).filter(small) {
            let until = until.min(fresh_until);
            let body = body.to_vec();
            self.rims.insert(key, KeptRim { body, until });
        }
        self.rims.evict(
            now,
            |e| e.until,
            |kept| {
                let bytes: usize = kept.entries.iter().map(|(_, e)| e.body.len()).sum();
                kept.len() <= MEMO_RIMS && bytes <= MEMO_RIM_BYTES
            },
        );
    }

    /// How many entries of each kind it holds.
    pub fn counts(&self) -> MemoCounts {
        MemoCounts {
            signatures: self.signatures.len(),
            ocsp_answers: self.ocsp.len(),
            rims: self.rims.len(),
            parsed_rims: self.parsed.len(),
        }
    }

    /// [`prepare_rim`](crate::rim::prepare_rim) of `xml` at `now`, from the parsed RIM kept
    /// for the same bytes when there is one; else parsed here, and the parse returned for
    /// [`Learned::parsed_rims`].
    pub(crate) fn prepare_rim(
        &self,
        xml: &[u8],
        trust: &RimTrust,
        now: UnixTime,
    ) -> (Result<PendingRim, RimError>, Option<(String, ParsedRim)>) {
        let digest = hex::encode(Sha256::digest(xml));
        if let Some(kept) = self.parsed.get(&digest) {
            return (Ok(kept.rim.plan(trust, now)), None);
        }
        match parse_rim(xml) {
            Ok(parsed) => (Ok(parsed.plan(trust, now)), Some((digest, parsed))),
            Err(error) => (Err(error), None),
        }
    }
}

/// The memo's key of a signature check: SHA-256 over its three parts, each length-prefixed
/// so that no two checks share an encoding.
pub(crate) fn check_digest(check: &SignatureCheck) -> [u8; 32] {
    let mut hash = Sha256::new();
    for part in [
        check.public_key_sec1.as_slice(),
        check.message.as_slice(),
        check.signature.as_slice(),
    ] {
        hash.update((part.len() as u64).to_be_bytes());
        hash.update(part);
    }
    hash.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn learn_rims(memo: &mut VerifiedMemo, rims: &[(String, Vec<u8>)], now: UnixTime) {
        let until = now.saturating_add(3600);
        let rims = rims
            .iter()
            .map(|(key, body)| (key.as_str(), body.as_slice(), until));
        memo.learn(&Learned::default(), &[], rims, true, now);
    }

    #[test]
    fn the_rims_kept_are_bounded_in_count_and_bytes() {
        let now = UnixTime::from_secs(1_750_000_000).unwrap();
        let mut memo = VerifiedMemo::default();
        let many: Vec<_> = (0..MEMO_RIMS + 8)
            .map(|n| (alloc::format!("rim-{n}"), alloc::vec![0; 1000]))
            .collect();
        learn_rims(&mut memo, &many, now);
        assert_eq!(memo.counts().rims, MEMO_RIMS);

        let mut memo = VerifiedMemo::default();
        let large: Vec<_> = (0..8)
            .map(|n| {
                (
                    alloc::format!("rim-{n}"),
                    alloc::vec![0; MEMO_RIM_BYTES / 3],
                )
            })
            .collect();
        learn_rims(&mut memo, &large, now);
        assert_eq!(memo.counts().rims, 3);
        // One RIM past the whole bound is not kept, and evicts nothing.
        let huge = [(String::from("huge"), alloc::vec![0; MEMO_RIM_BYTES + 1])];
        learn_rims(&mut memo, &huge, now);
        assert_eq!(memo.counts().rims, 3);
        assert!(memo.answer(&Target::Rim("huge"), now).is_none());
    }

    const RIM: &[u8] = include_bytes!(
        "../../tests/fixtures/generated/ocsp/rims/NV_GPU_DRIVER_GH100_550.90.07.xml"
    );
    const RIM_ROOT: &str = include_str!("../../tests/fixtures/generated/ocsp/rim_root.pem");
    const DEVICE_ROOT: &str = include_str!("../../tests/fixtures/generated/ocsp/root.pem");

    #[test]
    fn a_rim_is_parsed_once_and_its_path_planned_at_each_time() {
        let trust = RimTrust::from_pem(RIM_ROOT).unwrap();
        let now = UnixTime::from_secs(1_750_000_000).unwrap();
        let mut memo = VerifiedMemo::default();
        let (first, parsed) = memo.prepare_rim(RIM, &trust, now);
        let first = first.unwrap();
        assert!(first.chain_planned());
        let parsed = parsed.expect("a new RIM is parsed");
        let learned = Learned {
            parsed_rims: alloc::vec![parsed],
            ..Learned::default()
        };
        memo.learn(&learned, &[], core::iter::empty(), false, now);
        assert_eq!(memo.counts().parsed_rims, 1);

        // Kept (with fetchCache off too): the same pending verification, nothing parsed.
        let (again, parsed) = memo.prepare_rim(RIM, &trust, now);
        assert!(parsed.is_none());
        let again = again.unwrap();
        assert_eq!(again.signature_checks(), first.signature_checks());
        assert_eq!(again.certificates(), first.certificates());
        assert_eq!(again.unverified_document(), first.unverified_document());
        assert_eq!(again.work(), first.work());

        // The path is planned for each request, to the trust it is given: to another root,
        // none.
        let other_root = RimTrust::from_pem(DEVICE_ROOT).unwrap();
        let (elsewhere, parsed) = memo.prepare_rim(RIM, &other_root, now);
        assert!(parsed.is_none());
        assert!(!elsewhere.unwrap().chain_planned());

        // Other bytes are parsed again, even when they read the same.
        let mut other = RIM.to_vec();
        other.push(b'\n');
        let (_, parsed) = memo.prepare_rim(&other, &trust, now);
        assert!(parsed.is_some());
    }
}
