//! Signer pinning: which keys of a key set may sign tokens. A JWKS says which keys a service
//! uses, not who the service is: whoever answers the JWKS URL could mint results. Under
//! [`Signers::Anchors`] a key is usable only when the `x5c` chain it carries reaches a trusted
//! anchor, so the trust is in a certificate authority the caller names, not in a URL.
//!
//! The rule for the key a token selects (`pin`):
//! * it carries `x5c` ([`SignerError::NoX5c`]), at most [`MAX_X5C_CERTIFICATES`] entries of at
//!   most [`MAX_X5C_CERTIFICATE_BYTES`] each (beyond: [`SignerError::Untrusted`]), each
//!   standard base64 of a DER certificate (else `ERR_JWKS_INVALID`: the key set is malformed);
//! * `x5c[0]` carries exactly the JWK's `x`/`y` ([`SignerError::KeyMismatch`]);
//! * walking `x5c` from the leaf, each certificate names the next as its issuer, and the path
//!   ends at the first certificate whose SPKI SHA-256 is a pinned [`SignerAnchor::SpkiSha256`],
//!   that is an anchor [`SignerAnchor::Certificate`], or that such an anchor issued (the anchor
//!   then ends the path); a path that reaches none, or a certificate on it with a profile defect
//!   (not P-384, unknown critical extension…), is [`SignerError::Untrusted`];
//! * every link's signature verifies: ECDSA P-384 / SHA-384 checks are handed out with the
//!   token's own check ([`crate::crypto::Deferred`], so a WebCrypto host runs them); RSA
//!   PKCS#1 v1.5 (SHA-256/384/512, 2048–4096-bit keys), which NVIDIA's intermediate 004
//!   (an RSA-2048 key) signs its leaves with, is verified in the core at once; a false verdict
//!   is [`SignerError::Untrusted`];
//! * every certificate of the path is within its validity at `now` and at the token's `iat`,
//!   checked after the claims (a token that expired says so first)
//!   ([`SignerError::Expired`]); a token without `iat` is refused under pinning (nothing says
//!   when it was signed, so the chain's validity cannot be checked against it;
//!   [`SignerError::Expired`] naming `iat`). NRAS tokens always carry `iat`;
//! * the leaf's keyUsage, when present, allows digitalSignature; every CA certificate of the
//!   path has basicConstraints cA and, with keyUsage, keyCertSign ([`SignerError::KeyUsage`]).
//!
//! The default, [`Signers::nras`], pins the key of "NVIDIA Attestation Service GPU
//! Intermediate 004": the certificate of its issuer, "NVIDIA Attestation Service CA 001", is
//! not public. A key pin keeps working when the intermediate is re-issued with the same key;
//! several anchors may be given at once so that a rotation never breaks verification.
//!
//! The path's revocation is asked by OCSP where its certificates name a responder
//! (`revocation`), under the revocation policy's `signerChain` rule.

mod anchor;
mod error;
mod pin;
mod revocation;
mod revocation_check;
mod verified;

pub use anchor::{
    SignerAnchor, Signers, MAX_X5C_CERTIFICATES, MAX_X5C_CERTIFICATE_BYTES,
    NRAS_INTERMEDIATE_004_SPKI_SHA256,
};
pub use error::SignerError;
pub(crate) use pin::{pin, PinPlan};
pub use revocation::{SignerOcspTarget, SignerRevocation};
pub use revocation_check::{SignerOcspOptions, SignerOcspRequest, SignerOcspStatus};
pub use verified::{PinnedSigner, SignerCertificate, VerifiedSigner};
