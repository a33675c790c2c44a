//! The `token-verification` resource (the JS `TokenVerification`): a JWT or attestation
//! result between its two phases. `checks` go to the host's crypto; `finish(verdicts)`
//! completes it with the same outcomes as `verify-jwt` / `verify-attestation-result`.

use alloc::vec::Vec;

use super::exports::edgeattest::verifier::token::{
    GuestTokenVerification, ResultError, TokenVerification as WitVerification, VerifiedToken,
    VerifyOptions,
};
use super::exports::edgeattest::verifier::types::SignatureCheck;
use super::pending::Pending;
use super::token_values::{input, jwt_out, result_out};
use super::{checked_now, coded, WitError};
use crate::crypto::Deferred;
use crate::token::{Jwks, PreparedToken, TokenError, TokenVerdict};

pub(super) struct Verification(Pending<PreparedToken>);

impl GuestTokenVerification for Verification {
    fn checks(&self) -> Result<Vec<SignatureCheck>, WitError> {
        self.0.checks()
    }

    fn finish(&self, verdicts: Vec<bool>) -> Result<VerifiedToken, ResultError> {
        let prepared = self.0.take().map_err(ResultError::Coded)?;
        verdict_out(Deferred::finish(prepared, &verdicts))
    }

    fn verify_software(&self) -> Result<VerifiedToken, ResultError> {
        let prepared = self.0.take().map_err(ResultError::Coded)?;
        verdict_out(prepared.finish_in_software())
    }
}

/// What phase one reads: a compact JWT, or an attestation result (either shape, JSON).
pub(super) enum Token<'a> {
    Jwt(&'a str),
    Result(&'a [u8]),
}

/// Phase one of either kind: the token parsed, its key chosen, its claims not yet read.
pub(super) fn prepare(
    token: Token<'_>,
    jwks: &[u8],
    options: VerifyOptions,
) -> Result<WitVerification, WitError> {
    let now = checked_now(options.now)?;
    let jwks = Jwks::parse(jwks).map_err(|e| coded(&e))?;
    let input = input(options).map_err(|e| coded(&e))?;
    let prepared: PreparedToken = match token {
        Token::Jwt(jwt) => input.prepare_jwt(jwt, &jwks, now).map(Into::into),
        Token::Result(result) => input
            .prepare_attestation_result(result, &jwks, now)
            .map(Into::into),
    }
    .map_err(|e| coded(&e))?;
    Ok(WitVerification::new(Verification(Pending::new(
        prepared,
        "verification",
    ))))
}

/// A JWT, or a result's first failure (with every token's verdict) / refused verdict /
/// authentic pass (the JS `verdict_js`'s order).
pub(super) fn verdict_out(
    verdict: Result<TokenVerdict, TokenError>,
) -> Result<VerifiedToken, ResultError> {
    match verdict.map_err(|e| ResultError::Coded(coded(&e)))? {
        TokenVerdict::Jwt(jwt) => Ok(VerifiedToken::Jwt(
            jwt_out(&jwt).map_err(ResultError::Coded)?,
        )),
        TokenVerdict::Result(report) => result_out(report).map(VerifiedToken::AttestationResult),
    }
}
