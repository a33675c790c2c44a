//! The instance's fetch cache: the JS host's `createFetchCache` (src/js/fetch.js) in Rust.
//! At most `FETCH_CACHE_ENTRIES` (the core's) entries, each until its own Unix second, the
//! oldest dropped first. Keys: `ocsp:<cache key>` for OCSP answers the core verified
//! (`Exchange::cacheable`), `rim:<url>` for RIM service envelopes and 404s (the core's
//! `RIM_CACHE_SECONDS` and `RIM_MISS_SECONDS`).

use alloc::collections::BTreeMap;

use edgeattest::service::FETCH_CACHE_ENTRIES;

/// A cached answer.
#[derive(Clone, Debug)]
pub(crate) enum Entry {
    /// A body; OCSP answers keep the nonce they were fetched with.
    Body {
        body: Vec<u8>,
        nonce: Option<Vec<u8>>,
    },
    /// An HTTP status (a RIM service 404).
    Status(u16),
}

#[derive(Default)]
pub(crate) struct FetchCache {
    /// Key → (entry, until, insertion sequence).
    entries: BTreeMap<String, (Entry, u64, u64)>,
    next: u64,
}

impl FetchCache {
    /// The live entry under `key` at `now`; an expired one is dropped.
    pub(crate) fn get(&mut self, key: &str, now: u64) -> Option<Entry> {
        let (entry, until, _) = self.entries.get(key)?;
        if *until <= now {
            self.entries.remove(key);
            return None;
        }
        Some(entry.clone())
    }

    /// Keeps `entry` until `until` (nothing when that is not after `now`).
    pub(crate) fn put(&mut self, key: String, entry: Entry, until: u64, now: u64) {
        if until <= now {
            return;
        }
        self.entries.remove(&key);
        while self.entries.len() >= FETCH_CACHE_ENTRIES {
            let oldest = self
                .entries
                .iter()
                .min_by_key(|(_, (_, _, seq))| *seq)
                .map(|(key, _)| key.clone());
            match oldest {
                Some(key) => self.entries.remove(&key),
                None => break,
            };
        }
        self.next += 1;
        self.entries.insert(key, (entry, until, self.next));
    }

    /// Live entries holding a body under `prefix` (`ocsp:`, `rim:`): /health's cached entries.
    pub(crate) fn count(&self, prefix: &str, now: u64) -> u64 {
        let live = self.entries.iter().filter(|(key, (entry, until, _))| {
            *until > now && key.starts_with(prefix) && matches!(entry, Entry::Body { .. })
        });
        live.count() as u64
    }
}
