//! Which certificates of a chain are asked about, and one request for each.

use alloc::vec::Vec;
use core::ops::Range;

use super::error::OcspError;
use super::request::{OcspRequest, NONCE_LEN};

/// Which certificates of a chain are asked about: `device` or `rim` as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "OcspChainKind"))]
#[serde(rename_all = "lowercase")]
pub enum ChainKind {
    /// A device identity chain: from the certificate below the root down to index 1 — the
    /// leaf is not asked about (NVIDIA's verifiers do not; its issuer is the device's BROM).
    Device,
    /// A RIM signing chain: from the certificate below the root down to the signer.
    Rim,
}

/// The indices of the certificates to ask about in a chain of `chain_len` certificates,
/// leaf first and root last (`VerifiedChain::certificates` order). Certificate `i`'s issuer
/// is `i + 1`. Device chains: `1 .. len-1`; RIM chains: `0 .. len-1`; the root never.
pub fn ocsp_targets(chain_len: usize, kind: ChainKind) -> Range<usize> {
    let first = match kind {
        ChainKind::Device => 1,
        ChainKind::Rim => 0,
    };
    let end = chain_len.saturating_sub(1);
    first.min(end)..end
}

/// One request per [`ocsp_targets`] certificate of `chain` (DER, leaf first, root last),
/// each with a fresh nonce from `entropy`, in chain order.
///
/// # Errors
/// [`OcspError::InvalidCertificate`] as [`OcspRequest::new`].
pub fn chain_requests<C: AsRef<[u8]>>(
    chain: &[C],
    kind: ChainKind,
    mut entropy: impl FnMut() -> [u8; NONCE_LEN],
) -> Result<Vec<OcspRequest>, OcspError> {
    ocsp_targets(chain.len(), kind)
        .map(|i| {
            let (Some(subject), Some(issuer)) = (chain.get(i), chain.get(i.saturating_add(1)))
            else {
                return Err(OcspError::InvalidCertificate { which: "subject" });
            };
            OcspRequest::new(subject.as_ref(), issuer.as_ref(), entropy())
        })
        .collect()
}
