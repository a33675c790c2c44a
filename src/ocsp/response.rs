//! Checking one DER `OCSPResponse` (RFC 6960 §4.2) about the certificate a request asked
//! about: structure, status, signer, CertID, time window and nonce here; the ECDSA
//! signatures handed out as [`SignatureCheck`]s and completed by [`PendingOcsp::finish`].

use alloc::string::ToString;
use alloc::vec::Vec;

use const_oid::ObjectIdentifier;
use der::asn1::{BitString, GeneralizedTime, OctetString};
use der::{Decode, Encode, Reader, SliceReader, Tag, TagMode, TagNumber, Tagged};
use spki::AlgorithmIdentifierOwned;
use x509_cert::ext::Extensions;

use super::asn1::{
    CertStatus, OcspResponseAsn1, ResponseData, ResponseStatusAsn1, SingleResponse,
    ID_PKIX_OCSP_BASIC, ID_PKIX_OCSP_NONCE,
};
use super::error::{OcspError, ResponderProblem, ResponseStatus};
use super::request::{IssuerFacts, OcspRequest};
use super::responder::{self, Signer};
use super::status::{CertRevocation, CheckedOcsp, NonceCheck};
use super::{
    MAX_AGE_WITHOUT_NEXT_UPDATE, MAX_CACHE_SECONDS, MAX_RESPONSE_CERTS, MAX_RESPONSE_LEN,
    MAX_SINGLE_RESPONSES, OCSP_CLOCK_SKEW,
};
use crate::chain::ChainPlan;
use crate::crypto::SignatureCheck;

/// ecdsa-with-SHA384 (RFC 5758 §3.2): the only response signature algorithm accepted.
const ECDSA_WITH_SHA384: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.4.3.3");

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
        let verdicts: Vec<bool> = self.checks.iter().map(|c| c.verify().is_ok()).collect();
        self.finish(&verdicts)
    }
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
/// responseType, signature algorithm, work budgets, issuer, signer, CertID, extensions,
/// time window, nonce.
pub fn check_response(
    response_der: &[u8],
    request: &OcspRequest,
    nonce: &[u8],
    issuer_der: &[u8],
    now: u64,
) -> Result<PendingOcsp, OcspError> {
    if response_der.len() > MAX_RESPONSE_LEN {
        return Err(OcspError::TooLarge {
            len: response_der.len(),
        });
    }
    let outer = OcspResponseAsn1::from_der(response_der)
        .map_err(|_| malformed("not a DER OCSPResponse"))?;
    let status = match outer.response_status {
        ResponseStatusAsn1::Successful => None,
        ResponseStatusAsn1::MalformedRequest => Some(ResponseStatus::MalformedRequest),
        ResponseStatusAsn1::InternalError => Some(ResponseStatus::InternalError),
        ResponseStatusAsn1::TryLater => Some(ResponseStatus::TryLater),
        ResponseStatusAsn1::SigRequired => Some(ResponseStatus::SigRequired),
        ResponseStatusAsn1::Unauthorized => Some(ResponseStatus::Unauthorized),
    };
    if let Some(status) = status {
        return Err(OcspError::ResponseStatus(status));
    }
    let bytes = outer
        .response_bytes
        .ok_or_else(|| malformed("a successful response without responseBytes"))?;
    if bytes.response_type != ID_PKIX_OCSP_BASIC {
        return Err(OcspError::ResponseType);
    }
    let basic = BasicParts::split(bytes.response.as_bytes())
        .map_err(|_| malformed("not a DER BasicOCSPResponse"))?;
    if basic.algorithm.oid != ECDSA_WITH_SHA384 || basic.algorithm.parameters.is_some() {
        return Err(OcspError::SignatureAlgorithm);
    }
    let data =
        ResponseData::from_der(basic.tbs).map_err(|_| malformed("not a DER ResponseData"))?;
    if data.version.is_some_and(|v| v != 0) {
        return Err(malformed("ResponseData version is not v1"));
    }
    let single = matching_response(&data, request)?;
    let certs = basic.certs()?;

    let issuer = IssuerFacts::parse(issuer_der)?;
    if issuer.key_hash() != request.cert_id().issuer_key_hash() {
        return Err(OcspError::IssuerMismatch);
    }
    let signer = responder::identify(&data.responder_id, &issuer, issuer_der, &certs, now)?;
    let single = single.ok_or(OcspError::CertIdMismatch)?;

    understood(data.response_extensions.as_ref())?;
    understood(single.single_extensions.as_ref())?;
    let this_update = seconds(&single.this_update);
    let next_update = single.next_update.as_ref().map(seconds);
    if next_update.is_some_and(|next| next < this_update) {
        return Err(malformed("nextUpdate is before thisUpdate"));
    }
    if this_update > now.saturating_add(OCSP_CLOCK_SKEW) {
        return Err(OcspError::NotYetValid { this_update });
    }
    let until =
        next_update.unwrap_or_else(|| this_update.saturating_add(MAX_AGE_WITHOUT_NEXT_UPDATE));
    if now >= until.saturating_add(OCSP_CLOCK_SKEW) {
        return Err(OcspError::Stale { until });
    }
    let nonce_check = check_nonce(data.response_extensions.as_ref(), nonce)?;

    let status = match &single.cert_status {
        CertStatus::Good(_) => CertRevocation::Good,
        CertStatus::Unknown(_) => CertRevocation::Unknown,
        CertStatus::Revoked(info) => CertRevocation::Revoked {
            reason: info.revocation_reason.map(Into::into),
            at: seconds(&info.revocation_time),
        },
    };
    let checked = CheckedOcsp {
        status,
        this_update,
        next_update,
        nonce: nonce_check,
        cache_until: next_update.map_or(0, |next| next.min(now.saturating_add(MAX_CACHE_SECONDS))),
    };

    // DER ECDSA-Sig-Value → raw r‖s; anything else cannot verify.
    let signature = basic
        .signature
        .as_bytes()
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

fn malformed(problem: &'static str) -> OcspError {
    OcspError::Malformed { problem }
}

fn seconds(time: &GeneralizedTime) -> u64 {
    time.to_unix_duration().as_secs()
}

/// `BasicOCSPResponse` split by hand: the exact bytes of `tbsResponseData` are what was
/// signed (re-encoding a decoded value could differ from them).
struct BasicParts<'a> {
    tbs: &'a [u8],
    algorithm: AlgorithmIdentifierOwned,
    signature: BitString,
    /// The contents of `certs`' SEQUENCE OF, when present.
    certs: Option<&'a [u8]>,
}

/// The contents of a SEQUENCE, unparsed.
struct RawSequence<'a>(&'a [u8]);

impl<'a> der::DecodeValue<'a> for RawSequence<'a> {
    type Error = der::Error;

    fn decode_value<R: Reader<'a>>(reader: &mut R, header: der::Header) -> der::Result<Self> {
        reader.read_slice(header.length()).map(Self)
    }
}

impl der::FixedTag for RawSequence<'_> {
    const TAG: Tag = Tag::Sequence;
}

impl<'a> BasicParts<'a> {
    fn split(der: &'a [u8]) -> der::Result<Self> {
        let mut reader = SliceReader::new(der)?;
        let parts = reader.sequence(|seq| -> der::Result<_> {
            Ok(Self {
                tbs: seq.tlv_bytes()?,
                algorithm: AlgorithmIdentifierOwned::decode(seq)?,
                signature: BitString::decode(seq)?,
                certs: seq
                    .context_specific::<RawSequence<'a>>(TagNumber(0), TagMode::Explicit)?
                    .map(|raw| raw.0),
            })
        })?;
        reader.finish()?;
        Ok(parts)
    }

    /// The DER certificates of `certs`, at most [`MAX_RESPONSE_CERTS`] (counted before
    /// any is parsed).
    fn certs(&self) -> Result<Vec<&'a [u8]>, OcspError> {
        let mut out = Vec::new();
        let Some(contents) = self.certs else {
            return Ok(out);
        };
        let mut reader = SliceReader::new(contents).map_err(|_| malformed("certs is not DER"))?;
        while !reader.is_finished() {
            if out.len() == MAX_RESPONSE_CERTS {
                return Err(OcspError::TooManyCertificates);
            }
            out.push(
                reader
                    .tlv_bytes()
                    .map_err(|_| malformed("certs is not DER"))?,
            );
        }
        Ok(out)
    }
}

/// The one SingleResponse about the certificate asked about (`None` when there is none),
/// reading at most [`MAX_SINGLE_RESPONSES`].
fn matching_response(
    data: &ResponseData<'_>,
    request: &OcspRequest,
) -> Result<Option<SingleResponse>, OcspError> {
    if data.responses.tag() != Tag::Sequence {
        return Err(malformed("responses is not a SEQUENCE"));
    }
    let mut reader =
        SliceReader::new(data.responses.value()).map_err(|_| malformed("responses is not DER"))?;
    let mut found = None;
    let mut count = 0usize;
    while !reader.is_finished() {
        count = count.saturating_add(1);
        if count > MAX_SINGLE_RESPONSES {
            return Err(OcspError::TooManyResponses);
        }
        let single = SingleResponse::decode(&mut reader)
            .map_err(|_| malformed("not a DER SingleResponse"))?;
        if single.cert_id.same_certificate(request.cert_id()) {
            if found.is_some() {
                return Err(malformed("two SingleResponses about the certificate"));
            }
            found = Some(single);
        }
    }
    if count == 0 {
        return Err(malformed("no SingleResponse"));
    }
    Ok(found)
}

/// Refuses a critical extension other than the nonce (RFC 5280 §4.2 rule, applied to
/// responses). Non-critical ones (CRL references, archive cutoff…) are ignored.
fn understood(extensions: Option<&Extensions>) -> Result<(), OcspError> {
    let unknown = extensions
        .into_iter()
        .flatten()
        .find(|e| e.critical && e.extn_id != ID_PKIX_OCSP_NONCE);
    match unknown {
        Some(ext) => Err(OcspError::CriticalExtension {
            oid: ext.extn_id.to_string(),
        }),
        None => Ok(()),
    }
}

/// The nonce in `responseExtensions` (RFC 6960 §4.4.1), compared with `nonce`. Its value is
/// an OCTET STRING holding the nonce (RFC 8954); the bare nonce is accepted too (responders
/// written before RFC 8954 echo it so), as the bytes compared are the same either way.
fn check_nonce(extensions: Option<&Extensions>, nonce: &[u8]) -> Result<NonceCheck, OcspError> {
    let mut echoed = extensions
        .into_iter()
        .flatten()
        .filter(|e| e.extn_id == ID_PKIX_OCSP_NONCE);
    let Some(first) = echoed.next() else {
        return Ok(NonceCheck::NotEchoed);
    };
    if echoed.next().is_some() {
        return Err(malformed("two nonce extensions"));
    }
    let value = first.extn_value.as_bytes();
    // No nonce known (a cached response stored without one): an echoed one cannot match.
    if nonce.is_empty() {
        return Err(OcspError::NonceMismatch);
    }
    let wrapped = OctetString::new(nonce)
        .and_then(|n| n.to_der())
        .map_err(|_| OcspError::NonceMismatch)?;
    if value == wrapped.as_slice() || value == nonce {
        Ok(NonceCheck::Matched)
    } else {
        Err(OcspError::NonceMismatch)
    }
}
