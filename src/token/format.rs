//! The two shapes of an attestation result (V1 and detached): what a caller expects, what an
//! endpoint answers with.

use crate::attest::Endpoint;

/// The two shapes of an attestation result. A verifier is told which one it expects
/// ([`super::VerifyOptions::result_format`]) and never infers it from the result: the
/// overall token of a detached result, or one of its device tokens, re-wrapped as
/// `{"eat": token}` would otherwise pass as V1 with no device to check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum ResultFormat {
    /// V1 (`/v1/attest/gpu`): `{"eat": token}`, one GPU's token.
    V1,
    /// V2–V4: the detached EAT. The default: it is what every current endpoint serves.
    #[default]
    Detached,
}

impl ResultFormat {
    /// `v1` or `detached`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::V1 => "v1",
            Self::Detached => "detached",
        }
    }

    /// Parses [`Self::as_str`]'s values, exactly.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "v1" => Some(Self::V1),
            "detached" => Some(Self::Detached),
            _ => None,
        }
    }

    /// The shape `endpoint` answers with (spec §9.3): V1 for `/v1/attest/gpu`, detached for
    /// V2–V4.
    pub const fn for_endpoint(endpoint: Endpoint) -> Self {
        match endpoint.version() {
            1 => Self::V1,
            _ => Self::Detached,
        }
    }
}
