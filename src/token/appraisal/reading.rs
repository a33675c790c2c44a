//! Reading a device token as its claims version defines it: the types of the verdict and check
//! claims, and whether the token confirms its certificate chains `good` (revocation).
//!
//! The version is the overall token's `x-nvidia-ver` (the V1 single token's own), else the
//! device token's `x-nvidia-gpu-claims-version` (4.0); a token minted without either is read
//! by the names it carries. An unknown version reads nothing.
//!
//! Types, per [`super::checks`] row: a check (`…-arch-check`, `secboot`, …) is a boolean, or
//! `null` (not computed: claims 3.0 write every claim, and a failed device's 1.0/2.0 claims
//! carry some); a certificate-chain object
//! (`…-attestation-report-cert-chain`, `…-rim-cert-chain`) is an object whose
//! `x-nvidia-cert-status` and `x-nvidia-cert-ocsp-status` are strings, and whose
//! [`REVOCATION_TIME`], when present, is an RFC 3339 time; or `null` — and exists only from
//! 3.0 on, as the `…-cert-chain-validated` / `…-rim-cert-validated` booleans exist
//! only before; `x-nvidia-error-details` is an object; `measres` and `dbgstat` are strings; the
//! mismatch records are arrays or `null`. A token must carry a verdict: `measres` or
//! `x-nvidia-error-details`.
//!
//! Revocation, "chains confirmed good":
//! - claims 3.0 and 4.0: the device chain object is present and every chain object of the
//!   token (device, RIMs) says `x-nvidia-cert-status: valid` and
//!   `x-nvidia-cert-ocsp-status: good`, and no warning says a certificate of it was accepted
//!   on hold; `unknown`, `not-checked` or `null` is not confirmed.
//! - claims 1.0 and 2.0 carry no revocation status: NRAS validates a chain with its OCSP
//!   answers (a failed or unanswered query is an error of the device, 5001–5003), so
//!   `…-attestation-report-cert-chain-validated: true`, with every `…-rim-cert-validated`
//!   present `true`, is confirmed — unless `x-nvidia-attestation-warning` says revocation was
//!   not checked ([`REVOCATION_NOT_CHECKED`], what a verifier without a responder writes) or
//!   that a service's revocation policy accepted a chain (its "accepted because" warnings).
//! - a token with no chain claim confirms nothing.
//!
//! The module `revocation` reads each chain and judges it under the relying party's policy.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value};

use crate::attest::ClaimsVersion;
use crate::time::{parse_rfc3339, UnixTime};

/// The warning a verifier that checks no revocation writes in every device token (this
/// crate's service with `EDGEATTEST_OCSP_URL=off`): a relying party reads it as "chains not
/// confirmed".
pub(crate) const REVOCATION_NOT_CHECKED: &str =
    "Certificate revocation (OCSP) was not checked by this verifier";

/// The chain object's member that dates the revocation of the certificate the chain is
/// reported revoked (or on hold) for: this crate's service writes it, NVIDIA's does not.
pub(crate) const REVOCATION_TIME: &str = "x-edgeattest-cert-revocation-time";

const WARNING: &str = "x-nvidia-attestation-warning";
const CLAIMS_VERSION_4: &str = "x-nvidia-gpu-claims-version";

/// What a claim of a row must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// A boolean check (`null`: not computed, 3.0 on).
    Check,
    /// A certificate-chain object (3.0 on).
    ChainObject,
    /// A chain-validated boolean (1.0 and 2.0).
    ChainValidated,
    /// An object.
    Object,
    /// A string.
    Text,
    /// A string or `null`.
    OptionalText,
    /// An array or `null`.
    List,
}

/// The claims version a device token is read with: `named` (the overall token's
/// `x-nvidia-ver`), else the token's own 4.0 claim; `Ok(None)` when neither is there.
///
/// # Errors
/// The claim that names the version and its text, when it names no version this crate reads.
pub(super) fn version_of(
    named: Option<&Value>,
    claims: &Map<String, Value>,
) -> Result<Option<ClaimsVersion>, (&'static str, Value)> {
    let (claim, value) = match (named, claims.get(CLAIMS_VERSION_4)) {
        (Some(value), _) => ("x-nvidia-ver", value),
        (None, Some(value)) => (CLAIMS_VERSION_4, value),
        (None, None) => return Ok(None),
    };
    value
        .as_str()
        .and_then(ClaimsVersion::parse)
        .map(Some)
        .ok_or_else(|| (claim, value.clone()))
}

/// Whether `version` (when known) defines a claim of `shape`, and with `null` allowed.
fn defined(shape: Shape, version: Option<ClaimsVersion>) -> (bool, bool) {
    let from_3 = version.map(|v| matches!(v, ClaimsVersion::V3_0 | ClaimsVersion::V4_0));
    match shape {
        Shape::ChainObject => (from_3 != Some(false), true),
        Shape::ChainValidated => (from_3 != Some(true), true),
        _ => (true, true),
    }
}

/// Why `value` does not read as a claim of `shape` under `version`, or `None` when it does.
pub(super) fn misread(
    shape: Shape,
    value: &Value,
    version: Option<ClaimsVersion>,
) -> Option<String> {
    let (exists, nullable) = defined(shape, version);
    let named = version.map_or_else(|| String::from("its claims"), |v| format!("claims {v}"));
    if !exists {
        return Some(format!("{named} do not define it"));
    }
    if let (Shape::ChainObject, Value::Object(chain)) = (shape, value) {
        if chain.get(REVOCATION_TIME).is_some() && revocation_time(chain).is_none() {
            return Some(format!("its {REVOCATION_TIME} is not an RFC 3339 time"));
        }
    }
    let expected = match shape {
        Shape::Check | Shape::ChainValidated => "a boolean",
        Shape::ChainObject => "a certificate-chain object",
        Shape::Object => "an object",
        Shape::Text | Shape::OptionalText => "a string",
        Shape::List => "an array",
    };
    let reads = match (shape, value) {
        (_, Value::Null) => nullable || matches!(shape, Shape::OptionalText | Shape::List),
        (Shape::Check | Shape::ChainValidated, Value::Bool(_)) => true,
        (Shape::ChainObject, Value::Object(chain)) => {
            ["x-nvidia-cert-status", "x-nvidia-cert-ocsp-status"]
                .iter()
                .all(|member| chain.get(*member).is_some_and(Value::is_string))
        }
        (Shape::Object, Value::Object(_)) => true,
        (Shape::Text | Shape::OptionalText, Value::String(_)) => true,
        (Shape::List, Value::Array(_)) => true,
        _ => false,
    };
    (!reads).then(|| format!("{named} define it as {expected}"))
}

/// The chain object's [`REVOCATION_TIME`], when present and an RFC 3339 time.
pub(super) fn revocation_time(chain: &Map<String, Value>) -> Option<UnixTime> {
    let text = chain.get(REVOCATION_TIME)?.as_str()?;
    UnixTime::from_secs(parse_rfc3339(text).ok()?)
}

/// The claim a token lacks to carry a verdict, when it carries none.
pub(super) fn missing_verdict(claims: &Map<String, Value>) -> Option<&'static str> {
    let has = |name| claims.contains_key(name);
    (!has("measres") && !has("x-nvidia-error-details")).then_some("measres")
}

/// The relying party's warning for a device whose chains are not confirmed `good`.
pub(super) const REVOCATION_UNCONFIRMED_WARNING: &str =
    "certificate revocation is not confirmed good (OCSP status unknown or not checked)";

/// A device's warnings: each `; `-separated part of `x-nvidia-attestation-warning` (how this
/// crate's service joins them), then [`REVOCATION_UNCONFIRMED_WARNING`] when the chains are
/// not confirmed and the service's words do not already say revocation was not checked.
pub(super) fn warnings(claims: &Map<String, Value>, revocation_confirmed: bool) -> Vec<String> {
    let said = claims.get(WARNING).and_then(Value::as_str).unwrap_or("");
    let mut out: Vec<String> = said
        .split("; ")
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(ToString::to_string)
        .collect();
    if !revocation_confirmed && !said.contains(REVOCATION_NOT_CHECKED) {
        out.push(REVOCATION_UNCONFIRMED_WARNING.into());
    }
    out
}
