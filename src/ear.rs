//! EAT Attestation Results (EAR, IETF `draft-ietf-rats-ear`): the verification's verdict per
//! device in a standard shape, with AR4SI trustworthiness vectors (`draft-ietf-rats-ar4si`),
//! for relying parties that speak EAR rather than NVIDIA's claims.
//!
//! Profile: `tag:github.com,2023:veraison/ear` ([`EAR_PROFILE`]), the profile Veraison's
//! verifiers and libraries (Go `veraison/ear`, Rust `ear`) write and read, with its claim
//! names (`ear.status`, `ear.trustworthiness-vector`, `ear.appraisal-policy-id`,
//! `ear.verifier-id`). The working group's later drafts (-03, -04) renamed the claims
//! (`ear_status`, …) under a new profile; that profile is not written here.
//!
//! An EAR is built from claims this crate verified or minted ([`Ear::from_result`],
//! [`appraise_device`]), so the relying party's and the service's EAR say the same:
//! - `eat_profile`, `iat` (the caller's clock), `ear.verifier-id` (`developer`: this crate's
//!   repository, `build`: `edgeattest <version>`);
//! - `eat_nonce`: the overall token's (the service: the request's nonce as its tokens write
//!   it, 64 lower-case hex digits), verbatim;
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

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use crate::error_code::ErrorCode;
use crate::token::TokenError;

mod build;
mod data;
mod vector;
mod verify;

pub use build::{appraise_device, policy_id};
pub use data::{EarData, EarSubmod};
pub use vector::trust_vector;
pub use verify::{prepare_ear, verify_ear, PreparedEar};

/// The EAR profile written and accepted: Veraison's (`eat_profile`).
pub const EAR_PROFILE: &str = "tag:github.com,2023:veraison/ear";

/// The media type of an EAR in a JWT (RFC 9782 `application/eat+jwt` with the profile).
pub const EAR_MEDIA_TYPE: &str =
    "application/eat+jwt; eat_profile=\"tag:github.com,2023:veraison/ear\"";

/// `ear.verifier-id.developer`: who wrote the verifier.
pub const EAR_DEVELOPER: &str = "https://github.com/edgeattest/edgeattest";

/// The most submodules an EAR may hold when read (a result holds at most
/// [`crate::token::MAX_DEVICES`]).
pub const MAX_EAR_SUBMODS: usize = 64;

/// An AR4SI trustworthiness tier (`ear.status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(rename = "EarStatus", rename_all = "lowercase")
)]
#[non_exhaustive]
pub enum TrustTier {
    /// No claim is made (values −1..1).
    None,
    /// Values 2..31.
    Affirming,
    /// Values 32..95.
    Warning,
    /// Values 96..127 (and the reserved negatives).
    Contraindicated,
}

impl TrustTier {
    /// The tier's name, as `ear.status` writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Affirming => "affirming",
            Self::Warning => "warning",
            Self::Contraindicated => "contraindicated",
        }
    }

    /// The tier a trustworthiness claim value falls in.
    pub fn of_value(value: i8) -> Self {
        match value {
            -1..=1 => Self::None,
            2..=31 => Self::Affirming,
            32..=95 => Self::Warning,
            _ => Self::Contraindicated,
        }
    }

    fn parse(text: &str) -> Option<Self> {
        [
            Self::None,
            Self::Affirming,
            Self::Warning,
            Self::Contraindicated,
        ]
        .into_iter()
        .find(|tier| tier.as_str() == text)
    }
}

impl Serialize for TrustTier {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// An AR4SI trustworthiness vector: one optional claim value per aspect, each present one
/// from -128 to 127.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(rename = "TrustworthinessVector", optional_fields)
)]
pub struct TrustVector {
    /// Whether the attester is the instance it claims to be.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instance_identity: Option<i8>,
    /// Whether its configuration is approved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub configuration: Option<i8>,
    /// Whether its firmware and software are recognised and approved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub executables: Option<i8>,
    /// File-system integrity (never written here).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_system: Option<i8>,
    /// Whether the hardware is genuine.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardware: Option<i8>,
    /// Run-time opacity (never written here).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtime_opaque: Option<i8>,
    /// Storage opacity (never written here).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub storage_opaque: Option<i8>,
    /// Sourced-data integrity (never written here).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sourced_data: Option<i8>,
}

/// The vector's keys, in `ar4si.cddl`'s order.
const VECTOR_KEYS: [&str; 8] = [
    "instance-identity",
    "configuration",
    "executables",
    "file-system",
    "hardware",
    "runtime-opaque",
    "storage-opaque",
    "sourced-data",
];

impl TrustVector {
    /// Reads a vector: a non-empty object of the eight AR4SI keys, each an integer from −128
    /// to 127 (read by hand rather than through serde's derive: smaller wasm).
    fn read(value: &Value) -> Option<Self> {
        let object = value.as_object().filter(|o| !o.is_empty())?;
        let mut vector = Self::default();
        for (key, value) in object {
            let claim = i8::try_from(value.as_i64()?).ok()?;
            let at = VECTOR_KEYS.iter().position(|k| k == key)?;
            let slot = match at {
                0 => &mut vector.instance_identity,
                1 => &mut vector.configuration,
                2 => &mut vector.executables,
                3 => &mut vector.file_system,
                4 => &mut vector.hardware,
                5 => &mut vector.runtime_opaque,
                6 => &mut vector.storage_opaque,
                _ => &mut vector.sourced_data,
            };
            *slot = Some(claim);
        }
        Some(vector)
    }

    fn values(&self) -> [Option<i8>; 8] {
        [
            self.instance_identity,
            self.configuration,
            self.executables,
            self.file_system,
            self.hardware,
            self.runtime_opaque,
            self.storage_opaque,
            self.sourced_data,
        ]
    }

    /// Whether no key holds a value.
    pub fn is_empty(&self) -> bool {
        self.values().iter().all(Option::is_none)
    }

    /// The worst tier of its values (`None` for an empty vector).
    pub fn tier(&self) -> TrustTier {
        self.values()
            .into_iter()
            .flatten()
            .map(TrustTier::of_value)
            .max()
            .unwrap_or(TrustTier::None)
    }
}

/// One submodule's appraisal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EarAppraisal {
    /// `ear.status`.
    #[serde(rename = "ear.status")]
    pub status: TrustTier,
    /// `ear.trustworthiness-vector` (omitted when empty).
    #[serde(
        rename = "ear.trustworthiness-vector",
        skip_serializing_if = "Option::is_none"
    )]
    pub vector: Option<TrustVector>,
    /// `ear.appraisal-policy-id`: the relying-party policy applied, when one was.
    #[serde(
        rename = "ear.appraisal-policy-id",
        skip_serializing_if = "Option::is_none"
    )]
    pub policy_id: Option<String>,
}

/// `ear.verifier-id`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct VerifierId {
    /// Who wrote the verifier.
    pub developer: String,
    /// Which build of it.
    pub build: String,
}

impl VerifierId {
    /// This crate: [`EAR_DEVELOPER`], `edgeattest <version>`.
    pub fn edgeattest() -> Self {
        Self {
            developer: EAR_DEVELOPER.into(),
            build: alloc::format!("edgeattest {}", env!("CARGO_PKG_VERSION")),
        }
    }
}

/// An EAT Attestation Result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ear {
    #[serde(rename = "eat_profile")]
    profile: &'static str,
    iat: i64,
    #[serde(rename = "ear.verifier-id")]
    verifier_id: VerifierId,
    #[serde(rename = "eat_nonce", skip_serializing_if = "Option::is_none")]
    nonce: Option<String>,
    submods: Submods,
}

/// The submodules in document order, written as a JSON object.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Submods(Vec<(String, EarAppraisal)>);

impl Serialize for Submods {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (label, appraisal) in &self.0 {
            map.serialize_entry(label, appraisal)?;
        }
        map.end()
    }
}

impl Ear {
    /// An EAR issued at `iat` (Unix seconds) by this crate, with `nonce` and the submodules
    /// (label, appraisal) in order.
    pub fn new(iat: i64, nonce: Option<String>, submods: Vec<(String, EarAppraisal)>) -> Self {
        Self {
            profile: EAR_PROFILE,
            iat,
            verifier_id: VerifierId::edgeattest(),
            nonce,
            submods: Submods(submods),
        }
    }

    /// `iat`.
    pub fn iat(&self) -> i64 {
        self.iat
    }

    /// `ear.verifier-id`.
    pub fn verifier_id(&self) -> &VerifierId {
        &self.verifier_id
    }

    /// `eat_nonce`, verbatim.
    pub fn nonce(&self) -> Option<&str> {
        self.nonce.as_deref()
    }

    /// The submodules, (label, appraisal), in document order.
    pub fn submods(&self) -> &[(String, EarAppraisal)] {
        &self.submods.0
    }

    /// The worst submodule status: what the whole result is worth (`None` without
    /// submodules, which a read EAR never is).
    pub fn status(&self) -> TrustTier {
        self.submods
            .0
            .iter()
            .map(|(_, appraisal)| appraisal.status)
            .max()
            .unwrap_or(TrustTier::None)
    }

    /// True only when every submodule is `affirming`.
    pub fn affirming(&self) -> bool {
        !self.submods.0.is_empty()
            && self.status() == TrustTier::Affirming
            && self
                .submods
                .0
                .iter()
                .all(|(_, a)| a.status == TrustTier::Affirming)
    }

    /// The JWS signing input of this EAR (ES384, header `kid`): sign it with the service's
    /// key and [`crate::token::assemble_jws`] the signature.
    ///
    /// # Errors
    /// [`TokenError::JwtInvalid`] if the claims cannot be written (they always can).
    pub fn signing_input(&self, kid: &str) -> Result<String, TokenError> {
        crate::token::jwt_signing_input(self, kid)
    }

    /// The EAR as its JSON claims object.
    pub fn to_json(&self) -> String {
        crate::json::write::to_string(self).unwrap_or_default()
    }

    /// Reads an EAR's claims (a verified JWT's payload): the profile must be
    /// [`EAR_PROFILE`], `iat` an integer, `ear.verifier-id` and `submods` (1 to
    /// [`MAX_EAR_SUBMODS`]) present and well-formed, `eat_nonce` a string when present.
    /// Unknown claims are ignored (extensions); unknown members of a vector are refused.
    ///
    /// # Errors
    /// [`EarError::Profile`] or [`EarError::Shape`].
    pub fn from_claims(claims: &Map<String, Value>) -> Result<Self, EarError> {
        match claims.get("eat_profile") {
            Some(Value::String(profile)) if profile == EAR_PROFILE => {}
            Some(Value::String(profile)) => {
                return Err(EarError::Profile {
                    found: profile.clone(),
                })
            }
            _ => return Err(shape("eat_profile", "is required, as a string")),
        }
        let iat = claims
            .get("iat")
            .and_then(Value::as_i64)
            .ok_or_else(|| shape("iat", "is required, as an integer"))?;
        let verifier_id = claims
            .get("ear.verifier-id")
            .and_then(Value::as_object)
            .filter(|id| id.len() == 2)
            .and_then(|id| {
                let text = |name: &str| id.get(name).and_then(Value::as_str).map(String::from);
                Some(VerifierId {
                    developer: text("developer")?,
                    build: text("build")?,
                })
            })
            .ok_or_else(|| shape("ear.verifier-id", "is required: {developer, build}"))?;
        let nonce = match claims.get("eat_nonce") {
            None => None,
            Some(Value::String(nonce)) => Some(nonce.clone()),
            Some(_) => return Err(shape("eat_nonce", "must be a string")),
        };
        let Some(Value::Object(members)) = claims.get("submods") else {
            return Err(shape("submods", "is required, as an object"));
        };
        if members.is_empty() || members.len() > MAX_EAR_SUBMODS {
            return Err(shape("submods", "must hold 1 to 64 submodules"));
        }
        let submods = members
            .iter()
            .map(|(label, value)| Ok((label.clone(), read_appraisal(label, value)?)))
            .collect::<Result<Vec<_>, EarError>>()?;
        Ok(Self {
            profile: EAR_PROFILE,
            iat,
            verifier_id,
            nonce,
            submods: Submods(submods),
        })
    }
}

fn read_appraisal(label: &str, value: &Value) -> Result<EarAppraisal, EarError> {
    let at = |member: &str| alloc::format!("submods/{label}/{member}");
    let object = value.as_object().ok_or_else(|| EarError::Shape {
        field: alloc::format!("submods/{label}"),
        detail: "must be an object",
    })?;
    let status = object
        .get("ear.status")
        .and_then(Value::as_str)
        .and_then(TrustTier::parse)
        .ok_or_else(|| EarError::Shape {
            field: at("ear.status"),
            detail: "is required: none, affirming, warning or contraindicated",
        })?;
    let vector = match object.get("ear.trustworthiness-vector") {
        None => None,
        Some(value) => Some(TrustVector::read(value).ok_or_else(|| EarError::Shape {
            field: at("ear.trustworthiness-vector"),
            detail: "must map AR4SI keys to integers from -128 to 127",
        })?),
    };
    let policy_id = match object.get("ear.appraisal-policy-id") {
        None => None,
        Some(Value::String(id)) => Some(id.clone()),
        Some(_) => {
            return Err(EarError::Shape {
                field: at("ear.appraisal-policy-id"),
                detail: "must be a string",
            })
        }
    };
    Ok(EarAppraisal {
        status,
        vector,
        policy_id,
    })
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
    /// The JWT did not verify (signature, key, times, nonce): its own error.
    Token(TokenError),
    /// An `eat_profile` other than [`EAR_PROFILE`].
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
            Self::Profile { found } => {
                write!(f, "the EAR's profile is {found:?}, not {EAR_PROFILE:?}")
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
            Self::Profile { .. } => "ERR_EAR_PROFILE",
            Self::Shape { .. } => "ERR_EAR_SHAPE",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::Token(error) => error.field(),
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
