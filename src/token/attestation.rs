//! Verifying attestation results in two phases, with a verdict for every token: the overall
//! token (signature, claims, `submods`), and each device token (structure, signature,
//! claims, and its binding by digest — every device named both ways, every digest equal).
//! Only a result that passes every check becomes a [`VerifiedAttestationResult`].

use alloc::boxed::Box;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use serde_json::Value;

use super::claims::NonceRule;
use super::format::ResultFormat;
use super::jwks::JwksKey;
use super::jwt::{prepare_pinned, PreparedJwt};
use super::result::AttestationResult;
use super::signer::{pin, PinPlan};
use super::submods::submod_digests;
use super::verified::{VerifiedAttestationResult, VerifiedDevice, VerifiedJwt, OVERALL_CLAIM};
use super::{Appraisal, Jwks, TokenError, VerifyOptions};
use crate::crypto::{Deferred, SignatureCheck};
use crate::ocsp::RevocationPolicy;
use crate::time::UnixTime;

/// The verdict rules, in order: claims that do not read as their version defines them
/// ([`TokenError::ClaimsUnreadable`]), a verdict that is not a pass
/// ([`TokenError::AttestationFailed`], [`TokenError::AttestationResultMissing`]) — both
/// resolved with `allow_failed` — then a pass whose chains are not confirmed `good`
/// ([`TokenError::RevocationUnconfirmed`]), resolved only by the result's revocation policy
/// accepting each such chain (the appraisal reads the result under it).
fn check_verdict(
    mut result: VerifiedAttestationResult,
    allow_failed: bool,
) -> Result<VerifiedAttestationResult, TokenError> {
    let appraisal = Appraisal::of(&result);
    let confirmed = appraisal.revocation_confirmed();
    if appraisal.passed() {
        if appraisal.revocation_accepted() {
            result.revocation_relaxed = !confirmed;
            return Ok(result);
        }
    } else if allow_failed {
        return Ok(result);
    }
    let unreadable = appraisal.first_unreadable().is_some();
    let (appraisal, result) = (Box::new(appraisal), Box::new(result));
    Err(match appraisal.overall_result() {
        _ if unreadable => TokenError::ClaimsUnreadable { appraisal, result },
        _ if appraisal.passed() => TokenError::RevocationUnconfirmed { appraisal, result },
        None => TokenError::AttestationResultMissing { appraisal, result },
        Some(_) => TokenError::AttestationFailed { appraisal, result },
    })
}

/// The verdict on one device token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceVerdict {
    label: String,
    digest: Option<String>,
    outcome: Result<VerifiedJwt, TokenError>,
}

impl DeviceVerdict {
    /// The label.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The `submods` digest that bound the token (lowercase hex), when it matched.
    pub fn digest(&self) -> Option<&str> {
        self.digest.as_deref()
    }

    /// The verified token, or why it failed. A device can only be trusted when the overall
    /// verdict is good too: its binding is checked against the overall token's `submods`.
    pub fn outcome(&self) -> Result<&VerifiedJwt, &TokenError> {
        self.outcome.as_ref()
    }
}

/// Every token's verdict. [`Self::into_verified`] turns it into the proof type, or the first
/// failure in this order: the overall token, `submods`, devices `submods` names but the
/// result lacks, then each device in document order; then the verdict rule
/// ([`VerifyOptions::allow_failed_result`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttestationReport {
    format: ResultFormat,
    allow_failed: bool,
    /// Boxed: the policy is large beside the rest.
    revocation: Box<RevocationPolicy>,
    now: UnixTime,
    overall: Result<VerifiedJwt, TokenError>,
    submods: Result<(), TokenError>,
    devices: Vec<DeviceVerdict>,
}

impl AttestationReport {
    /// V1 or detached.
    pub fn format(&self) -> ResultFormat {
        self.format
    }

    /// The overall token's verdict.
    pub fn overall(&self) -> Result<&VerifiedJwt, &TokenError> {
        self.overall.as_ref()
    }

    /// The verdict on the overall token's `submods` (its members and digest algorithm).
    pub fn submods(&self) -> Result<(), &TokenError> {
        self.submods.as_ref().map(|_| ())
    }

    /// The device verdicts: the result's devices in document order, then any device that
    /// `submods` names and the result lacks ([`TokenError::DeviceMissing`]).
    pub fn devices(&self) -> &[DeviceVerdict] {
        &self.devices
    }

    /// The first token failure, if any (see the type's order). The verdict rule is not a
    /// token failure: [`Self::into_verified`] applies it after.
    pub fn first_error(&self) -> Option<TokenError> {
        if let Err(error) = &self.overall {
            return Some(error.clone());
        }
        if let Err(error) = &self.submods {
            return Some(error.clone());
        }
        let missing = self
            .devices
            .iter()
            .find(|d| matches!(d.outcome, Err(TokenError::DeviceMissing { .. })));
        missing
            .or_else(|| self.devices.iter().find(|d| d.outcome.is_err()))
            .and_then(|device| match &device.outcome {
                Err(
                    error @ (TokenError::DeviceMissing { .. }
                    | TokenError::DeviceUnexpected { .. }
                    | TokenError::DigestMismatch { .. }),
                ) => Some(error.clone()),
                Err(error) => Some(TokenError::Device {
                    label: device.label.clone(),
                    error: Box::new(error.clone()),
                }),
                Ok(_) => None,
            })
    }

    /// The proof type when every token verdict is good, every device token reads as its
    /// claims version defines it, the service's verdict is a pass and every chain is confirmed
    /// `good` — or the caller allowed otherwise ([`VerifyOptions::allow_failed_result`],
    /// [`VerifyOptions::revocation`], [`VerifyOptions::allow_unknown_revocation`]).
    ///
    /// # Errors
    /// The first failure (see [`Self::first_error`]), then [`TokenError::ClaimsUnreadable`],
    /// [`TokenError::AttestationFailed`], [`TokenError::AttestationResultMissing`] or
    /// [`TokenError::RevocationUnconfirmed`].
    pub fn into_verified(self) -> Result<VerifiedAttestationResult, TokenError> {
        if let Some(error) = self.first_error() {
            return Err(error);
        }
        let overall = self.overall?;
        let devices = self
            .devices
            .into_iter()
            .filter_map(|device| match (device.outcome, device.digest) {
                (Ok(token), Some(digest)) => Some(VerifiedDevice {
                    label: device.label,
                    token,
                    digest,
                }),
                _ => None,
            })
            .collect();
        let verified = VerifiedAttestationResult {
            format: self.format,
            overall,
            devices,
            revocation_relaxed: false,
            revocation: self.revocation,
            verified_at: self.now,
        };
        check_verdict(verified, self.allow_failed)
    }
}

/// An attestation result that passed the structural, header, key-selection and pinning
/// checks of its overall token; holds one signature check per well-formed token (overall
/// first, then the devices in document order), then the link checks of each pinned key once
/// (the tokens of a result share one key: its chain is checked once).
#[derive(Clone, Debug)]
pub struct PreparedAttestationResult {
    format: ResultFormat,
    allow_failed: bool,
    /// Boxed: the policy is large beside the rest.
    revocation: Box<RevocationPolicy>,
    now: UnixTime,
    overall: PreparedJwt,
    devices: Vec<PreparedDevice>,
    /// The checks of the overall token and the well-formed device tokens, in that order, then
    /// the link checks of each plan of `plans`, in that order.
    checks: Vec<SignatureCheck>,
    /// The pinned keys' plans, each once.
    plans: Vec<Arc<PinPlan>>,
    /// How many of `checks` are the tokens' own.
    token_checks: usize,
}

/// Each key's pinning, computed once for all the tokens of a result.
type PinOnce = Vec<(Option<String>, Result<Option<Arc<PinPlan>>, TokenError>)>;

#[derive(Clone, Debug)]
struct PreparedDevice {
    label: String,
    token: String,
    prepared: Result<PreparedJwt, TokenError>,
}

/// Phase one of result verification: parse the result, check that it has the shape
/// `options.result_format` names and (detached) at least one device token, then
/// [`super::prepare_jwt`] on the overall token and on each device token. Device tokens use the same options, except that
/// required claims apply to the overall token only and `eat_nonce` is checked only where
/// present (failed devices carry none; they are bound to the overall token by digest). A
/// device token that fails here gets its verdict in the report; it has no signature check.
///
/// # Errors
/// As [`AttestationResult::parse`]; [`TokenError::FormatMismatch`],
/// [`TokenError::NoDevices`]; the overall token's structural errors.
pub fn prepare_attestation_result(
    result: &[u8],
    jwks: &Jwks,
    options: &VerifyOptions,
    now: UnixTime,
) -> Result<PreparedAttestationResult, TokenError> {
    let (format, overall, devices) = AttestationResult::parse(result)?.into_parts();
    if format != options.result_format {
        return Err(TokenError::FormatMismatch {
            expected: options.result_format,
            found: format,
        });
    }
    if format == ResultFormat::Detached && devices.is_empty() {
        return Err(TokenError::NoDevices { field: "result[1]" });
    }
    // A JWKS names each key by a distinct `kid` (or holds one key without): the `kid` is the key.
    let mut pins: PinOnce = Vec::new();
    let mut pin_once = |key: &JwksKey| {
        if let Some((_, plan)) = pins.iter().find(|(kid, _)| kid.as_deref() == key.kid()) {
            return plan.clone();
        }
        let plan = pin(key, &options.signers, now).map(|plan| plan.map(Arc::new));
        pins.push((key.kid().map(String::from), plan.clone()));
        plan
    };
    let overall = prepare_pinned(
        &overall,
        jwks,
        options,
        now,
        NonceRule::Required,
        true,
        &mut pin_once,
    )?;
    let devices = devices
        .into_iter()
        .map(|(label, token)| {
            let prepared = prepare_pinned(
                &token,
                jwks,
                options,
                now,
                NonceRule::IfPresent,
                false,
                &mut pin_once,
            );
            PreparedDevice {
                label,
                token,
                prepared,
            }
        })
        .collect::<Vec<_>>();
    let mut checks: Vec<SignatureCheck> = core::iter::once(overall.signature_check())
        .chain(
            devices
                .iter()
                .filter_map(|d| d.prepared.as_ref().ok())
                .map(PreparedJwt::signature_check),
        )
        .cloned()
        .collect();
    let token_checks = checks.len();
    let plans: Vec<Arc<PinPlan>> = pins
        .into_iter()
        .filter_map(|(_, plan)| plan.ok().flatten())
        .collect();
    for plan in &plans {
        checks.extend(plan.checks.iter().cloned());
    }
    Ok(PreparedAttestationResult {
        format,
        allow_failed: options.allow_failed_result,
        revocation: Box::new(options.revocation_policy()),
        now,
        overall,
        devices,
        checks,
        plans,
        token_checks,
    })
}

impl PreparedAttestationResult {
    /// The signature checks, overall token first, then the well-formed device tokens in
    /// document order, then each pinned key's chain links.
    pub fn signature_checks(&self) -> &[SignatureCheck] {
        &self.checks
    }

    /// Phase two: one verdict per check, in the order of [`Self::signature_checks`].
    ///
    /// # Errors
    /// [`TokenError::VerdictCount`], then the report's first failure
    /// ([`AttestationReport::into_verified`]).
    pub fn finish(self, verdicts: &[bool]) -> Result<VerifiedAttestationResult, TokenError> {
        self.report(verdicts)?.into_verified()
    }

    /// Phase two with a verdict for every token.
    ///
    /// # Errors
    /// [`TokenError::VerdictCount`] when `verdicts` does not have one entry per check.
    pub fn report(self, verdicts: &[bool]) -> Result<AttestationReport, TokenError> {
        let expected = self.signature_checks().len();
        let (Some(overall_valid), true) = (verdicts.first(), verdicts.len() == expected) else {
            return Err(TokenError::VerdictCount {
                expected,
                got: verdicts.len(),
            });
        };
        let (token_verdicts, mut link_verdicts) =
            verdicts.split_at(self.token_checks.min(verdicts.len()));
        // One verdict per pinned key: all its links verified.
        let mut plan_valid = Vec::with_capacity(self.plans.len());
        for plan in &self.plans {
            let (links, rest) = link_verdicts.split_at(plan.checks.len().min(link_verdicts.len()));
            plan_valid.push(links.len() == plan.checks.len() && links.iter().all(|ok| *ok));
            link_verdicts = rest;
        }
        let links_valid = |prepared: &PreparedJwt| {
            prepared.pin().is_none_or(|pin| {
                self.plans
                    .iter()
                    .zip(&plan_valid)
                    .any(|(plan, valid)| Arc::ptr_eq(plan, pin) && *valid)
            })
        };
        let mut device_verdicts = token_verdicts.iter().skip(1);
        let overall_links = links_valid(&self.overall);
        let overall = self
            .overall
            .complete(*overall_valid, overall_links)
            .and_then(|overall| match self.format {
                ResultFormat::V1 => check_v1_token(&overall).map(|()| overall),
                _ => Ok(overall),
            });
        let submods = match (&overall, self.format) {
            (Ok(overall), ResultFormat::Detached) => submod_digests(overall).map(Some),
            _ => Ok(None),
        };
        let mut devices: Vec<DeviceVerdict> = Vec::with_capacity(self.devices.len());
        for device in self.devices {
            let mut digest = None;
            let outcome = match device.prepared {
                Err(error) => Err(error),
                Ok(prepared) => {
                    let valid = device_verdicts.next().copied().unwrap_or(false);
                    let binding = match &submods {
                        Ok(Some(digests)) => {
                            match digests.iter().find(|(label, _)| *label == device.label) {
                                None => Err(TokenError::DeviceUnexpected {
                                    label: device.label.clone(),
                                }),
                                Some((_, expected))
                                    if expected.matches(device.token.as_bytes()) =>
                                {
                                    digest = Some(expected.hex());
                                    Ok(())
                                }
                                Some(_) => Err(TokenError::DigestMismatch {
                                    label: device.label.clone(),
                                }),
                            }
                        }
                        // The overall token or its submods failed: nothing to bind against.
                        _ => Ok(()),
                    };
                    let links = links_valid(&prepared);
                    binding.and_then(|()| prepared.complete(valid, links))
                }
            };
            devices.push(DeviceVerdict {
                label: device.label,
                digest,
                outcome,
            });
        }
        if let Ok(Some(digests)) = &submods {
            for (label, _) in digests {
                if !devices.iter().any(|d| &d.label == label) {
                    devices.push(DeviceVerdict {
                        label: label.clone(),
                        digest: None,
                        outcome: Err(TokenError::DeviceMissing {
                            label: label.clone(),
                        }),
                    });
                }
            }
        }
        Ok(AttestationReport {
            format: self.format,
            allow_failed: self.allow_failed,
            revocation: self.revocation,
            now: self.now,
            overall,
            submods: submods.map(|_| ()),
            devices,
        })
    }

    /// Runs every check with the software backend.
    fn software_verdicts(&self) -> Vec<bool> {
        crate::crypto::software_verdicts(&self.checks)
    }

    /// Runs every check with the software backend, then [`Self::finish`].
    ///
    /// # Errors
    /// As [`Self::finish`].
    pub fn verify(self) -> Result<VerifiedAttestationResult, TokenError> {
        let verdicts = self.software_verdicts();
        self.finish(&verdicts)
    }

    /// Runs every check with the software backend, then [`Self::report`].
    pub fn verify_report(self) -> AttestationReport {
        let verdicts = self.software_verdicts();
        let (revocation, now) = (self.revocation.clone(), self.now);
        match self.report(&verdicts) {
            Ok(report) => report,
            // Unreachable: the verdicts are one per check by construction.
            Err(error) => AttestationReport {
                format: ResultFormat::Detached,
                allow_failed: false,
                revocation,
                now,
                overall: Err(error),
                submods: Ok(()),
                devices: Vec::new(),
            },
        }
    }
}

/// What makes the token of a V1 result a V1 token rather than a part of a detached result
/// re-wrapped as `{"eat": token}`: no `submods` (the overall token of a detached result
/// has them) and the boolean `x-nvidia-overall-att-result` (device tokens lack it; the V1
/// token is a GPU's token that also carries the service's verdict, notes §e).
fn check_v1_token(token: &VerifiedJwt) -> Result<(), TokenError> {
    if token.claim("submods").is_some() {
        return Err(TokenError::V1TokenInvalid { claim: "submods" });
    }
    if !token.claim(OVERALL_CLAIM).is_some_and(Value::is_boolean) {
        return Err(TokenError::V1TokenInvalid {
            claim: "x-nvidia-overall-att-result",
        });
    }
    Ok(())
}

/// Verifies an attestation result (either shape) with the software backend. An authentic
/// result whose verdict is not a pass is refused unless [`VerifyOptions::allow_failed_result`].
///
/// # Errors
/// Any [`TokenError`]; see [`prepare_attestation_result`] and
/// [`PreparedAttestationResult::finish`]; [`TokenError::AttestationFailed`],
/// [`TokenError::AttestationResultMissing`].
pub fn verify_attestation_result(
    result: &[u8],
    jwks: &Jwks,
    options: &VerifyOptions,
    now: UnixTime,
) -> Result<VerifiedAttestationResult, TokenError> {
    prepare_attestation_result(result, jwks, options, now)?.verify()
}

impl Deferred for PreparedAttestationResult {
    type Output = VerifiedAttestationResult;
    type Error = TokenError;

    fn signature_checks(&self) -> &[SignatureCheck] {
        PreparedAttestationResult::signature_checks(self)
    }

    fn finish(self, verdicts: &[bool]) -> Result<VerifiedAttestationResult, TokenError> {
        PreparedAttestationResult::finish(self, verdicts)
    }
}
