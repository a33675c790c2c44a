//! The protected-PCIe (PPCIE) topology verdict: after every device of an HGX node passed, the
//! 8 GPUs and 4 NVSwitches must be linked to each other as the board wires them — NVIDIA's
//! PPCIE verifier's topology checks, plus the cross-check of the switches' GPU lists that
//! NVIDIA's verifiers leave out.
//!
//! ```text
//! TopologyInput::from_evidence(&gpus, &switches)?        // VerifiedEvidence of each device
//! TopologyInput::from_claims(&gpu_claims, &switch_claims)? // verified claims 4.0 (a join)
//! check_topology(&input, &TopologyOptions::default())?   // -> TopologyReport, each rule
//!     .require()?                                        // Err(TopologyError::Failed) unless passed
//! ```
//!
//! A PDI (platform device identifier, 8 bytes) is written in the order in which a switch
//! reports its own (opaque tag 22 of a switch): a GPU stores the PDIs of its switches
//! reversed (GPU tag 22; NVIDIA's verifiers and NVAT reverse them), a switch stores the PDIs
//! of its GPUs as its own (tag 26). A GPU's own PDI is not in its evidence: it is the serial
//! number of the device-identity certificate (the leaf's issuer, `GH100 A01 GSP BROM`) after
//! its first byte, as the certificates of the real PPCIE node show (`0x41 ‖ PDI` for GPUs,
//! `0x50 ‖ PDI` for LS10 switches, whose tag 22 it equals).
//!
//! The topology verdict does not replace the devices' own verdicts: a node passes when every
//! device passed and its topology passed.

mod error;
mod input;
mod join;
mod node;
mod outcome;
mod report;
mod rules;

use input::{bound, pdis_of};

pub use error::TopologyError;
pub use input::{
    Pdi, TopologyGpu, TopologyInput, TopologyOptions, TopologySwitch, MAX_DEVICE_PDIS,
    MAX_TOPOLOGY_DEVICES,
};
pub use join::ResultClaims;
pub use node::TopologyEvidenceOptions;
pub use outcome::{TopologyFinding, TopologyRule, TopologyRuleOutcome, TopologyRuleStatus};
pub use report::{TopologyDevice, TopologyReport, TopologyVerdict};

/// Checks a node's topology against every rule and reports each rule's outcome.
///
/// # Errors
/// [`TopologyError::TooLarge`] for more devices or PDIs than the budgets allow (input built
/// by hand) or expected counts above [`MAX_TOPOLOGY_DEVICES`]. A topology that breaks a rule
/// is not an error: it is a report whose verdict is failed.
pub fn check_topology(
    input: &TopologyInput,
    options: &TopologyOptions,
) -> Result<TopologyReport, TopologyError> {
    bound(input.gpus.len(), "GPUs")?;
    bound(input.switches.len(), "switches")?;
    bound(options.expected_gpus, "expected GPUs")?;
    bound(options.expected_switches, "expected switches")?;
    for gpu in &input.gpus {
        pdis_of(gpu.switch_pdis.as_deref().unwrap_or_default(), &gpu.label)?;
    }
    for switch in &input.switches {
        pdis_of(
            switch.gpu_pdis.as_deref().unwrap_or_default(),
            &switch.label,
        )?;
    }
    Ok(TopologyReport::new(
        input,
        options,
        rules::run(input, options),
    ))
}
