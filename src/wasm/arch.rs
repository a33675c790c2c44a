//! JS API for the architecture table: `architectures()`, and the TS `Arch` union, made at
//! compile time from the table's wire names (declared once, here).

#[cfg(feature = "js-full")]
use alloc::vec::Vec;

#[cfg(feature = "js-full")]
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
#[cfg(feature = "js-full")]
use wasm_bindgen::JsValue;

#[cfg(feature = "js-full")]
use super::error::coded;
#[cfg(feature = "js-full")]
use crate::attest::{Arch, ArchProfile, Endpoint};
#[cfg(feature = "js-full")]
use crate::evidence::EvidenceProfile;

#[wasm_bindgen(typescript_custom_section)]
const TS_ARCH: &str = crate::attest::arch::TS_ARCH_UNION;

#[cfg(feature = "js-full")]
#[wasm_bindgen(typescript_custom_section)]
const TS_ARCHITECTURE: &str = r#"
/** One row of the architecture table (`architectures()`). */
export interface Architecture {
  /** The wire value of `arch`. */
  name: Arch;
  /** Which attest endpoints take it: `/v…/attest/gpu` or `/v…/attest/switch`. */
  deviceKind: "gpu" | "switch";
  /** The chip words of a certificate's `hwmodel` that name it (`GH100`, `LS_10`). */
  chips: string[];
  /** The chip name in RIM ids when no certificate gives one. */
  rimChip: string;
  /** The leaf certificate extension that carries the FWID. */
  fwidSource: "dice" | "tcb-info";
  /** The driver RIM id scheme; null when there is no driver RIM (switches). */
  driverRim: { prefix: string; chipInfo: boolean } | null;
  /** The firmware RIM id scheme. */
  firmwareRim: { scheme: "vbios"; fsp: boolean } | { scheme: "switchBios"; prefix: string };
  /** The evidence profiles (firmware engines) of the architecture, as reports name them. */
  evidenceProfiles: string[];
  /** The attest endpoints that accept it as `arch`. */
  endpoints: AttestEndpoint[];
}
"#;

/// A row as JS sees it: the core row and what other tables say about the architecture.
#[cfg(feature = "js-full")]
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Row {
    #[serde(flatten)]
    profile: &'static ArchProfile,
    evidence_profiles: Vec<&'static str>,
    endpoints: Vec<&'static str>,
}

/// The architecture table, one plain object per architecture, in the table's order.
#[cfg(feature = "js-full")]
#[wasm_bindgen(unchecked_return_type = "Architecture[]")]
pub fn architectures() -> Result<JsValue, JsValue> {
    let rows: Vec<Row> = Arch::ALL
        .iter()
        .map(|&arch| Row {
            profile: arch.profile(),
            evidence_profiles: EvidenceProfile::of_arch(arch)
                .map(EvidenceProfile::as_str)
                .collect(),
            endpoints: Endpoint::ALL
                .into_iter()
                .filter(|endpoint| endpoint.arches().contains(&arch))
                .map(Endpoint::path)
                .collect(),
        })
        .collect();
    rows.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|_| {
            coded(
                "ERR_INTERNAL",
                "could not build the architecture rows",
                None,
            )
        })
}
