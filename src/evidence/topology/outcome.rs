//! The vocabulary of a topology report: the rules by stable id, a rule's outcome, and a
//! finding (which GPU, which switch, which PDI).

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

/// A topology rule. The ids (`gpu-count`, …) are stable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum TopologyRule {
    /// As many GPUs as expected (NVIDIA).
    GpuCount,
    /// As many switches as expected (NVIDIA).
    SwitchCount,
    /// Every GPU lists the switches it is linked to (GPU tag 22; NVIDIA fails without).
    GpuReportsSwitches,
    /// Every switch reports its own PDI and its GPUs (tags 22 and 26; NVIDIA fails without).
    SwitchReportsGpus,
    /// No two GPUs are one device: same PDI or same `ueid` (this verifier's rule).
    GpuUnique,
    /// No two switches report the same PDI or `ueid` (go-nvattest-tools).
    SwitchUnique,
    /// Each GPU is linked to as many distinct switches as expected, disabled links (all-zero
    /// PDIs, H800) aside (NVIDIA).
    GpuSwitchCount,
    /// Every GPU lists the same switches (NVIDIA).
    GpuSwitchConsistent,
    /// Each switch reports as many distinct GPUs as expected (NVIDIA).
    SwitchGpuCount,
    /// Every switch lists the same GPUs (NVIDIA).
    SwitchGpuConsistent,
    /// Every switch a GPU lists is one of the switches attested (go-nvattest-tools).
    GpuSwitchPresent,
    /// Every switch attested is listed by every GPU (NVIDIA, go-nvattest-tools).
    SwitchLinkedToGpus,
    /// Every GPU a switch lists is one of the GPUs attested (this verifier's rule).
    SwitchGpuPresent,
    /// Every GPU attested is listed by every switch (this verifier's rule).
    GpuLinkedToSwitches,
}

impl TopologyRule {
    /// Every rule, in the order a report lists them.
    pub const ALL: [Self; 14] = [
        Self::GpuCount,
        Self::SwitchCount,
        Self::GpuReportsSwitches,
        Self::SwitchReportsGpus,
        Self::GpuUnique,
        Self::SwitchUnique,
        Self::GpuSwitchCount,
        Self::GpuSwitchConsistent,
        Self::SwitchGpuCount,
        Self::SwitchGpuConsistent,
        Self::GpuSwitchPresent,
        Self::SwitchLinkedToGpus,
        Self::SwitchGpuPresent,
        Self::GpuLinkedToSwitches,
    ];

    /// The stable id, e.g. `gpu-switch-present`.
    pub const fn id(self) -> &'static str {
        match self {
            Self::GpuCount => "gpu-count",
            Self::SwitchCount => "switch-count",
            Self::GpuReportsSwitches => "gpu-reports-switches",
            Self::SwitchReportsGpus => "switch-reports-gpus",
            Self::GpuUnique => "gpu-unique",
            Self::SwitchUnique => "switch-unique",
            Self::GpuSwitchCount => "gpu-switch-count",
            Self::GpuSwitchConsistent => "gpu-switch-consistent",
            Self::SwitchGpuCount => "switch-gpu-count",
            Self::SwitchGpuConsistent => "switch-gpu-consistent",
            Self::GpuSwitchPresent => "gpu-switch-present",
            Self::SwitchLinkedToGpus => "switch-linked-to-gpus",
            Self::SwitchGpuPresent => "switch-gpu-present",
            Self::GpuLinkedToSwitches => "gpu-linked-to-switches",
        }
    }
}

/// A rule's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum TopologyRuleStatus {
    /// The rule held.
    Passed,
    /// The rule was broken: the findings say where.
    Failed,
    /// The options turned the rule off ([`super::TopologyOptions::match_gpu_pdis`]).
    Skipped,
}

/// Where a rule was broken: the devices and, for a link, the PDI at fault (switch byte
/// order, upper-case hex, as the claims write it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct TopologyFinding {
    /// The GPU concerned (its label), if one is.
    pub gpu: Option<String>,
    /// The switch concerned (its label), if one is.
    pub switch: Option<String>,
    /// The PDI of the failing link, or the duplicated PDI.
    pub pdi: Option<String>,
    /// What is wrong, for people.
    pub message: String,
}

/// One rule's outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct TopologyRuleOutcome {
    /// The rule.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub rule: TopologyRule,
    /// Passed, failed or skipped.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub status: TopologyRuleStatus,
    /// Where it was broken (empty unless failed).
    pub findings: Vec<TopologyFinding>,
}

/// Upper-case hex, as the claims write PDIs.
pub(super) fn pdi_hex(pdi: &[u8; 8]) -> String {
    hex::encode_upper(pdi)
}
