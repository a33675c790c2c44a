//! JS API for `crate::rim`: `verifyRim`, `prepareRim` (for WebCrypto), `openRimEnvelope`,
//! `rimIds`, `compareGpuRims`, `compareSwitchRim`, `identifyRim`.

use alloc::string::String;

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::args;
use super::convert::{from_js, json_to_js, members_from_js, set_bytes, Js};
use super::error::OrJs;
use super::pending::Pending;
use crate::bytes::Document;
use crate::rim::{self, PendingRim, RimIds, RimOptions, RuntimeEvidence, VerifiedRim};
use crate::time::UnixTime;

#[wasm_bindgen(typescript_custom_section)]
const TS_RIM: &str = include_str!("types/rim.d.ts");
#[wasm_bindgen(typescript_custom_section)]
const TS_RIM_HAND: &str = include_str!("types/hand/rim.d.ts");

/// A RIM whose signature verified (`verifyRim`, `PendingRim.finish`): the handle
/// `compareGpuRims` and `compareSwitchRim` take. `free()` releases it.
#[wasm_bindgen(js_name = VerifiedRim)]
pub struct VerifiedRimHandle {
    inner: VerifiedRim,
}

#[wasm_bindgen(js_class = VerifiedRim)]
impl VerifiedRimHandle {
    /// The document (golden measurements, versions) and its certificate chain's status as
    /// plain JSON.
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "VerifiedRimJson")]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        json_to_js(&self.inner)
    }

    /// True when the signature verified and the signer's chain was valid at the time given.
    #[wasm_bindgen(getter, js_name = isTrusted)]
    pub fn is_trusted(&self) -> bool {
        self.inner.is_trusted()
    }

    /// The version the RIM is for (`Meta@colloquialVersion`), e.g. "550.144.03".
    #[wasm_bindgen(getter, js_name = colloquialVersion)]
    pub fn colloquial_version(&self) -> String {
        self.inner.document().meta.colloquial_version.clone()
    }
}

/// A RIM whose digest checked (`prepareRim`); its ECDSA checks are to be run by the caller
/// (WebCrypto), then `finish`. Single use; `free()` releases it.
#[wasm_bindgen(js_name = PendingRim)]
pub struct PendingRimHandle {
    inner: Pending<PendingRim>,
}

#[wasm_bindgen(js_class = PendingRim)]
impl PendingRimHandle {
    /// The checks to run, RIM signature first, then the certificate-path links; throws
    /// `ERR_BATCH_CONSUMED` once finished.
    #[wasm_bindgen(js_name = signatureChecks, unchecked_return_type = "SignatureCheckData[]")]
    pub fn signature_checks(&self) -> Result<JsValue, JsValue> {
        self.inner.checks()
    }

    /// Completes verification with one boolean verdict per check, in order; usable once.
    /// Throws `ERR_RIM_SIGNATURE_INVALID` when the RIM's signature check failed (or the list
    /// has the wrong length), `ERR_INVALID_ARGUMENT` for a list that is not booleans,
    /// `ERR_BATCH_CONSUMED` on a second use. A failed chain link is the `certChain` status.
    pub fn finish(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean[]")] verdicts: JsValue,
    ) -> Result<VerifiedRimHandle, JsValue> {
        let inner = self.inner.finish(&verdicts)?;
        Ok(VerifiedRimHandle { inner })
    }
}

/// Verifies a RIM document (XML text or bytes): its XML within budgets, the SWID schema,
/// canonical XML 1.1, the SHA-384 digest, the ECDSA-SHA384 signature (software backend), and
/// the X509Data chain to the RIM root at `options.now` (reported in `certChain`: check
/// `isTrusted`). The bytes of a signed CoRIM (COSE_Sign1) are verified the same way: its
/// ES384 signature and its `x5chain` to the CoRIM root; `ERR_CORIM_*` when it does not read.
///
/// @throws EdgeAttestError `ERR_RIM_*` for a document that does not read or verify (e.g. `ERR_RIM_MALFORMED_XML`,
/// `ERR_RIM_SCHEMA`, `ERR_RIM_DIGEST_MISMATCH`, `ERR_RIM_SIGNATURE_INVALID`,
/// `ERR_RIM_TOO_LARGE`), `ERR_INVALID_ARGUMENT` for arguments of the wrong shape.
///
/// @example
/// ```ts
/// declare const xml: string; // e.g. from openRimEnvelope, or a bundled RIM file
/// const rim = verifyRim(xml, {}); // options: `now`, `trustAnchorPem`
/// if (!rim.isTrusted) console.error('RIM chain:', rim.toJSON().certChain.status);
/// console.log(rim.colloquialVersion);
/// ```
#[wasm_bindgen(js_name = verifyRim)]
pub fn verify_rim(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] xml: JsValue,
    #[wasm_bindgen(unchecked_param_type = "RimOptions | undefined")] options: JsValue,
) -> Result<VerifiedRimHandle, JsValue> {
    let (Document(xml), options, now) = rim_inputs(&xml, &options)?;
    let inner = options.verify(&xml, now).or_js()?;
    Ok(VerifiedRimHandle { inner })
}

/// Like `verifyRim`, but leaves the ECDSA checks to the caller (e.g. WebCrypto): checks the
/// document and its digest, and returns the pending RIM whose `signatureChecks` the caller
/// runs and hands to `finish`. A signed CoRIM's bytes are prepared the same way.
///
/// @throws EdgeAttestError `ERR_RIM_*` for a document that does not read or verify (e.g. `ERR_RIM_MALFORMED_XML`,
/// `ERR_RIM_SCHEMA`, `ERR_RIM_DIGEST_MISMATCH`, `ERR_RIM_SIGNATURE_INVALID`,
/// `ERR_RIM_TOO_LARGE`), `ERR_INVALID_ARGUMENT` for arguments of the wrong shape.
///
/// @example
/// ```ts
/// declare const xml: string;
/// const pending = prepareRim(xml, {});
/// const rim = pending.finish(await runSignatureChecks(pending.signatureChecks()));
/// pending.free();
/// console.log(rim.isTrusted);
/// ```
#[wasm_bindgen(js_name = prepareRim)]
pub fn prepare_rim(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] xml: JsValue,
    #[wasm_bindgen(unchecked_param_type = "RimOptions | undefined")] options: JsValue,
) -> Result<PendingRimHandle, JsValue> {
    let (Document(xml), options, now) = rim_inputs(&xml, &options)?;
    let inner = Pending::new(options.prepare(&xml, now).or_js()?, "PendingRim");
    Ok(PendingRimHandle { inner })
}

/// Opens a RIM service response body (`{id, rim, sha256, …}`): checks that it is for the id
/// requested and that the base64 document matches its SHA-256; returns the decoded document
/// (not yet verified: pass `rim` to `verifyRim`).
///
/// @throws EdgeAttestError `ERR_RIM_ENVELOPE_*` (`ERR_RIM_ENVELOPE_JSON`,
/// `ERR_RIM_ENVELOPE_ID_MISMATCH`, `ERR_RIM_ENVELOPE_SHA256_MISMATCH`, …),
/// `ERR_INVALID_ARGUMENT` for arguments of the wrong shape.
///
/// @example
/// ```ts
/// const id = 'NV_GPU_DRIVER_GH100_550.144.03';
/// const response = await fetch(`https://rim.attestation.nvidia.com/v1/rim/${id}`);
/// const envelope = openRimEnvelope(await response.text(), id);
/// const rim = verifyRim(envelope.rim, {});
/// ```
#[wasm_bindgen(js_name = openRimEnvelope, unchecked_return_type = "RimEnvelopeJson")]
pub fn open_rim_envelope(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | object")] body: JsValue,
    #[wasm_bindgen(js_name = expectedId, unchecked_param_type = "string")] expected_id: JsValue,
) -> Result<JsValue, JsValue> {
    let expected_id = args::string_arg(&expected_id, "expectedId")?;
    let body = args::json_bytes(&body, "body")?;
    let mut envelope = rim::open_envelope(&body, &expected_id).or_js()?;
    // The document goes across as bytes, not as a JSON array of numbers.
    let document = core::mem::take(&mut envelope.rim);
    let out = json_to_js(&envelope)?;
    set_bytes(&out, "rim", &document);
    Ok(out)
}

/// The RIM ids a device needs, from its evidence values (`runtimeEvidence`): `{driver,
/// firmware}` (`driver` is null for switches).
///
/// @throws EdgeAttestError `ERR_RIM_ID_*` when the values lack or garble what an id is made
/// of (`ERR_RIM_ID_MISSING_INPUT`, `ERR_RIM_ID_INVALID_INPUT`), `ERR_INVALID_ARGUMENT` for
/// an unknown `arch` or evidence values of the wrong shape.
///
/// @example
/// ```ts
/// declare const evidence: string;
/// const ids = rimIds('HOPPER', runtimeEvidence({ evidence, arch: 'HOPPER' }));
/// console.log(ids.driver, ids.firmware);
/// ```
#[wasm_bindgen(js_name = rimIds, unchecked_return_type = "{ driver: string | null; firmware: string }")]
pub fn rim_ids(
    #[wasm_bindgen(unchecked_param_type = "string")] arch: JsValue,
    #[wasm_bindgen(unchecked_param_type = "RuntimeEvidenceInput")] evidence: JsValue,
) -> Result<JsValue, JsValue> {
    let arch = from_js(&arch, "arch")?;
    json_to_js(&RimIds::of(arch, &runtime_evidence(&evidence)?).or_js()?)
}

/// Compares a GPU's evidence values with its verified driver and firmware RIMs: every
/// active golden measurement against the runtime one, the opaque-data floors, the driver and
/// VBIOS versions. Returns the comparison; a mismatch is reported (`measres: "fail"`), not
/// thrown.
///
/// @throws EdgeAttestError `ERR_RIM_*` when a RIM does not apply to the evidence (e.g.
/// `ERR_RIM_INDEX_CONFLICT`, `ERR_RIM_UNKNOWN_NVDEC0_STATUS`), `ERR_INVALID_ARGUMENT` for
/// evidence values of the wrong shape.
///
/// @example
/// ```ts
/// declare const evidence: string, driverXml: string, vbiosXml: string;
/// const comparison = compareGpuRims(verifyRim(driverXml, {}), verifyRim(vbiosXml, {}), runtimeEvidence({ evidence, arch: 'HOPPER' }));
/// if (comparison.measres !== 'success') console.error(comparison.mismatches);
/// ```
#[wasm_bindgen(js_name = compareGpuRims, unchecked_return_type = "RimComparison")]
pub fn compare_gpu_rims(
    driver: &VerifiedRimHandle,
    firmware: &VerifiedRimHandle,
    #[wasm_bindgen(unchecked_param_type = "RuntimeEvidenceInput")] evidence: JsValue,
) -> Result<JsValue, JsValue> {
    let runtime = runtime_evidence(&evidence)?;
    let (driver, firmware) = (&driver.inner, &firmware.inner);
    let result = driver.compare(|d| firmware.compare(|f| rim::compare_gpu(d, f, &runtime)));
    json_to_js(&result.or_js()?.report())
}

/// Compares a switch's evidence values with its verified BIOS RIM: every active golden
/// measurement against the runtime one, and the BIOS version. A mismatch is reported
/// (`measres: "fail"`), not thrown.
///
/// @throws EdgeAttestError `ERR_RIM_*` when the RIM does not apply to the evidence,
/// `ERR_INVALID_ARGUMENT` for evidence values of the wrong shape.
///
/// @example
/// ```ts
/// declare const evidence: string, biosXml: string;
/// const comparison = compareSwitchRim(verifyRim(biosXml, {}), runtimeEvidence({ evidence, arch: 'LS10' }));
/// console.log(comparison.measres, comparison.firmwareVersion);
/// ```
#[wasm_bindgen(js_name = compareSwitchRim, unchecked_return_type = "RimComparison")]
pub fn compare_switch_rim(
    firmware: &VerifiedRimHandle,
    #[wasm_bindgen(unchecked_param_type = "RuntimeEvidenceInput")] evidence: JsValue,
) -> Result<JsValue, JsValue> {
    let runtime = runtime_evidence(&evidence)?;
    let result = firmware
        .inner
        .compare(|f| rim::compare_switch(f, &runtime));
    json_to_js(&result.or_js()?.report())
}

/// What a RIM document (XML text or bytes) says it is, read from its own `Meta` (its
/// signature not checked): `{kind: "driver" | "firmware", arch, product, version, name}`.
///
/// @throws EdgeAttestError `ERR_RIM_SCHEMA` for a document of neither kind, other `ERR_RIM_*`
/// for XML that does not read (`ERR_RIM_MALFORMED_XML`, `ERR_RIM_TOO_LARGE`, …),
/// `ERR_INVALID_ARGUMENT` for an argument that is not text or bytes.
///
/// @example
/// ```ts
/// declare const xml: string;
/// const { kind, arch, version } = identifyRim(xml);
/// console.log(`${kind} RIM for ${arch ?? 'an unknown chip'}, version ${version}`);
/// ```
#[wasm_bindgen(js_name = identifyRim, unchecked_return_type = "RimIdentity")]
pub fn identify_rim(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] xml: JsValue,
) -> Result<JsValue, JsValue> {
    let Document(xml) = from_js(&xml, "xml")?;
    json_to_js(&rim::identify_rim(&xml).or_js()?)
}

/// The document, the options (absent: the defaults) and `options.now` (default: the clock).
fn rim_inputs(
    xml: &JsValue,
    options: &JsValue,
) -> Result<(Document, RimOptions<Js>, UnixTime), JsValue> {
    let xml = from_js(xml, "xml")?;
    let options: Option<RimOptions<Js>> = members_from_js(options, "options")?;
    let options = options.unwrap_or_default();
    let now = args::clock(options.now.as_ref())?;
    Ok((xml, options, now))
}

fn runtime_evidence(value: &JsValue) -> Result<RuntimeEvidence, JsValue> {
    super::runtime::read(value, "evidence")
}
