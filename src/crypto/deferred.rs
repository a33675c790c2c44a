//! The one shape of two-phase verification: a verifier checks everything it can, hands the
//! host its signature checks as data, and completes with one verdict per check.
//!
//! Every verifier that needs signatures follows it, and implements the trait beside its own
//! type: certificate paths ([`ChainPlan`](crate::chain::ChainPlan)), evidence batches
//! ([`BatchPlan`](crate::evidence::BatchPlan)), one device's report with its RIMs
//! ([`ReportPlan`](crate::evidence::ReportPlan)), RIMs ([`PendingRim`](crate::rim::PendingRim)),
//! OCSP responses ([`PendingOcsp`](crate::ocsp::PendingOcsp)), tokens
//! ([`PreparedJwt`](crate::token::PreparedJwt)), attestation results
//! ([`PreparedAttestationResult`](crate::token::PreparedAttestationResult)) and EARs
//! ([`PreparedEar`](crate::ear::PreparedEar)). A host runs the checks with whatever backend
//! it has (WebCrypto in JS, the software backend here) and calls [`Deferred::finish`]; code
//! generic over the trait (the wasm binding, test oracles) handles them all alike.
//!
//! The verdicts are one `bool` per check, in the order of [`Deferred::signature_checks`]; a
//! verdict count that does not match is an error of the verifier's own type, never a pass.

use alloc::vec::Vec;

use super::SignatureCheck;

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
