//! The JS `RuntimeEvidenceInput` (the evidence values RIM selection and comparison use),
//! read by the core's serde type [`RuntimeEvidenceInput`] into its `RuntimeEvidence`.

use wasm_bindgen::JsValue;

use super::convert::members_from_js;
use crate::evidence::RuntimeEvidenceInput;
use crate::rim::RuntimeEvidence;

/// Reads `value` (the argument `field`) as runtime evidence; a failing member is named by
/// itself (`measurements.2`, `opaque[0].value`).
pub(crate) fn read(value: &JsValue, field: &str) -> Result<RuntimeEvidence, JsValue> {
    Ok(members_from_js::<RuntimeEvidenceInput>(value, field)?.into())
}
