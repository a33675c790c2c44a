//! JS API for `crate::evidence` and `crate::chain`: `verifyEvidence`, `prepareEvidence`
//! (signature checks handed to JS, e.g. WebCrypto, then `finish`), `verifyCertificateChain`,
//! `evidenceReport` / `prepareEvidenceReport`, `runtimeEvidence`. Options are read with serde
//! ([`options_from_js`]); results are written with [`convert::to_js`].

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::args;
use super::attest::evidence_bytes;
use super::convert::{self, options_from_js, Bytes, Document};
use super::error::{coded, invalid_argument, to_js};
use super::pending::Pending;
use crate::attest::{Arch, EvidenceEncoding, Nonce, RequestError};
use crate::chain::{verify_pem_chain, ChainOptions, TimeCheck, TrustStore};
use crate::evidence::{
    decode_generation2, BatchPlan, DeviceInput, DeviceReport, EvidenceReport, FwidPolicy,
    ReportPlan, RevocationInput, RimDocuments, Transcript, VerifiedEvidence, VerifyContext,
    VerifyError,
};
use crate::rim::{RimTrust, RuntimeEvidence};

#[wasm_bindgen(typescript_custom_section)]
const TS_EVIDENCE: &str = include_str!("types/evidence.d.ts");

/// Verifies one device with the software backend; throws the first failure with its `code`.
#[wasm_bindgen(js_name = verifyEvidence, unchecked_return_type = "EvidenceReport")]
pub fn verify_evidence(
    #[wasm_bindgen(unchecked_param_type = "VerifyEvidenceOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let input: OptionsIn = options_from_js(&options)?;
    let common = Common::new(&input)?;
    let (evidence, pem) = device(
        &input.evidence,
        input.certificate.as_deref(),
        "",
        common.encoding,
    )?;
    let store = common.store()?;
    let input = DeviceInput {
        evidence: &evidence,
        certificate_pem: &pem,
    };
    let result = BatchPlan::new(&[input], &common.context(&store))
        .verify()
        .into_iter()
        .next()
        .unwrap_or(Err(VerifyError::Signature));
    match result {
        Ok(device) => convert::to_js(&device.to_report()),
        Err(err) => Err(to_js(&err)),
    }
}

/// A prepared batch of devices whose signature checks JS may run itself (WebCrypto), in
/// parallel, before [`EvidenceBatch::finish`]; shared chain links appear once.
#[wasm_bindgen]
pub struct EvidenceBatch {
    plan: Pending<BatchPlan>,
}

/// Parses every device and builds its chain path; returns the batch to complete.
#[wasm_bindgen(js_name = prepareEvidence)]
pub fn prepare_evidence(
    #[wasm_bindgen(unchecked_param_type = "PrepareEvidenceOptions")] options: JsValue,
) -> Result<EvidenceBatch, JsValue> {
    let input: OptionsIn = options_from_js(&options)?;
    let common = Common::new(&input)?;
    let devices = input
        .devices
        .ok_or_else(|| invalid_argument("devices", "an array"))?;
    let owned = devices
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let prefix = alloc::format!("devices[{i}].");
            device(
                &item.evidence,
                item.certificate.as_deref(),
                &prefix,
                common.encoding,
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let inputs: Vec<DeviceInput<'_>> = owned
        .iter()
        .map(|(evidence, pem)| DeviceInput {
            evidence,
            certificate_pem: pem,
        })
        .collect();
    let store = common.store()?;
    let plan = BatchPlan::new(&inputs, &common.context(&store));
    Ok(EvidenceBatch {
        plan: Pending::new(plan, "batch"),
    })
}

#[wasm_bindgen]
impl EvidenceBatch {
    /// The distinct signature checks, for a JS backend.
    #[wasm_bindgen(js_name = signatureChecks, unchecked_return_type = "SignatureCheck[]")]
    pub fn signature_checks(&self) -> Result<JsValue, JsValue> {
        self.plan.checks()
    }

    /// Completes the batch with one boolean verdict per signature check.
    #[wasm_bindgen(unchecked_return_type = "DeviceResult[]")]
    pub fn finish(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean[]")] verdicts: JsValue,
    ) -> Result<JsValue, JsValue> {
        results_js(self.plan.finish(&verdicts)?)
    }

    /// Completes the batch with the software backend.
    #[wasm_bindgen(unchecked_return_type = "DeviceResult[]")]
    pub fn verify(&mut self) -> Result<JsValue, JsValue> {
        results_js(self.plan.take()?.verify())
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
    plan: Pending<ReportPlan>,
}

/// Parses the device and its RIMs; returns the plan to complete.
#[wasm_bindgen(js_name = prepareEvidenceReport)]
pub fn prepare_evidence_report(
    #[wasm_bindgen(unchecked_param_type = "EvidenceReportOptions")] options: JsValue,
) -> Result<EvidenceReportPlan, JsValue> {
    Ok(EvidenceReportPlan {
        plan: Pending::new(report_plan(&options)?, "batch"),
    })
}

#[wasm_bindgen]
impl EvidenceReportPlan {
    /// The signature checks (evidence, then the driver RIM's, then the firmware RIM's).
    #[wasm_bindgen(js_name = signatureChecks, unchecked_return_type = "SignatureCheck[]")]
    pub fn signature_checks(&self) -> Result<JsValue, JsValue> {
        self.plan.checks()
    }

    /// The report, with one boolean verdict per signature check.
    #[wasm_bindgen(unchecked_return_type = "DeviceReport")]
    pub fn finish(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean[]")] verdicts: JsValue,
    ) -> Result<JsValue, JsValue> {
        report_js(&self.plan.finish(&verdicts)?)
    }

    /// The report, with the software backend.
    #[wasm_bindgen(unchecked_return_type = "DeviceReport")]
    pub fn verify(&mut self) -> Result<JsValue, JsValue> {
        report_js(&self.plan.take()?.verify())
    }
}

#[derive(Deserialize)]
struct RimsIn {
    driver: Option<Document>,
    firmware: Option<Document>,
}

#[derive(Deserialize)]
struct RevocationIn {
    status: Option<String>,
    message: Option<String>,
}

fn report_plan(options: &JsValue) -> Result<ReportPlan, JsValue> {
    let extra: OptionsIn = options_from_js(options)?;
    let common = Common::new(&extra)?;
    let (evidence, pem) = device(
        &extra.evidence,
        extra.certificate.as_deref(),
        "",
        common.encoding,
    )?;
    let (driver, firmware) = extra
        .rims
        .map_or((None, None), |rims| (rims.driver, rims.firmware));
    let rim_trust = match extra.rim_anchors {
        Some(pem) => RimTrust::from_pem(&pem).map_err(|e| to_js(&e))?,
        None => RimTrust::nvidia(),
    };
    let revocation = match extra.revocation {
        None => RevocationInput::NotChecked,
        Some(RevocationIn { status, message }) => {
            let status = status.ok_or_else(|| invalid_argument("revocation.status", "a string"))?;
            RevocationInput::from_status(&status, message)
        }
    };
    let store = common.store()?;
    Ok(ReportPlan::new(
        DeviceInput {
            evidence: &evidence,
            certificate_pem: &pem,
        },
        &common.context(&store),
        RimDocuments {
            driver: driver.as_ref().map(|d| d.0.as_slice()),
            firmware: firmware.as_ref().map(|d| d.0.as_slice()),
        },
        &rim_trust,
        extra.firmware_version,
        revocation,
    ))
}

/// A report as plain JS objects (no Maps).
fn report_js(report: &DeviceReport) -> Result<JsValue, JsValue> {
    convert::to_js(report)
}

/// Validates a PEM chain (leaf first) to the anchors at `now`; throws on failure.
#[wasm_bindgen(js_name = verifyCertificateChain, unchecked_return_type = "ChainReportJs")]
pub fn verify_certificate_chain(
    #[wasm_bindgen(
        unchecked_param_type = "{ certificate: string; now?: number; trustAnchors?: string; enforceTime?: boolean }"
    )]
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let options: OptionsIn = options_from_js(&options)?;
    let pem = certificate_text(
        &options
            .certificate
            .ok_or_else(|| invalid_argument("certificate", "a string"))?,
    )?;
    let now = args::time_or_clock(&options.now, "now")?.as_secs();
    let store = trust_store(options.trust_anchors.as_deref())?;
    let time = if options.enforce_time == Some(true) {
        TimeCheck::Enforce
    } else {
        TimeCheck::Report
    };
    let chain = verify_pem_chain(&pem, &store, now, &ChainOptions::default().with_time(time))
        .map_err(|e| to_js(&e))?;
    convert::to_js(&ChainOut {
        status: chain.status().as_claim_str(),
        expiration_date: chain.earliest_not_after_iso(),
        ocsp_status: "not-checked",
        subjects: chain.subjects().collect(),
        ueid: chain.ueid(),
        hwmodel: chain.hwmodel(),
        leaf_public_key: Bytes(chain.leaf_public_key_sec1()),
    })
}

/// The JS `ChainReportJs`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChainOut<'a> {
    status: &'static str,
    expiration_date: String,
    ocsp_status: &'static str,
    subjects: Vec<&'a str>,
    ueid: String,
    hwmodel: Option<&'a str>,
    leaf_public_key: Bytes<'a>,
}

/// A `DeviceResult`: `{ ok: true, report }` or `{ ok: false, error }`.
#[derive(Serialize)]
#[serde(untagged)]
enum DeviceResultOut {
    Passed { ok: bool, report: EvidenceReport },
    Failed { ok: bool, error: ErrorOut },
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ErrorOut {
    code: &'static str,
    message: String,
    service_code: u16,
}

/// The members of every evidence entry's options, read by one serde type: each entry uses
/// its own (`devices` only `prepareEvidence`, `rims` only the reports, `enforceTime` only
/// `verifyCertificateChain`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OptionsIn {
    /// 64 hex characters or 32 bytes; text goes through `Nonce::parse` for its own code.
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    nonce: JsValue,
    arch: Option<String>,
    /// Read by `args::time_or_clock`, the one reader of `now`.
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    now: JsValue,
    trust_anchors: Option<String>,
    evidence_encoding: Option<String>,
    require_fwid: Option<bool>,
    /// Bytes, or text decoded by the core's one rule with `evidenceEncoding`.
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    evidence: JsValue,
    certificate: Option<String>,
    devices: Option<Vec<DeviceIn>>,
    rims: Option<RimsIn>,
    rim_anchors: Option<String>,
    firmware_version: Option<String>,
    revocation: Option<RevocationIn>,
    hwmodel: Option<String>,
    enforce_time: Option<bool>,
}

/// The options every verification shares, checked.
struct Common {
    nonce: Nonce,
    arch: Arch,
    now: u64,
    anchors: Option<String>,
    encoding: Option<EvidenceEncoding>,
    fwid_policy: FwidPolicy,
}

impl Common {
    fn new(input: &OptionsIn) -> Result<Self, JsValue> {
        let nonce = if let Some(text) = input.nonce.as_string() {
            Nonce::parse(&text).map_err(|problem| to_js(&RequestError::InvalidNonce { problem }))?
        } else {
            let bytes = args::bytes(&input.nonce, "nonce")?;
            let array: [u8; Nonce::LEN] = bytes
                .try_into()
                .map_err(|_| invalid_argument("nonce", "64 hex characters or 32 bytes"))?;
            Nonce::from_bytes(array)
        };
        Ok(Self {
            nonce,
            arch: arch(input.arch.as_deref())?,
            now: args::time_or_clock(&input.now, "now")?.as_secs(),
            anchors: input.trust_anchors.clone(),
            encoding: encoding(input.evidence_encoding.as_deref())?,
            fwid_policy: if input.require_fwid == Some(true) {
                FwidPolicy::Require
            } else {
                FwidPolicy::AsNvidia
            },
        })
    }

    fn store(&self) -> Result<TrustStore, JsValue> {
        trust_store(self.anchors.as_deref())
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

fn trust_store(anchors: Option<&str>) -> Result<TrustStore, JsValue> {
    match anchors {
        Some(pem) => TrustStore::from_pem(pem).map_err(|e| to_js(&e)),
        None => TrustStore::nvidia_device_identity().map_err(|e| to_js(&e)),
    }
}

/// A required `arch`, by its wire name.
fn arch(text: Option<&str>) -> Result<Arch, JsValue> {
    let text = text.ok_or_else(|| invalid_argument("arch", "a string"))?;
    Arch::parse(text).ok_or_else(|| invalid_argument("arch", &Arch::expected()))
}

/// An optional `evidenceEncoding`, by its name.
fn encoding(name: Option<&str>) -> Result<Option<EvidenceEncoding>, JsValue> {
    name.map(|name| {
        EvidenceEncoding::parse(name).ok_or_else(|| {
            invalid_argument("evidenceEncoding", "\"base64\", \"base64-hex\" or \"hex\"")
        })
    })
    .transpose()
}

/// One device: its transcript (bytes, or text decoded by the core's one rule) and its PEM.
#[derive(Deserialize)]
struct DeviceIn {
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    evidence: JsValue,
    certificate: Option<String>,
}

/// One device's transcript bytes and PEM text; `prefix` names the device in errors
/// (`devices[0].`).
fn device(
    evidence: &JsValue,
    certificate: Option<&str>,
    prefix: &str,
    encoding: Option<EvidenceEncoding>,
) -> Result<(Vec<u8>, String), JsValue> {
    let evidence = evidence_bytes(evidence, encoding, &alloc::format!("{prefix}evidence"))?;
    let text = certificate
        .ok_or_else(|| invalid_argument(&alloc::format!("{prefix}certificate"), "a string"))?;
    Ok((evidence, certificate_text(text)?))
}

/// The values of one device's transcript that `rimIds`, `compareGpuRims` and
/// `compareSwitchRim` take — read by the core as the service reads them. The transcript is
/// parsed, not verified: verify the evidence first.
#[wasm_bindgen(js_name = runtimeEvidence, unchecked_return_type = "RuntimeEvidenceInput")]
pub fn runtime_evidence(
    #[wasm_bindgen(unchecked_param_type = "RuntimeEvidenceOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let input: OptionsIn = options_from_js(&options)?;
    let encoding = encoding(input.evidence_encoding.as_deref())?;
    let bytes = evidence_bytes(&input.evidence, encoding, "evidence")?;
    let arch = arch(input.arch.as_deref())?;
    let transcript = Transcript::parse(&bytes).map_err(|e| field_error(&e, "evidence"))?;
    let values = RuntimeEvidence::from_transcript(
        &transcript,
        arch.device_kind(),
        input.hwmodel,
        input.firmware_version,
    );
    convert::to_js(&RuntimeEvidenceOut {
        measurements: values
            .measurements
            .iter()
            .map(|(index, value)| (index.to_string(), hex::encode(value)))
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
            .map(|o| OpaqueOut {
                id: o.id,
                value_type: o.value_type,
                value: hex::encode(&o.value),
            })
            .collect(),
        hwmodel: values.hwmodel,
        apsku: values.apsku,
        firmware_version_hint: values.firmware_version_hint,
    })
}

/// `RuntimeEvidenceInput` (src/wasm/types/rim.d.ts), as `runtimeEvidence` returns it: bytes
/// as hex text, absent values left out.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RuntimeEvidenceOut {
    measurements: BTreeMap<String, String>,
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
    opaque: Vec<OpaqueOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hwmodel: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    apsku: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    firmware_version_hint: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OpaqueOut {
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

fn results_js(results: Vec<Result<VerifiedEvidence, VerifyError>>) -> Result<JsValue, JsValue> {
    let results: Vec<DeviceResultOut> = results
        .into_iter()
        .map(|result| match result {
            Ok(device) => DeviceResultOut::Passed {
                ok: true,
                report: device.to_report(),
            },
            Err(err) => DeviceResultOut::Failed {
                ok: false,
                error: ErrorOut {
                    code: crate::ErrorCode::code(&err),
                    message: err.to_string(),
                    service_code: err.service_code(),
                },
            },
        })
        .collect();
    convert::to_js(&results)
}
