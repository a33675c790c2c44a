//! Parsed certificates and decoded PEM chains kept between calls (with `std`): the CA
//! certificates of every device chain, and the chains of devices that attest again, recur in
//! every request, and decoding them again cost more than a third of an evidence batch's CPU
//! beside its signature checks. Only successes are kept, keyed by their exact
//! input bytes, so a hit returns what parsing would; a bounded, least-recently-used list
//! keeps a stream of new certificates from growing it. Without `std` there is no
//! process-wide cache; a service keeps its own [`CertCache`] either way.

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::pem::decode;
use crate::x509::{Cert, CertPosition, ChainError};

/// Parsed certificates the process-wide cache keeps (a node's device chains hold 16 to 40
/// distinct certificates).
#[cfg(feature = "std")]
const CERTS: usize = 128;
/// Decoded PEM chains kept.
#[cfg(feature = "std")]
const CHAINS: usize = 32;
/// Most certificates a service keeps: the CAs of a large fleet and its recent devices.
pub(crate) const CERT_CACHE_LIMIT: usize = 256;

/// A bounded list; each entry carries the tick of its last use. A hit only restamps its
/// entry: moving entries to keep them in recency order cost more than the hit itself, as did
/// deep copies of a hit (certificates are shared, `Arc<Cert>`; a batch looks up every CA
/// certificate of every device).
#[derive(Clone, Debug)]
struct Lru<K, V> {
    entries: Vec<(K, V, u64)>,
    limit: usize,
    tick: u64,
}

impl<K, V: Clone> Lru<K, V> {
    const fn with_limit(limit: usize) -> Self {
        Self {
            entries: Vec::new(),
            limit,
            tick: 0,
        }
    }

    fn get<Q>(&mut self, key: &Q) -> Option<V>
    where
        Q: PartialEq + ?Sized,
        K: core::borrow::Borrow<Q>,
    {
        self.tick = self.tick.wrapping_add(1);
        let entry = self.entries.iter_mut().find(|(k, ..)| k.borrow() == key)?;
        entry.2 = self.tick;
        Some(entry.1.clone())
    }

    /// Keeps `value`, in place of the least recently used entry when full.
    fn put(&mut self, key: K, value: V) {
        self.tick = self.tick.wrapping_add(1);
        let entry = (key, value, self.tick);
        if self.entries.len() < self.limit {
            self.entries.push(entry);
        } else if let Some(oldest) = self.entries.iter_mut().min_by_key(|(.., used)| *used) {
            *oldest = entry;
        }
    }
}

/// Decoded certificates by their exact DER bytes. A decode is pure, so a hit is what decoding
/// again would give; only certificates that decode are kept (an error names the position it
/// was asked at), and at most the limit of them. One per service (a fleet presents the same
/// CA certificates on every request), and one process-wide behind [`cert`].
#[derive(Clone, Debug)]
pub(crate) struct CertCache(Lru<Vec<u8>, Arc<Cert>>);

impl Default for CertCache {
    fn default() -> Self {
        Self::with_limit(CERT_CACHE_LIMIT)
    }
}

impl CertCache {
    /// An empty cache keeping at most `limit` certificates.
    pub(crate) const fn with_limit(limit: usize) -> Self {
        Self(Lru::with_limit(limit))
    }

    /// `der` decoded ([`Cert::parse`]), from the cache when it was decoded before.
    ///
    /// # Errors
    /// As [`Cert::parse`].
    pub(crate) fn parse(&mut self, der: &[u8], at: CertPosition) -> Result<Arc<Cert>, ChainError> {
        if let Some(cert) = self.0.get(der) {
            return Ok(cert);
        }
        let cert = Arc::new(Cert::parse(der, at)?);
        self.0.put(der.to_vec(), Arc::clone(&cert));
        Ok(cert)
    }

    /// Number of certificates kept.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.0.entries.len()
    }
}

#[cfg(feature = "std")]
static CERT_CACHE: std::sync::Mutex<CertCache> =
    std::sync::Mutex::new(CertCache::with_limit(CERTS));

#[cfg(feature = "std")]
static CHAIN_CACHE: std::sync::Mutex<Lru<alloc::string::String, Vec<Vec<u8>>>> =
    std::sync::Mutex::new(Lru::with_limit(CHAINS));

/// [`Cert::parse`] through the process-wide [`CertCache`] (with `std`; without it, no cache).
///
/// # Errors
/// As [`Cert::parse`].
pub(crate) fn cert(der: &[u8], at: CertPosition) -> Result<Arc<Cert>, ChainError> {
    #[cfg(feature = "std")]
    if let Ok(mut cache) = CERT_CACHE.lock() {
        return cache.parse(der, at);
    }
    Cert::parse(der, at).map(Arc::new)
}

/// The PEM reader's DER certificates of `text`, from the cache when the same text was decoded
/// before.
///
/// # Errors
/// As the PEM reader ([`super::parse_pem_chain`]).
pub(crate) fn pem_chain(text: &str) -> Result<Vec<Vec<u8>>, ChainError> {
    #[cfg(feature = "std")]
    {
        if let Some(ders) = CHAIN_CACHE.lock().ok().and_then(|mut c| c.get(text)) {
            return Ok(ders);
        }
        let ders = decode(text)?;
        if let Ok(mut cache) = CHAIN_CACHE.lock() {
            cache.put(alloc::string::String::from(text), ders.clone());
        }
        Ok(ders)
    }
    #[cfg(not(feature = "std"))]
    decode(text)
}

#[cfg(test)]
mod tests {
    use super::{pem_chain, CertCache};
    use crate::chain::roots::{NVIDIA_DEVICE_IDENTITY_CA_PEM, NVIDIA_RIM_ROOT_CA_PEM};
    use crate::x509::{CertPosition, ChainError};

    #[test]
    fn a_hit_is_the_decoded_certificate_and_failures_are_not_kept() {
        let der = pem_chain(NVIDIA_DEVICE_IDENTITY_CA_PEM).unwrap().remove(0);
        let mut cache = CertCache::default();
        let first = cache.parse(&der, CertPosition::Chain(0)).unwrap();
        let again = cache.parse(&der, CertPosition::Chain(3)).unwrap();
        assert_eq!(cache.len(), 1);
        assert_eq!(first.der, again.der);
        assert_eq!(first.subject_text, again.subject_text);
        assert_eq!(first.public_key, again.public_key);

        let truncated = &der[..der.len() - 1];
        for at in [CertPosition::Chain(1), CertPosition::Chain(2)] {
            assert_eq!(
                cache.parse(truncated, at).unwrap_err(),
                ChainError::Malformed { at }
            );
        }
        assert_eq!(cache.len(), 1);
    }

    #[test]
    fn a_full_cache_drops_the_least_recently_used() {
        let der = |pem| pem_chain(pem).unwrap().remove(0);
        let (ca, rim) = (
            der(NVIDIA_DEVICE_IDENTITY_CA_PEM),
            der(NVIDIA_RIM_ROOT_CA_PEM),
        );
        let mut lru = super::Lru::with_limit(2);
        lru.put(1, ca.clone());
        lru.put(2, rim.clone());
        assert_eq!(lru.get(&1), Some(ca.clone())); // 1 is now the more recent
        lru.put(3, ca.clone());
        assert_eq!(lru.get(&2), None);
        assert_eq!(lru.get(&1), Some(ca.clone()));
        assert_eq!(lru.get(&3), Some(ca));
        assert_eq!(lru.entries.len(), 2);
    }

    #[test]
    fn bounded() {
        let mut cache = CertCache::with_limit(1);
        for pem in [
            NVIDIA_DEVICE_IDENTITY_CA_PEM,
            NVIDIA_RIM_ROOT_CA_PEM,
            NVIDIA_DEVICE_IDENTITY_CA_PEM,
        ] {
            let der = pem_chain(pem).unwrap().remove(0);
            assert_eq!(cache.parse(&der, CertPosition::Chain(0)).unwrap().der, der);
            assert_eq!(cache.len(), 1);
        }
    }
}
