//! Why a key is not pinned to a trusted signer: one error per rule, each with its remedy.

use alloc::string::String;
use core::fmt;

use crate::error_code::ErrorCode;
use crate::time::UnixTime;

/// Why a key's `x5c` chain does not pin it to a trusted signer.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SignerError {
    /// The key carries no `x5c` chain.
    NoX5c,
    /// `x5c[0]` does not carry the JWK's `x`/`y`.
    KeyMismatch,
    /// The chain reaches no anchor, a link's signature does not verify, a certificate on the
    /// path is outside the profile, or the chain is over budget.
    Untrusted {
        /// Why, in words.
        reason: String,
    },
    /// A certificate of the path is not valid at `now` or at the token's `iat` (or the token
    /// has no `iat`).
    Expired {
        /// The certificate's subject.
        subject: String,
        /// `now` or `iat`.
        when: &'static str,
        /// The time checked; `None` when the token has no `iat`.
        at: Option<UnixTime>,
        /// The certificate's notBefore.
        not_before: UnixTime,
        /// The certificate's notAfter.
        not_after: UnixTime,
    },
    /// The leaf may not sign, or a CA certificate of the path is not a CA.
    KeyUsage {
        /// The certificate's subject.
        subject: String,
        /// What it may not do: `sign tokens` or `issue certificates`.
        what: &'static str,
    },
    /// A certificate of the signer's path is revoked, and the policy's `signerChain` rule
    /// does not let it pass.
    Revoked {
        /// The certificate's subject.
        subject: String,
        /// Its CRL reason, when the responder gave one.
        reason: Option<&'static str>,
        /// Its revocation time.
        at: Option<UnixTime>,
    },
    /// The revocation of the signer's path could not be confirmed (`unknown`, unanswered, or
    /// an answer not believed), and the policy's `signerChain` rule does not let it pass.
    RevocationUnconfirmed {
        /// `unknown` or `failed`.
        status: &'static str,
        /// Why, in words (the responder's answer or the failure).
        detail: String,
    },
}

impl ErrorCode for SignerError {
    fn code(&self) -> &'static str {
        match self {
            Self::NoX5c => "ERR_SIGNER_NO_X5C",
            Self::KeyMismatch => "ERR_SIGNER_KEY_MISMATCH",
            Self::Untrusted { .. } => "ERR_SIGNER_UNTRUSTED",
            Self::Expired { .. } => "ERR_SIGNER_EXPIRED",
            Self::KeyUsage { .. } => "ERR_SIGNER_KEY_USAGE",
            Self::Revoked { .. } => "ERR_SIGNER_REVOKED",
            Self::RevocationUnconfirmed { .. } => "ERR_SIGNER_REVOCATION_UNCONFIRMED",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::Revoked { .. } | Self::RevocationUnconfirmed { .. } => None,
            _ => Some("x5c"),
        }
    }
}

/// What to do about an untrusted signer, said once for the messages that need it.
const ANCHOR_REMEDY: &str = "to verify your own service's tokens pass its root certificate as \
     an anchor (signers: [{certificate: PEM}]); when NVIDIA rotates its intermediate, add the \
     new one's spkiSha256 beside the default; signers: 'any' opts out of pinning";

impl fmt::Display for SignerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoX5c => write!(
                f,
                "the signing key carries no x5c certificate chain, so it cannot be pinned to a \
                 trusted signer: use the key set the service publishes (NRAS's keys carry x5c), \
                 or {ANCHOR_REMEDY}"
            ),
            Self::KeyMismatch => f.write_str(
                "the signing key's x5c[0] certificate does not carry the key's own x/y: the key \
                 set is inconsistent; fetch it from the service's own JWKS URL",
            ),
            Self::Untrusted { reason } => write!(
                f,
                "the signing key's x5c chain does not reach a trusted signer anchor ({reason}): \
                 {ANCHOR_REMEDY}"
            ),
            Self::Expired {
                subject,
                when,
                at,
                not_before,
                not_after,
            } => match at {
                None => write!(
                    f,
                    "the token has no iat, so the validity of its signer's chain at signing \
                     cannot be checked: pinned tokens must carry iat ({ANCHOR_REMEDY})"
                ),
                Some(at) => write!(
                    f,
                    "certificate {subject:?} of the signing key's x5c chain is not valid at \
                     {when} ({at}; valid {not_before} to {not_after}): refresh the key set from \
                     the service; a token signed outside its signer's validity is refused"
                ),
            },
            Self::KeyUsage { subject, what } => write!(
                f,
                "certificate {subject:?} of the signing key's x5c chain may not {what}: the key \
                 is not a signer of that anchor; {ANCHOR_REMEDY}"
            ),
            Self::Revoked {
                subject,
                reason,
                at,
            } => {
                write!(
                    f,
                    "certificate {subject:?} of the result signer's chain is revoked"
                )?;
                if let Some(at) = at {
                    write!(f, " since {at}")?;
                }
                write!(
                    f,
                    " ({}): do not trust results it signed; fetch the service's current key set, \
                     and if a revoked signer must pass for a while set \
                     revocation.signerChain.revokedGracePeriod",
                    reason.unwrap_or("unspecified")
                )
            }
            Self::RevocationUnconfirmed { status, detail } => write!(
                f,
                "the revocation of the result signer's chain is not confirmed ({status}: \
                 {detail}): retry when the OCSP responder answers, or accept it with a warning \
                 by setting revocation.signerChain.allowUnknown"
            ),
        }
    }
}

impl core::error::Error for SignerError {}
