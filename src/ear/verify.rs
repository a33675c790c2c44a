//! A relying party's check of an EAR: the JWT (ES384 with a key of the service's key set,
//! the times, `eat_nonce`), then the profile and the claims' shape.

use alloc::string::String;

use super::{Ear, EarError};
use crate::crypto::SignatureCheck;
use crate::time::UnixTime;
use crate::token::{prepare_jwt, Jwks, PreparedJwt, VerifyOptions};

/// The claims every EAR carries.
const REQUIRED: [&str; 4] = ["eat_profile", "iat", "ear.verifier-id", "submods"];

/// An EAR whose signature checks are handed out (for a WebCrypto host): run
/// [`Self::signature_checks`], then [`Self::finish`].
#[derive(Debug)]
pub struct PreparedEar(PreparedJwt);

/// Phase one of [`verify_ear`]: the JWT's structure, header and key selection.
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
    for claim in REQUIRED {
        if !options.required_claims.iter().any(|c| c == claim) {
            options.required_claims.push(String::from(claim));
        }
    }
    Ok(PreparedEar(prepare_jwt(token, jwks, &options, now)?))
}

impl PreparedEar {
    /// The signature checks a backend must run: the token's, then its signer's chain links
    /// when pinned ([`VerifyOptions::signers`]).
    pub fn signature_checks(&self) -> &[SignatureCheck] {
        self.0.signature_checks()
    }

    /// Phase two: one verdict per [`Self::signature_checks`] entry, the claim checks of the options
    /// (`nonce`: `eat_nonce` must equal it; `max_age` on `iat`), then the EAR's own rules
    /// ([`Ear::from_claims`]). A verified EAR may say `contraindicated`: read
    /// [`Ear::status`] / [`Ear::affirming`].
    ///
    /// # Errors
    /// [`EarError`].
    pub fn finish(self, verdicts: &[bool]) -> Result<Ear, EarError> {
        let jwt = self.0.finish(verdicts)?;
        Ear::from_claims(jwt.claims())
    }
}

/// Verifies an EAR with the software backend: [`prepare_ear`], the signature, the claims.
///
/// # Errors
/// [`EarError`].
pub fn verify_ear(
    token: &str,
    jwks: &Jwks,
    options: &VerifyOptions,
    now: UnixTime,
) -> Result<Ear, EarError> {
    let prepared = prepare_ear(token, jwks, options, now)?;
    let verdicts = crate::crypto::software_verdicts(prepared.signature_checks());
    prepared.finish(&verdicts)
}
