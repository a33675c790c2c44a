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

use sha1::{Digest, Sha1};

use super::error::{OcspError, ResponderProblem};
use super::parse::ResponderRef;
use super::request::IssuerFacts;
use crate::chain::{ChainOptions, ChainPlan, TimeCheck, TrustStore};
use crate::time::UnixTime;
use crate::x509::{Cert, CertPosition, Purpose};

/// The key that signed a response, and how it is authorised.
pub(crate) enum Signer {
    /// The issuing CA itself (its SEC1 P-384 key).
    Issuer(Vec<u8>),
    /// A delegated responder: its key (SEC1) and the plan whose one check is the CA's
    /// signature on the responder certificate.
    Delegated(Vec<u8>, ChainPlan),
}

/// Identifies the signer named by `responder` among the issuing CA and `certs`.
///
/// # Errors
/// [`OcspError::UnauthorizedResponder`], [`OcspError::Malformed`] for a certificate in
/// `certs` that is not DER.
pub(crate) fn identify(
    responder: &ResponderRef<'_>,
    issuer: &IssuerFacts,
    issuer_der: &[u8],
    certs: &[&[u8]],
    now: UnixTime,
) -> Result<Signer, OcspError> {
    if names(responder, &issuer.subject, &issuer.key) {
        return Ok(Signer::Issuer(issuer.key.clone()));
    }
    let mut named = None;
    for (i, der) in certs.iter().enumerate() {
        let cert = Cert::parse(der, CertPosition::Chain(i)).map_err(|_| OcspError::Malformed {
            problem: "a certificate in certs is not DER X.509",
        })?;
        let key = cert.public_key.as_deref().unwrap_or_default();
        if names(responder, &cert.subject, key) {
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

/// Whether `responder` names the certificate with this subject and key: byName is the DER
/// name, byKey the SHA-1 of the subjectPublicKey contents (RFC 6960 §4.2.2.3).
fn names(responder: &ResponderRef<'_>, subject: &[u8], key: &[u8]) -> bool {
    match responder {
        ResponderRef::ByName(name) => *name == subject,
        ResponderRef::ByKey(hash) => !key.is_empty() && *hash == Sha1::digest(key).as_slice(),
    }
}
