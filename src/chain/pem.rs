//! The PEM reader: every `CERTIFICATE` block of a text (RFC 7468 §5) as DER, in order (its
//! rules are [`parse_pem_chain`](super::parse_pem_chain)'s, which reads through the cache).

use alloc::vec::Vec;

use crate::x509::{ChainError, MAX_CHAIN_CERTIFICATES};

/// The DER of every `CERTIFICATE` block of `text`; text between blocks is ignored.
///
/// # Errors
/// As [`parse_pem_chain`](super::parse_pem_chain).
pub(super) fn decode(text: &str) -> Result<Vec<Vec<u8>>, ChainError> {
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
