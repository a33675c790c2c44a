//! The pinning rule (module `signer`'s documentation) on the key a token selects: the chain's
//! structure, anchor and usage at prepare; the deferred link signatures with the token's; the
//! validity at `now` and at `iat` after the claims, so that a token that expired says so
//! (`ERR_JWT_EXPIRED`) before its signer's short-lived certificate does.

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use super::anchor::{
    spki_sha256, SignerAnchor, Signers, MAX_X5C_CERTIFICATES, MAX_X5C_CERTIFICATE_BYTES,
};
use super::error::SignerError;
use super::verified::{PinnedSigner, SignerCertificate, VerifiedSigner};
use crate::crypto::SignatureCheck;
use crate::time::UnixTime;
use crate::token::jwks::JwksKey;
use crate::token::TokenError;
use crate::x509::{Cert, CertPosition, ECDSA_WITH_SHA384};

/// A key's pinning before its link signatures are checked: the checks to hand out, the signer
/// to report, and each certificate's validity (checked at `now` and `iat` once the claims are
/// read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PinPlan {
    pub(crate) checks: Vec<SignatureCheck>,
    signer: Arc<PinnedSigner>,
    /// Each certificate's subject and validity.
    validity: Vec<(String, UnixTime, UnixTime)>,
    now: UnixTime,
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

    /// The signer, once every certificate of the path is valid at `now` and at `iat` (the
    /// links verified: [`Self::links`]).
    pub(crate) fn valid_at(&self, iat: Option<UnixTime>) -> Result<VerifiedSigner, SignerError> {
        self.valid_now()?;
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

    /// Every certificate of the path is valid at `now`.
    fn valid_now(&self) -> Result<(), SignerError> {
        for (subject, not_before, not_after) in &self.validity {
            if self.now < *not_before || self.now > *not_after {
                return Err(SignerError::Expired {
                    subject: subject.clone(),
                    when: "now",
                    at: Some(self.now),
                    not_before: *not_before,
                    not_after: *not_after,
                });
            }
        }
        Ok(())
    }
}

/// Pins `key` under `signers` at `now` with its link signatures checked in software, without
/// a token (no `iat`): the signer of a key that verified a result, found again for a host that
/// holds only the key set (the signer chain's OCSP, `SignerOcspOptions`). `None` for
/// [`Signers::Any`].
///
/// # Errors
/// As [`pin`], [`PinPlan::links`], and [`SignerError::Expired`] at `now`.
pub(crate) fn pin_now(
    key: &JwksKey,
    signers: &Signers,
    now: UnixTime,
) -> Result<Option<Arc<PinnedSigner>>, TokenError> {
    let Some(plan) = pin(key, signers, now)? else {
        return Ok(None);
    };
    let fail = |error: SignerError| TokenError::Signer {
        kid: key.kid().map(String::from),
        error,
    };
    let links_valid = crate::crypto::software_verdicts(&plan.checks)
        .into_iter()
        .all(|verdict| verdict);
    PinPlan::links(links_valid).map_err(fail)?;
    plan.valid_now().map_err(fail)?;
    Ok(Some(plan.signer))
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
    check_usage(&path).map_err(fail)?;
    let mut checks = Vec::new();
    for pair in path.windows(2) {
        if let (Some(child), Some(issuer)) = (pair.first(), pair.get(1)) {
            checks.extend(link(child, issuer).map_err(untrusted)?);
        }
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
        now,
    }))
}

/// The check of `child`'s signature by `issuer`: ECDSA P-384 / SHA-384 is handed out (a
/// WebCrypto host runs it); RSA PKCS#1 v1.5 (NVIDIA's intermediate signs its leaves so) is
/// verified here, at once: a public-key operation with a small exponent, cheap in software.
fn link(child: &Cert, issuer: &Cert) -> Result<Option<SignatureCheck>, String> {
    let subject = &child.subject_text;
    match child.signature_algorithm {
        Some(algorithm) if algorithm == ECDSA_WITH_SHA384 => {
            match (&child.signature, &issuer.public_key) {
                (Some(signature), Some(key)) => Ok(Some(SignatureCheck {
                    public_key_sec1: key.clone(),
                    message: child.tbs_bytes().to_vec(),
                    signature: signature.clone(),
                })),
                _ => Err(format!(
                    "{subject:?}: its ECDSA signature or its issuer's key is not P-384"
                )),
            }
        }
        Some(algorithm) if crate::crypto::rsa::is_rsa_signature(algorithm) => {
            let verified = match (Cert::public_key_info(&issuer.der), child.signature_bits()) {
                (Some(spki), Some(signature)) => crate::crypto::rsa::verify_pkcs1v15(
                    &spki,
                    algorithm,
                    child.tbs_bytes(),
                    signature,
                ),
                _ => false,
            };
            if verified {
                Ok(None)
            } else {
                Err(format!(
                    "the RSA signature of {subject:?} does not verify with its issuer's key"
                ))
            }
        }
        _ => Err(format!(
            "{subject:?} is signed with neither ECDSA P-384/SHA-384 nor RSA PKCS#1 v1.5"
        )),
    }
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
        // The algorithms are checked per link (`link`); every other profile defect refuses.
        if let Some(defect) = &cert.profile_defect {
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

/// The leaf's keyUsage, and the CA constraints of the rest of the path.
fn check_usage(path: &[Cert]) -> Result<(), SignerError> {
    for (index, cert) in path.iter().enumerate() {
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
