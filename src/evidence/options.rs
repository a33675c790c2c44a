//! The options of the evidence entries — `verifyEvidence`, `prepareEvidence`,
//! `evidenceReport` / `prepareEvidenceReport`, `verifyCertificateChain`, `runtimeEvidence` —
//! as one serde type ([`EvidenceOptions`]), and the rules that turn them into the core's
//! plans: which trust store when no anchors are given, which RIM trust, how a revocation
//! status maps, what a missing member is. JS (serde-wasm-bindgen) and Rust (serde_json) read
//! the same type and get the same plans, results and errors.
//!
//! ```
//! # use edgeattest::evidence::{EvidenceOptions, OptionsError};
//! # use edgeattest::UnixTime;
//! let options: EvidenceOptions = serde_json::from_str(r#"{"arch": "HOPPER", "nonce": "zz"}"#)?;
//! let clock = UnixTime::from_secs(1_760_000_000).unwrap();
//! let error = options.batch_plan(UnixTime::given_or::<OptionsError>(clock)).unwrap_err();
//! assert_eq!(edgeattest::ErrorCode::code(&error), "ERR_REQUEST_INVALID_NONCE");
//! # Ok::<(), serde_json::Error>(())
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use serde::Deserialize;

use super::cmw_devices::{certificate_text, device, evidence_bytes, DeviceParts};
// Re-exported here too: the topology entry names the options' error by this path.
pub(crate) use super::options_error::OptionsError;
use super::{
    BatchPlan, DeviceInput, FwidPolicy, ReportPlan, RevocationInput, RimDocuments, Transcript,
    VerifiedEvidence, VerifyContext, VerifyError,
};
use crate::attest::{Arch, EvidenceEncoding, Nonce, RequestError};
use crate::bytes::{Document, TextOrBytes, BYTES_EXPECTED};
use crate::chain::{verify_pem_chain, ChainError, ChainOptions, TimeCheck, TrustStore};
use crate::cmw::{CmwError, EvidenceForm};
use crate::rim::{RimTrust, RuntimeEvidence};
use crate::time::UnixTime;

/// The members of every evidence entry's options, read by one type: each entry uses its own
/// (`devices` only a batch, `rims`, `rimAnchors` and `revocation` only a report,
/// `enforceTime` only a chain), and a member present is type-checked by all. `Now` is how
/// `now` is written: a [`UnixTime`] in JSON; the JS binding keeps the JS value (a number or
/// a `Date`) and reads it with the host clock as default.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EvidenceOptions<Now = UnixTime> {
    nonce: Option<TextOrBytes>,
    arch: Option<String>,
    now: Option<Now>,
    trust_anchors: Option<String>,
    evidence_encoding: Option<String>,
    require_fwid: Option<bool>,
    evidence: Option<TextOrBytes>,
    certificate: Option<String>,
    devices: Option<Vec<DeviceOptions>>,
    rims: Option<RimOptions>,
    rim_anchors: Option<String>,
    firmware_version: Option<String>,
    revocation: Option<RevocationOptions>,
    hwmodel: Option<String>,
    enforce_time: Option<bool>,
}

/// One device of a batch: its transcript and its PEM chain.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeviceOptions {
    evidence: Option<TextOrBytes>,
    certificate: Option<String>,
}

/// The RIM documents of a report, by role.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RimOptions {
    driver: Option<Document>,
    firmware: Option<Document>,
}

/// What the host learnt of the device chain's revocation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RevocationOptions {
    status: Option<String>,
    message: Option<String>,
    /// The warnings of a chain `good` under a revocation rule (`checkOcspResponses`'s
    /// `warnings`): the report shows them.
    warnings: Option<Vec<String>>,
}

/// The options every verification shares, checked.
struct Checked {
    nonce: Nonce,
    arch: Arch,
    now: UnixTime,
    encoding: Option<EvidenceEncoding>,
    fwid_policy: FwidPolicy,
}

impl Checked {
    fn context<'s>(&self, trust_store: &'s TrustStore) -> VerifyContext<'s> {
        VerifyContext {
            arch: self.arch,
            nonce: self.nonce,
            now: self.now,
            trust_store,
            chain_options: ChainOptions::default(),
            fwid_policy: self.fwid_policy,
        }
    }
}

impl<Now> EvidenceOptions<Now> {
    /// The one device (`evidence`, `certificate`) as a plan ([`BatchPlan::verify`] or JS's
    /// verdicts complete it). `clock` reads `now` (see [`UnixTime::given_or`]).
    ///
    /// # Errors
    /// The first option that cannot be used, in the order nonce, arch, now,
    /// evidenceEncoding, evidence, certificate, trustAnchors.
    pub fn device_plan<E: From<OptionsError>>(
        &self,
        clock: impl FnOnce(Option<&Now>) -> Result<UnixTime, E>,
    ) -> Result<BatchPlan, E> {
        let checked = self.checked(clock)?;
        let device = self.one_device(&checked)?;
        let store = trust_store(self.trust_anchors.as_deref())?;
        Ok(BatchPlan::new(&[device.input()], &checked.context(&store))
            .with_forms(alloc::vec![device.form]))
    }

    /// The one device verified with the software backend (`verifyEvidence`).
    ///
    /// # Errors
    /// As [`Self::device_plan`]; the device's own failure is the inner `Err`.
    pub fn verify_evidence<E: From<OptionsError>>(
        &self,
        clock: impl FnOnce(Option<&Now>) -> Result<UnixTime, E>,
    ) -> Result<Result<VerifiedEvidence, VerifyError>, E> {
        Ok(self
            .device_plan(clock)?
            .verify()
            .into_iter()
            .next()
            .unwrap_or(Err(VerifyError::Signature)))
    }

    /// Every device of `devices` as one plan (`prepareEvidence`); without `devices`, the
    /// devices of a CMW in `evidence`.
    ///
    /// # Errors
    /// As [`Self::device_plan`], `devices` missing, or a device's member (`devices[1].evidence`).
    pub fn batch_plan<E: From<OptionsError>>(
        &self,
        clock: impl FnOnce(Option<&Now>) -> Result<UnixTime, E>,
    ) -> Result<BatchPlan, E> {
        let checked = self.checked(clock)?;
        let owned = match (&self.devices, &self.evidence) {
            (Some(devices), _) => {
                let mut owned = Vec::new();
                for (i, d) in devices.iter().enumerate() {
                    let prefix = alloc::format!("devices[{i}].");
                    owned.extend(device(
                        &d.evidence,
                        &d.certificate,
                        &prefix,
                        checked.encoding,
                        &checked.nonce,
                    )?);
                }
                owned
            }
            // A CMW brings the devices of a batch in one member; a plain transcript there
            // is still a missing `devices`.
            (None, Some(_)) => match device(
                &self.evidence,
                &self.certificate,
                "",
                checked.encoding,
                &checked.nonce,
            ) {
                Ok(devices) if devices.iter().all(|d| d.form != EvidenceForm::Plain) => devices,
                Err(error @ OptionsError::Cmw(_)) => return Err(error.into()),
                _ => return Err(OptionsError::invalid("devices", "an array").into()),
            },
            (None, None) => return Err(OptionsError::invalid("devices", "an array").into()),
        };
        let inputs: Vec<DeviceInput<'_>> = owned.iter().map(DeviceParts::input).collect();
        let store = trust_store(self.trust_anchors.as_deref())?;
        Ok(BatchPlan::new(&inputs, &checked.context(&store))
            .with_forms(owned.iter().map(|d| d.form).collect()))
    }

    /// The device with its RIMs and revocation as a report plan (`evidenceReport`): RIMs
    /// judged by `rimAnchors`, NVIDIA's RIM root by default; revocation not checked unless
    /// given, its `status` mapped by [`RevocationInput::from_status`].
    ///
    /// # Errors
    /// As [`Self::device_plan`] (anchors last), `rimAnchors` unreadable, `revocation.status`
    /// missing.
    pub fn report_plan<E: From<OptionsError>>(
        &self,
        clock: impl FnOnce(Option<&Now>) -> Result<UnixTime, E>,
    ) -> Result<ReportPlan, E> {
        let checked = self.checked(clock)?;
        let device = self.one_device(&checked)?;
        let rim_trust = match &self.rim_anchors {
            Some(pem) => RimTrust::from_pem(pem).map_err(OptionsError::Rim)?,
            None => RimTrust::nvidia(),
        };
        let revocation = match &self.revocation {
            None => RevocationInput::NotChecked,
            Some(RevocationOptions {
                status,
                message,
                warnings,
            }) => {
                let status = status
                    .as_deref()
                    .ok_or_else(|| OptionsError::invalid("revocation.status", "a string"))?;
                match (
                    RevocationInput::from_status(status, message.clone()),
                    warnings,
                ) {
                    (RevocationInput::Good, Some(warnings)) if !warnings.is_empty() => {
                        RevocationInput::Relaxed(warnings.clone())
                    }
                    (input, _) => input,
                }
            }
        };
        let store = trust_store(self.trust_anchors.as_deref())?;
        let rims = self.rims.as_ref();
        Ok(ReportPlan::new(
            device.input(),
            &checked.context(&store),
            RimDocuments {
                driver: rims.and_then(|r| r.driver.as_ref()).map(|d| d.0.as_slice()),
                firmware: rims
                    .and_then(|r| r.firmware.as_ref())
                    .map(|d| d.0.as_slice()),
            },
            &rim_trust,
            self.firmware_version
                .clone()
                .or(device.firmware_version.clone()),
            revocation,
        )
        .with_form(device.form))
    }

    /// `certificate` (PEM, or base64 of PEM) validated to `trustAnchors` (the NVIDIA Device
    /// Identity CA by default) at `now`; validity dates enforced only with `enforceTime`.
    ///
    /// # Errors
    /// `certificate` missing or unreadable, `now`, `trustAnchors`; the chain's own failure is
    /// the inner `Err`.
    pub fn verify_certificate_chain<E: From<OptionsError>>(
        &self,
        clock: impl FnOnce(Option<&Now>) -> Result<UnixTime, E>,
    ) -> Result<Result<super::CertificateChainReport, ChainError>, E> {
        let text = self
            .certificate
            .as_deref()
            .ok_or_else(|| OptionsError::invalid("certificate", "a string"))?;
        let pem = certificate_text(text)?;
        let now = clock(self.now.as_ref())?;
        let store = trust_store(self.trust_anchors.as_deref())?;
        let time = if self.enforce_time == Some(true) {
            TimeCheck::Enforce
        } else {
            TimeCheck::Report
        };
        let options = ChainOptions::default().with_time(time);
        Ok(verify_pem_chain(&pem, &store, now, &options)
            .map(|chain| super::CertificateChainReport::new(&chain)))
    }

    /// The values of the transcript that RIM ids and comparison take (`runtimeEvidence`),
    /// parsed but not verified, with `hwmodel` and `firmwareVersion` as given.
    ///
    /// # Errors
    /// `evidenceEncoding`, `evidence`, `arch`, then the transcript's parse error.
    pub fn runtime_evidence(&self) -> Result<RuntimeEvidence, OptionsError> {
        let encoding = encoding(self.evidence_encoding.as_deref())?;
        let bytes = evidence_bytes(self.evidence.as_ref(), encoding, "evidence")?;
        let arch = arch(self.arch.as_deref())?;
        let transcript = Transcript::parse(&bytes).map_err(OptionsError::Parse)?;
        Ok(RuntimeEvidence::from_transcript(
            &transcript,
            arch.device_kind(),
            self.hwmodel.clone(),
            self.firmware_version.clone(),
        ))
    }

    /// The one device of `evidence` (and `certificate`): a CMW of several is refused.
    fn one_device(&self, checked: &Checked) -> Result<DeviceParts, OptionsError> {
        let mut devices = device(
            &self.evidence,
            &self.certificate,
            "",
            checked.encoding,
            &checked.nonce,
        )?;
        match devices.len() {
            1 => Ok(devices.remove(0)),
            count => Err(OptionsError::Cmw(CmwError::DeviceCount { count })),
        }
    }

    fn checked<E: From<OptionsError>>(
        &self,
        clock: impl FnOnce(Option<&Now>) -> Result<UnixTime, E>,
    ) -> Result<Checked, E> {
        let nonce = nonce(self.nonce.as_ref())?;
        let arch = arch(self.arch.as_deref())?;
        let now = clock(self.now.as_ref())?;
        Ok(Checked {
            nonce,
            arch,
            now,
            encoding: encoding(self.evidence_encoding.as_deref())?,
            fwid_policy: if self.require_fwid == Some(true) {
                FwidPolicy::Require
            } else {
                FwidPolicy::AsNvidia
            },
        })
    }
}

/// `nonce`: 64 hex characters (read by [`Nonce::parse`], with its own code) or 32 bytes.
fn nonce(value: Option<&TextOrBytes>) -> Result<Nonce, OptionsError> {
    match value {
        Some(TextOrBytes::Text(text)) => Nonce::parse(text)
            .map_err(|problem| OptionsError::Request(RequestError::InvalidNonce { problem })),
        Some(TextOrBytes::Bytes(bytes)) => <[u8; Nonce::LEN]>::try_from(bytes.as_slice())
            .map(Nonce::from_bytes)
            .map_err(|_| OptionsError::invalid("nonce", "64 hex characters or 32 bytes")),
        Some(TextOrBytes::NotBytes) => Err(OptionsError::invalid(
            "nonce",
            "an array of bytes (0 to 255)",
        )),
        None => Err(OptionsError::invalid("nonce", BYTES_EXPECTED)),
    }
}

/// A required `arch`, by its wire name.
fn arch(text: Option<&str>) -> Result<Arch, OptionsError> {
    let text = text.ok_or_else(|| OptionsError::invalid("arch", "a string"))?;
    Arch::parse(text).ok_or_else(|| OptionsError::invalid("arch", &Arch::expected()))
}

/// An optional `evidenceEncoding`, by its name.
fn encoding(name: Option<&str>) -> Result<Option<EvidenceEncoding>, OptionsError> {
    name.map(|name| {
        EvidenceEncoding::parse(name).ok_or_else(|| {
            OptionsError::invalid("evidenceEncoding", "\"base64\", \"base64-hex\" or \"hex\"")
        })
    })
    .transpose()
}

/// The device chains' anchors: the PEM given, else the NVIDIA Device Identity CA.
fn trust_store(anchors: Option<&str>) -> Result<TrustStore, OptionsError> {
    match anchors {
        Some(pem) => TrustStore::from_pem(pem),
        None => TrustStore::nvidia_device_identity(),
    }
    .map_err(OptionsError::Chain)
}
