//! JS API for `crate::token`: keys, key sets, two-phase verification (the signature checks
//! go out as data so that `src/js/token.js` can run them with WebCrypto), and minting.
//!
//! These are the raw exports; the package's public token API is `src/js/token.js`, which
//! adds the WebCrypto backend, backend selection and the clock.

pub(super) mod keys;
mod mint;
pub(super) mod verify;

use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(typescript_custom_section)]
const TS_TOKEN: &str = include_str!("types/token.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const TS_TOKEN_HAND: &str = include_str!("types/hand/token.d.ts");
