//! Which check of a token a failure belongs to, and why in words: the per-token verdicts
//! carry both, so a host lays them out without a rule of its own.
//!
//! The core checks a token in this order: its binding in the overall token's `submods`
//! (digest), then the signature (key selection included), then the claims (issuer and
//! audience), then the times, then the nonce.

use alloc::format;
use alloc::string::String;

use super::TokenError;
use crate::error_code::ErrorCode;

/// One check of a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenCheck {
    /// Its digest in the overall token's `submods`.
    Digest,
    /// Its signature, with the key its `kid` selects.
    Signature,
    /// Its claims: issuer, audience, the rest.
    Claims,
    /// `exp`, `nbf`, `iat`.
    Time,
    /// `eat_nonce`.
    Nonce,
}

impl TokenCheck {
    /// Every check, in the order the core runs them.
    const ORDER: [Self; 5] = [
        Self::Digest,
        Self::Signature,
        Self::Claims,
        Self::Time,
        Self::Nonce,
    ];

    /// The names of the checks that held before the one `failed` (all of them when none
    /// failed), in order.
    pub(crate) fn held(failed: Option<Self>) -> impl Iterator<Item = &'static str> {
        Self::ORDER
            .into_iter()
            .take_while(move |check| Some(*check) != failed)
            .map(Self::as_str)
    }

    /// The check `error` failed.
    pub(crate) fn of(error: &TokenError) -> Self {
        let (code, field) = (error.code(), error.field());
        match code {
            "ERR_EAT_DIGEST_MISMATCH" | "ERR_EAT_DEVICE_UNEXPECTED" | "ERR_EAT_DEVICE_MISSING" => {
                Self::Digest
            }
            "ERR_JWT_EXPIRED" => Self::Time,
            _ if code == "ERR_EAT_NONCE_MISMATCH" || field == Some("eat_nonce") => Self::Nonce,
            "ERR_JWT_CLAIM_VALIDATION_FAILED" if matches!(field, Some("exp" | "nbf" | "iat")) => {
                Self::Time
            }
            "ERR_JWT_CLAIM_VALIDATION_FAILED" => Self::Claims,
            _ => Self::Signature,
        }
    }

    /// `digest`, `signature`, `claims`, `time` or `nonce`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Digest => "digest",
            Self::Signature => "signature",
            Self::Claims => "claims",
            Self::Time => "time",
            Self::Nonce => "nonce",
        }
    }
}

/// Why `error` failed its check, in words, naming the field when the words do not.
pub(crate) fn failure_message(error: &TokenError) -> String {
    let field = error.field();
    let text = match (error.code(), field) {
        ("ERR_JWT_CLAIM_VALIDATION_FAILED", Some("iss")) => "iss is not the expected issuer",
        (code, _) => reason(code),
    };
    match field {
        Some(field) if !text.contains(field) => format!("{text} ({field})"),
        _ => text.into(),
    }
}

fn reason(code: &str) -> &'static str {
    match code {
        "ERR_JWS_SIGNATURE_VERIFICATION_FAILED" => {
            "the signature does not verify with the key of its kid"
        }
        "ERR_JWKS_NO_MATCHING_KEY" => "no key of the JWKS has this kid",
        "ERR_SIGNER_NO_X5C" => "the signing key carries no x5c chain to pin it to a trusted signer",
        "ERR_SIGNER_KEY_MISMATCH" => "the signing key's x5c certificate carries another key",
        "ERR_SIGNER_UNTRUSTED" => "the signing key's x5c chain reaches no trusted signer anchor",
        "ERR_SIGNER_EXPIRED" => "a certificate of the signing key's chain is outside its validity",
        "ERR_SIGNER_KEY_USAGE" => "a certificate of the signing key's chain may not be used so",
        "ERR_JWKS_MULTIPLE_MATCHING_KEYS" => "several JWKS keys match this kid",
        "ERR_JOSE_ALG_NOT_ALLOWED" => "the algorithm is not ES384",
        "ERR_JWS_INVALID" => "the token is not a well-formed compact JWS",
        "ERR_JWS_INVALID_BASE64" => "a token part is not base64url",
        "ERR_JWS_SIGNATURE_MALFORMED" => "the signature is not a 96-byte P-384 signature",
        "ERR_JWS_UNSECURED" => "the token is unsigned (alg none)",
        "ERR_JWT_INVALID" => "the payload is not a JSON object of claims",
        "ERR_JWT_EXPIRED" => "expired at the time of the check",
        "ERR_JWT_CLAIM_VALIDATION_FAILED" => "a claim failed its check",
        "ERR_EAT_NONCE_MISMATCH" => "eat_nonce is not the expected nonce",
        "ERR_EAT_DIGEST_MISMATCH" => "the token's SHA-256 digest differs from the one in submods",
        "ERR_EAT_DEVICE_UNEXPECTED" => "the overall token's submods do not name this device",
        "ERR_EAT_DEVICE_MISSING" => "submods names this device but the result has no token for it",
        _ => "failed",
    }
}
