//! Why a key was refused: one enum for every reading of a P-384 key (JWK, SPKI, PKCS#8, key
//! generation), below the readers that return it.

use alloc::string::String;
use core::fmt;

use super::COORDINATE_LEN;
use crate::error_code::ErrorCode;

/// Why a key was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyError {
    /// A JWK member is missing, of the wrong type, not strict base64url, or of the wrong
    /// length.
    InvalidJwk {
        /// The member (`x`, `y`, `d`, `kid`, ...).
        field: &'static str,
    },
    /// The JWK is of another key type, curve or algorithm than EC / P-384 / ES384.
    UnsupportedKey {
        /// The member that says so (`kty`, `crv`, `alg`).
        field: &'static str,
        /// Its value.
        value: String,
    },
    /// The coordinates are not a point on P-384 (or not canonical field elements).
    NotOnCurve,
    /// The private scalar is zero or not below the group order.
    InvalidScalar,
    /// A JWK's private `d` does not belong to its public `x`/`y`.
    KeyMismatch,
    /// PEM or DER that is not a P-384 key of the expected kind.
    InvalidEncoding {
        /// `spki` or `pkcs8`.
        format: &'static str,
    },
    /// Key generation got fewer than 48 random bytes (one P-384 scalar).
    RandomnessTooShort {
        /// How many bytes were given.
        given: usize,
    },
    /// No 48-byte block of the given randomness was a valid scalar; call again with fresh
    /// randomness. (Each block fails with probability below 2⁻¹⁸⁹.)
    GenerationExhausted,
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidJwk { field } => write!(f, "invalid JWK member {field:?}"),
            Self::UnsupportedKey { field, value } => {
                write!(
                    f,
                    "unsupported key: {field} is {value:?}, expected EC P-384 ES384"
                )
            }
            Self::NotOnCurve => f.write_str("the point is not on the P-384 curve"),
            Self::InvalidScalar => f.write_str("the private key is not a valid P-384 scalar"),
            Self::KeyMismatch => f.write_str("the JWK private key does not match its public key"),
            Self::InvalidEncoding { format } => {
                write!(f, "not a {} P-384 key", format.to_ascii_uppercase())
            }
            Self::RandomnessTooShort { given } => write!(
                f,
                "key generation needs at least {COORDINATE_LEN} random bytes, got {given}"
            ),
            Self::GenerationExhausted => {
                f.write_str("no valid scalar in the given randomness; retry with fresh bytes")
            }
        }
    }
}

impl core::error::Error for KeyError {}

impl ErrorCode for KeyError {
    fn code(&self) -> &'static str {
        match self {
            Self::InvalidJwk { .. } => "ERR_JWK_INVALID",
            Self::UnsupportedKey { .. } => "ERR_JWK_UNSUPPORTED",
            Self::NotOnCurve => "ERR_KEY_NOT_ON_CURVE",
            Self::InvalidScalar => "ERR_KEY_INVALID_SCALAR",
            Self::KeyMismatch => "ERR_JWK_KEY_MISMATCH",
            Self::InvalidEncoding { .. } => "ERR_KEY_ENCODING_INVALID",
            Self::RandomnessTooShort { .. } => "ERR_KEY_RANDOMNESS_TOO_SHORT",
            Self::GenerationExhausted => "ERR_KEY_GENERATION_RETRY",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::InvalidJwk { field } | Self::UnsupportedKey { field, .. } => Some(field),
            _ => None,
        }
    }
}
