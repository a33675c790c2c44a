//! `edgeattest:verifier/token`: ES384 JWTs and NRAS attestation results against a JWKS, read
//! by the core's [`VerifyInput`] and verified with the software backend. A result whose
//! verdict is not a pass is the `refused` error case, never a success value.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;

use super::exports::edgeattest::verifier::token::{
    Appraisal as WitAppraisal, AppraisalReason, AttestationResult, DeviceAppraisal, Guest,
    GuestAttestationResult, Refusal, ResultError, TokenVerification as WitVerification,
    VerdictLevel as WitLevel, VerifiedJwt, VerifyOptions,
};
use super::exports::edgeattest::verifier::types::SignatureCheck;
use super::verification::{prepare, result_out, Token, Verification};
use super::{checked_now, coded, json, Verifier, WitError};
use crate::token::{
    Appraisal, Jwks, TokenError, VerdictLevel, VerifiedAttestationResult, VerifiedJwt as CoreJwt,
    VerifyInput,
};

/// The `attestation-result` resource: an authentic result (signatures and claims checked).
pub(super) struct Verified {
    pub(super) result: Box<VerifiedAttestationResult>,
    /// The JSON data, written on the first `data()` call.
    data: RefCell<Option<String>>,
}

impl Verified {
    pub(super) fn handle(result: Box<VerifiedAttestationResult>) -> AttestationResult {
        AttestationResult::new(Self {
            result,
            data: RefCell::new(None),
        })
    }
}

impl GuestAttestationResult for Verified {
    fn format(&self) -> String {
        self.result.format().as_str().into()
    }

    fn overall_result(&self) -> Option<bool> {
        self.result.overall_result()
    }

    fn revocation_relaxed(&self) -> bool {
        self.result.revocation_relaxed()
    }

    fn appraisal(&self) -> WitAppraisal {
        appraisal_out(&self.result.appraisal())
    }

    fn data(&self) -> String {
        self.data
            .borrow_mut()
            .get_or_insert_with(|| crate::json::write::to_string(&*self.result).unwrap_or_default())
            .clone()
    }
}

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
            .prepare_jwt(&token, &jwks, now)
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
            .prepare_attestation_result(&result, &jwks, now)
            .map_err(|e| ResultError::Coded(coded(&e)))?;
        // Every token's verdict, so that a rejection carries them (as the JS error does).
        let verdicts = crate::crypto::software_verdicts(prepared.signature_checks());
        let report = prepared
            .report(&verdicts)
            .map_err(|e| ResultError::Coded(coded(&e)))?;
        result_out(report)
    }
}

/// The core's verdict level as the WIT enum (the core decides it: no rule here).
pub(super) fn level_out(level: VerdictLevel) -> WitLevel {
    match level {
        VerdictLevel::Forged => WitLevel::Forged,
        VerdictLevel::WrongNonce => WitLevel::WrongNonce,
        VerdictLevel::Expired => WitLevel::Expired,
        VerdictLevel::Failed => WitLevel::Failed,
        VerdictLevel::PassedWithWarnings => WitLevel::PassedWithWarnings,
        VerdictLevel::Passed => WitLevel::Passed,
    }
}

/// The core's appraisal as the WIT record; a reason's value stays the token's JSON.
fn appraisal_out(appraisal: &Appraisal) -> WitAppraisal {
    WitAppraisal {
        level: level_out(appraisal.level()),
        passed: appraisal.passed(),
        overall_result: appraisal.overall_result(),
        devices: appraisal
            .devices()
            .iter()
            .map(|device| DeviceAppraisal {
                label: device.label().into(),
                passed: device.passed(),
                reasons: device
                    .reasons()
                    .iter()
                    .map(|reason| AppraisalReason {
                        claim: reason.claim().into(),
                        // A `serde_json::Value` always writes.
                        value: crate::json::write::to_string(reason.value()).unwrap_or_default(),
                        message: reason.message().into(),
                    })
                    .collect(),
                revocation_confirmed: device.revocation_confirmed(),
                warnings: device.warnings().to_vec(),
            })
            .collect(),
        revocation_confirmed: appraisal.revocation_confirmed(),
    }
}

/// A verified JWT as the WIT record.
pub(super) fn jwt_out(jwt: &CoreJwt) -> Result<VerifiedJwt, WitError> {
    Ok(VerifiedJwt {
        kid: jwt.kid().map(Into::into),
        header: json(jwt.header())?,
        claims: json(jwt.claims())?,
    })
}

/// A refused verdict keeps its appraisal and authentic result; every other error is coded.
pub(super) fn refusal(error: TokenError) -> ResultError {
    let coded_error = coded(&error);
    match error {
        TokenError::AttestationFailed { appraisal, result }
        | TokenError::AttestationResultMissing { appraisal, result }
        | TokenError::ClaimsUnreadable { appraisal, result }
        | TokenError::RevocationUnconfirmed { appraisal, result } => {
            ResultError::Refused(Refusal {
                error: coded_error,
                level: level_out(appraisal.level()),
                appraisal: appraisal_out(&appraisal),
                result: Verified::handle(result),
            })
        }
        _ => ResultError::Coded(coded_error),
    }
}

/// The WIT options as the core's [`VerifyInput`]; a failed result is always refused here
/// (`allowFailedResult` is not offered: the refusal carries the result instead).
pub(super) fn input(options: VerifyOptions) -> VerifyInput {
    VerifyInput {
        now: None,
        issuer: options.issuer,
        audience: options.audience,
        subject: options.subject,
        nonce: options.nonce,
        clock_tolerance: options.clock_tolerance,
        max_token_age: options.max_token_age,
        required_claims: Some(options.required_claims),
        typ: options.typ,
        crit: Some(options.crit),
        format: options.format,
        endpoint: options.endpoint,
        allow_failed_result: None,
        allow_unknown_revocation: Some(options.allow_unknown_revocation),
    }
}
