//! RIM verification in two steps, so every ECDSA check can run on any backend (the software
//! one here, or WebCrypto in a JS host): [`prepare_rim`] parses, canonicalises, checks the
//! reference digest and plans the certificate path; [`PendingRim::finish`] takes one
//! verdict per [`PendingRim::signature_checks`] entry. [`verify_rim`] does both with the
//! software backend.
//!
//! Both RIM formats take this one path: a document whose first byte opens a CBOR array, map
//! or tag (`0x80`–`0xdb`, never the first byte of XML text, which starts with `<`, white
//! space or a UTF-8 BOM) is a signed CoRIM (COSE_Sign1, [`super::corim`]), anything else XML.
//! Either gives the same pending and verified RIM, its signature check first and then its
//! chain's, the chain planned to the format's anchors ([`RimTrust`]); a CoRIM's alternatives
//! are compared by [`VerifiedRim::compare`] as an XML RIM's one document is.

use alloc::vec::Vec;

use serde::Serialize;

use super::budget::Budget;
use super::c14n;
use super::compare::Comparison;
#[cfg(doc)]
use super::corim::CorimError;
use super::corim::Validity;
use super::document::{self, RimDocument};
use super::dsig::{self, DSIG_NS};
use super::error::CompareError;
use super::error::RimError;
use super::limits::{
    MAX_RIM_BYTES, MAX_RIM_WORK, MAX_XML_ATTRIBUTES, MAX_XML_DEPTH, MAX_XML_NAMESPACES,
};
use super::scan;
use super::trust::{RimCertChain, RimCertStatus, RimTrust};
use crate::chain::{ChainError, ChainPlan};
use crate::crypto::{Deferred, SignatureCheck};
use crate::time::UnixTime;

/// Most XML nodes accepted (a real RIM has about 500).
const MAX_NODES: u32 = 100_000;

/// A RIM whose content and reference digest have been checked; the ECDSA checks (the RIM
/// signature, then the certificate path's links) have not been run yet.
#[derive(Clone, Debug)]
pub struct PendingRim {
    document: RimDocument,
    format: Format,
    now: UnixTime,
    certificates: Vec<Vec<u8>>,
    checks: Vec<SignatureCheck>,
    chain: Result<ChainPlan, ChainError>,
    work: u64,
}

/// A RIM whose signature verified; its chain status says whether the signer is trusted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "VerifiedRimJson"))]
#[serde(rename_all = "camelCase")]
pub struct VerifiedRim {
    document: RimDocument,
    cert_chain: RimCertChain,
    #[serde(skip)]
    format: Format,
    #[serde(skip)]
    certificates: Vec<Vec<u8>>,
}

/// What a RIM's format adds to its document.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Format {
    /// A SWID tag signed with XML-DSig: the document is all of it.
    Xml,
    /// A CoRIM signed with COSE_Sign1.
    Corim {
        /// Its alternatives after the first (the document).
        more: Vec<RimDocument>,
        /// The period in which it and its signer say it may be used.
        validity: Validity,
    },
}

/// Whether a RIM's first byte opens a CBOR array, map or tag, which no XML text starts with.
pub(crate) fn is_cbor(bytes: &[u8]) -> bool {
    matches!(bytes.first(), Some(0x80..=0xdb))
}

/// Parses a RIM (an XML RIM or a signed CoRIM, told apart by its first byte), checks its
/// signature structure and algorithms, verifies the SHA-384
/// reference digest over the canonical document (C14N 1.1, enveloped signature removed),
/// and plans the `X509Data` certificate path to `trust` at `now` (Unix seconds).
///
/// # Errors
/// [`RimError`]: malformed XML, an XML limit exceeded (size, attributes per element,
/// namespace declarations, nodes, depth, the work budget), not a SWID RIM, not signed, an
/// algorithm outside the allow-list, a digest mismatch, or a signer certificate that is not
/// EC P-384. A CoRIM refused is [`RimError::Corim`]: as [`super::parse_corim`] refuses its
/// payload, an unsigned CoRIM, a COSE_Sign1 that is malformed or not ES384, a content type
/// other than `application/rim+cbor`, or no `x5chain` with an EC P-384 leaf. A chain that does not validate is not an error: it is reported in
/// [`VerifiedRim::cert_chain`].
pub fn prepare_rim(xml: &[u8], trust: &RimTrust, now: UnixTime) -> Result<PendingRim, RimError> {
    parse_rim(xml).map(|parsed| parsed.into_plan(trust, now))
}

/// What [`prepare_rim`] finds from a RIM's bytes alone: the content, the reference digest
/// checked, the signature check and the `X509Data` certificates. The same bytes always give
/// the same one, so a host of many requests keeps it and plans each request's certificate
/// path from it ([`ParsedRim::plan`]); the signatures are still checked each time.
#[derive(Clone, Debug)]
pub(crate) struct ParsedRim {
    document: RimDocument,
    format: Format,
    certificates: Vec<Vec<u8>>,
    signature: SignatureCheck,
    work: u64,
}

/// The part of [`prepare_rim`] that depends on the bytes alone.
pub(crate) fn parse_rim(bytes: &[u8]) -> Result<ParsedRim, RimError> {
    if is_cbor(bytes) {
        parse_corim(bytes)
    } else {
        parse_xml(bytes)
    }
}

fn parse_corim(bytes: &[u8]) -> Result<ParsedRim, RimError> {
    let signed = super::corim::read_signed(bytes)?;
    let mut alternatives = signed.alternatives.into_iter();
    let document = alternatives
        .next()
        .ok_or(RimError::Corim(super::corim::CorimError::schema(
            "corim.1",
            "no reference measurements",
        )))?;
    Ok(ParsedRim {
        document,
        format: Format::Corim {
            more: alternatives.collect(),
            validity: signed.validity,
        },
        certificates: signed.certificates,
        signature: signed.signature,
        // The work budget counts XML operations; a CoRIM's are bounded by the CBOR budgets.
        work: 0,
    })
}

fn parse_xml(xml: &[u8]) -> Result<ParsedRim, RimError> {
    let mut budget = Budget::new(MAX_RIM_WORK);
    let doc = parse_document(text(xml)?, &mut budget)?;
    let document = document::read(doc.root_element(), &mut budget)?;
    let checked = dsig::check_reference(&doc, &mut budget)?;
    let signer = checked
        .certificates
        .first()
        .ok_or(RimError::SignatureStructure {
            problem: "X509Data holds no X509Certificate",
        })?;
    let key = super::signer::signer_key(signer)?;
    let signature = dsig::signature_check(&checked, key);
    Ok(ParsedRim {
        document,
        format: Format::Xml,
        certificates: checked.certificates,
        signature,
        work: budget.spent(),
    })
}

impl ParsedRim {
    /// The pending verification of this RIM at `now`: its certificate path to `trust`
    /// planned, the signature check first.
    pub(crate) fn plan(&self, trust: &RimTrust, now: UnixTime) -> PendingRim {
        self.clone().into_plan(trust, now)
    }

    /// [`Self::plan`], taking the parse: nothing copied when it is not kept.
    fn into_plan(self, trust: &RimTrust, now: UnixTime) -> PendingRim {
        let store = match self.format {
            Format::Xml => trust.store(),
            Format::Corim { .. } => trust.corim_store(),
        };
        let chain = super::signer::plan_chain(&self.certificates, store, now);
        let mut checks = alloc::vec![self.signature];
        if let Ok(plan) = &chain {
            checks.extend(plan.signature_checks().iter().cloned());
        }
        PendingRim {
            document: self.document,
            format: self.format,
            now,
            certificates: self.certificates,
            checks,
            chain,
            work: self.work,
        }
    }
}

/// A RIM's bytes as text: at most [`MAX_RIM_BYTES`], UTF-8.
fn text(xml: &[u8]) -> Result<&str, RimError> {
    if xml.len() > MAX_RIM_BYTES {
        return Err(RimError::TooLarge {
            limit: MAX_RIM_BYTES,
            size: xml.len(),
        });
    }
    core::str::from_utf8(xml).map_err(|_| RimError::Xml {
        detail: "not UTF-8".into(),
    })
}

/// The SWID content of a RIM read within the limits [`prepare_rim`] applies, its signature
/// not checked: for telling what a document is before it is verified.
pub(crate) fn read_unverified(xml: &[u8]) -> Result<RimDocument, RimError> {
    let mut budget = Budget::new(MAX_RIM_WORK);
    let doc = parse_document(text(xml)?, &mut budget)?;
    document::read(doc.root_element(), &mut budget)
}

/// Parses a RIM's text within the XML limits, each checked before the work it protects: the
/// pre-scan's caps on attributes per element and namespace declarations
/// ([`MAX_XML_ATTRIBUTES`], [`MAX_XML_NAMESPACES`]), the parser's cost estimated from the
/// pre-scan's counts and charged to `budget`, the parser's node limit, and the nesting depth.
/// The pre-scan also refuses a repeated `xmlns` on one element, which is not well-formed
/// but which the parser would accept.
pub(crate) fn parse_document<'input>(
    text: &'input str,
    budget: &mut Budget,
) -> Result<roxmltree::Document<'input>, RimError> {
    budget.spend_usize(text.len())?;
    let counts =
        scan::count(text, MAX_XML_ATTRIBUTES, MAX_XML_NAMESPACES).map_err(
            |refused| match refused {
                scan::Refused::Attributes => RimError::TooManyAttributes {
                    limit: MAX_XML_ATTRIBUTES,
                },
                scan::Refused::Declarations => RimError::TooManyNamespaces {
                    limit: MAX_XML_NAMESPACES,
                },
                scan::Refused::RepeatedDeclaration => RimError::Xml {
                    detail: "an element repeats its xmlns or xmlns:xml attribute".into(),
                },
            },
        )?;
    budget.spend(counts.parse_cost)?;
    let options = roxmltree::ParsingOptions {
        allow_dtd: false,
        nodes_limit: MAX_NODES,
        ..roxmltree::ParsingOptions::default()
    };
    let doc =
        roxmltree::Document::parse_with_options(text, options).map_err(|e| RimError::Xml {
            detail: alloc::format!("{e}"),
        })?;
    // Depth by parent, in one document-order pass: O(n) even for hostile nesting (node ids
    // are dense indices, parents come before children).
    let nodes = doc.descendants().len();
    budget.spend_usize(nodes)?;
    let mut depths: Vec<usize> = alloc::vec![0; nodes];
    for node in doc.descendants() {
        let depth = node
            .parent()
            .and_then(|p| depths.get(p.id().get_usize()).copied())
            .map_or(0, |d| d.saturating_add(1));
        if depth > MAX_XML_DEPTH {
            return Err(RimError::TooDeep);
        }
        if let Some(slot) = depths.get_mut(node.id().get_usize()) {
            *slot = depth;
        }
    }
    Ok(doc)
}

/// Verifies a RIM completely with the software signature backend: [`prepare_rim`], the
/// ECDSA-SHA384 signature, and the `X509Data` chain against `trust` at `now`.
///
/// # Errors
/// As [`prepare_rim`], plus [`RimError::SignatureInvalid`].
pub fn verify_rim(xml: &[u8], trust: &RimTrust, now: UnixTime) -> Result<VerifiedRim, RimError> {
    crate::crypto::Deferred::finish_in_software(prepare_rim(xml, trust, now)?)
}

impl PendingRim {
    /// The ECDSA checks a backend must run: the RIM signature over the canonical
    /// `SignedInfo` first, then one per certificate-path link.
    pub fn signature_checks(&self) -> &[SignatureCheck] {
        &self.checks
    }

    /// The `X509Data` certificates (DER), signer first.
    pub fn certificates(&self) -> &[Vec<u8>] {
        &self.certificates
    }

    /// Whether a certificate path to a trusted root was built (its signatures are among the
    /// checks): only then is revocation of the chain worth asking about.
    pub fn chain_planned(&self) -> bool {
        self.chain.is_ok()
    }

    /// The units of work preparing this document spent before any signature check, out of
    /// [`MAX_RIM_WORK`] (a count of operations, not a time: the same document always costs
    /// the same). Exposed so that tests can show the cost grows linearly with the document.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// The document's content, before its signature is known to verify: for display only.
    /// A CoRIM's first alternative.
    pub fn unverified_document(&self) -> &RimDocument {
        &self.document
    }

    /// Whether the document is the RIM `id` names: [`super::check_rim_id`] for an XML RIM;
    /// for a CoRIM, the id's form and the version it states, by the XML RIMs' rule (a CoRIM
    /// that states no version is not the RIM any id names, as an XML RIM without one is
    /// not).
    ///
    /// # Errors
    /// [`RimError::IdMismatch`] naming what differs; for an XML RIM also as
    /// [`super::check_rim_id`].
    pub fn check_id(&self, id: &str) -> Result<(), RimError> {
        check_id(&self.format, &self.document, id)
    }

    /// Completes verification with one verdict per [`Self::signature_checks`] entry.
    ///
    /// # Errors
    /// [`RimError::SignatureInvalid`] when the RIM signature's verdict is false or verdicts
    /// are missing. Failed chain links make the chain status `invalid`, not an error. A
    /// CoRIM outside its validity period at the time given to [`prepare_rim`] is
    /// [`RimError::Corim`] ([`CorimError::NotYetValid`], [`CorimError::Expired`]); one that
    /// states none is not limited by it (only by its chain's validity). The period is
    /// signed content, so it is judged once the signature verified.
    pub fn finish(self, verdicts: &[bool]) -> Result<VerifiedRim, RimError> {
        if verdicts.len() != self.checks.len() || verdicts.first() != Some(&true) {
            return Err(RimError::SignatureInvalid);
        }
        if let Format::Corim { validity, .. } = &self.format {
            validity.check(self.now)?;
        }
        let chain_verdicts = verdicts.get(1..).unwrap_or_default();
        let cert_chain =
            RimCertChain::from_result(self.chain.and_then(|plan| plan.finish(chain_verdicts)));
        Ok(VerifiedRim {
            document: self.document,
            format: self.format,
            cert_chain,
            certificates: self.certificates,
        })
    }
}

impl VerifiedRim {
    /// The signed content; a CoRIM's first alternative (compare through [`Self::compare`],
    /// which tries them all).
    pub fn document(&self) -> &RimDocument {
        &self.document
    }

    /// Whether the document is a signed CoRIM (else an XML RIM).
    pub fn is_corim(&self) -> bool {
        matches!(self.format, Format::Corim { .. })
    }

    /// Runs `compare` (one of the comparisons, [`super::compare_gpu`],
    /// [`super::compare_gpu_firmware`], [`super::compare_switch`], with the device's
    /// evidence) on the signed content: an XML RIM's one document, or each of a CoRIM's
    /// alternatives, keeping the first that matches, else the one with the fewest mismatches.
    ///
    /// # Errors
    /// The first error `compare` returns.
    pub fn compare<F>(&self, compare: F) -> Result<Comparison, CompareError>
    where
        F: FnMut(&RimDocument) -> Result<Comparison, CompareError>,
    {
        let more = match &self.format {
            Format::Xml => &[][..],
            Format::Corim { more, .. } => more,
        };
        super::corim::best_of(core::iter::once(&self.document).chain(more), compare)
    }

    /// As [`PendingRim::check_id`].
    ///
    /// # Errors
    /// [`RimError::IdMismatch`] naming what differs.
    pub fn check_id(&self, id: &str) -> Result<(), RimError> {
        check_id(&self.format, &self.document, id)
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

fn check_id(format: &Format, document: &RimDocument, id: &str) -> Result<(), RimError> {
    match format {
        Format::Xml => super::identity::check_rim_id(document, id),
        Format::Corim { .. } => super::identity::check_corim_id(document, id),
    }
}

impl Deferred for PendingRim {
    type Output = VerifiedRim;
    type Error = RimError;

    fn signature_checks(&self) -> &[SignatureCheck] {
        PendingRim::signature_checks(self)
    }

    fn finish(self, verdicts: &[bool]) -> Result<VerifiedRim, RimError> {
        PendingRim::finish(self, verdicts)
    }
}

/// Canonical XML 1.1 of a document with its enveloped signature removed, and of its
/// `SignedInfo`: exposed for conformance tests against independent implementations.
///
/// # Errors
/// [`RimError`] when the document is not well-formed, is refused by the limits
/// [`prepare_rim`] applies (size aside), or has no single signature element.
pub fn canonical_forms(xml: &str) -> Result<(Vec<u8>, Vec<u8>), RimError> {
    let mut budget = Budget::new(MAX_RIM_WORK);
    let doc = parse_document(xml, &mut budget)?;
    let signature = doc
        .descendants()
        .find(|n| n.is_element() && n.has_tag_name((DSIG_NS, "Signature")))
        .ok_or(RimError::NotSigned)?;
    let signed_info = signature
        .children()
        .find(|n| n.is_element() && n.has_tag_name((DSIG_NS, "SignedInfo")))
        .ok_or(RimError::SignatureStructure {
            problem: "no SignedInfo",
        })?;
    Ok((
        c14n::document_without(&doc, signature.id(), &mut budget)?,
        c14n::subtree(signed_info, &mut budget)?,
    ))
}
