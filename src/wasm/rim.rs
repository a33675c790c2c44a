//! JS API for `crate::rim`: `verifyRim`, `prepareRim` (for WebCrypto), `openRimEnvelope`,
//! `rimIds`, `compareGpuRims`, `compareSwitchRim`.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use js_sys::{Array, Object, Reflect, Uint8Array};
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::error::{coded, invalid_argument, to_js};
use super::js;
use crate::attest::Arch;
use crate::rim::{
    self, OpaqueValue, PendingRim, RimDocument, RimTrust, RuntimeEvidence, VerifiedRim,
};

#[wasm_bindgen(typescript_custom_section)]
const TS_RIM: &str = r#"
export interface RimOptions {
  /** Unix seconds for the certificate validity check; default: the host clock. */
  now?: number;
  /** PEM trust anchors replacing the NVIDIA RIM root. */
  trustAnchorPem?: string;
}

/** One ECDSA P-384/SHA-384 check: SEC1 public key, message, raw r||s signature. */
export interface SignatureCheckData {
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

export interface RimCertChain {
  status: "valid" | "expired" | "invalid";
  /** Earliest notAfter of the validated path, Unix seconds. */
  expiration: number | null;
  errorCode: string | null;
  problem: string | null;
  subjects: string[];
  ocspStatus: "not-checked";
}

export interface GoldenMeasurement {
  index: number; active: boolean; name: string; size: number; alternatives: string[];
}

export interface RimDocumentJson {
  name: string;
  tagId: string | null;
  version: string | null;
  meta: {
    colloquialVersion: string; edition: string | null; product: string | null;
    revision: string | null; firmwareManufacturerId: string | null; platformModel: string | null;
  };
  measurements: GoldenMeasurement[];
  opaqueFloors: { id: number; index: number; name: string; active: boolean; minSvn: number; includeInResult: boolean }[];
}

export interface VerifiedRimJson { document: RimDocumentJson; certChain: RimCertChain }

/** Evidence values for RIM ids and comparison (see the Rust docs of RuntimeEvidence). */
export interface RuntimeEvidenceInput {
  /** SPDM measurement blocks by 1-based index: hex text or bytes. */
  measurements?: Record<string, string | Uint8Array>;
  driverVersion?: string;
  vbiosVersion?: string;
  project?: string;
  projectSku?: string;
  chipSku?: string;
  chipInfo?: string;
  nvdec0Status?: number;
  opaque?: { id: number; valueType?: number; value: string | Uint8Array }[];
  hwmodel?: string;
  apsku?: number;
  firmwareVersionHint?: string;
}

export interface RimComparison {
  measurementsMatch: boolean;
  measres: "success" | "fail";
  allMatch: boolean;
  mismatches: { index: number; goldenSize: number; goldenValue: string; runtimeSize: number; runtimeValue: string; measurementSource: "Driver" | "Firmware" }[];
  opaqueMismatches: { id: number; name: string; goldenType: "MIN_SVN"; goldenValue: number; runtimeType?: "MIN_SVN"; runtimeValue?: number }[];
  attesterClaims: Record<string, number>;
  compared: number;
  nvdec0: "enabled" | "disabled" | "absent" | "not-applicable";
  driverVersion: { rimVersion: string; evidenceVersion: string | null; matches: boolean } | null;
  firmwareVersion: { rimVersion: string; evidenceVersion: string | null; matches: boolean };
}

export interface RimEnvelopeJson {
  id: string; rim: Uint8Array; rimFormat: string | null; lastUpdated: string | null; requestId: string | null;
}
"#;

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
    inner: Option<PendingRim>,
}

#[wasm_bindgen(js_class = PendingRim)]
impl PendingRimHandle {
    /// The checks to run, RIM signature first, then the certificate-path links.
    #[wasm_bindgen(js_name = signatureChecks, unchecked_return_type = "SignatureCheckData[]")]
    pub fn signature_checks(&self) -> Result<JsValue, JsValue> {
        let pending = self.inner.as_ref().ok_or_else(consumed)?;
        Ok(js::checks_to_js(pending.signature_checks()).into())
    }

    /// Completes verification with one boolean verdict per check; usable once.
    pub fn finish(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean[]")] verdicts: JsValue,
    ) -> Result<VerifiedRimHandle, JsValue> {
        let list = js::verdicts_arg(&verdicts, "verdicts")?;
        let pending = self.inner.take().ok_or_else(consumed)?;
        let inner = pending.finish(&list).map_err(|e| to_js(&e))?;
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
    Ok(PendingRimHandle { inner: Some(inner) })
}

/// Checks a RIM service response body for the id requested; returns the decoded document.
#[wasm_bindgen(js_name = openRimEnvelope, unchecked_return_type = "RimEnvelopeJson")]
pub fn open_rim_envelope(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | object")] body: JsValue,
    #[wasm_bindgen(js_name = expectedId, unchecked_param_type = "string")] expected_id: JsValue,
) -> Result<JsValue, JsValue> {
    let expected_id: &str = &js::string_arg(&expected_id, "expectedId")?;
    let body = js::json_bytes(&body, "body")?;
    let envelope = rim::open_envelope(&body, expected_id).map_err(|e| to_js(&e))?;
    let out = Object::new();
    set(&out, "id", &envelope.id.as_str().into())?;
    set(&out, "rim", &bytes(&envelope.rim))?;
    set(&out, "rimFormat", &optional(envelope.rim_format))?;
    set(&out, "lastUpdated", &optional(envelope.last_updated))?;
    set(&out, "requestId", &optional(envelope.request_id))?;
    Ok(out.into())
}

/// The RIM ids a device needs: `{driver, firmware}` (`driver` is null for switches).
#[wasm_bindgen(js_name = rimIds, unchecked_return_type = "{ driver: string | null; firmware: string }")]
pub fn rim_ids(
    #[wasm_bindgen(unchecked_param_type = "string")] arch: JsValue,
    #[wasm_bindgen(unchecked_param_type = "RuntimeEvidenceInput")] evidence: JsValue,
) -> Result<JsValue, JsValue> {
    let arch: &str = &js::string_arg(&arch, "arch")?;
    let arch = Arch::parse(arch).ok_or_else(|| invalid_argument("arch", &Arch::expected()))?;
    let evidence = runtime_evidence(&evidence)?;
    // Only architectures with a driver RIM (the table's `driver_rim`) have a driver id.
    let driver = match arch.profile().driver_rim {
        Some(_) => Some(rim::driver_rim_id(arch, &evidence).map_err(|e| to_js(&e))?),
        None => None,
    };
    let firmware = rim::firmware_rim_id(arch, &evidence).map_err(|e| to_js(&e))?;
    let out = Object::new();
    set(&out, "driver", &optional(driver))?;
    set(&out, "firmware", &firmware.into())?;
    Ok(out.into())
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
    let xml = if let Some(text) = xml.as_string() {
        text.into_bytes()
    } else if let Some(array) = xml.dyn_ref::<Uint8Array>() {
        array.to_vec()
    } else {
        return Err(invalid_argument("xml", "a string or a Uint8Array"));
    };
    let now_value = js::member(options, "now");
    let now = if now_value.is_undefined() || now_value.is_null() {
        // The core never reads a clock; the binding supplies the host's when none is given.
        (js_sys::Date::now() / 1000.0) as u64
    } else {
        let seconds = now_value
            .as_f64()
            .filter(|n| n.is_finite() && *n >= 0.0 && n.fract() == 0.0)
            .ok_or_else(|| invalid_argument("now", "a non-negative integer (Unix seconds)"))?;
        seconds as u64
    };
    let trust = match js::optional_string(&js::member(options, "trustAnchorPem"), "trustAnchorPem")?
    {
        Some(pem) => RimTrust::from_pem(&pem).map_err(|e| to_js(&e))?,
        None => RimTrust::nvidia(),
    };
    Ok((xml, trust, now))
}

fn runtime_evidence(value: &JsValue) -> Result<RuntimeEvidence, JsValue> {
    if !value.is_object() {
        return Err(invalid_argument("evidence", "an object"));
    }
    let text = |name: &str| js::optional_string(&js::member(value, name), name);
    let mut measurements = BTreeMap::new();
    let blocks = js::member(value, "measurements");
    if blocks.is_object() {
        for key in Object::keys(blocks.unchecked_ref::<Object>()).iter() {
            let name = key.as_string().unwrap_or_default();
            let field = alloc::format!("measurements.{name}");
            let index: u8 = name
                .parse()
                .ok()
                .filter(|i| *i >= 1)
                .ok_or_else(|| invalid_argument(&field, "keyed by an SPDM index 1 to 255"))?;
            let data = Reflect::get(&blocks, &key).unwrap_or(JsValue::UNDEFINED);
            measurements.insert(index, js::bytes(&data, &field)?);
        }
    } else if !blocks.is_undefined() && !blocks.is_null() {
        return Err(invalid_argument("measurements", "an object"));
    }
    let mut opaque = Vec::new();
    let list = js::member(value, "opaque");
    if Array::is_array(&list) {
        for (i, item) in Array::from(&list).iter().enumerate() {
            let field = alloc::format!("opaque[{i}]");
            let id = small_int(&js::member(&item, "id"), &alloc::format!("{field}.id"))?
                .ok_or_else(|| invalid_argument(&alloc::format!("{field}.id"), "a number"))?;
            let value_type = small_int(
                &js::member(&item, "valueType"),
                &alloc::format!("{field}.valueType"),
            )?;
            let data = js::bytes(
                &js::member(&item, "value"),
                &alloc::format!("{field}.value"),
            )?;
            opaque.push(OpaqueValue {
                id,
                value_type,
                value: data,
            });
        }
    } else if !list.is_undefined() && !list.is_null() {
        return Err(invalid_argument("opaque", "an array"));
    }
    let nvdec0 = small_int(&js::member(value, "nvdec0Status"), "nvdec0Status")?
        .map(|v| u8::try_from(v).map_err(|_| invalid_argument("nvdec0Status", "a byte")))
        .transpose()?;
    Ok(RuntimeEvidence {
        measurements,
        driver_version: text("driverVersion")?,
        vbios_version: text("vbiosVersion")?,
        project: text("project")?,
        project_sku: text("projectSku")?,
        chip_sku: text("chipSku")?,
        chip_info: text("chipInfo")?,
        nvdec0_status: nvdec0,
        opaque,
        hwmodel: text("hwmodel")?,
        apsku: small_int(&js::member(value, "apsku"), "apsku")?,
        firmware_version_hint: text("firmwareVersionHint")?,
    })
}

/// An optional integer from 0 to 65535.
fn small_int(value: &JsValue, field: &str) -> Result<Option<u16>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .as_f64()
        .filter(|n| n.fract() == 0.0 && (0.0..=65535.0).contains(n))
        .map(|n| Some(n as u16))
        .ok_or_else(|| invalid_argument(field, "an integer from 0 to 65535"))
}

fn to_plain<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value)
        .map_err(|_| coded("ERR_INTERNAL", "internal JSON error", None))?;
    js::parse_json(&text)
}

fn bytes(data: &[u8]) -> JsValue {
    Uint8Array::from(data).into()
}

fn optional(value: Option<String>) -> JsValue {
    value.map_or(JsValue::NULL, |v| JsValue::from(v.as_str()))
}

fn set(target: &Object, name: &str, value: &JsValue) -> Result<(), JsValue> {
    Reflect::set(target, &name.into(), value)
        .map(|_| ())
        .map_err(|_| coded("ERR_INTERNAL", "could not build the result object", None))
}

fn consumed() -> JsValue {
    coded(
        "ERR_INVALID_ARGUMENT",
        "this PendingRim was already finished",
        None,
    )
}
