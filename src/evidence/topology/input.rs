//! The input of a topology check: each device's own PDI and the PDIs it lists, from verified
//! evidence or verified claims, and what the node is checked against.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::error::TopologyError;
use crate::attest::DeviceKind;
use crate::evidence::verify::VerifiedEvidence;

/// The most GPUs, and the most switches, one topology check takes (hostile input).
pub const MAX_TOPOLOGY_DEVICES: usize = 64;
/// The most PDIs one device may list (an H100 lists 18 links; a switch 8 GPUs).
pub const MAX_DEVICE_PDIS: usize = 64;

/// An 8-byte PDI in a switch's own byte order.
pub type Pdi = [u8; 8];

/// The distinct PDIs of a list, sorted: a set over a few dozen PDIs as one sorted vector,
/// which costs the wasm modules far less code than a `BTreeSet`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct PdiSet(Vec<Pdi>);

impl PdiSet {
    /// The distinct PDIs of `pdis`.
    pub(super) fn of<'a>(pdis: impl IntoIterator<Item = &'a Pdi>) -> Self {
        let mut list: Vec<Pdi> = pdis.into_iter().copied().collect();
        list.sort_unstable();
        list.dedup();
        Self(list)
    }

    /// The distinct PDIs of `pdis`, disabled links aside.
    pub(super) fn active(pdis: &[Pdi]) -> Self {
        Self::of(pdis.iter().filter(|pdi| !is_disabled_link(pdi)))
    }

    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(super) fn contains(&self, pdi: &Pdi) -> bool {
        self.0.binary_search(pdi).is_ok()
    }

    pub(super) fn iter(&self) -> core::slice::Iter<'_, Pdi> {
        self.0.iter()
    }

    /// The PDIs of `self` that `other` lacks, in order.
    pub(super) fn difference<'a>(&'a self, other: &'a Self) -> impl Iterator<Item = &'a Pdi> {
        self.0.iter().filter(move |pdi| !other.contains(pdi))
    }
}

/// A disabled NVLink (H800 boards): the all-zero PDI, which links nothing.
pub(super) fn is_disabled_link(pdi: &Pdi) -> bool {
    pdi.iter().all(|&b| b == 0)
}

/// One GPU as the topology sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopologyGpu {
    /// How the report names it (`GPU-0`).
    pub label: String,
    /// Its own PDI (from its device-identity certificate); `None` when not known (claims).
    pub pdi: Option<Pdi>,
    /// `ueid` (the leaf serial in decimal), when known: two GPUs with the same are one.
    pub ueid: Option<String>,
    /// The PDIs of the switches it is linked to, one per link (GPU tag 22, reversed into
    /// switch order); `None` when the evidence or claims carry none.
    pub switch_pdis: Option<Vec<Pdi>>,
}

/// One NVSwitch as the topology sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopologySwitch {
    /// How the report names it (`SWITCH-0`).
    pub label: String,
    /// Its own PDI (switch tag 22); `None` when the evidence or claims carry none.
    pub pdi: Option<Pdi>,
    /// `ueid`, when known.
    pub ueid: Option<String>,
    /// The PDIs of the GPUs it is linked to (switch tag 26); `None` when absent.
    pub gpu_pdis: Option<Vec<Pdi>>,
}

/// The devices of one node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TopologyInput {
    /// The GPUs.
    pub gpus: Vec<TopologyGpu>,
    /// The switches.
    pub switches: Vec<TopologySwitch>,
}

/// What the node is checked against.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct TopologyOptions {
    /// GPUs of the node (8, an HGX board; at most [`MAX_TOPOLOGY_DEVICES`]).
    pub expected_gpus: usize,
    /// Switches of the node (4; at most [`MAX_TOPOLOGY_DEVICES`]).
    pub expected_switches: usize,
    /// Match the switches' GPU lists with the GPUs' own PDIs (default). A GPU whose PDI is
    /// unknown (claims carry none) then fails those rules; `false` skips them, and the
    /// report says so, leaving a duplicated GPU undetected unless `ueid`s give it away.
    pub match_gpu_pdis: bool,
}

impl Default for TopologyOptions {
    fn default() -> Self {
        Self {
            expected_gpus: 8,
            expected_switches: 4,
            match_gpu_pdis: true,
        }
    }
}

pub(super) fn pdis_of(list: &[Pdi], label: &str) -> Result<Vec<Pdi>, TopologyError> {
    if list.len() > MAX_DEVICE_PDIS {
        return Err(TopologyError::TooLarge {
            what: "PDIs of one device",
            device: Some(label.to_string()),
        });
    }
    Ok(list.to_vec())
}

pub(super) fn wrong_device(label: &str, expected: DeviceKind) -> TopologyError {
    TopologyError::WrongDevice {
        device: label.to_string(),
        expected: match expected {
            DeviceKind::Gpu => "gpu",
            DeviceKind::Switch => "switch",
        },
    }
}

/// The PDI of a verified device's identity certificate: the leaf issuer's 9-byte serial
/// after its first byte (`None` for a serial of another length).
fn certified_pdi(device: &VerifiedEvidence) -> Option<Pdi> {
    let serial = &device.chain().certificates().get(1)?.serial;
    match serial.as_slice() {
        [_, rest @ ..] => Pdi::try_from(rest).ok(),
        [] => None,
    }
}

impl TopologyGpu {
    /// A verified GPU: its switch PDIs (tag 22), its certified PDI and its `ueid`.
    ///
    /// # Errors
    /// [`TopologyError::WrongDevice`] for a switch; [`TopologyError::TooLarge`] past
    /// [`MAX_DEVICE_PDIS`].
    pub fn from_evidence(label: &str, device: &VerifiedEvidence) -> Result<Self, TopologyError> {
        if device.arch().device_kind() != DeviceKind::Gpu {
            return Err(wrong_device(label, DeviceKind::Gpu));
        }
        let switch_pdis = match device.switch_pdis() {
            Some(stored) => {
                let mut pdis = pdis_of(&stored, label)?;
                for pdi in &mut pdis {
                    pdi.reverse();
                }
                Some(pdis)
            }
            None => None,
        };
        Ok(Self {
            label: label.to_string(),
            pdi: certified_pdi(device),
            ueid: Some(device.ueid()),
            switch_pdis,
        })
    }

    /// A GPU's verified claims 4.0: `x-nvidia-gpu-switch-pdis` (switch order, as NVAT and
    /// this crate write it) and `ueid`. Claims carry no PDI of the GPU itself.
    ///
    /// # Errors
    /// [`TopologyError::WrongDevice`] for claims of another `x-nvidia-device-type`;
    /// [`TopologyError::ClaimInvalid`] for a claim that is not a list of 16-digit hex PDIs;
    /// [`TopologyError::TooLarge`].
    pub fn from_claims(label: &str, claims: &Map<String, Value>) -> Result<Self, TopologyError> {
        device_type(label, claims, "gpu", DeviceKind::Gpu)?;
        Ok(Self {
            label: label.to_string(),
            pdi: None,
            ueid: ueid_claim(claims),
            switch_pdis: pdi_list_claim(label, claims, "x-nvidia-gpu-switch-pdis")?,
        })
    }
}

impl TopologySwitch {
    /// A verified switch: its own PDI (tag 22), its GPU PDIs (tag 26) and its `ueid`.
    ///
    /// # Errors
    /// [`TopologyError::WrongDevice`] for a GPU; [`TopologyError::TooLarge`].
    pub fn from_evidence(label: &str, device: &VerifiedEvidence) -> Result<Self, TopologyError> {
        if device.arch().device_kind() != DeviceKind::Switch {
            return Err(wrong_device(label, DeviceKind::Switch));
        }
        // Verification validated these tags, so their decoding cannot fail here.
        let opaque = &device.transcript().response.opaque;
        let gpu_pdis = match opaque.switch_gpu_pdis().ok().flatten() {
            Some(list) => Some(pdis_of(&list.pdis, label)?),
            None => None,
        };
        Ok(Self {
            label: label.to_string(),
            pdi: opaque.device_pdi().ok().flatten(),
            ueid: Some(device.ueid()),
            gpu_pdis,
        })
    }

    /// A switch's verified claims: `x-nvidia-switch-pdi` and `x-nvidia-switch-gpu-pdis`
    /// (as NVAT writes them) and `ueid`.
    ///
    /// # Errors
    /// As [`TopologyGpu::from_claims`].
    pub fn from_claims(label: &str, claims: &Map<String, Value>) -> Result<Self, TopologyError> {
        device_type(label, claims, "nvswitch", DeviceKind::Switch)?;
        let pdi = match claims.get("x-nvidia-switch-pdi") {
            None | Some(Value::Null) => None,
            Some(value) => Some(
                value
                    .as_str()
                    .and_then(parse_pdi)
                    .ok_or_else(|| claim_invalid(label, "x-nvidia-switch-pdi"))?,
            ),
        };
        Ok(Self {
            label: label.to_string(),
            pdi,
            ueid: ueid_claim(claims),
            gpu_pdis: pdi_list_claim(label, claims, "x-nvidia-switch-gpu-pdis")?,
        })
    }
}

impl TopologyInput {
    /// The devices of a node from their verified evidence, labelled `GPU-0`…, `SWITCH-0`….
    ///
    /// # Errors
    /// [`TopologyError::TooLarge`] past [`MAX_TOPOLOGY_DEVICES`], and the devices' errors.
    pub fn from_evidence(
        gpus: &[VerifiedEvidence],
        switches: &[VerifiedEvidence],
    ) -> Result<Self, TopologyError> {
        bound(gpus.len(), "GPUs")?;
        bound(switches.len(), "switches")?;
        Ok(Self {
            gpus: labelled(gpus, DeviceKind::Gpu, TopologyGpu::from_evidence)?,
            switches: labelled(switches, DeviceKind::Switch, TopologySwitch::from_evidence)?,
        })
    }

    /// The devices of a node from the verified claims of each device token (GPU claims
    /// 4.0, switch claims 4.0), labelled as [`Self::from_evidence`] does.
    ///
    /// # Errors
    /// As [`Self::from_evidence`], and malformed claims.
    pub fn from_claims(
        gpus: &[Map<String, Value>],
        switches: &[Map<String, Value>],
    ) -> Result<Self, TopologyError> {
        bound(gpus.len(), "GPUs")?;
        bound(switches.len(), "switches")?;
        Ok(Self {
            gpus: labelled(gpus, DeviceKind::Gpu, TopologyGpu::from_claims)?,
            switches: labelled(switches, DeviceKind::Switch, TopologySwitch::from_claims)?,
        })
    }
}

pub(super) fn bound(count: usize, what: &'static str) -> Result<(), TopologyError> {
    if count > MAX_TOPOLOGY_DEVICES {
        return Err(TopologyError::TooLarge { what, device: None });
    }
    Ok(())
}

fn labelled<I, T>(
    items: &[I],
    kind: DeviceKind,
    make: impl Fn(&str, &I) -> Result<T, TopologyError>,
) -> Result<Vec<T>, TopologyError> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| make(&label(kind, i), item))
        .collect()
}

/// `GPU-0`, `SWITCH-3`: the labels of a detached result's device tokens.
pub(super) fn label(kind: DeviceKind, index: usize) -> String {
    alloc::format!("{}-{index}", kind.label_prefix())
}

fn claim_invalid(label: &str, claim: &'static str) -> TopologyError {
    TopologyError::ClaimInvalid {
        device: label.to_string(),
        claim,
    }
}

/// Claims that name their device type must name this one.
fn device_type(
    label: &str,
    claims: &Map<String, Value>,
    name: &str,
    kind: DeviceKind,
) -> Result<(), TopologyError> {
    match claims.get("x-nvidia-device-type").and_then(Value::as_str) {
        Some(found) if found != name => Err(wrong_device(label, kind)),
        _ => Ok(()),
    }
}

fn ueid_claim(claims: &Map<String, Value>) -> Option<String> {
    claims.get("ueid").and_then(Value::as_str).map(String::from)
}

/// 16 hex digits, either case.
fn parse_pdi(text: &str) -> Option<Pdi> {
    let mut pdi = [0u8; 8];
    hex::decode_to_slice(text, &mut pdi).ok()?;
    Some(pdi)
}

fn pdi_list_claim(
    label: &str,
    claims: &Map<String, Value>,
    claim: &'static str,
) -> Result<Option<Vec<Pdi>>, TopologyError> {
    let list = match claims.get(claim) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(list)) => list,
        Some(_) => return Err(claim_invalid(label, claim)),
    };
    if list.len() > MAX_DEVICE_PDIS {
        return Err(TopologyError::TooLarge {
            what: "PDIs of one device",
            device: Some(label.to_string()),
        });
    }
    list.iter()
        .map(|item| {
            item.as_str()
                .and_then(parse_pdi)
                .ok_or_else(|| claim_invalid(label, claim))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}
