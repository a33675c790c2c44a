//! RIM verification in two steps, so the ECDSA check can run on any backend (the software
//! one here, or WebCrypto in a JS host): [`prepare_rim`] parses, canonicalises and checks
//! the reference digest; [`PendingRim::finish`] takes the signature result and validates the
//! certificate chain at `now`. [`verify_rim`] does both with the software backend.

use alloc::vec::Vec;

use const_oid::ObjectIdentifier;
use der::Decode;
use serde::Serialize;
use x509_cert::Certificate;

use super::document::{self, RimDocument};
use super::dsig;
use super::error::RimError;
use super::trust::{self, RimCertChain, RimCertStatus, RimTrust};
use super::{MAX_RIM_BYTES, MAX_XML_DEPTH};
use crate::crypto::{SignatureCheck, SignatureError};

const EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const SECP384R1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.132.0.34");

/// A RIM whose content and reference digest have been checked; its signature over
/// `SignedInfo` has not been run yet.
#[derive(Clone, Debug)]
pub struct PendingRim {
    document: RimDocument,
    check: SignatureCheck,
    certificates: Vec<Vec<u8>>,
}

/// A RIM whose signature verified; its chain status says whether the signer is trusted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VerifiedRim {
    document: RimDocument,
    cert_chain: RimCertChain,
    #[serde(skip)]
    certificates: Vec<Vec<u8>>,
}

/// Parses a RIM, checks its signature structure and algorithms, and verifies the SHA-384
/// reference digest over the canonical document (C14N 1.1, enveloped signature removed).
///
/// # Errors
/// [`RimError`]: malformed XML, not a SWID RIM, not signed, an algorithm outside the
/// allow-list, a digest mismatch, or a signer certificate that is not EC P-384.
pub fn prepare_rim(xml: &[u8]) -> Result<PendingRim, RimError> {
    if xml.len() > MAX_RIM_BYTES {
        return Err(RimError::TooLarge {
            limit: MAX_RIM_BYTES,
            size: xml.len(),
        });
    }
    let text = core::str::from_utf8(xml).map_err(|_| RimError::Xml {
        detail: "not UTF-8".into(),
    })?;
    let options = roxmltree::ParsingOptions {
        allow_dtd: false,
        nodes_limit: MAX_NODES,
        ..roxmltree::ParsingOptions::default()
    };
    let doc =
        roxmltree::Document::parse_with_options(text, options).map_err(|e| RimError::Xml {
            detail: alloc::format!("{e}"),
        })?;
    if doc
        .descendants()
        .any(|n| n.is_element() && n.ancestors().count() > MAX_XML_DEPTH)
    {
        return Err(RimError::TooDeep);
    }
    let content = document::read(doc.root_element())?;
    let checked = dsig::check_reference(&doc)?;
    let signer = checked
        .certificates
        .first()
        .ok_or(RimError::SignatureStructure {
            problem: "X509Data holds no X509Certificate",
        })?;
    let key = signer_key(signer)?;
    Ok(PendingRim {
        check: dsig::signature_check(&checked, key),
        document: content,
        certificates: checked.certificates,
    })
}

/// Verifies a RIM completely with the software signature backend: [`prepare_rim`], the
/// ECDSA-SHA384 signature, and the `X509Data` chain against `trust` at `now`.
///
/// # Errors
/// As [`prepare_rim`], plus [`RimError::SignatureInvalid`].
pub fn verify_rim(xml: &[u8], trust: &RimTrust, now: u64) -> Result<VerifiedRim, RimError> {
    let pending = prepare_rim(xml)?;
    let result = pending.signature_check().verify();
    pending.finish(result, trust, now)
}

/// Most XML nodes accepted (a real RIM has about 500).
const MAX_NODES: u32 = 100_000;

impl PendingRim {
    /// The ECDSA check over the canonical `SignedInfo` that a backend must run.
    pub fn signature_check(&self) -> &SignatureCheck {
        &self.check
    }

    /// The `X509Data` certificates (DER), signer first.
    pub fn certificates(&self) -> &[Vec<u8>] {
        &self.certificates
    }

    /// The document's content, before its signature is known to verify: for display only.
    pub fn unverified_document(&self) -> &RimDocument {
        &self.document
    }

    /// Completes verification with the backend's result for [`Self::signature_check`], and
    /// validates the certificate chain against `trust` at `now` (Unix seconds).
    ///
    /// # Errors
    /// [`RimError::SignatureInvalid`] (or a key error) when `signature` is an error.
    pub fn finish(
        self,
        signature: Result<(), SignatureError>,
        trust: &RimTrust,
        now: u64,
    ) -> Result<VerifiedRim, RimError> {
        signature?;
        let cert_chain = validate_chain(&self.certificates, trust, now);
        Ok(VerifiedRim {
            document: self.document,
            cert_chain,
            certificates: self.certificates,
        })
    }
}

impl VerifiedRim {
    /// The signed content.
    pub fn document(&self) -> &RimDocument {
        &self.document
    }

    /// The chain status at the time of verification.
    pub fn cert_chain(&self) -> &RimCertChain {
        &self.cert_chain
    }

    /// The `X509Data` certificates (DER), signer first.
    pub fn certificates(&self) -> &[Vec<u8>] {
        &self.certificates
    }

    /// Signature verified and chain valid at the time given.
    pub fn is_trusted(&self) -> bool {
        self.cert_chain.status == RimCertStatus::Valid
    }
}

/// The SEC1 point of an EC P-384 signer certificate.
fn signer_key(der: &[u8]) -> Result<Vec<u8>, RimError> {
    let bad = |problem| RimError::Certificate { index: 0, problem };
    let certificate = Certificate::from_der(der).map_err(|_| bad("not a DER certificate"))?;
    let spki = certificate.tbs_certificate().subject_public_key_info();
    if spki.algorithm.oid != EC_PUBLIC_KEY {
        return Err(bad("signer key is not an EC key"));
    }
    let curve = spki
        .algorithm
        .parameters
        .as_ref()
        .and_then(|p| p.decode_as::<ObjectIdentifier>().ok());
    if curve != Some(SECP384R1) {
        return Err(bad("signer key is not on P-384"));
    }
    spki.subject_public_key
        .as_bytes()
        .map(<[u8]>::to_vec)
        .ok_or(bad("signer key bit string is not whole bytes"))
}

/// The chain status. No chain validator is wired in yet: the status says so explicitly
/// (never `Valid`), with the earliest `notAfter` still reported.
fn validate_chain(certificates: &[Vec<u8>], trust: &RimTrust, now: u64) -> RimCertChain {
    let _ = trust;
    let (expiration, _current) = trust::validity_window(certificates, now);
    RimCertChain {
        status: RimCertStatus::NotValidated,
        expiration,
        problem: Some("no certificate chain validator in this build"),
    }
}
