//! Composite EARs in JS (the core's `crate::ear::compose_ear` and its composition rule):
//! - `composeEarClaims(options)`: our verified GPU submodules (a `verifyEar` result),
//!   relabelled, beside the caller's foreign ones, as the unsigned claims of one EAR;
//! - `earJwtSigningInput(claims, kid)` and `prepareEarCwtSigning(claims, kid)`: an EAR's
//!   claims (read by the core's rules) as the input a host-side key signs, JWT or CWT;
//! - `prepareCompositeEarVerification(token, keySet, options, gpus)`: an EAR verified in two
//!   phases as `prepareEarCwtVerification` does (either encoding), then held to the
//!   composition rule (`check_composite_ear`).
//!
//! In the service entry only: the CWT writer and reader stay out of the relying party's
//! smallest module, and this module's cost (about 10 KB gzip) out of the local verifier's.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::error::{coded, invalid_argument, OrJs};
use super::pending::Pending;
use super::token::keys::KeySet;
use super::token::verify::verify_input;
use super::{args, convert};
use crate::crypto::Deferred;
use crate::ear::{
    check_composite_ear, compose_ear, prepare_ear, prepare_ear_cwt, Ear, EarAppraisal,
    EarCwtInput, EarDialect, EarEncoding, EarError, PreparedEar, VerifierId, EAR_PROFILE_04,
};
use crate::error_code::ErrorCode;
use crate::token::MAX_TOKEN_BYTES;

#[wasm_bindgen(typescript_custom_section)]
const TS_EAR_COMPOSITE_HAND: &str = include_str!("types/hand/ear_composite.d.ts");

/// The options `composeEarClaims` reads; any other member is refused (a misspelt option must
/// not fall back to its default).
const OPTIONS: [&str; 7] = [
    "gpus",
    "relabel",
    "foreign",
    "dialect",
    "nonce",
    "iat",
    "verifierId",
];

/// The claims of a composite EAR (`ComposeEarOptions` → `CompositeEar`): the submodules of
/// `gpus` relabelled, then `foreign`'s, in `dialect` (default: the GPU EAR's), with `nonce`
/// as `eat_nonce`, issued at `iat` by `verifierId`. Throws `ERR_EAR_SHAPE` (`submods`: a
/// label twice; `foreign/<label>/status`, …: an appraisal the core does not read;
/// `eat_nonce`: a nonce -04 cannot carry) or `ERR_INVALID_ARGUMENT`.
#[wasm_bindgen(js_name = composeEarClaims, unchecked_return_type = "CompositeEar")]
pub fn compose_ear_claims(
    #[wasm_bindgen(unchecked_param_type = "ComposeEarOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let Ok(Value::Object(options)) = crate::json::parse(&args::json_bytes(&options, "options")?)
    else {
        return Err(invalid_argument("options", "an object"));
    };
    if let Some(name) = options.keys().find(|name| !OPTIONS.contains(&name.as_str())) {
        return Err(invalid_argument(name, "absent: composeEar has no such option"));
    }
    let gpus = options
        .get("gpus")
        .and_then(Value::as_object)
        .ok_or_else(|| invalid_argument("gpus", "a verified EAR (verifyEar's result)"))?;
    let (gpu_ear, gpu_dialect) = gpu_ear(gpus)?;
    let relabel = relabelling(options.get("relabel"), &gpu_ear)?;
    let foreign = match options.get("foreign") {
        Some(Value::Object(foreign)) if !foreign.is_empty() => {
            appraisals(foreign.iter().map(|(l, v)| (l.clone(), v)), "foreign")?
        }
        _ => return Err(invalid_argument("foreign", "an object of appraisals by label")),
    };
    let dialect = match options.get("dialect") {
        None => gpu_dialect,
        Some(dialect) => dialect_of(dialect).ok_or_else(|| {
            invalid_argument("dialect", "'veraison' or 'ietf-04'")
        })?,
    };
    let nonce = match options.get("nonce") {
        Some(Value::String(nonce)) => nonce.clone(),
        _ => return Err(invalid_argument("nonce", "a string (the challenge, as hex for -04)")),
    };
    let iat = options
        .get("iat")
        .and_then(Value::as_i64)
        .ok_or_else(|| invalid_argument("iat", "an integer (Unix seconds)"))?;
    let verifier_id = VerifierId::from_json(options.get("verifierId"))
        .ok_or_else(|| invalid_argument("verifierId", "{ developer, build }, two strings"))?;
    let relabel = |label: &str| {
        relabel
            .iter()
            .find(|(from, _)| from == label)
            .map(|(_, to)| to.clone())
    };
    let ear = compose_ear(
        &gpu_ear,
        &relabel,
        foreign,
        dialect,
        iat,
        Some(nonce),
        verifier_id,
    )
    .or_js()?;
    let claims = crate::json::parse(ear.to_json().as_bytes())
        .map_err(|_| coded("ERR_INTERNAL", "the EAR's claims did not read back", None))?;
    let mut out = Map::new();
    out.insert("claims".into(), claims);
    out.insert("dialect".into(), ear.dialect().as_str().into());
    out.insert("status".into(), ear.status().as_str().into());
    out.insert("affirming".into(), ear.affirming().into());
    convert::json_to_js(&Value::Object(out))
}

/// The JWS signing input of the EAR `claims` describe (either dialect, read by the core's
/// rules), header `{"kid": kid, "alg": "ES384"}`: sign it, then `assembleJws`.
#[wasm_bindgen(js_name = earJwtSigningInput)]
pub fn ear_jwt_signing_input(
    #[wasm_bindgen(unchecked_param_type = "Record<string, unknown>")] claims: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] kid: JsValue,
) -> Result<String, JsValue> {
    let kid = args::string_arg(&kid, "kid")?;
    read_claims(&claims)?.signing_input(&kid).or_js()
}

/// A CWT EAR before its signature: sign `toBeSigned()` (ES384, raw r||s), then `assemble`.
#[wasm_bindgen(js_name = EarCwtSigning)]
pub struct EarCwtSigning(EarCwtInput);

#[wasm_bindgen(js_class = EarCwtSigning)]
impl EarCwtSigning {
    /// The bytes to sign (the `Sig_structure` of RFC 9052 §4.4).
    #[wasm_bindgen(js_name = toBeSigned)]
    pub fn to_be_signed(&self) -> Vec<u8> {
        self.0.to_be_signed().to_vec()
    }

    /// The tagged `COSE_Sign1` message with `signature` (96 bytes, r||s).
    pub fn assemble(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] signature: JsValue,
    ) -> Result<Vec<u8>, JsValue> {
        self.0
            .assemble(&args::bytes(&signature, "signature")?)
            .or_js()
    }
}

/// The CWT of the EAR `claims` describe (-04 only: a veraison-dialect EAR has no CWT form,
/// `ERR_EAR_SHAPE` naming `eat_profile`), protected header `{1: -35, 4: kid}`.
#[wasm_bindgen(js_name = prepareEarCwtSigning)]
pub fn prepare_ear_cwt_signing(
    #[wasm_bindgen(unchecked_param_type = "Record<string, unknown>")] claims: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] kid: JsValue,
) -> Result<EarCwtSigning, JsValue> {
    let kid = args::string_arg(&kid, "kid")?;
    let input = read_claims(&claims)?.cwt_to_be_signed(&kid).or_js()?;
    Ok(EarCwtSigning(input))
}

/// A composite EAR between its two phases: `checks` go to a backend, `finish(verdicts)`
/// completes it. Single use.
#[wasm_bindgen(js_name = CompositeEarVerification)]
pub struct CompositeEarVerification {
    pending: Pending<PreparedEar>,
    encoding: EarEncoding,
    gpus: Vec<String>,
}

#[wasm_bindgen(js_class = CompositeEarVerification)]
impl CompositeEarVerification {
    /// The signature checks to run, in order: the message's, then the pinned chain's links.
    #[wasm_bindgen(unchecked_return_type = "SignatureCheckData[]")]
    pub fn checks(&self) -> Result<JsValue, JsValue> {
        self.pending.checks()
    }

    /// Completes the verification with one boolean verdict per check.
    #[wasm_bindgen(unchecked_return_type = "CompositeEarData")]
    pub fn finish(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean[]")] verdicts: JsValue,
    ) -> Result<JsValue, JsValue> {
        let ear = self.pending.finish(&verdicts)?;
        self.data(&ear)
    }

    /// Completes the verification with the software backend.
    #[wasm_bindgen(js_name = verifySoftware, unchecked_return_type = "CompositeEarData")]
    pub fn verify_software(&mut self) -> Result<JsValue, JsValue> {
        let ear = self.pending.take()?.finish_in_software().or_js()?;
        self.data(&ear)
    }
}

impl CompositeEarVerification {
    /// The composition rule, then `EarData` with the foreign labels beside.
    fn data(&self, ear: &Ear) -> Result<JsValue, JsValue> {
        let gpus: Vec<&str> = self.gpus.iter().map(String::as_str).collect();
        check_composite_ear(ear, &gpus).or_js()?;
        let data = crate::json::write::to_string(&ear.data(self.encoding))
            .map_err(|_| coded("ERR_INTERNAL", "the EAR could not be written", None))?;
        let Ok(Value::Object(mut out)) = crate::json::parse(data.as_bytes()) else {
            return Err(coded("ERR_INTERNAL", "the EAR did not read back", None));
        };
        let foreign = ear
            .submods()
            .iter()
            .filter(|(label, _)| !gpus.contains(&label.as_str()))
            .map(|(label, _)| Value::String(label.clone()))
            .collect();
        out.insert("foreign".into(), Value::Array(foreign));
        convert::json_to_js(&Value::Object(out))
    }
}

/// Phase one of verifying a composite EAR: a JWT (text) or CWT (bytes) EAR prepared as
/// `prepareEarCwtVerification` prepares one, with `gpus` (the GPU labels it must hold beside
/// at least one other) kept for phase two.
#[wasm_bindgen(js_name = prepareCompositeEarVerification)]
pub fn prepare_composite_ear_verification(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] token: JsValue,
    #[wasm_bindgen(js_name = keySet)] key_set: &KeySet,
    #[wasm_bindgen(unchecked_param_type = "CoreVerifyOptions")] options: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[]")] gpus: JsValue,
) -> Result<CompositeEarVerification, JsValue> {
    let gpus = labels(&gpus)?;
    let (input, now) = verify_input(&options)?;
    let options = input.options().or_js()?;
    let too_large = || invalid_argument("token", "an EAR of at most the token size limit");
    let (prepared, encoding) = if let Some(text) = token.as_string() {
        if text.len() > MAX_TOKEN_BYTES {
            return Err(too_large());
        }
        let prepared = prepare_ear(&text, &key_set.jwks, &options, now).or_js()?;
        (prepared, EarEncoding::Jwt)
    } else {
        let bytes = args::bytes(&token, "token")?;
        if bytes.len() > MAX_TOKEN_BYTES {
            return Err(too_large());
        }
        let prepared = prepare_ear_cwt(&bytes, &key_set.jwks, &options, now).or_js()?;
        (prepared, EarEncoding::Cwt)
    };
    Ok(CompositeEarVerification {
        pending: Pending::new(prepared, "verification"),
        encoding,
        gpus,
    })
}

/// `gpus`: a non-empty array of labels (a composite names the GPUs it must hold).
fn labels(value: &JsValue) -> Result<Vec<String>, JsValue> {
    let expected = "a non-empty array of the GPU submodules' labels";
    if !js_sys::Array::is_array(value) {
        return Err(invalid_argument("gpus", expected));
    }
    let labels = js_sys::Array::from(value)
        .iter()
        .map(|label| label.as_string())
        .collect::<Option<Vec<_>>>()
        .filter(|labels| !labels.is_empty());
    labels.ok_or_else(|| invalid_argument("gpus", expected))
}

/// An EAR's claims object, read by the core's rules (`Ear::from_claims`).
fn read_claims(claims: &JsValue) -> Result<Ear, JsValue> {
    let expected = "an EAR's claims (composeEar's `claims`)";
    if !claims.is_object() || js_sys::Array::is_array(claims) {
        return Err(invalid_argument("claims", expected));
    }
    let text = args::json_bytes(claims, "claims")?;
    if text.len() > MAX_TOKEN_BYTES {
        return Err(invalid_argument("claims", expected));
    }
    let Ok(Value::Object(claims)) = crate::json::parse(&text) else {
        return Err(invalid_argument("claims", expected));
    };
    Ear::from_claims(&claims).or_js()
}

fn dialect_of(value: &Value) -> Option<EarDialect> {
    match value.as_str()? {
        "veraison" => Some(EarDialect::Veraison),
        "ietf-04" => Some(EarDialect::Ietf04),
        _ => None,
    }
}

/// The GPU EAR of a `verifyEar` result (`EarData`): its submodules, in order, and dialect.
fn gpu_ear(gpus: &Map<String, Value>) -> Result<(Ear, EarDialect), JsValue> {
    let expected = "a verified EAR (verifyEar's result)";
    let dialect = gpus
        .get("dialect")
        .and_then(dialect_of)
        .ok_or_else(|| invalid_argument("gpus.dialect", expected))?;
    let submods = gpus
        .get("submods")
        .and_then(Value::as_array)
        .ok_or_else(|| invalid_argument("gpus.submods", expected))?;
    let mut labelled = Vec::with_capacity(submods.len());
    for submod in submods {
        let label = submod
            .get("label")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid_argument("gpus.submods", expected))?;
        labelled.push((String::from(label), submod));
    }
    let submods = appraisals(labelled.into_iter(), "gpus")?;
    Ok((Ear::new(0, None, submods), dialect))
}

/// `relabel`: `{ "GPU-0": "gpu0", … }`, each key a label of the GPU EAR.
fn relabelling(value: Option<&Value>, gpus: &Ear) -> Result<Vec<(String, String)>, JsValue> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let map = value
        .as_object()
        .ok_or_else(|| invalid_argument("relabel", "an object of new labels by GPU label"))?;
    map.iter()
        .map(|(from, to)| {
            let field = alloc::format!("relabel/{from}");
            if !gpus.submods().iter().any(|(label, _)| label == from) {
                return Err(invalid_argument(&field, "absent: no GPU submodule has that label"));
            }
            let to = to.as_str().ok_or_else(|| invalid_argument(&field, "a string"))?;
            Ok((from.clone(), String::from(to)))
        })
        .collect()
}

/// Appraisals in the API's shape (`EarSubmod`: `status`, `trustworthinessVector`,
/// `appraisalPolicyIds`), read by the core's reader: written as the submodules of a -04
/// claims set, which `Ear::from_claims` reads (one reader of appraisals, whatever they came
/// from). A label given twice is refused; a shape error names the member as the caller wrote
/// it (`<what>/<label>/status`).
fn appraisals<'a>(
    labelled: impl Iterator<Item = (String, &'a Value)>,
    what: &str,
) -> Result<Vec<(String, EarAppraisal)>, JsValue> {
    let mut submods = Map::new();
    let mut count = 0;
    for (label, submod) in labelled {
        let mut appraisal = Map::new();
        if let Some(object) = submod.as_object() {
            for (from, to) in NAMES {
                if let Some(value) = object.get(from) {
                    appraisal.insert(to.into(), value.clone());
                }
            }
            // The API writes an empty list for "no policy"; -04 has no empty list.
            if object.get("appraisalPolicyIds") == Some(&Value::Array(Vec::new())) {
                appraisal.remove("ear_appraisal_policy_ids");
            }
        }
        let value = if submod.is_object() {
            Value::Object(appraisal)
        } else {
            submod.clone()
        };
        submods.insert(label, value);
        count += 1;
    }
    if submods.len() != count {
        let field = alloc::format!("{what}/submods");
        return Err(coded("ERR_EAR_SHAPE", "labels must be unique", Some(&field)));
    }
    let mut claims = Map::new();
    claims.insert("eat_profile".into(), EAR_PROFILE_04.into());
    claims.insert("iat".into(), 0.into());
    let mut id = Map::new();
    id.insert("developer".into(), "".into());
    id.insert("build".into(), "".into());
    claims.insert("ear_verifier_id".into(), Value::Object(id));
    claims.insert("submods".into(), Value::Object(submods));
    match Ear::from_claims(&claims) {
        Ok(ear) => Ok(ear.submods().to_vec()),
        Err(error) => Err(renamed(&error, what)),
    }
}

/// The API's appraisal member names and -04's.
const NAMES: [(&str, &str); 3] = [
    ("status", "ear_status"),
    ("trustworthinessVector", "ear_trustworthiness_vector"),
    ("appraisalPolicyIds", "ear_appraisal_policy_ids"),
];

/// The core's error on the synthetic claims, its field in the caller's names.
fn renamed(error: &EarError, what: &str) -> JsValue {
    let mut field = String::from(error.field().unwrap_or("submods"));
    if let Some(rest) = field.strip_prefix("submods") {
        field = alloc::format!("{what}{rest}");
    }
    for (api, ear) in NAMES {
        field = field.replace(ear, api);
    }
    coded(error.code(), &alloc::format!("{error}"), Some(&field))
}
