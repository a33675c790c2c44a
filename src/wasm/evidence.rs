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
use super::error::OrJs;
use super::pending::Pending;
use crate::evidence::{BatchPlan, DeviceResult, EvidenceOptions, ReportPlan, RuntimeEvidenceInput};

#[wasm_bindgen(typescript_custom_section)]
const TS_EVIDENCE: &str = include_str!("types/evidence.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const TS_EVIDENCE_HAND: &str = include_str!("types/hand/evidence.d.ts");

/// Verifies one device's evidence with the software backend (`evidence` a transcript, or a
/// JSON or CBOR CMW of one device, NVIDIA's verifier input: `report.evidenceForm` says which;
/// a CMW's nonce must be `nonce`): the SPDM transcript parses,
/// its certificate chain validates to the trust anchors at `now`, the transcript's signature
/// verifies with the leaf's key, its nonce is `nonce`, the device is of `arch`, and its FWID
/// agrees with the certificate's. Returns the report of a device that passed every check.
///
/// @throws EdgeAttestError the first failure: `ERR_EVIDENCE_*` (transcript, signature, nonce,
/// architecture, FWID; e.g. `ERR_EVIDENCE_NONCE_MISMATCH`), `ERR_CHAIN_*` / `ERR_CERT_*`
/// (the certificate chain; e.g. `ERR_CHAIN_UNTRUSTED_ROOT`, `ERR_CHAIN_EXPIRED`); and
/// `ERR_INVALID_ARGUMENT` for options of the wrong shape (with `field`),
/// `ERR_REQUEST_INVALID_NONCE`, `ERR_EVIDENCE_ENCODING` for evidence text not in
/// `evidenceEncoding`, `ERR_CHAIN_PEM` for trust anchors that do not read, `ERR_CMW_*` for
/// a CMW that is malformed, not NVIDIA's profile, of another nonce or of several devices.
///
/// @example
/// ```ts
/// declare const evidence: string, certificate: string; // the GPU's answer to `nonce`
/// declare const nonce: string;
/// const report = verifyEvidence({ evidence, certificate, nonce, arch: 'HOPPER' });
/// console.log(report.hwmodel, report.driverVersion, report.certChain.status);
/// ```
#[wasm_bindgen(js_name = verifyEvidence, unchecked_return_type = "EvidenceReport")]
pub fn verify_evidence(
    #[wasm_bindgen(unchecked_param_type = "VerifyEvidenceOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let device = read(&options)?.verify_evidence(clock)?;
    json_to_js(&device.or_js()?.to_report())
}

/// A prepared batch of devices (`prepareEvidence`) whose signature checks JS may run itself
/// (WebCrypto), in parallel, before `finish`; shared chain links appear once. Single use;
/// `free()` releases it.
#[wasm_bindgen]
pub struct EvidenceBatch(Pending<BatchPlan>);

/// Prepares the devices of one request for verification with signature checks the caller
/// runs (WebCrypto) — `devices`, or a CMW of them in `evidence` (NVIDIA's verifier input,
/// JSON or CBOR): parses every device's transcript and builds its certificate path, then
/// hands out the distinct signature checks; `finish` completes each device as
/// `verifyEvidence` does, into one result per device.
///
/// @throws EdgeAttestError `ERR_INVALID_ARGUMENT` for options of the wrong shape (with `field`),
/// `ERR_REQUEST_INVALID_NONCE`, `ERR_EVIDENCE_ENCODING` for evidence text not in
/// `evidenceEncoding`, `ERR_CHAIN_PEM` for trust anchors that do not read (a device's own failure is its result's
/// `error`, not a throw).
///
/// @example
/// ```ts
/// declare const devices: { evidence: string; certificate: string }[];
/// declare const nonce: string;
/// const batch = prepareEvidence({ devices, nonce, arch: 'HOPPER' });
/// const results = batch.finish(await runSignatureChecks(batch.signatureChecks()));
/// batch.free();
/// for (const result of results) console.log(result.ok ? result.report.ueid : result.error.code);
/// ```
#[wasm_bindgen(js_name = prepareEvidence)]
pub fn prepare_evidence(
    #[wasm_bindgen(unchecked_param_type = "PrepareEvidenceOptions")] options: JsValue,
) -> Result<EvidenceBatch, JsValue> {
    let plan = read(&options)?.batch_plan(clock)?;
    Ok(EvidenceBatch(Pending::new(plan, "batch")))
}

#[wasm_bindgen]
impl EvidenceBatch {
    /// The distinct signature checks, for a JS backend (`runSignatureChecks`); throws
    /// `ERR_BATCH_CONSUMED` once the batch is completed.
    #[wasm_bindgen(js_name = signatureChecks, unchecked_return_type = "SignatureCheck[]")]
    pub fn signature_checks(&self) -> Result<JsValue, JsValue> {
        self.0.checks()
    }

    /// Completes the batch with one boolean verdict per signature check, in order: one
    /// result per device. Throws `ERR_INVALID_ARGUMENT` for a list that is not booleans,
    /// `ERR_CHAIN_VERDICT_COUNT` for one of the wrong length, `ERR_BATCH_CONSUMED` on a
    /// second use.
    #[wasm_bindgen(unchecked_return_type = "DeviceResult[]")]
    pub fn finish(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean[]")] verdicts: JsValue,
    ) -> Result<JsValue, JsValue> {
        json_to_js(&DeviceResult::list(self.0.finish(&verdicts)?))
    }

    /// Completes the batch with the software backend: one result per device. Throws
    /// `ERR_BATCH_CONSUMED` on a second use.
    #[wasm_bindgen(unchecked_return_type = "DeviceResult[]")]
    pub fn verify(&mut self) -> Result<JsValue, JsValue> {
        json_to_js(&DeviceResult::list(self.0.take()?.verify()))
    }
}

/// The core's verification report of one device with its RIMs (software backend): every
/// check in the service's order (evidence, certificate chain, signature, nonce, architecture,
/// FWID, revocation as the host learnt it, the driver and firmware RIMs, measurements,
/// versions), the first failure, and one verdict — `passed`, `failed` or `partial`. A
/// failed check is reported, not thrown.
///
/// @throws EdgeAttestError only for options that are not valid: `ERR_INVALID_ARGUMENT` for options of the wrong shape (with `field`),
/// `ERR_REQUEST_INVALID_NONCE`, `ERR_EVIDENCE_ENCODING` for evidence text not in
/// `evidenceEncoding`, `ERR_CHAIN_PEM` for trust anchors that do not read, `ERR_RIM_*`
/// for RIM anchors that do not read.
///
/// @example
/// ```ts
/// declare const evidence: string, certificate: string, nonce: string;
/// declare const driverRim: string, firmwareRim: string; // the RIM documents (XML)
/// const report = evidenceReport({
///   evidence, certificate, nonce, arch: 'HOPPER',
///   rims: { driver: driverRim, firmware: firmwareRim },
///   revocation: { status: 'good' },
/// });
/// if (report.verdict !== 'passed') console.error(report.failure?.code, report.notChecked);
/// ```
#[wasm_bindgen(js_name = evidenceReport, unchecked_return_type = "DeviceReport")]
pub fn evidence_report(
    #[wasm_bindgen(unchecked_param_type = "EvidenceReportOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    json_to_js(&read(&options)?.report_plan(clock)?.verify())
}

/// A device report (`prepareEvidenceReport`) whose signature checks JS may run itself
/// (WebCrypto) before `finish`. Single use; `free()` releases it.
#[wasm_bindgen]
pub struct EvidenceReportPlan(Pending<ReportPlan>);

/// Prepares `evidenceReport` with signature checks the caller runs (WebCrypto): parses the
/// device and its RIMs and hands out the evidence's and the RIMs' signature checks; `finish`
/// gives the report.
///
/// @throws EdgeAttestError only for options that are not valid: `ERR_INVALID_ARGUMENT` for options of the wrong shape (with `field`),
/// `ERR_REQUEST_INVALID_NONCE`, `ERR_EVIDENCE_ENCODING` for evidence text not in
/// `evidenceEncoding`, `ERR_CHAIN_PEM` for trust anchors that do not read, `ERR_RIM_*`
/// for RIM anchors that do not read.
///
/// @example
/// ```ts
/// declare const evidence: string, certificate: string, nonce: string;
/// const plan = prepareEvidenceReport({ evidence, certificate, nonce, arch: 'HOPPER' });
/// const report = plan.finish(await runSignatureChecks(plan.signatureChecks()));
/// plan.free();
/// console.log(report.verdict, report.stages.map((stage) => `${stage.id}: ${stage.status}`));
/// ```
#[wasm_bindgen(js_name = prepareEvidenceReport)]
pub fn prepare_evidence_report(
    #[wasm_bindgen(unchecked_param_type = "EvidenceReportOptions")] options: JsValue,
) -> Result<EvidenceReportPlan, JsValue> {
    let plan = read(&options)?.report_plan(clock)?;
    Ok(EvidenceReportPlan(Pending::new(plan, "batch")))
}

#[wasm_bindgen]
impl EvidenceReportPlan {
    /// The signature checks (evidence, then the driver RIM's, then the firmware RIM's), for a
    /// JS backend; throws `ERR_BATCH_CONSUMED` once the plan is completed.
    #[wasm_bindgen(js_name = signatureChecks, unchecked_return_type = "SignatureCheck[]")]
    pub fn signature_checks(&self) -> Result<JsValue, JsValue> {
        self.0.checks()
    }

    /// The report, with one boolean verdict per signature check, in order. Throws
    /// `ERR_INVALID_ARGUMENT` for a list that is not booleans, `ERR_CHAIN_VERDICT_COUNT` for
    /// one of the wrong length, `ERR_BATCH_CONSUMED` on a second use.
    #[wasm_bindgen(unchecked_return_type = "DeviceReport")]
    pub fn finish(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean[]")] verdicts: JsValue,
    ) -> Result<JsValue, JsValue> {
        json_to_js(&self.0.finish(&verdicts)?)
    }

    /// The report, with the software backend. Throws `ERR_BATCH_CONSUMED` on a second use.
    #[wasm_bindgen(unchecked_return_type = "DeviceReport")]
    pub fn verify(&mut self) -> Result<JsValue, JsValue> {
        json_to_js(&self.0.take()?.verify())
    }
}

/// Validates a PEM certificate chain (leaf first) to the trust anchors (default: NVIDIA's
/// device root) at `now`: each certificate's signature by its issuer, validity times (unless
/// `enforceTime` is false), CA and key-usage constraints, path length. Revocation is not
/// checked here (`checkOcspResponses`, `fetchOcspStatus`).
///
/// @throws EdgeAttestError the first failure: `ERR_CHAIN_*` (e.g. `ERR_CHAIN_UNTRUSTED_ROOT`,
/// `ERR_CHAIN_EXPIRED`, `ERR_CHAIN_SIGNATURE_INVALID`), `ERR_CERT_*` for a certificate that
/// does not parse; `ERR_INVALID_ARGUMENT` for options of the wrong shape.
///
/// @example
/// ```ts
/// declare const certificate: string; // PEM, leaf first
/// const chain = verifyCertificateChain({ certificate });
/// console.log(chain.subjects, chain.expirationDate, chain.ueid);
/// ```
#[wasm_bindgen(js_name = verifyCertificateChain, unchecked_return_type = "ChainReportJs")]
pub fn verify_certificate_chain(
    #[wasm_bindgen(
        unchecked_param_type = "{ certificate: string; now?: number; trustAnchors?: string; enforceTime?: boolean }"
    )]
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let chain = read(&options)?.verify_certificate_chain(clock)?.or_js()?;
    let out = json_to_js(&chain)?;
    convert::set_bytes(&out, "leafPublicKey", &chain.leaf_public_key);
    Ok(out)
}

/// The values of one device's transcript that `rimIds`, `compareGpuRims` and
/// `compareSwitchRim` take — read by the core as the service reads them. The transcript is
/// parsed, not verified: verify the evidence first.
///
/// @throws EdgeAttestError `ERR_EVIDENCE_*` for a transcript that does not parse (e.g.
/// `ERR_EVIDENCE_TRUNCATED`, `ERR_EVIDENCE_ENCODING`), `ERR_INVALID_ARGUMENT` for options of
/// the wrong shape.
///
/// @example
/// ```ts
/// declare const evidence: string; // a verified device's transcript
/// const values = runtimeEvidence({ evidence, arch: 'HOPPER', hwmodel: 'GH100' });
/// const ids = rimIds('HOPPER', values); // { driver: 'NV_GPU_DRIVER_GH100_…', firmware: 'NV_GPU_VBIOS_…' }
/// ```
#[wasm_bindgen(js_name = runtimeEvidence, unchecked_return_type = "RuntimeEvidenceInput")]
pub fn runtime_evidence(
    #[wasm_bindgen(unchecked_param_type = "RuntimeEvidenceOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let values = read(&options)?.runtime_evidence()?;
    json_to_js(&RuntimeEvidenceInput::from(values))
}

fn read(options: &JsValue) -> Result<EvidenceOptions<Js>, JsValue> {
    options_from_js(options)
}
