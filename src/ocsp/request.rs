//! Building one DER `OCSPRequest` (RFC 6960 §4.1) for one certificate, with a nonce.

use alloc::string::String;
use alloc::vec::Vec;

use sha2::{Digest, Sha384};

use super::asn1::{self, CertId};
use super::error::OcspError;
use crate::x509::{Cert, CertPosition};

/// Length of the request nonce: 32 bytes, as RFC 8954 recommends and NVIDIA's verifier sends.
pub const NONCE_LEN: usize = 32;

/// What the checks need of an issuing CA's certificate.
pub(crate) struct IssuerFacts {
    /// The subject name, DER.
    pub(crate) subject: Vec<u8>,
    /// The P-384 key, SEC1: the subjectPublicKey BIT STRING's contents, which issuerKeyHash
    /// and ResponderID byKey hash.
    pub(crate) key: Vec<u8>,
}

impl IssuerFacts {
    /// # Errors
    /// [`OcspError::InvalidCertificate`] when `der` is not a certificate with a named-curve
    /// P-384 key (the only keys this profile has).
    pub(crate) fn parse(der: &[u8]) -> Result<Self, OcspError> {
        let invalid = OcspError::InvalidCertificate { which: "issuer" };
        let cert = Cert::parse(der, CertPosition::Anchor(0)).map_err(|_| invalid.clone())?;
        let key = cert.public_key.ok_or(invalid)?;
        Ok(Self {
            subject: cert.subject,
            key,
        })
    }

    /// SHA-384 of the key, the CertID issuerKeyHash.
    pub(crate) fn key_hash(&self) -> Vec<u8> {
        Sha384::digest(&self.key).to_vec()
    }
}

/// One OCSP request for one certificate: its DER, its nonce and its CertID.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OcspRequest {
    der: Vec<u8>,
    nonce: [u8; NONCE_LEN],
    cert_id: CertId,
    /// The CertID's DER as sent and with the hash parameters absent (compared with the
    /// responses' bytes).
    cert_id_der: [Vec<u8>; 2],
}

impl OcspRequest {
    /// The request for `subject_der` (DER certificate) issued by `issuer_der`: CertID with
    /// SHA-384 (as NVIDIA's verifiers ask; hash parameters NULL, as OpenSSL encodes them),
    /// issuerNameHash over the subject's issuer name, issuerKeyHash over the issuer's
    /// subjectPublicKey contents, the subject's serial; and the nonce extension
    /// (`id-pkix-ocsp-nonce`, extnValue = OCTET STRING holding OCTET STRING, RFC 8954).
    ///
    /// # Errors
    /// [`OcspError::InvalidCertificate`] when either is not a DER certificate, the issuer's
    /// key is not P-384, or the subject's issuer name is not the issuer's subject.
    pub fn new(
        subject_der: &[u8],
        issuer_der: &[u8],
        nonce: [u8; NONCE_LEN],
    ) -> Result<Self, OcspError> {
        let invalid_subject = || OcspError::InvalidCertificate { which: "subject" };
        let issuer = IssuerFacts::parse(issuer_der)?;
        let subject =
            Cert::parse(subject_der, CertPosition::Chain(0)).map_err(|_| invalid_subject())?;
        if subject.issuer != issuer.subject {
            return Err(invalid_subject());
        }
        let cert_id = CertId::new(
            Sha384::digest(&subject.issuer).to_vec(),
            issuer.key_hash(),
            subject.serial,
        );
        let der = asn1::ocsp_request(&cert_id, &nonce);
        let cert_id_der = [cert_id.der(true), cert_id.der(false)];
        Ok(Self {
            der,
            nonce,
            cert_id,
            cert_id_der,
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

    /// Whether `der` (a CertID TLV of a response) names the certificate asked about.
    pub(crate) fn names(&self, der: &[u8]) -> bool {
        self.cert_id_der.iter().any(|own| own.as_slice() == der)
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
