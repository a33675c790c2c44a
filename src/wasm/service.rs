//! JS API for `crate::service`: the `AttestationService` class a host (the edge worker)
//! creates once and asks to answer each request.

use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;

use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::error::{coded, invalid_argument, to_js};
use super::js;
use crate::chain::{TrustStore, NVIDIA_DEVICE_IDENTITY_CA_PEM, NVIDIA_RIM_ROOT_CA_PEM};
use crate::crypto::{PublicKey, SigningKey};
use crate::evidence::FwidPolicy;
use crate::rim::{open_envelope, RimTrust};
use crate::service::{
    is_source_url, Exchange, FetchFailure, Fetched, KeyRing, Request, Resource, Response, Service,
    ServiceConfig, Source, SourceState, Step, MAX_FETCHED_BYTES,
};
use crate::token::Jwks;

#[wasm_bindgen(typescript_custom_section)]
const TS_SERVICE: &str = r#"
/** Configuration of an AttestationService: exactly one of signingKey and publicKey. */
export interface AttestationServiceOptions {
  /** The signing key, held by the core: PKCS#8 PEM or a private JWK (JSON text). */
  signingKey?: string;
  /**
   * The public half of a signing key the host keeps (a non-extractable WebCrypto key): a
   * public JWK (JSON text) or SPKI PEM. The service then answers attestation requests only
   * through begin() / handleRequest(), and the host signs.
   */
  publicKey?: string;
  /** Its kid; default: the RFC 7638 thumbprint. */
  kid?: string;
  /** The key's certificate chain (PEM, leaf first), published in the JWKS as x5c. */
  certificate?: string;
  /** Retired keys still published in the JWKS: a JWKS (JSON text). */
  retiredKeys?: string;
  /**
   * The tokens' iss: the service's base URL. Default: the origin of the request being
   * answered (ServiceRequest.origin), which the client chooses through Host — set it in
   * production.
   */
  issuer?: string;
  /**
   * Fail devices whose firmware could report an FWID but did not (Hopper firmware from
   * before FWID reporting) with 4016. Default false: passed as NVIDIA's verifiers do, with
   * a warning claim naming it.
   */
  requireFwid?: boolean;
  /** Token lifetime in seconds (default 3600). */
  tokenLifetime?: number;
  /** Extra device root certificates (PEM), trusted besides the NVIDIA device root. */
  trustAnchors?: string;
  /** Extra RIM root certificates (PEM), trusted besides the NVIDIA RIM root. */
  rimTrustAnchors?: string;
  /**
   * The RIM service missing RIM documents are fetched from (the exchange's fetch step names
   * `<url><id>`). Default: NVIDIA's, https://rim.attestation.nvidia.com/v1/rim/; null: off
   * (only the documents added with addRim / addRimEnvelope).
   */
  rimServiceUrl?: string | null;
  /**
   * The OCSP responder asked about device and RIM certificates. Default: NVIDIA's,
   * https://ocsp.ndis.nvidia.com/; null: off (revocation not checked; every token says so in
   * x-nvidia-attestation-warning).
   */
  ocspUrl?: string | null;
}

/** An HTTP request as the host received it. */
export interface ServiceRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  /** The origin the request was addressed to (`new URL(request.url).origin`): the tokens' iss when no issuer is configured. */
  origin?: string;
  headers?: [string, string][] | Record<string, string>;
  body?: Uint8Array | string;
}

/** The response for the host to send. */
export interface ServiceResponse {
  status: number;
  headers: [string, string][];
  /** A fresh buffer: the type says so (`buffer: ArrayBuffer`), so that TypeScript's DOM types take it as a Response body. */
  body: Uint8Array & { readonly buffer: ArrayBuffer };
}

/** Something a ServiceExchange asks its host to fetch. */
export type FetchResource =
  /** GET url: the RIM service's envelope for RIM `id`. */
  | { kind: 'rim'; id: string; url: string }
  /** POST request (content-type application/ocsp-request) to url; cacheKey names the certificate asked about. */
  | { kind: 'ocsp'; url: string; request: Uint8Array & { readonly buffer: ArrayBuffer }; nonce: Uint8Array; cacheKey: string };

/**
 * The host's answer for one FetchResource: the body fetched now; an OCSP response from the
 * host's cache with the nonce that fetched it; or why there is none ('not-fetched': the
 * host does not fetch this — a missing RIM then fails with 5009, an unasked OCSP query
 * leaves revocation unchecked with the warning claim).
 */
export type FetchAnswer =
  | { body: Uint8Array }
  | { body: Uint8Array; nonce: Uint8Array }
  | { error: 'unreachable' | 'timeout' | 'status' | 'too-large' | 'not-fetched'; status?: number };

/** An OCSP response that verified, for the host's cache, until `until` (Unix seconds). */
export interface OcspCacheEntry {
  cacheKey: string;
  body: Uint8Array;
  nonce: Uint8Array;
  until: number;
}

/** What the host last saw of a remote source, for /health. */
export interface SourceState {
  /** Whether its last fetch got an answer (undefined: not asked yet). */
  reachable?: boolean;
  /** The last failure, e.g. 'timeout' or 'HTTP 503'. */
  lastError?: string;
  /** Answers held in the host's cache. */
  cachedEntries?: number;
}

/** What a ServiceExchange needs next. */
export type ServiceStep =
  | { kind: 'verify'; checks: SignatureCheck[] }
  | { kind: 'fetch'; resources: FetchResource[] }
  | { kind: 'sign'; inputs: Uint8Array[] }
  | { kind: 'respond'; response: ServiceResponse };
"#;

/// The attestation service (spec: attestation-service.md) as a JS class.
#[wasm_bindgen]
pub struct AttestationService {
    // Shared with the exchanges in progress, which read it at each round; JS is single
    // threaded and no call re-enters, so a borrow never meets another.
    inner: Rc<RefCell<Service>>,
}

/// One request in progress (see `crate::service::Exchange`): `step()` says what is needed,
/// `verified()` / `signed()` give it. Free it when done.
#[wasm_bindgen]
pub struct ServiceExchange {
    service: Rc<RefCell<Service>>,
    exchange: Exchange,
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
        let kid = js::optional_string(&js::member(&options, "kid"), "kid")?;
        let private = js::optional_string(&js::member(&options, "signingKey"), "signingKey")?;
        let public = js::optional_string(&js::member(&options, "publicKey"), "publicKey")?;
        let mut keys = match (private, public) {
            (Some(text), None) => {
                let key = if text.trim_start().starts_with('{') {
                    SigningKey::from_jwk_json(text.as_bytes())
                } else {
                    SigningKey::from_pkcs8_pem(&text)
                };
                KeyRing::new(key.map_err(|error| to_js(&error))?, kid)
            }
            (None, Some(text)) => {
                let key = if text.trim_start().starts_with('{') {
                    PublicKey::from_jwk_json(text.as_bytes())
                } else {
                    PublicKey::from_spki_pem(&text)
                };
                KeyRing::external(key.map_err(|error| to_js(&error))?, kid)
            }
            _ => {
                return Err(invalid_argument(
                    "signingKey",
                    "given, or publicKey given instead (exactly one of the two)",
                ))
            }
        };
        if let Some(pem) = js::optional_string(&js::member(&options, "certificate"), "certificate")?
        {
            keys = keys
                .with_certificate_pem(&pem)
                .map_err(|error| with_field(to_js(&error), "certificate"))?;
        }
        if let Some(retired) =
            js::optional_string(&js::member(&options, "retiredKeys"), "retiredKeys")?
        {
            let set = Jwks::parse(retired.as_bytes()).map_err(|error| to_js(&error))?;
            keys = keys.with_retired(set.keys().to_vec());
        }
        let mut config = ServiceConfig {
            issuer: js::optional_string(&js::member(&options, "issuer"), "issuer")?,
            ..ServiceConfig::default()
        };
        config.rim_service_url = source_option(&options, "rimServiceUrl", config.rim_service_url)?;
        config.ocsp_url = source_option(&options, "ocspUrl", config.ocsp_url)?;
        if js::optional_bool(&js::member(&options, "requireFwid"), "requireFwid")? == Some(true) {
            config.fwid_policy = FwidPolicy::Require;
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
        Ok(Self {
            inner: Rc::new(RefCell::new(inner)),
        })
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
        self.service_mut()?
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
        self.service_mut()?
            .rims_mut()
            .insert(&envelope.id, envelope.rim);
        Ok(())
    }

    /// Number of RIM documents held.
    #[wasm_bindgen(getter, js_name = rimCount)]
    pub fn rim_count(&self) -> usize {
        self.inner
            .try_borrow()
            .map_or(0, |service| service.rim_count())
    }

    /// Records what the host last saw of a remote source, for `/health`: `kind` is `rim`
    /// (the RIM service) or `ocsp` (the OCSP responder).
    #[wasm_bindgen(js_name = setSourceState)]
    pub fn set_source_state(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "'rim' | 'ocsp'")] kind: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SourceState")] state: JsValue,
    ) -> Result<(), JsValue> {
        let source = match js::string_arg(&kind, "kind")?.as_str() {
            "rim" => Source::RimService,
            "ocsp" => Source::Ocsp,
            _ => return Err(invalid_argument("kind", "\"rim\" or \"ocsp\"")),
        };
        if !state.is_object() {
            return Err(invalid_argument("state", "an object"));
        }
        let cached = js::member(&state, "cachedEntries");
        let cached_entries = if cached.is_undefined() {
            0
        } else {
            u64::from(js::u32_arg(&cached, "state.cachedEntries")?)
        };
        let state = SourceState {
            reachable: js::optional_bool(&js::member(&state, "reachable"), "state.reachable")?,
            last_error: js::optional_string(&js::member(&state, "lastError"), "state.lastError")?
                .map(|text| text.chars().take(200).collect()),
            cached_entries,
        };
        self.service_mut()?.set_source_state(source, state);
        Ok(())
    }

    /// The RIM ids this request needs that the service does not hold, read from its
    /// transcripts before any verification (a forged transcript names what it likes): a host
    /// that fetches should answer the exchange's `fetch` step instead (`handleRequest`'s
    /// `fetchRims`), which names only the RIMs of verified devices.
    #[wasm_bindgen(js_name = missingRims)]
    pub fn missing_rims(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ServiceRequest")] request: JsValue,
    ) -> Result<Vec<String>, JsValue> {
        Ok(self.service()?.missing_rims(&request_of(&request)?))
    }

    /// Answers one request with the software backend. `now` is Unix seconds (the host's
    /// clock); the token ids draw on `crypto.getRandomValues`. A service made with
    /// `publicKey` answers attestation requests 500 `ERR_SIGNING_KEY_EXTERNAL` here: use
    /// `begin` (or the package's `handleRequest`).
    #[wasm_bindgen(unchecked_return_type = "ServiceResponse")]
    pub fn handle(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ServiceRequest")] request: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    ) -> Result<JsValue, JsValue> {
        let now = now_arg(&now)?;
        let request = request_of(&request)?;
        let response = self
            .service()?
            .handle(&request, now, js::random_bytes::<32>()?);
        response_js(&response)
    }

    /// Starts answering one request for a host that runs the ECDSA checks and signatures
    /// (WebCrypto): drive the returned exchange until `step()` is `respond`.
    pub fn begin(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ServiceRequest")] request: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    ) -> Result<ServiceExchange, JsValue> {
        let now = now_arg(&now)?;
        let request = request_of(&request)?;
        let exchange = self
            .service()?
            .begin(&request, now, js::random_bytes::<32>()?);
        Ok(ServiceExchange {
            service: Rc::clone(&self.inner),
            exchange,
        })
    }

    fn service(&self) -> Result<core::cell::Ref<'_, Service>, JsValue> {
        self.inner.try_borrow().map_err(|_| busy())
    }

    fn service_mut(&self) -> Result<core::cell::RefMut<'_, Service>, JsValue> {
        self.inner.try_borrow_mut().map_err(|_| busy())
    }
}

#[wasm_bindgen]
impl ServiceExchange {
    /// What the exchange needs next: `{kind: 'verify', checks}` (answer with `verified`, or
    /// `verifyInCore`), `{kind: 'fetch', resources}` (RIM documents of verified devices that
    /// the service lacks, OCSP requests for their chains: answer with `fetched`),
    /// `{kind: 'sign', inputs}` (answer with `signed`) or `{kind: 'respond', response}`.
    #[wasm_bindgen(unchecked_return_type = "ServiceStep")]
    pub fn step(&self) -> Result<JsValue, JsValue> {
        let out = Object::new();
        let (kind, name, value): (&str, &str, JsValue) = match self.exchange.step() {
            Step::Verify(checks) => ("verify", "checks", js::checks_to_js(checks).into()),
            Step::Fetch(resources) => ("fetch", "resources", resources_js(resources)?.into()),
            Step::Sign(inputs) => {
                let array = Array::new();
                for input in inputs {
                    array.push(&Uint8Array::from(input.as_bytes()));
                }
                ("sign", "inputs", array.into())
            }
            Step::Respond(response) => ("respond", "response", response_js(response)?),
        };
        Reflect::set(&out, &"kind".into(), &kind.into())
            .and_then(|_| Reflect::set(&out, &name.into(), &value))
            .map_err(|_| coded("ERR_INTERNAL", "could not build the step object", None))?;
        Ok(out.into())
    }

    /// Answers a `verify` step: one boolean per check, in order.
    pub fn verified(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean[]")] verdicts: JsValue,
    ) -> Result<(), JsValue> {
        let verdicts = js::verdicts_arg(&verdicts, "verdicts")?;
        let service = self.service.try_borrow().map_err(|_| busy())?;
        self.exchange
            .verified(&service, &verdicts)
            .map_err(|error| to_js(&error))
    }

    /// Answers a `verify` step with the software backend, inside the module.
    #[wasm_bindgen(js_name = verifyInCore)]
    pub fn verify_in_core(&mut self) -> Result<(), JsValue> {
        let service = self.service.try_borrow().map_err(|_| busy())?;
        self.exchange
            .verify_in_core(&service)
            .map_err(|error| to_js(&error))
    }

    /// Answers a `fetch` step: one answer per resource, in order.
    pub fn fetched(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "FetchAnswer[]")] answers: JsValue,
    ) -> Result<(), JsValue> {
        let answers = fetch_answers(&answers)?;
        let service = self.service.try_borrow().map_err(|_| busy())?;
        self.exchange
            .fetched(&service, &answers)
            .map_err(|error| to_js(&error))
    }

    /// The OCSP answers of this exchange that verified, for the host's cache (known once
    /// the exchange has reached its tokens or its response).
    #[wasm_bindgen(unchecked_return_type = "OcspCacheEntry[]")]
    pub fn cacheable(&self) -> Result<JsValue, JsValue> {
        let array = Array::new();
        for entry in self.exchange.cacheable() {
            let out = Object::new();
            let set =
                |name: &str, value: &JsValue| Reflect::set(&out, &name.into(), value).map(|_| ());
            set("cacheKey", &entry.cache_key.as_str().into())
                .and_then(|()| set("body", &Uint8Array::from(entry.body.as_slice())))
                .and_then(|()| set("nonce", &Uint8Array::from(entry.nonce.as_slice())))
                .and_then(|()| set("until", &JsValue::from(entry.until as f64)))
                .map_err(|_| coded("ERR_INTERNAL", "could not build the cache entry", None))?;
            array.push(&out);
        }
        Ok(array.into())
    }

    /// Answers a `sign` step: one raw `r‖s` ES384 signature (96 bytes, as WebCrypto's
    /// `sign` gives) per input, in order.
    pub fn signed(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array[]")] signatures: JsValue,
    ) -> Result<(), JsValue> {
        if !Array::is_array(&signatures) {
            return Err(invalid_argument("signatures", "an array of Uint8Array"));
        }
        let signatures = Array::from(&signatures)
            .iter()
            .enumerate()
            .map(|(i, s)| js::bytes(&s, &alloc::format!("signatures[{i}]")))
            .collect::<Result<Vec<Vec<u8>>, JsValue>>()?;
        let service = self.service.try_borrow().map_err(|_| busy())?;
        self.exchange
            .signed(&service, &signatures)
            .map_err(|error| to_js(&error))
    }
}

/// A source URL option: absent keeps the default, `null` (or `"off"`) switches it off.
fn source_option(
    options: &JsValue,
    name: &str,
    default: Option<String>,
) -> Result<Option<String>, JsValue> {
    let value = js::member(options, name);
    if value.is_undefined() {
        return Ok(default);
    }
    if value.is_null() {
        return Ok(None);
    }
    match value.as_string() {
        Some(text) if text == "off" => Ok(None),
        Some(text) if is_source_url(&text) => Ok(Some(text)),
        _ => Err(invalid_argument(
            name,
            "an http(s) URL, or null (or \"off\") to switch the source off",
        )),
    }
}

fn resources_js(resources: &[Resource]) -> Result<Array, JsValue> {
    let array = Array::new();
    for resource in resources {
        let out = Object::new();
        let set = |name: &str, value: &JsValue| Reflect::set(&out, &name.into(), value).map(|_| ());
        let made = match resource {
            Resource::Rim { id, url } => set("kind", &"rim".into())
                .and_then(|()| set("id", &id.as_str().into()))
                .and_then(|()| set("url", &url.as_str().into())),
            Resource::Ocsp {
                url,
                request,
                nonce,
                cache_key,
            } => set("kind", &"ocsp".into())
                .and_then(|()| set("url", &url.as_str().into()))
                .and_then(|()| set("request", &Uint8Array::from(request.as_slice())))
                .and_then(|()| set("nonce", &Uint8Array::from(nonce.as_slice())))
                .and_then(|()| set("cacheKey", &cache_key.as_str().into())),
        };
        made.map_err(|_| coded("ERR_INTERNAL", "could not build the fetch step", None))?;
        array.push(&out);
    }
    Ok(array)
}

/// The host's answers to a fetch step; a body over [`MAX_FETCHED_BYTES`] counts as too large.
fn fetch_answers(value: &JsValue) -> Result<Vec<Fetched>, JsValue> {
    if !Array::is_array(value) {
        return Err(invalid_argument("answers", "an array of fetch answers"));
    }
    Array::from(value)
        .iter()
        .enumerate()
        .map(|(i, answer)| {
            Ok(
                match js::fetch_answer(&answer, &alloc::format!("answers[{i}]"))? {
                    Fetched::Body(body) | Fetched::Cached { body, .. }
                        if body.len() > MAX_FETCHED_BYTES =>
                    {
                        Fetched::Failed(FetchFailure::TooLarge)
                    }
                    answer => answer,
                },
            )
        })
        .collect()
}

fn busy() -> JsValue {
    coded(
        "ERR_SERVICE_BUSY",
        "the service is in use by another call",
        None,
    )
}

fn now_arg(now: &JsValue) -> Result<u64, JsValue> {
    let now = js::number_arg(now, "now")?;
    if !now.is_finite() || !(0.0..=253_402_300_799.0).contains(&now) {
        return Err(invalid_argument(
            "now",
            "Unix seconds from 0 to 253402300799",
        ));
    }
    Ok(now as u64)
}

fn response_js(response: &Response) -> Result<JsValue, JsValue> {
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
    request.origin = js::optional_string(&js::member(value, "origin"), "request.origin")?;
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
