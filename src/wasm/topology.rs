//! `checkTopology` and `checkResultsTopology`: the protected-PCIe topology of a node of GPUs
//! and NVSwitches, from the devices' evidence or from a GPU result and a switch result the
//! relying party verified. The rules and the join are the core's (`crate::evidence`); this
//! reads the JS arguments into them and writes the report.

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::args::clock;
use super::convert::{json_to_js, optional_options_from_js, options_from_js, Js};
use super::error::{to_js, OrJs};
use super::verified::kept;
use crate::evidence::{
    check_topology, ResultClaims, TopologyError, TopologyEvidenceOptions, TopologyInput,
    TopologyOptions,
};

#[wasm_bindgen(typescript_custom_section)]
const TS_TOPOLOGY: &str = include_str!("types/topology.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const TS_TOPOLOGY_HAND: &str = include_str!("types/hand/topology.d.ts");

/// A topology error (a device's own, or a refusal of the rules) as a coded JS error.
impl From<TopologyError> for JsValue {
    fn from(error: TopologyError) -> Self {
        to_js(&error)
    }
}

/// Checks a node's protected-PCIe topology from its devices' evidence: every GPU of `gpus`
/// and every switch of `switches` (each `prepareEvidence`'s options) is verified with the
/// software backend, then NVIDIA's PPCIE rules and edgeattest's own are applied to the links
/// they report. Returns the `TopologyReport`: every rule's outcome, the failing links, and a
/// `verdict` that is `passed` only when no rule failed. The devices' RIMs and revocation are
/// not judged here: a node passes when every device passed its attestation and its
/// topology passed.
///
/// @throws EdgeAttestError `ERR_INVALID_ARGUMENT` for options of the wrong shape (with
/// `field`, e.g. `gpus.devices[1].evidence`), the first device whose evidence does not verify
/// with its own code (`ERR_EVIDENCE_SIGNATURE`, `ERR_CHAIN_*`; the message names `GPU-3`),
/// `ERR_TOPOLOGY_WRONG_DEVICE` for a switch among the GPUs or the reverse,
/// `ERR_TOPOLOGY_TOO_LARGE` past 64 devices of a kind or 64 links of a device.
///
/// @example
/// ```ts
/// declare const gpus: { evidence: string; certificate: string }[];     // 8 GPUs
/// declare const switches: { evidence: string; certificate: string }[]; // 4 NVSwitches
/// declare const nonce: string; // the one nonce both sets answer
/// const report = checkTopology({
///   gpus: { devices: gpus, nonce, arch: 'HOPPER' },
///   switches: { devices: switches, nonce, arch: 'LS10' },
/// });
/// if (report.verdict !== 'passed') console.error(report.failedRules, report.rules);
/// ```
#[wasm_bindgen(js_name = checkTopology, unchecked_return_type = "TopologyReport")]
pub fn check_topology_of_evidence(
    #[wasm_bindgen(unchecked_param_type = "TopologyEvidenceOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let options: TopologyEvidenceOptions<Js> = options_from_js(&options)?;
    json_to_js(&options.check(clock)?)
}

/// Checks a node's protected-PCIe topology from its GPU result and its switch result, each as
/// `verifyAttestationResult` returned it (GPU claims 4.0 and switch claims 3.0 carry the
/// links; as `appraise`, the object is read as given, so pass the one verification returned,
/// not a copy from elsewhere): both must have
/// passed and answer one nonce. Returns the `TopologyReport` as `checkTopology` does. No claim
/// carries a GPU's own PDI, so the rules that match the switches' GPU lists with the GPUs fail
/// unless `options.matchGpuPdis` is `false` (the report then says they were skipped).
///
/// @throws EdgeAttestError `ERR_TOPOLOGY_RESULT_FAILED` for a result that did not pass,
/// `ERR_TOPOLOGY_NONCE_MISMATCH` for results of different nonces, `ERR_TOPOLOGY_WRONG_DEVICE`,
/// `ERR_TOPOLOGY_CLAIM_INVALID` for a link claim that is not a list of PDIs,
/// `ERR_TOPOLOGY_TOO_LARGE`, `ERR_INVALID_ARGUMENT` for a result that is not verified data or
/// options of the wrong shape.
///
/// @example
/// ```ts
/// declare const gpuResult: VerifiedAttestationResultData;    // /v4/attest/gpu, claims 4.0
/// declare const switchResult: VerifiedAttestationResultData; // /v4/attest/switch, same nonce
/// const report = checkResultsTopology(gpuResult, switchResult, { matchGpuPdis: false });
/// if (report.verdict !== 'passed') throw new Error(`topology: ${report.failedRules.join(', ')}`);
/// ```
#[wasm_bindgen(js_name = checkResultsTopology, unchecked_return_type = "TopologyReport")]
pub fn check_results_topology(
    #[wasm_bindgen(unchecked_param_type = "VerifiedAttestationResultData")] gpu_result: JsValue,
    #[wasm_bindgen(unchecked_param_type = "VerifiedAttestationResultData")] switch_result: JsValue,
    #[wasm_bindgen(unchecked_param_type = "TopologyOptions | undefined")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let options: TopologyOptions = optional_options_from_js(&options)?;
    let (gpus, switches) = (kept(&gpu_result)?, kept(&switch_result)?);
    let (_, gpu_overall, gpu_devices) = gpus.parts().or_js()?;
    let (_, switch_overall, switch_devices) = switches.parts().or_js()?;
    let input = TopologyInput::from_results(
        ResultClaims {
            overall: gpu_overall,
            devices: &gpu_devices,
        },
        ResultClaims {
            overall: switch_overall,
            devices: &switch_devices,
        },
    )
    .or_js()?;
    json_to_js(&check_topology(&input, &options).or_js()?)
}
