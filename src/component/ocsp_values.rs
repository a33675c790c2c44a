//! The OCSP interface's values: the host's answers, nonces and JSON options as the core's
//! inputs, and the core's certificate statuses as WIT values. The chain functions (`ocsp.rs`)
//! and the signer chain's (`signer_ocsp.rs`) both use them.

use alloc::string::ToString;
use alloc::vec::Vec;

use serde::de::DeserializeOwned;

use super::args::{Arg, Members};
use super::exports::edgeattest::verifier::ocsp::{
    ChainKind as WitKind, FetchFailure, NonceCheck, OcspAnswer, OcspCertificateStatus, OcspStatus,
};
use super::{at_most, coded, invalid, WitError};
use crate::chain::MAX_CHAIN_CERTIFICATES;
use crate::host_answer::{FetchAnswer, Fetched};
use crate::ocsp::{
    ChainKind, OcspCertificateStatus as CoreCertificateStatus, OcspNonce, NONCE_LEN,
};
use crate::time::UnixTime;

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

pub(super) fn kind_in(kind: WitKind) -> ChainKind {
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
            ..FetchAnswer::default()
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
