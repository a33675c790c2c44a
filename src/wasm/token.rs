//! JS API for `crate::token`: keys, key sets, two-phase verification (the signature checks
//! go out as data so that `src/js/token.js` can run them with WebCrypto), and minting.
//!
//! These are the raw exports; the package's public token API is `src/js/token.js`, which
//! adds the WebCrypto backend, backend selection and the clock.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use js_sys::{Array, Object, Reflect, Uint8Array};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::error::{coded, invalid_argument, to_js};
use super::js;
use crate::crypto::{PublicKey, SigningKey};
use crate::token::{
    assemble_detached_eat, assemble_jws, create_detached_eat, create_v1_result,
    detached_eat_signing_input, jwt_signing_input, prepare_attestation_result, prepare_jwt,
    sign_jwt, AttestationReport, Jwks, PreparedAttestationResult, PreparedJwt, ResultFormat,
    TokenError, VerifiedJwt, VerifyOptions,
};
use crate::ErrorCode;

#[wasm_bindgen(typescript_custom_section)]
const TS_TOKEN: &str = r#"
/** One ES384 signature check: SEC1 public key (97 bytes), message, raw r||s signature. */
export interface SignatureCheckData {
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

/** Verification options of the core (seconds; `now` is required here). */
export interface CoreVerifyOptions {
  now: number;
  issuer?: string | string[];
  subject?: string;
  nonce?: string;
  clockTolerance?: number;
  maxTokenAge?: number;
  requiredClaims?: string[];
  typ?: string;
  crit?: string[];
}

/** A verified JWT. */
export interface VerifiedJwtResult {
  payload: Record<string, unknown>;
  protectedHeader: Record<string, unknown>;
  kid: string | null;
}

/** A verified device of a detached EAT result. */
export interface VerifiedDeviceResult extends VerifiedJwtResult {
  label: string;
  digest: string;
}

/** A verified attestation result. */
export interface VerifiedAttestationResultData {
  format: "detached" | "v1";
  overall: VerifiedJwtResult;
  devices: VerifiedDeviceResult[];
  overallResult: boolean | null;
}

// The classes are declared here rather than generated: wasm-bindgen's generated class types
// name `Symbol.dispose`, which only compiles with TypeScript's esnext.disposable library.
// At run time `[Symbol.dispose]` is still set where the host has it.

/** A parsed JWKS, kept in wasm memory so that it is parsed once. `free()` releases it. */
export class KeySet {
  free(): void;
  /** Parses a JWKS (JSON text, bytes or object), strictly. */
  constructor(jwks: string | Uint8Array | { keys: object[] });
  /** The usable keys' ids, in document order. */
  readonly kids: (string | null)[];
  /** The set as a JWKS object. */
  toJSON(): { keys: P384Jwk[] };
}

/** A P-384 public key (always a point on the curve). */
export class P384PublicKey {
  private constructor();
  free(): void;
  static fromJwk(jwk: string | object): P384PublicKey;
  static fromSpkiPem(pem: string): P384PublicKey;
  static fromSec1(bytes: Uint8Array | ArrayBuffer | string): P384PublicKey;
  toJwk(kid?: string | null): P384Jwk;
  toSpkiPem(): string;
  toSec1(): Uint8Array;
}

/** A P-384 signing key held in wasm memory (the software backend). */
export class P384PrivateKey {
  private constructor();
  free(): void;
  /** A new key from crypto.getRandomValues. */
  static generate(): P384PrivateKey;
  static fromJwk(jwk: string | object): P384PrivateKey;
  static fromPkcs8Pem(pem: string): P384PrivateKey;
  toJwk(kid?: string | null): P384Jwk;
  toPkcs8Pem(): string;
  toPkcs8Der(): Uint8Array;
  publicKey(): P384PublicKey;
  /** Raw 96-byte r||s signature over message (SHA-384), deterministic, low S. */
  sign(message: Uint8Array): Uint8Array;
}

/** A verification between its two phases. Single use. */
export class TokenVerification {
  private constructor();
  free(): void;
  /** The signature checks to run, in order. */
  checks(): SignatureCheckData[];
  /** Completes the verification with one verdict per check. */
  finish(verdicts: boolean[]): VerifiedJwtResult | VerifiedAttestationResultData;
  /** Completes the verification with the software backend. */
  verifySoftware(): VerifiedJwtResult | VerifiedAttestationResultData;
}

/** A P-384 JWK as this package writes it. */
export interface P384Jwk {
  kty: "EC";
  crv: "P-384";
  kid?: string;
  x5c?: string[];
  x: string;
  y: string;
  d?: string;
}
"#;

/// A parsed JWKS, kept in wasm memory so that it is parsed once.
#[wasm_bindgen(js_name = KeySet, skip_typescript)]
pub struct KeySet {
    jwks: Jwks,
}

#[wasm_bindgen(js_class = KeySet)]
impl KeySet {
    /// Parses a JWKS (JSON text, bytes or object), strictly.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | { keys: object[] }")]
        jwks: JsValue,
    ) -> Result<KeySet, JsValue> {
        let bytes = js::json_bytes(&jwks, "jwks")?;
        let jwks = Jwks::parse(&bytes).map_err(|error| to_js(&error))?;
        Ok(Self { jwks })
    }

    /// The usable keys' ids, in document order.
    #[wasm_bindgen(getter, unchecked_return_type = "(string | null)[]")]
    pub fn kids(&self) -> Array {
        self.jwks
            .keys()
            .iter()
            .map(|key| key.kid().map_or(JsValue::NULL, JsValue::from))
            .collect()
    }

    /// The set as JSON text.
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "{ keys: P384Jwk[] }")]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        js::parse_json(&self.jwks.to_json())
    }
}

/// A P-384 public key.
#[wasm_bindgen(js_name = P384PublicKey, skip_typescript)]
pub struct P384PublicKey {
    key: PublicKey,
}

#[wasm_bindgen(js_class = P384PublicKey)]
impl P384PublicKey {
    /// From a JWK (object or JSON text).
    #[wasm_bindgen(js_name = fromJwk)]
    pub fn from_jwk(
        #[wasm_bindgen(unchecked_param_type = "string | object")] jwk: JsValue,
    ) -> Result<P384PublicKey, JsValue> {
        let bytes = js::json_bytes(&jwk, "jwk")?;
        PublicKey::from_jwk_json(&bytes)
            .map(|key| Self { key })
            .map_err(|error| to_js(&error))
    }

    /// From SPKI PEM text.
    #[wasm_bindgen(js_name = fromSpkiPem)]
    pub fn from_spki_pem(pem: &str) -> Result<P384PublicKey, JsValue> {
        PublicKey::from_spki_pem(pem)
            .map(|key| Self { key })
            .map_err(|error| to_js(&error))
    }

    /// From SEC1 bytes (the WebCrypto `raw` format).
    #[wasm_bindgen(js_name = fromSec1)]
    pub fn from_sec1(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | ArrayBuffer | string")] bytes: JsValue,
    ) -> Result<P384PublicKey, JsValue> {
        let bytes = js::bytes(&bytes, "publicKey")?;
        PublicKey::from_sec1(&bytes)
            .map(|key| Self { key })
            .map_err(|error| to_js(&error))
    }

    /// The JWK, with `kid` when given.
    #[wasm_bindgen(js_name = toJwk, unchecked_return_type = "P384Jwk")]
    pub fn to_jwk(&self, kid: Option<String>) -> Result<JsValue, JsValue> {
        jwk_js(&self.key.to_jwk(kid.as_deref()))
    }

    /// SPKI PEM text.
    #[wasm_bindgen(js_name = toSpkiPem)]
    pub fn to_spki_pem(&self) -> String {
        self.key.to_spki_pem()
    }

    /// Uncompressed SEC1 bytes.
    #[wasm_bindgen(js_name = toSec1)]
    pub fn to_sec1(&self) -> Vec<u8> {
        self.key.to_sec1()
    }
}

/// A P-384 signing key held in wasm memory (the software backend).
#[wasm_bindgen(js_name = P384PrivateKey, skip_typescript)]
pub struct P384PrivateKey {
    key: SigningKey,
}

#[wasm_bindgen(js_class = P384PrivateKey)]
impl P384PrivateKey {
    /// A new key from 48 bytes of `crypto.getRandomValues` (retried on the rare rejected
    /// block, see `SigningKey::generate`).
    pub fn generate() -> Result<P384PrivateKey, JsValue> {
        let random = js::random_bytes::<96>()?;
        SigningKey::generate(&random)
            .map(|key| Self { key })
            .map_err(|error| to_js(&error))
    }

    /// From a private JWK (object or JSON text).
    #[wasm_bindgen(js_name = fromJwk)]
    pub fn from_jwk(
        #[wasm_bindgen(unchecked_param_type = "string | object")] jwk: JsValue,
    ) -> Result<P384PrivateKey, JsValue> {
        let bytes = js::json_bytes(&jwk, "jwk")?;
        SigningKey::from_jwk_json(&bytes)
            .map(|key| Self { key })
            .map_err(|error| to_js(&error))
    }

    /// From PKCS#8 PEM text.
    #[wasm_bindgen(js_name = fromPkcs8Pem)]
    pub fn from_pkcs8_pem(pem: &str) -> Result<P384PrivateKey, JsValue> {
        SigningKey::from_pkcs8_pem(pem)
            .map(|key| Self { key })
            .map_err(|error| to_js(&error))
    }

    /// The private JWK (with `d`).
    #[wasm_bindgen(js_name = toJwk, unchecked_return_type = "P384Jwk")]
    pub fn to_jwk(&self, kid: Option<String>) -> Result<JsValue, JsValue> {
        jwk_js(&self.key.to_jwk(kid.as_deref()))
    }

    /// PKCS#8 PEM text.
    #[wasm_bindgen(js_name = toPkcs8Pem)]
    pub fn to_pkcs8_pem(&self) -> String {
        self.key.to_pkcs8_pem()
    }

    /// PKCS#8 DER bytes (for `crypto.subtle.importKey("pkcs8", …)`).
    #[wasm_bindgen(js_name = toPkcs8Der)]
    pub fn to_pkcs8_der(&self) -> Vec<u8> {
        self.key.to_pkcs8_der()
    }

    /// The public key.
    #[wasm_bindgen(js_name = publicKey)]
    pub fn public_key(&self) -> P384PublicKey {
        P384PublicKey {
            key: self.key.public_key(),
        }
    }

    /// Signs `message`: raw 96-byte r||s, deterministic, low S.
    pub fn sign(&self, message: &[u8]) -> Vec<u8> {
        self.key.sign(message).to_vec()
    }
}

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
            Some(Pending::Jwt(jwt)) => alloc::vec![jwt.signature_check()],
            Some(Pending::Result(result)) => result.signature_checks(),
            None => return Err(consumed()),
        };
        let out = Array::new();
        for check in checks {
            let item = Object::new();
            set(
                &item,
                "publicKey",
                &Uint8Array::from(check.public_key_sec1.as_slice()),
            )?;
            set(
                &item,
                "message",
                &Uint8Array::from(check.message.as_slice()),
            )?;
            set(
                &item,
                "signature",
                &Uint8Array::from(check.signature.as_slice()),
            )?;
            out.push(&item);
        }
        Ok(out)
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
                js::parse_json(&jwt_json(&verified, None).to_string())
            }
            Some(Pending::Result(result)) => {
                let report = result.report(verdicts).map_err(|error| to_js(&error))?;
                if let Some(error) = report.first_error() {
                    // The first failure, carrying every token's verdict as `verdicts`.
                    let js_error = to_js(&error);
                    let verdicts = js::parse_json(&report_json(&report).to_string())?;
                    let _ = Reflect::set(&js_error, &"verdicts".into(), &verdicts);
                    return Err(js_error);
                }
                let verified = report.into_verified().map_err(|error| to_js(&error))?;
                let devices: Vec<Value> = verified
                    .devices()
                    .iter()
                    .map(|device| jwt_json(device.token(), Some((device.label(), device.digest()))))
                    .collect();
                let mut out = Map::new();
                let format = match verified.format() {
                    ResultFormat::V1 => "v1",
                    _ => "detached",
                };
                out.insert("format".into(), format.into());
                out.insert("overall".into(), jwt_json(verified.overall(), None));
                out.insert("devices".into(), Value::Array(devices));
                out.insert(
                    "overallResult".into(),
                    verified.overall_result().map_or(Value::Null, Value::Bool),
                );
                js::parse_json(&Value::Object(out).to_string())
            }
            None => Err(consumed()),
        }
    }
}

/// Phase one of JWT verification (see `crate::token::prepare_jwt`).
#[wasm_bindgen(js_name = prepareJwtVerification)]
pub fn prepare_jwt_verification(
    token: &str,
    #[wasm_bindgen(js_name = keySet)] key_set: &KeySet,
    #[wasm_bindgen(unchecked_param_type = "CoreVerifyOptions")] options: JsValue,
) -> Result<TokenVerification, JsValue> {
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
    let bytes = js::json_bytes(&result, "result")?;
    let prepared =
        prepare_attestation_result(&bytes, &key_set.jwks, &options, now).map_err(|e| to_js(&e))?;
    Ok(TokenVerification {
        pending: Some(Pending::Result(prepared)),
    })
}

/// The JWS signing input for `claims` under header `{"kid":…,"alg":"ES384"}`.
#[wasm_bindgen(js_name = jwtSigningInput)]
pub fn jwt_signing_input_js(
    #[wasm_bindgen(unchecked_param_type = "Record<string, unknown>")] claims: JsValue,
    kid: &str,
) -> Result<String, JsValue> {
    let claims = claims_map(&claims, "claims")?;
    jwt_signing_input(&claims, kid).map_err(|e| to_js(&e))
}

/// A compact JWS from a signing input and a raw r||s signature.
#[wasm_bindgen(js_name = assembleJws)]
pub fn assemble_jws_js(signing_input: &str, signature: &[u8]) -> Result<String, JsValue> {
    assemble_jws(signing_input, signature).map_err(|e| to_js(&e))
}

/// Mints a JWT with a software key.
#[wasm_bindgen(js_name = signJwtSoftware)]
pub fn sign_jwt_software(
    #[wasm_bindgen(unchecked_param_type = "Record<string, unknown>")] claims: JsValue,
    key: &P384PrivateKey,
    kid: &str,
) -> Result<String, JsValue> {
    let claims = claims_map(&claims, "claims")?;
    sign_jwt(&claims, &key.key, kid).map_err(|e| to_js(&e))
}

/// The overall token's signing input of a detached EAT.
#[wasm_bindgen(js_name = detachedEatSigningInput)]
pub fn detached_eat_signing_input_js(
    #[wasm_bindgen(js_name = overallClaims, unchecked_param_type = "Record<string, unknown>")]
    overall_claims: JsValue,
    #[wasm_bindgen(unchecked_param_type = "[string, string][]")] devices: JsValue,
    kid: &str,
) -> Result<String, JsValue> {
    let claims = claims_map(&overall_claims, "overallClaims")?;
    let devices = device_list(&devices)?;
    detached_eat_signing_input(&claims, &devices, kid).map_err(|e| to_js(&e))
}

/// The detached EAT JSON text from the overall signing input, its signature and the devices.
#[wasm_bindgen(js_name = assembleDetachedEat)]
pub fn assemble_detached_eat_js(
    #[wasm_bindgen(js_name = signingInput)] signing_input: &str,
    signature: &[u8],
    #[wasm_bindgen(unchecked_param_type = "[string, string][]")] devices: JsValue,
) -> Result<String, JsValue> {
    let devices = device_list(&devices)?;
    assemble_detached_eat(signing_input, signature, &devices).map_err(|e| to_js(&e))
}

/// Mints a detached EAT with a software key; returns its JSON text.
#[wasm_bindgen(js_name = createDetachedEatSoftware)]
pub fn create_detached_eat_software(
    #[wasm_bindgen(js_name = overallClaims, unchecked_param_type = "Record<string, unknown>")]
    overall_claims: JsValue,
    #[wasm_bindgen(unchecked_param_type = "[string, string][]")] devices: JsValue,
    key: &P384PrivateKey,
    kid: &str,
) -> Result<String, JsValue> {
    let claims = claims_map(&overall_claims, "overallClaims")?;
    let devices = device_list(&devices)?;
    create_detached_eat(&claims, &devices, &key.key, kid).map_err(|e| to_js(&e))
}

/// Runs signature checks with the software backend: one boolean per check (the same data
/// `TokenVerification.checks` hands out, or any `{publicKey, message, signature}`).
#[wasm_bindgen(js_name = verifyChecksSoftware)]
pub fn verify_checks_software(
    #[wasm_bindgen(unchecked_param_type = "SignatureCheckData[]")] checks: JsValue,
) -> Result<Vec<u8>, JsValue> {
    if !Array::is_array(&checks) {
        return Err(invalid_argument("checks", "an array of signature checks"));
    }
    Array::from(&checks)
        .iter()
        .enumerate()
        .map(|(i, check)| {
            let field = alloc::format!("checks[{i}]");
            let public_key = js::bytes(&js::member(&check, "publicKey"), &field)?;
            let message = js::bytes(&js::member(&check, "message"), &field)?;
            let signature = js::bytes(&js::member(&check, "signature"), &field)?;
            let valid =
                crate::crypto::verify_p384_sha384(&public_key, &message, &signature).is_ok();
            Ok(u8::from(valid))
        })
        .collect()
}

/// The V1 result JSON text `{"eat": token}`.
#[wasm_bindgen(js_name = createV1Result)]
pub fn create_v1_result_js(token: &str) -> String {
    create_v1_result(token)
}

fn consumed() -> JsValue {
    coded(
        "ERR_INVALID_ARGUMENT",
        "this verification was already finished",
        None,
    )
}

fn set(target: &Object, name: &str, value: &JsValue) -> Result<(), JsValue> {
    Reflect::set(target, &name.into(), value)
        .map(|_| ())
        .map_err(|_| coded("ERR_INTERNAL", "cannot build a result object", None))
}

fn jwk_js(jwk: &crate::crypto::Jwk) -> Result<JsValue, JsValue> {
    js::parse_json(&jwk.to_value().to_string())
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

fn claims_map(value: &JsValue, field: &str) -> Result<Map<String, Value>, JsValue> {
    if !value.is_object() || Array::is_array(value) {
        return Err(invalid_argument(field, "a plain object"));
    }
    let bytes = js::json_bytes(value, field)?;
    match crate::json::parse(&bytes) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(invalid_argument(field, "a JSON object")),
    }
}

fn device_list(value: &JsValue) -> Result<Vec<(String, String)>, JsValue> {
    if !Array::is_array(value) {
        return Err(invalid_argument(
            "devices",
            "an array of [label, token] pairs",
        ));
    }
    Array::from(value)
        .iter()
        .enumerate()
        .map(|(i, pair)| {
            let field = alloc::format!("devices[{i}]");
            let label = Reflect::get(&pair, &0.into()).unwrap_or(JsValue::UNDEFINED);
            let token = Reflect::get(&pair, &1.into()).unwrap_or(JsValue::UNDEFINED);
            Ok((
                js::required_string(&label, &field)?,
                js::required_string(&token, &field)?,
            ))
        })
        .collect()
}

fn verify_options(options: &JsValue) -> Result<(VerifyOptions, u64), JsValue> {
    if !options.is_object() {
        return Err(invalid_argument("options", "an object"));
    }
    let now = seconds(&js::member(options, "now"), "now")?
        .ok_or_else(|| invalid_argument("now", "a number of Unix seconds"))?;
    let mut out = VerifyOptions::new();
    let issuer = js::member(options, "issuer");
    if Array::is_array(&issuer) {
        out.issuers = strings(&issuer, "issuer")?;
    } else if let Some(issuer) = js::optional_string(&issuer, "issuer")? {
        out.issuers.push(issuer);
    }
    out.subject = js::optional_string(&js::member(options, "subject"), "subject")?;
    out.nonce = js::optional_string(&js::member(options, "nonce"), "nonce")?;
    out.leeway = seconds(&js::member(options, "clockTolerance"), "clockTolerance")?.unwrap_or(0);
    out.max_age = seconds(&js::member(options, "maxTokenAge"), "maxTokenAge")?;
    let required = js::member(options, "requiredClaims");
    if !required.is_undefined() && !required.is_null() {
        out.required_claims = strings(&required, "requiredClaims")?;
    }
    out.typ = js::optional_string(&js::member(options, "typ"), "typ")?;
    let crit = js::member(options, "crit");
    if !crit.is_undefined() && !crit.is_null() {
        out.crit = strings(&crit, "crit")?;
    }
    Ok((out, now))
}

/// A non-negative whole number of seconds (fractions dropped), or absent.
fn seconds(value: &JsValue, field: &str) -> Result<Option<u64>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    match value.as_f64() {
        // Checked finite and in range, so the conversion is exact after flooring.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Some(number) if number.is_finite() && (0.0..9.0e15).contains(&number) => {
            Ok(Some(number as u64))
        }
        _ => Err(invalid_argument(field, "a non-negative number of seconds")),
    }
}

fn strings(value: &JsValue, field: &str) -> Result<Vec<String>, JsValue> {
    if !Array::is_array(value) {
        return Err(invalid_argument(field, "an array of strings"));
    }
    Array::from(value)
        .iter()
        .map(|item| {
            item.as_string()
                .ok_or_else(|| invalid_argument(field, "an array of strings"))
        })
        .collect()
}
