//! The instance's fetch cache: the JS host's `createFetchCache` (src/js/fetch.js) in Rust.
//! At most `FETCH_CACHE_ENTRIES` (the core's) entries, each until its own Unix second, the
//! oldest dropped first, and kept past it until its `keep_until` for stale-if-error. Keys:
//! `ocsp:<cache key>` for OCSP answers the core verified (`Exchange::cacheable`, kept until
//! their `keep_until`), `rim:<url>` for RIM service envelopes (the core's `RIM_CACHE_SECONDS`,
//! kept `RIM_KEEP_SECONDS`) and 404s (`RIM_MISS_SECONDS`).

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
    /// Key → (entry, until, keep until, insertion sequence).
    entries: BTreeMap<String, (Entry, u64, u64, u64)>,
    next: u64,
}

impl FetchCache {
    /// The entry under `key` while it is kept, with its `until`; one past its keep is dropped.
    fn held(&mut self, key: &str, now: u64) -> Option<(Entry, u64)> {
        let (entry, until, keep_until, _) = self.entries.get(key)?;
        if *keep_until <= now {
            self.entries.remove(key);
            return None;
        }
        Some((entry.clone(), *until))
    }

    /// The fresh entry under `key` at `now`.
    pub(crate) fn get(&mut self, key: &str, now: u64) -> Option<Entry> {
        self.held(key, now)
            .and_then(|(entry, until)| (until > now).then_some(entry))
    }

    /// The entry under `key` past its freshness but still kept, with its `until`.
    pub(crate) fn get_kept(&mut self, key: &str, now: u64) -> Option<(Entry, u64)> {
        self.held(key, now).filter(|(_, until)| *until <= now)
    }

    /// Keeps `entry`, fresh until `until` and kept until `keep_until` (nothing when both are
    /// not after `now`).
    pub(crate) fn put(&mut self, key: String, entry: Entry, until: u64, now: u64, keep_until: u64) {
        let keep_until = keep_until.max(until);
        if keep_until <= now {
            return;
        }
        self.entries.remove(&key);
        while self.entries.len() >= FETCH_CACHE_ENTRIES {
            let oldest = self
                .entries
                .iter()
                .min_by_key(|(_, (_, _, _, seq))| *seq)
                .map(|(key, _)| key.clone());
            match oldest {
                Some(key) => self.entries.remove(&key),
                None => break,
            };
        }
        self.next += 1;
        self.entries
            .insert(key, (entry, until, keep_until, self.next));
    }

    /// Live entries holding a body under `prefix` (`ocsp:`, `rim:`): /health's cached entries.
    pub(crate) fn count(&self, prefix: &str, now: u64) -> u64 {
        let live = self.entries.iter().filter(|(key, (entry, until, _, _))| {
            *until > now && key.starts_with(prefix) && matches!(entry, Entry::Body { .. })
        });
        live.count() as u64
    }
}
