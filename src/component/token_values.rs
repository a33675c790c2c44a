//! The token interface's values: the core's verified results, appraisals, verdict levels and
//! refusals as WIT values, and the WIT options as the core's [`VerifyInput`]. The interface's
//! functions (`token.rs`) and its two-phase resource (`verification.rs`) both answer with them.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;

use super::exports::edgeattest::verifier::token::{
    Appraisal as WitAppraisal, AppraisalReason, AttestationResult, DeviceAppraisal,
    GuestAttestationResult, Refusal, Rejection, ResultError, TokenVerdict as WitVerdict,
    VerdictLevel as WitLevel, VerifiedJwt, VerifyOptions,
};
use super::{coded, json, WitError};
use crate::token::check::{failure_message, TokenCheck};
use crate::token::{
    Appraisal, AttestationReport, TokenError, VerdictLevel, VerifiedAttestationResult,
    VerifiedJwt as CoreJwt, VerifyInput,
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

/// The core's verdict level as the WIT enum (the core decides it: no rule here).
fn level_out(level: VerdictLevel) -> WitLevel {
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
        signer: json(jwt.signer())?,
    })
}

/// A refused verdict keeps its appraisal and authentic result; every other error is coded.
fn refusal(error: TokenError) -> ResultError {
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
/// (`allowFailedResult` is not offered: the refusal carries the result instead). `signers`
/// and `revocation` are JSON in the core's written form.
///
/// # Errors
/// [`TokenError::InvalidOption`] naming `signers` or `revocation` when its JSON does not read.
pub(super) fn input(options: VerifyOptions) -> Result<VerifyInput, TokenError> {
    let signers = options
        .signers
        .as_deref()
        .map(|text| {
            crate::json::from_slice(text.as_bytes()).map_err(|_| TokenError::InvalidOption {
                field: "signers",
                expected: "\"any\" or a list of {spkiSha256} / {certificate} anchors (JSON)",
            })
        })
        .transpose()?;
    let revocation = options
        .revocation
        .as_deref()
        .map(|text| {
            crate::json::from_slice(text.as_bytes()).map_err(|_| TokenError::InvalidOption {
                field: "revocation",
                expected: "a RevocationPolicy (JSON)",
            })
        })
        .transpose()?;
    Ok(VerifyInput {
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
        revocation,
        signers,
    })
}

/// A result's report: its first token failure is `rejected` with every verdict, a verdict
/// that is not a pass `refused`, else the authentic result.
pub(super) fn result_out(report: AttestationReport) -> Result<AttestationResult, ResultError> {
    if let Some(error) = report.first_error() {
        return Err(ResultError::Rejected(Rejection {
            error: coded(&error),
            verdicts: verdicts(&report),
            level: VerdictLevel::of_token_failures(&report).map(level_out),
        }));
    }
    match report.into_verified() {
        Ok(verified) => Ok(Verified::handle(Box::new(verified))),
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
