//! COSE_Sign1 (RFC 9052 §4.2) signed with ES384: the envelope of CWT attestation results and
//! of signed CoRIMs.
//!
//! Reading follows the crate's rules for signed documents: ES384 only (`alg` −35, in the
//! protected header, where a signer commits to it), no header label in both buckets, no
//! `crit` label this crate does not process, and a 96-byte `r‖s` signature. The signed bytes
//! are the `Sig_structure` of RFC 9052 §4.4 with an empty external AAD, built from the
//! protected header's bytes as received. The certificate chain of `x5chain` (RFC 9360) is
//! handed out as DER for the caller's chain verifier: this module checks signatures, not
//! trust.
//!
//! Writing comes in two steps, the bytes to sign and then the envelope, because a signer may
//! be deferred to a host (WebCrypto) between them.

use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use crate::cbor::{self, Cbor, CborError, CborLimits};
use crate::crypto::{PublicKey, SignatureCheck, SignatureError, SIGNATURE_LEN};
use crate::error_code::ErrorCode;

/// The CBOR tag of a COSE_Sign1 message.
pub const COSE_SIGN1_TAG: u64 = 18;
/// Header label `alg`.
pub const HEADER_ALG: i64 = 1;
/// Header label `crit`.
pub const HEADER_CRIT: i64 = 2;
/// Header label `content type`.
pub const HEADER_CONTENT_TYPE: i64 = 3;
/// Header label `kid`.
pub const HEADER_KID: i64 = 4;
/// Header label `x5chain` (RFC 9360).
pub const HEADER_X5CHAIN: i64 = 33;
/// The COSE algorithm ES384 (ECDSA over P-384 with SHA-384).
pub const ALG_ES384: i64 = -35;

/// The header labels this module understands, so a `crit` listing only these is accepted.
const UNDERSTOOD: [i64; 4] = [HEADER_ALG, HEADER_CONTENT_TYPE, HEADER_KID, HEADER_X5CHAIN];

/// Why a COSE_Sign1 message was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CoseError {
    /// The message is not well-formed CBOR, or is over its budget.
    Cbor(CborError),
    /// Well-formed CBOR that is not a COSE_Sign1 message as RFC 9052 lays it out.
    Shape {
        /// What is wrong, without the input's content.
        detail: &'static str,
    },
    /// The protected header names no algorithm, or one other than ES384.
    Algorithm,
    /// `crit` names a header label this crate does not process.
    Critical,
    /// `x5chain` is absent or not one certificate or an array of them.
    CertificateChain,
}

impl fmt::Display for CoseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Cbor(err) => write!(f, "COSE message: {err}"),
            Self::Shape { detail } => write!(f, "not a COSE_Sign1 message: {detail}"),
            Self::Algorithm => write!(f, "COSE_Sign1 is not signed with ES384 (alg -35)"),
            Self::Critical => write!(
                f,
                "COSE_Sign1 marks a header critical that is not processed"
            ),
            Self::CertificateChain => {
                write!(f, "COSE_Sign1 x5chain is missing or not DER certificates")
            }
        }
    }
}

impl core::error::Error for CoseError {}

impl ErrorCode for CoseError {
    fn code(&self) -> &'static str {
        match self {
            Self::Cbor(err) => err.code(),
            Self::Shape { .. } => "ERR_COSE_SHAPE",
            Self::Algorithm => "ERR_COSE_ALGORITHM",
            Self::Critical => "ERR_COSE_CRITICAL",
            Self::CertificateChain => "ERR_COSE_X5CHAIN",
        }
    }
}

impl From<CborError> for CoseError {
    fn from(err: CborError) -> Self {
        Self::Cbor(err)
    }
}

const fn shape(detail: &'static str) -> CoseError {
    CoseError::Shape { detail }
}

/// A COSE_Sign1 message whose layout and algorithm were checked; its signature is checked
/// by [`Sign1::verify`] or a backend running [`Sign1::signature_check`].
#[derive(Clone, Debug, PartialEq)]
pub struct Sign1 {
    protected: Vec<u8>,
    protected_header: Vec<(Cbor, Cbor)>,
    unprotected: Vec<(Cbor, Cbor)>,
    payload: Option<Vec<u8>>,
    signature: Vec<u8>,
}

impl Sign1 {
    /// Reads a COSE_Sign1 message, tagged 18 or untagged.
    ///
    /// # Errors
    /// [`CoseError`]: not CBOR, not a COSE_Sign1, not ES384, an unprocessed `crit`.
    pub fn decode(bytes: &[u8], limits: CborLimits) -> Result<Self, CoseError> {
        Self::from_cbor(cbor::decode(bytes, limits)?, limits)
    }

    /// Reads a COSE_Sign1 message from an item already read (a document that wraps it in
    /// tags of its own, as CoRIMs do, unwraps those first).
    ///
    /// # Errors
    /// As [`Sign1::decode`].
    pub fn from_cbor(item: Cbor, limits: CborLimits) -> Result<Self, CoseError> {
        let item = match item {
            Cbor::Tag(COSE_SIGN1_TAG, inner) => *inner,
            Cbor::Tag(..) => return Err(shape("tagged other than 18")),
            item => item,
        };
        let Cbor::Array(parts) = item else {
            return Err(shape("not an array"));
        };
        let [protected, unprotected, payload, signature]: [Cbor; 4] =
            parts.try_into().map_err(|_| shape("not four members"))?;
        let Cbor::Bytes(protected) = protected else {
            return Err(shape("protected header not a byte string"));
        };
        let protected_header = if protected.is_empty() {
            Vec::new()
        } else {
            match cbor::decode(&protected, limits)? {
                Cbor::Map(entries) => entries,
                _ => return Err(shape("protected header not a map")),
            }
        };
        let Cbor::Map(unprotected) = unprotected else {
            return Err(shape("unprotected header not a map"));
        };
        let payload = match payload {
            Cbor::Bytes(payload) => Some(payload),
            Cbor::Null => None,
            _ => return Err(shape("payload neither a byte string nor nil")),
        };
        let Cbor::Bytes(signature) = signature else {
            return Err(shape("signature not a byte string"));
        };
        if signature.len() != SIGNATURE_LEN {
            return Err(shape("signature not 96 bytes (ES384 r and s)"));
        }
        if unprotected
            .iter()
            .any(|(label, _)| protected_header.iter().any(|(seen, _)| seen == label))
        {
            return Err(shape("a header label in both buckets"));
        }
        let message = Self {
            protected,
            protected_header,
            unprotected,
            payload,
            signature,
        };
        let alg = message.protected_value(HEADER_ALG).and_then(Cbor::as_i64);
        if alg != Some(ALG_ES384) {
            return Err(CoseError::Algorithm);
        }
        if let Some(crit) = message.protected_value(HEADER_CRIT) {
            let labels = crit.as_array().filter(|labels| !labels.is_empty());
            let understood = labels.is_some_and(|labels| {
                labels
                    .iter()
                    .all(|label| label.as_i64().is_some_and(|l| UNDERSTOOD.contains(&l)))
            });
            if !understood {
                return Err(CoseError::Critical);
            }
        }
        Ok(message)
    }

    fn protected_value(&self, label: i64) -> Option<&Cbor> {
        let label = Cbor::int(label);
        self.protected_header
            .iter()
            .find(|(key, _)| *key == label)
            .map(|(_, value)| value)
    }

    /// A header parameter, from the protected bucket, else the unprotected one.
    pub fn header(&self, label: i64) -> Option<&Cbor> {
        let key = Cbor::int(label);
        self.protected_value(label).or_else(|| {
            self.unprotected
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, value)| value)
        })
    }

    /// Whether a header parameter is in the protected bucket (signed).
    pub fn is_protected(&self, label: i64) -> bool {
        self.protected_value(label).is_some()
    }

    /// The payload (`None` when detached).
    pub fn payload(&self) -> Option<&[u8]> {
        self.payload.as_deref()
    }

    /// The `kid` header.
    pub fn kid(&self) -> Option<&[u8]> {
        self.header(HEADER_KID).and_then(Cbor::as_bytes)
    }

    /// The `content type` header, when it is text.
    pub fn content_type(&self) -> Option<&str> {
        self.header(HEADER_CONTENT_TYPE).and_then(Cbor::as_text)
    }

    /// The DER certificates of `x5chain`, the signer's first.
    ///
    /// # Errors
    /// [`CoseError::CertificateChain`]: absent, empty, or not byte strings.
    pub fn x5chain(&self) -> Result<Vec<Vec<u8>>, CoseError> {
        match self.header(HEADER_X5CHAIN) {
            Some(Cbor::Bytes(der)) => Ok(vec![der.clone()]),
            Some(Cbor::Array(items)) if !items.is_empty() => items
                .iter()
                .map(|item| item.as_bytes().map(<[u8]>::to_vec))
                .collect::<Option<Vec<_>>>()
                .ok_or(CoseError::CertificateChain),
            _ => Err(CoseError::CertificateChain),
        }
    }

    /// The raw `r‖s` signature.
    pub fn signature(&self) -> &[u8] {
        &self.signature
    }

    /// The bytes the signature covers (`Sig_structure`, context "Signature1"); a detached
    /// payload's bytes are the caller's.
    pub fn to_be_signed(&self, detached_payload: Option<&[u8]>) -> Vec<u8> {
        let payload = self.payload().or(detached_payload).unwrap_or_default();
        sig_structure(&self.protected, payload)
    }

    /// The signature check against `key`, for a backend to run.
    pub fn signature_check(&self, key: &PublicKey) -> SignatureCheck {
        key.signature_check(&self.to_be_signed(None), &self.signature)
    }

    /// Verifies the signature against `key` with the software backend.
    ///
    /// # Errors
    /// [`SignatureError`] when the signature does not verify.
    pub fn verify(&self, key: &PublicKey) -> Result<(), SignatureError> {
        key.verify(&self.to_be_signed(None), &self.signature)
    }
}

fn sig_structure(protected: &[u8], payload: &[u8]) -> Vec<u8> {
    Cbor::Array(vec![
        Cbor::text("Signature1"),
        Cbor::bytes(protected),
        Cbor::Bytes(Vec::new()),
        Cbor::bytes(payload),
    ])
    .encode()
}

/// The protected header's bytes: `alg` ES384, then `protected` (any `alg` in it is ignored).
fn protected_bytes(protected: &[(i64, Cbor)]) -> Vec<u8> {
    let mut entries = vec![(Cbor::int(HEADER_ALG), Cbor::int(ALG_ES384))];
    entries.extend(
        protected
            .iter()
            .filter(|(label, _)| *label != HEADER_ALG)
            .map(|(label, value)| (Cbor::int(*label), value.clone())),
    );
    Cbor::Map(entries).encode()
}

/// The bytes an ES384 signer signs for a COSE_Sign1 message of `payload` with these
/// protected header parameters (`alg` is always ES384).
pub fn sign1_to_be_signed(protected: &[(i64, Cbor)], payload: &[u8]) -> Vec<u8> {
    sig_structure(&protected_bytes(protected), payload)
}

/// The tagged COSE_Sign1 message, once `signature` (`r‖s`) is made over
/// [`sign1_to_be_signed`] of the same `protected` and `payload`.
pub fn sign1_assemble(
    protected: &[(i64, Cbor)],
    unprotected: &[(i64, Cbor)],
    payload: &[u8],
    signature: &[u8],
) -> Vec<u8> {
    let unprotected = unprotected
        .iter()
        .map(|(label, value)| (Cbor::int(*label), value.clone()))
        .collect();
    Cbor::Tag(
        COSE_SIGN1_TAG,
        alloc::boxed::Box::new(Cbor::Array(vec![
            Cbor::Bytes(protected_bytes(protected)),
            Cbor::Map(unprotected),
            Cbor::bytes(payload),
            Cbor::bytes(signature),
        ])),
    )
    .encode()
}

#[cfg(test)]
mod tests;
