//! A signed CoRIM: COSE_Sign1 (RFC 9052 §4.2) over a `corim-map`, ES384 only, its signer
//! chain in `x5chain` (label 33, leaf first), checked in two steps as an XML RIM is
//! ([`prepare_corim`] plans, [`PendingCorim::finish`] takes one verdict per ECDSA check) so
//! that the checks can run on any backend.
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
use super::{Corim, CORIM_CBOR_LIMITS, MAX_CORIM_BYTES, TAG_UNSIGNED_CORIM};
use crate::cbor::{self, Cbor};
use crate::chain::{ChainError, ChainPlan};
use crate::cose::Sign1;
use crate::crypto::{Deferred, SignatureCheck};
use crate::rim::trust::{RimCertChain, RimCertStatus, RimTrust};
use crate::time::UnixTime;

/// COSE_Sign1's tag.
pub(super) const TAG_SIGN1: u64 = crate::cose::COSE_SIGN1_TAG;
/// The COSE `content type` header label.
const CONTENT_TYPE: i64 = crate::cose::HEADER_CONTENT_TYPE;
/// The content type of a CoRIM payload.
const RIM_CBOR: &str = "application/rim+cbor";
/// The draft-06 wrappers: `tagged-corim-type-choice` (500) and `tagged-signed-corim` (502).
const WRAPPERS: [u64; 2] = [500, 502];

/// A signed CoRIM whose envelope and content have been read; its ECDSA checks (the COSE
/// signature, then the certificate path's links) have not been run yet.
#[derive(Clone, Debug)]
pub struct PendingCorim {
    corim: Corim,
    certificates: Vec<Vec<u8>>,
    checks: Vec<SignatureCheck>,
    chain: Result<ChainPlan, ChainError>,
}

/// A signed CoRIM whose signature verified; its chain status says whether the signer is
/// trusted.
#[derive(Clone, Debug, PartialEq)]
pub struct VerifiedCorim {
    corim: Corim,
    cert_chain: RimCertChain,
    certificates: Vec<Vec<u8>>,
}

/// Reads a signed CoRIM, checks its COSE_Sign1 structure (ES384, content type, `x5chain`
/// leaf P-384) and reads the payload as [`super::parse_corim`] does; plans the `x5chain`
/// path to `trust` at `now` (Unix seconds).
///
/// # Errors
/// [`CorimError`]: as [`super::parse_corim`]; [`CorimError::NotSigned`] for an unsigned
/// CoRIM; [`CorimError::Cose`] for a malformed envelope or an algorithm other than ES384;
/// [`CorimError::ContentType`]; [`CorimError::Certificate`] without a usable `x5chain`. A
/// chain that does not validate is not an error: it is reported in
/// [`VerifiedCorim::cert_chain`].
pub fn prepare_corim(
    bytes: &[u8],
    trust: &RimTrust,
    now: UnixTime,
) -> Result<PendingCorim, CorimError> {
    let SignedCorim {
        corim,
        certificates,
        signature,
    } = read_signed(bytes)?;
    let chain = crate::rim::signer::plan_chain(&certificates, trust.corim_store(), now);
    let mut checks = alloc::vec![signature];
    if let Ok(plan) = &chain {
        checks.extend(plan.signature_checks().iter().cloned());
    }
    Ok(PendingCorim {
        corim,
        certificates,
        checks,
        chain,
    })
}

/// What a signed CoRIM's bytes alone give: its content, its `x5chain` (leaf first) and the
/// check of its COSE signature by the leaf's key.
#[derive(Clone, Debug)]
pub(crate) struct SignedCorim {
    pub corim: Corim,
    pub certificates: Vec<Vec<u8>>,
    pub signature: SignatureCheck,
}

/// The part of [`prepare_corim`] that depends on the bytes alone.
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
    Ok(SignedCorim {
        corim,
        certificates,
        signature,
    })
}

/// Verifies a signed CoRIM completely with the software signature backend:
/// [`prepare_corim`], the ES384 signature, and the `x5chain` against `trust` at `now`.
///
/// # Errors
/// As [`prepare_corim`], plus [`CorimError::SignatureInvalid`].
pub fn verify_corim(
    bytes: &[u8],
    trust: &RimTrust,
    now: UnixTime,
) -> Result<VerifiedCorim, CorimError> {
    Deferred::finish_in_software(prepare_corim(bytes, trust, now)?)
}

impl PendingCorim {
    /// The ECDSA checks a backend must run: the COSE signature first, then one per
    /// certificate-path link.
    pub fn signature_checks(&self) -> &[SignatureCheck] {
        &self.checks
    }

    /// The `x5chain` certificates (DER), leaf first: the chain whose revocation a host asks
    /// about, as for an XML RIM's `X509Data`.
    pub fn certificates(&self) -> &[Vec<u8>] {
        &self.certificates
    }

    /// Whether a certificate path to a trusted root was built.
    pub fn chain_planned(&self) -> bool {
        self.chain.is_ok()
    }

    /// The content, before its signature is known to verify: for display only.
    pub fn unverified_corim(&self) -> &Corim {
        &self.corim
    }

    /// Completes verification with one verdict per [`Self::signature_checks`] entry.
    ///
    /// # Errors
    /// [`CorimError::SignatureInvalid`] when the COSE signature's verdict is false or
    /// verdicts are missing. Failed chain links make the chain status `invalid`.
    pub fn finish(self, verdicts: &[bool]) -> Result<VerifiedCorim, CorimError> {
        if verdicts.len() != self.checks.len() || verdicts.first() != Some(&true) {
            return Err(CorimError::SignatureInvalid);
        }
        let chain_verdicts = verdicts.get(1..).unwrap_or_default();
        let cert_chain =
            RimCertChain::from_result(self.chain.and_then(|plan| plan.finish(chain_verdicts)));
        Ok(VerifiedCorim {
            corim: self.corim,
            cert_chain,
            certificates: self.certificates,
        })
    }
}

impl Deferred for PendingCorim {
    type Output = VerifiedCorim;
    type Error = CorimError;

    fn signature_checks(&self) -> &[SignatureCheck] {
        PendingCorim::signature_checks(self)
    }

    fn finish(self, verdicts: &[bool]) -> Result<VerifiedCorim, CorimError> {
        PendingCorim::finish(self, verdicts)
    }
}

impl VerifiedCorim {
    /// The signed content.
    pub fn corim(&self) -> &Corim {
        &self.corim
    }

    /// The chain status at the time of verification.
    pub fn cert_chain(&self) -> &RimCertChain {
        &self.cert_chain
    }

    /// The `x5chain` certificates (DER), leaf first.
    pub fn certificates(&self) -> &[Vec<u8>] {
        &self.certificates
    }

    /// Signature verified and chain valid at the time given.
    pub fn is_trusted(&self) -> bool {
        self.cert_chain.status == RimCertStatus::Valid
    }
}
