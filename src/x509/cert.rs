//! One parsed X.509 certificate: the fields path validation needs, decoded once.
//!
//! Parsing is split in two on purpose. Structural DER errors fail [`Cert::parse`]; profile
//! defects (an unknown critical extension, a non-P-384 key, a v1 certificate…) are recorded
//! in [`Cert::defect`] and only fail validation when the certificate lands on the chosen
//! path — an unrelated certificate in the pool must not break a valid chain (x509-limbo
//! `unknown-critical-extension-unrelated-*`).

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::ops::Range;

use const_oid::ObjectIdentifier;
use der::asn1::{BitStringRef, ObjectIdentifier as Oid};
use der::{Decode, Reader, SliceReader};
use spki::AlgorithmIdentifierRef;
use x509_cert::certificate::Version;
use x509_cert::ext::pkix::name::DirectoryString;
use x509_cert::ext::pkix::{BasicConstraints, ExtendedKeyUsage, KeyUsage, SubjectKeyIdentifier};

use super::error::{CertPosition, ChainError};
use super::purpose::{self, refusal, KeyUsageBits, Purpose, Refusal};
use crate::time::UnixTime;

// The certificate's parts read with `der`'s reader (not x509-cert's derived decoders).
#[cfg(test)]
mod differential;
mod general_name;
pub(crate) mod name;
mod tbs;

/// ecdsa-with-SHA384 (RFC 5758 §3.2).
pub(crate) const ECDSA_WITH_SHA384: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.2.840.10045.4.3.3");
/// id-ecPublicKey (RFC 5480 §2.1.1).
const ID_EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
/// secp384r1 (RFC 5480 §2.1.1.1).
const SECP384R1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.132.0.34");

/// commonName (RFC 4519 §2.3).
const COMMON_NAME: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.4.3");
const BASIC_CONSTRAINTS: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.19");
const KEY_USAGE: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.15");
const SUBJECT_KEY_ID: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.14");
const AUTHORITY_KEY_ID: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.35");
const AUTHORITY_INFO_ACCESS: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.1.1");
const EXTENDED_KEY_USAGE: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.37");
/// TCG DICE attestation extension of Hopper and LS10 leaves (FWID = its SHA-384 digest).
pub(crate) const TCG_DICE_FWID: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.23.133.5.4.1");
/// TCG DICE TcbInfo extension of Blackwell leaves (FWID = first entry of field `[6]`).
pub(crate) const TCG_DICE_TCB_INFO: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("2.23.133.5.4.1.1");

/// Extensions that are processed, or carry no constraint a verifier of this profile must
/// enforce, so that a critical one is not refused: subjectAltName, certificatePolicies,
/// cRLDistributionPoints and the two TCG DICE extensions (extendedKeyUsage is processed:
/// [`super::purpose`]).
const UNDERSTOOD: [ObjectIdentifier; 10] = [
    BASIC_CONSTRAINTS,
    KEY_USAGE,
    SUBJECT_KEY_ID,
    AUTHORITY_KEY_ID,
    AUTHORITY_INFO_ACCESS,
    EXTENDED_KEY_USAGE,
    ObjectIdentifier::new_unwrap("2.5.29.17"),
    ObjectIdentifier::new_unwrap("2.5.29.32"),
    TCG_DICE_FWID,
    TCG_DICE_TCB_INFO,
];

/// basicConstraints (RFC 5280 §4.2.1.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Constraints {
    pub(crate) critical: bool,
    pub(crate) ca: bool,
    pub(crate) path_len: Option<u8>,
}

/// authorityKeyIdentifier (RFC 5280 §4.2.1.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AuthorityKeyId {
    pub(crate) key_id: Option<Vec<u8>>,
    /// authorityCertIssuer or authorityCertSerialNumber present.
    pub(crate) has_issuer_serial: bool,
}

/// A certificate decoded for path validation.
#[derive(Clone, Debug)]
pub(crate) struct Cert {
    pub(crate) der: Vec<u8>,
    /// The exact bytes of `tbsCertificate` inside `der`: what the issuer signed.
    pub(crate) tbs: Range<usize>,
    /// The issuer's signature as raw `r‖s` (96 bytes), or `None` when not ECDSA-P-384-shaped.
    pub(crate) signature: Option<Vec<u8>>,
    pub(crate) issuer: Vec<u8>,
    pub(crate) subject: Vec<u8>,
    pub(crate) subject_text: String,
    pub(crate) common_name: Option<String>,
    /// Serial number content octets (two's complement, big-endian).
    pub(crate) serial: Vec<u8>,
    pub(crate) not_before: UnixTime,
    pub(crate) not_after: UnixTime,
    /// SEC1 public key when the key is P-384 with a named curve.
    pub(crate) public_key: Option<Vec<u8>>,
    pub(crate) constraints: Option<Constraints>,
    pub(crate) key_usage: Option<KeyUsageBits>,
    pub(crate) extended_key_usage: Option<purpose::ExtendedKeyUsage>,
    pub(crate) subject_key_id: Option<Vec<u8>>,
    pub(crate) authority_key_id: Option<AuthorityKeyId>,
    /// The first OCSP responder URI of authorityInfoAccess, as written.
    pub(crate) ocsp_url: Option<String>,
    /// The extension values of the TCG DICE extensions, when present.
    pub(crate) dice_fwid: Option<Vec<u8>>,
    pub(crate) dice_tcb_info: Option<Vec<u8>>,
    /// The first profile defect, reported only if the certificate is used on a path.
    pub(crate) defect: Option<Defect>,
    /// The first defect other than the two algorithm ones ([`Defect::SignatureAlgorithm`],
    /// [`Defect::PublicKey`]): what a verifier that checks other algorithms itself (signer
    /// chains, `token::signer`) must still refuse.
    pub(crate) profile_defect: Option<Defect>,
    /// The signature algorithm, when the outer one equals the TBS `signature` field
    /// (RFC 5280 §4.1.1.2), parameters included.
    pub(crate) signature_algorithm: Option<ObjectIdentifier>,
}

/// A profile violation found while parsing, turned into a [`ChainError`] with the
/// certificate's position when the certificate is used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Defect {
    Version,
    Serial,
    SignatureAlgorithm,
    PublicKey,
    Duplicate(String),
    Invalid(String),
    UnknownCritical(String),
    EmptyIssuer,
}

impl Defect {
    pub(crate) fn at(&self, at: CertPosition) -> ChainError {
        match self {
            Self::Version => ChainError::UnsupportedVersion { at },
            Self::Serial => ChainError::InvalidSerialNumber { at },
            Self::SignatureAlgorithm => ChainError::UnsupportedSignatureAlgorithm { at },
            Self::PublicKey => ChainError::UnsupportedPublicKey { at },
            Self::Duplicate(oid) => ChainError::DuplicateExtension {
                at,
                oid: oid.clone(),
            },
            Self::Invalid(oid) => ChainError::InvalidExtension {
                at,
                oid: oid.clone(),
            },
            Self::UnknownCritical(oid) => ChainError::UnknownCriticalExtension {
                at,
                oid: oid.clone(),
            },
            Self::EmptyIssuer => ChainError::EmptyName { at },
        }
    }
}

impl Cert {
    /// Decodes one DER certificate.
    ///
    /// # Errors
    /// [`ChainError::Malformed`] when the DER structure is not a certificate.
    pub(crate) fn parse(der: &[u8], at: CertPosition) -> Result<Self, ChainError> {
        let malformed = |_| ChainError::Malformed { at };
        let (tbs_bytes, algorithm, signature) = split(der).map_err(malformed)?;
        let tbs = tbs::Tbs::read(tbs_bytes).map_err(malformed)?;
        // `split` returned a sub-slice of `der`: its offset is the TBS start.
        let start = (tbs_bytes.as_ptr() as usize).wrapping_sub(der.as_ptr() as usize);
        let tbs_range = start..start.saturating_add(tbs_bytes.len());
        if der.get(tbs_range.clone()) != Some(tbs_bytes) {
            return Err(ChainError::Malformed { at });
        }

        let mut defect = None;
        let mut profile_defect = None;
        let mut note = |d: Defect| {
            if profile_defect.is_none()
                && !matches!(d, Defect::SignatureAlgorithm | Defect::PublicKey)
            {
                profile_defect = Some(d.clone());
            }
            if defect.is_none() {
                defect = Some(d);
            }
        };

        if tbs.version != Version::V3 {
            note(Defect::Version);
        }
        let serial = tbs.serial.as_bytes().to_vec();
        if !serial_ok(&serial) {
            note(Defect::Serial);
        }
        // RFC 5280 §4.1.1.2: the outer algorithm must equal the TBS `signature` field.
        let sig_alg_ok = algorithm.oid == ECDSA_WITH_SHA384
            && algorithm.parameters.is_none()
            && tbs.signature.oid == ECDSA_WITH_SHA384
            && tbs.signature.parameters.is_none();
        if !sig_alg_ok {
            note(Defect::SignatureAlgorithm);
        }
        let signature_algorithm = (algorithm == tbs.signature).then_some(algorithm.oid);
        let signature = signature
            .as_bytes()
            .and_then(|bytes| p384::ecdsa::Signature::from_der(bytes).ok())
            .map(|sig| sig.to_bytes().to_vec());

        let spki = &tbs.spki;
        let named_p384 = spki.algorithm.oid == ID_EC_PUBLIC_KEY
            && spki
                .algorithm
                .parameters
                .as_ref()
                .and_then(|p| p.decode_as::<Oid>().ok())
                == Some(SECP384R1);
        let public_key = spki
            .subject_public_key
            .as_bytes()
            .filter(|key| named_p384 && crate::crypto::is_p384_point(key))
            .map(<[u8]>::to_vec);
        if public_key.is_none() {
            note(Defect::PublicKey);
        }

        if tbs.issuer.rdns.is_empty() {
            note(Defect::EmptyIssuer);
        }
        // x509-cert's `Name::common_name`: the first commonName, when a DirectoryString.
        let common_name = tbs
            .subject
            .rdns
            .iter()
            .flatten()
            .find(|a| a.oid == COMMON_NAME)
            .and_then(|a| a.value.decode_as::<DirectoryString>().ok())
            .map(String::from);

        let validity = &tbs.validity;
        // An X.509 time ends at 9999-12-31T23:59:59Z, as a UnixTime does.
        let time = |t: &x509_cert::time::Time| {
            UnixTime::from_secs(t.to_unix_duration().as_secs()).ok_or(ChainError::Malformed { at })
        };
        let not_before = time(&validity.not_before)?;
        let not_after = time(&validity.not_after)?;

        let mut cert = Self {
            der: der.to_vec(),
            tbs: tbs_range,
            signature,
            subject_text: super::dn_text::dn_text(&tbs.subject.rdns),
            issuer: tbs.issuer.der,
            subject: tbs.subject.der,
            common_name,
            serial,
            not_before,
            not_after,
            public_key,
            constraints: None,
            key_usage: None,
            extended_key_usage: None,
            subject_key_id: None,
            authority_key_id: None,
            ocsp_url: None,
            dice_fwid: None,
            dice_tcb_info: None,
            defect: None,
            profile_defect: None,
            signature_algorithm,
        };
        let extensions = &tbs.extensions;
        for (i, ext) in extensions.iter().enumerate() {
            let oid = ext.oid;
            if extensions.iter().take(i).any(|e| e.oid == oid) {
                note(Defect::Duplicate(oid.to_string()));
                continue;
            }
            let value = ext.value;
            let invalid = || Defect::Invalid(oid.to_string());
            match oid {
                BASIC_CONSTRAINTS => match BasicConstraints::from_der(value) {
                    Ok(bc) => {
                        cert.constraints = Some(Constraints {
                            critical: ext.critical,
                            ca: bc.ca,
                            path_len: bc.path_len_constraint,
                        });
                    }
                    Err(_) => note(invalid()),
                },
                KEY_USAGE => match KeyUsage::from_der(value) {
                    Ok(ku) => {
                        cert.key_usage = Some(KeyUsageBits {
                            digital_signature: ku.digital_signature(),
                            key_cert_sign: ku.key_cert_sign(),
                        });
                    }
                    Err(_) => note(invalid()),
                },
                // RFC 5280 §4.2.1.12: at least one purpose.
                EXTENDED_KEY_USAGE => match ExtendedKeyUsage::from_der(value) {
                    Ok(eku) if !eku.0.is_empty() => {
                        cert.extended_key_usage =
                            Some(purpose::ExtendedKeyUsage { purposes: eku.0 });
                    }
                    _ => note(invalid()),
                },
                // RFC 5280 §4.2.1.2 / §4.2.1.1: both MUST be non-critical.
                SUBJECT_KEY_ID => match SubjectKeyIdentifier::from_der(value) {
                    Ok(ski) if !ext.critical => {
                        cert.subject_key_id = Some(ski.0.as_bytes().to_vec());
                    }
                    _ => note(invalid()),
                },
                AUTHORITY_KEY_ID => match general_name::authority_key_id(value) {
                    Ok(aki) if !ext.critical => cert.authority_key_id = Some(aki),
                    _ => note(invalid()),
                },
                // RFC 5280 §4.2.2.1: MUST be non-critical.
                AUTHORITY_INFO_ACCESS => match general_name::access_descriptions(value) {
                    Ok((count, ocsp_url)) if !ext.critical && count > 0 => cert.ocsp_url = ocsp_url,
                    _ => note(invalid()),
                },
                TCG_DICE_FWID => cert.dice_fwid = Some(value.to_vec()),
                TCG_DICE_TCB_INFO => cert.dice_tcb_info = Some(value.to_vec()),
                _ if ext.critical && !UNDERSTOOD.contains(&oid) => {
                    note(Defect::UnknownCritical(oid.to_string()));
                }
                _ => {}
            }
        }
        cert.defect = defect;
        cert.profile_defect = profile_defect;
        Ok(cert)
    }

    /// The subjectPublicKeyInfo of the DER certificate `der`, `None` when `der` is not one:
    /// read as [`Cert::parse`] reads it, which accepts what x509-cert's
    /// `Certificate::from_der` accepts, for a caller that needs the key only (x509-cert's
    /// derived decoder is about 15 KB of the wasm module).
    pub(crate) fn public_key_info(der: &[u8]) -> Option<spki::SubjectPublicKeyInfoRef<'_>> {
        let (tbs, _, _) = split(der).ok()?;
        tbs::Tbs::read(tbs).ok().map(|tbs| tbs.spki)
    }

    /// The signatureValue's bits as written (whatever the algorithm).
    pub(crate) fn signature_bits(&self) -> Option<&[u8]> {
        split(&self.der)
            .ok()
            .and_then(|(_, _, bits)| bits.as_bytes())
    }

    /// The signed part, `tbsCertificate`.
    pub(crate) fn tbs_bytes(&self) -> &[u8] {
        self.der.get(self.tbs.clone()).unwrap_or_default()
    }

    /// The issuer in RFC 4514 form (as [`Self::subject_text`] is written).
    pub(crate) fn issuer_text(&self) -> String {
        name::rdns(&self.issuer)
            .map_or_else(|_| String::new(), |rdns| super::dn_text::dn_text(&rdns))
    }

    /// Subject equals issuer (RFC 5280 §6.1: "self-issued").
    pub(crate) fn is_self_issued(&self) -> bool {
        self.subject == self.issuer
    }

    /// basicConstraints says cA TRUE (critical or not).
    pub(crate) fn claims_ca(&self) -> bool {
        self.constraints.is_some_and(|c| c.ca)
    }
}

/// Splits `Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }`
/// keeping the exact TBS bytes (re-encoding could alter them and break the signature).
fn split(der: &[u8]) -> der::Result<(&[u8], AlgorithmIdentifierRef<'_>, BitStringRef<'_>)> {
    let mut reader = SliceReader::new(der)?;
    let parts = reader.sequence(|seq| -> der::Result<_> {
        let tbs = seq.tlv_bytes()?;
        let algorithm = AlgorithmIdentifierRef::decode(seq)?;
        let signature = BitStringRef::decode(seq)?;
        Ok((tbs, algorithm, signature))
    })?;
    reader.finish()?;
    Ok(parts)
}

/// RFC 5280 §4.1.2.2: a positive integer of at most 20 octets (a leading zero octet that
/// only keeps the sign positive is not counted).
fn serial_ok(content: &[u8]) -> bool {
    let Some((&first, rest)) = content.split_first() else {
        return false;
    };
    if first & 0x80 != 0 {
        return false;
    }
    let magnitude = if first == 0 { rest } else { content };
    !magnitude.is_empty() && magnitude.len() <= 20 && magnitude.iter().any(|&b| b != 0)
}

impl Cert {
    /// Whether this certificate's key may be used for `purpose`.
    ///
    /// # Errors
    /// [`ChainError::KeyUsage`] or [`ChainError::ExtendedKeyUsage`].
    pub(crate) fn check_purpose(
        &self,
        purpose: Purpose,
        at: CertPosition,
    ) -> Result<(), ChainError> {
        match refusal(purpose, self.key_usage, self.extended_key_usage.as_ref()) {
            None => Ok(()),
            Some(Refusal::KeyUsage) => Err(ChainError::KeyUsage { at, purpose }),
            Some(Refusal::ExtendedKeyUsage) => Err(ChainError::ExtendedKeyUsage { at, purpose }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::serial_ok;

    #[test]
    fn serial_numbers() {
        assert!(serial_ok(&[1]));
        assert!(serial_ok(&[0, 0x80]));
        assert!(!serial_ok(&[0]));
        assert!(!serial_ok(&[0xff]));
        assert!(!serial_ok(&[]));
        assert!(serial_ok(&[0x7f; 20]));
        assert!(!serial_ok(&[0x7f; 21]));
        let mut long = [0x80u8; 21];
        long[0] = 0;
        assert!(serial_ok(&long));
    }
}
