//! The vocabulary of a [`super::DeviceReport`]: which check a stage is, its state, a failed
//! check with its stable code and its typed cause, the RIM steps, and the revocation answer
//! the host gives. The report's builders ([`super::report_stages`]) and its assembly
//! ([`super::device_report`]) both read it here.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::VerifyError;
use crate::rim::{CompareError, RimCertStatus, RimError};

/// A RIM the device needs was not given (service 5009 `RIM_BUNDLE_NOT_FOUND`).
pub const ERR_RIM_NOT_AVAILABLE: &str = "ERR_RIM_NOT_AVAILABLE";
/// Active golden measurements differ from the evidence (`measres` `fail`).
pub const ERR_MEASUREMENT_MISMATCH: &str = "ERR_MEASUREMENT_MISMATCH";
/// A RIM's version is not the evidence's (service 5015).
pub const ERR_RIM_VERSION_MISMATCH: &str = "ERR_RIM_VERSION_MISMATCH";
/// An opaque value is below a RIM's minimum SVN.
pub const ERR_OPAQUE_BELOW_MINIMUM: &str = "ERR_OPAQUE_BELOW_MINIMUM";
/// A certificate of the device chain is revoked.
pub const ERR_CERT_REVOKED: &str = "ERR_CERT_REVOKED";
/// The OCSP responder does not know a certificate of the device chain.
pub const ERR_CERT_REVOCATION_UNKNOWN: &str = "ERR_CERT_REVOCATION_UNKNOWN";
/// No revocation answer could be had or checked (the code the OCSP module uses for it).
pub const ERR_OCSP_UNAVAILABLE: &str = "ERR_OCSP_UNAVAILABLE";

/// A check's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum StageStatus {
    /// The check ran and passed.
    Passed,
    /// The check ran and failed.
    Failed,
    /// The check applies but did not run (an earlier failure, or an input not given).
    NotChecked,
    /// The check does not apply to this device (a switch has no driver RIM).
    NotApplicable,
}

/// The overall verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Every check that applies ran and passed.
    Passed,
    /// A check failed.
    Failed,
    /// Nothing failed, but something that applies was not checked (revocation, an FWID the
    /// evidence lacks, the driver measurements of FSP evidence).
    Partial,
}

/// Which check a stage is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum StageId {
    /// The SPDM transcript parsed.
    EvidenceParsed,
    /// The device chain validated to the anchors and is valid now.
    CertificateChain,
    /// The transcript signature verified with the leaf key.
    EvidenceSignature,
    /// The transcript's nonce is the caller's.
    Nonce,
    /// The chain names the requested architecture and a known firmware profile.
    Architecture,
    /// The opaque data values are well formed.
    OpaqueData,
    /// The evidence FWID equals the leaf certificate's.
    Fwid,
    /// The evidence carries the driver version its profile requires.
    DriverVersion,
    /// Revocation (OCSP) of the device chain.
    Revocation,
    /// The driver RIM: available, signature, signer chain.
    DriverRim,
    /// The firmware (VBIOS / switch BIOS) RIM.
    FirmwareRim,
    /// The measurements against the RIMs.
    Measurements,
    /// The driver RIM's version against the evidence's.
    DriverRimVersion,
    /// The firmware RIM's version against the evidence's.
    FirmwareRimVersion,
    /// Opaque values against the RIMs' minimum SVNs.
    OpaqueFloors,
}

/// One check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ReportStage"))]
#[serde(rename_all = "camelCase")]
pub struct Stage {
    /// Which check.
    pub id: StageId,
    /// What it checks, for people.
    pub title: String,
    /// Its state.
    pub status: StageStatus,
    /// What it found, for people (empty when there is nothing to add).
    pub detail: String,
    /// A passed check whose result does not fully count, said why (amber).
    pub warning: Option<String>,
    /// The stable code of a failed check.
    pub code: Option<&'static str>,
}

/// A failed check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ReportFailure"))]
#[serde(rename_all = "camelCase")]
pub struct Failure {
    /// The check that failed.
    pub stage: StageId,
    /// Stable `ERR_*` code.
    pub code: &'static str,
    /// Why, for people.
    pub message: String,
    /// The real service's error number, where one applies.
    pub service_code: Option<u16>,
    /// What failed, typed: a host that words failures its own way (the service's error
    /// details) translates this, never the message.
    #[serde(skip)]
    pub(crate) cause: FailureCause,
}

/// What a failed check found, typed. A check's place in the report decides which failure
/// comes first; this only says what it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FailureCause {
    /// An evidence check ([`VerifyError`] says which).
    Evidence(VerifyError),
    /// The device chain path-validated but is outside its validity now.
    ChainValidity,
    /// The host's revocation answer for the device chain failed it (its words are the
    /// host's: [`RevocationInput::Failed`]).
    Revocation,
    /// A RIM the device needs was not given; `id` is the one its evidence names, if any.
    RimNotAvailable {
        /// The RIM id.
        id: Option<String>,
    },
    /// A RIM document given did not verify.
    Rim(RimError),
    /// A RIM verified, but its signer chain is not valid now.
    RimSigner(RimCertStatus),
    /// The host's revocation answer for a RIM's signer chain failed it.
    RimRevocation,
    /// The comparison could not be carried out.
    Comparison(CompareError),
    /// Measurements (or opaque floors) differ from the RIMs.
    Measurements,
    /// A RIM's version is not the evidence's.
    RimVersion,
    /// An opaque value is below a RIM's minimum.
    OpaqueFloor,
}

/// One RIM of the device.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ReportRimStep"))]
#[serde(rename_all = "camelCase")]
pub struct RimStep {
    /// The id the device's evidence names (absent when it names none, or none applies).
    pub id: Option<String>,
    /// The RIM as a whole.
    pub status: StageStatus,
    /// The document's `colloquialVersion`, when it was read.
    pub version: Option<String>,
    /// The XML signature verified.
    pub signature_verified: Option<bool>,
    /// The signer chain: `valid`, `expired` or `invalid`.
    #[cfg_attr(feature = "ts", ts(as = "Option<crate::rim::RimCertStatus>", inline))]
    pub chain_status: Option<&'static str>,
    /// The signer chain's earliest `notAfter`, Unix seconds.
    pub chain_expiration: Option<crate::time::UnixTime>,
}

/// The device's RIMs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RimSteps {
    /// The driver RIM.
    pub driver: RimStep,
    /// The firmware RIM.
    pub firmware: RimStep,
}

/// Revocation (OCSP) of the device chain as the host found it: the core does no I/O.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum RevocationInput {
    /// Not asked; why, for people.
    #[default]
    NotChecked,
    /// Not asked, with the reason.
    NotCheckedBecause(String),
    /// Every certificate's responder said good.
    Good,
    /// Good under the chain's revocation rule: what the rule let pass, one warning each
    /// ([`crate::ocsp::Relaxation::warning`]).
    Relaxed(Vec<String>),
    /// Revoked, unknown, or no answer that could be checked: fails the device.
    Failed {
        /// Stable code (`ERR_OCSP_UNAVAILABLE`), or [`ERR_CERT_REVOKED`].
        code: &'static str,
        /// Why.
        message: String,
    },
}

impl RevocationInput {
    /// The host's revocation answer by its status word (the page's and the JS OCSP
    /// helpers' `status`): `good`, `not-checked` (with `message` as the reason), `revoked`,
    /// `unknown`, or anything else (no answer that could be checked).
    pub fn from_status(status: &str, message: Option<String>) -> Self {
        let message = message.unwrap_or_default();
        match status {
            "good" => Self::Good,
            "not-checked" if message.is_empty() => Self::NotChecked,
            "not-checked" => Self::NotCheckedBecause(message),
            "revoked" => Self::Failed {
                code: ERR_CERT_REVOKED,
                message: nonempty(message, "a certificate of the chain is revoked"),
            },
            "unknown" => Self::Failed {
                code: ERR_CERT_REVOCATION_UNKNOWN,
                message: nonempty(
                    message,
                    "the responder does not know a certificate of the chain",
                ),
            },
            _ => Self::Failed {
                code: ERR_OCSP_UNAVAILABLE,
                message: nonempty(message, "no revocation answer could be had or checked"),
            },
        }
    }
}

fn nonempty(message: String, otherwise: &str) -> String {
    if message.is_empty() {
        otherwise.into()
    } else {
        message
    }
}

/// The host's revocation answers for the RIMs' signer chains, by role. `None`: not part of
/// this report (the report then says nothing of a RIM chain's revocation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct RimRevocation {
    /// The driver RIM's signer chain.
    pub(crate) driver: Option<RevocationInput>,
    /// The firmware RIM's signer chain.
    pub(crate) firmware: Option<RevocationInput>,
}

/// The revocation state in a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum RevocationState {
    /// Not asked: the chain did not validate, so there is nothing to ask about.
    NotReached,
    /// Due, but not checked (no answers given): a host that can ask should.
    NotChecked,
    /// Good.
    Good,
    /// Not confirmed good, but passed by the revocation policy with warnings (the
    /// revocation stage's detail names them).
    Relaxed,
    /// Revoked or not confirmed.
    Failed,
}
