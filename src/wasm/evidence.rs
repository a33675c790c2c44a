//! JS API for `crate::evidence` and `crate::chain`: `verifyEvidence`, `prepareEvidence`
//! (signature checks handed to JS, e.g. WebCrypto, then `finish`), `verifyCertificateChain`.

use alloc::string::String;
use alloc::vec::Vec;

use js_sys::{Array, Object, Reflect, Uint8Array};
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::attest::{evidence_bytes, evidence_encoding};
use super::error::{coded, invalid_argument, to_js};
use super::js;
use crate::attest::{Arch, EvidenceEncoding, Nonce, RequestError};
use crate::chain::{verify_pem_chain, ChainOptions, TimeCheck, TrustStore};
use crate::evidence::{
    decode_generation2, BatchPlan, DeviceInput, DeviceReport, FwidPolicy, ReportPlan,
    RevocationInput, RimDocuments, Transcript, VerifiedEvidence, VerifyContext, VerifyError,
};
use crate::rim::{RimTrust, RuntimeEvidence};

#[wasm_bindgen(typescript_custom_section)]
const TS_EVIDENCE: &str = r#"
/** One device: its transcript and its certificate chain. */
export interface DeviceEvidenceInput {
  /**
   * Raw transcript bytes, or a string: hex, base64 (generation 2, NVIDIA's SDKs) or base64 of
   * hex text (generation 1) — recognised from the text, or as `evidenceEncoding` says.
   */
  evidence: Uint8Array | ArrayBuffer | string;
  /** PEM chain text (leaf first), or base64 of it as in requests. */
  certificate: string;
}

export interface VerifyEvidenceOptions extends DeviceEvidenceInput {
  /** The caller's nonce: 64 hex characters or 32 bytes. */
  nonce: string | Uint8Array;
  arch: Arch;
  /** Unix seconds; default the host clock. */
  now?: number;
  /** PEM anchors; default the NVIDIA Device Identity CA embedded in the module. */
  trustAnchors?: string;
  /** The encoding every string `evidence` must be in; default: recognised from the text. */
  evidenceEncoding?: EvidenceEncoding;
  /**
   * Fail evidence that could carry an FWID but does not (Hopper firmware from before FWID
   * reporting) with ERR_EVIDENCE_FWID_MISSING (service code 4016). Default false: passed, as
   * NVIDIA's verifiers do, and reported as `fwid: "not-in-evidence"`.
   */
  requireFwid?: boolean;
}

export interface PrepareEvidenceOptions extends Omit<VerifyEvidenceOptions, "evidence" | "certificate"> {
  devices: DeviceEvidenceInput[];
}

/** One ECDSA P-384/SHA-384 verification: SEC1 key, message, raw r||s signature. */
export interface SignatureCheck { publicKey: Uint8Array; message: Uint8Array; signature: Uint8Array; }

export interface EvidenceReport {
  arch: string;
  /** The firmware that produced the evidence: it decides which RIMs apply and whether an FWID is due. */
  profile: "hopper-gsp" | "blackwell-gsp" | "blackwell-fsp" | "ls10";
  hwmodel: string | null; hwmodelChip: string | null; ueid: string;
  driverVersion: string | null; vbiosVersion: string | null;
  reportParsed: boolean; nonceMatch: boolean; signatureVerified: boolean; archCheck: boolean;
  fwid: "matched" | "not-in-evidence" | "not-applicable";
  certChain: { status: "valid" | "expired" | "invalid"; expirationDate: string; ocspStatus: "not-checked"; subjects: string[] };
  nonce: string; responderNonce: string; opaqueFormat: "legacy" | "nvdaod";
  measurements: { index: number; valueType: number; representation: "digest" | "raw"; value: string }[];
  opaque: { tag: number; name: string | null; valueType: number | null; value: string }[];
  signature: string;
}

/** A device result of a batch: its report, or the error that failed it. */
export type DeviceResult =
  | { ok: true; report: EvidenceReport }
  | { ok: false; error: { code: string; message: string; serviceCode: number } };

/** Options of runtimeEvidence. */
export interface RuntimeEvidenceOptions {
  /** Raw transcript bytes, or a string (hex, base64, base64 of hex text). */
  evidence: Uint8Array | ArrayBuffer | string;
  /** The encoding a string `evidence` must be in; default: recognised from the text. */
  evidenceEncoding?: EvidenceEncoding;
  arch: Arch;
  /** The chip name the device certificate gives (`hwmodelChip` of an EvidenceReport). */
  hwmodel?: string;
  /** The request's `firmware_version` (Blackwell FSP). */
  firmwareVersion?: string;
}

export interface ChainReportJs {
  status: "valid" | "expired" | "invalid"; expirationDate: string; ocspStatus: "not-checked";
  subjects: string[]; ueid: string; hwmodel: string | null; leafPublicKey: Uint8Array;
}
/** Options of evidenceReport / prepareEvidenceReport: one device, its RIMs, its revocation. */
export interface EvidenceReportOptions extends VerifyEvidenceOptions {
  /** The RIM documents (XML text or bytes) to judge the device by; one its profile does not use is ignored. */
  rims?: { driver?: string | Uint8Array; firmware?: string | Uint8Array };
  /** PEM anchors of the RIM signers; default NVIDIA's RIM root embedded in the module. */
  rimAnchors?: string;
  /** The request's `firmware_version` (Blackwell FSP evidence names its firmware RIM by it). */
  firmwareVersion?: string;
  /** What the host learnt of the device chain's revocation (the core does no I/O); default not checked. */
  revocation?: { status: "good" | "not-checked" | "revoked" | "unknown" | "failed"; message?: string };
}

export type StageStatus = "passed" | "failed" | "not-checked" | "not-applicable";
export type StageId =
  | "evidence-parsed" | "certificate-chain" | "evidence-signature" | "nonce" | "architecture"
  | "opaque-data" | "fwid" | "driver-version" | "revocation" | "driver-rim" | "firmware-rim"
  | "measurements" | "driver-rim-version" | "firmware-rim-version" | "opaque-floors";

/** One check of a DeviceReport. */
export interface ReportStage {
  id: StageId; title: string; status: StageStatus;
  /** What it found, for people ("" when nothing to add). */
  detail: string;
  /** A passed check whose result does not fully count, and why (render amber). */
  warning: string | null;
  /** The stable code of a failed check. */
  code: string | null;
}

export interface ReportFailure { stage: StageId; code: string; message: string; serviceCode: number | null }

export interface ReportRimStep {
  /** The RIM id the evidence names (null: none, or none applies). */
  id: string | null; status: StageStatus; version: string | null; signatureVerified: boolean | null;
  chainStatus: "valid" | "expired" | "invalid" | null; chainExpiration: number | null;
}

/**
 * The core's verification report of one device: every check in the service's order, the
 * first failure, the RIMs, revocation, and one verdict. `partial`: nothing failed, but
 * something that applies was not checked (`notChecked` says what).
 */
export interface DeviceReport {
  verdict: "passed" | "failed" | "partial";
  stages: ReportStage[];
  failure: ReportFailure | null;
  failures: ReportFailure[];
  notChecked: string[];
  rims: { driver: ReportRimStep; firmware: ReportRimStep };
  /** `not-reached`: the chain did not validate; `not-checked`: due, ask the responder and report again. */
  revocation: "not-reached" | "not-checked" | "good" | "failed";
  comparison: Omit<RimComparison, "allMatch" | "measres"> | null;
  measres: "success" | "fail" | null;
  evidence: EvidenceReport | null;
}
"#;

/// Verifies one device with the software backend; throws the first failure with its `code`.
#[wasm_bindgen(js_name = verifyEvidence, unchecked_return_type = "EvidenceReport")]
pub fn verify_evidence(
    #[wasm_bindgen(unchecked_param_type = "VerifyEvidenceOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let common = Common::read(&options)?;
    let device = read_device(&options, "", common.encoding)?;
    let store = common.store()?;
    let context = common.context(&store);
    let input = DeviceInput {
        evidence: &device.0,
        certificate_pem: &device.1,
    };
    let result = BatchPlan::new(&[input], &context)
        .verify()
        .into_iter()
        .next()
        .unwrap_or(Err(VerifyError::Signature));
    match result {
        Ok(device) => report(&device),
        Err(err) => Err(to_js(&err)),
    }
}

/// A prepared batch of devices whose signature checks JS may run itself (WebCrypto), in
/// parallel, before [`EvidenceBatch::finish`]; shared chain links appear once.
#[wasm_bindgen]
pub struct EvidenceBatch {
    plan: Option<BatchPlan>,
}

/// Parses every device and builds its chain path; returns the batch to complete.
#[wasm_bindgen(js_name = prepareEvidence)]
pub fn prepare_evidence(
    #[wasm_bindgen(unchecked_param_type = "PrepareEvidenceOptions")] options: JsValue,
) -> Result<EvidenceBatch, JsValue> {
    let common = Common::read(&options)?;
    let list = js::member(&options, "devices");
    if !Array::is_array(&list) {
        return Err(invalid_argument("devices", "an array"));
    }
    let mut owned = Vec::new();
    for (i, item) in Array::from(&list).iter().enumerate() {
        owned.push(read_device(
            &item,
            &alloc::format!("devices[{i}]."),
            common.encoding,
        )?);
    }
    let inputs: Vec<DeviceInput<'_>> = owned
        .iter()
        .map(|(evidence, pem)| DeviceInput {
            evidence,
            certificate_pem: pem,
        })
        .collect();
    let store = common.store()?;
    let plan = BatchPlan::new(&inputs, &common.context(&store));
    Ok(EvidenceBatch { plan: Some(plan) })
}

#[wasm_bindgen]
impl EvidenceBatch {
    /// The distinct signature checks, for a JS backend.
    #[wasm_bindgen(js_name = signatureChecks, unchecked_return_type = "SignatureCheck[]")]
    pub fn signature_checks(&self) -> Result<JsValue, JsValue> {
        let plan = self.plan.as_ref().ok_or_else(consumed)?;
        Ok(js::checks_to_js(plan.signature_checks()).into())
    }

    /// Completes the batch with one boolean verdict per signature check.
    #[wasm_bindgen(unchecked_return_type = "DeviceResult[]")]
    pub fn finish(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean[]")] verdicts: JsValue,
    ) -> Result<JsValue, JsValue> {
        let flags = js::verdicts_arg(&verdicts, "verdicts")?;
        let plan = self.plan.take().ok_or_else(consumed)?;
        let results = plan.finish(&flags).map_err(|err| to_js(&err))?;
        results_js(results)
    }

    /// Completes the batch with the software backend.
    #[wasm_bindgen(unchecked_return_type = "DeviceResult[]")]
    pub fn verify(&mut self) -> Result<JsValue, JsValue> {
        let plan = self.plan.take().ok_or_else(consumed)?;
        results_js(plan.verify())
    }
}

/// The core's verification report of one device with its RIMs (software backend): every
/// check, the first failure, one verdict. Throws only for options that are not valid.
#[wasm_bindgen(js_name = evidenceReport, unchecked_return_type = "DeviceReport")]
pub fn evidence_report(
    #[wasm_bindgen(unchecked_param_type = "EvidenceReportOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    report_js(&report_plan(&options)?.verify())
}

/// A device report whose signature checks JS may run itself (WebCrypto) before
/// [`EvidenceReportPlan::finish`].
#[wasm_bindgen]
pub struct EvidenceReportPlan {
    plan: Option<ReportPlan>,
}

/// Parses the device and its RIMs; returns the plan to complete.
#[wasm_bindgen(js_name = prepareEvidenceReport)]
pub fn prepare_evidence_report(
    #[wasm_bindgen(unchecked_param_type = "EvidenceReportOptions")] options: JsValue,
) -> Result<EvidenceReportPlan, JsValue> {
    Ok(EvidenceReportPlan {
        plan: Some(report_plan(&options)?),
    })
}

#[wasm_bindgen]
impl EvidenceReportPlan {
    /// The signature checks (evidence, then the driver RIM's, then the firmware RIM's).
    #[wasm_bindgen(js_name = signatureChecks, unchecked_return_type = "SignatureCheck[]")]
    pub fn signature_checks(&self) -> Result<JsValue, JsValue> {
        let plan = self.plan.as_ref().ok_or_else(consumed)?;
        Ok(js::checks_to_js(plan.signature_checks()).into())
    }

    /// The report, with one boolean verdict per signature check.
    #[wasm_bindgen(unchecked_return_type = "DeviceReport")]
    pub fn finish(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean[]")] verdicts: JsValue,
    ) -> Result<JsValue, JsValue> {
        let flags = js::verdicts_arg(&verdicts, "verdicts")?;
        let plan = self.plan.take().ok_or_else(consumed)?;
        report_js(&plan.finish(&flags).map_err(|err| to_js(&err))?)
    }

    /// The report, with the software backend.
    #[wasm_bindgen(unchecked_return_type = "DeviceReport")]
    pub fn verify(&mut self) -> Result<JsValue, JsValue> {
        let plan = self.plan.take().ok_or_else(consumed)?;
        report_js(&plan.verify())
    }
}

fn report_plan(options: &JsValue) -> Result<ReportPlan, JsValue> {
    let common = Common::read(options)?;
    let (evidence, pem) = read_device(options, "", common.encoding)?;
    let rims = js::member(options, "rims");
    let document = |role: &str| -> Result<Option<Vec<u8>>, JsValue> {
        if rims.is_undefined() || rims.is_null() {
            return Ok(None);
        }
        let value = js::member(&rims, role);
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        match value.as_string() {
            Some(text) => Ok(Some(text.into_bytes())),
            None => js::bytes(&value, &alloc::format!("rims.{role}")).map(Some),
        }
    };
    let (driver, firmware) = (document("driver")?, document("firmware")?);
    let rim_trust = match js::optional_string(&js::member(options, "rimAnchors"), "rimAnchors")? {
        Some(pem) => RimTrust::from_pem(&pem).map_err(|e| to_js(&e))?,
        None => RimTrust::nvidia(),
    };
    let hint = js::optional_string(&js::member(options, "firmwareVersion"), "firmwareVersion")?;
    let revocation = js::member(options, "revocation");
    let revocation = if revocation.is_undefined() || revocation.is_null() {
        RevocationInput::NotChecked
    } else {
        let status = js::required_string(&js::member(&revocation, "status"), "revocation.status")?;
        let message =
            js::optional_string(&js::member(&revocation, "message"), "revocation.message")?;
        RevocationInput::from_status(&status, message)
    };
    let store = common.store()?;
    Ok(ReportPlan::new(
        DeviceInput {
            evidence: &evidence,
            certificate_pem: &pem,
        },
        &common.context(&store),
        RimDocuments {
            driver: driver.as_deref(),
            firmware: firmware.as_deref(),
        },
        &rim_trust,
        hint,
        revocation,
    ))
}

/// A report as plain JS objects (no Maps).
fn report_js(report: &DeviceReport) -> Result<JsValue, JsValue> {
    report
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|_| coded("ERR_INTERNAL", "the report could not be converted", None))
}

/// Validates a PEM chain (leaf first) to the anchors at `now`; throws on failure.
#[wasm_bindgen(js_name = verifyCertificateChain, unchecked_return_type = "ChainReportJs")]
pub fn verify_certificate_chain(
    #[wasm_bindgen(
        unchecked_param_type = "{ certificate: string; now?: number; trustAnchors?: string; enforceTime?: boolean }"
    )]
    options: JsValue,
) -> Result<JsValue, JsValue> {
    if !options.is_object() {
        return Err(invalid_argument("options", "an object"));
    }
    let pem = certificate_text(&js::required_string(
        &js::member(&options, "certificate"),
        "certificate",
    )?)?;
    let now = read_now(&options)?;
    let store = read_store(&options)?;
    let enforce = js::member(&options, "enforceTime")
        .as_bool()
        .unwrap_or(false);
    let chain_options = ChainOptions::default().with_time(if enforce {
        TimeCheck::Enforce
    } else {
        TimeCheck::Report
    });
    let chain = verify_pem_chain(&pem, &store, now, &chain_options).map_err(|e| to_js(&e))?;
    let report = ChainJs {
        status: chain.status().as_claim_str(),
        expiration_date: chain.earliest_not_after_iso(),
        ocsp_status: "not-checked",
        subjects: chain.subjects().map(String::from).collect(),
        ueid: chain.ueid(),
        hwmodel: chain.hwmodel().map(String::from),
    };
    let value = json(&report)?;
    let _ = Reflect::set(
        &value,
        &"leafPublicKey".into(),
        &Uint8Array::from(chain.leaf_public_key_sec1()).into(),
    );
    Ok(value)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChainJs {
    status: &'static str,
    expiration_date: String,
    ocsp_status: &'static str,
    subjects: Vec<String>,
    ueid: String,
    hwmodel: Option<String>,
}

#[derive(Serialize)]
struct ErrorJs {
    code: &'static str,
    message: String,
    #[serde(rename = "serviceCode")]
    service_code: u16,
}

/// The options every verification shares.
struct Common {
    nonce: Nonce,
    arch: Arch,
    now: u64,
    anchors: Option<String>,
    encoding: Option<EvidenceEncoding>,
    fwid_policy: FwidPolicy,
}

impl Common {
    fn read(options: &JsValue) -> Result<Self, JsValue> {
        if !options.is_object() {
            return Err(invalid_argument("options", "an object"));
        }
        let nonce_value = js::member(options, "nonce");
        let nonce = if let Some(text) = nonce_value.as_string() {
            Nonce::parse(&text).map_err(|problem| to_js(&RequestError::InvalidNonce { problem }))?
        } else {
            let bytes = js::bytes(&nonce_value, "nonce")?;
            let array: [u8; Nonce::LEN] = bytes
                .try_into()
                .map_err(|_| invalid_argument("nonce", "64 hex characters or 32 bytes"))?;
            Nonce::from_bytes(array)
        };
        let arch_text = js::required_string(&js::member(options, "arch"), "arch")?;
        let arch =
            Arch::parse(&arch_text).ok_or_else(|| invalid_argument("arch", &Arch::expected()))?;
        Ok(Self {
            nonce,
            arch,
            now: read_now(options)?,
            anchors: js::optional_string(&js::member(options, "trustAnchors"), "trustAnchors")?,
            encoding: evidence_encoding(options)?,
            fwid_policy: match js::optional_bool(
                &js::member(options, "requireFwid"),
                "requireFwid",
            )? {
                Some(true) => FwidPolicy::Require,
                _ => FwidPolicy::AsNvidia,
            },
        })
    }

    fn store(&self) -> Result<TrustStore, JsValue> {
        match &self.anchors {
            Some(pem) => TrustStore::from_pem(pem).map_err(|e| to_js(&e)),
            None => TrustStore::nvidia_device_identity().map_err(|e| to_js(&e)),
        }
    }

    fn context<'s>(&self, store: &'s TrustStore) -> VerifyContext<'s> {
        VerifyContext {
            arch: self.arch,
            nonce: self.nonce,
            now: self.now,
            trust_store: store,
            chain_options: ChainOptions::default(),
            fwid_policy: self.fwid_policy,
        }
    }
}

fn read_store(options: &JsValue) -> Result<TrustStore, JsValue> {
    match js::optional_string(&js::member(options, "trustAnchors"), "trustAnchors")? {
        Some(pem) => TrustStore::from_pem(&pem).map_err(|e| to_js(&e)),
        None => TrustStore::nvidia_device_identity().map_err(|e| to_js(&e)),
    }
}

/// `options.now` in Unix seconds; the host clock when absent.
fn read_now(options: &JsValue) -> Result<u64, JsValue> {
    js::now_or_clock(&js::member(options, "now"))
}

/// One device's transcript bytes and PEM text.
fn read_device(
    item: &JsValue,
    prefix: &str,
    encoding: Option<EvidenceEncoding>,
) -> Result<(Vec<u8>, String), JsValue> {
    let evidence = read_evidence(item, prefix, encoding)?;
    let certificate_field = alloc::format!("{prefix}certificate");
    let text = js::required_string(&js::member(item, "certificate"), &certificate_field)?;
    Ok((evidence, certificate_text(&text)?))
}

/// Member `evidence` of `item`: bytes, or text decoded by the core's one rule.
fn read_evidence(
    item: &JsValue,
    prefix: &str,
    encoding: Option<EvidenceEncoding>,
) -> Result<Vec<u8>, JsValue> {
    evidence_bytes(
        &js::member(item, "evidence"),
        encoding,
        &alloc::format!("{prefix}evidence"),
    )
}

/// The values of one device's transcript that `rimIds`, `compareGpuRims` and
/// `compareSwitchRim` take — read by the core as the service reads them. The transcript is
/// parsed, not verified: verify the evidence first.
#[wasm_bindgen(js_name = runtimeEvidence, unchecked_return_type = "RuntimeEvidenceInput")]
pub fn runtime_evidence(
    #[wasm_bindgen(unchecked_param_type = "RuntimeEvidenceOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    if !options.is_object() {
        return Err(invalid_argument("options", "an object"));
    }
    let bytes = read_evidence(&options, "", evidence_encoding(&options)?)?;
    let arch = js::required_string(&js::member(&options, "arch"), "arch")?;
    let arch = Arch::parse(&arch).ok_or_else(|| invalid_argument("arch", &Arch::expected()))?;
    let hwmodel = js::optional_string(&js::member(&options, "hwmodel"), "hwmodel")?;
    let hint = js::optional_string(&js::member(&options, "firmwareVersion"), "firmwareVersion")?;
    let transcript = Transcript::parse(&bytes).map_err(|e| field_error(&e, "evidence"))?;
    let values = RuntimeEvidence::from_transcript(&transcript, arch.device_kind(), hwmodel, hint);
    let json = RuntimeEvidenceJs {
        measurements: values
            .measurements
            .iter()
            .map(|(index, value)| (alloc::format!("{index}"), hex::encode(value)))
            .collect(),
        driver_version: values.driver_version,
        vbios_version: values.vbios_version,
        project: values.project,
        project_sku: values.project_sku,
        chip_sku: values.chip_sku,
        chip_info: values.chip_info,
        nvdec0_status: values.nvdec0_status,
        opaque: values
            .opaque
            .iter()
            .map(|o| OpaqueJs {
                id: o.id,
                value_type: o.value_type,
                value: hex::encode(&o.value),
            })
            .collect(),
        hwmodel: values.hwmodel,
        apsku: values.apsku,
        firmware_version_hint: values.firmware_version_hint,
    };
    let text = serde_json::to_string(&json)
        .map_err(|_| coded("ERR_INTERNAL", "could not serialise the values", None))?;
    js::parse_json(&text)
}

/// `RuntimeEvidenceInput` (src/wasm/rim.rs), as `runtimeEvidence` returns it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RuntimeEvidenceJs {
    measurements: alloc::collections::BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    driver_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vbios_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    project: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    project_sku: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chip_sku: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chip_info: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nvdec0_status: Option<u8>,
    opaque: Vec<OpaqueJs>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hwmodel: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    apsku: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    firmware_version_hint: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OpaqueJs {
    id: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    value_type: Option<u16>,
    value: String,
}

/// PEM text as given, or decoded from base64 (the request format).
fn certificate_text(text: &str) -> Result<String, JsValue> {
    if text.contains("-----BEGIN") {
        return Ok(String::from(text));
    }
    decode_generation2(text)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .ok_or_else(|| invalid_argument("certificate", "PEM text or base64 of PEM text"))
}

fn field_error<E: crate::ErrorCode + core::fmt::Display>(err: &E, field: &str) -> JsValue {
    coded(err.code(), &alloc::format!("{field}: {err}"), Some(field))
}

fn consumed() -> JsValue {
    coded("ERR_BATCH_CONSUMED", "the batch was already finished", None)
}

fn json<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value)
        .map_err(|_| coded("ERR_INTERNAL", "internal JSON error", None))?;
    js::parse_json(&text)
}

fn report(device: &VerifiedEvidence) -> Result<JsValue, JsValue> {
    json(&device.to_report())
}

fn results_js(results: Vec<Result<VerifiedEvidence, VerifyError>>) -> Result<JsValue, JsValue> {
    let out = Array::new();
    for result in results {
        let item = Object::new();
        match result {
            Ok(device) => {
                let _ = Reflect::set(&item, &"ok".into(), &JsValue::TRUE);
                let _ = Reflect::set(&item, &"report".into(), &report(&device)?);
            }
            Err(err) => {
                let _ = Reflect::set(&item, &"ok".into(), &JsValue::FALSE);
                let error = ErrorJs {
                    code: crate::ErrorCode::code(&err),
                    message: alloc::string::ToString::to_string(&err),
                    service_code: err.service_code(),
                };
                let _ = Reflect::set(&item, &"error".into(), &json(&error)?);
            }
        }
        out.push(&item);
    }
    Ok(out.into())
}
