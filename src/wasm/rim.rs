//! JS API for `crate::rim`: `verifyRim`, `prepareRim` (for WebCrypto), `openRimEnvelope`,
//! `rimIds`, `compareGpuRims`, `compareSwitchRim`, `identifyRim`.

use alloc::string::String;

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::args;
use super::convert::{from_js, json_to_js, members_from_js, set_bytes, Js};
use super::error;
use super::pending::Pending;
use crate::bytes::Document;
use crate::error_code::ErrorCode;
use crate::rim::{self, PendingRim, RimIds, RimOptions, RuntimeEvidence, VerifiedRim};

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
        json_to_js(&self.inner)
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
        let inner = self.inner.finish(&verdicts)?;
        Ok(VerifiedRimHandle { inner })
    }
}

/// Verifies a RIM document (XML text or bytes): canonical XML 1.1, SHA-384 digest,
/// ECDSA-SHA384 signature (software backend), and the X509Data chain at `options.now`.
#[wasm_bindgen(js_name = verifyRim)]
pub fn verify_rim(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] xml: JsValue,
    #[wasm_bindgen(unchecked_param_type = "RimOptions | undefined")] options: JsValue,
) -> Result<VerifiedRimHandle, JsValue> {
    let (Document(xml), options, now) = rim_inputs(&xml, &options)?;
    let inner = options.verify(&xml, now).map_err(err)?;
    Ok(VerifiedRimHandle { inner })
}

/// Like `verifyRim`, but leaves the ECDSA checks to the caller (e.g. WebCrypto).
#[wasm_bindgen(js_name = prepareRim)]
pub fn prepare_rim(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] xml: JsValue,
    #[wasm_bindgen(unchecked_param_type = "RimOptions | undefined")] options: JsValue,
) -> Result<PendingRimHandle, JsValue> {
    let (Document(xml), options, now) = rim_inputs(&xml, &options)?;
    let inner = Pending::new(options.prepare(&xml, now).map_err(err)?, "PendingRim");
    Ok(PendingRimHandle { inner })
}

/// Checks a RIM service response body for the id requested; returns the decoded document.
#[wasm_bindgen(js_name = openRimEnvelope, unchecked_return_type = "RimEnvelopeJson")]
pub fn open_rim_envelope(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | object")] body: JsValue,
    #[wasm_bindgen(js_name = expectedId, unchecked_param_type = "string")] expected_id: JsValue,
) -> Result<JsValue, JsValue> {
    let expected_id = args::string_arg(&expected_id, "expectedId")?;
    let body = args::json_bytes(&body, "body")?;
    let mut envelope = rim::open_envelope(&body, &expected_id).map_err(err)?;
    // The document goes across as bytes, not as a JSON array of numbers.
    let document = core::mem::take(&mut envelope.rim);
    let out = json_to_js(&envelope)?;
    set_bytes(&out, "rim", &document);
    Ok(out)
}

/// The RIM ids a device needs: `{driver, firmware}` (`driver` is null for switches).
#[wasm_bindgen(js_name = rimIds, unchecked_return_type = "{ driver: string | null; firmware: string }")]
pub fn rim_ids(
    #[wasm_bindgen(unchecked_param_type = "string")] arch: JsValue,
    #[wasm_bindgen(unchecked_param_type = "RuntimeEvidenceInput")] evidence: JsValue,
) -> Result<JsValue, JsValue> {
    let arch = from_js(&arch, "arch")?;
    json_to_js(&RimIds::of(arch, &runtime_evidence(&evidence)?).map_err(err)?)
}

/// Compares a GPU's evidence values with its verified driver and firmware RIMs.
#[wasm_bindgen(js_name = compareGpuRims, unchecked_return_type = "RimComparison")]
pub fn compare_gpu_rims(
    driver: &VerifiedRimHandle,
    firmware: &VerifiedRimHandle,
    #[wasm_bindgen(unchecked_param_type = "RuntimeEvidenceInput")] evidence: JsValue,
) -> Result<JsValue, JsValue> {
    let (driver, firmware) = (driver.inner.document(), firmware.inner.document());
    let result = rim::compare_gpu(driver, firmware, &runtime_evidence(&evidence)?);
    json_to_js(&result.map_err(err)?.report())
}

/// Compares a switch's evidence values with its verified BIOS RIM.
#[wasm_bindgen(js_name = compareSwitchRim, unchecked_return_type = "RimComparison")]
pub fn compare_switch_rim(
    firmware: &VerifiedRimHandle,
    #[wasm_bindgen(unchecked_param_type = "RuntimeEvidenceInput")] evidence: JsValue,
) -> Result<JsValue, JsValue> {
    let result = rim::compare_switch(firmware.inner.document(), &runtime_evidence(&evidence)?);
    json_to_js(&result.map_err(err)?.report())
}

/// What a RIM document (XML text or bytes) says it is, read from its own `Meta` (its
/// signature not checked): `{kind: "driver" | "firmware", arch, product, version, name}`.
/// A document of neither kind is refused (`ERR_RIM_SCHEMA`).
#[wasm_bindgen(js_name = identifyRim, unchecked_return_type = "RimIdentity")]
pub fn identify_rim(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] xml: JsValue,
) -> Result<JsValue, JsValue> {
    let Document(xml) = from_js(&xml, "xml")?;
    json_to_js(&rim::identify_rim(&xml).map_err(err)?)
}

/// The document, the options (absent: the defaults) and `options.now` (default: the clock).
fn rim_inputs(
    xml: &JsValue,
    options: &JsValue,
) -> Result<(Document, RimOptions<Js>, u64), JsValue> {
    let xml = from_js(xml, "xml")?;
    let options: Option<RimOptions<Js>> = members_from_js(options, "options")?;
    let options = options.unwrap_or_default();
    let now = args::clock(options.now.as_ref())?.as_secs();
    Ok((xml, options, now))
}

fn runtime_evidence(value: &JsValue) -> Result<RuntimeEvidence, JsValue> {
    super::runtime::read(value, "evidence")
}

fn err<E: ErrorCode + core::fmt::Display>(error: E) -> JsValue {
    error::to_js(&error)
}
