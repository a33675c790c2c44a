//! An EAR from verified claims: each device's vector, status and policy.

use alloc::string::String;

use serde_json::{Map, Value};
use sha2::{Digest, Sha384};

use super::{trust_vector, Ear, EarAppraisal, TrustTier};
use crate::policy::{Policy, PolicyDecision};
use crate::token::{DeviceAppraisal, VerifiedAttestationResult};

/// One device's EAR appraisal from its token's claims (see the module documentation):
/// the vector, the status (worst tier, raised for a device NVIDIA's checks failed, one
/// without a verdict, and one that fails the relying-party policy), the policy's id.
/// `policy`: the id of the policy applied and whether the device met it.
pub fn appraise_device(
    label: &str,
    claims: &Map<String, Value>,
    policy: Option<(&str, bool)>,
) -> EarAppraisal {
    let vector = trust_vector(claims);
    let mut status = vector.tier();
    match DeviceAppraisal::from_claims(label, claims).passed() {
        Some(false) => status = TrustTier::Contraindicated,
        None => status = status.max(TrustTier::Warning),
        Some(true) => {}
    }
    if let Some((_, false)) = policy {
        status = TrustTier::Contraindicated;
    }
    EarAppraisal {
        status,
        vector: (!vector.is_empty()).then_some(vector),
        policy_ids: policy.map(|(id, _)| String::from(id)).into_iter().collect(),
    }
}

/// The `ear.appraisal-policy-id` of a JSON policy: a tag URI naming its version and the
/// SHA-384 of its rules as this crate reads them (compact JSON, document order), so two
/// texts that differ only in spacing have one id.
pub fn policy_id(policy: &Policy) -> String {
    let mut digest = Sha384::new();
    digest.update(policy.version().as_str().as_bytes());
    for rules in [Some(policy.overall_rules()), policy.detached_rules()]
        .into_iter()
        .flatten()
    {
        digest.update(b"\n");
        digest.update(crate::json::write::to_vec(rules).unwrap_or_default());
    }
    let hash = digest.finalize();
    alloc::format!(
        "tag:github.com,2026:edgeattest/policy/nv-json/{}#sha384:{}",
        policy.version().as_str(),
        hex::encode(hash.get(..16).unwrap_or_default())
    )
}

impl Ear {
    /// The EAR of a verified result, issued at `iat`: one submodule per device token (a V1
    /// result: its one token, `GPU-0`), `eat_nonce` the overall token's verbatim. With a
    /// relying-party `policy` decision and the policy's id, each device's status accounts
    /// for it (a 1.0 decision's overall rules are the V1 token's, so they count for
    /// `GPU-0`; a 2.0–4.0 decision's overall rules count for every device).
    pub fn from_result(
        result: &VerifiedAttestationResult,
        policy: Option<(&PolicyDecision, &str)>,
        iat: i64,
    ) -> Self {
        let overall_met = policy.is_none_or(|(d, _)| d.overall().iter().all(|r| r.passed()));
        let submods = result
            .device_claims()
            .into_iter()
            .map(|(label, claims)| {
                let verdict = policy.map(|(decision, id)| {
                    let met = decision
                        .devices()
                        .iter()
                        .find(|d| d.label() == label)
                        .is_some_and(|d| d.passed());
                    (id, met && overall_met)
                });
                (String::from(label), appraise_device(label, claims, verdict))
            })
            .collect();
        let nonce = result
            .overall()
            .claims()
            .get("eat_nonce")
            .and_then(Value::as_str)
            .map(String::from);
        Self::new(iat, nonce, submods)
    }
}
