//! The overall token of a detached EAT result.

use alloc::string::String;

use serde::Serialize;
use serde_json::{Map, Value};

use super::common::TokenTimes;
use crate::attest::ClaimsVersion;
use crate::cmw::EvidenceForm;

/// Claims of the overall token: the AND of the devices, the nonce and the `submods` digests.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OverallClaims {
    /// `NVIDIA-PLATFORM-ATTESTATION`.
    pub sub: &'static str,
    /// Token times.
    #[serde(flatten)]
    pub times: TokenTimes,
    /// The claims version of the device tokens.
    #[serde(rename = "x-nvidia-ver")]
    pub ver: &'static str,
    /// True when every device passed.
    #[serde(rename = "x-nvidia-overall-att-result")]
    pub overall_result: bool,
    /// The request nonce, lowercase hex.
    pub eat_nonce: String,
    /// Ours, not NVIDIA's: the CMW form the evidence came in (`json-cmw`, `cbor-cmw`).
    /// Absent for plain evidence items, so a plain request's claims are NVIDIA's set
    /// exactly ([`Self::with_evidence_form`]).
    #[serde(
        rename = "x-edgeattest-evidence-form",
        skip_serializing_if = "Option::is_none"
    )]
    pub evidence_form: Option<&'static str>,
}

impl OverallClaims {
    /// The subject of the overall token.
    pub const SUBJECT: &'static str = "NVIDIA-PLATFORM-ATTESTATION";

    /// Builds the overall claims. `submods` — label → `["DIGEST", ["SHA-256", hex]]` of each
    /// device token (RFC 9711 §4.2.18) — is added by the token layer, which digests the
    /// signed device tokens ([`crate::token::create_detached_eat`]).
    pub fn new(
        times: TokenTimes,
        version: ClaimsVersion,
        overall_result: bool,
        eat_nonce: String,
    ) -> Self {
        Self {
            sub: Self::SUBJECT,
            times,
            ver: version.as_str(),
            overall_result,
            eat_nonce,
            evidence_form: None,
        }
    }

    /// States the form the evidence came in: a CMW form sets `x-edgeattest-evidence-form`;
    /// plain evidence leaves it out (absence means plain: the claim set NVIDIA's verifiers
    /// and recorded tokens know stays untouched).
    #[must_use]
    pub fn with_evidence_form(mut self, form: EvidenceForm) -> Self {
        self.evidence_form = match form {
            EvidenceForm::Plain => None,
            cmw => Some(cmw.as_str()),
        };
        self
    }

    /// The claims as a JSON object, ready to sign.
    pub fn to_json(&self) -> Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(map)) => map,
            _ => Map::new(),
        }
    }
}
