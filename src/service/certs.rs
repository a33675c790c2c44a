//! The chain certificates a service has decoded, by DER: every attestation of a fleet
//! presents the same CA certificates (and each device its own chain again), and decoding
//! them — DER, names, extensions, the key's point check — was a third of the core's work
//! on a request. A decode is pure, so a hit is exactly what decoding again would give; only
//! certificates that decode are kept, and at most [`CERT_CACHE_LIMIT`] of them.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use crate::chain::{Cert, CertPosition, ChainError};

/// Most certificates kept: the CAs of a large fleet and the chains of its recent devices.
pub(crate) const CERT_CACHE_LIMIT: usize = 256;

/// Decoded certificates by their DER bytes; see the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct CertCache {
    entries: BTreeMap<Vec<u8>, Cert>,
    limit: usize,
}

impl Default for CertCache {
    fn default() -> Self {
        Self::with_limit(CERT_CACHE_LIMIT)
    }
}

impl CertCache {
    /// An empty cache keeping at most `limit` certificates.
    pub(crate) fn with_limit(limit: usize) -> Self {
        Self {
            entries: BTreeMap::new(),
            limit,
        }
    }

    /// `der` decoded (`Cert::parse`), from the cache when it was decoded before. A
    /// certificate that does not decode is not kept: its error names its position `at`.
    pub(crate) fn parse(&mut self, der: &[u8], at: CertPosition) -> Result<Cert, ChainError> {
        if let Some(cert) = self.entries.get(der) {
            return Ok(cert.clone());
        }
        let cert = Cert::parse(der, at)?;
        if self.entries.len() >= self.limit {
            self.entries.pop_first();
        }
        self.entries.insert(der.to_vec(), cert.clone());
        Ok(cert)
    }

    /// Number of certificates kept.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::CertCache;
    use crate::chain::{
        parse_pem_chain, CertPosition, ChainError, NVIDIA_DEVICE_IDENTITY_CA_PEM,
        NVIDIA_RIM_ROOT_CA_PEM,
    };

    #[test]
    fn a_hit_is_the_decoded_certificate_and_failures_are_not_kept() {
        let der = parse_pem_chain(NVIDIA_DEVICE_IDENTITY_CA_PEM)
            .unwrap()
            .remove(0);
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
    fn bounded() {
        let mut cache = CertCache::with_limit(1);
        for pem in [
            NVIDIA_DEVICE_IDENTITY_CA_PEM,
            NVIDIA_RIM_ROOT_CA_PEM,
            NVIDIA_DEVICE_IDENTITY_CA_PEM,
        ] {
            let der = parse_pem_chain(pem).unwrap().remove(0);
            assert_eq!(cache.parse(&der, CertPosition::Chain(0)).unwrap().der, der);
            assert_eq!(cache.len(), 1);
        }
    }
}
