//! Two-phase verification: `prepare*` hands out a `TokenVerification` whose `checks()` a JS
//! backend runs; `finish(verdicts)` completes it. Also the software backend on raw checks.
//! The options are the core's `VerifyInput`; the results are the core's serde shapes.

use alloc::vec::Vec;

use js_sys::Reflect;
use serde::Deserialize;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::super::error::{to_js, OrJs};
use super::super::pending::Pending;
use super::super::{args, convert};
use super::keys::KeySet;
use crate::crypto::Deferred;
use crate::time::UnixTime;
use crate::token::{PreparedToken, TokenVerdict, VerdictLevel, VerifyInput};

/// A verification between its two phases: `checks` go to a backend, `finish(verdicts)`
/// completes it. Single use.
#[wasm_bindgen(js_name = TokenVerification, skip_typescript)]
pub struct TokenVerification(Pending<PreparedToken>);

#[wasm_bindgen(js_class = TokenVerification)]
impl TokenVerification {
    /// The signature checks to run, in order.
    #[wasm_bindgen(unchecked_return_type = "SignatureCheckData[]")]
    pub fn checks(&self) -> Result<JsValue, JsValue> {
        self.0.checks()
    }

    /// Completes the verification with one boolean verdict per check.
    #[wasm_bindgen(unchecked_return_type = "VerifiedJwtResult | VerifiedAttestationResultData")]
    pub fn finish(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean[]")] verdicts: JsValue,
    ) -> Result<JsValue, JsValue> {
        verdict_js(self.0.finish(&verdicts)?)
    }

    /// Completes the verification with the software backend.
    #[wasm_bindgen(
        js_name = verifySoftware,
        unchecked_return_type = "VerifiedJwtResult | VerifiedAttestationResultData"
    )]
    pub fn verify_software(&mut self) -> Result<JsValue, JsValue> {
        verdict_js(self.0.take()?.finish_in_software().or_js()?)
    }
}

/// Phase one of JWT verification (see `crate::token::prepare_jwt`).
#[wasm_bindgen(js_name = prepareJwtVerification)]
pub fn prepare_jwt_verification(
    #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
    #[wasm_bindgen(js_name = keySet)] key_set: &KeySet,
    #[wasm_bindgen(unchecked_param_type = "CoreVerifyOptions")] options: JsValue,
) -> Result<TokenVerification, JsValue> {
    let token = args::string_arg(&token, "token")?;
    let (input, now) = verify_input(&options)?;
    let prepared = input.prepare_jwt(&token, &key_set.jwks, now);
    Ok(pending(prepared.or_js()?.into()))
}

/// Phase one of attestation-result verification (either shape).
#[wasm_bindgen(js_name = prepareAttestationResultVerification)]
pub fn prepare_attestation_result_verification(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | unknown[] | object")]
    result: JsValue,
    #[wasm_bindgen(js_name = keySet)] key_set: &KeySet,
    #[wasm_bindgen(unchecked_param_type = "CoreVerifyOptions")] options: JsValue,
) -> Result<TokenVerification, JsValue> {
    let (input, now) = verify_input(&options)?;
    let bytes = args::json_bytes(&result, "result")?;
    let prepared = input.prepare_attestation_result(&bytes, &key_set.jwks, now);
    Ok(pending(prepared.map_err(|e| leveled(&e))?.into()))
}

/// Reads a `signers` option as a verification reads it, refusing another shape
/// (`ERR_INVALID_ARGUMENT` naming `signers`): `createRemoteJWKSet` checks its option once,
/// at creation, rather than at each verification that uses the set.
#[wasm_bindgen(js_name = checkSigners)]
pub fn check_signers(
    #[wasm_bindgen(unchecked_param_type = "NonNullable<CoreVerifyOptions['signers']>")]
    signers: JsValue,
) -> Result<(), JsValue> {
    convert::from_js::<crate::token::Signers>(&signers, "signers").map(drop)
}

/// Runs signature checks with the software backend: one boolean per check (the same data
/// `TokenVerification.checks` hands out, or any `{publicKey, message, signature}`).
#[wasm_bindgen(js_name = verifyChecksSoftware)]
pub fn verify_checks_software(
    #[wasm_bindgen(unchecked_param_type = "SignatureCheckData[]")] checks: JsValue,
) -> Result<Vec<u8>, JsValue> {
    let checks: Vec<CheckIn> = convert::from_js(&checks, "checks")?;
    let verify = |c: &CheckIn| {
        crate::crypto::verify_p384_sha384(&c.public_key.0, &c.message.0, &c.signature.0)
    };
    Ok(checks
        .iter()
        .map(|check| u8::from(verify(check).is_ok()))
        .collect())
}

/// A `SignatureCheckData` given back: `{publicKey, message, signature}`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CheckIn {
    public_key: crate::bytes::HexBytes,
    message: crate::bytes::HexBytes,
    signature: crate::bytes::HexBytes,
}

fn pending(prepared: PreparedToken) -> TokenVerification {
    TokenVerification(Pending::new(prepared, "verification"))
}

/// The options and `now` (read by the binding's one time reader: a number or a `Date`).
pub(in crate::wasm) fn verify_input(options: &JsValue) -> Result<(VerifyInput<convert::Js>, UnixTime), JsValue> {
    let input: VerifyInput<convert::Js> = convert::options_from_js(options)?;
    let now = args::time(
        input.now.as_ref().map_or(&JsValue::UNDEFINED, |now| &now.0),
        "now",
    )?;
    Ok((input, now))
}

/// The verified JWT or result; an attestation result's first failure carries every token's
/// verdict (`verdicts`), and a refused verdict the `appraisal` and the verified `result`.
fn verdict_js(verdict: TokenVerdict) -> Result<JsValue, JsValue> {
    let report = match verdict {
        TokenVerdict::Jwt(jwt) => return convert::json_to_js(&jwt),
        TokenVerdict::Result(report) => report,
    };
    if let Some(error) = report.first_error() {
        let level = VerdictLevel::of_token_failures(&report).map(VerdictLevel::as_str);
        let error = to_js(&error);
        let verdicts = convert::json_to_js(&report)?;
        let level = level.map_or(JsValue::NULL, JsValue::from_str);
        return Err(with(error, &[("verdicts", verdicts), ("level", level)]));
    }
    report.into_verified().map_or_else(
        |error| {
            let Some((_, result)) = error.refused_result() else {
                return Err(to_js(&error));
            };
            let result = convert::json_to_js(result)?;
            let appraisal = Reflect::get(&result, &"appraisal".into())?;
            let level = Reflect::get(&appraisal, &"level".into())?;
            let members = [
                ("appraisal", appraisal),
                ("result", result),
                ("level", level),
            ];
            Err(with(to_js(&error), &members))
        },
        |verified| convert::json_to_js(&verified),
    )
}

/// A token failure as JS, with its level on the verdict scale (`null`: the caller's options).
fn leveled(error: &crate::token::TokenError) -> JsValue {
    let level = VerdictLevel::of_error(error).map(VerdictLevel::as_str);
    let level = level.map_or(JsValue::NULL, JsValue::from_str);
    with(to_js(error), &[("level", level)])
}

fn with(error: JsValue, members: &[(&str, JsValue)]) -> JsValue {
    for (name, value) in members {
        let _ = Reflect::set(&error, &(*name).into(), value);
    }
    error
}
