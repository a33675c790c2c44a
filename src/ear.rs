//! EAT Attestation Results (EAR, IETF `draft-ietf-rats-ear`): the verification's verdict per
//! device in a standard shape, with AR4SI trustworthiness vectors (`draft-ietf-rats-ar4si`),
//! for relying parties that speak EAR rather than NVIDIA's claims.
//!
//! One model ([`Ear`]), two dialects ([`EarDialect`]) and two encodings ([`EarEncoding`]):
//!
//! | dialect | `eat_profile` | claim names | `eat_nonce` |
//! |---|---|---|---|
//! | [`EarDialect::Veraison`] | [`EAR_PROFILE`] | `ear.status`, `ear.trustworthiness-vector`, `ear.appraisal-policy-id` (text), `ear.verifier-id` | verbatim text (this crate: 64 hex digits) |
//! | [`EarDialect::Ietf04`] (`draft-ietf-rats-ear-04`) | [`EAR_PROFILE_04`] | `ear_status` (also top-level: the worst submodule's), `ear_trustworthiness_vector`, `ear_appraisal_policy_ids` (array), `ear_verifier_id`, optional `exp` | base64url (no padding) of the nonce's 8 to 64 bytes |
//!
//! The veraison dialect is the profile Veraison's libraries up to `ear` 0.5.0 (and trustee)
//! read and write; its JSON is unchanged for existing readers. The -04 dialect is what
//! `ear` 0.6.0 reads and writes. Encodings: a JWT (ES384, JSON claims, [`Ear::signing_input`])
//! or a CWT (`COSE_Sign1`, tag 18, ES384 = alg −35, integer labels, [`Ear::cwt_to_be_signed`]):
//! `eat_profile` 265, `iat` 6, `exp` 4, `ear_verifier_id` 1004 (`developer` 0, `build` 1),
//! `submods` 266, `ear_status` 1000, `ear_trustworthiness_vector` 1001 (keys 0–7 in
//! `ar4si.cddl` order), `ear_appraisal_policy_ids` 1003, `eat_nonce` 10 (bytes); tiers
//! none/affirming/warning/contraindicated are 0/2/32/96. A CWT EAR is -04 only (the veraison
//! profile defined no CBOR labels of its own).
//!
//! Reading ([`Ear::from_claims`], [`Ear::from_cwt_claims`], [`verify_ear`],
//! [`verify_ear_cwt`]) takes either dialect by its profile and refuses any other profile, a
//! float `iat` or `exp`, duplicate members or keys, a top-level `ear_status` better than the
//! worst submodule's, and signatures other than ES384. Unknown claims (extensions) and unknown
//! members of a submodule are ignored, so a composite EAR's foreign submodules read as
//! appraisals ([`compose_ear`], [`verify_composite_ear`]).
//!
//! An EAR is built from claims this crate verified or minted ([`Ear::from_result`],
//! [`appraise_device`]), so the relying party's and the service's EAR say the same:
//! - `eat_profile`, `iat` (the caller's clock), the verifier id (`developer`: this crate's
//!   repository, `build`: `edgeattest <version>`);
//! - `eat_nonce`: the overall token's (the service: the request's nonce, which its tokens write
//!   as 64 lower-case hex digits); [`Ear::nonce`] gives it as that text in both dialects;
//! - `submods`: one per device, keyed by its label (`GPU-0`, `SWITCH-3`), document order.
//!
//! ## The trustworthiness vector
//!
//! Each value is the worst any row below gives for that key (a higher number is worse); a key
//! no row applies to is omitted, as AR4SI says for claims without evidence (`file-system`,
//! `runtime-opaque`, `storage-opaque`, `sourced-data` are never written: nothing NVIDIA's
//! evidence holds speaks to them). Claim names are matched as the appraisal's table does
//! (`x-nvidia-gpu-…`, `x-nvidia-switch-…`, claims 1.0–4.0 and the V1 token's
//! `x-nvidia-attestation-detailed-result`).
//!
//! | key | value | when the claims say |
//! |---|---|---|
//! | `instance-identity` | 2 recognised | report signature verified, and no row below |
//! | | 1 unexpected evidence | `…-attestation-report-parsed` false |
//! | | 32 | device chain `expired`, or its OCSP status `unknown` (revocation not confirmed) |
//! | | 96 compromised | device chain `revoked` or OCSP `revoked`; `…-cert-chain-fwid-match` false |
//! | | 97 unrecognised | device chain `invalid`; `…-attestation-report-cert-chain-validated` false |
//! | | 99 crypto failed | `…-attestation-report-signature-verified` false; `…-nonce-match` false |
//! | `hardware` | 2 genuine | `…-arch-check` true and the device chain `valid` |
//! | | 32 | `…-arch-check` true, the device chain `expired` |
//! | | 96 | device chain `revoked` |
//! | | 97 unrecognised | `…-arch-check` false; device chain `invalid` |
//! | `executables` | 2 approved | `measres` success (`…-measurements-match` true for 1.0) |
//! | | 32 known bugs | a RIM chain `expired` or its OCSP `unknown`; opaque values below the RIM's minimum |
//! | | 33 unrecognised | `measres` not success; mismatch records; a RIM not fetched, not a RIM document, or without measurements |
//! | | 96 contraindicated | a RIM chain `revoked` |
//! | | 99 crypto failed | a RIM signature not verified; a RIM chain `invalid` |
//! | `configuration` | 2 approved | `secboot` true, `dbgstat` `disabled`, RIM versions match, no VBIOS index conflict (those present) |
//! | | 96 unsupportable | `secboot` false; `dbgstat` not `disabled`; a RIM version mismatch; a VBIOS index conflict |
//!
//! ## The status
//!
//! `ear.status` is the worst tier of the vector's values (AR4SI bands: −1..1 none, 2..31
//! affirming, 32..95 warning, 96..127 contraindicated, anything else contraindicated), raised:
//! - to `contraindicated` when the device failed NVIDIA's checks (the appraisal,
//!   [`crate::token::DeviceAppraisal::passed`] `false`): whatever the vector shows, a device the
//!   verifier failed is never `affirming` or `warning`;
//! - to `warning` when its claims give no verdict at all;
//! - to `contraindicated` when a relying-party policy was applied and the device fails it
//!   (the policy is the appraisal policy: a device it rejects must not be used); the
//!   policy's id is then `ear.appraisal-policy-id` ([`policy_id`]).
//!
//! An empty vector (a token without any claim above) is omitted, and gives no better than
//! `warning` by the second rule.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::error_code::ErrorCode;
use crate::token::TokenError;

mod appraisal;
mod build;
mod composite;
mod cwt;
mod data;
mod json;
mod vector;
mod verify;

pub use appraisal::{EarAppraisal, TrustTier, TrustVector, VerifierId, EAR_DEVELOPER};
pub use build::{appraise_device, policy_id};
pub use composite::{check_composite_ear, compose_ear, verify_composite_ear};
pub use cwt::EarCwtInput;
pub use data::{EarData, EarSubmod};
pub use vector::trust_vector;
pub use verify::{prepare_ear, prepare_ear_cwt, verify_ear, verify_ear_cwt, PreparedEar};

/// The veraison profile (`eat_profile` of [`EarDialect::Veraison`]).
pub const EAR_PROFILE: &str = "tag:github.com,2023:veraison/ear";

/// The profile of `draft-ietf-rats-ear-04` (`eat_profile` of [`EarDialect::Ietf04`]).
pub const EAR_PROFILE_04: &str = "tag:ietf.org,2026:rats/ear#04";

/// The media type of a veraison-profile EAR in a JWT (RFC 9782 `application/eat+jwt` with
/// the profile).
pub const EAR_MEDIA_TYPE: &str =
    "application/eat+jwt; eat_profile=\"tag:github.com,2023:veraison/ear\"";

/// The most submodules an EAR may hold when read (a result holds at most
/// [`crate::token::MAX_DEVICES`]).
pub const MAX_EAR_SUBMODS: usize = 64;

/// The claim names and profile of an EAR (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum EarDialect {
    /// [`EAR_PROFILE`]: dotted names, one policy id, the nonce as text.
    #[default]
    Veraison,
    /// [`EAR_PROFILE_04`]: underscore names, a top-level status, policy id arrays, the
    /// nonce as bytes.
    Ietf04,
}

impl EarDialect {
    /// Its `eat_profile`.
    pub fn profile(self) -> &'static str {
        match self {
            Self::Veraison => EAR_PROFILE,
            Self::Ietf04 => EAR_PROFILE_04,
        }
    }

    /// The dialect of a profile (compared exactly, as EAT profiles are).
    pub fn from_profile(profile: &str) -> Option<Self> {
        [Self::Veraison, Self::Ietf04]
            .into_iter()
            .find(|dialect| dialect.profile() == profile)
    }

    /// The dialect's short name in results: `"veraison"` or `"ietf-04"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Veraison => "veraison",
            Self::Ietf04 => "ietf-04",
        }
    }
}

/// How an EAR is signed and carried.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum EarEncoding {
    /// A compact JWS (`application/eat+jwt`).
    #[default]
    Jwt,
    /// A `COSE_Sign1` CWT (`application/eat+cwt`).
    Cwt,
}

impl EarEncoding {
    /// Its short name in results: `"jwt"` or `"cwt"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Jwt => "jwt",
            Self::Cwt => "cwt",
        }
    }
}

/// The media type of an EAR in `encoding` and `dialect`, with its profile parameter.
pub fn ear_media_type(dialect: EarDialect, encoding: EarEncoding) -> String {
    let essence = match encoding {
        EarEncoding::Jwt => "application/eat+jwt",
        EarEncoding::Cwt => "application/eat+cwt",
    };
    alloc::format!("{essence}; eat_profile=\"{}\"", dialect.profile())
}

/// An EAT Attestation Result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ear {
    dialect: EarDialect,
    iat: i64,
    exp: Option<i64>,
    verifier_id: VerifierId,
    /// The veraison dialect: `eat_nonce` verbatim; -04: its bytes as lower-case hex.
    nonce: Option<String>,
    submods: Vec<(String, EarAppraisal)>,
}

impl Ear {
    /// A veraison-profile EAR issued at `iat` (Unix seconds) by this crate, with `nonce`
    /// and the submodules (label, appraisal) in order ([`Self::into_dialect`] for -04).
    pub fn new(iat: i64, nonce: Option<String>, submods: Vec<(String, EarAppraisal)>) -> Self {
        Self {
            dialect: EarDialect::Veraison,
            iat,
            exp: None,
            verifier_id: VerifierId::edgeattest(),
            nonce,
            submods,
        }
    }

    /// The same EAR in `dialect`. -04 carries the nonce as bytes: it must be 16 to 128 hex
    /// digits (8 to 64 bytes; this crate's nonces are 64).
    ///
    /// # Errors
    /// [`EarError::Shape`] (`eat_nonce`) for a nonce -04 cannot carry.
    pub fn into_dialect(mut self, dialect: EarDialect) -> Result<Self, EarError> {
        if dialect == EarDialect::Ietf04 {
            if let Some(nonce) = &self.nonce {
                let bytes = nonce_bytes(nonce).ok_or_else(|| shape("eat_nonce", NONCE_RULE))?;
                self.nonce = Some(hex::encode(bytes));
            }
        }
        self.dialect = dialect;
        Ok(self)
    }

    pub(super) fn read(
        dialect: EarDialect,
        iat: i64,
        exp: Option<i64>,
        verifier_id: VerifierId,
        nonce: Option<String>,
        submods: Vec<(String, EarAppraisal)>,
    ) -> Self {
        Self {
            dialect,
            iat,
            exp,
            verifier_id,
            nonce,
            submods,
        }
    }

    /// The dialect it was built or read in.
    pub fn dialect(&self) -> EarDialect {
        self.dialect
    }

    /// `iat`.
    pub fn iat(&self) -> i64 {
        self.iat
    }

    /// `exp`, when the EAR carries one (-04; this crate writes none).
    pub fn exp(&self) -> Option<i64> {
        self.exp
    }

    /// The verifier id.
    pub fn verifier_id(&self) -> &VerifierId {
        &self.verifier_id
    }

    /// `eat_nonce`: the veraison dialect's verbatim, the -04 dialect's bytes as lower-case
    /// hex (so a relying party compares the one nonce text it sent, in either dialect).
    pub fn nonce(&self) -> Option<&str> {
        self.nonce.as_deref()
    }

    /// Whether `eat_nonce` is `expected`: the veraison dialect compares the text exactly,
    /// -04 the bytes (`expected` as hex, either case, or as the claim's base64url).
    pub fn nonce_matches(&self, expected: &str) -> bool {
        match (self.dialect, self.nonce.as_deref()) {
            (_, None) => false,
            (EarDialect::Veraison, Some(nonce)) => nonce == expected,
            (_, Some(nonce)) => {
                nonce.eq_ignore_ascii_case(expected)
                    || crate::crypto::b64url_decode(expected)
                        .is_some_and(|bytes| hex::encode(bytes) == nonce)
            }
        }
    }

    /// The submodules, (label, appraisal), in document order.
    pub fn submods(&self) -> &[(String, EarAppraisal)] {
        &self.submods
    }

    /// The worst submodule status: what the whole result is worth (`None` without
    /// submodules, which a read EAR never is). The -04 dialect writes it as the top-level
    /// `ear_status`.
    pub fn status(&self) -> TrustTier {
        self.submods
            .iter()
            .map(|(_, appraisal)| appraisal.status)
            .max()
            .unwrap_or(TrustTier::None)
    }

    /// True only when every submodule is `affirming`.
    pub fn affirming(&self) -> bool {
        !self.submods.is_empty()
            && self
                .submods
                .iter()
                .all(|(_, a)| a.status == TrustTier::Affirming)
    }

    /// The JWS signing input of this EAR (ES384, header `kid`): sign it with the service's
    /// key and [`crate::token::assemble_jws`] the signature.
    ///
    /// # Errors
    /// [`TokenError::JwtInvalid`] if the claims cannot be written (they always can).
    pub fn signing_input(&self, kid: &str) -> Result<String, TokenError> {
        crate::token::jwt_signing_input(&json::Claims(self), kid)
    }

    /// The EAR as its JSON claims object, in its dialect.
    pub fn to_json(&self) -> String {
        crate::json::write::to_string(&json::Claims(self)).unwrap_or_default()
    }
}

/// What -04 requires of a nonce.
const NONCE_RULE: &str = "must be 8 to 64 bytes (16 to 128 hex digits)";

/// A nonce's bytes from its hex text, when -04 can carry them.
fn nonce_bytes(hex_text: &str) -> Option<Vec<u8>> {
    hex::decode(hex_text)
        .ok()
        .filter(|bytes| (8..=64).contains(&bytes.len()))
}

fn shape(field: &str, detail: &'static str) -> EarError {
    EarError::Shape {
        field: field.into(),
        detail,
    }
}

/// Why an EAR was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EarError {
    /// The JWT or CWT did not verify (signature, key, times, nonce): its own error.
    Token(TokenError),
    /// A CWT that is not a well-formed `COSE_Sign1` over a CBOR map, or not ES384: the
    /// COSE (or CBOR) error.
    Cose(crate::cose::CoseError),
    /// An `eat_profile` other than [`EAR_PROFILE`] and [`EAR_PROFILE_04`].
    Profile {
        /// The profile found.
        found: String,
    },
    /// A claim is missing or malformed.
    Shape {
        /// The claim (`submods/GPU-0/ear.status`).
        field: String,
        /// What is wrong with it.
        detail: &'static str,
    },
}

impl fmt::Display for EarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Token(error) => write!(f, "the EAR did not verify: {error}"),
            Self::Cose(error) => write!(f, "the EAR is not a CWT this crate reads: {error}"),
            Self::Profile { found } => {
                write!(
                    f,
                    "the EAR's profile is {found:?}, not {EAR_PROFILE:?} or {EAR_PROFILE_04:?}"
                )
            }
            Self::Shape { field, detail } => write!(f, "EAR claim {field} {detail}"),
        }
    }
}

impl core::error::Error for EarError {}

impl ErrorCode for EarError {
    fn code(&self) -> &'static str {
        match self {
            Self::Token(error) => error.code(),
            Self::Cose(error) => error.code(),
            Self::Profile { .. } => "ERR_EAR_PROFILE",
            Self::Shape { .. } => "ERR_EAR_SHAPE",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::Token(error) => error.field(),
            Self::Cose(_) => None,
            Self::Profile { .. } => Some("eat_profile"),
            Self::Shape { field, .. } => Some(field),
        }
    }
}

impl From<TokenError> for EarError {
    fn from(error: TokenError) -> Self {
        Self::Token(error)
    }
}
