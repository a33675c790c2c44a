//! A signed CoRIM: COSE_Sign1 (RFC 9052 §4.2) over a `corim-map`, ES384 only, its signer
//! chain in `x5chain` (label 33, leaf first). This module reads the envelope and its
//! content; the RIM pipeline ([`crate::rim::prepare_rim`]) plans the chain and takes the
//! ECDSA verdicts, as for an XML RIM.
//!
//! ```text
//! COSE_Sign1 = #6.18([protected: bstr .cbor {1: -35, ? 3: "application/rim+cbor",
//!                     ? 8: corim-meta, ? 33: x5chain}, unprotected: {? 33: x5chain},
//!                     payload: bstr .cbor corim-map, signature: bstr .size 96])
//! ```
//!
//! NVIDIA's networking CoRIMs wrap it as `#6.500(#6.502(…))` (draft-06); the wrappers are
//! taken off before the COSE_Sign1 is read.

use alloc::vec::Vec;

use super::error::CorimError;
use super::validity::Validity;
use super::{CORIM_CBOR_LIMITS, MAX_CORIM_BYTES, TAG_UNSIGNED_CORIM};
use crate::cbor::{self, Cbor};
use crate::cose::Sign1;
use crate::crypto::SignatureCheck;
use crate::rim::document::RimDocument;

/// COSE_Sign1's tag.
pub(super) const TAG_SIGN1: u64 = crate::cose::COSE_SIGN1_TAG;
/// The COSE header label of `corim-meta` (`bstr .cbor {0: signer, ? 1: signature-validity}`).
const CORIM_META: i64 = 8;
/// The COSE `content type` header label.
const CONTENT_TYPE: i64 = crate::cose::HEADER_CONTENT_TYPE;
/// The content type of a CoRIM payload.
const RIM_CBOR: &str = "application/rim+cbor";
/// The draft-06 wrappers: `tagged-corim-type-choice` (500) and `tagged-signed-corim` (502).
const WRAPPERS: [u64; 2] = [500, 502];

/// What a signed CoRIM's bytes alone give: its alternatives (at least one), the period in
/// which both it and its signer say it may be used, its `x5chain` (leaf first) and the check
/// of its COSE signature by the leaf's key.
#[derive(Clone, Debug)]
pub(crate) struct SignedCorim {
    pub alternatives: Vec<RimDocument>,
    pub validity: Validity,
    pub certificates: Vec<Vec<u8>>,
    pub signature: SignatureCheck,
}

/// Reads a signed CoRIM: checks its COSE_Sign1 structure (ES384, content type, `x5chain`
/// leaf P-384) and reads the payload as [`super::parse_corim`] does. What remains (the
/// signature, the chain) is the RIM pipeline's, as for an XML RIM.
///
/// # Errors
/// [`CorimError`]: as [`super::parse_corim`]; [`CorimError::NotSigned`] for an unsigned
/// CoRIM; [`CorimError::Cose`] for a malformed envelope or an algorithm other than ES384;
/// [`CorimError::ContentType`]; [`CorimError::Certificate`] without a usable `x5chain`.
pub(crate) fn read_signed(bytes: &[u8]) -> Result<SignedCorim, CorimError> {
    if bytes.len() > MAX_CORIM_BYTES {
        return Err(CorimError::TooLarge {
            limit: MAX_CORIM_BYTES,
            size: bytes.len(),
        });
    }
    let mut item = cbor::decode(bytes, CORIM_CBOR_LIMITS)?;
    while let Cbor::Tag(tag, inner) = item {
        if WRAPPERS.contains(&tag) {
            item = *inner;
        } else {
            item = Cbor::Tag(tag, inner);
            break;
        }
    }
    if item.untag(TAG_UNSIGNED_CORIM).is_some() {
        return Err(CorimError::NotSigned);
    }
    let sign1 = Sign1::from_cbor(item, CORIM_CBOR_LIMITS).map_err(CorimError::Cose)?;
    match sign1.header(CONTENT_TYPE) {
        None => {}
        Some(Cbor::Text(text)) if text == RIM_CBOR => {}
        Some(_) => return Err(CorimError::ContentType),
    }
    let payload = sign1.payload().ok_or(CorimError::Unsupported {
        what: "a detached payload",
    })?;
    let item = cbor::decode(payload, CORIM_CBOR_LIMITS)?;
    let corim = super::read(item.untag(TAG_UNSIGNED_CORIM).unwrap_or(&item))?;
    let signer_validity = signature_validity(&sign1)?;

    let certificates = sign1.x5chain().map_err(|_| CorimError::Certificate {
        problem: "no x5chain of DER certificates",
    })?;
    let leaf = certificates.first().ok_or(CorimError::Certificate {
        problem: "no x5chain of DER certificates",
    })?;
    let key = crate::rim::signer::signer_key(leaf).map_err(|_| CorimError::Certificate {
        problem: "the x5chain leaf is not an EC P-384 certificate",
    })?;
    let signature = SignatureCheck {
        public_key_sec1: key,
        message: sign1.to_be_signed(None),
        signature: sign1.signature().to_vec(),
    };
    let (alternatives, validity) = corim.into_parts();
    Ok(SignedCorim {
        alternatives,
        validity: validity.and(signer_validity),
        certificates,
        signature,
    })
}

/// The `signature-validity` of the protected `corim-meta` (unbounded when either is absent).
/// Only the protected header counts: an unprotected one is not signed.
fn signature_validity(sign1: &Sign1) -> Result<Validity, CorimError> {
    if !sign1.is_protected(CORIM_META) {
        return Ok(Validity::default());
    }
    let meta = sign1
        .header(CORIM_META)
        .and_then(Cbor::as_bytes)
        .ok_or_else(|| CorimError::schema("corim-meta", "not bytes .cbor corim-meta-map"))?;
    let meta = cbor::decode(meta, CORIM_CBOR_LIMITS)?;
    if meta.as_map().is_none() {
        return Err(CorimError::schema("corim-meta", "not a map"));
    }
    match meta.get_int(1) {
        None => Ok(Validity::default()),
        Some(validity) => Validity::read(validity, "corim-meta.1"),
    }
}
