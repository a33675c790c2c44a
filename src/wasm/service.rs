//! JS API for `crate::service`: the `AttestationService` class a host (the edge worker)
//! creates once and asks to answer each request. Every value crosses through
//! [`super::convert`]; the rules (options, key formats, trust) are the core's.

use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;

use serde::{Deserialize, Deserializer, Serialize};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::convert::{self, from_js, ByteBuf, Bytes, Check, Document};
use super::error::{coded, to_js};
use super::{answer, args};
use crate::rim::open_envelope;
use crate::service::{
    Exchange, FetchFailure, Fetched, OcspCacheEntry, Request, Resource, Response, Service,
    ServiceOptions, Source, SourceState, Step, MAX_FETCHED_BYTES,
};

#[wasm_bindgen(typescript_custom_section)]
const TS_SERVICE: &str = include_str!("types/service.d.ts");

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
        let options: ServiceOptions = convert::options_from_js(&options)?;
        let inner = options.build().map_err(|error| to_js(&error))?;
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
        let name: &str = &args::string_arg(&name, "name")?;
        let Document(bytes) = from_js(&xml, "xml")?;
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
        let id: &str = &args::string_arg(&id, "id")?;
        let Document(bytes) = from_js(&body, "body")?;
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
        let source = match from_js::<SourceKind>(&kind, "kind")? {
            SourceKind::Rim => Source::RimService,
            SourceKind::Ocsp => Source::Ocsp,
        };
        let state: SourceStateIn = from_js(&state, "state")?;
        let state = SourceState {
            reachable: state.reachable,
            last_error: state
                .last_error
                .map(|text| text.chars().take(200).collect()),
            cached_entries: u64::from(state.cached_entries.unwrap_or(0)),
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
        let now = args::time(&now, "now")?.as_secs();
        let request = request_of(&request)?;
        let response = self
            .service()?
            .handle(&request, now, args::random_bytes::<32>()?);
        convert::to_js(&ResponseOut(&response))
    }

    /// Starts answering one request for a host that runs the ECDSA checks and signatures
    /// (WebCrypto): drive the returned exchange until `step()` is `respond`.
    pub fn begin(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ServiceRequest")] request: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    ) -> Result<ServiceExchange, JsValue> {
        let now = args::time(&now, "now")?.as_secs();
        let request = request_of(&request)?;
        let exchange = self
            .service()?
            .begin(&request, now, args::random_bytes::<32>()?);
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
        convert::to_js(&match self.exchange.step() {
            Step::Verify(checks) => StepOut::Verify {
                checks: checks.iter().map(Check).collect(),
            },
            Step::Fetch(resources) => StepOut::Fetch {
                resources: resources.iter().map(ResourceOut).collect(),
            },
            Step::Sign(inputs) => StepOut::Sign {
                inputs: inputs.iter().map(|input| Bytes(input.as_bytes())).collect(),
            },
            Step::Respond(response) => StepOut::Respond {
                response: ResponseOut(response),
            },
        })
    }

    /// Answers a `verify` step: one boolean per check, in order.
    pub fn verified(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean[]")] verdicts: JsValue,
    ) -> Result<(), JsValue> {
        let verdicts: Vec<bool> = from_js(&verdicts, "verdicts")?;
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

    /// Answers a `fetch` step: one answer per resource, in order; a body over
    /// `MAX_FETCHED_BYTES` counts as too large.
    pub fn fetched(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "FetchAnswer[]")] answers: JsValue,
    ) -> Result<(), JsValue> {
        let answers = from_js::<Vec<answer::Answer>>(&answers, "answers")?
            .into_iter()
            .enumerate()
            .map(|(i, answer)| {
                Ok(
                    match answer::fetched(answer, &alloc::format!("answers[{i}]"))? {
                        Fetched::Body(body) | Fetched::Cached { body, .. }
                            if body.len() > MAX_FETCHED_BYTES =>
                        {
                            Fetched::Failed(FetchFailure::TooLarge)
                        }
                        answer => answer,
                    },
                )
            })
            .collect::<Result<Vec<Fetched>, JsValue>>()?;
        let service = self.service.try_borrow().map_err(|_| busy())?;
        self.exchange
            .fetched(&service, &answers)
            .map_err(|error| to_js(&error))
    }

    /// The OCSP answers of this exchange that verified, for the host's cache (known once
    /// the exchange has reached its tokens or its response).
    #[wasm_bindgen(unchecked_return_type = "OcspCacheEntry[]")]
    pub fn cacheable(&self) -> Result<JsValue, JsValue> {
        let entries: Vec<CacheEntryOut<'_>> = self
            .exchange
            .cacheable()
            .iter()
            .map(CacheEntryOut)
            .collect();
        convert::to_js(&entries)
    }

    /// Answers a `sign` step: one raw `r‖s` ES384 signature (96 bytes, as WebCrypto's
    /// `sign` gives) per input, in order.
    pub fn signed(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array[]")] signatures: JsValue,
    ) -> Result<(), JsValue> {
        let signatures: Vec<Vec<u8>> = from_js::<Vec<ByteBuf>>(&signatures, "signatures")?
            .into_iter()
            .map(|ByteBuf(bytes)| bytes)
            .collect();
        let service = self.service.try_borrow().map_err(|_| busy())?;
        self.exchange
            .signed(&service, &signatures)
            .map_err(|error| to_js(&error))
    }
}

fn busy() -> JsValue {
    coded(
        "ERR_SERVICE_BUSY",
        "the service is in use by another call",
        None,
    )
}

/// `setSourceState`'s `kind`.
#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum SourceKind {
    Rim,
    Ocsp,
}

/// The JS `SourceState`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SourceStateIn {
    reachable: Option<bool>,
    last_error: Option<String>,
    cached_entries: Option<u32>,
}

/// The JS `ServiceRequest`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RequestIn {
    method: String,
    path: String,
    origin: Option<String>,
    headers: Option<Headers>,
    body: Option<Document>,
}

/// Headers as `[name, value][]` or a record of string values, in their order.
struct Headers(Vec<(String, String)>);

impl<'de> Deserialize<'de> for Headers {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Pairs;
        impl<'de> serde::de::Visitor<'de> for Pairs {
            type Value = Vec<(String, String)>;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("an array of [name, value] string pairs or an object of string values")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(pair) = seq.next_element::<(String, String)>()? {
                    out.push(pair);
                }
                Ok(out)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(pair) = map.next_entry::<String, String>()? {
                    out.push(pair);
                }
                Ok(out)
            }
        }
        deserializer.deserialize_any(Pairs).map(Headers)
    }
}

/// A [`Request`] from the JS `ServiceRequest`.
fn request_of(value: &JsValue) -> Result<Request, JsValue> {
    let input: RequestIn = from_js(value, "request")?;
    let mut request = Request::new(&input.method, &input.path);
    request.origin = input.origin;
    if let Some(Headers(headers)) = input.headers {
        request.headers = headers;
    }
    if let Some(Document(body)) = input.body {
        request.body = body;
    }
    Ok(request)
}

/// The JS `ServiceStep`.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum StepOut<'a> {
    Verify { checks: Vec<Check<'a>> },
    Fetch { resources: Vec<ResourceOut<'a>> },
    Sign { inputs: Vec<Bytes<'a>> },
    Respond { response: ResponseOut<'a> },
}

/// A `FetchResource`.
struct ResourceOut<'a>(&'a Resource);

impl Serialize for ResourceOut<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        match self.0 {
            Resource::Rim { id, url } => {
                let mut out = serializer.serialize_struct("FetchResource", 3)?;
                out.serialize_field("kind", "rim")?;
                out.serialize_field("id", id)?;
                out.serialize_field("url", url)?;
                out.end()
            }
            Resource::Ocsp {
                url,
                request,
                nonce,
                cache_key,
            } => {
                let mut out = serializer.serialize_struct("FetchResource", 5)?;
                out.serialize_field("kind", "ocsp")?;
                out.serialize_field("url", url)?;
                out.serialize_field("request", &Bytes(request))?;
                out.serialize_field("nonce", &Bytes(nonce))?;
                out.serialize_field("cacheKey", cache_key)?;
                out.end()
            }
        }
    }
}

/// An `OcspCacheEntry`.
struct CacheEntryOut<'a>(&'a OcspCacheEntry);

impl Serialize for CacheEntryOut<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("OcspCacheEntry", 4)?;
        out.serialize_field("cacheKey", &self.0.cache_key)?;
        out.serialize_field("body", &Bytes(&self.0.body))?;
        out.serialize_field("nonce", &Bytes(&self.0.nonce))?;
        out.serialize_field("until", &self.0.until)?;
        out.end()
    }
}

/// A `ServiceResponse`.
struct ResponseOut<'a>(&'a Response);

impl Serialize for ResponseOut<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("ServiceResponse", 3)?;
        out.serialize_field("status", &self.0.status)?;
        out.serialize_field("headers", &self.0.headers)?;
        out.serialize_field("body", &Bytes(&self.0.body))?;
        out.end()
    }
}
