//! The one shape of two-phase verification: a verifier checks everything it can, hands the
//! host its signature checks as data, and completes with one verdict per check.
//!
//! Every verifier that needs signatures follows it: certificate paths ([`ChainPlan`]),
//! evidence batches ([`BatchPlan`]), one device's report with its RIMs ([`ReportPlan`]), RIMs ([`PendingRim`]), OCSP responses
//! ([`PendingOcsp`]), tokens ([`PreparedJwt`]) and attestation results
//! ([`PreparedAttestationResult`]). A host runs the checks with whatever backend it has
//! (WebCrypto in JS, the software backend here) and calls [`Deferred::finish`]; code
//! generic over the trait (the wasm binding, test oracles) handles all seven alike.
//!
//! The verdicts are one `bool` per check, in the order of [`Deferred::signature_checks`]; a
//! verdict count that does not match is an error of the verifier's own type, never a pass.

use alloc::vec::Vec;

use super::SignatureCheck;
use crate::chain::{ChainError, ChainPlan, VerifiedChain};
use crate::evidence::{BatchPlan, DeviceReport, ReportPlan, VerifiedEvidence, VerifyError};
use crate::ocsp::{CheckedOcsp, OcspError, PendingOcsp};
use crate::rim::{PendingRim, RimError, VerifiedRim};
use crate::token::{
    PreparedAttestationResult, PreparedJwt, TokenError, VerifiedAttestationResult, VerifiedJwt,
};

/// Verification waiting for its signature checks.
pub trait Deferred: Sized {
    /// What verification yields when it completes.
    type Output;
    /// Why it failed (including a verdict count that does not match the checks).
    type Error;

    /// The checks a backend must run, in the order the verdicts are expected.
    fn signature_checks(&self) -> &[SignatureCheck];

    /// Completes verification with one verdict per [`Self::signature_checks`] entry.
    ///
    /// # Errors
    /// The verifier's error for a failed signature, a later check, or a verdict count that
    /// does not match.
    fn finish(self, verdicts: &[bool]) -> Result<Self::Output, Self::Error>;

    /// Runs the checks with the software backend ([`SignatureCheck::verify`]), then
    /// [`Self::finish`].
    ///
    /// # Errors
    /// As [`Self::finish`].
    fn finish_in_software(self) -> Result<Self::Output, Self::Error> {
        let verdicts = software_verdicts(self.signature_checks());
        self.finish(&verdicts)
    }
}

/// One verdict per check from the software backend.
pub fn software_verdicts(checks: &[SignatureCheck]) -> Vec<bool> {
    checks.iter().map(|check| check.verify().is_ok()).collect()
}

impl Deferred for ChainPlan {
    type Output = VerifiedChain;
    type Error = ChainError;

    fn signature_checks(&self) -> &[SignatureCheck] {
        ChainPlan::signature_checks(self)
    }

    fn finish(self, verdicts: &[bool]) -> Result<VerifiedChain, ChainError> {
        ChainPlan::finish(self, verdicts)
    }
}

impl Deferred for BatchPlan {
    /// One outcome per device, in input order.
    type Output = Vec<Result<VerifiedEvidence, VerifyError>>;
    type Error = VerifyError;

    fn signature_checks(&self) -> &[SignatureCheck] {
        BatchPlan::signature_checks(self)
    }

    fn finish(self, verdicts: &[bool]) -> Result<Self::Output, VerifyError> {
        BatchPlan::finish(self, verdicts)
    }
}

impl Deferred for PendingRim {
    type Output = VerifiedRim;
    type Error = RimError;

    fn signature_checks(&self) -> &[SignatureCheck] {
        PendingRim::signature_checks(self)
    }

    fn finish(self, verdicts: &[bool]) -> Result<VerifiedRim, RimError> {
        PendingRim::finish(self, verdicts)
    }
}

impl Deferred for PendingOcsp {
    type Output = CheckedOcsp;
    type Error = OcspError;

    fn signature_checks(&self) -> &[SignatureCheck] {
        PendingOcsp::signature_checks(self)
    }

    fn finish(self, verdicts: &[bool]) -> Result<CheckedOcsp, OcspError> {
        PendingOcsp::finish(self, verdicts)
    }
}

impl Deferred for PreparedJwt {
    type Output = VerifiedJwt;
    type Error = TokenError;

    fn signature_checks(&self) -> &[SignatureCheck] {
        core::slice::from_ref(self.signature_check())
    }

    fn finish(self, verdicts: &[bool]) -> Result<VerifiedJwt, TokenError> {
        match verdicts {
            [valid] => PreparedJwt::finish(self, *valid),
            _ => Err(TokenError::VerdictCount {
                expected: 1,
                got: verdicts.len(),
            }),
        }
    }
}

impl Deferred for PreparedAttestationResult {
    type Output = VerifiedAttestationResult;
    type Error = TokenError;

    fn signature_checks(&self) -> &[SignatureCheck] {
        PreparedAttestationResult::signature_checks(self)
    }

    fn finish(self, verdicts: &[bool]) -> Result<VerifiedAttestationResult, TokenError> {
        PreparedAttestationResult::finish(self, verdicts)
    }
}

impl Deferred for ReportPlan {
    type Output = DeviceReport;
    type Error = VerifyError;

    fn signature_checks(&self) -> &[SignatureCheck] {
        ReportPlan::signature_checks(self)
    }

    fn finish(self, verdicts: &[bool]) -> Result<DeviceReport, VerifyError> {
        ReportPlan::finish(self, verdicts)
    }
}
