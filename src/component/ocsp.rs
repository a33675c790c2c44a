//! `edgeattest:verifier/ocsp`: a chain's OCSP requests and the check of the responses the
//! host fetched, by the core's [`OcspRequestsOptions`] and [`CheckOcspOptions`] (the JS
//! `ocspRequests` / `checkOcspResponses`; the check's options are the JS API's JSON), and the
//! signer chain's ([`super::signer_ocsp`]). The nonces are the host's: no randomness here.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::de::DeserializeOwned;

use super::args::{Arg, Members};
use super::exports::edgeattest::verifier::ocsp::{
    ChainKind as WitKind, FetchFailure, Guest, NonceCheck, OcspAnswer, OcspCertificateStatus,
    OcspChainStatus, OcspRequest, OcspStatus, SignerOcspRequest, SignerOcspStatus,
};
use super::signer_ocsp;
use super::{at_most, checked_now, coded, invalid, Verifier, WitError};
use crate::chain::{parse_pem_chain, MAX_CHAIN_CERTIFICATES};
use crate::host_answer::{FetchAnswer, Fetched};
use crate::ocsp::{
    ocsp_targets, ChainKind, ChainRevocation, CheckOcspOptions,
    OcspCertificateStatus as CoreCertificateStatus, OcspInputError, OcspNonce, OcspRequestsOptions,
    NONCE_LEN,
};
use crate::time::UnixTime;

impl Guest for Verifier {
    fn ocsp_request_count(chain_pem: String, kind: WitKind) -> Result<u32, WitError> {
        let chain = parse_pem_chain(&chain_pem).map_err(|e| coded(&OcspInputError::Chain(e)))?;
        let count = ocsp_targets(chain.len(), kind_in(kind)).len();
        Ok(u32::try_from(count).unwrap_or(u32::MAX))
    }

    fn ocsp_requests(
        chain_pem: String,
        kind: WitKind,
        nonces: Vec<Vec<u8>>,
    ) -> Result<Vec<OcspRequest>, WitError> {
        let nonces = nonces_in(&nonces)?;
        let options = OcspRequestsOptions {
            kind: Some(kind_in(kind)),
            nonces: Some(nonces),
        };
        // Every nonce is given (the core refuses a count that does not match), so the core
        // never asks for a fresh one.
        let requests = options
            .requests(&chain_pem, || {
                Err(OcspInputError::NonceCount { expected: 0 })
            })
            .map_err(|e| coded(&e))?;
        Ok(requests
            .into_iter()
            .map(|r| OcspRequest {
                certificate: r.certificate,
                index: u32::try_from(r.index).unwrap_or(u32::MAX),
                cache_key: r.cache_key,
                request: r.request,
                nonce: r.nonce,
            })
            .collect())
    }

    fn check_ocsp_responses(
        chain_pem: String,
        kind: WitKind,
        answers: Vec<OcspAnswer>,
        now: u64,
        options: Option<String>,
    ) -> Result<OcspChainStatus, WitError> {
        let now = checked_now(now)?;
        let options: CheckOcspOptions = json_options(options.as_deref(), "CheckOcspOptions")?;
        let answers = answers_in(answers)?;
        let status = options
            .check(&chain_pem, kind_in(kind), &answers, now)
            .map_err(|e| coded(&e))?;
        Ok(OcspChainStatus {
            status: match status.revocation {
                ChainRevocation::Good { .. } => OcspStatus::Good,
                ChainRevocation::Revoked { .. } => OcspStatus::Revoked,
                ChainRevocation::Unknown => OcspStatus::Unknown,
                ChainRevocation::Failed(_) => OcspStatus::Failed,
            },
            held: status.held == Some(true),
            reason: status.reason.map(Into::into),
            code: status.code.map(Into::into),
            service_code: status.service_code,
            warnings: status.warnings.clone(),
            certificates: status
                .certificates
                .into_iter()
                .map(certificate_out)
                .collect(),
        })
    }

    fn signer_ocsp_request_count(
        jwks: Vec<u8>,
        options: Option<String>,
        now: u64,
    ) -> Result<u32, WitError> {
        signer_ocsp::request_count(&jwks, options.as_deref(), now)
    }

    fn signer_ocsp_requests(
        jwks: Vec<u8>,
        options: Option<String>,
        now: u64,
        nonces: Vec<Vec<u8>>,
    ) -> Result<Vec<SignerOcspRequest>, WitError> {
        signer_ocsp::requests(&jwks, options.as_deref(), now, &nonces)
    }

    fn check_signer_ocsp(
        jwks: Vec<u8>,
        answers: Vec<OcspAnswer>,
        now: u64,
        options: Option<String>,
    ) -> Result<SignerOcspStatus, WitError> {
        signer_ocsp::check(&jwks, answers, now, options.as_deref())
    }
}

/// One certificate's answer, member for member.
pub(super) fn certificate_out(c: CoreCertificateStatus) -> OcspCertificateStatus {
    OcspCertificateStatus {
        subject: c.subject,
        status: status_in(c.status),
        reason: c.reason.map(Into::into),
        revoked_at: c.revoked_at.map(UnixTime::as_secs),
        this_update: c.this_update.map(UnixTime::as_secs),
        next_update: c.next_update.map(UnixTime::as_secs),
        nonce: c.nonce.map(|nonce| match nonce {
            "matched" => NonceCheck::Matched,
            _ => NonceCheck::NotEchoed,
        }),
        cache_until: c.cache_until.map(UnixTime::as_secs),
        code: c.code.map(Into::into),
        message: c.message,
    }
}

/// A function's `options`: the JS API's options as JSON, read by the core's serde type `T`
/// (`name` in the error); none is `T`'s default.
pub(super) fn json_options<T: DeserializeOwned + Default>(
    options: Option<&str>,
    name: &str,
) -> Result<T, WitError> {
    options.map_or_else(
        || Ok(T::default()),
        |text| {
            crate::json::from_slice(text.as_bytes())
                .map_err(|e| invalid("options", alloc::format!("{name} (JSON): {e}")))
        },
    )
}

/// The host's nonces, one per request, each 32 bytes (their count bounded first).
pub(super) fn nonces_in(nonces: &[Vec<u8>]) -> Result<Vec<OcspNonce>, WitError> {
    at_most(nonces, MAX_CHAIN_CERTIFICATES, "nonces")?;
    nonces
        .iter()
        .enumerate()
        .map(|(n, nonce)| {
            <[u8; NONCE_LEN]>::try_from(nonce.as_slice())
                .map(OcspNonce)
                .map_err(|_| invalid(&alloc::format!("nonces[{n}]"), "32 bytes"))
        })
        .collect()
}

/// The host's answers, one per request, as the core's [`Fetched`] (their count bounded
/// first).
pub(super) fn answers_in(answers: Vec<OcspAnswer>) -> Result<Vec<Fetched>, WitError> {
    at_most(&answers, MAX_CHAIN_CERTIFICATES, "answers")?;
    answers
        .into_iter()
        .enumerate()
        .map(|(n, answer)| answer_in(n, answer))
        .collect()
}

fn kind_in(kind: WitKind) -> ChainKind {
    match kind {
        WitKind::Device => ChainKind::Device,
        WitKind::Rim => ChainKind::Rim,
    }
}

fn status_in(status: &str) -> OcspStatus {
    match status {
        "good" => OcspStatus::Good,
        "revoked" => OcspStatus::Revoked,
        "unknown" => OcspStatus::Unknown,
        _ => OcspStatus::Failed,
    }
}

/// One answer as the core's [`Fetched`]: a response is moved, not copied; a failure is read
/// by the core's [`FetchAnswer`] (its `status` range and its reading of each failure).
fn answer_in(n: usize, answer: OcspAnswer) -> Result<Fetched, WitError> {
    let read = match answer {
        OcspAnswer::Response(response) => FetchAnswer {
            body: Some(crate::bytes::HexBytes(response.body)),
            nonce: response.nonce.map(crate::bytes::HexBytes),
            error: None,
            status: None,
        },
        OcspAnswer::Failed(failure) => {
            let (error, status) = match failure {
                FetchFailure::Unreachable => ("unreachable", None),
                FetchFailure::Timeout => ("timeout", None),
                FetchFailure::HttpStatus(status) => ("status", Some(u64::from(status))),
                FetchFailure::TooLarge => ("too-large", None),
                FetchFailure::NotFetched => ("not-fetched", None),
            };
            Members::new()
                .with("error", Arg::Str(error))
                .with_some("status", status.map(Arg::U64))
                .read::<FetchAnswer>()
                .map_err(|e| WitError {
                    code: "ERR_INVALID_ARGUMENT".into(),
                    field: Some(alloc::format!("answers[{n}]")),
                    message: e.to_string(),
                })?
        }
    };
    read.fetched().map_err(|e| {
        let mut error = coded(&e);
        error.field = Some(alloc::format!("answers[{n}]"));
        error
    })
}
