//! The revocation of a pinned signer's chain by OCSP: which certificates of the path can be
//! asked, their requests, and the verdict on the host's answers under the revocation policy's
//! `signerChain` rule. The core does no I/O: the host posts each request to its target's URL,
//! checks each answer with [`crate::ocsp::check_response`] and passes the results back.
//!
//! A certificate can be asked about when it names an http(s) OCSP responder in its
//! authorityInfoAccess and its issuer is on the path (the next certificate: from `x5c`, or the
//! anchor certificate that ended the path), since a request names the issuer's key. The URL is
//! trusted because the path reached an anchor: a certificate authority the caller trusts wrote
//! it (a device chain's AIA is the attester's data, which is why the device chains' OCSP goes
//! to a configured responder instead).
//!
//! With NRAS's default pin nothing can be asked: NRAS's signing leaf (about two days long)
//! names no responder, and the intermediate's issuer ("NVIDIA Attestation Service CA 001") is
//! not public. The signer's revocation is then [`SignerRevocation::NotChecked`] with the
//! reason, which is not a failure: no rule of the policy can be applied to no answer.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::error::SignerError;
use super::verified::PinnedSigner;
use crate::error_code::ErrorCode;
use crate::ocsp::{
    fold_chain, CertRevocation, ChainRevocation, CheckedOcsp, OcspError, OcspRequest, Relaxation,
    RevocationComponent, RevocationRule, NONCE_LEN,
};
use crate::time::UnixTime;

/// One certificate of a pinned path to ask about.
#[derive(Clone, Debug)]
pub struct SignerOcspTarget {
    /// Its place in [`PinnedSigner::chain`] (0 = the leaf).
    pub index: usize,
    /// The responder its authorityInfoAccess names (http or https): the host's default.
    pub url: String,
    /// The request (a SHA-384 CertID, the nonce).
    pub request: OcspRequest,
}

/// A signer chain's revocation that passes the policy's rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SignerRevocation {
    /// No certificate of the path can be asked: why, and what would have it asked.
    NotChecked {
        /// The reason in words.
        reason: String,
    },
    /// Every certificate asked about is good, or passed by the rule: each such pass is a
    /// relaxation, warned about (empty: strictly good).
    Good {
        /// What the rule let pass.
        relaxations: Vec<Relaxation>,
    },
}

impl SignerRevocation {
    /// `good` or `not-checked`.
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::NotChecked { .. } => "not-checked",
            Self::Good { .. } => "good",
        }
    }
}

/// Whether a responder URL may be a host's default: http or https only.
fn usable_url(url: &str) -> bool {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

impl PinnedSigner {
    /// The certificates of the path that can be asked: `(index, url)` for each one with an
    /// http(s) OCSP URL whose issuer is on the path with a key a request can name (P-384:
    /// NVIDIA's OCSP profile).
    pub fn ocsp_targets(&self) -> Vec<(usize, &str)> {
        self.ocsp_urls
            .iter()
            .enumerate()
            .filter_map(|(index, url)| {
                let url = url.as_deref().filter(|url| usable_url(url))?;
                self.request(index, [0; NONCE_LEN]).ok()?;
                Some((index, url))
            })
            .collect()
    }

    /// The request about path certificate `index` with `nonce`.
    fn request(&self, index: usize, nonce: [u8; NONCE_LEN]) -> Result<OcspRequest, OcspError> {
        match (self.ders.get(index), self.issuer_der(index)) {
            (Some(subject), Some(issuer)) => OcspRequest::new(subject, issuer, nonce),
            _ => Err(OcspError::InvalidCertificate { which: "issuer" }),
        }
    }

    /// One request per [`Self::ocsp_targets`] entry, in order, each with the next of
    /// `nonces` (the host's randomness; the core has none): give one per target; a target past
    /// the last nonce is not asked.
    ///
    /// # Errors
    /// [`OcspError::InvalidCertificate`] when a request cannot be built.
    pub fn ocsp_requests(
        &self,
        nonces: impl IntoIterator<Item = [u8; NONCE_LEN]>,
    ) -> Result<Vec<SignerOcspTarget>, OcspError> {
        self.ocsp_targets()
            .into_iter()
            .zip(nonces)
            .map(|((index, url), nonce)| {
                Ok(SignerOcspTarget {
                    index,
                    url: url.into(),
                    request: self.request(index, nonce)?,
                })
            })
            .collect()
    }

    /// The issuer's DER of target `index`, for [`crate::ocsp::check_response`].
    pub fn issuer_der(&self, index: usize) -> Option<&[u8]> {
        self.ders.get(index.saturating_add(1)).map(Vec::as_slice)
    }

    /// The signer's revocation from the host's results (one per [`Self::ocsp_targets`] entry,
    /// in order) under `rule` at `now`: [`SignerRevocation::NotChecked`] when nothing can be
    /// asked, else the results folded as every chain's are ([`fold_chain`]).
    ///
    /// # Errors
    /// [`SignerError::Revoked`] or [`SignerError::RevocationUnconfirmed`] when the rule does
    /// not let the chain pass (a missing result is unanswered).
    pub fn revocation(
        &self,
        results: &[Result<CheckedOcsp, OcspError>],
        rule: &RevocationRule,
        now: UnixTime,
    ) -> Result<SignerRevocation, SignerError> {
        let targets = self.ocsp_targets();
        if targets.is_empty() {
            return Ok(SignerRevocation::NotChecked {
                reason: self.not_checked_reason(),
            });
        }
        let subject = |n: usize| {
            targets
                .get(n)
                .and_then(|(index, _)| self.chain.get(*index))
                .map(|cert| cert.subject.clone())
                .unwrap_or_default()
        };
        match fold_chain(results, rule, now) {
            ChainRevocation::Good { relaxations } if results.len() == targets.len() => {
                Ok(SignerRevocation::Good { relaxations })
            }
            ChainRevocation::Good { .. } => Err(SignerError::RevocationUnconfirmed {
                status: "failed",
                detail: format!(
                    "{} answers for {} certificates",
                    results.len(),
                    targets.len()
                ),
            }),
            ChainRevocation::Revoked { reason } => {
                // The certificate that decides: the first whose answer alone folds to revoked
                // (as the service finds it), and its revocation time.
                let deciding = results.iter().enumerate().find_map(|(n, result)| {
                    let alone = fold_chain(core::slice::from_ref(result), rule, now);
                    match (alone, result) {
                        (
                            ChainRevocation::Revoked { .. },
                            Ok(CheckedOcsp {
                                status: CertRevocation::Revoked { at, .. },
                                ..
                            }),
                        ) => Some((n, *at)),
                        _ => None,
                    }
                });
                Err(SignerError::Revoked {
                    subject: deciding.map(|(n, _)| subject(n)).unwrap_or_default(),
                    reason: reason.map(|reason| reason.as_str()),
                    at: deciding.map(|(_, at)| at),
                })
            }
            ChainRevocation::Unknown => {
                let n = results
                    .iter()
                    .position(|result| {
                        matches!(result, Ok(checked) if checked.status == CertRevocation::Unknown)
                    })
                    .unwrap_or_default();
                Err(SignerError::RevocationUnconfirmed {
                    status: "unknown",
                    detail: format!("the responder does not know {:?}", subject(n)),
                })
            }
            ChainRevocation::Failed(error) => Err(SignerError::RevocationUnconfirmed {
                status: "failed",
                detail: format!("{}: {error}", error.code()),
            }),
        }
    }

    /// Why nothing of the path can be asked, and what would have it asked.
    fn not_checked_reason(&self) -> String {
        let last = self.chain.len().saturating_sub(1);
        let leaf_has_url = self.ocsp_urls.first().is_some_and(Option::is_some);
        let leaf = if leaf_has_url || last == 0 {
            ""
        } else {
            "the signing certificate names no OCSP responder (a short-lived certificate); "
        };
        let named = self.ocsp_urls.iter().enumerate().find_map(|(index, url)| {
            url.as_deref()
                .filter(|url| usable_url(url))
                .and_then(|_| self.chain.get(index))
                .map(|cert| (index, cert))
        });
        match named {
            Some((index, cert)) if index == last => format!(
                "{leaf}{:?} names an OCSP responder but its issuer {:?} is not known: pass that \
                 issuer's certificate as a `certificate` anchor to have it asked",
                cert.subject, cert.issuer
            ),
            Some((_, cert)) => format!(
                "{leaf}{:?} names an OCSP responder but its issuer's key is not P-384, which \
                 NVIDIA's OCSP profile requires",
                cert.subject
            ),
            None => format!(
                "{leaf}no certificate of the signer's chain names an http(s) OCSP responder"
            ),
        }
    }
}

impl SignerRevocation {
    /// The warnings of the relaxations, naming the signer's chain.
    pub fn warnings(&self) -> Vec<String> {
        match self {
            Self::NotChecked { .. } => Vec::new(),
            Self::Good { relaxations } => relaxations
                .iter()
                .map(|relaxation| relaxation.warning(RevocationComponent::SignerChain))
                .collect(),
        }
    }

    /// The reason nothing was asked, for a [`Self::NotChecked`].
    pub fn not_checked_reason(&self) -> Option<&str> {
        match self {
            Self::NotChecked { reason } => Some(reason),
            Self::Good { .. } => None,
        }
    }
}
