//! Building one DER `OCSPRequest` (RFC 6960 §4.1) for one certificate, with a nonce.

use alloc::string::String;
use alloc::vec::Vec;

use const_oid::ObjectIdentifier;
use der::asn1::{Any, Int, OctetString};
use der::{Decode, Encode};
use sha2::{Digest, Sha384};
use spki::AlgorithmIdentifierOwned;
use x509_cert::ext::Extension;
use x509_cert::Certificate;

use super::asn1::{CertId, OcspRequestAsn1, Request, TbsRequest, ID_PKIX_OCSP_NONCE, ID_SHA384};
use super::error::OcspError;

/// id-ecPublicKey (RFC 5480 §2.1.1).
const ID_EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
/// secp384r1 (RFC 5480 §2.1.1.1).
const SECP384R1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.132.0.34");

/// Length of the request nonce: 32 bytes, as RFC 8954 recommends and NVIDIA's verifier sends.
pub const NONCE_LEN: usize = 32;

/// What the checks need of an issuing CA's certificate.
pub(crate) struct IssuerFacts {
    /// The subject name, DER.
    pub(crate) subject: Vec<u8>,
    /// The subjectPublicKey BIT STRING's contents (what issuerKeyHash and byKey hash).
    pub(crate) key_bits: Vec<u8>,
    /// The same key as SEC1 when it is a named-curve P-384 key (the only kind that may
    /// sign a response).
    pub(crate) p384_key: Option<Vec<u8>>,
}

impl IssuerFacts {
    pub(crate) fn parse(der: &[u8]) -> Result<Self, OcspError> {
        let invalid = || OcspError::InvalidCertificate { which: "issuer" };
        let cert = Certificate::from_der(der).map_err(|_| invalid())?;
        let tbs = cert.tbs_certificate();
        let subject = tbs.subject().to_der().map_err(|_| invalid())?;
        let spki = tbs.subject_public_key_info();
        let key_bits = spki
            .subject_public_key
            .as_bytes()
            .ok_or_else(invalid)?
            .to_vec();
        let named_p384 = spki.algorithm.oid == ID_EC_PUBLIC_KEY
            && spki
                .algorithm
                .parameters
                .as_ref()
                .and_then(|p| p.decode_as::<ObjectIdentifier>().ok())
                == Some(SECP384R1);
        let p384_key = (named_p384 && p384::PublicKey::from_sec1_bytes(&key_bits).is_ok())
            .then(|| key_bits.clone());
        Ok(Self {
            subject,
            key_bits,
            p384_key,
        })
    }

    /// SHA-384 of the key, the CertID issuerKeyHash.
    pub(crate) fn key_hash(&self) -> Vec<u8> {
        Sha384::digest(&self.key_bits).to_vec()
    }
}

/// One OCSP request for one certificate: its DER, its nonce and its CertID.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OcspRequest {
    der: Vec<u8>,
    nonce: [u8; NONCE_LEN],
    cert_id: CertId,
}

impl OcspRequest {
    /// The request for `subject_der` (DER certificate) issued by `issuer_der`: CertID with
    /// SHA-384 (as NVIDIA's verifiers ask; hash parameters NULL, as OpenSSL encodes them),
    /// issuerNameHash over the subject's issuer name, issuerKeyHash over the issuer's
    /// subjectPublicKey contents, the subject's serial; and the nonce extension
    /// (`id-pkix-ocsp-nonce`, extnValue = OCTET STRING holding OCTET STRING, RFC 8954).
    ///
    /// # Errors
    /// [`OcspError::InvalidCertificate`] when either is not a DER certificate or the
    /// subject's issuer name is not the issuer's subject.
    pub fn new(
        subject_der: &[u8],
        issuer_der: &[u8],
        nonce: [u8; NONCE_LEN],
    ) -> Result<Self, OcspError> {
        let invalid_subject = || OcspError::InvalidCertificate { which: "subject" };
        let issuer = IssuerFacts::parse(issuer_der)?;
        let subject = Certificate::from_der(subject_der).map_err(|_| invalid_subject())?;
        let tbs = subject.tbs_certificate();
        let issuer_name = tbs.issuer().to_der().map_err(|_| invalid_subject())?;
        if issuer_name != issuer.subject {
            return Err(invalid_subject());
        }
        let octets = |bytes: Vec<u8>| OctetString::new(bytes).map_err(|_| invalid_subject());
        let cert_id = CertId::new(
            AlgorithmIdentifierOwned {
                oid: ID_SHA384,
                parameters: Some(Any::null()),
            },
            octets(Sha384::digest(&issuer_name).to_vec())?,
            octets(issuer.key_hash())?,
            Int::new(tbs.serial_number().as_bytes()).map_err(|_| invalid_subject())?,
        );
        let encoded_nonce = OctetString::new(nonce.as_slice())
            .and_then(|n| n.to_der())
            .and_then(OctetString::new)
            .map_err(|_| invalid_subject())?;
        let request = OcspRequestAsn1 {
            tbs_request: TbsRequest {
                request_list: Vec::from([Request {
                    req_cert: cert_id.clone(),
                }]),
                request_extensions: Some(Vec::from([Extension {
                    extn_id: ID_PKIX_OCSP_NONCE,
                    critical: false,
                    extn_value: encoded_nonce,
                }])),
            },
        };
        let der = request.to_der().map_err(|_| invalid_subject())?;
        Ok(Self {
            der,
            nonce,
            cert_id,
        })
    }

    /// The DER `OCSPRequest`, the body of a POST with content type
    /// `application/ocsp-request`.
    pub fn der(&self) -> &[u8] {
        &self.der
    }

    /// The nonce sent.
    pub fn nonce(&self) -> &[u8; NONCE_LEN] {
        &self.nonce
    }

    /// The certificate asked about.
    pub fn cert_id(&self) -> &CertId {
        &self.cert_id
    }

    /// A stable key for a host's response cache, the same for every request about this
    /// certificate: `sha384:<issuerKeyHash hex>:<serial hex>`.
    pub fn cache_key(&self) -> String {
        alloc::format!(
            "sha384:{}:{}",
            hex::encode(self.cert_id.issuer_key_hash()),
            hex::encode(self.cert_id.serial())
        )
    }
}
