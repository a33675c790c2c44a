//! JS API for `crate::ocsp`: `ocspRequests` (the DER requests of a chain, nonces from the
//! host's randomness) and `checkOcspResponses` (the answers checked, software signatures,
//! folded into the chain's status). The host does the HTTP (src/js/ocsp.js does it with
//! `fetch`).

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use js_sys::Array;
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::args;
use super::convert::{self, Bytes};
use super::error::{invalid_argument, to_js};
use crate::chain::{parse_pem_chain, Cert, CertPosition};
use crate::ocsp::{
    check_response, fold_chain, ocsp_targets, CertRevocation, ChainKind, ChainRevocation,
    CheckedOcsp, NonceCheck, OcspError, OcspRequest, NONCE_LEN,
};
use crate::service::Fetched;
use crate::ErrorCode;

#[wasm_bindgen(typescript_custom_section)]
const TS_OCSP: &str = include_str!("types/ocsp.d.ts");

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
    let kind = read_kind(&args::member(&options, "kind"), "kind")?;
    let targets = ocsp_targets(chain.len(), kind);
    let nonces = read_nonces(&args::member(&options, "nonces"), targets.len())?;
    let mut requests = Vec::new();
    for (n, i) in targets.enumerate() {
        let nonce = match &nonces {
            Some(list) => list.get(n).copied().unwrap_or([0; NONCE_LEN]),
            None => args::random_bytes::<NONCE_LEN>()?,
        };
        requests.push((i, build(&chain, i, nonce)?));
    }
    let out: Vec<RequestOut<'_>> = requests
        .iter()
        .map(|(i, request)| RequestOut {
            certificate: subject_name(&chain, *i),
            index: *i,
            cache_key: request.cache_key(),
            request: Bytes(request.der()),
            nonce: Bytes(request.nonce().as_slice()),
        })
        .collect();
    convert::to_js(&out)
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
    let now = args::time_or_clock(&now, "now")?.as_secs();
    let allow_hold =
        args::optional_bool(&args::member(&options, "allowHold"), "allowHold")?.unwrap_or(false);
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
    let mut certificates = Vec::new();
    for (n, i) in targets.enumerate() {
        let answer = answers.get(n as u32);
        let result = check_one(&chain, i, &answer, &alloc::format!("answers[{n}]"), now)?;
        certificates.push(certificate_out(subject_name(&chain, i), &result));
        results.push(result);
    }
    let folded = fold_chain(&results, allow_hold);
    convert::to_js(&ChainStatusOut {
        status: folded.as_str(),
        held: matches!(folded, ChainRevocation::Good { held: true }).then_some(true),
        reason: match &folded {
            ChainRevocation::Revoked {
                reason: Some(reason),
            } => Some(reason.as_str()),
            _ => None,
        },
        code: match &folded {
            ChainRevocation::Failed(err) => Some(err.code()),
            _ => None,
        },
        service_code: folded.service_code(),
        certificates,
    })
}

/// The JS `OcspRequestJs`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RequestOut<'a> {
    certificate: String,
    index: usize,
    cache_key: String,
    request: Bytes<'a>,
    nonce: Bytes<'a>,
}

/// The JS `OcspChainStatus`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChainStatusOut {
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    held: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    service_code: Option<u16>,
    certificates: Vec<CertificateOut>,
}

/// One certificate's answer: its status and times (`thisUpdate` and `nextUpdate` null when
/// it failed), or the failure's code and message.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CertificateOut {
    subject: String,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    revoked_at: Option<u64>,
    this_update: Option<u64>,
    next_update: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nonce: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_until: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

/// The checked answer about certificate `i`, or why there is none. Argument errors throw.
fn check_one(
    chain: &[Vec<u8>],
    i: usize,
    answer: &JsValue,
    field: &str,
    now: u64,
) -> Result<Result<CheckedOcsp, OcspError>, JsValue> {
    let (body, nonce) = match super::answer::read(answer, field)? {
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

fn certificate_out(subject: String, result: &Result<CheckedOcsp, OcspError>) -> CertificateOut {
    let mut out = CertificateOut {
        subject,
        status: "failed",
        reason: None,
        revoked_at: None,
        this_update: None,
        next_update: None,
        nonce: None,
        cache_until: None,
        code: None,
        message: None,
    };
    match result {
        Ok(checked) => {
            out.status = checked.status.as_str();
            if let CertRevocation::Revoked { reason, at } = checked.status {
                out.reason = reason.map(|reason| reason.as_str());
                out.revoked_at = Some(at);
            }
            out.this_update = Some(checked.this_update);
            out.next_update = checked.next_update;
            out.nonce = Some(match checked.nonce {
                NonceCheck::Matched => "matched",
                NonceCheck::NotEchoed => "not-echoed",
            });
            out.cache_until = Some(checked.cache_until);
        }
        Err(err) => {
            out.code = Some(err.code());
            out.message = Some(err.to_string());
        }
    }
    out
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
    let pem = args::string_arg(value, "chainPem")?;
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
            args::bytes(&v, &field)?
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
