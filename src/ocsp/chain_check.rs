//! OCSP for a chain given as PEM text by a host that does its own HTTP (the JS
//! `ocspRequests` / `checkOcspResponses`, or a Rust caller with serde): the options, the
//! requests, the answers checked, and the report of the chain's status. One rule for both:
//! the binding only converts values.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{
    check_response, fold_chain, ocsp_targets, CertRevocation, ChainKind, ChainRevocation,
    CheckedOcsp, OcspError, OcspRequest, Relaxation, RevocationComponent, RevocationRule,
    NONCE_LEN,
};
use crate::chain::parse_pem_chain;
use crate::error_code::ErrorCode;
use crate::host_answer::Fetched;
use crate::time::UnixTime;
use crate::x509::{Cert, CertPosition, ChainError};

/// The options of a chain's requests (the JS `OcspRequestsOptions`): which certificates
/// (`kind`, required), and optionally the nonces, one per request (default: fresh ones from
/// the caller's randomness).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OcspRequestsOptions {
    /// `device` or `rim`; absent is refused by [`OcspRequestsOptions::requests`] (naming
    /// `kind`).
    #[cfg_attr(feature = "ts", ts(as = "ChainKind"))]
    pub kind: Option<ChainKind>,
    /// One nonce per request, in chain order.
    #[cfg_attr(feature = "ts", ts(optional, type = "Uint8Array[]"))]
    pub nonces: Option<Vec<OcspNonce>>,
}

/// The options of checking a chain's answers (the JS `CheckOcspOptions`): the chain's
/// revocation rule (default strict, as NVIDIA's service), and the component it is, which
/// names the chain in the warnings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CheckOcspOptions {
    /// What passes besides `good`, each with a warning; default strict.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub rule: Option<RevocationRule>,
    /// Shorthand for `rule.allowHold` (kept from before `rule`): `true` counts
    /// `certificateHold` as good with a warning, as `X-NVIDIA-OCSP-ALLOW-CERT-HOLD` asks.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub allow_hold: Option<bool>,
    /// The component the chain is (names it in the warnings); default by `kind`: a device
    /// chain, or "RIM chain".
    #[cfg_attr(feature = "ts", ts(optional))]
    pub component: Option<RevocationComponent>,
}

/// A 32-byte request nonce as a host writes it: bytes, an array of 32 integers, or 64 hex
/// digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OcspNonce(pub [u8; NONCE_LEN]);

/// One request of a chain (the JS `OcspRequestJs`): POST `request` as
/// `application/ocsp-request`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "OcspRequestJs"))]
#[serde(rename_all = "camelCase")]
pub struct ChainOcspRequest {
    /// The certificate asked about: its subject commonName (its whole subject without one).
    pub certificate: String,
    /// Its index in the chain (leaf 0); its issuer is `index + 1`.
    pub index: usize,
    /// Names the certificate, not the request ([`OcspRequest::cache_key`]).
    pub cache_key: String,
    /// The DER `OCSPRequest`: a fresh buffer (`buffer: ArrayBuffer`) in JS, so that
    /// TypeScript's DOM types take it as a fetch body.
    #[serde(serialize_with = "bytes")]
    #[cfg_attr(
        feature = "ts",
        ts(type = "Uint8Array & { readonly buffer: ArrayBuffer }")
    )]
    pub request: Vec<u8>,
    /// Its nonce.
    #[serde(serialize_with = "bytes")]
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array"))]
    pub nonce: Vec<u8>,
}

/// A chain's status from its answers (the JS `OcspChainStatus`): `good` only if every
/// certificate is; else the first certificate that is not decides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OcspChainStatus {
    /// The folded status itself.
    #[serde(skip)]
    pub revocation: ChainRevocation,
    /// `good`, `revoked`, `unknown` or `failed`.
    #[cfg_attr(feature = "ts", ts(type = "OcspStatusJs"))]
    pub status: &'static str,
    /// A held certificate was accepted (`allowHold`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub held: Option<bool>,
    /// One warning per non-good outcome the rule let pass, in chain order (empty when
    /// strictly good or not good).
    pub warnings: Vec<String>,
    /// The CRL reason of a revoked chain, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub reason: Option<&'static str>,
    /// Why a failed chain's status could not be had (`ERR_OCSP_*`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub code: Option<&'static str>,
    /// The real service's code when not good: 5002, 5003 or 5001.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub service_code: Option<u16>,
    /// One entry per certificate asked about, in chain order.
    pub certificates: Vec<OcspCertificateStatus>,
}

/// One certificate's answer: its status and times (`thisUpdate`, `nextUpdate` null when it
/// failed), or the failure's code and message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OcspCertificateStatus {
    /// Its subject commonName (its whole subject without one).
    pub subject: String,
    /// `good`, `revoked`, `unknown` or `failed`.
    #[cfg_attr(feature = "ts", ts(type = "OcspStatusJs"))]
    pub status: &'static str,
    /// The CRL reason of a revoked certificate, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub reason: Option<&'static str>,
    /// revocationTime, Unix seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub revoked_at: Option<UnixTime>,
    /// thisUpdate, Unix seconds; `None` when it failed.
    pub this_update: Option<UnixTime>,
    /// nextUpdate, Unix seconds, when given.
    pub next_update: Option<UnixTime>,
    /// `matched` or `not-echoed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = r#""matched" | "not-echoed""#))]
    pub nonce: Option<&'static str>,
    /// Until when a host may cache the response, Unix seconds (0: do not).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub cache_until: Option<UnixTime>,
    /// Why the response was not believed, or could not be had.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub code: Option<&'static str>,
    /// The same, for people.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub message: Option<String>,
}

/// Arguments a chain's requests or checks cannot use. Each names the argument at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OcspInputError {
    /// `chainPem` is not a PEM certificate list.
    Chain(ChainError),
    /// A certificate asked about has no issuer in `chainPem`.
    MissingIssuer,
    /// No `kind` was given.
    Kind,
    /// `nonces` does not hold one nonce per request.
    NonceCount {
        /// The number of requests.
        expected: usize,
    },
    /// `answers` does not hold one answer per request.
    AnswerCount {
        /// The number of requests.
        expected: usize,
    },
    /// A certificate of the chain cannot be asked about.
    Request(OcspError),
}

impl fmt::Display for OcspInputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Chain(error) => error.fmt(f),
            Self::MissingIssuer => {
                f.write_str("chainPem must be a chain with the issuer of each certificate")
            }
            Self::Kind => f.write_str("kind must be \"device\" or \"rim\""),
            Self::NonceCount { expected } => write!(
                f,
                "nonces must be an array of {expected} nonces, one per request"
            ),
            Self::AnswerCount { expected } => {
                write!(f, "answers must be one answer per request ({expected})")
            }
            Self::Request(error) => error.fmt(f),
        }
    }
}

impl core::error::Error for OcspInputError {}

impl ErrorCode for OcspInputError {
    fn code(&self) -> &'static str {
        match self {
            Self::Chain(error) => error.code(),
            Self::Request(error) => error.code(),
            _ => "ERR_INVALID_ARGUMENT",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::Chain(error) => error.field(),
            Self::Request(error) => error.field(),
            Self::MissingIssuer => Some("chainPem"),
            Self::Kind => Some("kind"),
            Self::NonceCount { .. } => Some("nonces"),
            Self::AnswerCount { .. } => Some("answers"),
        }
    }
}

impl OcspRequestsOptions {
    /// The requests for the certificates of `chain_pem` (leaf first) that `kind` asks about,
    /// each with its nonce from `nonces`, else from `fresh` (the caller's randomness; the
    /// core has none). `E` is the caller's error, which `fresh` may fail with.
    ///
    /// # Errors
    /// [`OcspInputError`] (as `E`), or `fresh`'s error.
    pub fn requests<E: From<OcspInputError>>(
        &self,
        chain_pem: &str,
        mut fresh: impl FnMut() -> Result<[u8; NONCE_LEN], E>,
    ) -> Result<Vec<ChainOcspRequest>, E> {
        let chain = read_chain(chain_pem)?;
        let targets = ocsp_targets(chain.len(), self.kind.ok_or(OcspInputError::Kind)?);
        if let Some(nonces) = &self.nonces {
            if nonces.len() != targets.len() {
                let expected = targets.len();
                return Err(OcspInputError::NonceCount { expected }.into());
            }
        }
        let mut out = Vec::with_capacity(targets.len());
        for (n, index) in targets.enumerate() {
            let nonce = match self.nonces.as_ref().and_then(|list| list.get(n)) {
                Some(OcspNonce(nonce)) => *nonce,
                None => fresh()?,
            };
            let request = build(&chain, index, nonce)?;
            out.push(ChainOcspRequest {
                certificate: subject_name(&chain, index),
                index,
                cache_key: request.cache_key(),
                request: request.der().to_vec(),
                nonce: request.nonce().to_vec(),
            });
        }
        Ok(out)
    }
}

impl CheckOcspOptions {
    /// Checks one answer per request of [`OcspRequestsOptions::requests`] for `chain_pem`
    /// and `kind`, in the same order, at `now` (Unix seconds), with the software signature
    /// backend, and folds them into the chain's status. The chain itself is not verified
    /// here: only revocation. An answer with a body but no nonce is compared with no nonce
    /// (its response may echo none).
    ///
    /// # Errors
    /// [`OcspInputError`]; a response that is not believed is a certificate's `failed`
    /// status, not an error.
    pub fn check(
        &self,
        chain_pem: &str,
        kind: ChainKind,
        answers: &[Fetched],
        now: UnixTime,
    ) -> Result<OcspChainStatus, OcspInputError> {
        let chain = read_chain(chain_pem)?;
        let targets = ocsp_targets(chain.len(), kind);
        if answers.len() != targets.len() {
            let expected = targets.len();
            return Err(OcspInputError::AnswerCount { expected });
        }
        let mut results = Vec::with_capacity(answers.len());
        let mut certificates = Vec::with_capacity(answers.len());
        for (index, answer) in targets.zip(answers) {
            let result = check_one(&chain, index, answer, now)?;
            certificates.push(OcspCertificateStatus::new(
                subject_name(&chain, index),
                &result,
            ));
            results.push(result);
        }
        let revocation = fold_chain(&results, &self.effective_rule(), now);
        let mut status = OcspChainStatus::new(revocation, certificates);
        status.warnings = status
            .revocation
            .relaxations()
            .iter()
            .map(|relaxation| match self.component {
                Some(component) => relaxation.warning(component),
                None => relaxation.warning_about(match kind {
                    ChainKind::Device => RevocationComponent::DeviceChain.describe(),
                    ChainKind::Rim => "RIM chain",
                }),
            })
            .collect();
        Ok(status)
    }

    /// `rule` (default strict) with `allowHold` turned on by the shorthand.
    pub fn effective_rule(&self) -> RevocationRule {
        let mut rule = self.rule.unwrap_or_default();
        rule.allow_hold |= self.allow_hold.unwrap_or(false);
        rule
    }
}

impl OcspChainStatus {
    /// The report of `revocation`, with its certificates' entries.
    pub fn new(revocation: ChainRevocation, certificates: Vec<OcspCertificateStatus>) -> Self {
        Self {
            status: revocation.as_str(),
            held: revocation
                .relaxations()
                .contains(&Relaxation::Held)
                .then_some(true),
            warnings: Vec::new(),
            reason: match &revocation {
                ChainRevocation::Revoked {
                    reason: Some(reason),
                } => Some(reason.as_str()),
                _ => None,
            },
            code: match &revocation {
                ChainRevocation::Failed(error) => Some(error.code()),
                _ => None,
            },
            service_code: revocation.service_code(),
            certificates,
            revocation,
        }
    }
}

impl OcspCertificateStatus {
    /// The entry of certificate `subject` for its checked response, or why there is none.
    pub fn new(subject: String, result: &Result<CheckedOcsp, OcspError>) -> Self {
        let mut out = Self {
            subject,
            status: "failed",
            reason: None,
            revoked_at: None,
            this_update: None,
            next_update: None,
            nonce: None,
            cache_until: None,
            code: None,
            message: None,
        };
        match result {
            Ok(checked) => {
                out.status = checked.status.as_str();
                if let CertRevocation::Revoked { reason, at } = checked.status {
                    out.reason = reason.map(|reason| reason.as_str());
                    out.revoked_at = Some(at);
                }
                out.this_update = Some(checked.this_update);
                out.next_update = checked.next_update;
                out.nonce = Some(checked.nonce.as_str());
                out.cache_until = Some(checked.cache_until);
            }
            Err(error) => {
                out.code = Some(error.code());
                out.message = Some(error.to_string());
            }
        }
        out
    }
}

/// The checked answer about certificate `index`, or why there is none.
fn check_one(
    chain: &[Vec<u8>],
    index: usize,
    answer: &Fetched,
    now: UnixTime,
) -> Result<Result<CheckedOcsp, OcspError>, OcspInputError> {
    // The request only names the certificate here: the nonce compared is the answer's.
    let request = build(chain, index, [0; NONCE_LEN])?;
    let issuer = chain
        .get(index.saturating_add(1))
        .map(Vec::as_slice)
        .unwrap_or_default();
    Ok(check_fetched(answer, &request, issuer, now))
}

/// A host's answer about `request`'s certificate, checked at `now` with the software
/// signature backend: a fetch that failed is [`OcspError::Unavailable`]; a body fetched now
/// is compared with no nonce (its response may echo none), a cached one with the nonce it was
/// fetched with.
pub(crate) fn check_fetched(
    answer: &Fetched,
    request: &OcspRequest,
    issuer_der: &[u8],
    now: UnixTime,
) -> Result<CheckedOcsp, OcspError> {
    let (body, nonce) = match answer {
        Fetched::Failed(failure) => return Err(OcspError::Unavailable(*failure)),
        Fetched::Body(body) => (body, &[][..]),
        Fetched::Cached { body, nonce } => (body, nonce.as_slice()),
        // A local check has no stale-if-error: a kept answer must still be valid.
        Fetched::Stale { body, nonce } => (body, nonce.as_deref().unwrap_or_default()),
    };
    check_response(body, request, nonce, issuer_der, now).and_then(|p| p.verify_in_core())
}

fn read_chain(pem: &str) -> Result<Vec<Vec<u8>>, OcspInputError> {
    parse_pem_chain(pem).map_err(OcspInputError::Chain)
}

fn build(
    chain: &[Vec<u8>],
    index: usize,
    nonce: [u8; NONCE_LEN],
) -> Result<OcspRequest, OcspInputError> {
    let (Some(subject), Some(issuer)) = (chain.get(index), chain.get(index.saturating_add(1)))
    else {
        return Err(OcspInputError::MissingIssuer);
    };
    OcspRequest::new(subject, issuer, nonce).map_err(OcspInputError::Request)
}

/// The subject's commonName, or its whole subject when it has none: how a request and a
/// certificate's status name the certificate.
pub(crate) fn subject_name(chain: &[Vec<u8>], index: usize) -> String {
    chain
        .get(index)
        .and_then(|der| Cert::parse(der, CertPosition::Chain(index)).ok())
        .map(|cert| cert.common_name.unwrap_or(cert.subject_text))
        .unwrap_or_default()
}

fn bytes<S: Serializer>(value: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_bytes(value)
}

impl<'de> Deserialize<'de> for OcspNonce {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Read as every byte member is read (bytes, an array of bytes, hex), then sized.
        let crate::bytes::HexBytes(bytes) = crate::bytes::HexBytes::deserialize(deserializer)?;
        let len = bytes.len();
        bytes.try_into().map(OcspNonce).map_err(|_| {
            serde::de::Error::invalid_length(
                len,
                &"32 bytes (bytes, an array of bytes or hex text)",
            )
        })
    }
}
