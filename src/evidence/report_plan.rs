//! A [`DeviceReport`] in two steps, so a host may run every ECDSA check itself (WebCrypto):
//! [`ReportPlan::new`] parses the evidence and the RIM documents and hands out their
//! signature checks (evidence first, then the driver RIM's, then the firmware RIM's);
//! [`ReportPlan::finish`] takes one verdict each. [`ReportPlan::verify`] runs them with the
//! software backend.

use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

use super::device_report::{device_report, DeviceReport, RimInputs};
use super::stage::RevocationInput;
use super::verify::{BatchPlan, DeviceInput, FailedEvidence, VerifyContext};
use super::VerifyError;
use crate::chain::ChainError;
use crate::crypto::{Deferred, SignatureCheck};
use crate::rim::{prepare_rim, PendingRim, RimError, RimTrust};
use crate::time::UnixTime;

/// The RIM documents given for a device (XML bytes), by role.
#[derive(Clone, Copy, Debug, Default)]
pub struct RimDocuments<'a> {
    /// The driver RIM.
    pub driver: Option<&'a [u8]>,
    /// The firmware (VBIOS / switch BIOS) RIM.
    pub firmware: Option<&'a [u8]>,
}

/// One device's report, its signature checks handed out as data.
#[derive(Debug)]
pub struct ReportPlan {
    evidence: BatchPlan,
    evidence_checks: usize,
    driver: Option<Result<(PendingRim, Range<usize>), RimError>>,
    firmware: Option<Result<(PendingRim, Range<usize>), RimError>>,
    checks: Vec<SignatureCheck>,
    firmware_hint: Option<String>,
    revocation: RevocationInput,
    now: UnixTime,
}

impl ReportPlan {
    /// Parses the device and the RIMs (verified against `rim_trust` at `context.now`);
    /// `firmware_hint` is the request's `firmware_version` (FSP evidence), `revocation` what
    /// the host learnt of the device chain's revocation.
    pub fn new(
        device: DeviceInput<'_>,
        context: &VerifyContext<'_>,
        rims: RimDocuments<'_>,
        rim_trust: &RimTrust,
        firmware_hint: Option<String>,
        revocation: RevocationInput,
    ) -> Self {
        let evidence = BatchPlan::new(&[device], context);
        let mut checks = evidence.signature_checks().to_vec();
        let evidence_checks = checks.len();
        let mut prepare = |xml: Option<&[u8]>| {
            xml.map(|xml| {
                prepare_rim(xml, rim_trust, context.now).map(|pending| {
                    let start = checks.len();
                    checks.extend_from_slice(pending.signature_checks());
                    let range = start..checks.len();
                    (pending, range)
                })
            })
        };
        let driver = prepare(rims.driver);
        let firmware = prepare(rims.firmware);
        Self {
            evidence,
            evidence_checks,
            driver,
            firmware,
            checks,
            firmware_hint,
            revocation,
            now: context.now,
        }
    }

    /// Every signature check, evidence first.
    pub fn signature_checks(&self) -> &[SignatureCheck] {
        &self.checks
    }

    /// The plan with the form the device's evidence came in, for its report.
    #[must_use]
    pub fn with_form(mut self, form: crate::cmw::EvidenceForm) -> Self {
        self.evidence = self.evidence.with_forms(alloc::vec![form]);
        self
    }

    /// The report, with one verdict per [`Self::signature_checks`] entry.
    ///
    /// # Errors
    /// [`ChainError::VerdictCount`] (as [`VerifyError::Chain`]) when the verdicts do not
    /// match the checks.
    pub fn finish(self, verdicts: &[bool]) -> Result<DeviceReport, VerifyError> {
        if verdicts.len() != self.checks.len() {
            return Err(VerifyError::Chain(ChainError::VerdictCount {
                expected: self.checks.len(),
                got: verdicts.len(),
            }));
        }
        let evidence_verdicts = verdicts.get(..self.evidence_checks).unwrap_or_default();
        let evidence = self
            .evidence
            .finish_detailed(evidence_verdicts)?
            .into_iter()
            .next()
            .unwrap_or(Err(FailedEvidence {
                error: VerifyError::Chain(ChainError::Empty),
                chain: None,
            }));
        let finish = |rim: Option<Result<(PendingRim, Range<usize>), RimError>>| {
            rim.map(|prepared| {
                prepared.and_then(|(pending, range)| {
                    pending.finish(verdicts.get(range).unwrap_or_default())
                })
            })
        };
        let rims = RimInputs {
            driver: finish(self.driver),
            firmware: finish(self.firmware),
        };
        Ok(device_report(
            &evidence,
            self.firmware_hint,
            rims,
            &self.revocation,
            self.now,
        ))
    }

    /// The report, every check run with the software backend.
    pub fn verify(self) -> DeviceReport {
        let verdicts = crate::crypto::software_verdicts(&self.checks);
        let now = self.now;
        // One verdict per check by construction; a failure would still be a report.
        self.finish(&verdicts).unwrap_or_else(|error| {
            device_report(
                &Err(FailedEvidence { error, chain: None }),
                None,
                RimInputs::default(),
                &RevocationInput::NotChecked,
                now,
            )
        })
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
