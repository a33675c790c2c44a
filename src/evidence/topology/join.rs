//! A node's topology from two verified detached results, the GPUs' and the switches', joined
//! by the relying party as NVIDIA's PPCIE verifier joins them: one nonce for both, both
//! passed, then the links their claims 4.0 carry.
//!
//! The join is the relying party's and not the service's: the attestation API attests GPUs
//! and switches in two calls, as NVIDIA's verifier makes them, and a GPU request carrying
//! switch evidence would be a member the real service ignores, a topology silently unchecked.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::error::TopologyError;
use super::input::{bound, wrong_device, TopologyGpu, TopologyInput, TopologySwitch};
use crate::attest::DeviceKind;

/// The claims of one verified detached result: the overall token's, and each device token's
/// with its label (`GPU-0`, `SWITCH-3`).
#[derive(Clone, Copy, Debug)]
pub struct ResultClaims<'a> {
    /// The overall token's claims.
    pub overall: &'a Map<String, Value>,
    /// Each device token's label and claims, in the result's order.
    pub devices: &'a [(&'a str, &'a Map<String, Value>)],
}

impl TopologyInput {
    /// The devices of a node from its GPU result and its switch result (claims 4.0).
    ///
    /// # Errors
    /// [`TopologyError::ResultFailed`] unless both overall results are `true`;
    /// [`TopologyError::NonceMismatch`] unless both carry the same `eat_nonce`; the errors of
    /// [`TopologyGpu::from_claims`] and [`TopologySwitch::from_claims`].
    pub fn from_results(
        gpus: ResultClaims<'_>,
        switches: ResultClaims<'_>,
    ) -> Result<Self, TopologyError> {
        passed(gpus, "GPU")?;
        passed(switches, "switch")?;
        match (nonce(gpus), nonce(switches)) {
            (Some(a), Some(b)) if a.eq_ignore_ascii_case(b) => {}
            _ => return Err(TopologyError::NonceMismatch),
        }
        bound(gpus.devices.len(), "GPUs")?;
        bound(switches.devices.len(), "switches")?;
        Ok(Self {
            gpus: gpus
                .devices
                .iter()
                .map(|(label, claims)| {
                    kind_of_label(label, DeviceKind::Gpu)?;
                    TopologyGpu::from_claims(label, claims)
                })
                .collect::<Result<Vec<_>, _>>()?,
            switches: switches
                .devices
                .iter()
                .map(|(label, claims)| {
                    kind_of_label(label, DeviceKind::Switch)?;
                    TopologySwitch::from_claims(label, claims)
                })
                .collect::<Result<Vec<_>, _>>()?,
        })
    }
}

/// A device token's label names its kind (`GPU-0`, `SWITCH-3`) in every claims version, where
/// `x-nvidia-device-type` is 4.0's only: results given the wrong way round are refused by it.
fn kind_of_label(label: &str, kind: DeviceKind) -> Result<(), TopologyError> {
    let named = label
        .strip_prefix(kind.label_prefix())
        .is_some_and(|rest| rest.starts_with('-'));
    if named {
        Ok(())
    } else {
        Err(wrong_device(label, kind))
    }
}

fn passed(result: ResultClaims<'_>, name: &'static str) -> Result<(), TopologyError> {
    match result.overall.get("x-nvidia-overall-att-result") {
        Some(Value::Bool(true)) => Ok(()),
        _ => Err(TopologyError::ResultFailed { result: name }),
    }
}

fn nonce<'a>(result: ResultClaims<'a>) -> Option<&'a str> {
    result.overall.get("eat_nonce").and_then(Value::as_str)
}
