//! How verified tokens, results, appraisals and per-token verdicts are written (serde), in the
//! one shape every host reads: the JS API returns exactly these objects, and a Rust caller
//! gets the same JSON from `serde_json`. The results are written through derived mirrors
//! (`…Json`), whose TypeScript the `ts` feature generates.

use alloc::string::String;
use alloc::vec::Vec;

use serde::ser::{SerializeSeq, SerializeStruct, Serializer};
use serde::Serialize;
use serde_json::{Map, Value};

use super::check::{failure_message, TokenCheck};
use super::signer::{SignerCertificate, VerifiedSigner};
use super::{
    Appraisal, AppraisalReason, AttestationReport, DeviceAppraisal, ResultFormat, TokenError,
    VerdictLevel, VerifiedAttestationResult, VerifiedDevice, VerifiedJwt,
};
use crate::cmw::EvidenceForm;
use crate::error_code::ErrorCode;

/// `"v1"` or `"detached"`.
impl Serialize for ResultFormat {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// `"forged"`, `"wrong-nonce"`, `"expired"`, `"failed"`, `"passed-with-warnings"`, `"passed"`.
impl Serialize for VerdictLevel {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// A verified JWT as written (the JS `VerifiedJwtResult`).
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "VerifiedJwtResult"))]
#[serde(rename_all = "camelCase")]
pub struct VerifiedJwtJson<'a> {
    #[cfg_attr(feature = "ts", ts(type = "Record<string, unknown>"))]
    payload: &'a Map<String, Value>,
    #[cfg_attr(feature = "ts", ts(type = "Record<string, unknown>"))]
    protected_header: &'a Map<String, Value>,
    kid: Option<&'a str>,
    /// Who signed it.
    #[cfg_attr(feature = "ts", ts(as = "VerifiedSignerJson<'static>"))]
    signer: VerifiedSignerJson<'a>,
}

impl<'a> From<&'a VerifiedJwt> for VerifiedJwtJson<'a> {
    fn from(jwt: &'a VerifiedJwt) -> Self {
        Self {
            payload: jwt.claims(),
            protected_header: jwt.header(),
            kid: jwt.kid(),
            signer: jwt.signer().into(),
        }
    }
}

/// Who signed a token, as written (the JS `VerifiedSigner`): `{pinned: false}` under
/// `signers: 'any'`, else the anchor reached (`spkiSha256:<hex>` or
/// `certificate:<subject>`), the path leaf first, and the key's `kid`.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "VerifiedSigner"))]
#[serde(rename_all = "camelCase")]
pub struct VerifiedSignerJson<'a> {
    /// Whether the key's `x5c` chain was validated to an anchor.
    pinned: bool,
    /// The anchor reached (pinned only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    anchor: Option<&'a str>,
    /// The path, leaf first (pinned only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, as = "Option<Vec<SignerCertificate>>"))]
    chain: Option<&'a [SignerCertificate]>,
    /// The key's `kid` (pinned only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "string | null"))]
    kid: Option<Option<&'a str>>,
}

impl<'a> From<&'a VerifiedSigner> for VerifiedSignerJson<'a> {
    fn from(signer: &'a VerifiedSigner) -> Self {
        let pinned = signer.pinned();
        Self {
            pinned: pinned.is_some(),
            anchor: pinned.map(|p| p.anchor()),
            chain: pinned.map(|p| p.chain()),
            kid: pinned.map(|p| p.kid()),
        }
    }
}

impl Serialize for VerifiedSigner {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        VerifiedSignerJson::from(self).serialize(serializer)
    }
}

impl Serialize for VerifiedJwt {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        VerifiedJwtJson::from(self).serialize(serializer)
    }
}

/// A verified device of a detached result as written (the JS `VerifiedDeviceResult`).
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "VerifiedDeviceResult"))]
#[serde(rename_all = "camelCase")]
pub struct VerifiedDeviceJson<'a> {
    label: &'a str,
    digest: &'a str,
    /// The device token's claims: one of the service's claim sets, or unknown claims.
    #[cfg_attr(feature = "ts", ts(type = "DeviceClaims"))]
    payload: &'a Map<String, Value>,
    #[cfg_attr(feature = "ts", ts(type = "Record<string, unknown>"))]
    protected_header: &'a Map<String, Value>,
    kid: Option<&'a str>,
    /// Who signed the device token.
    #[cfg_attr(feature = "ts", ts(as = "VerifiedSignerJson<'static>"))]
    signer: VerifiedSignerJson<'a>,
}

impl<'a> From<&'a VerifiedDevice> for VerifiedDeviceJson<'a> {
    fn from(device: &'a VerifiedDevice) -> Self {
        let token = device.token();
        Self {
            label: device.label(),
            digest: device.digest(),
            payload: token.claims(),
            protected_header: token.header(),
            kid: token.kid(),
            signer: token.signer().into(),
        }
    }
}

impl Serialize for VerifiedDevice {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        VerifiedDeviceJson::from(self).serialize(serializer)
    }
}

/// A verified attestation result as written (the JS `VerifiedAttestationResultData`).
#[derive(Serialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(rename = "VerifiedAttestationResultData")
)]
#[serde(rename_all = "camelCase")]
pub struct VerifiedAttestationResultJson<'a> {
    #[cfg_attr(feature = "ts", ts(inline))]
    format: ResultFormat,
    /// The overall token (V1: the GPU's single token).
    #[cfg_attr(
        feature = "ts",
        ts(type = "VerifiedJwtResult & { payload: OverallTokenClaims }")
    )]
    overall: &'a VerifiedJwt,
    /// Empty for V1 (its one token is the GPU's); never empty for a detached result.
    #[cfg_attr(feature = "ts", ts(as = "Vec<VerifiedDeviceJson<'static>>"))]
    devices: &'a [VerifiedDevice],
    /// The service's `x-nvidia-overall-att-result`; always a boolean for V1.
    overall_result: Option<bool>,
    /// The form the evidence came in, from the overall token's `x-edgeattest-evidence-form`:
    /// `plain` when absent, null when it names a form this version does not know.
    #[cfg_attr(
        feature = "ts",
        ts(type = "\"plain\" | \"json-cmw\" | \"cbor-cmw\" | null")
    )]
    evidence_form: Option<&'static str>,
    /// Why the result passed or failed, per device.
    #[cfg_attr(feature = "ts", ts(as = "AppraisalJson<'static>"))]
    appraisal: Appraisal,
    /// True when the result passed but was accepted only because the revocation policy
    /// (`revocation`, or `allowUnknownRevocation`) accepted chains not confirmed good; the
    /// appraisal's device warnings name each chain and the rule member.
    revocation_relaxed: bool,
    /// Who signed the result (its overall token).
    #[cfg_attr(feature = "ts", ts(as = "VerifiedSignerJson<'static>"))]
    signer: VerifiedSignerJson<'a>,
}

impl<'a> From<&'a VerifiedAttestationResult> for VerifiedAttestationResultJson<'a> {
    fn from(result: &'a VerifiedAttestationResult) -> Self {
        Self {
            format: result.format(),
            overall: result.overall(),
            devices: result.devices(),
            overall_result: result.overall_result(),
            evidence_form: result.evidence_form().map(EvidenceForm::as_str),
            appraisal: result.appraisal(),
            revocation_relaxed: result.revocation_relaxed(),
            signer: result.signer().into(),
        }
    }
}

impl Serialize for VerifiedAttestationResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        VerifiedAttestationResultJson::from(self).serialize(serializer)
    }
}

/// What a verified attestation result says, as written (the JS `Appraisal`): the service's
/// verdict and each device's.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "Appraisal"))]
#[serde(rename_all = "camelCase")]
pub struct AppraisalJson<'a> {
    /// "failed", "passed-with-warnings" (a device carries warnings) or "passed".
    level: VerdictLevel,
    /// True only when `overallResult` is true and no device says it failed.
    passed: bool,
    /// The service's `x-nvidia-overall-att-result`, null when absent.
    overall_result: Option<bool>,
    /// True when every device confirms its chains good.
    revocation_confirmed: bool,
    #[cfg_attr(feature = "ts", ts(as = "Vec<DeviceAppraisalJson<'static>>"))]
    devices: &'a [DeviceAppraisal],
}

impl<'a> From<&'a Appraisal> for AppraisalJson<'a> {
    fn from(appraisal: &'a Appraisal) -> Self {
        Self {
            level: appraisal.level(),
            passed: appraisal.passed(),
            overall_result: appraisal.overall_result(),
            revocation_confirmed: appraisal.revocation_confirmed(),
            devices: appraisal.devices(),
        }
    }
}

impl Serialize for Appraisal {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        AppraisalJson::from(self).serialize(serializer)
    }
}

/// One device's appraisal, as written (the JS `DeviceAppraisal`).
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "DeviceAppraisal"))]
#[serde(rename_all = "camelCase")]
pub struct DeviceAppraisalJson<'a> {
    /// The device label ("GPU-0"; a V1 result's one GPU is "GPU-0").
    label: &'a str,
    /// false when a claim says a check failed, true when `measres` says success and nothing
    /// failed, null when the token says neither.
    passed: Option<bool>,
    /// The token confirms every certificate chain it names good (claims 3.0/4.0: each chain
    /// object `valid` and OCSP `good`; 1.0/2.0: the chains validated and no "not checked"
    /// warning).
    revocation_confirmed: bool,
    /// Why it failed, most decisive first (the service's error, the evidence, the RIMs, the
    /// measurement comparison, the platform state).
    #[cfg_attr(feature = "ts", ts(as = "Vec<AppraisalReasonJson<'static>>"))]
    reasons: &'a [AppraisalReason],
    /// What a pass of this device does not prove: each part of the service's
    /// `x-nvidia-attestation-warning`, and revocation not confirmed good.
    warnings: &'a [String],
}

impl<'a> From<&'a DeviceAppraisal> for DeviceAppraisalJson<'a> {
    fn from(device: &'a DeviceAppraisal) -> Self {
        Self {
            label: device.label(),
            passed: device.passed(),
            revocation_confirmed: device.revocation_confirmed(),
            reasons: device.reasons(),
            warnings: device.warnings(),
        }
    }
}

impl Serialize for DeviceAppraisal {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        DeviceAppraisalJson::from(self).serialize(serializer)
    }
}

/// One reason a device failed, as written (the JS `AppraisalReason`): the claim, its value,
/// and what it means as a sentence.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "AppraisalReason"))]
pub struct AppraisalReasonJson<'a> {
    claim: &'a str,
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    value: &'a Value,
    message: &'a str,
}

impl<'a> From<&'a AppraisalReason> for AppraisalReasonJson<'a> {
    fn from(reason: &'a AppraisalReason) -> Self {
        Self {
            claim: reason.claim(),
            value: reason.value(),
            message: reason.message(),
        }
    }
}

impl Serialize for AppraisalReason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        AppraisalReasonJson::from(self).serialize(serializer)
    }
}

/// Every token's verdict, the overall token first (label `null`), then each device:
/// `[{label, verified, code, field, stage, message, held, digest, payload}]` (`code`/`field`
/// of the failure, the check it failed and why in words, the checks that held before it, the
/// claims when verified).
impl Serialize for AttestationReport {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_seq(Some(1 + self.devices().len()))?;
        out.serialize_element(&TokenVerdict(None, None, self.overall()))?;
        for device in self.devices() {
            let verdict = TokenVerdict(Some(device.label()), device.digest(), device.outcome());
            out.serialize_element(&verdict)?;
        }
        out.end()
    }
}

/// One token's verdict: its label, its digest, and the outcome.
struct TokenVerdict<'a>(
    Option<&'a str>,
    Option<&'a str>,
    Result<&'a VerifiedJwt, &'a TokenError>,
);

impl Serialize for TokenVerdict<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Self(label, digest, outcome) = self;
        let error = outcome.err();
        let mut out = serializer.serialize_struct("TokenVerdict", 9)?;
        out.serialize_field("label", label)?;
        out.serialize_field("verified", &outcome.is_ok())?;
        out.serialize_field("code", &error.map(ErrorCode::code))?;
        out.serialize_field("field", &error.and_then(ErrorCode::field))?;
        let check = error.map(TokenCheck::of);
        out.serialize_field("stage", &check.map(TokenCheck::as_str))?;
        out.serialize_field("message", &error.map(failure_message))?;
        let held: Vec<&str> = TokenCheck::held(check).collect();
        out.serialize_field("held", &held)?;
        out.serialize_field("digest", digest)?;
        out.serialize_field("payload", &outcome.ok().map(VerifiedJwt::claims))?;
        out.end()
    }
}
