//! The enveloped XML signature of a RIM (XML-DSig 1.1, W3C REC `xmldsig-core1`), checked
//! against an allow-list of exactly what NVIDIA's RIMs declare:
//!
//! | element | accepted algorithm |
//! |---|---|
//! | `CanonicalizationMethod` | `http://www.w3.org/2006/12/xml-c14n11` |
//! | `SignatureMethod` | `http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384` (RFC 6931 §2.3.6) |
//! | `Reference` | `URI=""` (the whole document) |
//! | `Transforms` | enveloped-signature, then C14N 1.1 — exactly these two |
//! | `DigestMethod` | `http://www.w3.org/2001/04/xmldsig-more#sha384` (RFC 6931 §2.1.3) |
//!
//! Anything else is refused with [`RimError::UnsupportedAlgorithm`] rather than interpreted.
//! Signature-wrapping is ruled out by construction: there must be exactly one signature
//! element, a child of the document element, whose single reference covers the whole
//! document, and the measurements are read from the same parsed tree that was digested.

use alloc::string::ToString;
use alloc::vec::Vec;

use base64::Engine;
use roxmltree::{Document, Node};
use sha2::{Digest, Sha384};
use subtle::ConstantTimeEq;

use super::budget::Budget;
use super::c14n;
use super::error::RimError;
use crate::crypto::{SignatureCheck, SIGNATURE_LEN};

/// XML-DSig namespace.
pub(crate) const DSIG_NS: &str = "http://www.w3.org/2000/09/xmldsig#";
/// Canonical XML 1.1 without comments.
pub(crate) const C14N11: &str = "http://www.w3.org/2006/12/xml-c14n11";
/// The enveloped-signature transform.
pub(crate) const ENVELOPED_SIGNATURE: &str =
    "http://www.w3.org/2000/09/xmldsig#enveloped-signature";
/// ECDSA over P-384 with SHA-384.
pub(crate) const ECDSA_SHA384: &str = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384";
/// SHA-384 digest.
pub(crate) const SHA384: &str = "http://www.w3.org/2001/04/xmldsig-more#sha384";

/// Length of a SHA-384 digest.
const DIGEST_LEN: usize = 48;

/// What the signature element yields once the reference digest has been checked: the
/// signature check over the canonical `SignedInfo` (still to be run by a backend) and the
/// `X509Data` certificates, signer first.
pub(crate) struct CheckedSignature {
    pub(crate) signed_info_c14n: Vec<u8>,
    pub(crate) signature: Vec<u8>,
    pub(crate) certificates: Vec<Vec<u8>>,
}

/// Finds the enveloped signature, checks its structure and algorithms, and verifies the
/// reference digest over the canonical document without the signature.
///
/// Linear in the document: passes over its nodes find the signature and any XML-DSig
/// element outside it (by counting, not by walking each one's ancestors), the signature's
/// parts are visited at most twice, and the canonicalisations are linear (`c14n`).
pub(crate) fn check_reference(
    doc: &Document<'_>,
    budget: &mut Budget,
) -> Result<CheckedSignature, RimError> {
    let root = doc.root_element();
    budget.spend_usize(doc.descendants().len())?;
    let mut signatures = doc
        .descendants()
        .filter(|n| n.is_element() && n.has_tag_name((DSIG_NS, "Signature")));
    let signature = signatures.next().ok_or(RimError::NotSigned)?;
    if signatures.next().is_some() {
        return Err(structure("more than one ds:Signature element"));
    }
    if signature.parent_element() != Some(root) {
        return Err(structure(
            "ds:Signature is not a child of the document element",
        ));
    }
    // Any other XML-DSig element outside the signature would be an unsigned look-alike: the
    // signature's subtree lies within the document element's, so there is one exactly when
    // the document element has more of them.
    let is_dsig = |n: &Node<'_, '_>| n.is_element() && n.tag_name().namespace() == Some(DSIG_NS);
    budget.spend_usize(root.descendants().len())?;
    if root.descendants().filter(is_dsig).count() != signature.descendants().filter(is_dsig).count()
    {
        return Err(structure("XML-DSig element outside ds:Signature"));
    }

    // The structure checks below visit each node of the signature at most twice.
    budget.spend_usize(signature.descendants().len().saturating_mul(2))?;
    let [signed_info, signature_value, key_info] =
        children::<3>(signature, &["SignedInfo", "SignatureValue", "KeyInfo"])?;

    let reference = check_signed_info(signed_info)?;
    let expected_digest = decode_base64(text(reference.digest_value), budget)?
        .filter(|d| d.len() == DIGEST_LEN)
        .ok_or_else(|| structure("DigestValue is not base64 of 48 bytes"))?;

    let signature_bytes = decode_base64(text(signature_value), budget)?
        .filter(|s| s.len() == SIGNATURE_LEN)
        .ok_or_else(|| structure("SignatureValue is not base64 of a 96-byte r||s value"))?;

    let certificates = x509_certificates(key_info, budget)?;

    let canonical = c14n::document_without(doc, signature.id(), budget)?;
    budget.spend_usize(canonical.len())?;
    let digest = Sha384::digest(&canonical);
    if !bool::from(digest.as_slice().ct_eq(&expected_digest)) {
        return Err(RimError::DigestMismatch);
    }

    Ok(CheckedSignature {
        signed_info_c14n: c14n::subtree(signed_info, budget)?,
        signature: signature_bytes,
        certificates,
    })
}

/// Builds the signature check for the canonical `SignedInfo`.
pub(crate) fn signature_check(checked: &CheckedSignature, signer_sec1: Vec<u8>) -> SignatureCheck {
    SignatureCheck {
        public_key_sec1: signer_sec1,
        message: checked.signed_info_c14n.clone(),
        signature: checked.signature.clone(),
    }
}

struct ReferenceParts<'a, 'input> {
    digest_value: Node<'a, 'input>,
}

fn check_signed_info<'a, 'input>(
    signed_info: Node<'a, 'input>,
) -> Result<ReferenceParts<'a, 'input>, RimError> {
    let [c14n_method, signature_method, reference] = children::<3>(
        signed_info,
        &["CanonicalizationMethod", "SignatureMethod", "Reference"],
    )?;
    expect_algorithm(c14n_method, "CanonicalizationMethod", C14N11)?;
    no_element_children(c14n_method)?;
    expect_algorithm(signature_method, "SignatureMethod", ECDSA_SHA384)?;
    no_element_children(signature_method)?;

    if reference.attribute("URI") != Some("") {
        return Err(structure(
            "Reference must have URI=\"\" (the whole document)",
        ));
    }
    let [transforms, digest_method, digest_value] =
        children::<3>(reference, &["Transforms", "DigestMethod", "DigestValue"])?;
    let [enveloped, canonical] = children::<2>(transforms, &["Transform", "Transform"])?;
    expect_algorithm(enveloped, "Transform", ENVELOPED_SIGNATURE)?;
    expect_algorithm(canonical, "Transform", C14N11)?;
    no_element_children(enveloped)?;
    no_element_children(canonical)?;
    expect_algorithm(digest_method, "DigestMethod", SHA384)?;
    no_element_children(digest_method)?;
    Ok(ReferenceParts { digest_value })
}

fn x509_certificates(
    key_info: Node<'_, '_>,
    budget: &mut Budget,
) -> Result<Vec<Vec<u8>>, RimError> {
    let [x509_data] = children::<1>(key_info, &["X509Data"])?;
    let mut certificates = Vec::new();
    for (index, child) in element_children(x509_data).enumerate() {
        if !child.has_tag_name((DSIG_NS, "X509Certificate")) {
            return Err(structure(
                "X509Data holds an element other than X509Certificate",
            ));
        }
        let der = decode_base64(text(child), budget)?.ok_or(RimError::Certificate {
            index,
            problem: "not base64",
        })?;
        certificates.push(der);
    }
    if certificates.is_empty() {
        return Err(structure("X509Data holds no X509Certificate"));
    }
    Ok(certificates)
}

fn element_children<'a, 'input>(node: Node<'a, 'input>) -> impl Iterator<Item = Node<'a, 'input>> {
    node.children().filter(|c| c.is_element())
}

/// The element children of `node`, which must be exactly the XML-DSig elements `names`, in
/// that order. Text between them may only be whitespace.
fn children<'a, 'input, const N: usize>(
    node: Node<'a, 'input>,
    names: &[&'static str; N],
) -> Result<[Node<'a, 'input>; N], RimError> {
    if node
        .children()
        .any(|c| c.is_text() && !c.text().unwrap_or("").trim().is_empty())
    {
        return Err(structure("unexpected text between XML-DSig elements"));
    }
    let mut found: Vec<Node<'a, 'input>> = Vec::with_capacity(N);
    for child in element_children(node) {
        let expected = names.get(found.len()).ok_or_else(|| {
            structure("unexpected element in ds:Signature (only the accepted profile is verified)")
        })?;
        if !child.has_tag_name((DSIG_NS, *expected)) {
            return Err(structure(
                "XML-DSig elements missing or out of order (only the accepted profile is verified)",
            ));
        }
        found.push(child);
    }
    found
        .try_into()
        .map_err(|_| structure("XML-DSig element missing"))
}

fn no_element_children(node: Node<'_, '_>) -> Result<(), RimError> {
    if element_children(node).next().is_some() {
        return Err(structure("algorithm parameters are not accepted"));
    }
    Ok(())
}

fn expect_algorithm(
    node: Node<'_, '_>,
    element: &'static str,
    expected: &str,
) -> Result<(), RimError> {
    match node.attribute("Algorithm") {
        Some(algorithm) if algorithm == expected => Ok(()),
        Some(algorithm) => Err(RimError::UnsupportedAlgorithm {
            element,
            algorithm: algorithm.to_string(),
        }),
        None => Err(structure("Algorithm attribute missing")),
    }
}

fn text<'a>(node: Node<'a, '_>) -> impl Iterator<Item = &'a str> + Clone {
    node.children()
        .filter(|c| c.is_text())
        .filter_map(|c| c.text())
}

/// XML-DSig base64 (`ds:CryptoBinary`, `base64Binary`): standard alphabet, padding, and
/// whitespace between characters allowed (XML Schema base64Binary lexical space). `None`
/// when not base64; the bytes read are charged to `budget` first.
fn decode_base64<'a>(
    parts: impl Iterator<Item = &'a str> + Clone,
    budget: &mut Budget,
) -> Result<Option<Vec<u8>>, RimError> {
    let total = parts.clone().map(str::len).fold(0, usize::saturating_add);
    budget.spend_usize(total)?;
    // The runs between white space copied whole (not byte by byte through an iterator
    // chain, which the size-optimised build does not fuse).
    let mut compact: Vec<u8> = Vec::with_capacity(total);
    for part in parts {
        for run in part
            .as_bytes()
            .split(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            compact.extend_from_slice(run);
        }
    }
    Ok(base64::engine::general_purpose::STANDARD
        .decode(compact)
        .ok())
}

fn structure(problem: &'static str) -> RimError {
    RimError::SignatureStructure { problem }
}
