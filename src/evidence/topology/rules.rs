//! The topology rules, each run on its own so that the report gives every rule's outcome,
//! not only the first failure's.
//!
//! NVIDIA's PPCIE verifier (nvtrust `ppcie-verifier`, `topology/validate_topology.py`):
//! 8 GPU reports; per GPU, 4 distinct switch PDIs once all-zero PDIs (disabled links, H800)
//! are dropped; the same switches for every GPU; 4 switch reports; each switch's own PDI
//! among the GPUs' switches; per switch, 8 distinct GPU PDIs; the same GPUs for every switch.
//! go-nvattest-tools (`ppcie/server/topology_validator.go`) adds: configurable counts, no two
//! switches with one PDI, and the GPUs' switches equal to the switches attested. This
//! verifier adds the GPUs' side: no GPU twice, and the switches' GPU lists equal to the GPUs
//! attested (each GPU's PDI from its device-identity certificate). Disabled links are
//! dropped on both sides before counting.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::input::{Pdi, PdiSet, TopologyInput, TopologyOptions};
use super::outcome::{
    pdi_hex, TopologyFinding, TopologyRule, TopologyRuleOutcome as RuleOutcome,
    TopologyRuleStatus as RuleStatus,
};

/// The distinct PDIs of a list, disabled links aside; empty for a device that lists none.
fn active(list: Option<&[Pdi]>) -> PdiSet {
    PdiSet::active(list.unwrap_or_default())
}

fn finding(
    gpu: Option<&str>,
    switch: Option<&str>,
    pdi: Option<&Pdi>,
    message: String,
) -> TopologyFinding {
    TopologyFinding {
        gpu: gpu.map(String::from),
        switch: switch.map(String::from),
        pdi: pdi.map(pdi_hex),
        message,
    }
}

/// One side of the node: each device's label, own PDI, `ueid` and the distinct PDIs it lists.
struct Side<'a> {
    labels: Vec<&'a str>,
    pdis: Vec<Option<Pdi>>,
    ueids: Vec<Option<&'a str>>,
    lists: Vec<PdiSet>,
}

impl Side<'_> {
    fn known_pdis(&self) -> PdiSet {
        PdiSet::of(self.pdis.iter().flatten())
    }
}

fn sides(input: &TopologyInput) -> (Side<'_>, Side<'_>) {
    let gpus = Side {
        labels: input.gpus.iter().map(|g| g.label.as_str()).collect(),
        pdis: input.gpus.iter().map(|g| g.pdi).collect(),
        ueids: input.gpus.iter().map(|g| g.ueid.as_deref()).collect(),
        lists: input
            .gpus
            .iter()
            .map(|g| active(g.switch_pdis.as_deref()))
            .collect(),
    };
    let switches = Side {
        labels: input.switches.iter().map(|s| s.label.as_str()).collect(),
        pdis: input.switches.iter().map(|s| s.pdi).collect(),
        ueids: input.switches.iter().map(|s| s.ueid.as_deref()).collect(),
        lists: input
            .switches
            .iter()
            .map(|s| active(s.gpu_pdis.as_deref()))
            .collect(),
    };
    (gpus, switches)
}

/// Runs every rule, in [`TopologyRule::ALL`] order.
pub(super) fn run(input: &TopologyInput, options: &TopologyOptions) -> Vec<RuleOutcome> {
    let (gpus, switches) = sides(input);
    TopologyRule::ALL
        .iter()
        .map(|&rule| {
            let findings = match rule {
                TopologyRule::GpuCount => count(input.gpus.len(), options.expected_gpus, "GPUs"),
                TopologyRule::SwitchCount => {
                    count(input.switches.len(), options.expected_switches, "switches")
                }
                TopologyRule::GpuReportsSwitches => gpus_report_switches(input),
                TopologyRule::SwitchReportsGpus => switches_report_gpus(input),
                TopologyRule::GpuUnique => unique(&gpus, Kind::Gpu),
                TopologyRule::SwitchUnique => unique(&switches, Kind::Switch),
                TopologyRule::GpuSwitchCount => {
                    list_counts(&gpus, Kind::Gpu, options.expected_switches)
                }
                TopologyRule::GpuSwitchConsistent => consistent(&gpus, Kind::Gpu),
                TopologyRule::SwitchGpuCount => {
                    list_counts(&switches, Kind::Switch, options.expected_gpus)
                }
                TopologyRule::SwitchGpuConsistent => consistent(&switches, Kind::Switch),
                TopologyRule::GpuSwitchPresent => present(&gpus, &switches, Kind::Gpu),
                TopologyRule::SwitchLinkedToGpus => linked(&switches, &gpus, Kind::Switch),
                TopologyRule::SwitchGpuPresent | TopologyRule::GpuLinkedToSwitches
                    if !options.match_gpu_pdis =>
                {
                    return RuleOutcome {
                        rule,
                        status: RuleStatus::Skipped,
                        findings: Vec::new(),
                    };
                }
                TopologyRule::SwitchGpuPresent => {
                    let mut found = unknown_gpu_pdis(&gpus);
                    found.extend(present(&switches, &gpus, Kind::Switch));
                    found
                }
                TopologyRule::GpuLinkedToSwitches => {
                    let mut found = unknown_gpu_pdis(&gpus);
                    found.extend(linked(&gpus, &switches, Kind::Gpu));
                    found
                }
            };
            RuleOutcome {
                rule,
                status: if findings.is_empty() {
                    RuleStatus::Passed
                } else {
                    RuleStatus::Failed
                },
                findings,
            }
        })
        .collect()
}

/// Which side a device is on, for the findings' fields and words.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Gpu,
    Switch,
}

impl Kind {
    /// A finding about a device of this side (and maybe one of the other side).
    fn finding(
        self,
        own: &str,
        other: Option<&str>,
        pdi: Option<&Pdi>,
        message: String,
    ) -> TopologyFinding {
        match self {
            Self::Gpu => finding(Some(own), other, pdi, message),
            Self::Switch => finding(other, Some(own), pdi, message),
        }
    }

    /// What this side's devices list.
    fn listed(self) -> &'static str {
        match self {
            Self::Gpu => "switches",
            Self::Switch => "GPUs",
        }
    }
}

fn count(found: usize, expected: usize, what: &str) -> Vec<TopologyFinding> {
    if found == expected {
        return Vec::new();
    }
    Vec::from([finding(
        None,
        None,
        None,
        format!("{found} {what} given, {expected} expected"),
    )])
}

fn gpus_report_switches(input: &TopologyInput) -> Vec<TopologyFinding> {
    input
        .gpus
        .iter()
        .filter(|g| active(g.switch_pdis.as_deref()).is_empty())
        .map(|g| {
            let message = format!("{} lists no switch (GPU opaque tag 22)", g.label);
            finding(Some(&g.label), None, None, message)
        })
        .collect()
}

fn switches_report_gpus(input: &TopologyInput) -> Vec<TopologyFinding> {
    let mut found = Vec::new();
    for s in &input.switches {
        if s.pdi.is_none() {
            let message = format!(
                "{} reports no PDI of its own (switch opaque tag 22)",
                s.label
            );
            found.push(finding(None, Some(&s.label), None, message));
        }
        if active(s.gpu_pdis.as_deref()).is_empty() {
            let message = format!("{} lists no GPU (switch opaque tag 26)", s.label);
            found.push(finding(None, Some(&s.label), None, message));
        }
    }
    found
}

/// No two devices of a side with one PDI or one `ueid`: each later one is named.
fn unique(side: &Side<'_>, kind: Kind) -> Vec<TopologyFinding> {
    let mut found = Vec::new();
    for j in 0..side.labels.len() {
        for i in 0..j {
            let same_pdi = side.pdis[j].is_some() && side.pdis[i] == side.pdis[j];
            let same_ueid = side.ueids[j].is_some() && side.ueids[i] == side.ueids[j];
            if !(same_pdi || same_ueid) {
                continue;
            }
            let what = if same_pdi { "PDI" } else { "ueid" };
            let message = format!(
                "{} has the {what} of {}: the same device twice",
                side.labels[j], side.labels[i]
            );
            found.push(kind.finding(
                side.labels[j],
                None,
                side.pdis[j].as_ref().filter(|_| same_pdi),
                message,
            ));
            break;
        }
    }
    found
}

fn list_counts(side: &Side<'_>, kind: Kind, expected: usize) -> Vec<TopologyFinding> {
    side.labels
        .iter()
        .zip(&side.lists)
        .filter(|(_, list)| list.len() != expected)
        .map(|(label, list)| {
            let message = format!(
                "{label} lists {} distinct {}, {expected} expected",
                list.len(),
                kind.listed()
            );
            kind.finding(label, None, None, message)
        })
        .collect()
}

/// Every device of a side lists what its first device lists; a differing device is named
/// with the first PDI that differs.
fn consistent(side: &Side<'_>, kind: Kind) -> Vec<TopologyFinding> {
    let (Some(first), Some(reference)) = (side.labels.first(), side.lists.first()) else {
        return Vec::new();
    };
    side.labels
        .iter()
        .zip(&side.lists)
        .skip(1)
        .filter(|(_, list)| *list != reference)
        .map(|(label, list)| {
            let differing = list
                .difference(reference)
                .chain(reference.difference(list))
                .next();
            let message = format!("{label} lists other {} than {first}", kind.listed());
            kind.finding(label, None, differing, message)
        })
        .collect()
}

/// Every PDI a device of `side` lists is the PDI of a device of `other`.
fn present(side: &Side<'_>, other: &Side<'_>, kind: Kind) -> Vec<TopologyFinding> {
    let attested = other.known_pdis();
    let mut found = Vec::new();
    for (label, list) in side.labels.iter().zip(&side.lists) {
        for pdi in list.difference(&attested) {
            let message = format!(
                "{label} lists {} {}, which no attested {} has",
                match kind {
                    Kind::Gpu => "switch",
                    Kind::Switch => "GPU",
                },
                pdi_hex(pdi),
                match kind {
                    Kind::Gpu => "switch",
                    Kind::Switch => "GPU",
                },
            );
            found.push(kind.finding(label, None, Some(pdi), message));
        }
    }
    found
}

/// Every device of `side` with a known PDI is listed by every device of `other`.
fn linked(side: &Side<'_>, other: &Side<'_>, kind: Kind) -> Vec<TopologyFinding> {
    let mut found = Vec::new();
    for (label, pdi) in side.labels.iter().zip(&side.pdis) {
        let Some(pdi) = pdi else { continue };
        for (other_label, list) in other.labels.iter().zip(&other.lists) {
            if !list.contains(pdi) {
                let message = format!("{other_label} does not list {label} ({})", pdi_hex(pdi));
                found.push(kind.finding(label, Some(other_label), Some(pdi), message));
            }
        }
    }
    found
}

/// GPUs whose own PDI is unknown cannot be matched with the switches' lists.
fn unknown_gpu_pdis(gpus: &Side<'_>) -> Vec<TopologyFinding> {
    gpus.labels
        .iter()
        .zip(&gpus.pdis)
        .filter(|(_, pdi)| pdi.is_none())
        .map(|(label, _)| {
            let message = format!("the PDI of {label} is unknown (no device-identity serial)");
            finding(Some(label), None, None, message)
        })
        .collect()
}
