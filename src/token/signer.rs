//! Signer pinning: which keys of a key set may sign tokens. A JWKS says which keys a service
//! uses, not who the service is: whoever answers the JWKS URL could mint results. Under
//! [`Signers::Anchors`] a key is usable only when the `x5c` chain it carries reaches a trusted
//! anchor, so the trust is in a certificate authority the caller names, not in a URL.
//!
//! The rule for the key a token selects ([`pin`]):
//! * it carries `x5c` ([`SignerError::NoX5c`]), at most [`MAX_X5C_CERTIFICATES`] entries of at
//!   most [`MAX_X5C_CERTIFICATE_BYTES`] each (beyond: [`SignerError::Untrusted`]), each
//!   standard base64 of a DER certificate (else `ERR_JWKS_INVALID`: the key set is malformed);
//! * `x5c[0]` carries exactly the JWK's `x`/`y` ([`SignerError::KeyMismatch`]);
//! * walking `x5c` from the leaf, each certificate names the next as its issuer, and the path
//!   ends at the first certificate whose SPKI SHA-256 is a pinned [`SignerAnchor::SpkiSha256`],
//!   that is an anchor [`SignerAnchor::Certificate`], or that such an anchor issued (the anchor
//!   then ends the path); a path that reaches none, or a certificate on it with a profile defect
//!   (not P-384, unknown critical extension…), is [`SignerError::Untrusted`];
//! * every link's signature (ECDSA P-384 / SHA-384) verifies: the checks are handed out with
//!   the token's own check ([`crate::crypto::Deferred`]), and a false verdict is
//!   [`SignerError::Untrusted`];
//! * every certificate of the path is within its validity at `now` and at the token's `iat`
//!   ([`SignerError::Expired`]); a token without `iat` is refused under pinning (nothing says
//!   when it was signed, so the chain's validity cannot be checked against it;
//!   [`SignerError::Expired`] naming `iat`). NRAS tokens always carry `iat`;
//! * the leaf's keyUsage, when present, allows digitalSignature; every CA certificate of the
//!   path has basicConstraints cA and, with keyUsage, keyCertSign ([`SignerError::KeyUsage`]).
//!
//! The default, [`Signers::nras`], pins the key of "NVIDIA Attestation Service GPU
//! Intermediate 004": the certificate of its issuer, "NVIDIA Attestation Service CA 001", is
//! not public. A key pin keeps working when the intermediate is re-issued with the same key;
//! several anchors may be given at once so that a rotation never breaks verification.

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::jwks::JwksKey;
use super::TokenError;
use crate::crypto::SignatureCheck;
use crate::error_code::ErrorCode;
use crate::time::UnixTime;
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
    /// A CA certificate (DER, P-384 key): the chain may contain it or end at a certificate it
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
    /// [`TokenError::InvalidOption`] naming `signers.certificate`: not one PEM block, not a
    /// certificate, or not a P-384 key.
    pub fn from_certificate_pem(text: &str) -> Result<Self, TokenError> {
        let invalid = || TokenError::InvalidOption {
            field: "signers.certificate",
            expected: "one PEM CERTIFICATE block of a P-384 CA certificate",
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
    /// [`TokenError::InvalidOption`] naming `signers.certificate`: not a certificate, or not a
    /// P-384 key.
    pub fn from_certificate_der(der: &[u8]) -> Result<Self, TokenError> {
        let cert = Cert::parse(der, CertPosition::Anchor(0));
        match cert {
            Ok(cert) if cert.public_key.is_some() => Ok(Self::Certificate(der.to_vec())),
            _ => Err(TokenError::InvalidOption {
                field: "signers.certificate",
                expected: "a DER certificate with a P-384 key",
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
fn spki_sha256(der: &[u8]) -> Option<[u8; 32]> {
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

/// Why a key's `x5c` chain does not pin it to a trusted signer.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SignerError {
    /// The key carries no `x5c` chain.
    NoX5c,
    /// `x5c[0]` does not carry the JWK's `x`/`y`.
    KeyMismatch,
    /// The chain reaches no anchor, a link's signature does not verify, a certificate on the
    /// path is outside the profile, or the chain is over budget.
    Untrusted {
        /// Why, in words.
        reason: String,
    },
    /// A certificate of the path is not valid at `now` or at the token's `iat` (or the token
    /// has no `iat`).
    Expired {
        /// The certificate's subject.
        subject: String,
        /// `now` or `iat`.
        when: &'static str,
        /// The time checked; `None` when the token has no `iat`.
        at: Option<UnixTime>,
        /// The certificate's notBefore.
        not_before: UnixTime,
        /// The certificate's notAfter.
        not_after: UnixTime,
    },
    /// The leaf may not sign, or a CA certificate of the path is not a CA.
    KeyUsage {
        /// The certificate's subject.
        subject: String,
        /// What it may not do: `sign tokens` or `issue certificates`.
        what: &'static str,
    },
}

impl ErrorCode for SignerError {
    fn code(&self) -> &'static str {
        match self {
            Self::NoX5c => "ERR_SIGNER_NO_X5C",
            Self::KeyMismatch => "ERR_SIGNER_KEY_MISMATCH",
            Self::Untrusted { .. } => "ERR_SIGNER_UNTRUSTED",
            Self::Expired { .. } => "ERR_SIGNER_EXPIRED",
            Self::KeyUsage { .. } => "ERR_SIGNER_KEY_USAGE",
        }
    }

    fn field(&self) -> Option<&str> {
        Some("x5c")
    }
}

/// What to do about an untrusted signer, said once for the messages that need it.
const ANCHOR_REMEDY: &str = "to verify your own service's tokens pass its root certificate as \
     an anchor (signers: [{certificate: PEM}]); when NVIDIA rotates its intermediate, add the \
     new one's spkiSha256 beside the default; signers: 'any' opts out of pinning";

impl fmt::Display for SignerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoX5c => write!(
                f,
                "the signing key carries no x5c certificate chain, so it cannot be pinned to a \
                 trusted signer: use the key set the service publishes (NRAS's keys carry x5c), \
                 or {ANCHOR_REMEDY}"
            ),
            Self::KeyMismatch => f.write_str(
                "the signing key's x5c[0] certificate does not carry the key's own x/y: the key \
                 set is inconsistent; fetch it from the service's own JWKS URL",
            ),
            Self::Untrusted { reason } => write!(
                f,
                "the signing key's x5c chain does not reach a trusted signer anchor ({reason}): \
                 {ANCHOR_REMEDY}"
            ),
            Self::Expired {
                subject,
                when,
                at,
                not_before,
                not_after,
            } => match at {
                None => write!(
                    f,
                    "the token has no iat, so the validity of its signer's chain at signing \
                     cannot be checked: pinned tokens must carry iat ({ANCHOR_REMEDY})"
                ),
                Some(at) => write!(
                    f,
                    "certificate {subject:?} of the signing key's x5c chain is not valid at \
                     {when} ({at}; valid {not_before} to {not_after}): refresh the key set from \
                     the service; a token signed outside its signer's validity is refused"
                ),
            },
            Self::KeyUsage { subject, what } => write!(
                f,
                "certificate {subject:?} of the signing key's x5c chain may not {what}: the key \
                 is not a signer of that anchor; {ANCHOR_REMEDY}"
            ),
        }
    }
}

/// One certificate of a signer's path, as reported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "SignerCertificate"))]
#[serde(rename_all = "camelCase")]
pub struct SignerCertificate {
    /// Subject, RFC 4514 text.
    pub subject: String,
    /// Issuer, RFC 4514 text.
    pub issuer: String,
    /// notBefore, Unix seconds.
    pub not_before: UnixTime,
    /// notAfter, Unix seconds.
    pub not_after: UnixTime,
}

/// Who signed a verified token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifiedSigner {
    /// No pinning ([`Signers::Any`]): any key of the set was accepted.
    Unpinned,
    /// The key's chain reached an anchor.
    Pinned(Arc<PinnedSigner>),
}

impl VerifiedSigner {
    /// Whether the signer was pinned.
    pub fn pinned(&self) -> Option<&PinnedSigner> {
        match self {
            Self::Unpinned => None,
            Self::Pinned(signer) => Some(signer),
        }
    }
}

/// A signer whose `x5c` chain reached an anchor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PinnedSigner {
    anchor: String,
    chain: Vec<SignerCertificate>,
    kid: Option<String>,
    /// The DER of each certificate of the path, anchor certificate included when it ended the
    /// path (the OCSP requests need subjects and issuers).
    ders: Vec<Vec<u8>>,
    /// The OCSP URL of each certificate of the path, when it carries one.
    ocsp_urls: Vec<Option<String>>,
}

impl PinnedSigner {
    /// The anchor reached: `spkiSha256:<hex>` or `certificate:<subject>`.
    pub fn anchor(&self) -> &str {
        &self.anchor
    }

    /// The path, leaf first, through the anchor's certificate when it ended the path.
    pub fn chain(&self) -> &[SignerCertificate] {
        &self.chain
    }

    /// The `kid` of the key.
    pub fn kid(&self) -> Option<&str> {
        self.kid.as_deref()
    }
}

/// A key's pinning before its link signatures are checked: the checks to hand out, the signer
/// to report, and the validity window every certificate of the path shares (checked at `iat`
/// once the claims are read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PinPlan {
    pub(crate) checks: Vec<SignatureCheck>,
    signer: Arc<PinnedSigner>,
    /// Each certificate's subject and validity, for the `iat` check.
    validity: Vec<(String, UnixTime, UnixTime)>,
}

impl PinPlan {
    /// The link verdicts: every one true, else [`SignerError::Untrusted`].
    pub(crate) fn links(links_valid: bool) -> Result<(), SignerError> {
        if links_valid {
            Ok(())
        } else {
            Err(SignerError::Untrusted {
                reason: "a certificate signature of the chain does not verify".into(),
            })
        }
    }

    /// The signer, once the path is valid at `iat` (the links verified: [`Self::links`]).
    pub(crate) fn at_iat(&self, iat: Option<UnixTime>) -> Result<VerifiedSigner, SignerError> {
        for (subject, not_before, not_after) in &self.validity {
            let Some(iat) = iat else {
                return Err(SignerError::Expired {
                    subject: subject.clone(),
                    when: "iat",
                    at: None,
                    not_before: *not_before,
                    not_after: *not_after,
                });
            };
            if iat < *not_before || iat > *not_after {
                return Err(SignerError::Expired {
                    subject: subject.clone(),
                    when: "iat",
                    at: Some(iat),
                    not_before: *not_before,
                    not_after: *not_after,
                });
            }
        }
        Ok(VerifiedSigner::Pinned(self.signer.clone()))
    }
}

/// Pins `key` under `signers` at `now` (the module's rule, all but the signatures and `iat`):
/// `None` for [`Signers::Any`].
///
/// # Errors
/// [`TokenError::Signer`]; [`TokenError::JwksInvalid`] for an `x5c` entry that is not base64
/// DER of a certificate.
pub(crate) fn pin(
    key: &JwksKey,
    signers: &Signers,
    now: UnixTime,
) -> Result<Option<PinPlan>, TokenError> {
    let Signers::Anchors(anchors) = signers else {
        return Ok(None);
    };
    let fail = |error: SignerError| TokenError::Signer {
        kid: key.kid().map(String::from),
        error,
    };
    let untrusted = |reason: String| fail(SignerError::Untrusted { reason });
    let x5c = match key.x5c() {
        Some(x5c) if !x5c.is_empty() => x5c,
        _ => return Err(fail(SignerError::NoX5c)),
    };
    if x5c.len() > MAX_X5C_CERTIFICATES {
        return Err(untrusted(format!(
            "x5c holds {} certificates, more than {MAX_X5C_CERTIFICATES}",
            x5c.len()
        )));
    }
    let certs = x5c
        .iter()
        .enumerate()
        .map(|(index, text)| decode(text, index).map_err(|e| e.into_token_error(&fail)))
        .collect::<Result<Vec<Cert>, TokenError>>()?;
    let leaf = certs.first().ok_or_else(|| fail(SignerError::NoX5c))?;
    if leaf.public_key.as_deref() != Some(key.public_key().to_sec1().as_slice()) {
        return Err(fail(SignerError::KeyMismatch));
    }
    let anchor_certs = anchors
        .iter()
        .filter_map(|anchor| match anchor {
            SignerAnchor::Certificate(der) => Cert::parse(der, CertPosition::Anchor(0)).ok(),
            SignerAnchor::SpkiSha256(_) => None,
        })
        .collect::<Vec<_>>();
    let (path, anchor) = walk(&certs, anchors, &anchor_certs).map_err(untrusted)?;
    check_path(&path, now).map_err(fail)?;
    let mut checks = Vec::new();
    for pair in path.windows(2) {
        let (Some(child), Some(issuer)) = (pair.first(), pair.get(1)) else {
            continue;
        };
        let (Some(signature), Some(key)) = (&child.signature, &issuer.public_key) else {
            return Err(untrusted(format!(
                "{:?} is not signed with ECDSA P-384",
                child.subject_text
            )));
        };
        checks.push(SignatureCheck {
            public_key_sec1: key.clone(),
            message: child.tbs_bytes().to_vec(),
            signature: signature.clone(),
        });
    }
    let signer = PinnedSigner {
        anchor,
        chain: path
            .iter()
            .map(|cert| SignerCertificate {
                subject: cert.subject_text.clone(),
                issuer: cert.issuer_text(),
                not_before: cert.not_before,
                not_after: cert.not_after,
            })
            .collect(),
        kid: key.kid().map(String::from),
        ders: path.iter().map(|cert| cert.der.clone()).collect(),
        ocsp_urls: path.iter().map(|cert| cert.ocsp_url.clone()).collect(),
    };
    Ok(Some(PinPlan {
        checks,
        validity: path
            .iter()
            .map(|cert| (cert.subject_text.clone(), cert.not_before, cert.not_after))
            .collect(),
        signer: Arc::new(signer),
    }))
}

/// Why an `x5c` entry does not read.
enum Unread {
    TooLarge(usize),
    Invalid(usize),
}

impl Unread {
    fn into_token_error(self, fail: &impl Fn(SignerError) -> TokenError) -> TokenError {
        match self {
            Self::TooLarge(index) => fail(SignerError::Untrusted {
                reason: format!("x5c[{index}] exceeds {MAX_X5C_CERTIFICATE_BYTES} bytes"),
            }),
            Self::Invalid(index) => TokenError::JwksInvalid {
                field: format!("x5c[{index}]"),
            },
        }
    }
}

/// One `x5c` entry: standard base64 (RFC 7517 §4.7) of a DER certificate, size checked before
/// decoding.
fn decode(text: &str, index: usize) -> Result<Cert, Unread> {
    use base64::Engine as _;
    if text.len() > MAX_X5C_CERTIFICATE_BYTES.div_ceil(3).saturating_mul(4) {
        return Err(Unread::TooLarge(index));
    }
    let der = base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|_| Unread::Invalid(index))?;
    if der.len() > MAX_X5C_CERTIFICATE_BYTES {
        return Err(Unread::TooLarge(index));
    }
    Cert::parse(&der, CertPosition::Chain(index)).map_err(|_| Unread::Invalid(index))
}

/// The path from the leaf to the first certificate an anchor trusts, and the anchor's label.
fn walk(
    certs: &[Cert],
    anchors: &[SignerAnchor],
    anchor_certs: &[Cert],
) -> Result<(Vec<Cert>, String), String> {
    let mut path: Vec<Cert> = Vec::new();
    for (index, cert) in certs.iter().enumerate() {
        if let Some(defect) = &cert.defect {
            return Err(format!(
                "{:?}: {}",
                cert.subject_text,
                defect.at(CertPosition::Chain(index))
            ));
        }
        if let Some(last) = path.last() {
            if last.issuer != cert.subject {
                return Err(format!(
                    "x5c[{index}] {:?} did not issue x5c[{}]",
                    cert.subject_text,
                    index.saturating_sub(1)
                ));
            }
        }
        path.push(cert.clone());
        let pin = spki_sha256(&cert.der);
        let pinned = anchors.iter().find_map(|anchor| match anchor {
            SignerAnchor::SpkiSha256(hash) if Some(*hash) == pin => Some(*hash),
            _ => None,
        });
        if let Some(hash) = pinned {
            return Ok((path, format!("spkiSha256:{}", hex::encode(hash))));
        }
        if let Some(anchor) = anchor_certs.iter().find(|a| a.der == cert.der) {
            return Ok((path, format!("certificate:{}", anchor.subject_text)));
        }
        if let Some(anchor) = anchor_certs.iter().find(|a| issued(a, cert)) {
            path.push(anchor.clone());
            return Ok((path, format!("certificate:{}", anchor.subject_text)));
        }
    }
    Err(String::from(
        "no certificate of x5c is or was issued by an anchor",
    ))
}

/// Whether `issuer` names itself as `cert`'s issuer (by name, and by key identifier when both
/// carry one).
fn issued(issuer: &Cert, cert: &Cert) -> bool {
    let ids = (
        cert.authority_key_id
            .as_ref()
            .and_then(|aki| aki.key_id.as_ref()),
        issuer.subject_key_id.as_ref(),
    );
    issuer.subject == cert.issuer && !matches!(ids, (Some(aki), Some(ski)) if aki != ski)
}

/// Validity at `now`, the leaf's keyUsage, and the CA constraints of the rest of the path.
fn check_path(path: &[Cert], now: UnixTime) -> Result<(), SignerError> {
    for (index, cert) in path.iter().enumerate() {
        if now < cert.not_before || now > cert.not_after {
            return Err(SignerError::Expired {
                subject: cert.subject_text.clone(),
                when: "now",
                at: Some(now),
                not_before: cert.not_before,
                not_after: cert.not_after,
            });
        }
        let usage = cert.key_usage;
        let refused = if index == 0 {
            usage
                .is_some_and(|ku| !ku.digital_signature)
                .then_some("sign tokens")
        } else {
            let ca = cert.constraints.is_some_and(|c| c.ca);
            (!ca || usage.is_some_and(|ku| !ku.key_cert_sign)).then_some("issue certificates")
        };
        if let Some(what) = refused {
            return Err(SignerError::KeyUsage {
                subject: cert.subject_text.clone(),
                what,
            });
        }
    }
    Ok(())
}

impl core::error::Error for SignerError {}
