//! JS API for `crate::ocsp`'s chain checks (`ocsp/chain_check.rs`): `ocspRequests` (nonces
//! from the host's randomness) and `checkOcspResponses` (software signatures). The host does
//! the HTTP (src/js/ocsp.js does it with `fetch`).

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::answer::fetched;
use super::args;
use super::convert::{from_js, json_to_js, members_from_js, options_from_js, set_bytes};
use super::error;
use crate::bytes::Document;
use crate::ocsp::{CheckOcspOptions, OcspInputError, OcspRequestsOptions};
use crate::token::{Jwks, SignerOcspOptions, TokenError};

#[wasm_bindgen(typescript_custom_section)]
const TS_OCSP: &str = include_str!("types/ocsp.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const TS_OCSP_HAND: &str = include_str!("types/hand/ocsp.d.ts");

impl From<OcspInputError> for JsValue {
    fn from(e: OcspInputError) -> Self {
        error::to_js(&e)
    }
}

impl From<TokenError> for JsValue {
    fn from(e: TokenError) -> Self {
        error::to_js(&e)
    }
}

/// The DER OCSP requests for the certificates of `chainPem` (leaf first) that NVIDIA's
/// verifiers ask about (`kind` "device": all but the leaf and the root; "rim": the signer
/// too), each with a fresh 32-byte nonce. The host POSTs them (`fetchOcspStatus` does it with
/// `fetch`) and hands the answers to `checkOcspResponses`.
///
/// @throws EdgeAttestError `ERR_CHAIN_PEM` / `ERR_CERT_*` for a chain that does not read,
/// `ERR_OCSP_INVALID_CERTIFICATE` for a certificate a request cannot name,
/// `ERR_INVALID_ARGUMENT` for a missing `kind`, a certificate without its issuer in the chain
/// or `nonces` not one per request, `ERR_NO_RANDOMNESS` when nonces are to be made and the
/// host has none.
///
/// @example
/// ```ts
/// declare const chainPem: string; // the device's certificate chain, leaf first
/// const requests = ocspRequests(chainPem, { kind: 'device' });
/// const answers = await Promise.all(requests.map(async ({ request, nonce }) => {
///   const response = await fetch('https://ocsp.ndis.nvidia.com/', {
///     method: 'POST', headers: { 'content-type': 'application/ocsp-request' }, body: request,
///   });
///   return { body: new Uint8Array(await response.arrayBuffer()), nonce };
/// }));
/// const status = checkOcspResponses(chainPem, 'device', answers, undefined, undefined);
/// ```
#[wasm_bindgen(js_name = ocspRequests, unchecked_return_type = "OcspRequestJs[]")]
pub fn ocsp_requests(
    #[wasm_bindgen(unchecked_param_type = "string")] chain_pem: JsValue,
    #[wasm_bindgen(unchecked_param_type = "OcspRequestsOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let chain_pem = args::string_arg(&chain_pem, "chainPem")?;
    let options: OcspRequestsOptions = options_from_js(&options)?;
    let requests = options.requests(&chain_pem, args::random_bytes)?;
    // JSON, then the two byte members as `Uint8Array`s (a request is about 100 bytes).
    let out = json_to_js(&requests)?;
    for (index, request) in (0..).zip(&requests) {
        let item = js_sys::Reflect::get_u32(&out, index)?;
        set_bytes(&item, "request", &request.request);
        set_bytes(&item, "nonce", &request.nonce);
    }
    Ok(out)
}

/// Checks one answer per request of `ocspRequests(chainPem, {kind})`, in the same order,
/// at `now` (Unix seconds; default the host clock), with the software signature backend:
/// each response's status, its signer (the issuer or a responder it delegated to), its
/// signature, the certificate it answers for, its times and its nonce. Folds them into the
/// chain's status: `good` only when every certificate is; a response that does not verify is
/// that certificate's `failed` status with its `ERR_OCSP_*` code, not a throw. The chain
/// itself must be verified apart (`verifyCertificateChain`, `verifyEvidence`): only
/// revocation is checked here.
///
/// @throws EdgeAttestError `ERR_CHAIN_PEM` / `ERR_CERT_*` for a chain that does not read,
/// `ERR_INVALID_ARGUMENT` for answers not one per request or of the wrong shape (with
/// `field`, e.g. `answers[1]`), or an invalid `kind` or `now`.
///
/// @example
/// ```ts
/// declare const chainPem: string;
/// declare const answers: OcspAnswer[]; // one per ocspRequests(chainPem, { kind: 'device' })
/// const status = checkOcspResponses(chainPem, 'device', answers, Math.floor(Date.now() / 1000), { allowHold: false });
/// if (status.status !== 'good') console.error(status.status, status.reason ?? status.code);
/// ```
#[wasm_bindgen(js_name = checkOcspResponses, unchecked_return_type = "OcspChainStatus")]
pub fn check_ocsp_responses(
    #[wasm_bindgen(unchecked_param_type = "string")] chain_pem: JsValue,
    #[wasm_bindgen(unchecked_param_type = "OcspChainKind")] kind: JsValue,
    #[wasm_bindgen(unchecked_param_type = "OcspAnswer[]")] answers: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | undefined")] now: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CheckOcspOptions | undefined")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let chain_pem = args::string_arg(&chain_pem, "chainPem")?;
    let kind = from_js(&kind, "kind")?;
    let now = args::time_or_clock(&now, "now")?;
    let options: Option<CheckOcspOptions> = members_from_js(&options, "options")?;
    let answers = fetched(&answers)?;
    let options = options.unwrap_or_default();
    json_to_js(&options.check(&chain_pem, kind, &answers, now)?)
}

/// The DER OCSP requests for the chain of the key that signed a verified result: the key of
/// `options.kid` in `jwks` is pinned again under `options.signers` (default NRAS's anchors)
/// at `now`, and each certificate of its path that names an http(s) OCSP responder, and whose
/// issuer is on the path, is asked about at that responder (`url`). Empty when nothing can
/// be asked (NRAS's chain: `checkSignerOcsp` then says why). `fetchSignerOcsp` does the
/// HTTP.
///
/// @throws EdgeAttestError `ERR_JWKS_*` for a key set or `kid` that
/// does not select a key, `ERR_SIGNER_*` for a key that does not pin, `ERR_INVALID_ARGUMENT`
/// for options of the wrong shape or `nonces` not one per request.
///
/// @example
/// ```ts
/// declare const jwks: { keys: object[] };
/// declare const kid: string; // the verified result's signer.kid
/// const requests = signerOcspRequests(jwks, { kid }, undefined);
/// ```
#[wasm_bindgen(js_name = signerOcspRequests, unchecked_return_type = "SignerOcspRequest[]")]
pub fn signer_ocsp_requests(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | { keys: object[] }")]
    jwks: JsValue,
    #[wasm_bindgen(unchecked_param_type = "SignerOcspOptions | undefined")] options: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | undefined")] now: JsValue,
) -> Result<JsValue, JsValue> {
    let jwks = Jwks::parse(&args::json_bytes(&jwks, "jwks")?)?;
    let options: Option<SignerOcspOptions> = members_from_js(&options, "options")?;
    let now = args::time_or_clock(&now, "now")?;
    let requests = options
        .unwrap_or_default()
        .requests(&jwks, now, args::random_bytes)?;
    let out = json_to_js(&requests)?;
    for (index, request) in (0..).zip(&requests) {
        let item = js_sys::Reflect::get_u32(&out, index)?;
        set_bytes(&item, "request", &request.request.request);
        set_bytes(&item, "nonce", &request.request.nonce);
    }
    Ok(out)
}

/// Checks one answer per request of `signerOcspRequests(jwks, options)`, in the same order,
/// at `now`, and judges the signer's chain under `options.revocation.signerChain` (default
/// strict): `good` (with a warning per outcome the rule let pass), `not-checked` (nothing
/// could be asked: `notChecked` says why), or refused, with `code` (`ERR_SIGNER_REVOKED`,
/// `ERR_SIGNER_REVOCATION_UNCONFIRMED`) and `message` set. A refusal is the status, not a
/// throw.
///
/// @throws EdgeAttestError as `signerOcspRequests`, and `ERR_INVALID_ARGUMENT` for answers
/// not one per request or of the wrong shape.
///
/// @example
/// ```ts
/// declare const jwks: { keys: object[] };
/// declare const answers: OcspAnswer[]; // one per signerOcspRequests(jwks, { kid })
/// const status = checkSignerOcsp(jwks, answers, undefined, { kid: 'nras-1' });
/// if (status.code) throw new Error(status.message);
/// ```
#[wasm_bindgen(js_name = checkSignerOcsp, unchecked_return_type = "SignerOcspStatus")]
pub fn check_signer_ocsp(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | { keys: object[] }")]
    jwks: JsValue,
    #[wasm_bindgen(unchecked_param_type = "OcspAnswer[]")] answers: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | undefined")] now: JsValue,
    #[wasm_bindgen(unchecked_param_type = "SignerOcspOptions | undefined")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let jwks = Jwks::parse(&args::json_bytes(&jwks, "jwks")?)?;
    let answers = fetched(&answers)?;
    let now = args::time_or_clock(&now, "now")?;
    let options: Option<SignerOcspOptions> = members_from_js(&options, "options")?;
    json_to_js(&options.unwrap_or_default().check(&jwks, &answers, now)?)
}

/// The cache key (`sha384:<issuerKeyHash>:<serial>`, as `OcspCacheEntry.cacheKey`) under
/// which a verified OCSP answer may answer the DER `OCSPRequest` `request` from a cache —
/// unsigned, one certificate, a SHA-384 CertID, no nonce — or `undefined`: relay it to the
/// responder (a request with a nonce gets a fresh answer that echoes it).
///
/// @example
/// ```ts
/// declare const request: Uint8Array; // a client's DER OCSPRequest
/// const cache = createFetchCache();
/// const key = mirrorOcspKey(request);
/// const kept = key === undefined ? undefined : await cache.get(`ocsp:${key}`, Math.floor(Date.now() / 1000));
/// ```
#[wasm_bindgen(js_name = mirrorOcspKey, unchecked_return_type = "string | undefined")]
pub fn mirror_ocsp_key(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array")] request: JsValue,
) -> Result<JsValue, JsValue> {
    let Document(der) = from_js(&request, "request")?;
    Ok(crate::ocsp::mirror_cache_key(&der).map_or(JsValue::UNDEFINED, |key| JsValue::from_str(&key)))
}
