//! The RFC 6960 ASN.1 types a client needs, defined with `der` 0.8 derives.
//!
//! Hand-written rather than taken from RustCrypto's `x509-ocsp`: its 0.2 release targets
//! `der` 0.7 / `x509-cert` 0.2 while the crate uses 0.8 / 0.3, and two `der` versions would
//! both land in the wasm module. Only what a client encodes (the request) or reads (the
//! response) is here; `BasicOCSPResponse` itself is split by hand in `response.rs` to keep
//! the exact signed bytes of `tbsResponseData`.

use alloc::vec::Vec;

use const_oid::ObjectIdentifier;
use der::asn1::{AnyRef, GeneralizedTime, Int, Null, OctetString};
use der::{Choice, Enumerated, Sequence};
use spki::AlgorithmIdentifierOwned;
use x509_cert::ext::pkix::CrlReason;
use x509_cert::ext::Extensions;
use x509_cert::name::Name;

/// id-sha384 (RFC 5754 §2.3): the CertID hash of every request (as NVIDIA's verifiers do).
pub(crate) const ID_SHA384: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.2");
/// id-pkix-ocsp-basic (RFC 6960 §4.2.1).
pub(crate) const ID_PKIX_OCSP_BASIC: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.48.1.1");
/// id-pkix-ocsp-nonce (RFC 6960 §4.4.1).
pub(crate) const ID_PKIX_OCSP_NONCE: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.48.1.2");

/// `CertID` (RFC 6960 §4.1.1): which certificate a request or a SingleResponse is about.
#[derive(Clone, Debug, PartialEq, Eq, Sequence)]
pub struct CertId {
    hash_algorithm: AlgorithmIdentifierOwned,
    issuer_name_hash: OctetString,
    issuer_key_hash: OctetString,
    serial_number: Int,
}

impl CertId {
    pub(crate) fn new(
        hash_algorithm: AlgorithmIdentifierOwned,
        issuer_name_hash: OctetString,
        issuer_key_hash: OctetString,
        serial_number: Int,
    ) -> Self {
        Self {
            hash_algorithm,
            issuer_name_hash,
            issuer_key_hash,
            serial_number,
        }
    }

    /// The hash algorithm's OID (always id-sha384 in requests built here).
    pub fn hash_algorithm(&self) -> ObjectIdentifier {
        self.hash_algorithm.oid
    }

    /// Hash of the issuer's subject name (DER).
    pub fn issuer_name_hash(&self) -> &[u8] {
        self.issuer_name_hash.as_bytes()
    }

    /// Hash of the issuer's public key (the subjectPublicKey BIT STRING's contents).
    pub fn issuer_key_hash(&self) -> &[u8] {
        self.issuer_key_hash.as_bytes()
    }

    /// The certificate's serial number (content octets, big-endian two's complement).
    pub fn serial(&self) -> &[u8] {
        self.serial_number.as_bytes()
    }

    /// Same certificate: same hash algorithm (its parameters absent or NULL: both
    /// encodings of a SHA-2 AlgorithmIdentifier occur) and byte-equal hashes and serial.
    pub(crate) fn same_certificate(&self, other: &Self) -> bool {
        let params_ok =
            |a: &AlgorithmIdentifierOwned| a.parameters.as_ref().is_none_or(|p| p.is_null());
        self.hash_algorithm.oid == other.hash_algorithm.oid
            && params_ok(&self.hash_algorithm)
            && params_ok(&other.hash_algorithm)
            && self.issuer_name_hash == other.issuer_name_hash
            && self.issuer_key_hash == other.issuer_key_hash
            && self.serial_number == other.serial_number
    }
}

/// `OCSPRequest` without `optionalSignature` (never sent: responders do not require it).
#[derive(Clone, Debug, PartialEq, Eq, Sequence)]
pub(crate) struct OcspRequestAsn1 {
    pub(crate) tbs_request: TbsRequest,
}

/// `TBSRequest` with version v1 (the DEFAULT, so absent) and no requestorName.
#[derive(Clone, Debug, PartialEq, Eq, Sequence)]
pub(crate) struct TbsRequest {
    pub(crate) request_list: Vec<Request>,
    #[asn1(context_specific = "2", optional = "true")]
    pub(crate) request_extensions: Option<Extensions>,
}

/// `Request` without singleRequestExtensions.
#[derive(Clone, Debug, PartialEq, Eq, Sequence)]
pub(crate) struct Request {
    pub(crate) req_cert: CertId,
}

/// `OCSPResponseStatus` (RFC 6960 §4.2.1); unknown values fail decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Enumerated)]
#[repr(u32)]
pub(crate) enum ResponseStatusAsn1 {
    Successful = 0,
    MalformedRequest = 1,
    InternalError = 2,
    TryLater = 3,
    SigRequired = 5,
    Unauthorized = 6,
}

/// `OCSPResponse`.
#[derive(Clone, Debug, PartialEq, Eq, Sequence)]
pub(crate) struct OcspResponseAsn1 {
    pub(crate) response_status: ResponseStatusAsn1,
    #[asn1(context_specific = "0", optional = "true")]
    pub(crate) response_bytes: Option<ResponseBytes>,
}

/// `ResponseBytes`.
#[derive(Clone, Debug, PartialEq, Eq, Sequence)]
pub(crate) struct ResponseBytes {
    pub(crate) response_type: ObjectIdentifier,
    pub(crate) response: OctetString,
}

/// `ResponseData`. `responses` is kept raw and read one SingleResponse at a time, so that
/// the count is capped before anything is decoded ([`super::MAX_SINGLE_RESPONSES`]).
#[derive(Clone, Debug, PartialEq, Eq, Sequence)]
pub(crate) struct ResponseData<'a> {
    /// `[0] EXPLICIT Version DEFAULT v1`: read as optional so that an explicit v1 (BER
    /// habit of some responders) is not refused; any other value is.
    #[asn1(context_specific = "0", optional = "true")]
    pub(crate) version: Option<u8>,
    pub(crate) responder_id: ResponderId,
    pub(crate) produced_at: GeneralizedTime,
    pub(crate) responses: AnyRef<'a>,
    #[asn1(context_specific = "1", optional = "true")]
    pub(crate) response_extensions: Option<Extensions>,
}

/// `ResponderID` (the module uses EXPLICIT tags).
#[derive(Clone, Debug, PartialEq, Eq, Choice)]
pub(crate) enum ResponderId {
    #[asn1(context_specific = "1", tag_mode = "EXPLICIT", constructed = "true")]
    ByName(Name),
    /// SHA-1 of the responder's subjectPublicKey contents (RFC 6960 §4.2.2.3).
    #[asn1(context_specific = "2", tag_mode = "EXPLICIT", constructed = "true")]
    ByKey(OctetString),
}

/// `SingleResponse`.
#[derive(Clone, Debug, PartialEq, Eq, Sequence)]
pub(crate) struct SingleResponse {
    pub(crate) cert_id: CertId,
    pub(crate) cert_status: CertStatus,
    pub(crate) this_update: GeneralizedTime,
    #[asn1(context_specific = "0", optional = "true")]
    pub(crate) next_update: Option<GeneralizedTime>,
    #[asn1(context_specific = "1", optional = "true")]
    pub(crate) single_extensions: Option<Extensions>,
}

/// `CertStatus` (IMPLICIT tags: `good` and `unknown` are `[n] NULL`).
#[derive(Clone, Debug, PartialEq, Eq, Choice)]
pub(crate) enum CertStatus {
    #[asn1(context_specific = "0", tag_mode = "IMPLICIT")]
    Good(Null),
    #[asn1(context_specific = "1", tag_mode = "IMPLICIT", constructed = "true")]
    Revoked(RevokedInfo),
    #[asn1(context_specific = "2", tag_mode = "IMPLICIT")]
    Unknown(Null),
}

/// `RevokedInfo`.
#[derive(Clone, Debug, PartialEq, Eq, Sequence)]
pub(crate) struct RevokedInfo {
    pub(crate) revocation_time: GeneralizedTime,
    #[asn1(context_specific = "0", optional = "true")]
    pub(crate) revocation_reason: Option<CrlReason>,
}
