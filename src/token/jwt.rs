//! JWT verification in two phases, so that the signature check can run on any backend:
//! [`prepare_jwt`] does the structural, header and key-selection work and yields one
//! [`SignatureCheck`]; [`PreparedJwt::finish`] takes the backend's verdict and runs the
//! claim checks. [`verify_jwt`] does both with the software backend.

use serde_json::Value;

use super::claims::{check_claims, NonceRule};
use super::jws::{parse_compact, CompactJws};
use super::verified::VerifiedJwt;
use super::{Jwks, TokenError, VerifyOptions};
use crate::crypto::{Deferred, SignatureCheck};
use crate::time::UnixTime;

/// A token that passed every check but the signature: holds the check to run.
#[derive(Clone, Debug)]
pub struct PreparedJwt {
    jws: CompactJws,
    check: SignatureCheck,
    options: VerifyOptions,
    now: UnixTime,
    nonce_rule: NonceRule,
    required: bool,
}

/// Phase one of JWT verification: size caps, structure, strict base64url, the header (`alg`
/// ES384, `crit`, `b64`, `kid`), key selection from `jwks`, signature encoding (96 bytes,
/// r and s in range).
///
/// # Errors
/// Any structural, header or key-selection [`TokenError`].
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
    let jws = parse_compact(token, &options.crit)?;
    let key = jwks.select(jws.kid.as_deref())?;
    let check = key
        .public_key()
        .signature_check(jws.signing_input.as_bytes(), &jws.signature);
    Ok(PreparedJwt {
        jws,
        check,
        options: options.clone(),
        now,
        nonce_rule,
        required,
    })
}

impl PreparedJwt {
    /// The signature check a backend must run.
    pub fn signature_check(&self) -> &SignatureCheck {
        &self.check
    }

    /// The header `kid`.
    pub fn kid(&self) -> Option<&str> {
        self.jws.kid.as_deref()
    }

    /// Phase two: the backend's verdict on [`Self::signature_check`], then the claims set
    /// (strict JSON object) and the claim checks of the options.
    ///
    /// # Errors
    /// [`TokenError::SignatureVerificationFailed`] when `signature_valid` is false, or any
    /// claim error.
    pub fn finish(self, signature_valid: bool) -> Result<VerifiedJwt, TokenError> {
        if !signature_valid {
            return Err(TokenError::SignatureVerificationFailed);
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
        Ok(VerifiedJwt {
            header: self.jws.header,
            claims,
            kid: self.jws.kid,
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
        core::slice::from_ref(self.signature_check())
    }

    fn finish(self, verdicts: &[bool]) -> Result<VerifiedJwt, TokenError> {
        match verdicts {
            [valid] => PreparedJwt::finish(self, *valid),
            _ => Err(TokenError::VerdictCount {
                expected: 1,
                got: verdicts.len(),
            }),
        }
    }
}
