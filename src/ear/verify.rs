//! A relying party's check of an EAR, JWT or CWT: the signature (ES384 with a key of the
//! service's key set), the times, then the dialect's claims and `eat_nonce`.

use alloc::string::String;
use alloc::vec::Vec;

use super::{cwt, Ear, EarEncoding, EarError};
use crate::crypto::{Deferred, SignatureCheck};
use crate::time::UnixTime;
use crate::token::{prepare_jwt, ClaimReason, Jwks, PreparedJwt, TokenError, VerifyOptions};

/// The claims every EAR carries, whatever its dialect (the verifier id's name differs: the
/// dialect's reader requires it).
const REQUIRED: [&str; 3] = ["eat_profile", "iat", "submods"];

/// An EAR whose signature checks are handed out (for a WebCrypto host): run
/// [`Self::signature_checks`], then [`Self::finish`].
#[derive(Debug)]
pub struct PreparedEar {
    inner: Inner,
    /// The expected `eat_nonce`, compared after the dialect is known (-04 carries bytes).
    nonce: Option<String>,
}

#[derive(Debug)]
enum Inner {
    Jwt(PreparedJwt),
    Cwt(cwt::PreparedCwt),
}

/// Phase one of [`verify_ear`] for a JWT EAR: the JWT's structure, header and key selection.
///
/// # Errors
/// [`EarError::Token`].
pub fn prepare_ear(
    token: &str,
    jwks: &Jwks,
    options: &VerifyOptions,
    now: UnixTime,
) -> Result<PreparedEar, EarError> {
    let mut options = options.clone();
    let nonce = options.nonce.take();
    for claim in REQUIRED {
        if !options.required_claims.iter().any(|c| c == claim) {
            options.required_claims.push(String::from(claim));
        }
    }
    Ok(PreparedEar {
        inner: Inner::Jwt(prepare_jwt(token, jwks, &options, now)?),
        nonce,
    })
}

/// Phase one of [`verify_ear_cwt`] for a CWT EAR (`COSE_Sign1`, tag 18 or untagged, ES384):
/// its structure, the key (header `kid`, label 4, selects from `jwks` as a JWT's `kid`
/// does), the claims' shape (read before the signature: nothing of them is trusted until
/// [`PreparedEar::finish`]).
///
/// # Errors
/// [`EarError`].
pub fn prepare_ear_cwt(
    token: &[u8],
    jwks: &Jwks,
    options: &VerifyOptions,
    now: UnixTime,
) -> Result<PreparedEar, EarError> {
    let mut options = options.clone();
    let nonce = options.nonce.take();
    Ok(PreparedEar {
        inner: Inner::Cwt(cwt::prepare(token, jwks, options, now)?),
        nonce,
    })
}

impl PreparedEar {
    /// The signature checks a backend must run: the token's, then its signer's chain links
    /// when pinned ([`VerifyOptions::signers`], JWT only).
    pub fn signature_checks(&self) -> &[SignatureCheck] {
        match &self.inner {
            Inner::Jwt(jwt) => jwt.signature_checks(),
            Inner::Cwt(cwt) => cwt.signature_checks(),
        }
    }

    /// The encoding being verified.
    pub fn encoding(&self) -> EarEncoding {
        match &self.inner {
            Inner::Jwt(_) => EarEncoding::Jwt,
            Inner::Cwt(_) => EarEncoding::Cwt,
        }
    }

    /// Phase two: one verdict per [`Self::signature_checks`] entry, the claim checks of the
    /// options (`max_age` on `iat`, `exp`, `nbf`), the EAR's own rules ([`Ear::from_claims`] /
    /// [`Ear::from_cwt_claims`]), then `nonce`: `eat_nonce` must be it
    /// ([`Ear::nonce_matches`]). A verified EAR may say `contraindicated`: read
    /// [`Ear::status`] / [`Ear::affirming`].
    ///
    /// # Errors
    /// [`EarError`].
    pub fn finish(self, verdicts: &[bool]) -> Result<Ear, EarError> {
        let ear = match self.inner {
            Inner::Jwt(jwt) => Ear::from_claims(jwt.finish(verdicts)?.claims())?,
            Inner::Cwt(cwt) => cwt.finish(verdicts)?,
        };
        if let Some(expected) = &self.nonce {
            if ear.nonce().is_none() {
                return Err(EarError::Token(TokenError::ClaimValidation {
                    claim: "eat_nonce".into(),
                    reason: ClaimReason::Missing,
                }));
            }
            if !ear.nonce_matches(expected) {
                return Err(EarError::Token(TokenError::NonceMismatch));
            }
        }
        Ok(ear)
    }
}

impl Deferred for PreparedEar {
    type Output = Ear;
    type Error = EarError;

    fn signature_checks(&self) -> &[SignatureCheck] {
        PreparedEar::signature_checks(self)
    }

    fn finish(self, verdicts: &[bool]) -> Result<Ear, EarError> {
        PreparedEar::finish(self, verdicts)
    }
}

/// Verifies a JWT EAR with the software backend: [`prepare_ear`], the signature, the claims.
///
/// # Errors
/// [`EarError`].
pub fn verify_ear(
    token: &str,
    jwks: &Jwks,
    options: &VerifyOptions,
    now: UnixTime,
) -> Result<Ear, EarError> {
    finish_software(prepare_ear(token, jwks, options, now)?)
}

/// Verifies a CWT EAR with the software backend: [`prepare_ear_cwt`], the signature, the
/// claims.
///
/// # Errors
/// [`EarError`].
pub fn verify_ear_cwt(
    token: &[u8],
    jwks: &Jwks,
    options: &VerifyOptions,
    now: UnixTime,
) -> Result<Ear, EarError> {
    finish_software(prepare_ear_cwt(token, jwks, options, now)?)
}

fn finish_software(prepared: PreparedEar) -> Result<Ear, EarError> {
    let verdicts: Vec<bool> = crate::crypto::software_verdicts(prepared.signature_checks());
    prepared.finish(&verdicts)
}
