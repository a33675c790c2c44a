//! JS API for `crate::rim`: `verifyRim`, `prepareRim` (for WebCrypto), `openRimEnvelope`,
//! `rimIds`, `compareGpuRims`, `compareSwitchRim`.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::args;
use super::convert::{self, from_js, Bytes, Document};
use super::error::{invalid_argument, to_js};
use super::pending::Pending;
use crate::attest::Arch;
use crate::rim::{self, PendingRim, RimDocument, RimTrust, RuntimeEvidence, VerifiedRim};

#[wasm_bindgen(typescript_custom_section)]
const TS_RIM: &str = include_str!("types/rim.d.ts");

/// A RIM whose signature verified (`verifyRim`, `PendingRim.finish`).
#[wasm_bindgen(js_name = VerifiedRim)]
pub struct VerifiedRimHandle {
    inner: VerifiedRim,
}

#[wasm_bindgen(js_class = VerifiedRim)]
impl VerifiedRimHandle {
    /// The document and chain status as plain JSON.
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "VerifiedRimJson")]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        to_plain(&self.inner)
    }

    /// Signature verified and chain valid at the time given.
    #[wasm_bindgen(getter, js_name = isTrusted)]
    pub fn is_trusted(&self) -> bool {
        self.inner.is_trusted()
    }

    /// `Meta@colloquialVersion`.
    #[wasm_bindgen(getter, js_name = colloquialVersion)]
    pub fn colloquial_version(&self) -> String {
        self.inner.document().meta.colloquial_version.clone()
    }
}

/// A RIM whose digest checked; its ECDSA checks are to be run by the caller (WebCrypto).
#[wasm_bindgen(js_name = PendingRim)]
pub struct PendingRimHandle {
    inner: Pending<PendingRim>,
}

#[wasm_bindgen(js_class = PendingRim)]
impl PendingRimHandle {
    /// The checks to run, RIM signature first, then the certificate-path links.
    #[wasm_bindgen(js_name = signatureChecks, unchecked_return_type = "SignatureCheckData[]")]
    pub fn signature_checks(&self) -> Result<JsValue, JsValue> {
        self.inner.checks()
    }

    /// Completes verification with one boolean verdict per check; usable once.
    pub fn finish(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean[]")] verdicts: JsValue,
    ) -> Result<VerifiedRimHandle, JsValue> {
        Ok(VerifiedRimHandle {
            inner: self.inner.finish(&verdicts)?,
        })
    }
}

/// Verifies a RIM document (XML text or bytes): canonical XML 1.1, SHA-384 digest,
/// ECDSA-SHA384 signature (software backend), and the X509Data chain at `options.now`.
#[wasm_bindgen(js_name = verifyRim)]
pub fn verify_rim(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] xml: JsValue,
    #[wasm_bindgen(unchecked_param_type = "RimOptions | undefined")] options: JsValue,
) -> Result<VerifiedRimHandle, JsValue> {
    let (xml, trust, now) = rim_inputs(&xml, &options)?;
    let inner = rim::verify_rim(&xml, &trust, now).map_err(|e| to_js(&e))?;
    Ok(VerifiedRimHandle { inner })
}

/// Like `verifyRim`, but leaves the ECDSA checks to the caller (e.g. WebCrypto).
#[wasm_bindgen(js_name = prepareRim)]
pub fn prepare_rim(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] xml: JsValue,
    #[wasm_bindgen(unchecked_param_type = "RimOptions | undefined")] options: JsValue,
) -> Result<PendingRimHandle, JsValue> {
    let (xml, trust, now) = rim_inputs(&xml, &options)?;
    let inner = rim::prepare_rim(&xml, &trust, now).map_err(|e| to_js(&e))?;
    Ok(PendingRimHandle {
        inner: Pending::new(inner, "PendingRim"),
    })
}

/// Checks a RIM service response body for the id requested; returns the decoded document.
#[wasm_bindgen(js_name = openRimEnvelope, unchecked_return_type = "RimEnvelopeJson")]
pub fn open_rim_envelope(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | object")] body: JsValue,
    #[wasm_bindgen(js_name = expectedId, unchecked_param_type = "string")] expected_id: JsValue,
) -> Result<JsValue, JsValue> {
    let expected_id: &str = &args::string_arg(&expected_id, "expectedId")?;
    let body = args::json_bytes(&body, "body")?;
    let envelope = rim::open_envelope(&body, expected_id).map_err(|e| to_js(&e))?;
    convert::to_js(&EnvelopeOut {
        id: &envelope.id,
        rim: Bytes(&envelope.rim),
        rim_format: envelope.rim_format.as_deref(),
        last_updated: envelope.last_updated.as_deref(),
        request_id: envelope.request_id.as_deref(),
    })
}

/// The JS `RimEnvelopeJson`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EnvelopeOut<'a> {
    id: &'a str,
    rim: Bytes<'a>,
    rim_format: Option<&'a str>,
    last_updated: Option<&'a str>,
    request_id: Option<&'a str>,
}

/// The JS `{ driver, firmware }` of `rimIds`.
#[derive(Serialize)]
struct RimIdsOut {
    driver: Option<String>,
    firmware: String,
}

/// The RIM ids a device needs: `{driver, firmware}` (`driver` is null for switches).
#[wasm_bindgen(js_name = rimIds, unchecked_return_type = "{ driver: string | null; firmware: string }")]
pub fn rim_ids(
    #[wasm_bindgen(unchecked_param_type = "string")] arch: JsValue,
    #[wasm_bindgen(unchecked_param_type = "RuntimeEvidenceInput")] evidence: JsValue,
) -> Result<JsValue, JsValue> {
    let arch: &str = &args::string_arg(&arch, "arch")?;
    let arch = Arch::parse(arch).ok_or_else(|| invalid_argument("arch", &Arch::expected()))?;
    let evidence = runtime_evidence(&evidence)?;
    // Only architectures with a driver RIM (the table's `driver_rim`) have a driver id.
    let driver = match arch.profile().driver_rim {
        Some(_) => Some(rim::driver_rim_id(arch, &evidence).map_err(|e| to_js(&e))?),
        None => None,
    };
    let firmware = rim::firmware_rim_id(arch, &evidence).map_err(|e| to_js(&e))?;
    convert::to_js(&RimIdsOut { driver, firmware })
}

/// Compares a GPU's evidence values with its verified driver and firmware RIMs.
#[wasm_bindgen(js_name = compareGpuRims, unchecked_return_type = "RimComparison")]
pub fn compare_gpu_rims(
    driver: &VerifiedRimHandle,
    firmware: &VerifiedRimHandle,
    #[wasm_bindgen(unchecked_param_type = "RuntimeEvidenceInput")] evidence: JsValue,
) -> Result<JsValue, JsValue> {
    let evidence = runtime_evidence(&evidence)?;
    let result = rim::compare_gpu(
        driver.inner.document(),
        firmware.inner.document(),
        &evidence,
    )
    .map_err(|e| to_js(&e))?;
    comparison_json(&result)
}

/// Compares a switch's evidence values with its verified BIOS RIM.
#[wasm_bindgen(js_name = compareSwitchRim, unchecked_return_type = "RimComparison")]
pub fn compare_switch_rim(
    firmware: &VerifiedRimHandle,
    #[wasm_bindgen(unchecked_param_type = "RuntimeEvidenceInput")] evidence: JsValue,
) -> Result<JsValue, JsValue> {
    let evidence = runtime_evidence(&evidence)?;
    let document: &RimDocument = firmware.inner.document();
    let result = rim::compare_switch(document, &evidence).map_err(|e| to_js(&e))?;
    comparison_json(&result)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ComparisonJson<'a> {
    #[serde(flatten)]
    comparison: &'a rim::Comparison,
    measres: &'static str,
    all_match: bool,
}

fn comparison_json(result: &rim::Comparison) -> Result<JsValue, JsValue> {
    to_plain(&ComparisonJson {
        comparison: result,
        measres: result.measres(),
        all_match: result.all_match(),
    })
}

fn rim_inputs(xml: &JsValue, options: &JsValue) -> Result<(Vec<u8>, RimTrust, u64), JsValue> {
    let Document(xml) = from_js(xml, "xml")?;
    let now = args::time_or_clock(&args::member(options, "now"), "now")?.as_secs();
    let trust =
        match args::optional_string(&args::member(options, "trustAnchorPem"), "trustAnchorPem")? {
            Some(pem) => RimTrust::from_pem(&pem).map_err(|e| to_js(&e))?,
            None => RimTrust::nvidia(),
        };
    Ok((xml, trust, now))
}

fn runtime_evidence(value: &JsValue) -> Result<RuntimeEvidence, JsValue> {
    super::runtime::read(value, "evidence")
}

fn to_plain<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    convert::to_js(value)
}
