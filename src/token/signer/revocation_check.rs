//! The signer chain's OCSP for a host that holds the key set, not the verified signer (the JS
//! `signerOcspRequests` / `checkSignerOcsp`, which `fetchSignerOcsp` drives): the key that
//! signed is pinned again at `now` (its links checked in software), then its path is asked
//! about as [`PinnedSigner::ocsp_requests`] says and judged as [`PinnedSigner::revocation`]
//! does. One rule for Rust and JS: the binding only converts values.

use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::anchor::Signers;
use super::pin::pin_now;
use super::verified::PinnedSigner;
use crate::error_code::ErrorCode;
use crate::host_answer::Fetched;
use crate::ocsp::{
    check_fetched, subject_name, ChainOcspRequest, CheckedOcsp, OcspCertificateStatus, OcspError,
    OcspNonce, OcspRequest, RevocationPolicy, RevocationRule, NONCE_LEN,
};
use crate::time::UnixTime;
use crate::token::jwks::Jwks;
use crate::token::TokenError;

/// The options of the signer chain's OCSP (the JS `SignerOcspOptions`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SignerOcspOptions {
    /// The `kid` of the key that signed (the verified result's `signer.kid`); may be absent
    /// when the key set holds one key.
    #[cfg_attr(feature = "ts", ts(type = "string | null"))]
    pub kid: Option<String>,
    /// The anchors the result was verified with; default NRAS's ([`Signers::nras`]).
    #[cfg_attr(
        feature = "ts",
        ts(type = r#""any" | ({ spkiSha256: string } | { certificate: string })[]"#)
    )]
    pub signers: Option<Signers>,
    /// Requests only: one nonce per request, in order (default: the host's randomness).
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array[]"))]
    pub nonces: Option<Vec<OcspNonce>>,
    /// Checks only: the revocation policy; its `signerChain` rule applies (default strict).
    pub revocation: Option<RevocationPolicy>,
}

/// One request of the signer's chain (the JS `SignerOcspRequest`): POST `request` as
/// `application/ocsp-request` to `url`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SignerOcspRequest {
    /// The responder the certificate's authorityInfoAccess names (http or https).
    pub url: String,
    /// The request, as a device chain's.
    #[serde(flatten)]
    pub request: ChainOcspRequest,
}

/// The signer chain's revocation (the JS `SignerOcspStatus`). `code` and `message` are set
/// exactly when the policy refuses it; `not-checked` is not a refusal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SignerOcspStatus {
    /// `good`, `revoked`, `unknown`, `failed`, or `not-checked` (nothing could be asked).
    #[cfg_attr(
        feature = "ts",
        ts(type = r#""good" | "revoked" | "unknown" | "failed" | "not-checked""#)
    )]
    pub status: &'static str,
    /// The anchor the signer's path reached (absent when the key was not pinned).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub anchor: Option<String>,
    /// Why nothing was asked (`not-checked`), and what would have it asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub not_checked: Option<String>,
    /// One warning per outcome the `signerChain` rule let pass.
    pub warnings: Vec<String>,
    /// `ERR_SIGNER_REVOKED` or `ERR_SIGNER_REVOCATION_UNCONFIRMED` when refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub code: Option<&'static str>,
    /// What was refused and what to do.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub message: Option<String>,
    /// One entry per certificate asked about, in path order.
    pub certificates: Vec<OcspCertificateStatus>,
}

impl SignerOcspOptions {
    /// The signer of `kid` in `jwks`, pinned again at `now`: `None` under `signers: 'any'`.
    fn signer(&self, jwks: &Jwks, now: UnixTime) -> Result<Option<Arc<PinnedSigner>>, TokenError> {
        let nras = Signers::nras();
        let signers = self.signers.as_ref().unwrap_or(&nras);
        if signers.is_any() {
            // Checked before the key: an unpinned result names no key to find again.
            return Ok(None);
        }
        pin_now(jwks.select(self.kid.as_deref())?, signers, now)
    }

    /// How many requests [`Self::requests`] makes (a host that draws the nonces itself asks
    /// first).
    ///
    /// # Errors
    /// As [`Self::requests`].
    pub fn request_count(&self, jwks: &Jwks, now: UnixTime) -> Result<usize, TokenError> {
        Ok(self
            .signer(jwks, now)?
            .map_or(0, |signer| signer.ocsp_targets().len()))
    }

    /// The requests for the signer's path, each with its nonce from `nonces`, else from
    /// `fresh` (the caller's randomness). Empty when nothing can be asked.
    ///
    /// # Errors
    /// [`TokenError`]: the key is not in the key set, it does not pin (`ERR_SIGNER_*`), a
    /// request cannot be built, `nonces` is not one per request; or `fresh`'s error.
    pub fn requests<E: From<TokenError>>(
        &self,
        jwks: &Jwks,
        now: UnixTime,
        mut fresh: impl FnMut() -> Result<[u8; NONCE_LEN], E>,
    ) -> Result<Vec<SignerOcspRequest>, E> {
        let Some(signer) = self.signer(jwks, now)? else {
            return Ok(Vec::new());
        };
        let count = signer.ocsp_targets().len();
        if self
            .nonces
            .as_ref()
            .is_some_and(|nonces| nonces.len() != count)
        {
            return Err(TokenError::InvalidOption {
                field: "nonces",
                expected: "one nonce per request",
            }
            .into());
        }
        let mut given = self.nonces.iter().flatten();
        let mut nonces = Vec::with_capacity(count);
        for _ in 0..count {
            nonces.push(match given.next() {
                Some(OcspNonce(nonce)) => *nonce,
                None => fresh()?,
            });
        }
        // The targets are the certificates whose request builds: this does not fail.
        let targets = signer
            .ocsp_requests(nonces)
            .map_err(|_| TokenError::InvalidOption {
                field: "signers",
                expected: "anchors of a chain whose OCSP requests can be built",
            })?;
        Ok(targets
            .into_iter()
            .map(|target| SignerOcspRequest {
                request: ChainOcspRequest {
                    certificate: subject_name(signer.certificates_der(), target.index),
                    index: target.index,
                    cache_key: target.request.cache_key(),
                    request: target.request.der().to_vec(),
                    nonce: target.request.nonce().to_vec(),
                },
                url: target.url,
            })
            .collect())
    }

    /// Checks one answer per request of [`Self::requests`], in order, at `now`, and judges
    /// the signer's path under the policy's `signerChain` rule.
    ///
    /// # Errors
    /// [`TokenError`] as [`Self::requests`], or `answers` not one per request. A refusal by
    /// the policy is the status's `code`, not an error.
    pub fn check(
        &self,
        jwks: &Jwks,
        answers: &[Fetched],
        now: UnixTime,
    ) -> Result<SignerOcspStatus, TokenError> {
        let Some(signer) = self.signer(jwks, now)? else {
            return Ok(SignerOcspStatus::unpinned());
        };
        let targets = signer.ocsp_targets();
        if answers.len() != targets.len() {
            return Err(TokenError::InvalidOption {
                field: "answers",
                expected: "one answer per request",
            });
        }
        let mut results = Vec::with_capacity(answers.len());
        let mut certificates = Vec::with_capacity(answers.len());
        for ((index, _), answer) in targets.iter().zip(answers) {
            let result = check_one(&signer, *index, answer, now);
            certificates.push(OcspCertificateStatus::new(
                subject_name(signer.certificates_der(), *index),
                &result,
            ));
            results.push(result);
        }
        let rule = self
            .revocation
            .as_ref()
            .map_or_else(RevocationRule::default, |policy| policy.signer_chain);
        let mut out = SignerOcspStatus {
            status: "good",
            anchor: Some(signer.anchor().into()),
            not_checked: None,
            warnings: Vec::new(),
            code: None,
            message: None,
            certificates,
        };
        match signer.revocation(&results, &rule, now) {
            Ok(revocation) => {
                out.status = revocation.as_str();
                out.warnings = revocation.warnings();
                out.not_checked = revocation.not_checked_reason().map(String::from);
            }
            Err(error) => {
                out.status = match &error {
                    super::SignerError::Revoked { .. } => "revoked",
                    super::SignerError::RevocationUnconfirmed { status, .. } => status,
                    _ => "failed",
                };
                out.code = Some(error.code());
                out.message = Some(error.to_string());
            }
        }
        Ok(out)
    }
}

impl SignerOcspStatus {
    /// The status of a key verified without pinning: there is no trusted path to ask about.
    fn unpinned() -> Self {
        Self {
            status: "not-checked",
            anchor: None,
            not_checked: Some(
                "the result was verified without pinning (signers: 'any'): no trusted chain to \
                 ask about; pin the signer to have its chain asked"
                    .into(),
            ),
            warnings: Vec::new(),
            code: None,
            message: None,
            certificates: Vec::new(),
        }
    }
}

/// The checked answer about path certificate `index`.
fn check_one(
    signer: &PinnedSigner,
    index: usize,
    answer: &Fetched,
    now: UnixTime,
) -> Result<CheckedOcsp, OcspError> {
    let (Some(subject), Some(issuer)) = (
        signer.certificates_der().get(index),
        signer.issuer_der(index),
    ) else {
        return Err(OcspError::InvalidCertificate { which: "subject" });
    };
    // The request only names the certificate here: the nonce compared is the answer's.
    let request = OcspRequest::new(subject, issuer, [0; NONCE_LEN])?;
    check_fetched(answer, &request, issuer, now)
}
