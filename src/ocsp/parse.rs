//! Reading a DER `OCSPResponse` (RFC 6960 §4.2.1) into borrowed slices with `der`'s reader
//! primitives (`Header`, `SliceReader`), strictly in the order the ASN.1 gives.
//!
//! Not with derived types as the request side (`asn1.rs`): decoding the response through
//! `#[derive(Sequence, Choice)]` types cost about 30 KB gzipped in the wasm module (each
//! derive monomorphises and inlines its own decoders), against the module's budget; this
//! walk reuses the reader the chain module already links. What is compared is compared on
//! the exact bytes (CertID, ResponderID byName, algorithm), which DER makes canonical.

use alloc::vec::Vec;

use der::asn1::GeneralizedTime;
use der::{Decode, Header, Reader, SliceReader, Tag, TagNumber};

use super::error::{OcspError, ResponseStatus};
use super::status::{CertRevocation, RevocationReason};
use crate::time::UnixTime;

/// id-pkix-ocsp-basic (RFC 6960 §4.2.1), content octets.
const ID_PKIX_OCSP_BASIC: &[u8] = &[0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x30, 0x01, 0x01];
/// AlgorithmIdentifier { ecdsa-with-SHA384 } without parameters (RFC 5758 §3.2), DER: the
/// only signature algorithm accepted.
const ECDSA_WITH_SHA384: &[u8] = &[
    0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x03,
];

/// `ResponderID`: the DER Name, or the SHA-1 key hash.
pub(crate) enum ResponderRef<'a> {
    ByName(&'a [u8]),
    ByKey(&'a [u8]),
}

/// One `Extension`.
pub(crate) struct ExtensionRef<'a> {
    /// The OID's content octets.
    pub(crate) oid: &'a [u8],
    pub(crate) critical: bool,
    /// The contents of `extnValue`.
    pub(crate) value: &'a [u8],
}

/// One `SingleResponse`.
pub(crate) struct SingleRef<'a> {
    /// The whole `CertID` TLV.
    pub(crate) cert_id: &'a [u8],
    pub(crate) status: CertRevocation,
    pub(crate) this_update: UnixTime,
    pub(crate) next_update: Option<UnixTime>,
    pub(crate) extensions: Vec<ExtensionRef<'a>>,
}

/// A successful basic response, read but not checked.
pub(crate) struct BasicRef<'a> {
    /// The exact `tbsResponseData` TLV: what was signed.
    pub(crate) tbs: &'a [u8],
    /// Whether the algorithm is ecdsa-with-SHA384.
    pub(crate) es384: bool,
    /// The signature BIT STRING's contents (DER `ECDSA-Sig-Value`), `None` with unused bits.
    pub(crate) signature: Option<&'a [u8]>,
    /// The DER certificates of `certs`.
    pub(crate) certs: Vec<&'a [u8]>,
    pub(crate) responder: ResponderRef<'a>,
    /// The contents of `responses`' SEQUENCE OF, read by [`single_responses`].
    pub(crate) responses: &'a [u8],
    pub(crate) extensions: Vec<ExtensionRef<'a>>,
}

/// A cursor over the TLVs of one DER value.
pub(super) struct Walk<'a>(SliceReader<'a>);

impl<'a> Walk<'a> {
    pub(super) fn new(bytes: &'a [u8], what: &'static str) -> Result<Self, OcspError> {
        SliceReader::new(bytes)
            .map(Self)
            .map_err(|_| malformed(what))
    }

    /// The next TLV's tag and value.
    pub(super) fn next(&mut self, what: &'static str) -> Result<(Tag, &'a [u8]), OcspError> {
        let header = Header::decode(&mut self.0).map_err(|_| malformed(what))?;
        let value = self
            .0
            .read_slice(header.length())
            .map_err(|_| malformed(what))?;
        Ok((header.tag(), value))
    }

    /// The next TLV's value, which must have `tag`.
    pub(super) fn expect(&mut self, tag: Tag, what: &'static str) -> Result<&'a [u8], OcspError> {
        match self.next(what)? {
            (t, value) if t == tag => Ok(value),
            _ => Err(malformed(what)),
        }
    }

    /// The next TLV's value when it has `tag`, else nothing read.
    pub(super) fn optional(
        &mut self,
        tag: Tag,
        what: &'static str,
    ) -> Result<Option<&'a [u8]>, OcspError> {
        if self.0.is_finished() || Tag::peek(&self.0).ok() != Some(tag) {
            return Ok(None);
        }
        self.expect(tag, what).map(Some)
    }

    /// The next whole TLV, which must have `tag`.
    pub(super) fn raw(&mut self, tag: Tag, what: &'static str) -> Result<&'a [u8], OcspError> {
        if Tag::peek(&self.0).ok() != Some(tag) {
            return Err(malformed(what));
        }
        self.0.tlv_bytes().map_err(|_| malformed(what))
    }

    pub(super) fn is_finished(&self) -> bool {
        self.0.is_finished()
    }

    /// Nothing may follow.
    pub(super) fn done(self, what: &'static str) -> Result<(), OcspError> {
        self.0.finish().map_err(|_| malformed(what))
    }
}

fn malformed(problem: &'static str) -> OcspError {
    OcspError::Malformed { problem }
}

pub(super) const fn context(number: u32, constructed: bool) -> Tag {
    Tag::ContextSpecific {
        constructed,
        number: TagNumber(number),
    }
}

/// The contents of an EXPLICIT `[n]` holding exactly one TLV with `tag`.
fn explicit<'a>(
    walk: &mut Walk<'a>,
    number: u32,
    tag: Tag,
    what: &'static str,
) -> Result<Option<&'a [u8]>, OcspError> {
    let Some(outer) = walk.optional(context(number, true), what)? else {
        return Ok(None);
    };
    let mut inner = Walk::new(outer, what)?;
    let value = inner.expect(tag, what)?;
    inner.done(what)?;
    Ok(Some(value))
}

/// `OCSPResponse` → the `BasicOCSPResponse` DER.
///
/// # Errors
/// [`OcspError::Malformed`], [`OcspError::ResponseStatus`], [`OcspError::ResponseType`].
pub(crate) fn basic_response(der: &[u8]) -> Result<&[u8], OcspError> {
    const WHAT: &str = "not a DER OCSPResponse";
    let mut outer = Walk::new(der, WHAT)?;
    let body = outer.expect(Tag::Sequence, WHAT)?;
    outer.done(WHAT)?;
    let mut walk = Walk::new(body, WHAT)?;
    let status = match walk.expect(Tag::Enumerated, WHAT)? {
        [0] => None,
        [1] => Some(ResponseStatus::MalformedRequest),
        [2] => Some(ResponseStatus::InternalError),
        [3] => Some(ResponseStatus::TryLater),
        [5] => Some(ResponseStatus::SigRequired),
        [6] => Some(ResponseStatus::Unauthorized),
        _ => return Err(malformed("unknown responseStatus")),
    };
    let bytes = explicit(&mut walk, 0, Tag::Sequence, WHAT)?;
    walk.done(WHAT)?;
    if let Some(status) = status {
        return Err(OcspError::ResponseStatus(status));
    }
    let bytes = bytes.ok_or(malformed("a successful response without responseBytes"))?;
    let mut walk = Walk::new(bytes, WHAT)?;
    let response_type = walk.expect(Tag::ObjectIdentifier, WHAT)?;
    let response = walk.expect(Tag::OctetString, WHAT)?;
    walk.done(WHAT)?;
    if response_type != ID_PKIX_OCSP_BASIC {
        return Err(OcspError::ResponseType);
    }
    Ok(response)
}

impl<'a> BasicRef<'a> {
    /// Reads a `BasicOCSPResponse` and its `ResponseData`, with at most `max_certs`
    /// certificates (counted before any is parsed).
    ///
    /// # Errors
    /// [`OcspError::Malformed`], [`OcspError::TooManyCertificates`].
    pub(crate) fn read(der: &'a [u8], max_certs: usize) -> Result<Self, OcspError> {
        const WHAT: &str = "not a DER BasicOCSPResponse";
        let mut outer = Walk::new(der, WHAT)?;
        let body = outer.expect(Tag::Sequence, WHAT)?;
        outer.done(WHAT)?;
        let mut walk = Walk::new(body, WHAT)?;
        let tbs = walk.raw(Tag::Sequence, WHAT)?;
        let algorithm = walk.raw(Tag::Sequence, WHAT)?;
        let signature = match walk.expect(Tag::BitString, WHAT)? {
            [0, rest @ ..] => Some(rest),
            _ => None,
        };
        let mut certs = Vec::new();
        if let Some(list) = explicit(&mut walk, 0, Tag::Sequence, WHAT)? {
            let mut list = Walk::new(list, WHAT)?;
            while !list.is_finished() {
                if certs.len() == max_certs {
                    return Err(OcspError::TooManyCertificates);
                }
                certs.push(list.raw(Tag::Sequence, WHAT)?);
            }
        }
        walk.done(WHAT)?;

        const DATA: &str = "not a DER ResponseData";
        let mut outer = Walk::new(tbs, DATA)?;
        let body = outer.expect(Tag::Sequence, DATA)?;
        outer.done(DATA)?;
        let mut walk = Walk::new(body, DATA)?;
        if let Some(version) = explicit(&mut walk, 0, Tag::Integer, DATA)? {
            if version != [0] {
                return Err(malformed("ResponseData version is not v1"));
            }
        }
        let responder = match walk.next(DATA)? {
            (tag, value) if tag == context(1, true) => {
                let mut name = Walk::new(value, DATA)?;
                let name_tlv = name.raw(Tag::Sequence, DATA)?;
                name.done(DATA)?;
                ResponderRef::ByName(name_tlv)
            }
            (tag, value) if tag == context(2, true) => {
                let mut hash = Walk::new(value, DATA)?;
                let key_hash = hash.expect(Tag::OctetString, DATA)?;
                hash.done(DATA)?;
                ResponderRef::ByKey(key_hash)
            }
            _ => return Err(malformed("unknown ResponderID")),
        };
        time(walk.raw(Tag::GeneralizedTime, DATA)?)?;
        let responses = walk.expect(Tag::Sequence, DATA)?;
        let extensions = match explicit(&mut walk, 1, Tag::Sequence, DATA)? {
            Some(list) => extensions(list)?,
            None => Vec::new(),
        };
        walk.done(DATA)?;
        Ok(Self {
            tbs,
            es384: algorithm == ECDSA_WITH_SHA384,
            signature,
            certs,
            responder,
            responses,
            extensions,
        })
    }
}

/// Reads the SingleResponses of `responses`, at most `max` (counted before each is read).
///
/// # Errors
/// [`OcspError::Malformed`], [`OcspError::TooManyResponses`].
pub(crate) fn single_responses(
    responses: &[u8],
    max: usize,
) -> Result<Vec<SingleRef<'_>>, OcspError> {
    const WHAT: &str = "not a DER SingleResponse";
    let mut list = Walk::new(responses, WHAT)?;
    let mut out = Vec::new();
    while !list.is_finished() {
        if out.len() == max {
            return Err(OcspError::TooManyResponses);
        }
        let mut walk = Walk::new(list.expect(Tag::Sequence, WHAT)?, WHAT)?;
        let cert_id = walk.raw(Tag::Sequence, WHAT)?;
        let status = cert_status(walk.next(WHAT)?)?;
        let this_update = time(walk.raw(Tag::GeneralizedTime, WHAT)?)?;
        let next_update = match walk.optional(context(0, true), WHAT)? {
            Some(inner) => Some(time(inner)?),
            None => None,
        };
        let extensions = match explicit(&mut walk, 1, Tag::Sequence, WHAT)? {
            Some(list) => extensions(list)?,
            None => Vec::new(),
        };
        walk.done(WHAT)?;
        out.push(SingleRef {
            cert_id,
            status,
            this_update,
            next_update,
            extensions,
        });
    }
    if out.is_empty() {
        return Err(malformed("no SingleResponse"));
    }
    Ok(out)
}

/// `CertStatus` (IMPLICIT tags): `[0] NULL`, `[1] RevokedInfo`, `[2] NULL`.
fn cert_status((tag, value): (Tag, &[u8])) -> Result<CertRevocation, OcspError> {
    const WHAT: &str = "not a DER CertStatus";
    if tag == context(0, false) && value.is_empty() {
        return Ok(CertRevocation::Good);
    }
    if tag == context(2, false) && value.is_empty() {
        return Ok(CertRevocation::Unknown);
    }
    if tag != context(1, true) {
        return Err(malformed(WHAT));
    }
    let mut walk = Walk::new(value, WHAT)?;
    let at = time(walk.raw(Tag::GeneralizedTime, WHAT)?)?;
    let reason = match explicit(&mut walk, 0, Tag::Enumerated, WHAT)? {
        None => None,
        Some([code]) => Some(reason(*code).ok_or(malformed("unknown CRLReason"))?),
        Some(_) => return Err(malformed("unknown CRLReason")),
    };
    walk.done(WHAT)?;
    Ok(CertRevocation::Revoked { reason, at })
}

/// `CRLReason` (RFC 5280 §5.3.1); 7 is unused.
const fn reason(code: u8) -> Option<RevocationReason> {
    Some(match code {
        0 => RevocationReason::Unspecified,
        1 => RevocationReason::KeyCompromise,
        2 => RevocationReason::CaCompromise,
        3 => RevocationReason::AffiliationChanged,
        4 => RevocationReason::Superseded,
        5 => RevocationReason::CessationOfOperation,
        6 => RevocationReason::CertificateHold,
        8 => RevocationReason::RemoveFromCrl,
        9 => RevocationReason::PrivilegeWithdrawn,
        10 => RevocationReason::AaCompromise,
        _ => return None,
    })
}

/// A DER GeneralizedTime TLV (`YYYYMMDDHHMMSSZ`, RFC 5280's profile); it ends at
/// 9999-12-31T23:59:59Z, as a [`UnixTime`] does.
fn time(tlv: &[u8]) -> Result<UnixTime, OcspError> {
    GeneralizedTime::from_der(tlv)
        .ok()
        .and_then(|t| UnixTime::from_secs(t.to_unix_duration().as_secs()))
        .ok_or_else(|| malformed("not a DER GeneralizedTime"))
}

/// The contents of `Extensions` (SEQUENCE OF Extension).
fn extensions(list: &[u8]) -> Result<Vec<ExtensionRef<'_>>, OcspError> {
    const WHAT: &str = "not a DER Extension";
    let mut list = Walk::new(list, WHAT)?;
    let mut out = Vec::new();
    while !list.is_finished() {
        let mut walk = Walk::new(list.expect(Tag::Sequence, WHAT)?, WHAT)?;
        let oid = walk.expect(Tag::ObjectIdentifier, WHAT)?;
        // DEFAULT FALSE: DER omits FALSE, so only TRUE (0xFF) may appear.
        let critical = match walk.optional(Tag::Boolean, WHAT)? {
            None => false,
            Some([0xff]) => true,
            Some(_) => return Err(malformed(WHAT)),
        };
        let value = walk.expect(Tag::OctetString, WHAT)?;
        walk.done(WHAT)?;
        out.push(ExtensionRef {
            oid,
            critical,
            value,
        });
    }
    Ok(out)
}
