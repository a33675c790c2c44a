//! The anchors a caller trusts ([`Signers`]) and how they are written.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::token::TokenError;
use crate::x509::{Cert, CertPosition};

/// Most certificates an `x5c` chain may hold under pinning (NRAS sends 2).
pub const MAX_X5C_CERTIFICATES: usize = 8;

/// Largest DER certificate of an `x5c` chain under pinning (NRAS's are under 1 KB).
pub const MAX_X5C_CERTIFICATE_BYTES: usize = 16 * 1024;

/// SHA-256 of the DER SubjectPublicKeyInfo of "NVIDIA Attestation Service GPU Intermediate
/// 004" (valid 2025-12-08 to 2029-12-08, issued by "NVIDIA Attestation Service CA 001"), as
/// NRAS's key set carries it in every key's `x5c[1]`.
pub const NRAS_INTERMEDIATE_004_SPKI_SHA256: [u8; 32] = [
    0xfd, 0x32, 0x83, 0x7f, 0x95, 0x4e, 0x2c, 0x45, 0xdb, 0x07, 0x31, 0x05, 0x16, 0x6d, 0xfe, 0x69,
    0x85, 0xae, 0x04, 0x80, 0xbb, 0x11, 0x3f, 0xba, 0x63, 0xb0, 0x91, 0xa7, 0x5a, 0xff, 0xe8, 0x96,
];

/// Which keys may sign: any key of the set, or keys whose `x5c` chain reaches an anchor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Signers {
    /// Any key of the key set (no pinning: the key set is trusted as fetched). Written `'any'`.
    Any,
    /// Keys whose `x5c` chain reaches one of these anchors (module documentation).
    Anchors(Vec<SignerAnchor>),
}

impl Default for Signers {
    /// [`Signers::nras`]: pinning is on unless the caller opts out.
    fn default() -> Self {
        Self::nras()
    }
}

impl Signers {
    /// NVIDIA's attestation service: the key of "NVIDIA Attestation Service GPU Intermediate
    /// 004" ([`NRAS_INTERMEDIATE_004_SPKI_SHA256`]).
    pub fn nras() -> Self {
        Self::Anchors(alloc::vec![SignerAnchor::SpkiSha256(
            NRAS_INTERMEDIATE_004_SPKI_SHA256
        )])
    }

    /// Whether any key of the set is accepted.
    pub fn is_any(&self) -> bool {
        matches!(self, Self::Any)
    }
}

/// A trusted signer anchor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SignerAnchor {
    /// A pinned key: the SHA-256 of a certificate's DER SubjectPublicKeyInfo. Written
    /// `{spkiSha256: "<64 hex digits>"}`.
    SpkiSha256([u8; 32]),
    /// A CA certificate (DER; P-384 or RSA key): the chain may contain it or end at a certificate it
    /// issued. Written `{certificate: "<one PEM block>"}`.
    Certificate(Vec<u8>),
}

impl SignerAnchor {
    /// A key pin from its hex text (64 hex digits, either case).
    ///
    /// # Errors
    /// [`TokenError::InvalidOption`] naming `signers.spkiSha256`.
    pub fn from_spki_sha256_hex(text: &str) -> Result<Self, TokenError> {
        let mut out = [0u8; 32];
        hex::decode_to_slice(text, &mut out).map_err(|_| TokenError::InvalidOption {
            field: "signers.spkiSha256",
            expected: "64 hex digits (SHA-256 of a DER SubjectPublicKeyInfo)",
        })?;
        Ok(Self::SpkiSha256(out))
    }

    /// An anchor certificate from one PEM `CERTIFICATE` block.
    ///
    /// # Errors
    /// [`TokenError::InvalidOption`] naming `signers.certificate`: not one PEM block, or not a
    /// certificate of the profile.
    pub fn from_certificate_pem(text: &str) -> Result<Self, TokenError> {
        let invalid = || TokenError::InvalidOption {
            field: "signers.certificate",
            expected: "one PEM CERTIFICATE block",
        };
        let text = text.trim();
        if text.matches("-----BEGIN ").count() != 1 {
            return Err(invalid());
        }
        let (label, der) = pem_rfc7468::decode_vec(text.as_bytes()).map_err(|_| invalid())?;
        if label != "CERTIFICATE" {
            return Err(invalid());
        }
        Self::from_certificate_der(&der).map_err(|_| invalid())
    }

    /// An anchor certificate from its DER.
    ///
    /// # Errors
    /// [`TokenError::InvalidOption`] naming `signers.certificate`: not a certificate of the
    /// profile (its key may be P-384 or RSA).
    pub fn from_certificate_der(der: &[u8]) -> Result<Self, TokenError> {
        // The key's algorithm is checked where it signs a link (P-384 or RSA).
        let cert = Cert::parse(der, CertPosition::Anchor(0));
        match cert {
            Ok(cert) if cert.profile_defect.is_none() => Ok(Self::Certificate(der.to_vec())),
            _ => Err(TokenError::InvalidOption {
                field: "signers.certificate",
                expected: "a DER X.509 certificate",
            }),
        }
    }

    /// The key pin of a DER certificate: SHA-256 of its SubjectPublicKeyInfo (how a user
    /// computes the pin of a new intermediate). `None` when `der` is not a certificate.
    pub fn spki_sha256_of(der: &[u8]) -> Option<[u8; 32]> {
        spki_sha256(der)
    }
}

/// SHA-256 of a DER certificate's SubjectPublicKeyInfo.
pub(super) fn spki_sha256(der: &[u8]) -> Option<[u8; 32]> {
    use x509_cert::der::Encode as _;
    let spki = Cert::public_key_info(der)?.to_der().ok()?;
    Some(Sha256::digest(&spki).into())
}

/// Reads `'any'` or an array of anchors (a visitor of its own, as `verify_input` does: no
/// buffering `untagged`).
impl<'de> Deserialize<'de> for Signers {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Written;
        impl<'de> Visitor<'de> for Written {
            type Value = Signers;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("'any' or a non-empty array of {spkiSha256} / {certificate}")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Signers, E> {
                match text {
                    "any" => Ok(Signers::Any),
                    _ => Err(E::invalid_value(de::Unexpected::Str(text), &self)),
                }
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Signers, A::Error> {
                let mut anchors = Vec::new();
                while let Some(anchor) = seq.next_element::<SignerAnchor>()? {
                    if anchors.len() >= MAX_ANCHORS {
                        return Err(de::Error::custom("more than 64 signer anchors"));
                    }
                    anchors.push(anchor);
                }
                // An empty list would refuse every key: surely a mistake, so refuse it.
                if anchors.is_empty() {
                    return Err(de::Error::invalid_length(0, &self));
                }
                Ok(Signers::Anchors(anchors))
            }
        }
        deserializer.deserialize_any(Written)
    }
}

/// Most anchors read from the written form.
const MAX_ANCHORS: usize = 64;

/// Reads `{spkiSha256}` or `{certificate}`: exactly one member, unknown members refused.
impl<'de> Deserialize<'de> for SignerAnchor {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Written;
        impl<'de> Visitor<'de> for Written {
            type Value = SignerAnchor;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("{spkiSha256: hex} or {certificate: PEM}")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SignerAnchor, A::Error> {
                const FIELDS: &[&str] = &["spkiSha256", "certificate"];
                let mut anchor = None;
                while let Some(name) = map.next_key::<String>()? {
                    let text: String = map.next_value()?;
                    let read = match name.as_str() {
                        "spkiSha256" => SignerAnchor::from_spki_sha256_hex(&text),
                        "certificate" => SignerAnchor::from_certificate_pem(&text),
                        other => return Err(de::Error::unknown_field(other, FIELDS)),
                    };
                    if anchor.is_some() {
                        return Err(de::Error::custom(
                            "a signer anchor has exactly one of spkiSha256, certificate",
                        ));
                    }
                    anchor = Some(read.map_err(de::Error::custom)?);
                }
                anchor.ok_or_else(|| de::Error::missing_field("spkiSha256"))
            }
        }
        deserializer.deserialize_map(Written)
    }
}
