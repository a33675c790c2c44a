//! Relying-party policies: whether a verified attestation result is acceptable to *this*
//! relying party, rule by rule, in NVIDIA's JSON policy format ("authorization-rules", the
//! format of nvtrust's attestation SDK).
//!
//! The service's verdict ([`crate::token::Appraisal`]) says whether NVIDIA's checks passed; a policy
//! says what the relying party requires on top: this claims version, this driver, OCSP good,
//! secure boot on. [`Policy::parse`] reads a policy and refuses a hostile or malformed one
//! before any work; [`appraise`] applies it to a verified result and reports every rule.
//!
//! Semantics (nvtrust `claim_utils.validate_claims`, read at NVIDIA/nvtrust `0281730`), and
//! where this module decides otherwise, why:
//! - A policy is `{"version": "1.0"…"4.0", "authorization-rules": {…}}`. Version 1.0 rules
//!   are flat and apply to the V1 single token; 2.0–4.0 rules are `type` (`"JWT"`),
//!   `overall-claims` (the overall token) and `detached-claims` (every device token, each
//!   against the same rules). nvtrust never reads `version`; here it selects the shape, and
//!   an unknown version is refused (a policy written for a future format must not be read
//!   as an old one). The claims version is a rule like any other (`x-nvidia-ver` in the
//!   3.0 and 4.0 examples).
//! - A rule whose value is an object matches a claim object member by member: the policy
//!   may name a subset, and members it does not name are ignored (the 4.0 examples name 2 of
//!   a certificate chain's 4 members). Any other rule value must equal the claim.
//! - Equality is JSON's, not Python's: `true` never equals `1` (nvtrust's `!=` says it does),
//!   numbers are equal by value (`1` and `1.0`), strings exactly (case matters: the 1.0
//!   example's upper-case `eat_nonce` does not match the service's lower-case one, as in
//!   nvtrust), arrays element by element in order, `null` only `null`.
//! - A claim the token lacks fails its rule, and is listed as missing.
//! - Every rule is evaluated and reported (nvtrust stops at the first failure and says
//!   which only in its log); the decision is that all passed.
//! - Members other than those named above are refused at the top level and in a 2.0–4.0
//!   `authorization-rules` object, so a misspelt `detached-claim` cannot silently drop a
//!   whole set of rules. `type` is required there and must be `"JWT"` (nvtrust 2.1 refuses
//!   any other token type).
//! - A 1.0 policy applied to a detached result, or a 2.0–4.0 policy to a V1 result, is an
//!   error ([`PolicyError::ResultFormat`]), not a decision.
//!
//! Budgets, checked before the work they bound: the text ([`MAX_POLICY_BYTES`]), JSON
//! nesting ([`crate::json::MAX_DEPTH`]), rule nesting ([`MAX_RULE_DEPTH`]), leaf rules
//! ([`MAX_RULES`]) and array lengths ([`MAX_RULE_ARRAY`]). Appraisal work is then linear in
//! rules × devices, and both are bounded.

use alloc::string::String;
use core::fmt;

use crate::error_code::ErrorCode;
use crate::json::JsonError;

mod decision;
mod document;
mod evaluate;
// The claims a JS host kept from a verified result, read back by the binding's policies.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) mod kept;
#[cfg(feature = "rego")]
pub(crate) mod rego;
mod version;

#[cfg(feature = "rego")]
pub use rego::{
    appraise_rego, RegoError, RegoPolicy, RegoSyntax, ALLOWED_BUILTINS as REGO_ALLOWED_BUILTINS,
    MAX_REGO_COLUMNS, MAX_REGO_COST, MAX_REGO_INSTRUCTIONS, MAX_REGO_LINES, MAX_REGO_NESTING,
};

pub use decision::{DeviceDecision, PolicyDecision, RuleOutcome, RuleStatus};
pub use document::Policy;
pub use evaluate::appraise;
pub(crate) use evaluate::device_rules;
pub use version::PolicyVersion;
// The JS binding appraises the claims the verification handed to JS.
#[cfg(all(
    target_arch = "wasm32",
    target_os = "unknown",
    any(feature = "js-verifier", not(feature = "js-rego"))
))]
pub(crate) use evaluate::appraise_claims;

/// The largest policy text read. NVIDIA's examples are under 2 KB.
pub const MAX_POLICY_BYTES: usize = 64 * 1024;

/// The deepest nesting of rule objects (NVIDIA's examples nest 2 deep).
pub const MAX_RULE_DEPTH: usize = 8;

/// The most leaf rules one policy may hold, all scopes together (NVIDIA's examples hold at
/// most 31).
pub const MAX_RULES: usize = 1024;

/// The longest array a rule may compare (no NVIDIA claim is an array longer than a few).
pub const MAX_RULE_ARRAY: usize = 64;

/// Why a policy was refused, or could not be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PolicyError {
    /// The text is longer than [`MAX_POLICY_BYTES`].
    TooLarge {
        /// Its length in bytes.
        len: usize,
    },
    /// Not strict JSON (syntax, a duplicate member, nesting past the JSON limit).
    Json(JsonError),
    /// Well-formed JSON that is not a policy: `field` names the member at fault.
    Shape {
        /// The member, as a JSON Pointer (`/authorization-rules/type`).
        field: String,
        /// What is wrong with it.
        detail: &'static str,
    },
    /// A `version` this crate does not know.
    UnknownVersion {
        /// The version as written.
        version: String,
    },
    /// Rule objects nest deeper than [`MAX_RULE_DEPTH`].
    TooDeep {
        /// The rule at the limit, as a JSON Pointer.
        field: String,
    },
    /// More leaf rules than [`MAX_RULES`].
    TooManyRules,
    /// An array longer than [`MAX_RULE_ARRAY`].
    ArrayTooLarge {
        /// The rule holding it, as a JSON Pointer.
        field: String,
    },
    /// The policy's version is for the other result format (1.0 is for V1 results, 2.0–4.0
    /// for detached ones).
    ResultFormat {
        /// The policy's version.
        version: PolicyVersion,
    },
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge { len } => write!(
                f,
                "the policy is {len} bytes, more than the {MAX_POLICY_BYTES} allowed"
            ),
            Self::Json(error) => write!(f, "the policy is not valid JSON: {error}"),
            Self::Shape { field, detail } => write!(f, "policy member {field}: {detail}"),
            Self::UnknownVersion { version } => write!(
                f,
                "unknown policy version {version:?} (known: \"1.0\", \"2.0\", \"3.0\", \"4.0\")"
            ),
            Self::TooDeep { field } => write!(
                f,
                "policy rule {field} nests deeper than {MAX_RULE_DEPTH} levels"
            ),
            Self::TooManyRules => write!(f, "the policy has more than {MAX_RULES} rules"),
            Self::ArrayTooLarge { field } => write!(
                f,
                "policy rule {field} compares an array of more than {MAX_RULE_ARRAY} elements"
            ),
            Self::ResultFormat { version } => match version {
                PolicyVersion::V1 => f.write_str(
                    "a version 1.0 policy applies to a V1 result (one token), not a detached one",
                ),
                _ => write!(
                    f,
                    "a version {} policy applies to a detached result, not a V1 one",
                    version.as_str()
                ),
            },
        }
    }
}

impl core::error::Error for PolicyError {}

impl ErrorCode for PolicyError {
    fn code(&self) -> &'static str {
        match self {
            Self::TooLarge { .. } => "ERR_POLICY_TOO_LARGE",
            Self::Json(error) => error.code(),
            Self::Shape { .. } => "ERR_POLICY_SHAPE",
            Self::UnknownVersion { .. } => "ERR_POLICY_UNKNOWN_VERSION",
            Self::TooDeep { .. } => "ERR_POLICY_TOO_DEEP",
            Self::TooManyRules => "ERR_POLICY_TOO_MANY_RULES",
            Self::ArrayTooLarge { .. } => "ERR_POLICY_ARRAY_TOO_LARGE",
            Self::ResultFormat { .. } => "ERR_POLICY_RESULT_FORMAT",
        }
    }

    fn field(&self) -> Option<&str> {
        match self {
            Self::Json(error) => error.field(),
            Self::Shape { field, .. } | Self::TooDeep { field } | Self::ArrayTooLarge { field } => {
                Some(field)
            }
            Self::UnknownVersion { .. } => Some("/version"),
            _ => None,
        }
    }
}
