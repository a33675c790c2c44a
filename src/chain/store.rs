//! Trust anchors, and the PEM reader for chains and anchors (through the cache).

use alloc::vec::Vec;

use super::roots::{
    NVIDIA_CORIM_ROOT_CA001_PEM, NVIDIA_DEVICE_IDENTITY_CA_PEM, NVIDIA_RIM_ROOT_CA_PEM,
};
#[cfg(doc)]
use crate::x509::MAX_CHAIN_CERTIFICATES;
use crate::x509::{Cert, CertPosition, ChainError};

/// The certificates a path may end at. Anchors are trusted as given: their own signature is
/// not checked, but their profile (basicConstraints, keyUsage, extensions, validity) is, as
/// x509-limbo expects (`expired-root`, `root-missing-basic-constraints`).
#[derive(Clone, Debug)]
pub struct TrustStore {
    pub(crate) anchors: Vec<Cert>,
}

impl TrustStore {
    /// A store of DER certificates.
    ///
    /// # Errors
    /// [`ChainError::Malformed`] (position [`CertPosition::Anchor`]) when one does not decode.
    pub fn from_der<C: AsRef<[u8]>>(anchors: &[C]) -> Result<Self, ChainError> {
        let anchors = anchors
            .iter()
            .enumerate()
            .map(|(i, der)| {
                super::cache::cert(der.as_ref(), CertPosition::Anchor(i)).map(|c| Cert::clone(&c))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self { anchors })
    }

    /// A store of the certificates in a PEM text.
    ///
    /// # Errors
    /// [`ChainError::Pem`], [`ChainError::Empty`] or [`ChainError::Malformed`].
    pub fn from_pem(text: &str) -> Result<Self, ChainError> {
        Self::from_der(&parse_pem_chain(text)?)
    }

    /// The NVIDIA Device Identity CA alone: the default for device evidence.
    ///
    /// # Errors
    /// Never in practice (the embedded certificate is tested); typed for `no panic`.
    pub fn nvidia_device_identity() -> Result<Self, ChainError> {
        Self::from_pem(NVIDIA_DEVICE_IDENTITY_CA_PEM)
    }

    /// The NVIDIA CoRIM signing Root CA alone: the default for RIM signatures.
    ///
    /// # Errors
    /// Never in practice (the embedded certificate is tested); typed for `no panic`.
    pub fn nvidia_rim() -> Result<Self, ChainError> {
        Self::from_pem(NVIDIA_RIM_ROOT_CA_PEM)
    }

    /// The NVIDIA CoRIM Root CA001 alone: the default for CoRIM signatures.
    ///
    /// # Errors
    /// Never in practice (the embedded certificate is tested); typed for `no panic`.
    pub fn nvidia_corim() -> Result<Self, ChainError> {
        Self::from_pem(NVIDIA_CORIM_ROOT_CA001_PEM)
    }

    /// Number of anchors.
    pub fn len(&self) -> usize {
        self.anchors.len()
    }

    /// Whether the store holds no anchor (then no chain validates).
    pub fn is_empty(&self) -> bool {
        self.anchors.is_empty()
    }

    /// The DER encoding of anchor `i`.
    pub fn anchor_der(&self, i: usize) -> Option<&[u8]> {
        self.anchors.get(i).map(|a| a.der.as_slice())
    }

    /// Index of the anchor byte-equal to `der`.
    pub(crate) fn position_of(&self, der: &[u8]) -> Option<usize> {
        self.anchors.iter().position(|a| a.der == der)
    }
}

/// Decodes every `CERTIFICATE` block of a PEM text (RFC 7468 §5) into DER, in order.
/// Text between blocks is ignored (OpenSSL writes `subject=`/`issuer=` lines there).
///
/// # Errors
/// [`ChainError::Pem`] for a block that is not a well-formed `CERTIFICATE` block,
/// [`ChainError::Empty`] when there is none, [`ChainError::TooManyCertificates`] above
/// [`MAX_CHAIN_CERTIFICATES`].
pub fn parse_pem_chain(text: &str) -> Result<Vec<Vec<u8>>, ChainError> {
    super::cache::pem_chain(text)
}
