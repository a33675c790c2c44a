//! Composite EARs: one result for a confidential-computing node, our GPU appraisals beside
//! the appraisal of its CPU TEE made by another verifier (trustee's `cpu0`, …).
//!
//! [`compose_ear`] takes the submodules of an EAR this crate verified or wrote (the GPUs,
//! relabelled when the caller names them as its own verifier does: `gpu0`, …) and the
//! caller's foreign submodules, and returns the claims for the caller to sign with its own key
//! (a JWT: [`Ear::signing_input`]; a CWT: [`Ear::cwt_to_be_signed`]): the status of the whole
//! is the worst of all submodules, `eat_nonce` the caller's challenge. [`verify_composite_ear`]
//! checks such an EAR: the signature and claims as [`super::verify_ear`] /
//! [`super::verify_ear_cwt`] do (the status rule across every submodule, foreign ones read as
//! appraisals), then that the GPU submodules named are present.
//!
//! ## The nonce binding the caller must do
//!
//! A composite EAR is only as good as the binding between its parts: the GPU evidence and the
//! CPU report must answer the same challenge, and the CPU report must commit to the GPU
//! evidence, or a GPU of another machine could be presented beside this CPU. This crate checks
//! the GPU side (the SPDM nonce of each GPU report equals the attestation's nonce); the caller
//! must:
//! 1. derive the GPU nonce from its challenge and the TEE's key, as trustee does:
//!    `nonce = SHA-384(JCS({"nonce": challenge, "tee-pubkey": key}))` truncated to 32 bytes
//!    (trustee's `regularize_data`), and request the GPU attestation with it;
//! 2. have the CPU report's `report_data` commit to the same challenge and to the GPU
//!    evidence (trustee: `SHA-384(JCS({"nonce", "tee-pubkey", "additional-evidence": <the
//!    GPU evidence JSON>}))`, truncated or zero-padded to the report field);
//! 3. verify the CPU report itself (its own verifier) and only then put its appraisal in the
//!    composite, with the challenge as the composite's `eat_nonce`.

use alloc::string::String;
use alloc::vec::Vec;

use super::{shape, Ear, EarAppraisal, EarDialect, EarEncoding, EarError, VerifierId};
use crate::time::UnixTime;
use crate::token::{Jwks, VerifyOptions};

/// Builds a composite EAR (see the module documentation): `gpus` (our verified EAR) with each
/// submodule relabelled by `relabel` (`None` keeps the label), then `foreign`, in the
/// `dialect`, issued at `iat` by `verifier_id` (the composing verifier) with `nonce` (hex:
/// the caller's challenge as its GPU request carried it).
///
/// # Errors
/// [`EarError::Shape`] (`submods`) for a label used twice, none, or more than
/// [`super::MAX_EAR_SUBMODS`]; (`eat_nonce`) for a nonce -04 cannot carry.
pub fn compose_ear(
    gpus: &Ear,
    relabel: &dyn Fn(&str) -> Option<String>,
    foreign: Vec<(String, EarAppraisal)>,
    dialect: EarDialect,
    iat: i64,
    nonce: Option<String>,
    verifier_id: VerifierId,
) -> Result<Ear, EarError> {
    let mut submods: Vec<(String, EarAppraisal)> = gpus
        .submods()
        .iter()
        .map(|(label, appraisal)| {
            let label = relabel(label).unwrap_or_else(|| label.clone());
            (label, appraisal.clone())
        })
        .collect();
    submods.extend(foreign);
    if submods.is_empty() || submods.len() > super::MAX_EAR_SUBMODS {
        return Err(shape("submods", "must hold 1 to 64 submodules"));
    }
    for (at, (label, _)) in submods.iter().enumerate() {
        if submods[..at].iter().any(|(other, _)| other == label) {
            return Err(shape("submods", "labels must be unique"));
        }
    }
    let mut ear = Ear::new(iat, nonce, submods).into_dialect(dialect)?;
    ear.verifier_id = verifier_id;
    Ok(ear)
}

/// Verifies a composite EAR (JWT text or CWT bytes, as `encoding` says) as
/// [`super::verify_ear`] / [`super::verify_ear_cwt`] do, then requires every label of `gpus`
/// among its submodules and at least one other (the foreign part).
///
/// # Errors
/// [`EarError`]; [`EarError::Shape`] as [`check_composite_ear`] says.
pub fn verify_composite_ear(
    token: &[u8],
    encoding: EarEncoding,
    jwks: &Jwks,
    options: &VerifyOptions,
    now: UnixTime,
    gpus: &[&str],
) -> Result<Ear, EarError> {
    let ear = match encoding {
        EarEncoding::Jwt => {
            let text =
                core::str::from_utf8(token).map_err(|_| shape("token", "must be JWT text"))?;
            super::verify_ear(text, jwks, options, now)?
        }
        EarEncoding::Cwt => super::verify_ear_cwt(token, jwks, options, now)?,
    };
    check_composite_ear(&ear, gpus)?;
    Ok(ear)
}

/// The composition rule of [`verify_composite_ear`], for an EAR verified in two phases
/// ([`super::PreparedEar`]): every label of `gpus` among its submodules and at least one
/// other (the foreign part). Without the second, an EAR of GPUs alone would pass for a
/// composite whose CPU appraisal is missing.
///
/// # Errors
/// [`EarError::Shape`]: `submods/<label>` for a GPU label missing, `submods` when nothing
/// besides the GPUs is there.
pub fn check_composite_ear(ear: &Ear, gpus: &[&str]) -> Result<(), EarError> {
    let has = |label: &str| ear.submods().iter().any(|(l, _)| l == label);
    if let Some(missing) = gpus.iter().find(|label| !has(label)) {
        return Err(EarError::Shape {
            field: alloc::format!("submods/{missing}"),
            detail: "is missing: every GPU submodule named must be present",
        });
    }
    let foreign = ear
        .submods()
        .iter()
        .filter(|(label, _)| !gpus.contains(&label.as_str()))
        .count();
    if foreign == 0 {
        return Err(shape("submods", "must hold a submodule besides the GPUs"));
    }
    Ok(())
}
