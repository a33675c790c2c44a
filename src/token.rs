//! ES384 JWS/JWT, JWKS and detached EAT results: mint and verify.
//!
//! Semantics follow panva/jose (strict `crit`, `typ` normalisation, required claims,
//! maximum age, clock tolerance, JWKS key selection, stable `ERR_*` codes), restricted to
//! the one algorithm the attestation service uses, ES384 (RFC 7518 §3.4): 96-byte `r‖s`
//! signatures only, DER and out-of-range r or s refused, high S accepted.
//!
//! Verification is two-phase so that signature checks can run on any backend:
//! [`prepare_jwt`] / [`prepare_attestation_result`] do all the parsing, header and key
//! selection work and hand out [`crate::crypto::SignatureCheck`]s; a backend (the software
//! one in [`crate::crypto`], or WebCrypto in JS hosts) runs them; `finish(verdicts)` runs
//! the claim, digest and device checks and returns a proof type ([`VerifiedJwt`],
//! [`VerifiedAttestationResult`]) — or, for results, an [`AttestationReport`] with a verdict
//! for every token. [`verify_jwt`] and [`verify_attestation_result`] do all three with the
//! software backend. [`PreparedToken`] holds either verification on
//! [`crate::crypto::Deferred`], for hosts that run the checks themselves.
//!
//! Options as a caller writes them (the JS `VerifyOptions`, or JSON through `serde_json`) are
//! one serde type, [`VerifyInput`]; the proof types, the [`Appraisal`] and the
//! [`AttestationReport`]'s verdicts serialize to the shapes the JS API returns.
//!
//! Error codes ([`TokenError`]): `ERR_JWS_TOO_LARGE`, `ERR_JWS_INVALID`,
//! `ERR_JWS_INVALID_BASE64`, `ERR_JSON_*` (strict JSON: duplicate members, syntax, depth),
//! `ERR_JWS_UNSECURED`, `ERR_JOSE_ALG_NOT_ALLOWED`, `ERR_JWS_CRIT_UNSUPPORTED`,
//! `ERR_JWS_SIGNATURE_MALFORMED`, `ERR_JWS_SIGNATURE_VERIFICATION_FAILED`, `ERR_JWT_INVALID`,
//! `ERR_JWT_EXPIRED`, `ERR_JWT_CLAIM_VALIDATION_FAILED`, `ERR_EAT_NONCE_MISMATCH`,
//! `ERR_JWKS_INVALID`, `ERR_JWK_*` / `ERR_KEY_*` (keys), `ERR_JWKS_NO_MATCHING_KEY`,
//! `ERR_JWKS_MULTIPLE_MATCHING_KEYS`, `ERR_EAT_RESULT_INVALID`, `ERR_EAT_FORMAT_MISMATCH`,
//! `ERR_EAT_V1_TOKEN_INVALID`, `ERR_EAT_NO_DEVICES`, `ERR_EAT_TOO_MANY_DEVICES`,
//! `ERR_EAT_SUBMOD_INVALID`, `ERR_EAT_DIGEST_ALGORITHM_UNSUPPORTED`,
//! `ERR_EAT_DIGEST_MISMATCH`, `ERR_EAT_DEVICE_MISSING`, `ERR_EAT_DEVICE_UNEXPECTED`,
//! `ERR_VERDICT_COUNT`, `ERR_ATTESTATION_FAILED`, `ERR_ATTESTATION_RESULT_MISSING`,
//! `ERR_EAT_CLAIMS_UNREADABLE`, `ERR_REVOCATION_UNCONFIRMED`, `ERR_SIGNER_*` (pinning).
//!
//! Signer pinning ([`signer`]): by default a key signs only when the `x5c` chain it carries
//! reaches NVIDIA's attestation CA ([`Signers::nras`]); [`VerifyOptions::signers`] names other
//! anchors or opts out ([`Signers::Any`]); the verified token says who signed it
//! ([`VerifiedSigner`]).
//!
//! Verdict: authentic tokens are not a pass. A result whose service verdict
//! (`x-nvidia-overall-att-result`) is `false` or absent, or whose device token says it failed,
//! is refused ([`TokenError::AttestationFailed`], [`TokenError::AttestationResultMissing`])
//! unless [`VerifyOptions::allow_failed_result`]; either way the [`Appraisal`] (per device,
//! the failed claims in words, from every claims version) says why.
//!
//! Claims that read, and revocation: a device token whose claims do not read as its claims
//! version defines them (a check claim of the wrong type, no verdict claim) fails, refused
//! with [`TokenError::ClaimsUnreadable`]; a pass whose certificate chains a device token does
//! not confirm `good` is refused with [`TokenError::RevocationUnconfirmed`] unless the
//! caller's revocation policy accepts each such chain ([`VerifyOptions::revocation`], per
//! component: unknown with `allowUnknown`, on hold with `allowHold`, revoked within
//! `revokedGracePeriod`; [`VerifyOptions::allow_unknown_revocation`] is `allowUnknown`
//! everywhere). The rule per claims version is in the `appraisal::reading` and
//! `appraisal::revocation` modules and the README's relying-party section.
//!
//! Result shape: the caller names the shape it expects ([`VerifyOptions::result_format`],
//! default [`ResultFormat::Detached`]; [`ResultFormat::for_endpoint`] from the endpoint
//! called); a result of the other shape is refused, never re-read. A V1 token must look like
//! one (no `submods`, a boolean `x-nvidia-overall-att-result`), and a detached result must
//! bind at least one device, so that neither a re-wrapped overall token nor a device token
//! passes as V1 and no result reads as a pass with zero devices.
//!
//! Minting: [`sign_jwt`] (header exactly `{"kid":…,"alg":"ES384"}`, as the real service),
//! [`create_detached_eat`], [`create_v1_result`]; the `*_signing_input` / `assemble_*` pairs
//! let a host sign with a key that never enters the core (a WebCrypto `CryptoKey`).
//!
//! Specs: RFC 7515, 7517, 7518, 7519, RFC 9711 §4.2.18 (submods, detached digests).

mod appraisal;
mod attestation;
pub(crate) mod check;
mod claims;
mod eat_assembly;
mod error;
mod format;
mod jwks;
mod jws;
mod jwt;
mod result;
mod serialize;
pub mod signer;
mod submods;
mod verification;
mod verified;
mod verify_input;

pub(crate) use appraisal::REVOCATION_NOT_CHECKED;
pub use appraisal::{Appraisal, AppraisalReason, DeviceAppraisal, VerdictLevel};
pub use attestation::{
    prepare_attestation_result, verify_attestation_result, AttestationReport, DeviceVerdict,
    PreparedAttestationResult,
};
pub use claims::VerifyOptions;
pub use eat_assembly::{
    assemble_detached_eat, create_detached_eat, create_v1_result, detached_eat_signing_input,
};
pub use error::{ClaimReason, TokenError};
pub use format::ResultFormat;
pub use jwks::{Jwks, JwksKey, MAX_JWKS_BYTES, MAX_JWKS_KEYS};
pub use jws::{assemble_jws, jwt_signing_input, sign_jwt, MAX_HEADER_BYTES, MAX_TOKEN_BYTES};
pub use jwt::{prepare_jwt, verify_jwt, PreparedJwt};
pub use result::{AttestationResult, MAX_DEVICES, MAX_LABEL_LEN, MAX_RESULT_BYTES};
pub use serialize::{
    AppraisalJson, AppraisalReasonJson, DeviceAppraisalJson, VerifiedAttestationResultJson,
    VerifiedDeviceJson, VerifiedJwtJson, VerifiedSignerJson,
};
pub use signer::{
    PinnedSigner, SignerAnchor, SignerCertificate, SignerError, SignerOcspOptions,
    SignerOcspRequest, SignerOcspStatus, SignerOcspTarget, SignerRevocation, Signers,
    VerifiedSigner,
};
pub use verification::{PreparedToken, TokenVerdict};
pub(crate) use verified::V1_DEVICE_LABEL;
pub use verified::{VerifiedAttestationResult, VerifiedDevice, VerifiedJwt};
pub use verify_input::VerifyInput;
