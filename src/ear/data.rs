//! [`EarData`]: what a relying party reads of a verified EAR (`readEar` / `verifyEar` in JS),
//! in the API's camelCase shape, with the whole result's status beside each submodule's and
//! the dialect and encoding it was read in.

use alloc::vec::Vec;

use serde::Serialize;

use super::{Ear, EarEncoding, TrustTier, TrustVector, VerifierId};

/// A verified EAT Attestation Result (either dialect, either encoding) as the API returns it.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct EarData<'a> {
    /// The dialect read: "veraison" (tag:github.com,2023:veraison/ear) or "ietf-04"
    /// (tag:ietf.org,2026:rats/ear#04).
    #[cfg_attr(feature = "ts", ts(type = "'veraison' | 'ietf-04'"))]
    dialect: &'static str,
    /// The encoding read: "jwt" or "cwt".
    #[cfg_attr(feature = "ts", ts(type = "'jwt' | 'cwt'"))]
    encoding: &'static str,
    /// eat_profile.
    profile: &'static str,
    /// The worst submodule status: what the whole result is worth.
    status: TrustTier,
    /// True only when every submodule is "affirming".
    affirming: bool,
    iat: i64,
    /// exp, when the EAR carries one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    exp: Option<i64>,
    /// eat_nonce: the veraison dialect's verbatim, the -04 dialect's bytes as lower-case hex.
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
    /// The relying-party policy the service applied, when one was (the first of
    /// appraisalPolicyIds).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    appraisal_policy_id: Option<&'a str>,
    /// Every appraisal policy applied, in order (empty when none was).
    appraisal_policy_ids: &'a [alloc::string::String],
}

impl Ear {
    /// The EAR as [`EarData`], read in `encoding`.
    pub fn data(&self, encoding: EarEncoding) -> EarData<'_> {
        let submods = self.submods().iter().map(|(label, appraisal)| EarSubmod {
            label,
            status: appraisal.status,
            trustworthiness_vector: appraisal.vector.as_ref(),
            appraisal_policy_id: appraisal
                .policy_ids
                .first()
                .map(alloc::string::String::as_str),
            appraisal_policy_ids: &appraisal.policy_ids,
        });
        EarData {
            dialect: self.dialect().as_str(),
            encoding: encoding.as_str(),
            profile: self.dialect().profile(),
            status: self.status(),
            affirming: self.affirming(),
            iat: self.iat(),
            exp: self.exp(),
            nonce: self.nonce(),
            verifier_id: self.verifier_id(),
            submods: submods.collect(),
        }
    }
}
