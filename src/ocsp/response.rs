//! Checking one DER `OCSPResponse` (RFC 6960 §4.2) about the certificate a request asked
//! about: structure, status, signer, CertID, time window and nonce here; the ECDSA
//! signatures handed out as [`SignatureCheck`]s and completed by [`PendingOcsp::finish`].

use alloc::string::ToString;
use alloc::vec::Vec;

use const_oid::ObjectIdentifier;

use super::asn1::ID_PKIX_OCSP_NONCE;
use super::error::{OcspError, ResponderProblem};
use super::parse::{self, BasicRef, ExtensionRef};
use super::request::{IssuerFacts, OcspRequest};
use super::responder::{self, Signer};
use super::status::{CheckedOcsp, NonceCheck};
use super::{
    MAX_AGE_WITHOUT_NEXT_UPDATE, MAX_CACHE_SECONDS, MAX_RESPONSE_CERTS, MAX_RESPONSE_LEN,
    MAX_SINGLE_RESPONSES, OCSP_CLOCK_SKEW,
};
use crate::chain::ChainPlan;
use crate::crypto::{Deferred, SignatureCheck};
use crate::time::UnixTime;

/// A response whose every check but the signatures passed.
#[derive(Clone, Debug)]
pub struct PendingOcsp {
    checks: Vec<SignatureCheck>,
    responder: Option<ChainPlan>,
    checked: CheckedOcsp,
}

impl PendingOcsp {
    /// The signature checks: one when the issuing CA signed the response; two for a
    /// delegated responder — the response signature with the responder's key, then the
    /// responder certificate's signature with the CA's key.
    pub fn signature_checks(&self) -> &[SignatureCheck] {
        &self.checks
    }

    /// Completes the check with one verdict per [`Self::signature_checks`] entry.
    ///
    /// # Errors
    /// [`OcspError::VerdictCount`]; [`OcspError::UnauthorizedResponder`] when the responder
    /// certificate's signature failed (checked first: without it the responder is nobody);
    /// [`OcspError::SignatureInvalid`] when the response signature failed.
    pub fn finish(self, verdicts: &[bool]) -> Result<CheckedOcsp, OcspError> {
        if verdicts.len() != self.checks.len() {
            return Err(OcspError::VerdictCount {
                expected: self.checks.len(),
                got: verdicts.len(),
            });
        }
        if let Some(plan) = self.responder {
            let responder_verdicts = verdicts.get(1..).unwrap_or_default();
            plan.finish(responder_verdicts)
                .map_err(|_| OcspError::UnauthorizedResponder(ResponderProblem::NotIssuedByCa))?;
        }
        if verdicts.first() != Some(&true) {
            return Err(OcspError::SignatureInvalid);
        }
        Ok(self.checked)
    }

    /// Runs the checks with the software backend and completes the check.
    ///
    /// # Errors
    /// As [`Self::finish`].
    pub fn verify_in_core(self) -> Result<CheckedOcsp, OcspError> {
        crate::crypto::Deferred::finish_in_software(self)
    }
}

/// Whether `der` is, on its face, a successful OCSP response carrying a basic response: the
/// cheap check a host makes before it stops asking other sources. It proves nothing about
/// the answer; [`check_response`] does.
///
/// # Errors
/// [`OcspError::TooLarge`], or what reading the outer structure finds (DER, the response
/// status, the response type).
pub fn screen_response(der: &[u8]) -> Result<(), OcspError> {
    if der.len() > MAX_RESPONSE_LEN {
        return Err(OcspError::TooLarge { len: der.len() });
    }
    parse::basic_response(der).map(|_| ())
}

/// Checks `response_der` as the answer to `request` about the certificate `issuer_der`
/// issued, at `now` (Unix seconds).
///
/// `nonce` is the nonce of the request that fetched these bytes: the request's own for a
/// fresh fetch, the one stored beside a cached response. When the response echoes a nonce
/// it must be that one; when it echoes none the result says [`NonceCheck::NotEchoed`].
///
/// # Errors
/// The [`OcspError`] of the first failed check, in this order: size, DER, responseStatus,
/// responseType, work budgets, signature algorithm, issuer, signer, CertID, extensions,
/// time window, nonce; the signatures in [`PendingOcsp::finish`].
pub fn check_response(
    response_der: &[u8],
    request: &OcspRequest,
    nonce: &[u8],
    issuer_der: &[u8],
    now: UnixTime,
) -> Result<PendingOcsp, OcspError> {
    check_response_within(response_der, request, nonce, issuer_der, now, 0)
}

/// [`check_response`] for a kept answer used because every responder failed
/// (stale-if-error): it may be up to `grace` seconds past its validity. The fold reports
/// such an answer ([`super::fold_chain`]).
pub(crate) fn check_response_within(
    response_der: &[u8],
    request: &OcspRequest,
    nonce: &[u8],
    issuer_der: &[u8],
    now: UnixTime,
    grace: u64,
) -> Result<PendingOcsp, OcspError> {
    if response_der.len() > MAX_RESPONSE_LEN {
        return Err(OcspError::TooLarge {
            len: response_der.len(),
        });
    }
    let basic = BasicRef::read(parse::basic_response(response_der)?, MAX_RESPONSE_CERTS)?;
    let singles = parse::single_responses(basic.responses, MAX_SINGLE_RESPONSES)?;
    if !basic.es384 {
        return Err(OcspError::SignatureAlgorithm);
    }
    let issuer = IssuerFacts::parse(issuer_der)?;
    if issuer.key_hash() != request.cert_id().issuer_key_hash() {
        return Err(OcspError::IssuerMismatch);
    }
    let signer = responder::identify(&basic.responder, &issuer, issuer_der, &basic.certs, now)?;

    let mut matching = singles.iter().filter(|s| request.names(s.cert_id));
    let single = matching.next().ok_or(OcspError::CertIdMismatch)?;
    if matching.next().is_some() {
        return Err(OcspError::Malformed {
            problem: "two SingleResponses about the certificate",
        });
    }
    understood(&basic.extensions)?;
    understood(&single.extensions)?;
    let (this_update, next_update) = (single.this_update, single.next_update);
    if next_update.is_some_and(|next| next < this_update) {
        return Err(OcspError::Malformed {
            problem: "nextUpdate is before thisUpdate",
        });
    }
    if this_update.as_secs() > now.as_secs().saturating_add(OCSP_CLOCK_SKEW) {
        return Err(OcspError::NotYetValid { this_update });
    }
    let until =
        next_update.unwrap_or_else(|| this_update.saturating_add(MAX_AGE_WITHOUT_NEXT_UPDATE));
    if now.as_secs()
        >= until
            .as_secs()
            .saturating_add(OCSP_CLOCK_SKEW)
            .saturating_add(grace)
    {
        return Err(OcspError::Stale { until });
    }
    let checked = CheckedOcsp {
        status: single.status,
        this_update,
        next_update,
        nonce: check_nonce(&basic.extensions, nonce)?,
        cache_until: next_update.map_or(UnixTime::EPOCH, |next| {
            next.min(now.saturating_add(MAX_CACHE_SECONDS))
        }),
    };

    // DER ECDSA-Sig-Value → raw r‖s; anything else cannot verify.
    let signature = basic
        .signature
        .and_then(|der| p384::ecdsa::Signature::from_der(der).ok())
        .map(|sig| sig.to_bytes().to_vec())
        .ok_or(OcspError::SignatureInvalid)?;
    let (key, responder) = match signer {
        Signer::Issuer(key) => (key, None),
        Signer::Delegated(key, plan) => (key, Some(plan)),
    };
    let mut checks = Vec::from([SignatureCheck {
        public_key_sec1: key,
        message: basic.tbs.to_vec(),
        signature,
    }]);
    if let Some(plan) = &responder {
        checks.extend_from_slice(plan.signature_checks());
    }
    Ok(PendingOcsp {
        checks,
        responder,
        checked,
    })
}

/// Refuses a critical extension other than the nonce (RFC 5280 §4.2 rule, applied to
/// responses). Non-critical ones (CRL references, archive cutoff…) are ignored.
fn understood(extensions: &[ExtensionRef<'_>]) -> Result<(), OcspError> {
    match extensions
        .iter()
        .find(|e| e.critical && e.oid != ID_PKIX_OCSP_NONCE)
    {
        Some(ext) => Err(OcspError::CriticalExtension {
            oid: ObjectIdentifier::from_bytes(ext.oid)
                .map(|oid| oid.to_string())
                .unwrap_or_default(),
        }),
        None => Ok(()),
    }
}

/// The nonce in `responseExtensions` (RFC 6960 §4.4.1), compared with `nonce`. Its value is
/// an OCTET STRING holding the nonce (RFC 8954); the bare nonce is accepted too (responders
/// written before RFC 8954 echo it so), as the bytes compared are the same either way.
fn check_nonce(extensions: &[ExtensionRef<'_>], nonce: &[u8]) -> Result<NonceCheck, OcspError> {
    let mut echoed = extensions.iter().filter(|e| e.oid == ID_PKIX_OCSP_NONCE);
    let Some(first) = echoed.next() else {
        return Ok(NonceCheck::NotEchoed);
    };
    if echoed.next().is_some() {
        return Err(OcspError::Malformed {
            problem: "two nonce extensions",
        });
    }
    let value = first.value;
    // No nonce known (a cached response stored without one): an echoed one cannot match.
    if nonce.is_empty() || nonce.len() > 127 {
        return Err(OcspError::NonceMismatch);
    }
    // OCTET STRING, short-form length (nonces are at most 127 bytes here), then the nonce.
    let wrapped = value.len() == nonce.len() + 2
        && value.first() == Some(&0x04)
        && value.get(1).map(|&l| usize::from(l)) == Some(nonce.len())
        && value.get(2..) == Some(nonce);
    if wrapped || value == nonce {
        Ok(NonceCheck::Matched)
    } else {
        Err(OcspError::NonceMismatch)
    }
}

impl Deferred for PendingOcsp {
    type Output = CheckedOcsp;
    type Error = OcspError;

    fn signature_checks(&self) -> &[SignatureCheck] {
        PendingOcsp::signature_checks(self)
    }

    fn finish(self, verdicts: &[bool]) -> Result<CheckedOcsp, OcspError> {
        PendingOcsp::finish(self, verdicts)
    }
}
