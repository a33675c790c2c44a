//! Trust anchors, and the PEM reader for chains and anchors.

use alloc::vec::Vec;

use crate::x509::{Cert, CertPosition, ChainError, MAX_CHAIN_CERTIFICATES};

/// `CN=NVIDIA Device Identity CA, O=NVIDIA`: the root of every GPU and switch identity chain
/// (self-signed P-384, valid 2021-11-05 → 9999-12-31, SHA-256 fingerprint
/// `10:2B:F6:59:…:7B:48`).
pub const NVIDIA_DEVICE_IDENTITY_CA_PEM: &str = include_str!("roots/nvidia_device_identity_ca.pem");

/// `CN=NVIDIA CoRIM signing Root CA, O=NVIDIA, C=US`: the root of the RIM signing chains
/// (self-signed P-384, valid 2023-03-16 → 2053-03-08, SHA-256 fingerprint
/// `12:97:7B:51:…:F5:D1`).
pub const NVIDIA_RIM_ROOT_CA_PEM: &str = include_str!("roots/nvidia_rim_root_ca.pem");

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
    super::cache::pem_chain(text, decode_pem_chain)
}

fn decode_pem_chain(text: &str) -> Result<Vec<Vec<u8>>, ChainError> {
    const BEGIN: &str = "-----BEGIN ";
    const END: &str = "-----END ";
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(BEGIN) {
        let index = out.len();
        let block_and_after = rest.get(start..).ok_or(ChainError::Pem { index })?;
        let end_marker = block_and_after.find(END).ok_or(ChainError::Pem { index })?;
        // The END line closes with "-----" after its label.
        let after_end = block_and_after
            .get(end_marker.saturating_add(END.len())..)
            .ok_or(ChainError::Pem { index })?;
        let close = after_end.find("-----").ok_or(ChainError::Pem { index })?;
        let block_len = end_marker
            .saturating_add(END.len())
            .saturating_add(close)
            .saturating_add(5);
        let block = block_and_after
            .get(..block_len)
            .ok_or(ChainError::Pem { index })?;
        if out.len() >= MAX_CHAIN_CERTIFICATES {
            return Err(ChainError::TooManyCertificates {
                count: out.len().saturating_add(1),
            });
        }
        let (label, der) =
            pem_rfc7468::decode_vec(block.as_bytes()).map_err(|_| ChainError::Pem { index })?;
        if label != "CERTIFICATE" {
            return Err(ChainError::Pem { index });
        }
        out.push(der);
        rest = block_and_after.get(block_len..).unwrap_or_default();
    }
    if out.is_empty() {
        return Err(ChainError::Empty);
    }
    Ok(out)
}
