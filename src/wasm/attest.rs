//! JS API for attest requests: `generateNonce`, `buildAttestRequest`,
//! `validateAttestRequest`.

use alloc::string::String;
use alloc::vec::Vec;

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::error::{invalid_argument, to_js, OrJs};
use super::{args, convert};
use crate::attest::{
    decode_evidence_text, validate_request, Arch, AttestRequestBuilder, ClaimsVersion, Endpoint,
    EvidenceEncoding, EvidenceInput, Nonce, RequestError, RequestSummary,
};
use crate::evidence::OptionsError;

#[wasm_bindgen(typescript_custom_section)]
const TS_ATTEST: &str = include_str!("types/attest.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const TS_ATTEST_HAND: &str = include_str!("types/hand/attest.d.ts");

/// A fresh nonce for an attest request: 32 bytes of the host's randomness
/// (`crypto.getRandomValues`) as 64 lowercase hex characters.
///
/// @throws EdgeAttestError `ERR_NO_RANDOMNESS` when the host has no `crypto.getRandomValues`.
///
/// @example
/// ```ts
/// const nonce = generateNonce(); // e.g. "4cf1…" (64 hex characters)
/// ```
#[wasm_bindgen(js_name = generateNonce)]
pub fn generate_nonce() -> Result<String, JsValue> {
    Ok(Nonce::from_bytes(args::random_bytes::<{ Nonce::LEN }>()?).to_hex())
}

/// Builds a request body for `options.endpoint`, validated as the service will validate it:
/// the nonce (64 hex characters; a fresh one when absent), the architecture, the claims
/// version, and each device's evidence and certificate chain, written in the endpoint's own
/// encoding whatever encoding the evidence came in.
///
/// @throws EdgeAttestError `ERR_REQUEST_*` for what the service would refuse (with `field`,
/// e.g. `ERR_REQUEST_INVALID_NONCE`, `ERR_REQUEST_INVALID_ARCH`), `ERR_EVIDENCE_ENCODING`
/// for evidence text not in `evidenceEncoding`, `ERR_INVALID_ARGUMENT` for options of the
/// wrong shape, `ERR_NO_RANDOMNESS` when a nonce is to be made and the host has no randomness.
///
/// @example
/// ```ts
/// declare const evidence: string, certificate: string; // from the GPU (NVIDIA's SDK)
/// const nonce = generateNonce();
/// const body = buildAttestRequest({ endpoint: '/v4/attest/gpu', nonce, arch: 'HOPPER', evidence: [{ evidence, certificate }] });
/// const response = await fetch('https://nras.attestation.nvidia.com/v4/attest/gpu', {
///   method: 'POST',
///   headers: { 'content-type': 'application/json' },
///   body: JSON.stringify(body),
/// });
/// ```
#[wasm_bindgen(js_name = buildAttestRequest, unchecked_return_type = "AttestRequestBody")]
pub fn build_attest_request(
    #[wasm_bindgen(unchecked_param_type = "AttestRequestOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    if !options.is_object() {
        return Err(invalid_argument("options", "an object"));
    }
    let text = |name: &str| args::optional_string(&args::member(&options, name), name);
    let path = args::required_string(&args::member(&options, "endpoint"), "endpoint")?;
    let endpoint = endpoint(&path)?;
    let nonce = match text("nonce")? {
        Some(hex) => Nonce::parse(&hex)
            .map_err(|problem| RequestError::InvalidNonce { problem })
            .or_js()?,
        None => Nonce::from_bytes(args::random_bytes::<{ Nonce::LEN }>()?),
    };
    let mut builder = AttestRequestBuilder::new(endpoint, nonce);
    if let Some(value) = text("arch")? {
        let arch = Arch::parse(&value).ok_or(RequestError::InvalidArch { endpoint, value });
        builder = builder.arch(arch.or_js()?);
    }
    if let Some(value) = text("claimsVersion")? {
        let version = ClaimsVersion::parse(&value);
        let version = version.ok_or(RequestError::InvalidClaimsVersion { endpoint, value });
        builder = builder.claims_version(version.or_js()?);
    }
    let list = args::member(&options, "evidence");
    if !js_sys::Array::is_array(&list) {
        return Err(invalid_argument("evidence", "an array"));
    }
    let encoding = evidence_encoding(&options)?;
    let mut owned: Vec<(Vec<u8>, String, Option<String>)> = Vec::new();
    for (i, item) in js_sys::Array::from(&list).iter().enumerate() {
        let path = alloc::format!("evidence[{i}]");
        if !item.is_object() {
            return Err(invalid_argument(&path, "an object"));
        }
        let member = |name: &str| (args::member(&item, name), alloc::format!("{path}.{name}"));
        let (evidence, field) = member("evidence");
        let evidence = evidence_bytes(&evidence, encoding, &field)?;
        let (certificate, field) = member("certificate");
        let certificate = args::required_string(&certificate, &field)?;
        let (firmware, field) = member("firmwareVersion");
        let firmware = args::optional_string(&firmware, &field)?;
        owned.push((evidence, certificate, firmware));
    }
    for (evidence, certificate, firmware) in &owned {
        builder = builder.evidence(EvidenceInput {
            evidence,
            certificate_pem: certificate,
            firmware_version: firmware.as_deref(),
        });
    }
    let body = builder.build().or_js()?;
    convert::parse_json(&body.to_json())
}

/// Validates a request body (JSON text, bytes or object) for an endpoint path, exactly as
/// the service does: JSON without duplicate members, the endpoint's members and no others,
/// the nonce, the architecture, the claims version, each evidence item's encoding and size.
/// Returns what the body asks for.
///
/// @throws EdgeAttestError the first violation with its `code` and `field`:
/// `ERR_REQUEST_*` (e.g. `ERR_REQUEST_UNKNOWN_ENDPOINT`, `ERR_REQUEST_MISSING_FIELD`,
/// `ERR_REQUEST_INVALID_NONCE`), `ERR_EVIDENCE_ENCODING`; `ERR_INVALID_ARGUMENT` for a body
/// that is not text, bytes or an object.
///
/// @example
/// ```ts
/// declare const body: string; // a request body, as received
/// try {
///   const request = validateAttestRequest('/v4/attest/gpu', body);
///   console.log(request.arch, request.devices.length);
/// } catch (error) {
///   if (error instanceof EdgeAttestError) console.error(error.code, error.field);
/// }
/// ```
#[wasm_bindgen(js_name = validateAttestRequest, unchecked_return_type = "ValidatedAttestRequest")]
pub fn validate_attest_request(
    #[wasm_bindgen(js_name = endpointPath, unchecked_param_type = "string")] endpoint_path: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | object")] body: JsValue,
) -> Result<JsValue, JsValue> {
    let path = args::string_arg(&endpoint_path, "endpointPath")?;
    let endpoint = endpoint(&path)?;
    let bytes = args::json_bytes(&body, "body")?;
    let request = validate_request(endpoint, &bytes).or_js()?;
    // JSON text, not serde-wasm-bindgen: the default build stays without the latter's writer.
    convert::json_to_js(&RequestSummary::new(&request))
}

fn endpoint(path: &str) -> Result<Endpoint, JsValue> {
    Endpoint::for_path(path).or_js()
}

/// Option `evidenceEncoding` of `options`: `None` when absent (recognised from the text).
fn evidence_encoding(options: &JsValue) -> Result<Option<EvidenceEncoding>, JsValue> {
    match args::optional_string(
        &args::member(options, "evidenceEncoding"),
        "evidenceEncoding",
    )? {
        None => Ok(None),
        Some(name) => EvidenceEncoding::parse(&name).map(Some).ok_or_else(|| {
            invalid_argument("evidenceEncoding", "\"base64\", \"base64-hex\" or \"hex\"")
        }),
    }
}

/// Evidence given to any entry (buildAttestRequest, verifyEvidence, prepareEvidence,
/// runtimeEvidence): bytes as they are, text by the core's one rule
/// ([`decode_evidence_text`]); a mismatch throws `ERR_EVIDENCE_ENCODING` naming `field`.
fn evidence_bytes(
    value: &JsValue,
    encoding: Option<EvidenceEncoding>,
    field: &str,
) -> Result<Vec<u8>, JsValue> {
    match value.as_string() {
        Some(text) => decode_evidence_text(&text, encoding, field).or_js(),
        None => args::bytes(value, field),
    }
}

/// Every option error of the core as a coded JS error.
impl From<OptionsError> for JsValue {
    fn from(error: OptionsError) -> Self {
        to_js(&error)
    }
}
