//! P-384 ECDSA with SHA-384: the only signature algorithm the crate accepts.
//!
//! Signature checks are data ([`SignatureCheck`]): a verifier collects them and a backend
//! runs them — the software backend here ([`SignatureCheck::verify`], RustCrypto `p384`,
//! usable everywhere including `no_std`), or WebCrypto in JS hosts, which gets the same
//! public key, message and raw signature.
//!
//! Keys ([`PublicKey`], [`SigningKey`]) convert to and from JWK, SPKI and PKCS#8.

mod b64url;
mod deferred;
mod jwk;
mod key;
mod key_der;
mod key_error;
mod key_text;
mod p384v;
mod pkcs8;
pub(crate) mod rsa;

pub(crate) use b64url::{decode as b64url_decode, encode as b64url_encode};
pub use deferred::{software_verdicts, Deferred};
pub use jwk::Jwk;
pub use key::{PublicKey, SigningKey};
pub use key_error::KeyError;

use alloc::vec::Vec;
use core::fmt;

use p384::ecdsa::Signature;
use sha2::Digest as _;

use crate::error_code::ErrorCode;

/// Length of a raw `r‖s` P-384 signature (IEEE P1363, JWS ES384).
pub const SIGNATURE_LEN: usize = 96;

/// Length of a P-384 field element or scalar: the JWK `x`, `y` and `d` members decode to
/// exactly this many bytes (RFC 7518 §6.2.1.2, §6.2.2.1).
pub(crate) const COORDINATE_LEN: usize = 48;

/// Length of an uncompressed SEC1 point `04‖x‖y`.
pub(crate) const SEC1_UNCOMPRESSED_LEN: usize = 1 + 2 * COORDINATE_LEN;

/// Why a signature check failed. Deliberately without detail: a signature failure must not
/// become an oracle (as RustCrypto's opaque `signature::Error`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SignatureError {
    /// The public key is not a valid SEC1 P-384 point on the curve.
    InvalidPublicKey,
    /// The signature is not 96 bytes, has r or s of zero or not below the group order, or
    /// does not verify.
    Invalid,
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidPublicKey => f.write_str("invalid P-384 public key"),
            Self::Invalid => f.write_str("signature verification failed"),
        }
    }
}

impl core::error::Error for SignatureError {}

impl ErrorCode for SignatureError {
    fn code(&self) -> &'static str {
        match self {
            Self::InvalidPublicKey => "ERR_INVALID_PUBLIC_KEY",
            Self::Invalid => "ERR_SIGNATURE_INVALID",
        }
    }
}

/// One ECDSA P-384/SHA-384 verification: a public key, a message and a raw `r‖s` signature.
// Its TypeScript is what its `Serialize` below writes: the members renamed, bytes each.
#[derive(Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "SignatureCheckData"))]
pub struct SignatureCheck {
    /// SEC1 encoding of the public key (uncompressed `04‖x‖y`, 97 bytes, or compressed).
    #[cfg_attr(feature = "ts", ts(rename = "publicKey", type = "Uint8Array"))]
    pub public_key_sec1: Vec<u8>,
    /// The signed message (hashed with SHA-384 by the check).
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array"))]
    pub message: Vec<u8>,
    /// The raw `r‖s` signature.
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array"))]
    pub signature: Vec<u8>,
}

/// Written as the JS `SignatureCheckData`: `{publicKey, message, signature}`, bytes each.
impl serde::Serialize for SignatureCheck {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use crate::bytes::RawBytes;
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("SignatureCheck", 3)?;
        out.serialize_field("publicKey", &RawBytes(&self.public_key_sec1))?;
        out.serialize_field("message", &RawBytes(&self.message))?;
        out.serialize_field("signature", &RawBytes(&self.signature))?;
        out.end()
    }
}

impl fmt::Debug for SignatureCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SignatureCheck")
            .field("public_key_len", &self.public_key_sec1.len())
            .field("message_len", &self.message.len())
            .field("signature_len", &self.signature.len())
            .finish()
    }
}

impl SignatureCheck {
    /// Runs the check with the software backend.
    ///
    /// # Errors
    /// [`SignatureError`] when the key is not on the curve or the signature does not verify.
    pub fn verify(&self) -> Result<(), SignatureError> {
        verify_p384_sha384(&self.public_key_sec1, &self.message, &self.signature)
    }
}

/// The index of `check` in `checks`, appended when new: a batch runs each distinct check
/// once (the CA links shared by the devices of a node, or by the RIMs of a request).
pub(crate) fn intern_check(checks: &mut Vec<SignatureCheck>, check: &SignatureCheck) -> usize {
    if let Some(i) = checks.iter().position(|c| c == check) {
        return i;
    }
    checks.push(check.clone());
    checks.len().saturating_sub(1)
}

/// Whether `sec1` is a valid P-384 public point in any SEC1 form [`PublicKey::from_sec1`]
/// accepts (the certificate profile's key check, without building a key).
pub(crate) fn is_p384_point(sec1: &[u8]) -> bool {
    p384v::decode_sec1(sec1).is_some()
}

/// Verifies a raw `r‖s` ECDSA P-384/SHA-384 signature over `message` with a SEC1 public key.
///
/// High-S signatures are accepted: ECDSA verification per FIPS 186-5 does not reject them
/// and Wycheproof lists them as valid.
///
/// # Errors
/// [`SignatureError::InvalidPublicKey`] or [`SignatureError::Invalid`].
pub fn verify_p384_sha384(
    public_key_sec1: &[u8],
    message: &[u8],
    signature: &[u8],
) -> Result<(), SignatureError> {
    let key = p384v::decode_sec1(public_key_sec1).ok_or(SignatureError::InvalidPublicKey)?;
    if signature.len() != SIGNATURE_LEN {
        return Err(SignatureError::Invalid);
    }
    let signature = Signature::from_slice(signature).map_err(|_| SignatureError::Invalid)?;
    let digest: [u8; 48] = sha2::Sha384::digest(message).into();
    if p384v::verify_prehash(&key, &digest, &signature) {
        Ok(())
    } else {
        Err(SignatureError::Invalid)
    }
}
