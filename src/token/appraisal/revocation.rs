//! The relying party's revocation policy over a device token's certificate chains: what each
//! chain says about its revocation, and whether the caller's [`RevocationPolicy`] accepts it.
//!
//! Chains and their components: `…-attestation-report-cert-chain` is the device chain (the
//! switch chain when the claim starts `x-nvidia-switch`), `…-driver-rim-cert-chain` the driver
//! RIM chain, `…-vbios-rim-cert-chain` / `…-bios-rim-cert-chain` the VBIOS RIM chain (claims
//! 1.0/2.0: the `…-cert-chain-validated` / `…-rim-cert-validated` booleans of the same names).
//! Another `…-rim-cert-chain` has no component: only `good` passes it.
//!
//! What a chain says (claims 3.0 and 4.0, its object): `valid` and `good` is good — unless it
//! carries `x-edgeattest-cert-revocation-time`, which a service writes on a good chain only when
//! it accepted a certificate of it on hold, so it is on hold; `revoked` with the
//! reason `certificateHold` is on hold; another `revoked` is revoked, at the time of the
//! object's `x-edgeattest-cert-revocation-time` (this crate's service writes it; NVIDIA's
//! claims have none, and a revoked chain without it cannot be within a grace period, so it
//! fails; warning prose is never read for a chain object); `unknown`,
//! `not-checked` or `null` is unknown; any other certificate status is not valid and no rule
//! accepts it. Claims 1.0 and 2.0 carry no status per chain: a validated chain is good unless
//! the token warns that revocation was not checked or that a service's revocation policy
//! accepted something, and then every chain the token names is unknown (each component must
//! allow unknown). A token that names no chain has an unknown device (or switch) chain.
//!
//! A chain that is not good passes only under its component's rule: unknown with
//! `allowUnknown`, on hold with `allowHold`, revoked with `revokedGracePeriod` covering the
//! verification time (`revocation time + period > now`). Each acceptance is a sentence in the
//! device's warnings, naming the component and the rule member.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value};

use crate::attest::ClaimsVersion;
use crate::ocsp::{RevocationComponent, RevocationPolicy, HOLD_ACCEPTED};
use crate::time::UnixTime;

use super::reading::{
    revocation_time, REVOCATION_NOT_CHECKED, REVOCATION_TIME, REVOCATION_UNCONFIRMED_WARNING,
};

const WARNING: &str = "x-nvidia-attestation-warning";
/// What every revocation-policy warning but the hold's says (`Relaxation::warning`).
const POLICY_ACCEPTED: &str = "because the revocation policy sets";
const HOLD_REASON: &str = "certificateHold";

/// What a chain says about its revocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum ChainState {
    Good,
    /// `unknown`, not checked, or accepted by a service's policy in claims that cannot say
    /// which.
    Unknown,
    /// `certificateHold`.
    Held,
    /// Revoked, with its reason and, when the object dates it, its revocation time.
    Revoked {
        reason: Option<String>,
        at: Option<UnixTime>,
    },
    /// The certificate status is neither valid nor revoked: nothing accepts it.
    Invalid,
}

/// One chain of a device token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Chain {
    /// Its claim (`None`: the token names no chain).
    pub(super) claim: Option<String>,
    pub(super) component: Option<RevocationComponent>,
    pub(super) state: ChainState,
}

/// The component of chain claim `name` (claims 3.0 on, or the 1.0/2.0 booleans); `Some(None)`
/// for a chain without one, `None` for a claim that is no chain.
fn component_of(name: &str, from_3: bool) -> Option<Option<RevocationComponent>> {
    if !name.starts_with("x-nvidia-") {
        return None;
    }
    let (device, rim) = if from_3 {
        ("-attestation-report-cert-chain", "-rim-cert-chain")
    } else {
        (
            "-attestation-report-cert-chain-validated",
            "-rim-cert-validated",
        )
    };
    if name.ends_with(device) {
        return Some(Some(if name.starts_with("x-nvidia-switch") {
            RevocationComponent::SwitchChain
        } else {
            RevocationComponent::DeviceChain
        }));
    }
    let stem = name.strip_suffix(rim)?;
    Some(if stem.ends_with("-driver") {
        Some(RevocationComponent::DriverRimChain)
    } else if stem.ends_with("-vbios") || stem.ends_with("-bios") {
        Some(RevocationComponent::VbiosRimChain)
    } else {
        None
    })
}

/// The parts of `x-nvidia-attestation-warning` (`; `-separated).
fn warning_parts(claims: &Map<String, Value>) -> impl Iterator<Item = &str> {
    claims
        .get(WARNING)
        .and_then(Value::as_str)
        .unwrap_or("")
        .split("; ")
        .map(str::trim)
}

/// Whether a warning part says a service's revocation policy accepted something.
fn is_relaxation(part: &str) -> bool {
    part.contains(POLICY_ACCEPTED) || part.contains(HOLD_ACCEPTED)
}

/// Every chain the token names and what it says (see the module docs).
pub(super) fn chains(
    claims: &Map<String, Value>,
    detailed: Option<&Map<String, Value>>,
    version: Option<ClaimsVersion>,
) -> Vec<Chain> {
    let from_3 = match version {
        Some(ClaimsVersion::V3_0 | ClaimsVersion::V4_0) => true,
        Some(_) => false,
        None => claims
            .keys()
            .any(|name| name.ends_with("-attestation-report-cert-chain")),
    };
    let mut out = Vec::new();
    if from_3 {
        for (name, value) in claims {
            let Some(component) = component_of(name, true) else {
                continue;
            };
            out.push(Chain {
                claim: Some(name.clone()),
                component,
                state: object_state(value),
            });
        }
    } else {
        let unconfirmed = warning_parts(claims)
            .any(|part| part.contains(REVOCATION_NOT_CHECKED) || is_relaxation(part));
        // The V1 single token groups its checks under `x-nvidia-attestation-detailed-result`.
        for (name, value) in claims.iter().chain(detailed.into_iter().flatten()) {
            let Some(component) = component_of(name, false) else {
                continue;
            };
            if out.iter().any(|c: &Chain| c.claim.as_deref() == Some(name)) {
                continue;
            }
            let state = match value {
                Value::Bool(true) if unconfirmed => ChainState::Unknown,
                Value::Bool(true) => ChainState::Good,
                _ => ChainState::Invalid,
            };
            out.push(Chain {
                claim: Some(name.clone()),
                component,
                state,
            });
        }
    }
    let device = out.iter().any(|chain| {
        matches!(
            chain.component,
            Some(RevocationComponent::DeviceChain | RevocationComponent::SwitchChain)
        )
    });
    if !device {
        let switch = claims
            .keys()
            .any(|name| name.starts_with("x-nvidia-switch-"));
        out.push(Chain {
            claim: None,
            component: Some(if switch {
                RevocationComponent::SwitchChain
            } else {
                RevocationComponent::DeviceChain
            }),
            state: ChainState::Unknown,
        });
    }
    out
}

/// What a chain object of claims 3.0 on says.
fn object_state(value: &Value) -> ChainState {
    // A malformed revocation time makes the device unreadable (`reading::misread`); here it
    // dates nothing, so no grace period can pass the chain either.
    let Some(chain) = value.as_object() else {
        return ChainState::Unknown;
    };
    let text = |member: &str| chain.get(member).and_then(Value::as_str);
    let reason = text("x-nvidia-cert-revocation-reason");
    match (
        text("x-nvidia-cert-status"),
        text("x-nvidia-cert-ocsp-status"),
    ) {
        (Some("revoked"), _) | (Some("valid"), Some("revoked")) => {
            if reason == Some(HOLD_REASON) {
                return ChainState::Held;
            }
            ChainState::Revoked {
                reason: reason.map(String::from),
                at: revocation_time(chain),
            }
        }
        // A good chain is dated only when a service accepted a certificate of it on hold.
        (Some("valid"), Some("good")) if chain.contains_key(REVOCATION_TIME) => ChainState::Held,
        (Some("valid"), Some("good")) => ChainState::Good,
        (Some("valid"), _) => ChainState::Unknown,
        _ => ChainState::Invalid,
    }
}

/// A chain judged under the policy at `now`: `Ok(None)` good, `Ok(Some(sentence))` accepted
/// by its rule (the sentence names the component and the member), `Err(sentence)` refused.
pub(super) fn judge(
    chain: &Chain,
    policy: &RevocationPolicy,
    now: UnixTime,
) -> Result<Option<String>, String> {
    if chain.state == ChainState::Good {
        return Ok(None);
    }
    let (described, rule) = match chain.component {
        Some(component) => (component.describe(), Some(policy.rule(component))),
        None => ("certificate chain", None),
    };
    let of = chain
        .claim
        .as_deref()
        .map_or_else(String::new, |claim| format!(" ({claim})"));
    let by = "accepted because the relying party's revocation policy sets";
    match &chain.state {
        ChainState::Good => Ok(None),
        ChainState::Invalid => Err(format!("the {described}{of} is not valid")),
        ChainState::Unknown => match rule {
            Some(rule) if rule.allow_unknown => Ok(Some(format!(
                "{REVOCATION_UNCONFIRMED_WARNING}: the {described}{of}, {by} allowUnknown"
            ))),
            _ => Err(format!(
                "the {described}{of} is not confirmed good (revocation unknown or not checked)"
            )),
        },
        ChainState::Held => match rule {
            Some(rule) if rule.allow_hold => Ok(Some(format!(
                "a certificate of the {described}{of} is on hold (certificateHold), {by} \
                 allowHold"
            ))),
            _ => Err(format!(
                "a certificate of the {described}{of} is on hold (certificateHold)"
            )),
        },
        ChainState::Revoked { reason, at } => {
            let reason = reason.as_deref().unwrap_or("unspecified");
            let period = rule.and_then(|rule| rule.revoked_grace_period);
            match (period, *at) {
                (None, _) => Err(format!(
                    "a certificate of the {described}{of} is revoked ({reason})"
                )),
                (Some(_), None) => Err(format!(
                    "a certificate of the {described}{of} is revoked ({reason}) and the \
                     claims carry no revocation time ({REVOCATION_TIME}), so \
                     revokedGracePeriod cannot apply"
                )),
                (Some(period), Some(at)) => {
                    let until = at.saturating_add(period);
                    if now < until {
                        Ok(Some(format!(
                            "a certificate of the {described}{of} was revoked at {at} \
                             ({reason}), accepted until {until} {by} revokedGracePeriod"
                        )))
                    } else {
                        Err(format!(
                            "a certificate of the {described}{of} was revoked at {at} \
                             ({reason}); its revokedGracePeriod ended at {until}"
                        ))
                    }
                }
            }
        }
    }
}

/// The chains' verdict under the policy: whether every chain is good, whether every chain is
/// accepted, the acceptance sentences, and the refused chains' claims with their sentences.
pub(super) struct Judged {
    pub(super) confirmed: bool,
    pub(super) accepted: bool,
    pub(super) relaxations: Vec<String>,
    pub(super) refusals: Vec<(Option<String>, String)>,
    /// The claims of revoked or held chains the policy accepted (their failure reasons drop).
    pub(super) forgiven: Vec<String>,
}

/// Judges every chain of `chains`.
pub(super) fn judge_all(chains: &[Chain], policy: &RevocationPolicy, now: UnixTime) -> Judged {
    let mut judged = Judged {
        confirmed: true,
        accepted: true,
        relaxations: Vec::new(),
        refusals: Vec::new(),
        forgiven: Vec::new(),
    };
    for chain in chains {
        judged.confirmed &= chain.state == ChainState::Good;
        match judge(chain, policy, now) {
            Ok(None) => {}
            Ok(Some(sentence)) => {
                if matches!(chain.state, ChainState::Held | ChainState::Revoked { .. }) {
                    judged.forgiven.extend(chain.claim.clone());
                }
                judged.relaxations.push(sentence);
            }
            Err(sentence) => {
                judged.accepted = false;
                judged.refusals.push((chain.claim.clone(), sentence));
            }
        }
    }
    judged
}

/// Whether an acceptance sentence is of an unknown chain (it adds nothing to a service's
/// words that revocation was not checked).
pub(super) fn is_unknown_acceptance(sentence: &str) -> bool {
    sentence.starts_with(REVOCATION_UNCONFIRMED_WARNING)
}

/// `Some(text)` of a refusal to append to the failure reason of its claim, when the rule had
/// a member that could have accepted it but did not apply.
pub(super) fn refusal_note(refusal: &str) -> Option<String> {
    (refusal.contains("revokedGracePeriod")).then(|| refusal.to_string())
}
