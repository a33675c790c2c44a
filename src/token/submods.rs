//! `submods` of an overall token (RFC 9711 §4.2.18): every entry must be a detached digest
//! `["DIGEST", [algorithm, lowercase hex]]` of the device token's compact text.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value;
use sha2::{Digest as _, Sha256, Sha384};
use subtle::ConstantTimeEq as _;

use super::{TokenError, VerifiedJwt};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DigestAlg {
    Sha256,
    Sha384,
}

/// One detached digest from `submods`.
#[derive(Clone, Debug)]
pub(crate) struct SubmodDigest {
    alg: DigestAlg,
    bytes: Vec<u8>,
}

impl SubmodDigest {
    /// Whether `token` (the compact text) hashes to this digest.
    pub(crate) fn matches(&self, token: &[u8]) -> bool {
        let actual = match self.alg {
            DigestAlg::Sha256 => Sha256::digest(token).to_vec(),
            DigestAlg::Sha384 => Sha384::digest(token).to_vec(),
        };
        bool::from(actual.ct_eq(&self.bytes))
    }

    /// The digest as lowercase hex.
    pub(crate) fn hex(&self) -> String {
        hex::encode(&self.bytes)
    }
}

/// `submods` as `(label, digest)`: a non-empty object whose every entry is
/// `["DIGEST", [alg, lowercase hex]]`.
pub(crate) fn submod_digests(
    overall: &VerifiedJwt,
) -> Result<Vec<(String, SubmodDigest)>, TokenError> {
    let submods = overall
        .claim("submods")
        .and_then(Value::as_object)
        .ok_or_else(|| TokenError::SubmodInvalid {
            label: "submods".into(),
        })?;
    // A detached EAT bundle binds at least one device (RFC 9711 §5); an empty one would
    // vouch for nothing.
    if submods.is_empty() {
        return Err(TokenError::NoDevices { field: "submods" });
    }
    submods
        .iter()
        .map(|(label, entry)| {
            let invalid = || TokenError::SubmodInvalid {
                label: label.clone(),
            };
            let Some([Value::String(kind), Value::Array(digest)]) =
                entry.as_array().map(Vec::as_slice)
            else {
                return Err(invalid());
            };
            let [Value::String(alg), Value::String(hex_text)] = digest.as_slice() else {
                return Err(invalid());
            };
            if kind != "DIGEST" {
                return Err(invalid());
            }
            let (alg, len) = match alg.as_str() {
                "SHA-256" => (DigestAlg::Sha256, 32),
                "SHA-384" => (DigestAlg::Sha384, 48),
                _ => {
                    return Err(TokenError::DigestAlgorithmUnsupported {
                        label: label.clone(),
                    })
                }
            };
            let lowercase = hex_text
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
            let bytes = hex::decode(hex_text)
                .ok()
                .filter(|bytes| lowercase && bytes.len() == len)
                .ok_or_else(invalid)?;
            Ok((label.clone(), SubmodDigest { alg, bytes }))
        })
        .collect()
}
