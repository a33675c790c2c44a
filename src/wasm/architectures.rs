//! JS API for the architecture table: `architectures()` (`attest::ArchitectureRow`).

use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(typescript_custom_section)]
const TS_ARCHITECTURE: &str = include_str!("types/arch.d.ts");

/// The architecture table, one plain object per architecture (Hopper, Blackwell, the LS10
/// switch), in the table's order: what each needs and how its evidence is read.
///
/// @example
/// ```ts
/// for (const row of architectures()) console.log(row.name, row.deviceKind, row.endpoints);
/// ```
#[wasm_bindgen(unchecked_return_type = "Architecture[]")]
pub fn architectures() -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
    super::convert::json_to_js(&crate::attest::ArchitectureRow::all())
}
