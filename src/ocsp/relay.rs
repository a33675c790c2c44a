//! Reading a client's `OCSPRequest` (RFC 6960 §4.1) for the mirror's responder: which
//! verified answer, if any, may answer it from a cache.
//!
//! A cached answer was fetched with another request's nonce, and echoes it. So a cached
//! answer answers only a request that carries no nonce (as NVIDIA's SDKs send with their
//! "OCSP nonce disabled" option, and as RFC 5019's lightweight profile expects); a request
//! with a nonce is relayed to the responder, which answers it fresh. Only the simple form is
//! answered from the cache: unsigned, exactly one certificate, CertID with SHA-384 (as
//! NVIDIA's verifiers and this crate ask); anything else is relayed.

use alloc::string::String;

use der::Tag;

use super::asn1::{ID_PKIX_OCSP_NONCE, ID_SHA384};
use super::error::OcspError;
use super::parse::{context, Walk};

/// The host cache key ([`super::OcspRequest::cache_key`]) of the certificate `request` asks
/// about, when a cached verified answer may answer it: a DER `OCSPRequest`, unsigned, about
/// exactly one certificate by a SHA-384 CertID, with no nonce. `None`: relay it.
pub fn mirror_cache_key(request: &[u8]) -> Option<String> {
    read(request).ok().flatten()
}

fn read(der: &[u8]) -> Result<Option<String>, OcspError> {
    const WHAT: &str = "not a DER OCSPRequest";
    let mut outer = Walk::new(der, WHAT)?;
    let body = outer.expect(Tag::Sequence, WHAT)?;
    outer.done(WHAT)?;
    let mut walk = Walk::new(body, WHAT)?;
    let tbs = walk.expect(Tag::Sequence, WHAT)?;
    if !walk.is_finished() {
        // optionalSignature: a signed request is relayed.
        return Ok(None);
    }
    let mut tbs = Walk::new(tbs, WHAT)?;
    if tbs.optional(context(0, true), WHAT)?.is_some()
        || tbs.optional(context(1, true), WHAT)?.is_some()
    {
        // A version other than the default, or a requestorName: relayed.
        return Ok(None);
    }
    let list = tbs.expect(Tag::Sequence, WHAT)?;
    if let Some(extensions) = tbs.optional(context(2, true), WHAT)? {
        if has_nonce(extensions)? {
            return Ok(None);
        }
    }
    tbs.done(WHAT)?;
    let mut list = Walk::new(list, WHAT)?;
    let single = list.expect(Tag::Sequence, WHAT)?;
    if !list.is_finished() {
        return Ok(None);
    }
    let mut single = Walk::new(single, WHAT)?;
    let cert_id = single.expect(Tag::Sequence, WHAT)?;
    if let Some(extensions) = single.optional(context(0, true), WHAT)? {
        if has_nonce(extensions)? {
            return Ok(None);
        }
    }
    single.done(WHAT)?;
    let mut cert_id = Walk::new(cert_id, WHAT)?;
    let mut algorithm = Walk::new(cert_id.expect(Tag::Sequence, WHAT)?, WHAT)?;
    let oid = algorithm.expect(Tag::ObjectIdentifier, WHAT)?;
    if !algorithm.is_finished() && !algorithm.expect(Tag::Null, WHAT)?.is_empty() {
        return Err(OcspError::Malformed { problem: WHAT });
    }
    algorithm.done(WHAT)?;
    let _name_hash = cert_id.expect(Tag::OctetString, WHAT)?;
    let key_hash = cert_id.expect(Tag::OctetString, WHAT)?;
    let serial = cert_id.expect(Tag::Integer, WHAT)?;
    cert_id.done(WHAT)?;
    if oid != ID_SHA384 || key_hash.len() != 48 || serial.is_empty() {
        return Ok(None);
    }
    Ok(Some(alloc::format!(
        "sha384:{}:{}",
        hex::encode(key_hash),
        hex::encode(serial)
    )))
}

/// Whether `Extensions` (the contents of an EXPLICIT tag) holds the nonce extension.
fn has_nonce(explicit: &[u8]) -> Result<bool, OcspError> {
    const WHAT: &str = "not DER OCSP request extensions";
    let mut outer = Walk::new(explicit, WHAT)?;
    let list = outer.expect(Tag::Sequence, WHAT)?;
    outer.done(WHAT)?;
    let mut list = Walk::new(list, WHAT)?;
    while !list.is_finished() {
        let mut extension = Walk::new(list.expect(Tag::Sequence, WHAT)?, WHAT)?;
        if extension.expect(Tag::ObjectIdentifier, WHAT)? == ID_PKIX_OCSP_NONCE {
            return Ok(true);
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ocsp::OcspRequest;

    #[test]
    fn a_request_with_a_nonce_is_relayed() {
        let chain =
            crate::chain::parse_pem_chain(crate::chain::NVIDIA_DEVICE_IDENTITY_CA_PEM).unwrap();
        // The root issues itself: a request about it is well-formed.
        let request = OcspRequest::new(&chain[0], &chain[0], [7; 32]).unwrap();
        assert_eq!(mirror_cache_key(request.der()), None);
        assert_eq!(mirror_cache_key(b"\x30\x00"), None);
        assert_eq!(mirror_cache_key(&[]), None);
    }
}
