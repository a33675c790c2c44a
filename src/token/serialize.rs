//! How verified tokens, results, appraisals and per-token verdicts are written (serde), in the
//! one shape every host reads: the JS API returns exactly these objects, and a Rust caller
//! gets the same JSON from `serde_json`.

use alloc::vec::Vec;

use serde::ser::{SerializeSeq, SerializeStruct, Serializer};
use serde::Serialize;

use super::check::{failure_message, TokenCheck};
use super::{
    Appraisal, AppraisalReason, AttestationReport, DeviceAppraisal, ResultFormat, TokenError,
    VerdictLevel, VerifiedAttestationResult, VerifiedDevice, VerifiedJwt,
};
use crate::error_code::ErrorCode;

/// `"v1"` or `"detached"`.
impl Serialize for ResultFormat {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// `{payload, protectedHeader, kid}`.
impl Serialize for VerifiedJwt {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("VerifiedJwt", 3)?;
        out.serialize_field("payload", self.claims())?;
        out.serialize_field("protectedHeader", self.header())?;
        out.serialize_field("kid", &self.kid())?;
        out.end()
    }
}

/// `{label, digest, payload, protectedHeader, kid}`.
impl Serialize for VerifiedDevice {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let token = self.token();
        let mut out = serializer.serialize_struct("VerifiedDevice", 5)?;
        out.serialize_field("label", self.label())?;
        out.serialize_field("digest", self.digest())?;
        out.serialize_field("payload", token.claims())?;
        out.serialize_field("protectedHeader", token.header())?;
        out.serialize_field("kid", &token.kid())?;
        out.end()
    }
}

/// `{format, overall, devices, overallResult, appraisal, revocationRelaxed}`.
impl Serialize for VerifiedAttestationResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("VerifiedAttestationResult", 6)?;
        out.serialize_field("format", &self.format())?;
        out.serialize_field("overall", self.overall())?;
        out.serialize_field("devices", self.devices())?;
        out.serialize_field("overallResult", &self.overall_result())?;
        out.serialize_field("appraisal", &self.appraisal())?;
        out.serialize_field("revocationRelaxed", &self.revocation_relaxed())?;
        out.end()
    }
}

/// `"forged"`, `"wrong-nonce"`, `"expired"`, `"failed"`, `"passed-with-warnings"`, `"passed"`.
impl Serialize for VerdictLevel {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// `{level, passed, overallResult, revocationConfirmed, devices}`.
impl Serialize for Appraisal {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Appraisal", 5)?;
        out.serialize_field("level", &self.level())?;
        out.serialize_field("passed", &self.passed())?;
        out.serialize_field("overallResult", &self.overall_result())?;
        out.serialize_field("revocationConfirmed", &self.revocation_confirmed())?;
        out.serialize_field("devices", self.devices())?;
        out.end()
    }
}

/// `{label, passed, revocationConfirmed, reasons, warnings}`.
impl Serialize for DeviceAppraisal {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("DeviceAppraisal", 5)?;
        out.serialize_field("label", self.label())?;
        out.serialize_field("passed", &self.passed())?;
        out.serialize_field("revocationConfirmed", &self.revocation_confirmed())?;
        out.serialize_field("reasons", self.reasons())?;
        out.serialize_field("warnings", self.warnings())?;
        out.end()
    }
}

/// `{claim, value, message}`.
impl Serialize for AppraisalReason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("AppraisalReason", 3)?;
        out.serialize_field("claim", self.claim())?;
        out.serialize_field("value", self.value())?;
        out.serialize_field("message", self.message())?;
        out.end()
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
