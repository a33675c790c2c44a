//! Who may sign a response about a certificate (RFC 6960 §4.2.2.2): the CA that issued it,
//! or a responder certificate that CA issued for the purpose (`id-kp-OCSPSigning`). No
//! locally configured responder is trusted: NVIDIA's responders are delegated ones.
//!
//! The delegated responder's certificate is validated by the chain module with the issuing
//! CA as the only anchor and [`Purpose::OcspResponder`] as the leaf's purpose: issuer name
//! and key identifier, keyUsage digitalSignature when present, extendedKeyUsage
//! `id-kp-OCSPSigning` required, not a CA, P-384 / ecdsa-with-SHA384, validity at `now`
//! enforced, and its signature by the CA handed out as a check.

use alloc::vec::Vec;

use der::{Decode, Encode};
use sha1::{Digest, Sha1};
use x509_cert::Certificate;

use super::asn1::ResponderId;
use super::error::{OcspError, ResponderProblem};
use super::request::IssuerFacts;
use crate::chain::{ChainOptions, ChainPlan, Purpose, TimeCheck, TrustStore};

/// The key that signed a response, and how it is authorised.
pub(crate) enum Signer {
    /// The issuing CA itself (its SEC1 P-384 key).
    Issuer(Vec<u8>),
    /// A delegated responder: its key (SEC1) and the plan whose one check is the CA's
    /// signature on the responder certificate.
    Delegated(Vec<u8>, ChainPlan),
}

/// Identifies the signer named by `responder_id` among the issuing CA and `certs`.
///
/// # Errors
/// [`OcspError::UnauthorizedResponder`], [`OcspError::SignatureAlgorithm`] for a CA key
/// that is not P-384, [`OcspError::Malformed`] for a certificate in `certs` that is not DER.
pub(crate) fn identify(
    responder_id: &ResponderId,
    issuer: &IssuerFacts,
    issuer_der: &[u8],
    certs: &[&[u8]],
    now: u64,
) -> Result<Signer, OcspError> {
    if names(responder_id, &issuer.subject, &issuer.key_bits) {
        return issuer
            .p384_key
            .clone()
            .map(Signer::Issuer)
            .ok_or(OcspError::SignatureAlgorithm);
    }
    let mut named = None;
    for der in certs {
        let cert = Certificate::from_der(der).map_err(|_| OcspError::Malformed {
            problem: "a certificate in certs is not DER X.509",
        })?;
        let tbs = cert.tbs_certificate();
        let subject = tbs.subject().to_der().map_err(|_| OcspError::Malformed {
            problem: "a certificate in certs is not DER X.509",
        })?;
        let key = tbs
            .subject_public_key_info()
            .subject_public_key
            .as_bytes()
            .unwrap_or_default();
        if names(responder_id, &subject, key) {
            named = Some(*der);
            break;
        }
    }
    let responder = named.ok_or(OcspError::UnauthorizedResponder(
        ResponderProblem::NotInResponse,
    ))?;
    let refused = |err| OcspError::UnauthorizedResponder(ResponderProblem::Certificate(err));
    let anchor = TrustStore::from_der(&[issuer_der]).map_err(refused)?;
    let options = ChainOptions::default()
        .with_time(TimeCheck::Enforce)
        .with_purpose(Purpose::OcspResponder)
        .with_max_intermediates(0);
    let plan = ChainPlan::new(&[responder], &anchor, now, &options).map_err(refused)?;
    Ok(Signer::Delegated(
        plan.leaf_public_key_sec1().to_vec(),
        plan,
    ))
}

/// Whether `responder_id` names the certificate with this subject and key: byName is the
/// DER name, byKey the SHA-1 of the subjectPublicKey contents (RFC 6960 §4.2.2.3).
fn names(responder_id: &ResponderId, subject: &[u8], key_bits: &[u8]) -> bool {
    match responder_id {
        ResponderId::ByName(name) => name.to_der().is_ok_and(|n| n == subject),
        ResponderId::ByKey(hash) => hash.as_bytes() == Sha1::digest(key_bits).as_slice(),
    }
}
