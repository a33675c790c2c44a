//! The appraisal's parts: AR4SI tiers and trustworthiness vectors, one submodule's
//! appraisal, the verifier's id. The same in every EAR dialect and encoding; only the claim
//! names around them differ (`super::json`, `super::cwt`).

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Serialize, Serializer};
use serde_json::Value;

/// The verifier id's `developer`: who wrote the verifier.
pub const EAR_DEVELOPER: &str = "https://github.com/edgeattest/edgeattest";
/// An AR4SI trustworthiness tier (`ear.status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(rename = "EarStatus", rename_all = "lowercase")
)]
#[non_exhaustive]
pub enum TrustTier {
    /// No claim is made (values −1..1).
    None,
    /// Values 2..31.
    Affirming,
    /// Values 32..95.
    Warning,
    /// Values 96..127 (and the reserved negatives).
    Contraindicated,
}

impl TrustTier {
    /// The tier's name, as `ear.status` writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Affirming => "affirming",
            Self::Warning => "warning",
            Self::Contraindicated => "contraindicated",
        }
    }

    /// The tier a trustworthiness claim value falls in.
    pub fn of_value(value: i8) -> Self {
        match value {
            -1..=1 => Self::None,
            2..=31 => Self::Affirming,
            32..=95 => Self::Warning,
            _ => Self::Contraindicated,
        }
    }

    /// The tier's CBOR value (`ar4si.cddl`: 0, 2, 32, 96).
    pub(super) fn cbor_value(self) -> u8 {
        match self {
            Self::None => 0,
            Self::Affirming => 2,
            Self::Warning => 32,
            Self::Contraindicated => 96,
        }
    }

    /// The tier of a CBOR value; only the four the CDDL names are tiers.
    pub(super) fn from_cbor(value: u64) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|tier| u64::from(tier.cbor_value()) == value)
    }

    const ALL: [Self; 4] = [
        Self::None,
        Self::Affirming,
        Self::Warning,
        Self::Contraindicated,
    ];

    pub(super) fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|tier| tier.as_str() == text)
    }
}

impl Serialize for TrustTier {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// An AR4SI trustworthiness vector: one optional claim value per aspect, each present one
/// from -128 to 127.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(rename = "TrustworthinessVector", optional_fields)
)]
pub struct TrustVector {
    /// Whether the attester is the instance it claims to be.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instance_identity: Option<i8>,
    /// Whether its configuration is approved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub configuration: Option<i8>,
    /// Whether its firmware and software are recognised and approved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub executables: Option<i8>,
    /// File-system integrity (never written here).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_system: Option<i8>,
    /// Whether the hardware is genuine.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardware: Option<i8>,
    /// Run-time opacity (never written here).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtime_opaque: Option<i8>,
    /// Storage opacity (never written here).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub storage_opaque: Option<i8>,
    /// Sourced-data integrity (never written here).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sourced_data: Option<i8>,
}

/// The vector's keys, in `ar4si.cddl`'s order: a key's index is its CBOR key.
pub(super) const VECTOR_KEYS: [&str; 8] = [
    "instance-identity",
    "configuration",
    "executables",
    "file-system",
    "hardware",
    "runtime-opaque",
    "storage-opaque",
    "sourced-data",
];

impl TrustVector {
    /// Reads a vector: a non-empty object of the eight AR4SI keys, each an integer from −128
    /// to 127 (read by hand rather than through serde's derive: smaller wasm).
    pub(super) fn read(value: &Value) -> Option<Self> {
        let object = value.as_object().filter(|o| !o.is_empty())?;
        let mut vector = Self::default();
        for (key, value) in object {
            let claim = i8::try_from(value.as_i64()?).ok()?;
            let at = VECTOR_KEYS.iter().position(|k| k == key)?;
            *vector.slot(at)? = Some(claim);
        }
        Some(vector)
    }

    /// The slot of the key at `index` of [`VECTOR_KEYS`] (its CBOR key).
    pub(super) fn slot(&mut self, index: usize) -> Option<&mut Option<i8>> {
        Some(match index {
            0 => &mut self.instance_identity,
            1 => &mut self.configuration,
            2 => &mut self.executables,
            3 => &mut self.file_system,
            4 => &mut self.hardware,
            5 => &mut self.runtime_opaque,
            6 => &mut self.storage_opaque,
            7 => &mut self.sourced_data,
            _ => return None,
        })
    }

    /// The values in [`VECTOR_KEYS`] order.
    pub(super) fn values(&self) -> [Option<i8>; 8] {
        [
            self.instance_identity,
            self.configuration,
            self.executables,
            self.file_system,
            self.hardware,
            self.runtime_opaque,
            self.storage_opaque,
            self.sourced_data,
        ]
    }

    /// Whether no key holds a value.
    pub fn is_empty(&self) -> bool {
        self.values().iter().all(Option::is_none)
    }

    /// The worst tier of its values (`None` for an empty vector).
    pub fn tier(&self) -> TrustTier {
        self.values()
            .into_iter()
            .flatten()
            .map(TrustTier::of_value)
            .max()
            .unwrap_or(TrustTier::None)
    }
}

/// One submodule's appraisal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EarAppraisal {
    /// `ear.status` / `ear_status`.
    pub status: TrustTier,
    /// `ear.trustworthiness-vector` / `ear_trustworthiness_vector` (omitted when empty).
    pub vector: Option<TrustVector>,
    /// The appraisal policies applied, in order (-04 `ear_appraisal_policy_ids`; the
    /// veraison profile's `ear.appraisal-policy-id` holds one: the first is written, one is
    /// read). This crate writes the relying-party policy's id, when one was applied.
    pub policy_ids: Vec<String>,
}

/// `ear.verifier-id`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct VerifierId {
    /// Who wrote the verifier.
    pub developer: String,
    /// Which build of it.
    pub build: String,
}

impl VerifierId {
    /// This crate: [`EAR_DEVELOPER`], `edgeattest <version>`.
    pub fn edgeattest() -> Self {
        Self {
            developer: EAR_DEVELOPER.into(),
            build: alloc::format!("edgeattest {}", env!("CARGO_PKG_VERSION")),
        }
    }

    /// The verifier id a JSON object states: exactly `developer` and `build`, both strings.
    pub(crate) fn from_json(value: Option<&Value>) -> Option<Self> {
        let id = value?.as_object().filter(|id| id.len() == 2)?;
        let text = |name: &str| id.get(name).and_then(Value::as_str).map(String::from);
        Some(Self {
            developer: text("developer")?,
            build: text("build")?,
        })
    }
}
