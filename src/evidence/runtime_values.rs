//! [`RuntimeEvidence`] as JS and JSON write it (`RuntimeEvidenceInput`): the core's field
//! names in camelCase, measurement blocks keyed by their index as text (`"2"`), bytes as
//! lowercase hex (read also from bytes or an array of bytes), absent values left out. The
//! same shape in both directions: what `runtimeEvidence` returns, `rimIds` and the
//! comparisons take back.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{Error as _, Unexpected, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::rim::{OpaqueValue, RuntimeEvidence};

/// The JSON form of [`RuntimeEvidence`]; convert with `From` both ways. Unknown members are
/// refused.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RuntimeEvidenceInput {
    /// SPDM measurement blocks by 1-based index: hex text or bytes.
    #[cfg_attr(
        feature = "ts",
        ts(optional, type = "Record<string, string | Uint8Array>")
    )]
    measurements: Option<BTreeMap<Index, HexText>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    driver_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vbios_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    project: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    project_sku: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chip_sku: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chip_info: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nvdec0_status: Option<u8>,
    #[cfg_attr(feature = "ts", ts(inline))]
    opaque: Option<Vec<OpaqueInput>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hwmodel: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    apsku: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    firmware_version_hint: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct OpaqueInput {
    id: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    value_type: Option<u16>,
    #[cfg_attr(feature = "ts", ts(type = "string | Uint8Array"))]
    value: HexText,
}

/// A measurement block's SPDM index, 1 to 255, written as an object key (`"2"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Index(u8);

impl Serialize for Index {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Index {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Key;
        impl Visitor<'_> for Key {
            type Value = Index;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("keyed by an SPDM index 1 to 255")
            }
            fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<Index, E> {
                key.parse::<u8>()
                    .ok()
                    .filter(|i| *i >= 1)
                    .map(Index)
                    .ok_or_else(|| E::invalid_value(Unexpected::Str(key), &self))
            }
        }
        deserializer.deserialize_str(Key).map_err(D::Error::custom)
    }
}

/// Bytes written as lowercase hex text; read as every byte member is read (hex text, bytes,
/// or an array of integers 0 to 255: [`crate::bytes::HexBytes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
struct HexText(Vec<u8>);

impl Serialize for HexText {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&hex::encode(&self.0))
    }
}

impl<'de> Deserialize<'de> for HexText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::bytes::HexBytes::deserialize(deserializer).map(|bytes| Self(bytes.0))
    }
}

impl From<RuntimeEvidenceInput> for RuntimeEvidence {
    fn from(input: RuntimeEvidenceInput) -> Self {
        Self {
            measurements: input
                .measurements
                .unwrap_or_default()
                .into_iter()
                .map(|(Index(i), HexText(bytes))| (i, bytes))
                .collect(),
            driver_version: input.driver_version,
            vbios_version: input.vbios_version,
            project: input.project,
            project_sku: input.project_sku,
            chip_sku: input.chip_sku,
            chip_info: input.chip_info,
            nvdec0_status: input.nvdec0_status,
            opaque: input
                .opaque
                .unwrap_or_default()
                .into_iter()
                .map(|o| OpaqueValue {
                    id: o.id,
                    value_type: o.value_type,
                    value: o.value.0,
                })
                .collect(),
            hwmodel: input.hwmodel,
            apsku: input.apsku,
            firmware_version_hint: input.firmware_version_hint,
        }
    }
}

impl From<RuntimeEvidence> for RuntimeEvidenceInput {
    fn from(values: RuntimeEvidence) -> Self {
        Self {
            measurements: Some(
                values
                    .measurements
                    .into_iter()
                    .map(|(i, bytes)| (Index(i), HexText(bytes)))
                    .collect(),
            ),
            driver_version: values.driver_version,
            vbios_version: values.vbios_version,
            project: values.project,
            project_sku: values.project_sku,
            chip_sku: values.chip_sku,
            chip_info: values.chip_info,
            nvdec0_status: values.nvdec0_status,
            opaque: Some(
                values
                    .opaque
                    .into_iter()
                    .map(|o| OpaqueInput {
                        id: o.id,
                        value_type: o.value_type,
                        value: HexText(o.value),
                    })
                    .collect(),
            ),
            hwmodel: values.hwmodel,
            apsku: values.apsku,
            firmware_version_hint: values.firmware_version_hint,
        }
    }
}
