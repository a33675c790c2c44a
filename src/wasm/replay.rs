//! JS API for `crate::service::replay`: `replayAttestation`, a bundle's verdict recomputed
//! offline beside the recorded one. TS types: types/replay.d.ts.

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::args;
use super::convert::{self, json_to_js};
use super::error::OrJs;
use crate::service::replay::{replay, ReplayOptions};

#[wasm_bindgen(typescript_custom_section)]
const TS_REPLAY: &str = include_str!("types/replay.d.ts");

/// Replays a bundle (an attestation answered with `x-edgeattest-replay: bundle`: its JSON
/// text, bytes or parsed object) offline, with the software backend and an ephemeral key:
/// no network, no service key. `options` names the extra trust anchors besides NVIDIA's
/// (PEM; the service's `trustAnchors` and `rimTrustAnchors`): the bundle holds only their
/// digests. Returns the replayed verdict beside the
/// recorded one and each difference; `matches` is true only when there is none. Throws
/// `ERR_REPLAY_BUNDLE_*` for a bundle that cannot be read, the service options' code (field
/// `trustAnchors` / `rimTrustAnchors`) for anchors that do not read.
///
/// @example
/// ```ts
/// declare const bundle: string;
/// const { matches, differences } = replayAttestation(bundle);
/// if (!matches) console.error(differences);
/// ```
#[wasm_bindgen(js_name = replayAttestation, unchecked_return_type = "Replayed")]
pub fn replay_attestation(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | object")] bundle: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ReplayOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let bundle = args::json_bytes(&bundle, "bundle")?;
    let options: ReplayOptions = convert::optional_options_from_js(&options)?;
    let anchors = options.anchors().or_js()?;
    let key_random = args::random_bytes::<48>()?;
    json_to_js(&replay(&bundle, &anchors, &key_random).or_js()?)
}
