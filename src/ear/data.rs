//! [`EarData`]: what a relying party reads of a verified EAR (`readEar` in JS), in the API's
//! camelCase shape, with the whole result's status beside each submodule's.

use alloc::vec::Vec;

use serde::Serialize;

use super::{Ear, TrustTier, TrustVector, VerifierId};

/// A verified EAT Attestation Result (profile tag:github.com,2023:veraison/ear) as the API
/// returns it.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct EarData<'a> {
    /// The worst submodule status: what the whole result is worth.
    status: TrustTier,
    /// True only when every submodule is "affirming".
    affirming: bool,
    iat: i64,
    /// eat_nonce, verbatim.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    nonce: Option<&'a str>,
    #[cfg_attr(feature = "ts", ts(inline))]
    verifier_id: &'a VerifierId,
    submods: Vec<EarSubmod<'a>>,
}

/// One submodule (device) of an EAR.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct EarSubmod<'a> {
    /// The device label ("GPU-0", "SWITCH-3").
    label: &'a str,
    status: TrustTier,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    trustworthiness_vector: Option<&'a TrustVector>,
    /// The relying-party policy the service applied, when one was.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    appraisal_policy_id: Option<&'a str>,
}

impl Ear {
    /// The EAR as [`EarData`].
    pub fn data(&self) -> EarData<'_> {
        let submods = self.submods().iter().map(|(label, appraisal)| EarSubmod {
            label,
            status: appraisal.status,
            trustworthiness_vector: appraisal.vector.as_ref(),
            appraisal_policy_id: appraisal.policy_id.as_deref(),
        });
        EarData {
            status: self.status(),
            affirming: self.affirming(),
            iat: self.iat(),
            nonce: self.nonce(),
            verifier_id: self.verifier_id(),
            submods: submods.collect(),
        }
    }
}
