//! JS API for `crate::service`: the `AttestationService` class a host (the edge worker)
//! creates once and asks to answer each request. Every value crosses through
//! [`super::convert`] as the core's serde shapes (`crate::service::wire`); the rules are the
//! core's.

use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::{Ref, RefCell, RefMut};

use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::convert::{self, from_js};
use super::error::{coded, OrJs};
use super::{answer, args};
use crate::bytes::{Document, HexBytes};
use crate::rim::open_envelope;
use crate::service::{
    probe_targets, Exchange, Fetched, Request, Service, ServiceOptions, Source, SourceState,
};

#[wasm_bindgen(typescript_custom_section)]
const TS_SERVICE: &str = include_str!("types/service.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const TS_SERVICE_HAND: &str = include_str!("types/hand/service.d.ts");

/// The attestation service as a JS class: NVIDIA's NRAS API (`/v1`–`/v4/attest/gpu` and
/// `/switch`, the JWKS, `/health`) answered by the core, which verifies the evidence, the
/// chains, the RIMs and revocation and signs the tokens. Hosts drive it with `handle`,
/// `begin` or the package's `handleRequest`; `free()` releases it.
#[wasm_bindgen]
pub struct AttestationService {
    // Shared with the exchanges in progress, which read it at each round; JS is single
    // threaded and no call re-enters, so a borrow never meets another.
    pub(super) inner: Rc<RefCell<Service>>,
}

/// One request in progress (`AttestationService.begin`): `step()` says what is needed,
/// `verified()`, `fetched()` and `signed()` give it, until the step is `respond`. Free it
/// when done.
#[wasm_bindgen]
pub struct ServiceExchange {
    service: Rc<RefCell<Service>>,
    exchange: Exchange,
}

#[wasm_bindgen]
impl AttestationService {
    /// Creates the service from its keys and trust anchors. Throws `ERR_INVALID_ARGUMENT` for
    /// options of the wrong shape or not exactly one of `signingKey` and `publicKey`,
    /// `ERR_JWK_*` / `ERR_KEY_*` for a key that does not read, `ERR_CHAIN_PEM` / `ERR_CERT_*`
    /// for certificates or anchors that do not read, `ERR_POLICY_*` for a `policy` that does
    /// not read (each with `field`).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "AttestationServiceOptions")] options: JsValue,
    ) -> Result<AttestationService, JsValue> {
        let options: ServiceOptions = convert::options_from_js(&options)?;
        let inner = options.build().or_js()?;
        Ok(Self {
            inner: Rc::new(RefCell::new(inner)),
        })
    }

    /// Adds a RIM document: under `name` when it is a RIM id or an `<id>.xml` file name (a
    /// signed CoRIM: `<id>.cbor`, bytes), else an XML RIM indexed by its content. It is
    /// verified when a request uses it. Throws `ERR_RIM_*` for a document that does not read
    /// or a CoRIM not named by its id, `ERR_SERVICE_BUSY` during another call.
    #[wasm_bindgen(js_name = addRim)]
    pub fn add_rim(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] xml: JsValue,
    ) -> Result<(), JsValue> {
        let name = args::string_arg(&name, "name")?;
        let Document(xml) = from_js(&xml, "xml")?;
        self.service_mut()?
            .rims_mut()
            .insert_named(&name, xml)
            .or_js()
    }

    /// Adds a RIM fetched from a RIM service: the envelope `{id, rim, sha256, …}` is checked
    /// against the id asked for (`openRimEnvelope`'s checks). Throws `ERR_RIM_ENVELOPE_*`,
    /// `ERR_SERVICE_BUSY` during another call.
    #[wasm_bindgen(js_name = addRimEnvelope)]
    pub fn add_rim_envelope(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] body: JsValue,
    ) -> Result<(), JsValue> {
        let id = args::string_arg(&id, "id")?;
        let Document(body) = from_js(&body, "body")?;
        let envelope = open_envelope(&body, &id).or_js()?;
        self.service_mut()?
            .rims_mut()
            .insert(&envelope.id, envelope.rim);
        Ok(())
    }

    /// The number of RIM documents held.
    #[wasm_bindgen(getter, js_name = rimCount)]
    pub fn rim_count(&self) -> usize {
        self.inner
            .try_borrow()
            .map_or(0, |service| service.rim_count())
    }

    /// Keeps what `exchange` (one of this service's) verified for the next requests, once it
    /// responded: the signature checks that verified and, with `fetchCache` on, the OCSP
    /// answers and RIM documents, each while it is fresh. A warm attestation then hands out
    /// only the work its devices need. `handleRequest` calls it. Throws `ERR_SERVICE_BUSY`
    /// during another call.
    pub fn remember(&self, exchange: &ServiceExchange) -> Result<(), JsValue> {
        self.service_mut()?.remember(&exchange.exchange);
        Ok(())
    }

    /// Records what the host last saw of a remote source, for `/health`: `kind` is `rim`
    /// (the RIM service) or `ocsp` (the OCSP responder). Throws `ERR_INVALID_ARGUMENT` for
    /// another kind or a state of the wrong shape.
    #[wasm_bindgen(js_name = setSourceState)]
    pub fn set_source_state(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "'rim' | 'ocsp'")] kind: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SourceState")] state: JsValue,
    ) -> Result<(), JsValue> {
        let source: Source = from_js(&kind, "kind")?;
        let state: SourceState = from_js(&state, "state")?;
        self.service_mut()?.set_source_state(source, state);
        Ok(())
    }

    /// The sources a host should probe when the service starts, and again now and then, so
    /// that `/health` says at once whether they answer: each configured source (one that is
    /// off is not listed). The host asks each URL once (`HEAD`, a short timeout) and records
    /// what it saw with `setSourceState`.
    #[wasm_bindgen(js_name = probeTargets, unchecked_return_type = "ProbeTarget[]")]
    pub fn probe_targets(&self) -> Result<JsValue, JsValue> {
        convert::to_js(&probe_targets(self.service()?.config()))
    }

    /// The RIM ids this request needs that the service does not hold, read from its
    /// transcripts before any verification (a forged transcript names what it likes): a host
    /// that fetches should answer the exchange's `fetch` step instead (`handleRequest`'s
    /// `fetch`), which names only the RIMs of verified devices. Throws `ERR_INVALID_ARGUMENT`
    /// for a request of the wrong shape.
    #[wasm_bindgen(js_name = missingRims)]
    pub fn missing_rims(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ServiceRequest")] request: JsValue,
    ) -> Result<Vec<String>, JsValue> {
        let request: Request = from_js(&request, "request")?;
        Ok(self.service()?.missing_rims(&request))
    }

    /// Answers one request with the software backend. `now` is Unix seconds (the host's
    /// clock); the token ids draw on `crypto.getRandomValues`. A service made with
    /// `publicKey` answers attestation requests 500 `ERR_SIGNING_KEY_EXTERNAL` here: use
    /// `begin` (or the package's `handleRequest`). The service's own refusals are responses
    /// (a status and an error body), not throws; throws `ERR_INVALID_ARGUMENT` for a request
    /// or `now` of the wrong shape, `ERR_NO_RANDOMNESS`, `ERR_SERVICE_BUSY` during another
    /// call.
    #[wasm_bindgen(unchecked_return_type = "ServiceResponse")]
    pub fn handle(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ServiceRequest")] request: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    ) -> Result<JsValue, JsValue> {
        let now = args::time(&now, "now")?;
        let request: Request = from_js(&request, "request")?;
        let entropy = args::random_bytes::<32>()?;
        convert::to_js(&self.service()?.handle(&request, now, entropy))
    }

    /// Starts answering one request for a host that runs the ECDSA checks and signatures
    /// (WebCrypto): drive the returned exchange until `step()` is `respond`. Throws as
    /// `handle` does.
    pub fn begin(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ServiceRequest")] request: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    ) -> Result<ServiceExchange, JsValue> {
        let now = args::time(&now, "now")?;
        let request: Request = match plain_request(&request) {
            Some(request) => request,
            None => from_js(&request, "request")?,
        };
        let entropy = args::random_bytes::<32>()?;
        // Mutable: the service keeps the chain certificates it decodes (no exchange holds a
        // borrow between calls, so this never meets another).
        let exchange = self.service_mut()?.begin_cached(&request, now, entropy);
        let service = Rc::clone(&self.inner);
        Ok(ServiceExchange { service, exchange })
    }

    /// The verified mirror's answer to `GET /v1/rim/<id>` at `now`: the service's own
    /// document, else `envelope` (a RIM service answer the host kept under
    /// `mirror-rim:<id>`, or fetched for the mirror), served only if it verifies now. Returns
    /// `{response, store?}`: `store` is a fetched envelope that verified, for the host to
    /// keep until `store.until`. Throws `ERR_INVALID_ARGUMENT` for arguments of the wrong
    /// shape, `ERR_NO_RANDOMNESS`, `ERR_SERVICE_BUSY`.
    #[wasm_bindgen(js_name = mirrorRim, unchecked_return_type = "MirrorAnswer")]
    pub fn mirror_rim(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | undefined")] envelope: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    ) -> Result<JsValue, JsValue> {
        let id = args::string_arg(&id, "id")?;
        let now = args::time(&now, "now")?;
        let envelope = match envelope.is_undefined() || envelope.is_null() {
            true => None,
            false => Some(from_js::<Document>(&envelope, "envelope")?.0),
        };
        let random = args::random_bytes::<16>()?;
        convert::to_js(
            &self
                .service()?
                .mirror_rim(&id, envelope.as_deref(), now, random),
        )
    }

    fn service(&self) -> Result<Ref<'_, Service>, JsValue> {
        self.inner.try_borrow().map_err(|_| busy())
    }

    fn service_mut(&self) -> Result<RefMut<'_, Service>, JsValue> {
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
        convert::to_js(&self.exchange.step())
    }

    /// Answers a `verify` step: one boolean per check, in order. Throws
    /// `ERR_EXCHANGE_ANSWER_COUNT` for a list of the wrong length,
    /// `ERR_EXCHANGE_UNEXPECTED_ANSWER` when the step is not `verify`.
    pub fn verified(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean[]")] verdicts: JsValue,
    ) -> Result<(), JsValue> {
        let verdicts: Vec<bool> = match array_of(&verdicts, JsValue::as_bool) {
            Some(verdicts) => verdicts,
            None => from_js(&verdicts, "verdicts")?,
        };
        let service = self.service.try_borrow().map_err(|_| busy())?;
        self.exchange.verified(&service, &verdicts).or_js()
    }

    /// Answers a `verify` step with the software backend, inside the module. Throws
    /// `ERR_EXCHANGE_UNEXPECTED_ANSWER` when the step is not `verify`.
    #[wasm_bindgen(js_name = verifyInCore)]
    pub fn verify_in_core(&mut self) -> Result<(), JsValue> {
        let service = self.service.try_borrow().map_err(|_| busy())?;
        self.exchange.verify_in_core(&service).or_js()
    }

    /// Answers a `fetch` step: one answer per resource, in order; a body over
    /// `serviceLimits().maxFetchedBytes` counts as too large. Throws
    /// `ERR_EXCHANGE_ANSWER_COUNT`, `ERR_EXCHANGE_UNEXPECTED_ANSWER`, or
    /// `ERR_INVALID_ARGUMENT` for an answer of the wrong shape.
    pub fn fetched(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "FetchAnswer[]")] answers: JsValue,
    ) -> Result<(), JsValue> {
        let answers: Vec<Fetched> = answer::fetched(&answers)?
            .into_iter()
            .map(Fetched::capped)
            .collect();
        let service = self.service.try_borrow().map_err(|_| busy())?;
        self.exchange.fetched(&service, &answers).or_js()
    }

    /// Answers one resource of the fetch round as soon as the host has it: `index` is
    /// `fetchOffset()` plus the resource's position in its `fetch` step. Once every RIM
    /// document is answered, `step()` may hand out a further batch (the RIMs' chains' OCSP
    /// queries) while the rest are still being fetched. Throws `ERR_EXCHANGE_FETCH_INDEX`
    /// for a resource answered already or not handed out, `ERR_EXCHANGE_UNEXPECTED_ANSWER`
    /// when no fetch is awaited, `ERR_INVALID_ARGUMENT` for an answer of the wrong shape.
    #[wasm_bindgen(js_name = fetchedOne)]
    pub fn fetched_one(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] index: JsValue,
        #[wasm_bindgen(unchecked_param_type = "FetchAnswer")] answer: JsValue,
    ) -> Result<(), JsValue> {
        let index = args::u32_arg(&index, "index")? as usize;
        let answer = Fetched::capped(answer::fetched_one(&answer)?);
        let service = self.service.try_borrow().map_err(|_| busy())?;
        self.exchange.fetched_one(&service, index, &answer).or_js()
    }

    /// The position of the current `fetch` step's first resource among all the fetch
    /// round's (for `fetchedOne`); 0 when no fetch is awaited.
    #[wasm_bindgen(js_name = fetchOffset)]
    pub fn fetch_offset(&self) -> usize {
        self.exchange.fetch_offset()
    }

    /// The OCSP answers of this exchange that verified, for the host's cache (known once
    /// the exchange has reached its tokens or its response).
    #[wasm_bindgen(unchecked_return_type = "OcspCacheEntry[]")]
    pub fn cacheable(&self) -> Result<JsValue, JsValue> {
        convert::to_js(self.exchange.cacheable())
    }

    /// The RIM service envelopes this exchange fetched whose documents verified, for the
    /// host's mirror (`mirror-rim:<id>` until `until`; known once the exchange has reached
    /// its tokens or its response).
    #[wasm_bindgen(js_name = verifiedRims, unchecked_return_type = "MirrorEntry[]")]
    pub fn verified_rims(&self) -> Result<JsValue, JsValue> {
        convert::to_js(self.exchange.verified_rims())
    }

    /// Answers a `sign` step: one raw `r‖s` ES384 signature (96 bytes, as WebCrypto's
    /// `sign` gives) per input, in order. Throws `ERR_EXCHANGE_ANSWER_COUNT`,
    /// `ERR_EXCHANGE_UNEXPECTED_ANSWER`.
    pub fn signed(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array[]")] signatures: JsValue,
    ) -> Result<(), JsValue> {
        let bytes = |value: &JsValue| value.dyn_ref::<Uint8Array>().map(Uint8Array::to_vec);
        let signatures: Vec<Vec<u8>> = match array_of(&signatures, bytes) {
            Some(signatures) => signatures,
            None => from_js::<Vec<HexBytes>>(&signatures, "signatures")?
                .into_iter()
                .map(|HexBytes(bytes)| bytes)
                .collect(),
        };
        let service = self.service.try_borrow().map_err(|_| busy())?;
        self.exchange.signed(&service, &signatures).or_js()
    }
}

// Fast paths for what the package's own hosts pass on every request (handleRequest, the
// worker): read member by member instead of through the generic converter, which walks and
// copies every value first (a tenth of a millisecond for a request's headers, more for the
// signatures' bytes). They take only values the converter reads the same way; anything else
// returns None and goes through `from_js`, which reads it, or says what is wrong with it.

/// The elements of a plain array, when `element` reads every one of them.
fn array_of<T>(value: &JsValue, element: impl Fn(&JsValue) -> Option<T>) -> Option<Vec<T>> {
    let array = value.dyn_ref::<Array>()?;
    if !Array::is_array(value) {
        return None;
    }
    let mut out = Vec::with_capacity(array.length() as usize);
    for i in 0..array.length() {
        out.push(element(&Reflect::get_u32(array, i).ok()?)?);
    }
    Some(out)
}

/// A `ServiceRequest` that is a plain object (prototype `Object.prototype`) of the known
/// members only: string `method` and `path`, `origin` a string or absent, `headers` absent
/// or `[name, value]` string pairs, `body` absent or a `Uint8Array`.
fn plain_request(value: &JsValue) -> Option<Request> {
    const MEMBERS: [&str; 5] = ["method", "path", "origin", "headers", "body"];
    let object = value.dyn_ref::<Object>()?;
    let object_prototype: JsValue = Object::get_prototype_of(&Object::new()).into();
    if !Object::is(&Object::get_prototype_of(value), &object_prototype) {
        return None;
    }
    let known = |key: JsValue| key.as_string().is_some_and(|key| MEMBERS.contains(&&*key));
    if !Reflect::own_keys(object).ok()?.iter().all(known) {
        return None;
    }
    let member = |name: &str| Reflect::get(object, &JsValue::from_str(name)).ok();
    // A member that may be absent (`undefined` or `null`): `Some(None)` when it is.
    let optional = |name: &str| {
        let value = member(name)?;
        Some((!value.is_undefined() && !value.is_null()).then_some(value))
    };
    let method = member("method")?.as_string()?;
    let path = member("path")?.as_string()?;
    let origin = match optional("origin")? {
        Some(origin) => Some(origin.as_string()?),
        None => None,
    };
    let pair = |pair: &JsValue| match <[String; 2]>::try_from(array_of(pair, JsValue::as_string)?) {
        Ok([name, value]) => Some((name, value)),
        Err(_) => None,
    };
    let headers = |headers: JsValue| array_of(&headers, pair);
    let headers = optional("headers")?.map_or(Some(Vec::new()), headers)?;
    let bytes = |body: JsValue| body.dyn_ref::<Uint8Array>().map(Uint8Array::to_vec);
    let body = optional("body")?.map_or(Some(Vec::new()), bytes)?;
    Some(Request {
        method,
        path,
        headers,
        body,
        origin,
    })
}

pub(crate) fn busy() -> JsValue {
    let message = "the service is in use by another call";
    coded("ERR_SERVICE_BUSY", message, None)
}
