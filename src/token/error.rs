//! Why a token, key set or attestation result was refused: one enum, stable codes in the
//! style of panva/jose (`ERR_JWT_EXPIRED`, `ERR_JWS_SIGNATURE_VERIFICATION_FAILED`, ...).

use alloc::boxed::Box;
use alloc::string::String;
use core::fmt;

use super::appraisal::{Appraisal, DeviceAppraisal};
use super::format::ResultFormat;
use super::signer::SignerError;
use super::verified::VerifiedAttestationResult;
use crate::crypto::KeyError;
use crate::error_code::ErrorCode;
use crate::json::JsonError;

/// Why a claim check failed (jose's `reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClaimReason {
    /// The claim is required and absent.
    Missing,
    /// The claim has the wrong JSON type (a time that is not an integer, ...).
    Invalid,
    /// The claim is present and well-typed but fails the check (wrong issuer, not yet
    /// valid, issued in the future, wrong `typ`).
    CheckFailed,
}

impl ClaimReason {
    /// `missing`, `invalid` or `check_failed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Missing => "missing",
            Self::Invalid => "invalid",
            Self::CheckFailed => "check_failed",
        }
    }
}

/// A refused token, JWKS or attestation result. Every variant has its own stable code;
/// [`ErrorCode::field`] names the member or device concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TokenError {
    /// The token, result or JWKS exceeds its size cap (before any decoding).
    TooLarge {
        /// What was too large: `token`, `header`, `result` or `jwks`.
        what: &'static str,
        /// The cap in bytes.
        limit: usize,
    },
    /// Not a compact JWS: not three segments, a header that is not an object, a header
    /// member of the wrong type, ...
    Malformed {
        /// The part or member (`token`, `header`, `header.kid`, `header.crit`, ...).
        field: &'static str,
    },
    /// A segment is not strict base64url without padding.
    InvalidBase64 {
        /// `header`, `payload` or `signature`.
        part: &'static str,
    },
    /// A header, claims set or JWKS is not strict JSON (syntax, duplicate member, depth).
    /// The code is the JSON error's (`ERR_JSON_DUPLICATE_MEMBER`, ...).
    Json {
        /// `header`, `claims`, `jwks` or `result`.
        part: &'static str,
        /// What was wrong.
        error: JsonError,
    },
    /// `alg` is `none` (any case): unsecured JWS are never accepted.
    Unsecured,
    /// `alg` is not `ES384`.
    AlgorithmNotAllowed {
        /// The header's `alg`.
        alg: String,
    },
    /// `crit` names an extension the caller does not understand, or one absent from the
    /// header (RFC 7515 §4.1.11).
    CritUnsupported {
        /// The extension name.
        name: String,
    },
    /// The signature is not 96 bytes (e.g. DER), or r or s is zero or not below the group
    /// order.
    SignatureMalformed,
    /// The signature does not verify.
    SignatureVerificationFailed,
    /// The payload is not a JWT claims set (not a JSON object, or `b64` is false).
    JwtInvalid {
        /// `payload` or `header.b64`.
        field: &'static str,
    },
    /// `exp` has passed, or (with a maximum age) `iat` is too old.
    Expired {
        /// `exp` or `iat`.
        claim: &'static str,
    },
    /// A claim or `typ` check failed (jose's `ERR_JWT_CLAIM_VALIDATION_FAILED`).
    ClaimValidation {
        /// The claim (`nbf`, `iat`, `iss`, `sub`, `typ`, or a required claim).
        claim: String,
        /// Why.
        reason: ClaimReason,
    },
    /// `eat_nonce` differs from the expected nonce (RFC 9711 §4.1).
    NonceMismatch,
    /// A JWKS is not `{"keys": [...]}`, repeats a `kid`, or mixes in private or secret keys.
    JwksInvalid {
        /// The member (`keys`, `keys[3].kid`, ...).
        field: String,
    },
    /// A key in a JWKS (or given directly) is unusable. The code is the key error's.
    Key {
        /// The member (`keys[3]`, `key`).
        field: String,
        /// What was wrong.
        error: KeyError,
    },
    /// No key of the set matches the token's `kid`.
    NoMatchingKey {
        /// The token's `kid`, if it had one.
        kid: Option<String>,
    },
    /// The token has no `kid` and the set holds several keys.
    MultipleMatchingKeys,
    /// An attestation result is not `[["JWT", token], {label: token}]` nor `{"eat": token}`.
    ResultInvalid {
        /// The member (`result`, `result[0]`, `result[1].GPU-0`, ...).
        field: String,
    },
    /// The result does not have the shape the caller expects
    /// ([`super::VerifyOptions::result_format`]).
    FormatMismatch {
        /// The expected shape.
        expected: ResultFormat,
        /// The shape received.
        found: ResultFormat,
    },
    /// The token of a V1 result does not look like a V1 token: it carries `submods` (it is
    /// the overall token of a detached result) or lacks the boolean
    /// `x-nvidia-overall-att-result` (it is a device token).
    V1TokenInvalid {
        /// `submods` or `x-nvidia-overall-att-result`.
        claim: &'static str,
    },
    /// A detached result binds no device: its device map or its `submods` is empty.
    NoDevices {
        /// `result[1]` or `submods`.
        field: &'static str,
    },
    /// More device tokens than [`super::MAX_DEVICES`].
    TooManyDevices {
        /// The cap.
        limit: usize,
    },
    /// A `submods` entry is not `["DIGEST", [algorithm, lowercase hex]]`, or `submods` is
    /// absent or not an object.
    SubmodInvalid {
        /// The device label, or `submods`.
        label: String,
    },
    /// A digest algorithm other than `SHA-256` or `SHA-384`.
    DigestAlgorithmUnsupported {
        /// The device label.
        label: String,
    },
    /// The digest of a device token differs from its `submods` entry.
    DigestMismatch {
        /// The device label.
        label: String,
    },
    /// `submods` names a device the result does not carry.
    DeviceMissing {
        /// The device label.
        label: String,
    },
    /// The result carries a device token that `submods` does not name.
    DeviceUnexpected {
        /// The device label.
        label: String,
    },
    /// A device token failed verification. The code is the inner error's.
    Device {
        /// The device label.
        label: String,
        /// What was wrong with it.
        error: Box<TokenError>,
    },
    /// Every token is authentic, but the service's verdict (`x-nvidia-overall-att-result`) is
    /// `false`, or a device token says the device failed. Refused unless
    /// [`super::VerifyOptions::allow_failed_result`]; the appraisal says why and the verified
    /// result is kept for the caller to read.
    AttestationFailed {
        /// Why: the verdict and each device's reasons.
        appraisal: Box<Appraisal>,
        /// The verified (authentic) result.
        result: Box<VerifiedAttestationResult>,
    },
    /// Every token is authentic, but the overall token carries no boolean
    /// `x-nvidia-overall-att-result`: no verdict, so no pass. Refused unless
    /// [`super::VerifyOptions::allow_failed_result`].
    AttestationResultMissing {
        /// What the device tokens say.
        appraisal: Box<Appraisal>,
        /// The verified (authentic) result.
        result: Box<VerifiedAttestationResult>,
    },
    /// Every token is authentic, but a device token's claims do not read as its claims
    /// version defines them (a check claim of the wrong type, no verdict claim, an unknown
    /// version): what cannot be read is a failure, never a pass. Refused unless
    /// [`super::VerifyOptions::allow_failed_result`]; the device's first reason names the
    /// claim.
    ClaimsUnreadable {
        /// The device that does not read, failed with that reason.
        appraisal: Box<Appraisal>,
        /// The verified (authentic) result.
        result: Box<VerifiedAttestationResult>,
    },
    /// Every token is authentic and the verdict is a pass, but a device token does not
    /// confirm its certificate chains `good` (revocation unknown or not checked, or a hold
    /// a service accepted) and the caller's revocation policy does not accept them
    /// ([`super::VerifyOptions::revocation`],
    /// [`super::VerifyOptions::allow_unknown_revocation`]).
    RevocationUnconfirmed {
        /// Each device's verdict and whether its chains are confirmed.
        appraisal: Box<Appraisal>,
        /// The verified (authentic) result.
        result: Box<VerifiedAttestationResult>,
    },
    /// The key that signed the token is not pinned to a trusted signer
    /// ([`super::VerifyOptions::signers`]). The code is the signer error's
    /// (`ERR_SIGNER_NO_X5C`, `ERR_SIGNER_KEY_MISMATCH`, `ERR_SIGNER_UNTRUSTED`,
    /// `ERR_SIGNER_EXPIRED`, `ERR_SIGNER_KEY_USAGE`).
    Signer {
        /// The key's `kid`.
        kid: Option<String>,
        /// Why.
        error: SignerError,
    },
    /// A verification option is out of its range or contradicts another
    /// ([`super::VerifyInput`]): `ERR_INVALID_ARGUMENT`, naming the option.
    InvalidOption {
        /// The option (`format`, `endpoint`).
        field: &'static str,
        /// What it must be.
        expected: &'static str,
    },
    /// A backend returned a different number of verdicts than there were checks.
    VerdictCount {
        /// Checks handed out.
        expected: usize,
        /// Verdicts received.
        got: usize,
    },
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge { what, limit } => write!(f, "the {what} exceeds {limit} bytes"),
            Self::Malformed { field } => write!(f, "malformed compact JWS ({field})"),
            Self::InvalidBase64 { part } => {
                write!(f, "the JWS {part} is not base64url without padding")
            }
            Self::Json { part, error } => write!(f, "the {part} is not strict JSON: {error}"),
            Self::Unsecured => f.write_str("unsecured JWS (alg none) are not accepted"),
            Self::AlgorithmNotAllowed { alg } => {
                write!(f, "JWS alg {alg:?} is not allowed; only ES384 is")
            }
            Self::CritUnsupported { name } => {
                write!(f, "critical header extension {name:?} is not understood")
            }
            Self::SignatureMalformed => {
                f.write_str("the ES384 signature is not 96 bytes r||s with r and s in [1, n-1]")
            }
            Self::SignatureVerificationFailed => f.write_str("signature verification failed"),
            Self::JwtInvalid { field } => write!(f, "not a JWT claims set ({field})"),
            Self::Expired { claim } => match *claim {
                "iat" => f.write_str("the token is older than the maximum age"),
                _ => f.write_str("the token has expired"),
            },
            Self::ClaimValidation { claim, reason } => {
                write!(f, "claim {claim:?} failed validation: {}", reason.as_str())
            }
            Self::NonceMismatch => f.write_str("eat_nonce does not match the expected nonce"),
            Self::JwksInvalid { field } => write!(f, "invalid JWKS ({field})"),
            Self::Key { field, error } => write!(f, "unusable key {field}: {error}"),
            Self::NoMatchingKey { kid: Some(kid) } => {
                write!(f, "no key in the JWKS matches kid {kid:?}")
            }
            Self::NoMatchingKey { kid: None } => f.write_str("the JWKS holds no usable key"),
            Self::MultipleMatchingKeys => {
                f.write_str("the token has no kid and the JWKS holds several keys")
            }
            Self::ResultInvalid { field } => {
                write!(f, "not an attestation result ({field})")
            }
            Self::FormatMismatch { expected, found } => write!(
                f,
                "expected a {} attestation result, got a {} one",
                expected.as_str(),
                found.as_str()
            ),
            Self::V1TokenInvalid { claim: "submods" } => f.write_str(
                "the V1 token carries submods: it is the overall token of a detached result",
            ),
            Self::V1TokenInvalid { claim } => {
                write!(f, "the V1 token lacks a boolean {claim:?}")
            }
            Self::NoDevices { field } => {
                write!(f, "the detached result binds no device ({field} is empty)")
            }
            Self::TooManyDevices { limit } => {
                write!(
                    f,
                    "the attestation result holds more than {limit} device tokens"
                )
            }
            Self::SubmodInvalid { label } => write!(f, "invalid submods entry {label:?}"),
            Self::DigestAlgorithmUnsupported { label } => {
                write!(f, "unsupported digest algorithm for {label:?}")
            }
            Self::DigestMismatch { label } => {
                write!(
                    f,
                    "the digest of device token {label:?} does not match submods"
                )
            }
            Self::DeviceMissing { label } => {
                write!(
                    f,
                    "submods names {label:?} but the result has no such token"
                )
            }
            Self::DeviceUnexpected { label } => {
                write!(f, "device token {label:?} is not named in submods")
            }
            Self::Device { label, error } => write!(f, "device token {label:?}: {error}"),
            Self::InvalidOption { field, expected } => write!(f, "{field} must be {expected}"),
            Self::Signer {
                kid: Some(kid),
                error,
            } => write!(f, "key {kid:?}: {error}"),
            Self::Signer { kid: None, error } => write!(f, "{error}"),
            Self::VerdictCount { expected, got } => {
                write!(f, "expected {expected} signature verdicts, got {got}")
            }
            Self::AttestationFailed { appraisal, .. }
            | Self::AttestationResultMissing { appraisal, .. }
            | Self::ClaimsUnreadable { appraisal, .. } => f.write_str(&appraisal.summary()),
            Self::RevocationUnconfirmed { appraisal, .. } => write!(
                f,
                "the attestation passed, but the certificate chains of {} are not confirmed \
                 good (revocation unknown or not checked)",
                appraisal
                    .first_unconfirmed()
                    .map_or("a device", |d| d.label())
            ),
        }
    }
}

impl core::error::Error for TokenError {}

impl ErrorCode for TokenError {
    fn code(&self) -> &'static str {
        match self {
            Self::TooLarge { .. } => "ERR_JWS_TOO_LARGE",
            Self::Malformed { .. } => "ERR_JWS_INVALID",
            Self::InvalidBase64 { .. } => "ERR_JWS_INVALID_BASE64",
            Self::Json { error, .. } => error.code(),
            Self::Unsecured => "ERR_JWS_UNSECURED",
            Self::AlgorithmNotAllowed { .. } => "ERR_JOSE_ALG_NOT_ALLOWED",
            Self::CritUnsupported { .. } => "ERR_JWS_CRIT_UNSUPPORTED",
            Self::SignatureMalformed => "ERR_JWS_SIGNATURE_MALFORMED",
            Self::SignatureVerificationFailed => "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
            Self::JwtInvalid { .. } => "ERR_JWT_INVALID",
            Self::Expired { .. } => "ERR_JWT_EXPIRED",
            Self::ClaimValidation { .. } => "ERR_JWT_CLAIM_VALIDATION_FAILED",
            Self::NonceMismatch => "ERR_EAT_NONCE_MISMATCH",
            Self::JwksInvalid { .. } => "ERR_JWKS_INVALID",
            Self::Key { error, .. } => error.code(),
            Self::NoMatchingKey { .. } => "ERR_JWKS_NO_MATCHING_KEY",
            Self::MultipleMatchingKeys => "ERR_JWKS_MULTIPLE_MATCHING_KEYS",
            Self::ResultInvalid { .. } => "ERR_EAT_RESULT_INVALID",
            Self::FormatMismatch { .. } => "ERR_EAT_FORMAT_MISMATCH",
            Self::V1TokenInvalid { .. } => "ERR_EAT_V1_TOKEN_INVALID",
            Self::NoDevices { .. } => "ERR_EAT_NO_DEVICES",
            Self::TooManyDevices { .. } => "ERR_EAT_TOO_MANY_DEVICES",
            Self::SubmodInvalid { .. } => "ERR_EAT_SUBMOD_INVALID",
            Self::DigestAlgorithmUnsupported { .. } => "ERR_EAT_DIGEST_ALGORITHM_UNSUPPORTED",
            Self::DigestMismatch { .. } => "ERR_EAT_DIGEST_MISMATCH",
            Self::DeviceMissing { .. } => "ERR_EAT_DEVICE_MISSING",
            Self::DeviceUnexpected { .. } => "ERR_EAT_DEVICE_UNEXPECTED",
            Self::Device { error, .. } => error.code(),
            Self::InvalidOption { .. } => "ERR_INVALID_ARGUMENT",
            Self::Signer { error, .. } => error.code(),
            Self::VerdictCount { .. } => "ERR_VERDICT_COUNT",
            Self::AttestationFailed { .. } => "ERR_ATTESTATION_FAILED",
            Self::AttestationResultMissing { .. } => "ERR_ATTESTATION_RESULT_MISSING",
            Self::ClaimsUnreadable { .. } => "ERR_EAT_CLAIMS_UNREADABLE",
            Self::RevocationUnconfirmed { .. } => "ERR_REVOCATION_UNCONFIRMED",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::TooLarge { what, .. } => Some(what),
            Self::Malformed { field } | Self::JwtInvalid { field } => Some(field),
            Self::InvalidBase64 { part } | Self::Json { part, .. } => Some(part),
            Self::Unsecured | Self::AlgorithmNotAllowed { .. } => Some("alg"),
            Self::CritUnsupported { .. } => Some("crit"),
            Self::SignatureMalformed | Self::SignatureVerificationFailed => Some("signature"),
            Self::Expired { claim } => Some(claim),
            Self::ClaimValidation { claim, .. } => Some(claim),
            Self::NonceMismatch => Some("eat_nonce"),
            Self::JwksInvalid { field } | Self::Key { field, .. } => Some(field),
            Self::NoMatchingKey { .. } | Self::MultipleMatchingKeys => Some("kid"),
            Self::ResultInvalid { field } => Some(field),
            Self::FormatMismatch { .. } => Some("result"),
            Self::V1TokenInvalid { claim } => Some(claim),
            Self::NoDevices { field } | Self::InvalidOption { field, .. } => Some(field),
            Self::SubmodInvalid { label }
            | Self::DigestAlgorithmUnsupported { label }
            | Self::DigestMismatch { label }
            | Self::DeviceMissing { label }
            | Self::DeviceUnexpected { label }
            | Self::Device { label, .. } => Some(label),
            Self::AttestationFailed { appraisal, .. }
            | Self::AttestationResultMissing { appraisal, .. } => {
                appraisal.first_failure().map(|(device, _)| device.label())
            }
            Self::ClaimsUnreadable { appraisal, .. } => {
                appraisal.first_unreadable().map(DeviceAppraisal::label)
            }
            Self::RevocationUnconfirmed { appraisal, .. } => {
                appraisal.first_unconfirmed().map(DeviceAppraisal::label)
            }
            Self::Signer { error, .. } => error.field(),
            Self::TooManyDevices { .. } | Self::VerdictCount { .. } => None,
        }
    }
}

impl TokenError {
    /// For a refused verdict ([`Self::AttestationFailed`], [`Self::AttestationResultMissing`],
    /// [`Self::ClaimsUnreadable`], [`Self::RevocationUnconfirmed`]), the appraisal and the
    /// verified result.
    pub fn refused_result(&self) -> Option<(&Appraisal, &VerifiedAttestationResult)> {
        match self {
            Self::AttestationFailed { appraisal, result }
            | Self::AttestationResultMissing { appraisal, result }
            | Self::ClaimsUnreadable { appraisal, result }
            | Self::RevocationUnconfirmed { appraisal, result } => Some((appraisal, result)),
            _ => None,
        }
    }

    /// For a [`Self::Device`] error, the error of the device token itself; otherwise `self`.
    pub fn innermost(&self) -> &Self {
        match self {
            Self::Device { error, .. } => error.innermost(),
            other => other,
        }
    }
}
