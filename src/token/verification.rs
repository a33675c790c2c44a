//! One verification of either kind between its phases ([`PreparedToken`]): what a host holds
//! while its backend runs the signature checks, completed through [`Deferred`] like every
//! other two-phase verifier.

use super::{AttestationReport, PreparedAttestationResult, PreparedJwt, TokenError, VerifiedJwt};
use crate::crypto::{Deferred, SignatureCheck};

/// A prepared JWT or attestation-result verification.
#[derive(Clone, Debug)]
pub enum PreparedToken {
    /// A compact JWT ([`PreparedJwt`]).
    Jwt(PreparedJwt),
    /// An attestation result ([`PreparedAttestationResult`]).
    Result(PreparedAttestationResult),
}

/// What a [`PreparedToken`] completes with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenVerdict {
    /// The verified JWT.
    Jwt(VerifiedJwt),
    /// Every token's verdict: [`AttestationReport::into_verified`] gives the proof type or
    /// the first failure.
    Result(AttestationReport),
}

impl From<PreparedJwt> for PreparedToken {
    fn from(jwt: PreparedJwt) -> Self {
        Self::Jwt(jwt)
    }
}

impl From<PreparedAttestationResult> for PreparedToken {
    fn from(result: PreparedAttestationResult) -> Self {
        Self::Result(result)
    }
}

impl Deferred for PreparedToken {
    type Output = TokenVerdict;
    type Error = TokenError;

    fn signature_checks(&self) -> &[SignatureCheck] {
        match self {
            Self::Jwt(jwt) => Deferred::signature_checks(jwt),
            Self::Result(result) => result.signature_checks(),
        }
    }

    /// A JWT's verdict, or a result's report with every token's verdict.
    ///
    /// # Errors
    /// [`TokenError::VerdictCount`]; for a JWT, its own failure.
    fn finish(self, verdicts: &[bool]) -> Result<TokenVerdict, TokenError> {
        match self {
            Self::Jwt(jwt) => Deferred::finish(jwt, verdicts).map(TokenVerdict::Jwt),
            Self::Result(result) => result.report(verdicts).map(TokenVerdict::Result),
        }
    }
}
