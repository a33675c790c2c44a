//! The TS `Arch` union, made at compile time from the architecture table's wire names (the
//! table itself: `architectures`).

use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(typescript_custom_section)]
const TS_ARCH: &str = crate::attest::arch::TS_ARCH_UNION;
