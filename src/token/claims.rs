//! JWT claim checks (RFC 7519 §4.1, RFC 9711 §4.1) with an explicit `now` and leeway, in
//! the order and with the semantics of panva/jose's `jwtVerify`.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::signer::Signers;
use super::{ClaimReason, ResultFormat, TokenError};
use crate::ocsp::RevocationPolicy;
use crate::time::UnixTime;

/// What a verifier requires of a token besides a valid signature. Everything is opt-in
/// except the time claims, which are always checked when present.
///
/// ```
/// use edgeattest::token::VerifyOptions;
/// let options = VerifyOptions::new()
///     .issuer("https://nras.attestation.nvidia.com")
///     .nonce("931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb")
///     .leeway(60);
/// assert_eq!(options.leeway, 60);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct VerifyOptions {
    /// Accepted `iss` values; empty means `iss` is not checked.
    pub issuers: Vec<String>,
    /// Accepted `aud` values: `aud` (a string or an array) must name one; empty means `aud`
    /// is not checked.
    pub audiences: Vec<String>,
    /// Required `sub` value.
    pub subject: Option<String>,
    /// Expected `eat_nonce` (the verifier's challenge): the claim must equal it, or, when it
    /// is an array, contain it.
    pub nonce: Option<String>,
    /// Clock tolerance in seconds for `exp`, `nbf`, `iat` and the maximum age.
    pub leeway: u64,
    /// Maximum age in seconds: requires `iat` and refuses a token issued longer ago.
    pub max_age: Option<u64>,
    /// Claims that must be present.
    pub required_claims: Vec<String>,
    /// Required header `typ`, compared as jose does: case-insensitively, with
    /// `application/` prefixed to a value without `/`.
    pub typ: Option<String>,
    /// Header extensions the caller understands, allowed in `crit`.
    pub crit: Vec<String>,
    /// The shape an attestation result must have (results only; single JWTs ignore it).
    /// Default [`ResultFormat::Detached`], what V2–V4 serve; V1 is opt-in, e.g.
    /// `ResultFormat::for_endpoint(endpoint)` with the endpoint the request went to.
    pub result_format: ResultFormat,
    /// Results only: return an authentic result whose verdict is not a pass instead of
    /// refusing it. Default `false`: a result whose `x-nvidia-overall-att-result` is `false`
    /// (or absent), or whose device token says it failed, is refused with
    /// [`TokenError::AttestationFailed`] (or [`TokenError::AttestationResultMissing`]), as a
    /// JWT whose claims fail their checks is refused: a verified failure must never read as a
    /// pass. Diagnostic tools set it and read [`super::Appraisal`].
    pub allow_failed_result: bool,
    /// Results only: accept a passing result whose certificate chains are not confirmed
    /// `good` (revocation unknown, or not checked by a verifier without a responder). Default
    /// `false`: such a result is refused with [`TokenError::RevocationUnconfirmed`]; a result
    /// accepted only because of this option says so
    /// ([`super::VerifiedAttestationResult::revocation_relaxed`]). The shorthand of
    /// `allowUnknown` on every component of [`Self::revocation`]: given with a policy, it is
    /// merged into it (every rule also allows unknown; [`Self::revocation_policy`]).
    pub allow_unknown_revocation: bool,
    /// Results only: which chains that are not confirmed `good` a passing result may have,
    /// per component (device, driver RIM, VBIOS RIM, switch chain). Default strict: only
    /// `good`. A result accepted only because of a rule says so
    /// ([`super::VerifiedAttestationResult::revocation_relaxed`], and the appraisal's
    /// warnings name the chain and the rule member).
    pub revocation: RevocationPolicy,
    /// Which keys may sign: by default ([`Signers::nras`]) only a key whose `x5c` chain
    /// reaches NVIDIA's attestation CA; [`Signers::Any`] accepts any key of the set (the
    /// caller trusts where the key set came from). Rule: [`super::signer`].
    pub signers: Signers,
}

impl VerifyOptions {
    /// No requirements beyond the signature, the default signer anchors ([`Signers::nras`])
    /// and the time claims present, zero leeway.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an accepted issuer.
    #[must_use]
    pub fn issuer(mut self, issuer: &str) -> Self {
        self.issuers.push(issuer.into());
        self
    }

    /// Adds an accepted audience.
    #[must_use]
    pub fn audience(mut self, audience: &str) -> Self {
        self.audiences.push(audience.into());
        self
    }

    /// Requires `sub`.
    #[must_use]
    pub fn subject(mut self, subject: &str) -> Self {
        self.subject = Some(subject.into());
        self
    }

    /// Requires `eat_nonce` to match.
    #[must_use]
    pub fn nonce(mut self, nonce: &str) -> Self {
        self.nonce = Some(nonce.into());
        self
    }

    /// Sets the clock tolerance in seconds.
    #[must_use]
    pub fn leeway(mut self, seconds: u64) -> Self {
        self.leeway = seconds;
        self
    }

    /// Sets the maximum age in seconds.
    #[must_use]
    pub fn max_age(mut self, seconds: u64) -> Self {
        self.max_age = Some(seconds);
        self
    }

    /// Adds a required claim.
    #[must_use]
    pub fn require(mut self, claim: &str) -> Self {
        self.required_claims.push(claim.into());
        self
    }

    /// Requires the header `typ`.
    #[must_use]
    pub fn typ(mut self, typ: &str) -> Self {
        self.typ = Some(typ.into());
        self
    }

    /// Sets the expected attestation-result shape.
    #[must_use]
    pub fn result_format(mut self, format: ResultFormat) -> Self {
        self.result_format = format;
        self
    }

    /// Returns authentic results whose verdict is not a pass instead of refusing them (see
    /// [`Self::allow_failed_result`]).
    #[must_use]
    pub fn allow_failed_result(mut self, allow: bool) -> Self {
        self.allow_failed_result = allow;
        self
    }

    /// Accepts passing results whose chains are not confirmed `good` (see
    /// [`Self::allow_unknown_revocation`]).
    #[must_use]
    pub fn allow_unknown_revocation(mut self, allow: bool) -> Self {
        self.allow_unknown_revocation = allow;
        self
    }

    /// Sets the revocation policy (see [`Self::revocation`]).
    #[must_use]
    pub fn revocation(mut self, policy: RevocationPolicy) -> Self {
        self.revocation = policy;
        self
    }

    /// The revocation policy verification applies: [`Self::revocation`], with `allowUnknown`
    /// on every component when [`Self::allow_unknown_revocation`] is set.
    pub fn revocation_policy(&self) -> RevocationPolicy {
        if self.allow_unknown_revocation {
            self.revocation.with_unknown_allowed()
        } else {
            self.revocation.clone()
        }
    }

    /// Sets which keys may sign (see [`Self::signers`]).
    #[must_use]
    pub fn signers(mut self, signers: Signers) -> Self {
        self.signers = signers;
        self
    }

    /// Allows a `crit` extension.
    #[must_use]
    pub fn understand_crit(mut self, name: &str) -> Self {
        self.crit.push(name.into());
        self
    }
}

/// How `eat_nonce` is checked for one token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NonceRule {
    /// Required when the options name a nonce.
    Required,
    /// Checked only when present: device tokens of a failed device carry none (the real
    /// service's error-details tokens); they are bound to the overall token by digest.
    IfPresent,
}

/// Runs every claim check on a verified token.
pub(crate) fn check_claims(
    header: &Map<String, Value>,
    claims: &Map<String, Value>,
    options: &VerifyOptions,
    now: UnixTime,
    nonce_rule: NonceRule,
    required: bool,
) -> Result<(), TokenError> {
    if let Some(expected) = &options.typ {
        let typ = header.get("typ").and_then(Value::as_str);
        if typ.map(normalize_typ) != Some(normalize_typ(expected)) {
            return Err(failed("typ", ClaimReason::CheckFailed));
        }
    }
    if required {
        for claim in &options.required_claims {
            if !claims.contains_key(claim) {
                return Err(failed(claim, ClaimReason::Missing));
            }
        }
    }
    if !options.issuers.is_empty() {
        match claims.get("iss") {
            None => return Err(failed("iss", ClaimReason::Missing)),
            Some(Value::String(iss)) if options.issuers.contains(iss) => {}
            Some(_) => return Err(failed("iss", ClaimReason::CheckFailed)),
        }
    }
    if let Some(subject) = &options.subject {
        match claims.get("sub") {
            None => return Err(failed("sub", ClaimReason::Missing)),
            Some(Value::String(sub)) if sub == subject => {}
            Some(_) => return Err(failed("sub", ClaimReason::CheckFailed)),
        }
    }
    if !options.audiences.is_empty() {
        let accepted = |aud: &Value| {
            aud.as_str()
                .is_some_and(|a| options.audiences.iter().any(|x| x == a))
        };
        match claims.get("aud") {
            None => return Err(failed("aud", ClaimReason::Missing)),
            Some(aud @ Value::String(_)) if accepted(aud) => {}
            Some(Value::Array(auds)) if auds.iter().any(accepted) => {}
            Some(_) => return Err(failed("aud", ClaimReason::CheckFailed)),
        }
    }
    let now = i128::from(now.as_secs());
    let leeway = i128::from(options.leeway);
    let iat = time_claim(claims, "iat")?;
    if let Some(iat) = iat {
        if iat.ceil > now + leeway {
            return Err(failed("iat", ClaimReason::CheckFailed));
        }
    }
    if let Some(nbf) = time_claim(claims, "nbf")? {
        if nbf.ceil > now + leeway {
            return Err(failed("nbf", ClaimReason::CheckFailed));
        }
    }
    if let Some(exp) = time_claim(claims, "exp")? {
        if exp.ceil <= now - leeway {
            return Err(TokenError::Expired { claim: "exp" });
        }
    }
    if let Some(max_age) = options.max_age {
        let iat = iat.ok_or_else(|| failed("iat", ClaimReason::Missing))?;
        if now - iat.floor - leeway > i128::from(max_age) {
            return Err(TokenError::Expired { claim: "iat" });
        }
    }
    if let Some(expected) = &options.nonce {
        match (claims.get("eat_nonce"), nonce_rule) {
            (None, NonceRule::IfPresent) => {}
            (None, NonceRule::Required) => return Err(failed("eat_nonce", ClaimReason::Missing)),
            (Some(Value::String(nonce)), _) if nonce == expected => {}
            (Some(Value::Array(nonces)), _) if nonces.iter().any(|n| n == expected.as_str()) => {}
            (Some(Value::String(_) | Value::Array(_)), _) => return Err(TokenError::NonceMismatch),
            (Some(_), _) => return Err(failed("eat_nonce", ClaimReason::Invalid)),
        }
    }
    Ok(())
}

fn failed(claim: &str, reason: ClaimReason) -> TokenError {
    TokenError::ClaimValidation {
        claim: claim.into(),
        reason,
    }
}

/// A NumericDate (RFC 7519 §2) as the integers around it: with an integer `now`,
/// `t > now` ⟺ `ceil(t) > now`, `t <= now` ⟺ `ceil(t) <= now` and `t < now` ⟺
/// `floor(t) < now`, so fractional times compare exactly as jose compares them.
#[derive(Clone, Copy)]
struct Time {
    floor: i128,
    ceil: i128,
}

impl Time {
    fn exact(value: i128) -> Self {
        Self {
            floor: value,
            ceil: value,
        }
    }
}

fn time_claim(claims: &Map<String, Value>, name: &str) -> Result<Option<Time>, TokenError> {
    let Some(value) = claims.get(name) else {
        return Ok(None);
    };
    let Value::Number(number) = value else {
        return Err(failed(name, ClaimReason::Invalid));
    };
    if let Some(int) = number.as_i64() {
        return Ok(Some(Time::exact(i128::from(int))));
    }
    if let Some(int) = number.as_u64() {
        return Ok(Some(Time::exact(i128::from(int))));
    }
    match number.as_f64() {
        // Bounded well inside i128; `as` saturates anyway.
        #[allow(clippy::cast_possible_truncation)]
        Some(float) if float.is_finite() && float.abs() < 1e30 => {
            let floor = floor(float);
            let ceil = if floor < float { floor + 1.0 } else { floor };
            Ok(Some(Time {
                floor: floor as i128,
                ceil: ceil as i128,
            }))
        }
        _ => Err(failed(name, ClaimReason::Invalid)),
    }
}

/// `f64::floor` is not in `core`.
fn floor(value: f64) -> f64 {
    #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
    let truncated = value as i128 as f64;
    if truncated > value {
        truncated - 1.0
    } else {
        truncated
    }
}

fn normalize_typ(typ: &str) -> String {
    let lower = typ.to_ascii_lowercase();
    if lower.contains('/') {
        lower
    } else {
        let mut prefixed = String::from("application/");
        prefixed.push_str(&lower);
        prefixed
    }
}
