//! JS API for `crate::evidence` and `crate::chain`: `verifyEvidence`, `prepareEvidence`
//! (signature checks handed to JS, e.g. WebCrypto, then `finish`), `verifyCertificateChain`,
//! `evidenceReport` / `prepareEvidenceReport`, `runtimeEvidence`. Each reads the core's
//! [`EvidenceOptions`] ([`options_from_js`]), calls it, and writes the result
//! ([`convert::json_to_js`]: one JSON string across the boundary instead of a JS call per
//! member, and a report has 60 and more); the binding adds only `now`'s JS forms (a `Date`,
//! the host clock).

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::args::clock;
use super::convert::Js;
use super::convert::{self, json_to_js, options_from_js};
use super::error::to_js;
use super::pending::Pending;
use crate::evidence::{BatchPlan, DeviceResult, EvidenceOptions, ReportPlan, RuntimeEvidenceInput};

#[wasm_bindgen(typescript_custom_section)]
const TS_EVIDENCE: &str = include_str!("types/evidence.d.ts");

/// Verifies one device with the software backend; throws the first failure with its `code`.
#[wasm_bindgen(js_name = verifyEvidence, unchecked_return_type = "EvidenceReport")]
pub fn verify_evidence(
    #[wasm_bindgen(unchecked_param_type = "VerifyEvidenceOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let device = read(&options)?.verify_evidence(clock)?;
    json_to_js(&device.map_err(|e| to_js(&e))?.to_report())
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
    let plan = read(&options)?.batch_plan(clock)?;
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
        json_to_js(&DeviceResult::list(self.plan.finish(&verdicts)?))
    }

    /// Completes the batch with the software backend.
    #[wasm_bindgen(unchecked_return_type = "DeviceResult[]")]
    pub fn verify(&mut self) -> Result<JsValue, JsValue> {
        json_to_js(&DeviceResult::list(self.plan.take()?.verify()))
    }
}

/// The core's verification report of one device with its RIMs (software backend): every
/// check, the first failure, one verdict. Throws only for options that are not valid.
#[wasm_bindgen(js_name = evidenceReport, unchecked_return_type = "DeviceReport")]
pub fn evidence_report(
    #[wasm_bindgen(unchecked_param_type = "EvidenceReportOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    json_to_js(&read(&options)?.report_plan(clock)?.verify())
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
    let plan = read(&options)?.report_plan(clock)?;
    Ok(EvidenceReportPlan {
        plan: Pending::new(plan, "batch"),
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
        json_to_js(&self.plan.finish(&verdicts)?)
    }

    /// The report, with the software backend.
    #[wasm_bindgen(unchecked_return_type = "DeviceReport")]
    pub fn verify(&mut self) -> Result<JsValue, JsValue> {
        json_to_js(&self.plan.take()?.verify())
    }
}

/// Validates a PEM chain (leaf first) to the anchors at `now`; throws on failure.
#[wasm_bindgen(js_name = verifyCertificateChain, unchecked_return_type = "ChainReportJs")]
pub fn verify_certificate_chain(
    #[wasm_bindgen(
        unchecked_param_type = "{ certificate: string; now?: number; trustAnchors?: string; enforceTime?: boolean }"
    )]
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let chain = read(&options)?.verify_certificate_chain(clock)?;
    let chain = chain.map_err(|e| to_js(&e))?;
    let out = json_to_js(&chain)?;
    convert::set_bytes(&out, "leafPublicKey", &chain.leaf_public_key);
    Ok(out)
}

/// The values of one device's transcript that `rimIds`, `compareGpuRims` and
/// `compareSwitchRim` take — read by the core as the service reads them. The transcript is
/// parsed, not verified: verify the evidence first.
#[wasm_bindgen(js_name = runtimeEvidence, unchecked_return_type = "RuntimeEvidenceInput")]
pub fn runtime_evidence(
    #[wasm_bindgen(unchecked_param_type = "RuntimeEvidenceOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    json_to_js(&RuntimeEvidenceInput::from(
        read(&options)?.runtime_evidence()?,
    ))
}

fn read(options: &JsValue) -> Result<EvidenceOptions<Js>, JsValue> {
    options_from_js(options)
}
