//! JWT verification in two phases, so that the signature check can run on any backend:
//! [`prepare_jwt`] does the structural, header and key-selection work and yields one
//! [`SignatureCheck`]; [`PreparedJwt::finish`] takes the backend's verdict and runs the
//! claim checks. [`verify_jwt`] does both with the software backend.

use alloc::sync::Arc;
use alloc::vec::Vec;

use serde_json::Value;

use super::claims::{check_claims, NonceRule};
use super::jwks::JwksKey;
use super::jws::{parse_compact, CompactJws};
use super::signer::{pin, PinPlan, VerifiedSigner};
use super::verified::VerifiedJwt;
use super::{Jwks, TokenError, VerifyOptions};
use crate::crypto::{Deferred, SignatureCheck};
use crate::time::UnixTime;

/// A token that passed every check but the signatures: holds the checks to run (the token's
/// own, then its signer's chain links when pinned).
#[derive(Clone, Debug)]
pub struct PreparedJwt {
    jws: CompactJws,
    /// The token's check, then the pinned chain's link checks.
    checks: Vec<SignatureCheck>,
    pin: Option<Arc<PinPlan>>,
    kid_of_key: Option<alloc::string::String>,
    options: VerifyOptions,
    now: UnixTime,
    nonce_rule: NonceRule,
    required: bool,
}

/// Phase one of JWT verification: size caps, structure, strict base64url, the header (`alg`
/// ES384, `crit`, `b64`, `kid`), key selection from `jwks`, the key's pinning under
/// [`VerifyOptions::signers`] (all but its link signatures and `iat`, [`super::signer`]),
/// signature encoding (96 bytes, r and s in range).
///
/// # Errors
/// Any structural, header, key-selection or signer [`TokenError`].
pub fn prepare_jwt(
    token: &str,
    jwks: &Jwks,
    options: &VerifyOptions,
    now: UnixTime,
) -> Result<PreparedJwt, TokenError> {
    prepare(token, jwks, options, now, NonceRule::Required, true)
}

pub(crate) fn prepare(
    token: &str,
    jwks: &Jwks,
    options: &VerifyOptions,
    now: UnixTime,
    nonce_rule: NonceRule,
    required: bool,
) -> Result<PreparedJwt, TokenError> {
    prepare_pinned(token, jwks, options, now, nonce_rule, required, |key| {
        pin(key, &options.signers, now).map(|plan| plan.map(Arc::new))
    })
}

/// [`prepare`] with the key's pinning from `pin_key` (an attestation result pins each key
/// once for all its tokens).
pub(crate) fn prepare_pinned(
    token: &str,
    jwks: &Jwks,
    options: &VerifyOptions,
    now: UnixTime,
    nonce_rule: NonceRule,
    required: bool,
    pin_key: impl FnOnce(&JwksKey) -> Result<Option<Arc<PinPlan>>, TokenError>,
) -> Result<PreparedJwt, TokenError> {
    let jws = parse_compact(token, &options.crit)?;
    let key = jwks.select(jws.kid.as_deref())?;
    let pin = pin_key(key)?;
    let check = key
        .public_key()
        .signature_check(jws.signing_input.as_bytes(), &jws.signature);
    let mut checks = alloc::vec![check];
    if let Some(plan) = &pin {
        checks.extend(plan.checks.iter().cloned());
    }
    Ok(PreparedJwt {
        jws,
        checks,
        pin,
        kid_of_key: key.kid().map(Into::into),
        options: options.clone(),
        now,
        nonce_rule,
        required,
    })
}

impl PreparedJwt {
    /// The token's own signature check (the first of [`Self::signature_checks`]).
    pub fn signature_check(&self) -> &SignatureCheck {
        // `checks` always starts with the token's own check (`prepare_pinned`).
        &self.checks[0]
    }

    /// The checks a backend must run: the token's own, then, when its key is pinned, one per
    /// link of the key's `x5c` path.
    pub fn signature_checks(&self) -> &[SignatureCheck] {
        &self.checks
    }

    /// The key's pinning, when [`VerifyOptions::signers`] pins.
    pub(crate) fn pin(&self) -> Option<&Arc<PinPlan>> {
        self.pin.as_ref()
    }

    /// The header `kid`.
    pub fn kid(&self) -> Option<&str> {
        self.jws.kid.as_deref()
    }

    /// Phase two: one verdict per [`Self::signature_checks`] entry, then the claims set
    /// (strict JSON object), the claim checks of the options, and the signer's validity at
    /// `iat`.
    ///
    /// # Errors
    /// [`TokenError::VerdictCount`]; [`TokenError::SignatureVerificationFailed`] when the
    /// token's verdict is false; [`TokenError::Signer`] when a link's is; any claim error.
    pub fn finish(self, verdicts: &[bool]) -> Result<VerifiedJwt, TokenError> {
        let (Some(token_valid), true) = (verdicts.first(), verdicts.len() == self.checks.len())
        else {
            return Err(TokenError::VerdictCount {
                expected: self.checks.len(),
                got: verdicts.len(),
            });
        };
        let links_valid = verdicts.iter().skip(1).all(|ok| *ok);
        self.complete(*token_valid, links_valid)
    }

    /// Phase two with the token's verdict and the verdict on its key's chain links (true
    /// when not pinned).
    pub(crate) fn complete(
        self,
        signature_valid: bool,
        links_valid: bool,
    ) -> Result<VerifiedJwt, TokenError> {
        if !signature_valid {
            return Err(TokenError::SignatureVerificationFailed);
        }
        let signer_error = |error| TokenError::Signer {
            kid: self.kid_of_key.clone(),
            error,
        };
        if self.pin.is_some() {
            PinPlan::links(links_valid).map_err(signer_error)?;
        }
        let claims = match crate::json::parse(&self.jws.payload) {
            Ok(Value::Object(claims)) => claims,
            Ok(_) => return Err(TokenError::JwtInvalid { field: "payload" }),
            Err(error) => {
                return Err(TokenError::Json {
                    part: "claims",
                    error,
                })
            }
        };
        check_claims(
            &self.jws.header,
            &claims,
            &self.options,
            self.now,
            self.nonce_rule,
            self.required,
        )?;
        let signer = match &self.pin {
            None => VerifiedSigner::Unpinned,
            Some(plan) => plan.valid_at(iat_of(&claims)).map_err(signer_error)?,
        };
        Ok(VerifiedJwt {
            header: self.jws.header,
            claims,
            kid: self.jws.kid,
            signer,
        })
    }

    /// Runs the signature check with the software backend, then [`Self::finish`].
    ///
    /// # Errors
    /// As [`prepare_jwt`] and [`Self::finish`].
    pub fn verify(self) -> Result<VerifiedJwt, TokenError> {
        crate::crypto::Deferred::finish_in_software(self)
    }
}

/// Verifies a compact ES384 JWT with the software backend: [`prepare_jwt`], the signature,
/// then the claims.
///
/// # Errors
/// Any [`TokenError`].
pub fn verify_jwt(
    token: &str,
    jwks: &Jwks,
    options: &VerifyOptions,
    now: UnixTime,
) -> Result<VerifiedJwt, TokenError> {
    prepare_jwt(token, jwks, options, now)?.verify()
}

impl Deferred for PreparedJwt {
    type Output = VerifiedJwt;
    type Error = TokenError;

    fn signature_checks(&self) -> &[SignatureCheck] {
        PreparedJwt::signature_checks(self)
    }

    fn finish(self, verdicts: &[bool]) -> Result<VerifiedJwt, TokenError> {
        PreparedJwt::finish(self, verdicts)
    }
}

/// The `iat` claim as a time (floored); `None` when absent or not a time (the claim checks
/// refuse a malformed one first).
fn iat_of(claims: &serde_json::Map<alloc::string::String, Value>) -> Option<UnixTime> {
    let iat = claims.get("iat").and_then(Value::as_f64)?;
    UnixTime::from_millis(iat * 1000.0)
}
