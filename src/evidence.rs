//! Device evidence: SPDM 1.1 GET_MEASUREMENTS transcripts of NVIDIA GPUs (Hopper,
//! Blackwell GSP and FSP) and switches (LS10) — measurement blocks, opaque data in both
//! formats, the signature — and device verification: certificate chain, evidence signature,
//! nonce, FWID and architecture.
//!
//! ```text
//! Transcript::parse(&bytes)?                         // structure only, offsets in errors
//! verify_evidence(DeviceInput { evidence, certificate_pem }, &VerifyContext { .. })
//!     -> Result<VerifiedEvidence, VerifyError>       // one device, software backend
//! BatchPlan::new(&devices, &ctx)                     // a request: checks as data, deduplicated
//!     .signature_checks() / .finish(&verdicts) / .verify()
//! ReportPlan::new(device, &ctx, rims, &rim_trust, hint, revocation)
//!     .signature_checks() / .finish(&verdicts)       // -> DeviceReport: every stage, one verdict
//! ```
//!
//! [`DeviceReport`] is what the page and every JS caller render: the stages in the service's
//! order (passed / failed / not checked / not applicable), the first failure's code, the RIM
//! steps, revocation, and `passed`, `failed` or `partial`. It is the one place that orders a
//! device's checks: the service's outcome and claims are a translation of it.

mod cmw_devices;
mod device_report;
mod error;
mod opaque;
mod options;
mod options_error;
mod outcome;
mod reader;
mod report;
mod report_plan;
mod report_stages;
mod runtime_evidence;
mod runtime_values;
mod spdm;
mod stage;
mod tags;
mod topology;
mod verify;

pub(crate) use crate::attest::{FwidPolicy, RimPath};
pub(crate) use device_report::staged_report;
pub use device_report::{
    compare_device, device_report, device_rims, failed_stage, DeviceReport, DeviceRims, RimInputs,
};
pub use error::{ParseError, VerifyError};
pub use opaque::{EnableStatus, FeatureFlag, OpaqueData, OpaqueEntry, OpaqueFormat, SwitchGpuPdis};
pub use options::EvidenceOptions;
pub use options_error::OptionsError;
pub use outcome::{CertificateChainReport, DeviceError, DeviceResult};
pub use report::{BlockReport, ChainReport, EvidenceReport, OpaqueReport};
pub use report_plan::{ReportPlan, RimDocuments};
pub use runtime_values::RuntimeEvidenceInput;
pub use spdm::{
    MeasurementBlock, MeasurementRequest, MeasurementResponse, Transcript, ValueRepresentation,
};
pub use stage::{
    Failure, RevocationInput, RevocationState, RimStep, RimSteps, Stage, StageId, StageStatus,
    Verdict, ERR_CERT_REVOCATION_UNKNOWN, ERR_CERT_REVOKED, ERR_MEASUREMENT_MISMATCH,
    ERR_OCSP_UNAVAILABLE, ERR_OPAQUE_BELOW_MINIMUM, ERR_RIM_NOT_AVAILABLE,
    ERR_RIM_VERSION_MISMATCH,
};
pub(crate) use stage::{FailureCause, RimRevocation};
pub use tags::{tag, tag_name};
pub use topology::{
    check_topology, Pdi, ResultClaims, TopologyDevice, TopologyError, TopologyEvidenceOptions,
    TopologyFinding, TopologyGpu, TopologyInput, TopologyOptions, TopologyReport, TopologyRule,
    TopologyRuleOutcome, TopologyRuleStatus, TopologySwitch, TopologyVerdict, MAX_DEVICE_PDIS,
    MAX_TOPOLOGY_DEVICES,
};
pub use verify::{
    arch_of_chain, decode_generation1, decode_generation2, verify_evidence, BatchPlan, DeviceInput,
    FailedEvidence, FwidCheck, VerifiedEvidence, VerifyContext,
};
