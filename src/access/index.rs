//! The index a key store finds a record by: a hash table over a secret-keyed digest of each
//! stored key digest, so that a lookup costs one keyed SHA-256 block, a probe or two and one
//! constant-time comparison, at twelve records as at a million.
//!
//! No timing signal on the secret, by two rules:
//!
//! 1. **Where the search goes is keyed by a secret.** A digest's slot and tag come from
//!    SHA-256 over a 128-bit index key and the digest. Without the index key, the path a
//!    presented digest takes through the table is unrelated to the path of any stored one:
//!    a digest sharing 31 bytes with a stored digest lands as far from it as any other, so an
//!    attacker cannot steer a guess toward a stored digest, nor learn from the probe time
//!    how close a guess came.
//! 2. **The secret itself is compared once, in constant time.** The candidate the tag selects
//!    is compared over all 32 bytes with [`ct_eq_observed`]. A presented digest whose tag
//!    matches no stored one is compared with a decoy record chosen by that tag, so a miss
//!    does the same work as a hit: one keyed hash, one probe run, one full comparison
//!    against a record in memory. Only if two stored digests share a 64-bit tag (about one
//!    store in 2^25 at a million records) does that tag compare against both.
//!
//! The index key is drawn from the host's randomness when it passes a seed
//! ([`IndexKey::from_seed`]). Without one ([`IndexKey::derived`]), it is a digest of every
//! stored digest: computing it takes all of them, and an attacker who has them all learns
//! nothing from the probe times they did not already know (the stored digests are digests of
//! 256-bit random keys; finding a key from its digest is a SHA-256 preimage).
//!
//! What a lookup reveals remains whether the key exists, which the response reveals anyway.

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use sha2::{Digest, Sha256};
use subtle::{Choice, ConditionallySelectable};

use super::digest::{ct_eq_observed, KeyDigest};
use super::record::KeyRecord;

/// The secret the index is keyed with: 128 bits, so that `key || digest` (48 bytes) is one
/// SHA-256 block.
#[derive(Clone, Copy, Default)]
pub(super) struct IndexKey([u8; 16]);

impl IndexKey {
    /// The index key drawn from `seed`, 32 bytes of the host's randomness.
    pub(super) fn from_seed(seed: &[u8; 32]) -> Self {
        let mut hasher = Sha256::new();
        hasher.update(b"edgeattest key-store index v1\0seed\0");
        hasher.update(seed);
        Self::from_digest(&hasher.finalize())
    }

    /// The index key of a store given no randomness: a digest of all its stored digests, in
    /// order (why that is safe: the module documentation).
    pub(super) fn derived<'a>(digests: impl IntoIterator<Item = &'a KeyDigest>) -> Self {
        let mut hasher = Sha256::new();
        hasher.update(b"edgeattest key-store index v1\0derived\0");
        for digest in digests {
            hasher.update(digest.as_bytes());
        }
        Self::from_digest(&hasher.finalize())
    }

    fn from_digest(digest: &[u8]) -> Self {
        let mut key = [0u8; 16];
        key.copy_from_slice(digest.get(..16).unwrap_or(&[0; 16]));
        Self(key)
    }

    /// The keyed tag of `digest`: its slot is the low bits, and the whole 64 bits tell
    /// candidates apart.
    fn tag(&self, digest: &KeyDigest) -> u64 {
        let mut hasher = Sha256::new();
        hasher.update(self.0);
        hasher.update(digest.as_bytes());
        let out = hasher.finalize();
        let mut tag = [0u8; 8];
        tag.copy_from_slice(out.get(..8).unwrap_or(&[0; 8]));
        u64::from_le_bytes(tag)
    }
}

/// An open-addressing table (linear probing) from keyed tag to record position, at most half
/// full, so every probe run ends at an empty slot within a few steps.
#[derive(Clone, Default)]
pub(super) struct DigestIndex {
    key: IndexKey,
    /// A power-of-two number of slots (none only for the empty default).
    slots: Vec<Slot>,
}

#[derive(Clone, Copy)]
struct Slot {
    tag: u64,
    /// The record's position, or [`EMPTY`].
    record: usize,
}

/// No record: a `Vec` never holds `usize::MAX` elements.
const EMPTY: usize = usize::MAX;

impl DigestIndex {
    /// The index of `records` under `key`.
    ///
    /// # Errors
    /// The position of the first record whose digest an earlier record already has.
    pub(super) fn build(key: IndexKey, records: &[KeyRecord]) -> Result<Self, usize> {
        let size = records
            .len()
            .max(1)
            .saturating_mul(2)
            .checked_next_power_of_two()
            .unwrap_or(usize::MAX / 2 + 1);
        let mut index = Self {
            key,
            slots: vec![
                Slot {
                    tag: 0,
                    record: EMPTY,
                };
                size
            ],
        };
        for (position, record) in records.iter().enumerate() {
            let tag = key.tag(record.digest());
            let mut at = index.home(tag);
            loop {
                let Some(slot) = index.slots.get_mut(at) else {
                    return Err(position);
                };
                if slot.record == EMPTY {
                    *slot = Slot {
                        tag,
                        record: position,
                    };
                    break;
                }
                // Stored digests, compared while loading: no secret is presented here.
                let earlier = records.get(slot.record).map(KeyRecord::digest);
                if slot.tag == tag && earlier == Some(record.digest()) {
                    return Err(position);
                }
                at = index.next(at);
            }
        }
        Ok(index)
    }

    /// The position in `records` (the slice the index was built from) of the record whose
    /// digest equals `digest`, telling `observe(record, byte)` of every byte comparison.
    pub(super) fn find(
        &self,
        records: &[KeyRecord],
        digest: &KeyDigest,
        mut observe: impl FnMut(usize, usize),
    ) -> Option<usize> {
        let tag = self.key.tag(digest);
        let mut found = Choice::from(0);
        let mut position = 0u64;
        let mut compare = |candidate: usize| {
            let Some(record) = records.get(candidate) else {
                return;
            };
            let equal = ct_eq_observed(record.digest().as_bytes(), digest.as_bytes(), |byte| {
                observe(candidate, byte)
            });
            position.conditional_assign(&(candidate as u64), equal);
            found |= equal;
        };
        let mut compared = false;
        if !self.slots.is_empty() {
            let mut at = self.home(tag);
            // The table is at most half full, so the run ends; the bound is for the reader.
            for _ in 0..self.slots.len() {
                let Some(slot) = self.slots.get(at) else {
                    break;
                };
                if slot.record == EMPTY {
                    break;
                }
                if slot.tag == tag {
                    compare(slot.record);
                    compared = true;
                }
                at = self.next(at);
            }
        }
        if !compared && !records.is_empty() {
            // The decoy: a record chosen by the tag, compared as a candidate would be.
            compare((tag % records.len() as u64) as usize);
        }
        // Whether a key exists is revealed by the response anyway; branching here is fine.
        if bool::from(found) {
            usize::try_from(position).ok()
        } else {
            None
        }
    }

    fn home(&self, tag: u64) -> usize {
        (tag as usize) & self.slots.len().wrapping_sub(1)
    }

    fn next(&self, at: usize) -> usize {
        at.wrapping_add(1) & self.slots.len().wrapping_sub(1)
    }
}

/// Never prints the index key.
impl fmt::Debug for DigestIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DigestIndex")
            .field("slots", &self.slots.len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use alloc::format;

    use super::*;
    use crate::access::Role;

    fn records(n: usize) -> Vec<KeyRecord> {
        (0..n)
            .map(|i| {
                KeyRecord::personal(
                    format!("k{i}"),
                    KeyDigest::of_key_text(&format!("key-{i}")),
                    vec![Role::LabUser],
                    vec!["simulation".into()],
                )
            })
            .collect()
    }

    #[test]
    fn a_lookup_compares_one_record_over_all_32_bytes_hit_near_miss_or_far_miss() {
        let records = records(64);
        let index = DigestIndex::build(
            IndexKey::derived(records.iter().map(KeyRecord::digest)),
            &records,
        )
        .unwrap();
        let stored = *records[17].digest().as_bytes();
        let mut near = stored;
        near[31] ^= 1;
        let mut far = stored;
        far[0] ^= 1;
        let probes = [
            (stored, Some(17)),
            (near, None),
            (far, None),
            (*KeyDigest::of_key_text("absent").as_bytes(), None),
        ];
        for (probe, expected) in probes {
            let mut seen: Vec<(usize, usize)> = Vec::new();
            let found = index.find(&records, &KeyDigest::from_bytes(probe), |record, byte| {
                seen.push((record, byte))
            });
            assert_eq!(found, expected);
            assert_eq!(seen.len(), 32, "one full comparison");
            assert!(seen.iter().all(|(record, _)| *record == seen[0].0));
            assert!((0..32).all(|byte| seen.iter().any(|(_, b)| *b == byte)));
            if let Some(position) = expected {
                assert_eq!(seen[0].0, position);
            }
        }
    }

    #[test]
    fn the_index_key_depends_on_the_seed_and_on_the_stored_digests() {
        let records = records(8);
        let digest = records[0].digest();
        let a = IndexKey::from_seed(&[1; 32]);
        let b = IndexKey::from_seed(&[2; 32]);
        assert_ne!(a.0, b.0);
        assert_ne!(a.tag(digest), b.tag(digest));
        assert_eq!(a.0, IndexKey::from_seed(&[1; 32]).0);
        let whole = IndexKey::derived(records.iter().map(KeyRecord::digest));
        let fewer = IndexKey::derived(records[1..].iter().map(KeyRecord::digest));
        assert_ne!(whole.0, fewer.0);
        assert_ne!(whole.0, a.0);
    }

    #[test]
    fn a_shared_tag_compares_every_record_holding_it() {
        // Record 1 filed under record 0's tag (a 2^-64 event with real digests): a lookup of
        // that tag compares both, and still finds the one that is equal.
        let records = records(2);
        let key = IndexKey::from_seed(&[5; 32]);
        let tag = key.tag(records[0].digest());
        let mut index = DigestIndex::build(key, &records[..1]).unwrap();
        let mut at = index.home(tag);
        while index.slots[at].record != EMPTY {
            at = index.next(at);
        }
        index.slots[at] = Slot { tag, record: 1 };
        let mut compared = Vec::new();
        let found = index.find(&records, records[0].digest(), |record, _| {
            compared.push(record)
        });
        assert_eq!(found, Some(0));
        assert_eq!(compared.len(), 64);
        assert!(compared.contains(&0) && compared.contains(&1));
    }

    #[test]
    fn duplicate_digests_are_refused_at_the_later_position() {
        let mut records = records(5);
        let copy = KeyRecord::personal("copy", *records[1].digest(), vec![], vec![]);
        records.push(copy);
        let key = IndexKey::from_seed(&[0; 32]);
        assert_eq!(DigestIndex::build(key, &records).err(), Some(5));
        assert!(DigestIndex::default()
            .find(&[], records[0].digest(), |_, _| {})
            .is_none());
    }
}
