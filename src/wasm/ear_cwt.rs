//! `prepareEarCwtVerification(token, keySet, options)`: a CWT EAR (`COSE_Sign1`, ES384, draft
//! -04's claims) prepared by the core (`prepare_ear_cwt`: structure, key selection by the
//! header's `kid`, `signers` pinning, the claims' shape), its signature checks handed to JS
//! (WebCrypto) and completed with their verdicts: the times, the claims, `eat_nonce`. The
//! result is the core's `EarData`, as `readEar` writes a JWT EAR's. Not in the default entry:
//! the CBOR and COSE readers stay out of the relying party's smallest module.

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::error::OrJs;
use super::pending::Pending;
use super::token::keys::KeySet;
use super::token::verify::verify_input;
use super::{args, convert};
use crate::crypto::Deferred;
use crate::ear::{prepare_ear_cwt, Ear, EarEncoding, PreparedEar};
use crate::token::MAX_TOKEN_BYTES;

/// A CWT EAR between its two phases: `checks` go to a backend, `finish(verdicts)` completes
/// it. Single use.
#[wasm_bindgen(js_name = EarVerification)]
pub struct EarVerification(Pending<PreparedEar>);

#[wasm_bindgen(js_class = EarVerification)]
impl EarVerification {
    /// The signature checks to run, in order: the message's, then the pinned chain's links.
    #[wasm_bindgen(unchecked_return_type = "SignatureCheckData[]")]
    pub fn checks(&self) -> Result<JsValue, JsValue> {
        self.0.checks()
    }

    /// Completes the verification with one boolean verdict per check.
    #[wasm_bindgen(unchecked_return_type = "EarData")]
    pub fn finish(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean[]")] verdicts: JsValue,
    ) -> Result<JsValue, JsValue> {
        data(&self.0.finish(&verdicts)?)
    }

    /// Completes the verification with the software backend.
    #[wasm_bindgen(js_name = verifySoftware, unchecked_return_type = "EarData")]
    pub fn verify_software(&mut self) -> Result<JsValue, JsValue> {
        data(&self.0.take()?.finish_in_software().or_js()?)
    }
}

/// Phase one of verifying a CWT EAR (bytes) against a key set (see
/// `crate::ear::prepare_ear_cwt`); the options are `verifyJwt`'s core options (`nonce`,
/// `maxTokenAge`, `clockTolerance`, `signers`, `now`; `issuer`, `audience` and `subject`
/// refuse a CWT EAR, which carries none).
#[wasm_bindgen(js_name = prepareEarCwtVerification)]
pub fn prepare_ear_cwt_verification(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array")] token: JsValue,
    #[wasm_bindgen(js_name = keySet)] key_set: &KeySet,
    #[wasm_bindgen(unchecked_param_type = "CoreVerifyOptions")] options: JsValue,
) -> Result<EarVerification, JsValue> {
    let token = args::bytes(&token, "token")?;
    if token.len() > MAX_TOKEN_BYTES {
        return Err(super::error::invalid_argument(
            "token",
            "a CWT EAR of at most the token size limit",
        ));
    }
    let (input, now) = verify_input(&options)?;
    let options = input.options().or_js()?;
    let prepared = prepare_ear_cwt(&token, &key_set.jwks, &options, now).or_js()?;
    Ok(EarVerification(Pending::new(prepared, "verification")))
}

fn data(ear: &Ear) -> Result<JsValue, JsValue> {
    convert::json_to_js(&ear.data(EarEncoding::Cwt))
}
