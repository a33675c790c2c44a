//! `edgeattest:verifier/token`: ES384 JWTs and NRAS attestation results against a JWKS, read
//! by the core's [`VerifyInput`](crate::token::VerifyInput) and verified with the software backend. A result whose
//! verdict is not a pass is the `refused` error case, never a success value.

use alloc::string::String;
use alloc::vec::Vec;

use super::exports::edgeattest::verifier::token::{
    AttestationResult, Guest, ResultError, TokenVerification as WitVerification, VerifiedJwt,
    VerifyOptions,
};
use super::exports::edgeattest::verifier::types::SignatureCheck;
use super::token_values::{input, jwt_out, result_out, Verified};
use super::verification::{prepare, Token, Verification};
use super::{checked_now, coded, Verifier, WitError};
use crate::token::Jwks;

impl Guest for Verifier {
    type AttestationResult = Verified;
    type TokenVerification = Verification;

    fn verify_jwt(
        token: String,
        jwks: Vec<u8>,
        options: VerifyOptions,
    ) -> Result<VerifiedJwt, WitError> {
        let now = checked_now(options.now)?;
        let jwks = Jwks::parse(&jwks).map_err(|e| coded(&e))?;
        let jwt = input(options)
            .and_then(|input| input.prepare_jwt(&token, &jwks, now))
            .and_then(|prepared| prepared.verify())
            .map_err(|e| coded(&e))?;
        jwt_out(&jwt)
    }

    fn prepare_jwt_verification(
        token: String,
        jwks: Vec<u8>,
        options: VerifyOptions,
    ) -> Result<WitVerification, WitError> {
        prepare(Token::Jwt(&token), &jwks, options)
    }

    fn prepare_attestation_result_verification(
        result: Vec<u8>,
        jwks: Vec<u8>,
        options: VerifyOptions,
    ) -> Result<WitVerification, WitError> {
        prepare(Token::Result(&result), &jwks, options)
    }

    fn verify_signatures(checks: Vec<SignatureCheck>) -> Vec<bool> {
        checks
            .iter()
            .map(|c| {
                crate::crypto::verify_p384_sha384(&c.public_key, &c.message, &c.signature).is_ok()
            })
            .collect()
    }

    fn verify_attestation_result(
        result: Vec<u8>,
        jwks: Vec<u8>,
        options: VerifyOptions,
    ) -> Result<AttestationResult, ResultError> {
        let now = checked_now(options.now).map_err(ResultError::Coded)?;
        let jwks = Jwks::parse(&jwks).map_err(|e| ResultError::Coded(coded(&e)))?;
        let prepared = input(options)
            .and_then(|input| input.prepare_attestation_result(&result, &jwks, now))
            .map_err(|e| ResultError::Coded(coded(&e)))?;
        // Every token's verdict, so that a rejection carries them (as the JS error does).
        let verdicts = crate::crypto::software_verdicts(prepared.signature_checks());
        let report = prepared
            .report(&verdicts)
            .map_err(|e| ResultError::Coded(coded(&e)))?;
        result_out(report)
    }
}
