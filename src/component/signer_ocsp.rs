//! The signer chain's OCSP in `edgeattest:verifier/ocsp`: the requests for the path of the key
//! that signed a result, and the verdict on the host's answers, by the core's
//! [`SignerOcspOptions`] (the JS `signerOcspRequests` / `checkSignerOcsp`). The options are
//! the JS API's JSON; the nonces are the host's: no randomness here.

use alloc::vec::Vec;

use super::exports::edgeattest::verifier::ocsp::{
    OcspAnswer, SignerOcspRequest, SignerOcspState, SignerOcspStatus,
};
use super::ocsp_values::{answers_in, certificate_out, json_options, nonces_in};
use super::{checked_now, coded, invalid, WitError};
use crate::time::UnixTime;
use crate::token::{Jwks, SignerOcspOptions, TokenError};

/// How many requests [`requests`] writes for these options.
pub(super) fn request_count(jwks: &[u8], options: Option<&str>, now: u64) -> Result<u32, WitError> {
    let (jwks, options, now) = read(jwks, options, now)?;
    let count = options.request_count(&jwks, now).map_err(|e| coded(&e))?;
    Ok(u32::try_from(count).unwrap_or(u32::MAX))
}

/// The requests, each with its nonce: `nonces`, or the options' own.
pub(super) fn requests(
    jwks: &[u8],
    options: Option<&str>,
    now: u64,
    nonces: &[Vec<u8>],
) -> Result<Vec<SignerOcspRequest>, WitError> {
    let given = nonces_in(nonces)?;
    let (jwks, mut options, now) = read(jwks, options, now)?;
    match (options.nonces.is_some(), given.is_empty()) {
        (true, false) => return Err(invalid("nonces", "empty when options carries nonces")),
        (true, true) => {}
        (false, _) => options.nonces = Some(given),
    }
    // Every nonce is given (the core refuses a count that does not match), so the core never
    // asks for a fresh one.
    let requests = options
        .requests(&jwks, now, || {
            Err(TokenError::InvalidOption {
                field: "nonces",
                expected: "one nonce per request",
            })
        })
        .map_err(|e| coded(&e))?;
    Ok(requests
        .into_iter()
        .map(|r| SignerOcspRequest {
            url: r.url,
            certificate: r.request.certificate,
            index: u32::try_from(r.request.index).unwrap_or(u32::MAX),
            cache_key: r.request.cache_key,
            request: r.request.request,
            nonce: r.request.nonce,
        })
        .collect())
}

/// The verdict on one answer per request, as the core gives it.
pub(super) fn check(
    jwks: &[u8],
    answers: Vec<OcspAnswer>,
    now: u64,
    options: Option<&str>,
) -> Result<SignerOcspStatus, WitError> {
    let (jwks, options, now) = read(jwks, options, now)?;
    let answers = answers_in(answers)?;
    let status = options.check(&jwks, &answers, now).map_err(|e| coded(&e))?;
    Ok(SignerOcspStatus {
        status: match status.status {
            "good" => SignerOcspState::Good,
            "revoked" => SignerOcspState::Revoked,
            "unknown" => SignerOcspState::Unknown,
            "not-checked" => SignerOcspState::NotChecked,
            _ => SignerOcspState::Failed,
        },
        anchor: status.anchor,
        not_checked: status.not_checked,
        warnings: status.warnings,
        code: status.code.map(Into::into),
        message: status.message,
        certificates: status
            .certificates
            .into_iter()
            .map(certificate_out)
            .collect(),
    })
}

/// The key set, the options (the core's [`SignerOcspOptions`] read from the JS API's JSON)
/// and `now`.
fn read(
    jwks: &[u8],
    options: Option<&str>,
    now: u64,
) -> Result<(Jwks, SignerOcspOptions, UnixTime), WitError> {
    let now = checked_now(now)?;
    let jwks = Jwks::parse(jwks).map_err(|e| coded(&e))?;
    let options = json_options(options, "SignerOcspOptions")?;
    Ok((jwks, options, now))
}
