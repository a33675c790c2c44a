//! JS API for `crate::service`: the `AttestationService` class a host (the edge worker)
//! creates once and asks to answer each request.

use alloc::string::String;
use alloc::vec::Vec;

use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::error::{coded, invalid_argument, to_js};
use super::js;
use crate::chain::{TrustStore, NVIDIA_DEVICE_IDENTITY_CA_PEM, NVIDIA_RIM_ROOT_CA_PEM};
use crate::crypto::SigningKey;
use crate::rim::{open_envelope, RimTrust};
use crate::service::{KeyRing, Request, RimServiceState, Service, ServiceConfig};
use crate::token::Jwks;

#[wasm_bindgen(typescript_custom_section)]
const TS_SERVICE: &str = r#"
/** Configuration of an AttestationService. */
export interface AttestationServiceOptions {
  /** The signing key: PKCS#8 PEM or a private JWK (JSON text). */
  signingKey: string;
  /** Its kid; default: the RFC 7638 thumbprint. */
  kid?: string;
  /** Retired keys still published in the JWKS: a JWKS (JSON text). */
  retiredKeys?: string;
  /** The tokens' iss: the service's base URL. */
  issuer?: string;
  /** Token lifetime in seconds (default 3600). */
  tokenLifetime?: number;
  /** Extra device root certificates (PEM), trusted besides the NVIDIA device root. */
  trustAnchors?: string;
  /** Extra RIM root certificates (PEM), trusted besides the NVIDIA RIM root. */
  rimTrustAnchors?: string;
}

/** An HTTP request as the host received it. */
export interface ServiceRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  headers?: [string, string][] | Record<string, string>;
  body?: Uint8Array | string;
}

/** The response for the host to send. */
export interface ServiceResponse {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
}
"#;

/// The attestation service (spec: attestation-service.md) as a JS class.
#[wasm_bindgen]
pub struct AttestationService {
    inner: Service,
}

#[wasm_bindgen]
impl AttestationService {
    /// Creates the service from its keys and trust anchors.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "AttestationServiceOptions")] options: JsValue,
    ) -> Result<AttestationService, JsValue> {
        if !options.is_object() {
            return Err(invalid_argument("options", "an object"));
        }
        let key_text = js::required_string(&js::member(&options, "signingKey"), "signingKey")?;
        let key = if key_text.trim_start().starts_with('{') {
            SigningKey::from_jwk_json(key_text.as_bytes())
        } else {
            SigningKey::from_pkcs8_pem(&key_text)
        }
        .map_err(|error| to_js(&error))?;
        let kid = js::optional_string(&js::member(&options, "kid"), "kid")?;
        let mut keys = KeyRing::new(key, kid);
        if let Some(retired) =
            js::optional_string(&js::member(&options, "retiredKeys"), "retiredKeys")?
        {
            let set = Jwks::parse(retired.as_bytes()).map_err(|error| to_js(&error))?;
            keys = keys.with_retired(set.keys().to_vec());
        }
        let mut config = ServiceConfig::default();
        if let Some(issuer) = js::optional_string(&js::member(&options, "issuer"), "issuer")? {
            config.issuer = issuer;
        }
        let lifetime = js::member(&options, "tokenLifetime");
        if !lifetime.is_undefined() {
            config.token_lifetime = lifetime
                .as_f64()
                .filter(|s| s.fract() == 0.0 && (60.0..=86_400.0).contains(s))
                .map(|s| s as i64)
                .ok_or_else(|| {
                    invalid_argument(
                        "tokenLifetime",
                        "a whole number of seconds from 60 to 86400",
                    )
                })?;
        }
        let extra = js::optional_string(&js::member(&options, "trustAnchors"), "trustAnchors")?
            .unwrap_or_default();
        let device_trust =
            TrustStore::from_pem(&alloc::format!("{NVIDIA_DEVICE_IDENTITY_CA_PEM}\n{extra}"))
                .map_err(|error| with_field(to_js(&error), "trustAnchors"))?;
        let extra_rim =
            js::optional_string(&js::member(&options, "rimTrustAnchors"), "rimTrustAnchors")?
                .unwrap_or_default();
        let rim_store =
            TrustStore::from_pem(&alloc::format!("{NVIDIA_RIM_ROOT_CA_PEM}\n{extra_rim}"))
                .map_err(|error| with_field(to_js(&error), "rimTrustAnchors"))?;
        let rim_anchors = rim_store.len();
        let inner = Service::new(
            config,
            keys,
            device_trust,
            RimTrust::from_store(rim_store),
            rim_anchors,
        );
        Ok(Self { inner })
    }

    /// Adds a RIM document: under `name` when it is a RIM id or an `<id>.xml` file name,
    /// else indexed by its content.
    #[wasm_bindgen(js_name = addRim)]
    pub fn add_rim(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] xml: JsValue,
    ) -> Result<(), JsValue> {
        let name: &str = &js::string_arg(&name, "name")?;
        let bytes = document_bytes(&xml)?;
        self.inner
            .rims_mut()
            .insert_named(name, bytes)
            .map_err(|error| to_js(&error))
    }

    /// Adds a RIM fetched from a RIM service: the envelope `{id, rim, sha256, …}` is checked
    /// against the id asked for.
    #[wasm_bindgen(js_name = addRimEnvelope)]
    pub fn add_rim_envelope(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] body: JsValue,
    ) -> Result<(), JsValue> {
        let id: &str = &js::string_arg(&id, "id")?;
        let bytes = document_bytes(&body)?;
        let envelope = open_envelope(&bytes, id).map_err(|error| to_js(&error))?;
        self.inner.rims_mut().insert(&envelope.id, envelope.rim);
        Ok(())
    }

    /// Number of RIM documents held.
    #[wasm_bindgen(getter, js_name = rimCount)]
    pub fn rim_count(&self) -> usize {
        self.inner.rim_count()
    }

    /// Records the remote RIM service's state for `/health`: `up`, `down` or `none`.
    #[wasm_bindgen(js_name = setRimServiceState)]
    pub fn set_rim_service_state(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] state: JsValue,
    ) -> Result<(), JsValue> {
        let state: &str = &js::string_arg(&state, "state")?;
        let state = match state {
            "up" => RimServiceState::Up,
            "down" => RimServiceState::Down,
            "none" => RimServiceState::NotConfigured,
            _ => return Err(invalid_argument("state", "\"up\", \"down\" or \"none\"")),
        };
        self.inner.set_rim_service(state);
        Ok(())
    }

    /// The RIM ids this request needs that the service does not hold: fetch them, add them
    /// with `addRimEnvelope`, then call `handle`.
    #[wasm_bindgen(js_name = missingRims)]
    pub fn missing_rims(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ServiceRequest")] request: JsValue,
    ) -> Result<Vec<String>, JsValue> {
        Ok(self.inner.missing_rims(&request_of(&request)?))
    }

    /// Answers one request. `now` is Unix seconds (the host's clock); the token ids draw on
    /// `crypto.getRandomValues`.
    #[wasm_bindgen(unchecked_return_type = "ServiceResponse")]
    pub fn handle(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ServiceRequest")] request: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    ) -> Result<JsValue, JsValue> {
        let now = js::number_arg(&now, "now")?;
        if !now.is_finite() || !(0.0..=253_402_300_799.0).contains(&now) {
            return Err(invalid_argument(
                "now",
                "Unix seconds from 0 to 253402300799",
            ));
        }
        let request = request_of(&request)?;
        let response = self
            .inner
            .handle(&request, now as u64, js::random_bytes::<32>()?);
        let headers = Array::new();
        for (name, value) in &response.headers {
            headers.push(&Array::of2(&name.into(), &value.into()));
        }
        let out = Object::new();
        let set = |name: &str, value: &JsValue| Reflect::set(&out, &name.into(), value).map(|_| ());
        set("status", &JsValue::from(response.status))
            .and_then(|()| set("headers", &headers))
            .and_then(|()| set("body", &Uint8Array::from(response.body.as_slice())))
            .map_err(|_| coded("ERR_INTERNAL", "could not build the response object", None))?;
        Ok(out.into())
    }
}

fn with_field(error: JsValue, field: &str) -> JsValue {
    let _ = Reflect::set(&error, &"field".into(), &field.into());
    error
}

fn document_bytes(value: &JsValue) -> Result<Vec<u8>, JsValue> {
    if let Some(text) = value.as_string() {
        return Ok(text.into_bytes());
    }
    if let Some(array) = value.dyn_ref::<Uint8Array>() {
        return Ok(array.to_vec());
    }
    Err(invalid_argument("xml", "a string or a Uint8Array"))
}

/// A [`Request`] from `{method, path, headers, body}`.
fn request_of(value: &JsValue) -> Result<Request, JsValue> {
    if !value.is_object() {
        return Err(invalid_argument("request", "an object"));
    }
    let method = js::required_string(&js::member(value, "method"), "request.method")?;
    let path = js::required_string(&js::member(value, "path"), "request.path")?;
    let mut request = Request::new(&method, &path);
    let headers = js::member(value, "headers");
    if Array::is_array(&headers) {
        for pair in Array::from(&headers).iter() {
            let pair = Array::from(&pair);
            let (name, value) = (pair.get(0).as_string(), pair.get(1).as_string());
            match (name, value) {
                (Some(name), Some(value)) => request.headers.push((name, value)),
                _ => {
                    return Err(invalid_argument(
                        "request.headers",
                        "an array of [name, value] string pairs",
                    ))
                }
            }
        }
    } else if headers.is_object() {
        for entry in Object::entries(headers.unchecked_ref()).iter() {
            let entry = Array::from(&entry);
            match (entry.get(0).as_string(), entry.get(1).as_string()) {
                (Some(name), Some(value)) => request.headers.push((name, value)),
                _ => {
                    return Err(invalid_argument(
                        "request.headers",
                        "an object of string values",
                    ))
                }
            }
        }
    } else if !headers.is_undefined() && !headers.is_null() {
        return Err(invalid_argument(
            "request.headers",
            "an array of pairs or an object",
        ));
    }
    let body = js::member(value, "body");
    if !body.is_undefined() && !body.is_null() {
        request.body = document_bytes(&body)
            .map_err(|_| invalid_argument("request.body", "a Uint8Array or a string"))?;
    }
    Ok(request)
}
