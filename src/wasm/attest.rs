//! JS API for attest requests: `generateNonce`, `buildAttestRequest`,
//! `validateAttestRequest`.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::error::{invalid_argument, to_js};
use super::js;
use crate::attest::{
    decode_evidence_text, validate_request, Arch, AttestRequestBuilder, ClaimsVersion, Endpoint,
    EvidenceEncoding, EvidenceInput, Nonce, RequestError,
};

#[wasm_bindgen(typescript_custom_section)]
const TS_ATTEST: &str = r#"
/** Path of an attest endpoint. */
export type AttestEndpoint =
  | "/v1/attest/gpu" | "/v2/attest/gpu" | "/v3/attest/gpu" | "/v4/attest/gpu"
  | "/v2/attest/switch" | "/v3/attest/switch" | "/v4/attest/switch";
export type ClaimsVersion = "1.0" | "2.0" | "3.0" | "4.0";

/**
 * How a string `evidence` is written: base64 of the bytes (generation 2: V3/V4 requests,
 * NVIDIA's SDKs), base64 of their hex text (generation 1: V1/V2 requests), or hex text.
 */
export type EvidenceEncoding = "base64" | "base64-hex" | "hex";

/** One device for buildAttestRequest. */
export interface EvidenceInput {
  /**
   * The raw SPDM transcript: bytes, or a string — hex, base64, or base64 of hex text,
   * recognised from the text (or as `evidenceEncoding` says). The request carries it in the
   * endpoint's own encoding whatever it came in.
   */
  evidence: Uint8Array | ArrayBuffer | string;
  /** The certificate chain as PEM text, leaf first. */
  certificate: string;
  /** Firmware version hint (V3/V4 only), e.g. "96.00.9F.00.01". */
  firmwareVersion?: string;
}

export interface AttestRequestOptions {
  endpoint: AttestEndpoint;
  /** 64 hex characters; generated from crypto.getRandomValues when absent. */
  nonce?: string;
  /** Required for GPU endpoints; switch endpoints default to "LS10". */
  arch?: Arch;
  /** V4 only; absent means the endpoint's default (3.0 on V4). */
  claimsVersion?: ClaimsVersion;
  evidence: EvidenceInput[];
  /**
   * The encoding every string `evidence` must be in; text in another is refused with
   * ERR_EVIDENCE_ENCODING. Default: recognised from the text.
   */
  evidenceEncoding?: EvidenceEncoding;
}

/** A request body as sent to the service (shape depends on the endpoint). */
export interface AttestRequestBody {
  nonce: string;
  arch?: Arch;
  evidence?: string;
  certificate?: string;
  evidences?: { evidence: string; certificate: string }[];
  evidence_list?: { evidence: string; certificate: string; firmware_version?: string }[];
  claims_version?: ClaimsVersion;
}

/** What validateAttestRequest found in a valid body. */
export interface ValidatedAttestRequest {
  endpoint: AttestEndpoint;
  nonce: string;
  arch: Arch;
  claimsVersion: ClaimsVersion;
  deprecated: boolean;
  devices: { label: string; evidenceBytes: number; certificateBytes: number; firmwareVersion: string | null }[];
}
"#;

/// 32 bytes of the host's randomness as 64 lowercase hex characters.
#[wasm_bindgen(js_name = generateNonce)]
pub fn generate_nonce() -> Result<String, JsValue> {
    Ok(Nonce::from_bytes(js::random_bytes::<{ Nonce::LEN }>()?).to_hex())
}

/// Builds a request body for `options.endpoint`, validated as the service will validate it.
#[wasm_bindgen(js_name = buildAttestRequest, unchecked_return_type = "AttestRequestBody")]
pub fn build_attest_request(
    #[wasm_bindgen(unchecked_param_type = "AttestRequestOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    if !options.is_object() {
        return Err(invalid_argument("options", "an object"));
    }
    let endpoint = endpoint(&js::required_string(
        &js::member(&options, "endpoint"),
        "endpoint",
    )?)?;
    let nonce = match js::optional_string(&js::member(&options, "nonce"), "nonce")? {
        Some(text) => {
            Nonce::parse(&text).map_err(|problem| to_js(&RequestError::InvalidNonce { problem }))?
        }
        None => Nonce::from_bytes(js::random_bytes::<{ Nonce::LEN }>()?),
    };
    let arch = match js::optional_string(&js::member(&options, "arch"), "arch")? {
        Some(text) => Some(Arch::parse(&text).ok_or_else(|| {
            to_js(&RequestError::InvalidArch {
                endpoint,
                value: text,
            })
        })?),
        None => None,
    };
    let claims_version =
        match js::optional_string(&js::member(&options, "claimsVersion"), "claimsVersion")? {
            Some(text) => Some(ClaimsVersion::parse(&text).ok_or_else(|| {
                to_js(&RequestError::InvalidClaimsVersion {
                    endpoint,
                    value: text,
                })
            })?),
            None => None,
        };

    let list = js::member(&options, "evidence");
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
        let evidence = evidence_bytes(
            &js::member(&item, "evidence"),
            encoding,
            &alloc::format!("{path}.evidence"),
        )?;
        let certificate = js::required_string(
            &js::member(&item, "certificate"),
            &alloc::format!("{path}.certificate"),
        )?;
        let firmware = js::optional_string(
            &js::member(&item, "firmwareVersion"),
            &alloc::format!("{path}.firmwareVersion"),
        )?;
        owned.push((evidence, certificate, firmware));
    }

    let mut builder = AttestRequestBuilder::new(endpoint, nonce);
    if let Some(arch) = arch {
        builder = builder.arch(arch);
    }
    if let Some(version) = claims_version {
        builder = builder.claims_version(version);
    }
    for (evidence, certificate, firmware) in &owned {
        builder = builder.evidence(EvidenceInput {
            evidence,
            certificate_pem: certificate,
            firmware_version: firmware.as_deref(),
        });
    }
    let body = builder.build().map_err(|error| to_js(&error))?;
    js::parse_json(&body.to_json())
}

/// Validates a request body (JSON text, bytes or object) for an endpoint path, exactly as
/// the service does; throws the first violation with its `code` and `field`.
#[wasm_bindgen(js_name = validateAttestRequest, unchecked_return_type = "ValidatedAttestRequest")]
pub fn validate_attest_request(
    #[wasm_bindgen(js_name = endpointPath, unchecked_param_type = "string")] endpoint_path: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | object")] body: JsValue,
) -> Result<JsValue, JsValue> {
    let endpoint_path: &str = &js::string_arg(&endpoint_path, "endpointPath")?;
    let endpoint = endpoint(endpoint_path)?;
    let bytes = js::json_bytes(&body, "body")?;
    let request = validate_request(endpoint, &bytes).map_err(|error| to_js(&error))?;
    let kind = endpoint.device_kind().label_prefix();
    let summary = Summary {
        endpoint: endpoint.path(),
        nonce: request.nonce().to_hex(),
        arch: request.arch().as_str(),
        claims_version: request.claims_version().as_str(),
        deprecated: endpoint.is_deprecated(),
        devices: request
            .devices()
            .iter()
            .enumerate()
            .map(|(i, device)| DeviceSummary {
                label: alloc::format!("{kind}-{i}"),
                evidence_bytes: device.evidence().len(),
                certificate_bytes: device.certificate_pem().len(),
                firmware_version: device.firmware_version().map(|v| String::from(v.as_str())),
            })
            .collect(),
    };
    let text = serde_json::to_string(&summary)
        .map_err(|_| super::error::coded("ERR_INTERNAL", "internal JSON error", None))?;
    js::parse_json(&text)
}

fn endpoint(path: &str) -> Result<Endpoint, JsValue> {
    Endpoint::from_path(path)
        .ok_or_else(|| to_js(&RequestError::UnknownEndpoint { path: path.into() }))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Summary {
    endpoint: &'static str,
    nonce: String,
    arch: &'static str,
    claims_version: &'static str,
    deprecated: bool,
    devices: Vec<DeviceSummary>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DeviceSummary {
    label: String,
    evidence_bytes: usize,
    certificate_bytes: usize,
    firmware_version: Option<String>,
}

/// Option `evidenceEncoding` of `options`: `None` when absent (recognised from the text).
pub(super) fn evidence_encoding(options: &JsValue) -> Result<Option<EvidenceEncoding>, JsValue> {
    match js::optional_string(&js::member(options, "evidenceEncoding"), "evidenceEncoding")? {
        None => Ok(None),
        Some(name) => EvidenceEncoding::parse(&name).map(Some).ok_or_else(|| {
            invalid_argument("evidenceEncoding", "\"base64\", \"base64-hex\" or \"hex\"")
        }),
    }
}

/// Evidence given to any entry (buildAttestRequest, verifyEvidence, prepareEvidence,
/// runtimeEvidence): bytes as they are, text by the core's one rule
/// ([`decode_evidence_text`]); a mismatch throws `ERR_EVIDENCE_ENCODING` naming `field`.
pub(super) fn evidence_bytes(
    value: &JsValue,
    encoding: Option<EvidenceEncoding>,
    field: &str,
) -> Result<Vec<u8>, JsValue> {
    match value.as_string() {
        Some(text) => decode_evidence_text(&text, encoding, field).map_err(|e| to_js(&e)),
        None => js::bytes(value, field),
    }
}
