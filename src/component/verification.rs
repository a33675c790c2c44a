//! The `token-verification` resource (the JS `TokenVerification`): a JWT or attestation
//! result between its two phases. `checks` go to the host's crypto; `finish(verdicts)`
//! completes it with the same outcomes as `verify-jwt` / `verify-attestation-result`.

use alloc::vec::Vec;

use super::exports::edgeattest::verifier::token::{
    AttestationResult as WitResult, GuestTokenVerification, Rejection, ResultError,
    TokenVerdict as WitVerdict, TokenVerification as WitVerification, VerifiedToken, VerifyOptions,
};
use super::exports::edgeattest::verifier::types::SignatureCheck;
use super::pending::Pending;
use super::token::{input, jwt_out, level_out, refusal, Verified};
use super::{checked_now, coded, json, WitError};
use crate::crypto::Deferred;
use crate::token::check::{failure_message, TokenCheck};
use crate::token::{
    AttestationReport, Jwks, PreparedToken, TokenError, TokenVerdict, VerdictLevel,
    VerifiedJwt as CoreJwt,
};

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
    let input = input(options);
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

/// A result's report: its first token failure is `rejected` with every verdict, a verdict
/// that is not a pass `refused`, else the authentic result.
pub(super) fn result_out(report: AttestationReport) -> Result<WitResult, ResultError> {
    if let Some(error) = report.first_error() {
        return Err(ResultError::Rejected(Rejection {
            error: coded(&error),
            verdicts: verdicts(&report),
            level: VerdictLevel::of_token_failures(&report).map(level_out),
        }));
    }
    match report.into_verified() {
        Ok(verified) => Ok(Verified::handle(alloc::boxed::Box::new(verified))),
        Err(error) => Err(refusal(error)),
    }
}

/// The overall token's verdict, then each device's.
fn verdicts(report: &AttestationReport) -> Vec<WitVerdict> {
    let one =
        |label: Option<&str>, digest: Option<&str>, outcome: Result<&CoreJwt, &TokenError>| {
            WitVerdict {
                label: label.map(Into::into),
                error: outcome.err().map(coded),
                stage: outcome
                    .err()
                    .map(|error| TokenCheck::of(error).as_str().into()),
                message: outcome.err().map(failure_message),
                held: TokenCheck::held(outcome.err().map(TokenCheck::of))
                    .map(Into::into)
                    .collect(),
                digest: digest.map(Into::into),
                claims: outcome.ok().and_then(|jwt| json(jwt.claims()).ok()),
            }
        };
    let mut out = alloc::vec![one(None, None, report.overall())];
    out.extend(
        report
            .devices()
            .iter()
            .map(|device| one(Some(device.label()), device.digest(), device.outcome())),
    );
    out
}
