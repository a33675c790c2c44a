//! JS API for `crate::ocsp`: `ocspRequests` (the DER requests of a chain, nonces from the
//! host's randomness) and `checkOcspResponses` (the answers checked, software signatures,
//! folded into the chain's status). The host does the HTTP (src/js/ocsp.js does it with
//! `fetch`).

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::error::{invalid_argument, to_js};
use super::js;
use crate::chain::{parse_pem_chain, Cert, CertPosition};
use crate::ocsp::{
    check_response, fold_chain, ocsp_targets, CertRevocation, ChainKind, ChainRevocation,
    CheckedOcsp, NonceCheck, OcspError, OcspRequest, NONCE_LEN,
};
use crate::service::Fetched;
use crate::ErrorCode;

#[wasm_bindgen(typescript_custom_section)]
const TS_OCSP: &str = r#"
/** Which certificates of a chain are asked about: "device" (not the leaf), "rim" (the signer too); never the root. */
export type OcspChainKind = "device" | "rim";

export interface OcspRequestsOptions {
  kind: OcspChainKind;
  /** One 32-byte nonce per request; default: crypto.getRandomValues. */
  nonces?: Uint8Array[];
}

/** One OCSP request: POST `request` with content type application/ocsp-request. */
export interface OcspRequestJs {
  /** The certificate asked about: its subject commonName (the full subject without one). */
  certificate: string;
  /** Its index in the chain (leaf = 0); its issuer is index + 1. */
  index: number;
  /** Names the certificate, not the request: "sha384:<issuerKeyHash hex>:<serial hex>". */
  cacheKey: string;
  /** A fresh buffer (`buffer: ArrayBuffer`), so that TypeScript's DOM types take it as a fetch body. */
  request: Uint8Array & { readonly buffer: ArrayBuffer };
  nonce: Uint8Array;
}

/**
 * The answer for one request: the response body with the nonce of the request that fetched
 * it (from a cache: the nonce stored beside it), or why there is none.
 */
export type OcspAnswer =
  | { body: Uint8Array | ArrayBuffer; nonce?: Uint8Array }
  | { error: "unreachable" | "timeout" | "status" | "too-large" | "not-fetched"; status?: number };

export interface CheckOcspOptions {
  /** Count certificateHold as good (reported as `held`), as X-NVIDIA-OCSP-ALLOW-CERT-HOLD asks. */
  allowHold?: boolean;
}

export type OcspStatusJs = "good" | "revoked" | "unknown" | "failed";

export interface OcspCertificateStatus {
  subject: string;
  status: OcspStatusJs;
  /** The CRL reason of a revoked certificate, e.g. "keyCompromise", "certificateHold". */
  reason?: string;
  /** Unix seconds, for a revoked certificate. */
  revokedAt?: number;
  /** Why a failed response was not believed, e.g. ERR_OCSP_SIGNATURE_INVALID. */
  code?: string;
  message?: string;
  /** Unix seconds; null when the response failed. */
  thisUpdate: number | null;
  nextUpdate: number | null;
  nonce?: "matched" | "not-echoed";
  /** Until when a host may cache the response (Unix seconds; 0: do not cache). */
  cacheUntil?: number;
}

/** A chain's status: good only if every certificate is; else the first non-good one decides. */
export interface OcspChainStatus {
  status: OcspStatusJs;
  /** A held certificate was accepted (allowHold). */
  held?: boolean;
  reason?: string;
  code?: string;
  /** The real service's code when not good: 5002 revoked, 5003 unknown, 5001 failed. */
  serviceCode?: number;
  certificates: OcspCertificateStatus[];
}
"#;

/// The DER OCSP requests for the certificates of `chain_pem` (leaf first) that NVIDIA's
/// verifiers ask about.
#[wasm_bindgen(js_name = ocspRequests, unchecked_return_type = "OcspRequestJs[]")]
pub fn ocsp_requests(
    #[wasm_bindgen(unchecked_param_type = "string")] chain_pem: JsValue,
    #[wasm_bindgen(unchecked_param_type = "OcspRequestsOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    if !options.is_object() {
        return Err(invalid_argument("options", "an object"));
    }
    let chain = read_chain(&chain_pem)?;
    let kind = read_kind(&js::member(&options, "kind"), "kind")?;
    let targets = ocsp_targets(chain.len(), kind);
    let nonces = read_nonces(&js::member(&options, "nonces"), targets.len())?;
    let out = Array::new();
    for (n, i) in targets.enumerate() {
        let nonce = match &nonces {
            Some(list) => list.get(n).copied().unwrap_or([0; NONCE_LEN]),
            None => js::random_bytes::<NONCE_LEN>()?,
        };
        let request = build(&chain, i, nonce)?;
        let item = Object::new();
        set(&item, "certificate", &subject_name(&chain, i).into());
        set(&item, "index", &JsValue::from(i as u32));
        set(&item, "cacheKey", &request.cache_key().into());
        set(&item, "request", &Uint8Array::from(request.der()).into());
        set(
            &item,
            "nonce",
            &Uint8Array::from(request.nonce().as_slice()).into(),
        );
        out.push(&item);
    }
    Ok(out.into())
}

/// Checks one answer per request of `ocspRequests(chain_pem, {kind})`, in the same order,
/// at `now` (Unix seconds; default the host clock), with the software signature backend,
/// and folds them into the chain's status. The chain itself must be verified apart
/// (`verifyCertificateChain`, `verifyEvidence`): only revocation is checked here.
#[wasm_bindgen(js_name = checkOcspResponses, unchecked_return_type = "OcspChainStatus")]
pub fn check_ocsp_responses(
    #[wasm_bindgen(unchecked_param_type = "string")] chain_pem: JsValue,
    #[wasm_bindgen(unchecked_param_type = "OcspChainKind")] kind: JsValue,
    #[wasm_bindgen(unchecked_param_type = "OcspAnswer[]")] answers: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | undefined")] now: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CheckOcspOptions | undefined")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let chain = read_chain(&chain_pem)?;
    let kind = read_kind(&kind, "kind")?;
    let now = js::now_or_clock(&now)?;
    let allow_hold =
        js::optional_bool(&js::member(&options, "allowHold"), "allowHold")?.unwrap_or(false);
    if !Array::is_array(&answers) {
        return Err(invalid_argument("answers", "an array"));
    }
    let answers = Array::from(&answers);
    let targets = ocsp_targets(chain.len(), kind);
    if answers.length() as usize != targets.len() {
        return Err(invalid_argument(
            "answers",
            &alloc::format!("one answer per request ({})", targets.len()),
        ));
    }
    let mut results = Vec::new();
    let certificates = Array::new();
    for (n, i) in targets.enumerate() {
        let answer = answers.get(n as u32);
        let result = check_one(&chain, i, &answer, &alloc::format!("answers[{n}]"), now)?;
        certificates.push(&certificate_js(&subject_name(&chain, i), &result));
        results.push(result);
    }
    let folded = fold_chain(&results, allow_hold);
    let out = Object::new();
    set(&out, "status", &folded.as_str().into());
    match &folded {
        ChainRevocation::Good { held: true } => set(&out, "held", &JsValue::TRUE),
        ChainRevocation::Revoked {
            reason: Some(reason),
        } => set(&out, "reason", &reason.as_str().into()),
        ChainRevocation::Failed(err) => set(&out, "code", &err.code().into()),
        _ => {}
    }
    if let Some(code) = folded.service_code() {
        set(&out, "serviceCode", &JsValue::from(code));
    }
    set(&out, "certificates", &certificates.into());
    Ok(out.into())
}

/// The checked answer about certificate `i`, or why there is none. Argument errors throw.
fn check_one(
    chain: &[Vec<u8>],
    i: usize,
    answer: &JsValue,
    field: &str,
    now: u64,
) -> Result<Result<CheckedOcsp, OcspError>, JsValue> {
    let (body, nonce) = match js::fetch_answer(answer, field)? {
        Fetched::Failed(failure) => return Ok(Err(OcspError::Unavailable(failure))),
        Fetched::Body(body) => (body, Vec::new()),
        Fetched::Cached { body, nonce } => (body, nonce),
    };
    // The request only names the certificate here: the nonce compared is the answer's.
    let request = build(chain, i, [0; NONCE_LEN])?;
    let issuer = chain
        .get(i.saturating_add(1))
        .map(Vec::as_slice)
        .unwrap_or_default();
    Ok(check_response(&body, &request, &nonce, issuer, now).and_then(|p| p.verify_in_core()))
}

fn certificate_js(subject: &str, result: &Result<CheckedOcsp, OcspError>) -> JsValue {
    let item = Object::new();
    set(&item, "subject", &subject.into());
    match result {
        Ok(checked) => {
            set(&item, "status", &checked.status.as_str().into());
            if let CertRevocation::Revoked { reason, at } = checked.status {
                if let Some(reason) = reason {
                    set(&item, "reason", &reason.as_str().into());
                }
                set(&item, "revokedAt", &seconds(at));
            }
            set(&item, "thisUpdate", &seconds(checked.this_update));
            set(
                &item,
                "nextUpdate",
                &checked.next_update.map_or(JsValue::NULL, seconds),
            );
            let nonce = match checked.nonce {
                NonceCheck::Matched => "matched",
                NonceCheck::NotEchoed => "not-echoed",
            };
            set(&item, "nonce", &nonce.into());
            set(&item, "cacheUntil", &seconds(checked.cache_until));
        }
        Err(err) => {
            set(&item, "status", &"failed".into());
            set(&item, "code", &err.code().into());
            set(&item, "message", &err.to_string().into());
            set(&item, "thisUpdate", &JsValue::NULL);
            set(&item, "nextUpdate", &JsValue::NULL);
        }
    }
    item.into()
}

fn build(chain: &[Vec<u8>], i: usize, nonce: [u8; NONCE_LEN]) -> Result<OcspRequest, JsValue> {
    let (Some(subject), Some(issuer)) = (chain.get(i), chain.get(i.saturating_add(1))) else {
        return Err(invalid_argument(
            "chainPem",
            "a chain with the issuer of each certificate",
        ));
    };
    OcspRequest::new(subject, issuer, nonce).map_err(|e| to_js(&e))
}

fn read_chain(value: &JsValue) -> Result<Vec<Vec<u8>>, JsValue> {
    let pem = js::string_arg(value, "chainPem")?;
    parse_pem_chain(&pem).map_err(|e| to_js(&e))
}

fn read_kind(value: &JsValue, field: &str) -> Result<ChainKind, JsValue> {
    match value.as_string().as_deref() {
        Some("device") => Ok(ChainKind::Device),
        Some("rim") => Ok(ChainKind::Rim),
        _ => Err(invalid_argument(field, "\"device\" or \"rim\"")),
    }
}

/// `nonces`: absent, or one 32-byte array per request.
fn read_nonces(value: &JsValue, count: usize) -> Result<Option<Vec<[u8; NONCE_LEN]>>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    if !Array::is_array(value) || Array::from(value).length() as usize != count {
        return Err(invalid_argument(
            "nonces",
            &alloc::format!("an array of {count} nonces, one per request"),
        ));
    }
    Array::from(value)
        .iter()
        .enumerate()
        .map(|(n, v)| {
            let field = alloc::format!("nonces[{n}]");
            js::bytes(&v, &field)?
                .try_into()
                .map_err(|_| invalid_argument(&field, "32 bytes"))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// The subject's commonName, or its whole subject when it has none.
fn subject_name(chain: &[Vec<u8>], i: usize) -> String {
    chain
        .get(i)
        .and_then(|der| Cert::parse(der, CertPosition::Chain(i)).ok())
        .map(|cert| cert.common_name.unwrap_or(cert.subject_text))
        .unwrap_or_default()
}

fn seconds(value: u64) -> JsValue {
    // Unix seconds stay far below 2^53.
    #[allow(clippy::cast_precision_loss)]
    JsValue::from(value as f64)
}

fn set(object: &Object, name: &str, value: &JsValue) {
    // Reflect::set on a fresh plain object cannot fail; ignore the Result rather than panic.
    let _ = Reflect::set(object, &name.into(), value);
}
