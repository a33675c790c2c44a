//! Two-phase verification: `prepare*` hands out a `TokenVerification` whose `checks()` a JS
//! backend runs; `finish(verdicts)` completes it. Also the software backend on raw checks.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use js_sys::{Array, Reflect};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::super::error::{invalid_argument, to_js};
use super::super::{args, convert};
use super::keys::KeySet;
use crate::attest::Endpoint;
use crate::token::{
    prepare_attestation_result, prepare_jwt, Appraisal, AttestationReport,
    PreparedAttestationResult, PreparedJwt, ResultFormat, TokenError, VerifiedAttestationResult,
    VerifiedJwt, VerifyOptions,
};
use crate::ErrorCode;
use serde::{Deserialize, Deserializer};

enum Pending {
    Jwt(PreparedJwt),
    Result(PreparedAttestationResult),
}

/// A verification between its two phases: `checks` go to a backend, `finish(verdicts)`
/// completes it. Single use.
#[wasm_bindgen(js_name = TokenVerification, skip_typescript)]
pub struct TokenVerification {
    pending: Option<Pending>,
}

#[wasm_bindgen(js_class = TokenVerification)]
impl TokenVerification {
    /// The signature checks to run, in order.
    #[wasm_bindgen(unchecked_return_type = "SignatureCheckData[]")]
    pub fn checks(&self) -> Result<Array, JsValue> {
        let checks = match &self.pending {
            Some(Pending::Jwt(jwt)) => core::slice::from_ref(jwt.signature_check()),
            Some(Pending::Result(result)) => result.signature_checks(),
            None => return Err(consumed()),
        };
        Ok(args::checks_to_js(checks))
    }

    /// Completes the verification with one verdict per check (truthy = valid).
    #[wasm_bindgen(unchecked_return_type = "VerifiedJwtResult | VerifiedAttestationResultData")]
    pub fn finish(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean[]")] verdicts: JsValue,
    ) -> Result<JsValue, JsValue> {
        if !Array::is_array(&verdicts) {
            return Err(invalid_argument("verdicts", "an array of booleans"));
        }
        let verdicts: Vec<bool> = Array::from(&verdicts)
            .iter()
            .map(|v| v.is_truthy())
            .collect();
        self.complete(&verdicts)
    }

    /// Completes the verification with the software backend.
    #[wasm_bindgen(
        js_name = verifySoftware,
        unchecked_return_type = "VerifiedJwtResult | VerifiedAttestationResultData"
    )]
    pub fn verify_software(&mut self) -> Result<JsValue, JsValue> {
        let verdicts: Vec<bool> = match &self.pending {
            Some(Pending::Jwt(jwt)) => alloc::vec![jwt.signature_check().verify().is_ok()],
            Some(Pending::Result(result)) => result
                .signature_checks()
                .iter()
                .map(|check| check.verify().is_ok())
                .collect(),
            None => return Err(consumed()),
        };
        self.complete(&verdicts)
    }

    fn complete(&mut self, verdicts: &[bool]) -> Result<JsValue, JsValue> {
        match self.pending.take() {
            Some(Pending::Jwt(jwt)) => {
                let [verdict] = verdicts else {
                    return Err(to_js(&TokenError::VerdictCount {
                        expected: 1,
                        got: verdicts.len(),
                    }));
                };
                let verified = jwt.finish(*verdict).map_err(|error| to_js(&error))?;
                args::parse_json(&jwt_json(&verified, None).to_string())
            }
            Some(Pending::Result(result)) => {
                let report = result.report(verdicts).map_err(|error| to_js(&error))?;
                if let Some(error) = report.first_error() {
                    // The first failure, carrying every token's verdict as `verdicts`.
                    let js_error = to_js(&error);
                    let verdicts = args::parse_json(&report_json(&report).to_string())?;
                    let _ = Reflect::set(&js_error, &"verdicts".into(), &verdicts);
                    return Err(js_error);
                }
                match report.into_verified() {
                    Ok(verified) => {
                        args::parse_json(&result_json(&verified, &verified.appraisal()).to_string())
                    }
                    Err(error) => {
                        // A refused verdict: the tokens are authentic, so the error carries the
                        // appraisal and the verified result for the caller to read.
                        let js_error = to_js(&error);
                        if let Some((appraisal, verified)) = error.refused_result() {
                            let data =
                                args::parse_json(&result_json(verified, appraisal).to_string())?;
                            let appraisal = Reflect::get(&data, &"appraisal".into())?;
                            let _ = Reflect::set(&js_error, &"appraisal".into(), &appraisal);
                            let _ = Reflect::set(&js_error, &"result".into(), &data);
                        }
                        Err(js_error)
                    }
                }
            }
            None => Err(consumed()),
        }
    }
}

/// Phase one of JWT verification (see `crate::token::prepare_jwt`).
#[wasm_bindgen(js_name = prepareJwtVerification)]
pub fn prepare_jwt_verification(
    #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
    #[wasm_bindgen(js_name = keySet)] key_set: &KeySet,
    #[wasm_bindgen(unchecked_param_type = "CoreVerifyOptions")] options: JsValue,
) -> Result<TokenVerification, JsValue> {
    let token: &str = &args::string_arg(&token, "token")?;
    let (options, now) = verify_options(&options)?;
    let prepared = prepare_jwt(token, &key_set.jwks, &options, now).map_err(|e| to_js(&e))?;
    Ok(TokenVerification {
        pending: Some(Pending::Jwt(prepared)),
    })
}

/// Phase one of attestation-result verification (either shape).
#[wasm_bindgen(js_name = prepareAttestationResultVerification)]
pub fn prepare_attestation_result_verification(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | unknown[] | object")]
    result: JsValue,
    #[wasm_bindgen(js_name = keySet)] key_set: &KeySet,
    #[wasm_bindgen(unchecked_param_type = "CoreVerifyOptions")] options: JsValue,
) -> Result<TokenVerification, JsValue> {
    let (options, now) = verify_options(&options)?;
    let bytes = args::json_bytes(&result, "result")?;
    let prepared =
        prepare_attestation_result(&bytes, &key_set.jwks, &options, now).map_err(|e| to_js(&e))?;
    Ok(TokenVerification {
        pending: Some(Pending::Result(prepared)),
    })
}

/// Runs signature checks with the software backend: one boolean per check (the same data
/// `TokenVerification.checks` hands out, or any `{publicKey, message, signature}`).
#[wasm_bindgen(js_name = verifyChecksSoftware)]
pub fn verify_checks_software(
    #[wasm_bindgen(unchecked_param_type = "SignatureCheckData[]")] checks: JsValue,
) -> Result<Vec<u8>, JsValue> {
    let checks: Vec<CheckIn> = convert::from_js(&checks, "checks")?;
    Ok(checks
        .iter()
        .map(|check| {
            let valid = crate::crypto::verify_p384_sha384(
                &check.public_key.0,
                &check.message.0,
                &check.signature.0,
            )
            .is_ok();
            u8::from(valid)
        })
        .collect())
}

/// A `SignatureCheckData` given back: `{publicKey, message, signature}`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CheckIn {
    public_key: convert::ByteBuf,
    message: convert::ByteBuf,
    signature: convert::ByteBuf,
}

fn consumed() -> JsValue {
    super::super::error::consumed("verification")
}

/// `{format, overall, devices, overallResult, appraisal}`.
fn result_json(verified: &VerifiedAttestationResult, appraisal: &Appraisal) -> Value {
    let devices: Vec<Value> = verified
        .devices()
        .iter()
        .map(|device| jwt_json(device.token(), Some((device.label(), device.digest()))))
        .collect();
    let mut out = Map::new();
    out.insert("format".into(), verified.format().as_str().into());
    out.insert("overall".into(), jwt_json(verified.overall(), None));
    out.insert("devices".into(), Value::Array(devices));
    out.insert(
        "overallResult".into(),
        verified.overall_result().map_or(Value::Null, Value::Bool),
    );
    out.insert("appraisal".into(), appraisal_json(appraisal));
    Value::Object(out)
}

/// The appraisal in the JS shape: `{passed, overallResult, devices: [{label, passed,
/// reasons: [{claim, value, message}]}]}`.
fn appraisal_json(appraisal: &Appraisal) -> Value {
    let devices = appraisal
        .devices()
        .iter()
        .map(|device| {
            let reasons = device
                .reasons()
                .iter()
                .map(|reason| {
                    let mut out = Map::new();
                    out.insert("claim".into(), reason.claim().into());
                    out.insert("value".into(), reason.value().clone());
                    out.insert("message".into(), reason.message().into());
                    Value::Object(out)
                })
                .collect();
            let mut out = Map::new();
            out.insert("label".into(), device.label().into());
            out.insert(
                "passed".into(),
                device.passed().map_or(Value::Null, Value::Bool),
            );
            out.insert("reasons".into(), Value::Array(reasons));
            Value::Object(out)
        })
        .collect();
    let mut out = Map::new();
    out.insert("passed".into(), appraisal.passed().into());
    out.insert(
        "overallResult".into(),
        appraisal.overall_result().map_or(Value::Null, Value::Bool),
    );
    out.insert("devices".into(), Value::Array(devices));
    Value::Object(out)
}

fn jwt_json(jwt: &VerifiedJwt, device: Option<(&str, &str)>) -> Value {
    let mut out = Map::new();
    if let Some((label, digest)) = device {
        out.insert("label".into(), label.into());
        out.insert("digest".into(), digest.into());
    }
    out.insert("payload".into(), Value::Object(jwt.claims().clone()));
    out.insert(
        "protectedHeader".into(),
        Value::Object(jwt.header().clone()),
    );
    out.insert("kid".into(), jwt.kid().map_or(Value::Null, Value::from));
    Value::Object(out)
}

/// `[{label, verified, code, field, digest, payload}]`: the overall token (label null), then
/// every device verdict.
fn report_json(report: &AttestationReport) -> Value {
    let verdict =
        |label: Option<&str>, digest: Option<&str>, outcome: Result<&VerifiedJwt, &TokenError>| {
            let mut out = Map::new();
            out.insert("label".into(), label.map_or(Value::Null, Value::from));
            out.insert("verified".into(), outcome.is_ok().into());
            let (code, field) = match outcome {
                Ok(_) => (Value::Null, Value::Null),
                Err(error) => (
                    error.code().into(),
                    error.field().map_or(Value::Null, Value::from),
                ),
            };
            out.insert("code".into(), code);
            out.insert("field".into(), field);
            out.insert("digest".into(), digest.map_or(Value::Null, Value::from));
            out.insert(
                "payload".into(),
                outcome.map_or(Value::Null, |jwt| Value::Object(jwt.claims().clone())),
            );
            Value::Object(out)
        };
    let mut all = alloc::vec![verdict(None, None, report.overall())];
    all.extend(
        report
            .devices()
            .iter()
            .map(|d| verdict(Some(d.label()), d.digest(), d.outcome())),
    );
    Value::Array(all)
}

/// The JS `VerifyOptions` (`now` is read apart: a number or a `Date`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct VerifyOptionsIn {
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    now: JsValue,
    issuer: Option<OneOrMany>,
    audience: Option<OneOrMany>,
    subject: Option<String>,
    nonce: Option<String>,
    clock_tolerance: Option<Seconds>,
    max_token_age: Option<Seconds>,
    required_claims: Option<Vec<String>>,
    typ: Option<String>,
    crit: Option<Vec<String>>,
    format: Option<String>,
    endpoint: Option<String>,
    allow_failed_result: Option<bool>,
}

/// A string or an array of strings (a visitor of its own: serde's `untagged` buffers every
/// value and costs kilobytes of wasm).
struct OneOrMany(Vec<String>);

impl<'de> Deserialize<'de> for OneOrMany {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Strings;
        impl<'de> serde::de::Visitor<'de> for Strings {
            type Value = Vec<String>;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a string or an array of strings")
            }
            fn visit_str<E: serde::de::Error>(self, one: &str) -> Result<Self::Value, E> {
                Ok(alloc::vec![one.into()])
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Self::Value, A::Error> {
                let mut many = Vec::new();
                while let Some(one) = seq.next_element::<String>()? {
                    many.push(one);
                }
                Ok(many)
            }
        }
        deserializer.deserialize_any(Strings).map(OneOrMany)
    }
}

/// A non-negative number of seconds, fractions dropped.
struct Seconds(u64);

impl<'de> Deserialize<'de> for Seconds {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let number = f64::deserialize(deserializer)?;
        // Checked finite and in range, so the conversion is exact after flooring.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        if number.is_finite() && (0.0..9.0e15).contains(&number) {
            Ok(Self(number as u64))
        } else {
            Err(serde::de::Error::custom(
                "not a non-negative number of seconds",
            ))
        }
    }
}

fn verify_options(options: &JsValue) -> Result<(VerifyOptions, u64), JsValue> {
    let input: VerifyOptionsIn = convert::options_from_js(options)?;
    let now = args::time(&input.now, "now")?.as_secs();
    let mut out = VerifyOptions::new();
    out.issuers = input.issuer.map(|list| list.0).unwrap_or_default();
    out.audiences = input.audience.map(|list| list.0).unwrap_or_default();
    out.subject = input.subject;
    out.nonce = input.nonce;
    out.leeway = input.clock_tolerance.map_or(0, |s| s.0);
    out.max_age = input.max_token_age.map(|s| s.0);
    if let Some(required) = input.required_claims {
        out.required_claims = required;
    }
    out.typ = input.typ;
    if let Some(crit) = input.crit {
        out.crit = crit;
    }
    out.result_format = result_format(input.format, input.endpoint)?;
    out.allow_failed_result = input.allow_failed_result.unwrap_or(false);
    Ok((out, now))
}

/// The expected result shape: `format` ('v1' or 'detached'), or the shape of `endpoint`
/// (the attest path the request went to); both must agree; neither means detached.
fn result_format(
    format: Option<String>,
    endpoint: Option<String>,
) -> Result<ResultFormat, JsValue> {
    let format = format
        .map(|text| {
            ResultFormat::parse(&text)
                .ok_or_else(|| invalid_argument("format", "'v1' or 'detached'"))
        })
        .transpose()?;
    let endpoint = endpoint
        .map(|path| {
            Endpoint::from_path(&path)
                .map(ResultFormat::for_endpoint)
                .ok_or_else(|| invalid_argument("endpoint", "an attest endpoint path"))
        })
        .transpose()?;
    match (format, endpoint) {
        (Some(format), Some(of_endpoint)) if format != of_endpoint => Err(invalid_argument(
            "format",
            "the shape the endpoint answers with",
        )),
        (format, endpoint) => Ok(format.or(endpoint).unwrap_or_default()),
    }
}
