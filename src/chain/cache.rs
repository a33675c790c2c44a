//! Parsed certificates and decoded PEM chains kept between calls (with `std`): the CA
//! certificates of every device chain, and the chains of devices that attest again, recur in
//! every request, and decoding them again cost more than a third of an evidence batch's CPU
//! beside its signature checks (issue 19). Only successes are kept, keyed by their exact
//! input bytes, so a hit returns what parsing would; a bounded, least-recently-used list
//! keeps a stream of new certificates from growing it. Without `std` there is no cache.

use alloc::vec::Vec;

use super::cert::Cert;
use super::error::{CertPosition, ChainError};

/// Parsed certificates kept (a node's device chains hold 16 to 40 distinct certificates).
#[cfg(feature = "std")]
const CERTS: usize = 128;
/// Decoded PEM chains kept.
#[cfg(feature = "std")]
const CHAINS: usize = 32;

/// A bounded list, most recently used last.
#[cfg(feature = "std")]
struct Lru<K, V> {
    entries: Vec<(K, V)>,
    limit: usize,
}

#[cfg(feature = "std")]
impl<K, V: Clone> Lru<K, V> {
    fn get<Q>(&mut self, key: &Q) -> Option<V>
    where
        Q: PartialEq + ?Sized,
        K: core::borrow::Borrow<Q>,
    {
        let i = self.entries.iter().rposition(|(k, _)| k.borrow() == key)?;
        let entry = self.entries.remove(i);
        let value = entry.1.clone();
        self.entries.push(entry);
        Some(value)
    }

    fn put(&mut self, key: K, value: V) {
        if self.entries.len() >= self.limit {
            self.entries.remove(0);
        }
        self.entries.push((key, value));
    }
}

#[cfg(feature = "std")]
static CERT_CACHE: std::sync::Mutex<Lru<Vec<u8>, Cert>> = std::sync::Mutex::new(Lru {
    entries: Vec::new(),
    limit: CERTS,
});

#[cfg(feature = "std")]
static CHAIN_CACHE: std::sync::Mutex<Lru<alloc::string::String, Vec<Vec<u8>>>> =
    std::sync::Mutex::new(Lru {
        entries: Vec::new(),
        limit: CHAINS,
    });

/// [`Cert::parse`], from the cache when the same DER was parsed before.
///
/// # Errors
/// As [`Cert::parse`] (errors are not kept: `at` is part of them).
pub(crate) fn cert(der: &[u8], at: CertPosition) -> Result<Cert, ChainError> {
    #[cfg(feature = "std")]
    {
        if let Some(cert) = CERT_CACHE.lock().ok().and_then(|mut c| c.get(der)) {
            return Ok(cert);
        }
        let cert = Cert::parse(der, at)?;
        if let Ok(mut cache) = CERT_CACHE.lock() {
            cache.put(der.to_vec(), cert.clone());
        }
        Ok(cert)
    }
    #[cfg(not(feature = "std"))]
    Cert::parse(der, at)
}

/// `decode(text)` (the PEM reader), from the cache when the same text was decoded before.
///
/// # Errors
/// As `decode`.
pub(crate) fn pem_chain(
    text: &str,
    decode: impl FnOnce(&str) -> Result<Vec<Vec<u8>>, ChainError>,
) -> Result<Vec<Vec<u8>>, ChainError> {
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
