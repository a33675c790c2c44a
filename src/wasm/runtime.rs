//! The JS `RuntimeEvidenceInput` (the evidence values RIM selection and comparison use),
//! read with serde into the core's `RuntimeEvidence`. The same names as the core's fields,
//! in camelCase; bytes as hex text or a `Uint8Array`.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{Error as _, Visitor};
use serde::{Deserialize, Deserializer};
use wasm_bindgen::JsValue;

use super::convert::{members_from_js, ByteBuf};
use crate::rim::{OpaqueValue, RuntimeEvidence};

/// Reads `value` (the argument `field`) as runtime evidence; a failing member is named by
/// itself (`measurements.2`, `opaque[0].value`).
pub(crate) fn read(value: &JsValue, field: &str) -> Result<RuntimeEvidence, JsValue> {
    Ok(members_from_js::<RuntimeEvidenceIn>(value, field)?.into())
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RuntimeEvidenceIn {
    measurements: Option<BTreeMap<Index, ByteBuf>>,
    driver_version: Option<String>,
    vbios_version: Option<String>,
    project: Option<String>,
    project_sku: Option<String>,
    chip_sku: Option<String>,
    chip_info: Option<String>,
    nvdec0_status: Option<u8>,
    opaque: Option<Vec<OpaqueIn>>,
    hwmodel: Option<String>,
    apsku: Option<u16>,
    firmware_version_hint: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct OpaqueIn {
    id: u16,
    value_type: Option<u16>,
    value: ByteBuf,
}

/// A measurement block's SPDM index, 1 to 255, written as an object key (`"2"`).
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Index(u8);

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
                    .ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(key), &self))
            }
        }
        deserializer.deserialize_str(Key).map_err(D::Error::custom)
    }
}

impl From<RuntimeEvidenceIn> for RuntimeEvidence {
    fn from(input: RuntimeEvidenceIn) -> Self {
        Self {
            measurements: input
                .measurements
                .unwrap_or_default()
                .into_iter()
                .map(|(Index(i), ByteBuf(bytes))| (i, bytes))
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
