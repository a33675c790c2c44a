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
//! [`VerifiedAttestationResult`]). [`verify_jwt`] and [`verify_attestation_result`] do all
//! three with the software backend.
//!
//! Minting: [`sign_jwt`] (header exactly `{"kid":…,"alg":"ES384"}`, as the real service),
//! [`create_detached_eat`], [`create_v1_result`]; the `*_signing_input` / `assemble_*` pairs
//! let a host sign with a key that never enters the core (a WebCrypto `CryptoKey`).
//!
//! Spec: `attestation-service.md` §2 (attestation result); RFC 7515, 7517, 7518, 7519,
//! RFC 9711 §4.2.18 (submods, detached digests).

mod claims;
mod eat;
mod error;
mod jwks;
mod jws;
mod jwt;

pub use claims::VerifyOptions;
pub use eat::{
    assemble_detached_eat, create_detached_eat, create_v1_result, detached_eat_signing_input,
    prepare_attestation_result, verify_attestation_result, AttestationResult,
    PreparedAttestationResult, ResultFormat, VerifiedAttestationResult, VerifiedDevice, DIGEST_ALG,
    MAX_DEVICES, MAX_LABEL_LEN, MAX_RESULT_BYTES,
};
pub use error::{ClaimReason, TokenError};
pub use jwks::{Jwks, JwksKey, MAX_JWKS_KEYS};
pub use jws::{assemble_jws, jwt_signing_input, sign_jwt, ALG, MAX_HEADER_BYTES, MAX_TOKEN_BYTES};
pub use jwt::{prepare_jwt, verify_jwt, PreparedJwt, VerifiedJwt};
