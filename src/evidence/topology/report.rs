//! The topology report: each rule with its outcome and findings, the devices as checked, and
//! one verdict that a caller cannot mistake for a pass ([`TopologyReport::require`]).

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::error::TopologyError;
use super::input::{Pdi, PdiSet, TopologyInput, TopologyOptions};
use super::outcome::{pdi_hex, TopologyRule, TopologyRuleOutcome, TopologyRuleStatus};

/// The node's verdict. Only [`TopologyVerdict::Passed`] is a pass.
#[must_use = "a failed topology must be acted on"]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum TopologyVerdict {
    /// Every rule that ran held.
    Passed,
    /// A rule was broken.
    Failed,
}

/// A device as the report shows it: its PDI and the distinct PDIs it lists (disabled links
/// aside), upper-case hex in switch byte order, sorted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct TopologyDevice {
    /// `GPU-0`, `SWITCH-3`.
    pub label: String,
    /// Its own PDI, if known.
    pub pdi: Option<String>,
    /// `ueid`, if known.
    pub ueid: Option<String>,
    /// The PDIs of the devices it says it is linked to; `null` when it reports none.
    pub links: Option<Vec<String>>,
}

/// The topology verdict of one node.
#[must_use = "a failed topology must be acted on: call `require` or read `verdict`"]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct TopologyReport {
    /// `passed` only when no rule failed.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub verdict: TopologyVerdict,
    /// The GPUs expected.
    pub expected_gpus: u32,
    /// The switches expected.
    pub expected_switches: u32,
    /// The GPUs as checked.
    pub gpus: Vec<TopologyDevice>,
    /// The switches as checked.
    pub switches: Vec<TopologyDevice>,
    /// Every rule, in [`TopologyRule::ALL`] order.
    pub rules: Vec<TopologyRuleOutcome>,
    /// The rules that failed, in the same order.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub failed_rules: Vec<TopologyRule>,
}

fn device(
    label: &str,
    pdi: Option<&Pdi>,
    ueid: Option<&String>,
    links: Option<&[Pdi]>,
) -> TopologyDevice {
    TopologyDevice {
        label: label.into(),
        pdi: pdi.map(pdi_hex),
        ueid: ueid.cloned(),
        links: links.map(|list| PdiSet::active(list).iter().map(pdi_hex).collect()),
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl TopologyReport {
    pub(super) fn new(
        input: &TopologyInput,
        options: &TopologyOptions,
        rules: Vec<TopologyRuleOutcome>,
    ) -> Self {
        let failed_rules: Vec<TopologyRule> = rules
            .iter()
            .filter(|outcome| outcome.status == TopologyRuleStatus::Failed)
            .map(|outcome| outcome.rule)
            .collect();
        Self {
            verdict: if failed_rules.is_empty() {
                TopologyVerdict::Passed
            } else {
                TopologyVerdict::Failed
            },
            expected_gpus: count(options.expected_gpus),
            expected_switches: count(options.expected_switches),
            gpus: input
                .gpus
                .iter()
                .map(|g| {
                    device(
                        &g.label,
                        g.pdi.as_ref(),
                        g.ueid.as_ref(),
                        g.switch_pdis.as_deref(),
                    )
                })
                .collect(),
            switches: input
                .switches
                .iter()
                .map(|s| {
                    device(
                        &s.label,
                        s.pdi.as_ref(),
                        s.ueid.as_ref(),
                        s.gpu_pdis.as_deref(),
                    )
                })
                .collect(),
            rules,
            failed_rules,
        }
    }

    /// Whether every rule held.
    pub fn passed(&self) -> bool {
        self.verdict == TopologyVerdict::Passed
    }

    /// The outcome of one rule.
    pub fn rule(&self, rule: TopologyRule) -> Option<&TopologyRuleOutcome> {
        self.rules.iter().find(|outcome| outcome.rule == rule)
    }

    /// `Ok` only for a passed topology.
    ///
    /// # Errors
    /// [`TopologyError::Failed`] naming the first failed rule and its first finding.
    pub fn require(&self) -> Result<(), TopologyError> {
        let Some(first) = self
            .rules
            .iter()
            .find(|outcome| outcome.status == TopologyRuleStatus::Failed)
        else {
            return Ok(());
        };
        Err(TopologyError::Failed {
            rule: first.rule,
            failed_rules: self.failed_rules.len(),
            finding: first.findings.first().cloned(),
        })
    }
}
