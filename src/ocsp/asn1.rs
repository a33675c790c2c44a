//! The RFC 6960 request (§4.1.1) and its `CertID`, written as DER by hand (the rest of the
//! crate encodes DER with the `der` crate).
//!
//! Not RustCrypto's `x509-ocsp`: its 0.2 release targets `der` 0.7 / `x509-cert` 0.2 while the
//! crate uses 0.8 / 0.3, and two `der` versions would both land in the wasm module. Not types
//! derived with `der` 0.8 either: the request is a fixed shape of a dozen TLVs, and the
//! derived encoders cost about 10 KB of wasm (measured) in a module at its size budget.
//! Responses are read with `der`'s reader (`parse.rs`).

use alloc::vec::Vec;

use const_oid::ObjectIdentifier;

/// id-sha384 (RFC 5754 §2.3), content octets: the CertID hash of every request.
pub(super) const ID_SHA384: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02];
/// id-pkix-ocsp-nonce (RFC 6960 §4.4.1), content octets.
pub(crate) const ID_PKIX_OCSP_NONCE: &[u8] =
    &[0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x30, 0x01, 0x02];

const SEQUENCE: u8 = 0x30;
const OCTET_STRING: u8 = 0x04;
const INTEGER: u8 = 0x02;
const OID: u8 = 0x06;
const NULL: &[u8] = &[0x05, 0x00];
/// `[2]` EXPLICIT, constructed: TBSRequest's requestExtensions.
const REQUEST_EXTENSIONS: u8 = 0xa2;

/// `CertID` (RFC 6960 §4.1.1) with SHA-384: which certificate a request is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CertId {
    issuer_name_hash: Vec<u8>,
    issuer_key_hash: Vec<u8>,
    serial: Vec<u8>,
}

impl CertId {
    /// `serial`: the content octets of the certificate's DER serialNumber (minimal, as a
    /// decoded certificate gives them).
    pub(crate) fn new(
        issuer_name_hash: Vec<u8>,
        issuer_key_hash: Vec<u8>,
        serial: Vec<u8>,
    ) -> Self {
        Self {
            issuer_name_hash,
            issuer_key_hash,
            serial,
        }
    }

    /// The hash algorithm: id-sha384.
    pub fn hash_algorithm(&self) -> ObjectIdentifier {
        ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.2")
    }

    /// Hash of the issuer's subject name (DER).
    pub fn issuer_name_hash(&self) -> &[u8] {
        &self.issuer_name_hash
    }

    /// Hash of the issuer's public key (the subjectPublicKey BIT STRING's contents).
    pub fn issuer_key_hash(&self) -> &[u8] {
        &self.issuer_key_hash
    }

    /// The certificate's serial number (content octets, big-endian two's complement).
    pub fn serial(&self) -> &[u8] {
        &self.serial
    }

    /// The DER `CertID`; `null_parameters`: the hash AlgorithmIdentifier with NULL
    /// parameters (as OpenSSL and NVIDIA's verifier send it) or without (RFC 5754's form).
    pub(crate) fn der(&self, null_parameters: bool) -> Vec<u8> {
        let oid = tlv(OID, &[ID_SHA384]);
        let parameters: &[u8] = if null_parameters { NULL } else { &[] };
        tlv(
            SEQUENCE,
            &[
                &tlv(SEQUENCE, &[&oid, parameters]),
                &tlv(OCTET_STRING, &[&self.issuer_name_hash]),
                &tlv(OCTET_STRING, &[&self.issuer_key_hash]),
                &tlv(INTEGER, &[&self.serial]),
            ],
        )
    }
}

/// `OCSPRequest` about one certificate, without requestorName or signature, with the nonce
/// extension (non-critical; extnValue = OCTET STRING holding the nonce, RFC 8954).
pub(crate) fn ocsp_request(cert_id: &CertId, nonce: &[u8]) -> Vec<u8> {
    let request = tlv(SEQUENCE, &[&cert_id.der(true)]);
    let nonce_value = tlv(OCTET_STRING, &[nonce]);
    let extension = tlv(
        SEQUENCE,
        &[
            &tlv(OID, &[ID_PKIX_OCSP_NONCE]),
            &tlv(OCTET_STRING, &[&nonce_value]),
        ],
    );
    let extensions = tlv(REQUEST_EXTENSIONS, &[&tlv(SEQUENCE, &[&extension])]);
    let tbs_request = tlv(SEQUENCE, &[&tlv(SEQUENCE, &[&request]), &extensions]);
    tlv(SEQUENCE, &[&tbs_request])
}

/// One DER TLV of `tag` holding the concatenation of `parts` (definite length, minimal).
fn tlv(tag: u8, parts: &[&[u8]]) -> Vec<u8> {
    let len: usize = parts.iter().map(|p| p.len()).sum();
    let mut out = Vec::with_capacity(len.saturating_add(6));
    out.push(tag);
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes = len.to_be_bytes();
        let skip = bytes.iter().take_while(|&&b| b == 0).count();
        let significant = bytes.get(skip..).unwrap_or_default();
        out.push(0x80 | significant.len() as u8);
        out.extend_from_slice(significant);
    }
    for part in parts {
        out.extend_from_slice(part);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::tlv;

    #[test]
    fn lengths_are_minimal_definite() {
        assert_eq!(tlv(0x04, &[]), [0x04, 0x00]);
        assert_eq!(tlv(0x04, &[&[7; 0x7f]])[..2], [0x04, 0x7f]);
        assert_eq!(tlv(0x04, &[&[7; 0x80]])[..3], [0x04, 0x81, 0x80]);
        assert_eq!(tlv(0x04, &[&[7; 0x100]])[..4], [0x04, 0x82, 0x01, 0x00]);
        assert_eq!(tlv(0x30, &[&[1], &[2, 3]]), [0x30, 0x03, 1, 2, 3]);
    }
}
