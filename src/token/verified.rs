//! What verification proves: a verified JWT and a verified attestation result with its
//! devices. Only verification (`jwt.rs`, `attestation.rs`) builds them; the errors that refuse
//! a verdict carry the verified result, so these shapes sit below the errors.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::format::ResultFormat;
use super::signer::VerifiedSigner;
use crate::cmw::EvidenceForm;
use crate::ocsp::RevocationPolicy;
use crate::time::UnixTime;

/// The verdict claim of the overall token (and of the V1 single token).
pub(crate) const OVERALL_CLAIM: &str = "x-nvidia-overall-att-result";

/// This crate's claim of the overall token naming the CMW form the evidence came in
/// (`json-cmw`, `cbor-cmw`); absent when the evidence was plain items.
pub(crate) const EVIDENCE_FORM_CLAIM: &str = "x-edgeattest-evidence-form";

/// The label given to the one device of a V1 result (its token is a GPU's own token).
pub(crate) const V1_DEVICE_LABEL: &str = "GPU-0";

/// A JWT whose signature and claims were verified. Only verification builds one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedJwt {
    pub(super) header: Map<String, Value>,
    pub(super) claims: Map<String, Value>,
    pub(super) kid: Option<String>,
    pub(super) signer: VerifiedSigner,
}

impl VerifiedJwt {
    /// The protected header.
    pub fn header(&self) -> &Map<String, Value> {
        &self.header
    }

    /// The claims set.
    pub fn claims(&self) -> &Map<String, Value> {
        &self.claims
    }

    /// The `kid` of the key that verified it.
    pub fn kid(&self) -> Option<&str> {
        self.kid.as_deref()
    }

    /// Who signed it: the pinned signer, or [`VerifiedSigner::Unpinned`] under
    /// [`super::Signers::Any`].
    pub fn signer(&self) -> &VerifiedSigner {
        &self.signer
    }

    /// One claim.
    pub fn claim(&self, name: &str) -> Option<&Value> {
        self.claims.get(name)
    }
}

/// One device of a verified result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedDevice {
    pub(super) label: String,
    pub(super) token: VerifiedJwt,
    pub(super) digest: String,
}

impl VerifiedDevice {
    /// The label (`GPU-0`).
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The verified device token.
    pub fn token(&self) -> &VerifiedJwt {
        &self.token
    }

    /// The `submods` digest that bound it, lowercase hex.
    pub fn digest(&self) -> &str {
        &self.digest
    }
}

/// An attestation result whose every signature, digest, device and claim check passed.
/// Only verification builds one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedAttestationResult {
    pub(super) format: ResultFormat,
    pub(super) overall: VerifiedJwt,
    pub(super) devices: Vec<VerifiedDevice>,
    pub(super) revocation_relaxed: bool,
    /// The revocation policy it was verified under.
    pub(super) revocation: Box<RevocationPolicy>,
    /// The verification time.
    pub(super) verified_at: UnixTime,
}

impl VerifiedAttestationResult {
    /// V1 or detached.
    pub fn format(&self) -> ResultFormat {
        self.format
    }

    /// The overall token (V1: the only token).
    pub fn overall(&self) -> &VerifiedJwt {
        &self.overall
    }

    /// Who signed the overall token (every token of a result verified under the same
    /// signers; a device signed by another key reports its own, [`VerifiedJwt::signer`]).
    pub fn signer(&self) -> &VerifiedSigner {
        self.overall.signer()
    }

    /// The devices in document order (empty for V1).
    pub fn devices(&self) -> &[VerifiedDevice] {
        &self.devices
    }

    /// Each device's label and token claims, in order; a V1 result's one token is its GPU's,
    /// labelled `GPU-0` (the appraisal, the EAR and the Rego input read devices this way).
    pub(crate) fn device_claims(&self) -> Vec<(&str, &serde_json::Map<String, Value>)> {
        match self.format {
            ResultFormat::V1 => alloc::vec![(V1_DEVICE_LABEL, self.overall.claims())],
            ResultFormat::Detached => self
                .devices
                .iter()
                .map(|device| (device.label(), device.token().claims()))
                .collect(),
        }
    }

    /// The device with `label`.
    pub fn device(&self, label: &str) -> Option<&VerifiedDevice> {
        self.devices.iter().find(|d| d.label == label)
    }

    /// The service's verdict, `x-nvidia-overall-att-result`, when the overall token has it
    /// (a V1 token always does). Never `true` for a detached result without devices
    /// (verification refuses one with [`super::TokenError::NoDevices`]; this guards the
    /// proof type).
    pub fn overall_result(&self) -> Option<bool> {
        let verdict = self.overall.claim(OVERALL_CLAIM).and_then(Value::as_bool)?;
        let vacuous = self.format == ResultFormat::Detached && self.devices.is_empty();
        Some(verdict && !vacuous)
    }

    /// The form the evidence came in, as the overall token states it
    /// (`x-edgeattest-evidence-form`): [`EvidenceForm::Plain`] when the claim is absent (what
    /// NVIDIA's service and a V1 result always give), `None` when it names a form this crate
    /// does not know or is not a string.
    pub fn evidence_form(&self) -> Option<EvidenceForm> {
        match self.overall.claim(EVIDENCE_FORM_CLAIM) {
            None => Some(EvidenceForm::Plain),
            Some(value) => value.as_str().and_then(EvidenceForm::from_name),
        }
    }

    /// True when the result passed but was accepted only because the caller's revocation
    /// policy accepted chains not confirmed `good` ([`super::VerifyOptions::revocation`],
    /// [`super::VerifyOptions::allow_unknown_revocation`]); the appraisal's warnings say which
    /// chain and why.
    pub fn revocation_relaxed(&self) -> bool {
        self.revocation_relaxed
    }
}
