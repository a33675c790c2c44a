//! The one table of "claim → what its failure means" (`CHECKS`) and how each row reads a
//! claim's value into a sentence. A new check is one row.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::reading::Shape;

/// Most indices or names listed in one message; the rest are summarised as `…`.
const MAX_LISTED: usize = 16;

/// `measres` values that mean the comparison succeeded (2.0+ and 1.0).
pub(super) const MEASRES_SUCCESS: [&str; 2] = ["success", "comparison-successful"];

/// How a claim's value is read.
#[derive(Clone, Copy, Debug)]
enum Rule {
    /// The check failed when the value is `false` (`null`: not computed, not a failure).
    False,
    /// A certificate-chain object: status other than `valid`, or OCSP `revoked`.
    CertChain,
    /// `x-nvidia-error-details`: the service's first failure.
    ErrorDetails,
    /// `measres` other than success.
    Measres,
    /// Non-empty `x-nvidia-mismatch-measurement-records`.
    MismatchRecords,
    /// Non-empty `x-nvidia-mismatch-indexes` (when the records do not already say it).
    MismatchIndexes,
    /// Non-empty `x-nvidia-mismatch-opaque-data-records`.
    OpaqueRecords,
    /// `dbgstat` other than `disabled`.
    DebugStatus,
}

/// Claim names a row applies to.
#[derive(Clone, Copy, Debug)]
enum Names {
    /// Exactly this name.
    Exact(&'static str),
    /// `x-nvidia-…` names ending in one of these.
    Suffix(&'static [&'static str]),
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
struct Check {
    names: Names,
    rule: Rule,
    /// The sentence; `{subject}` is replaced by what the claim is about ("driver RIM").
    message: &'static str,
}

impl Check {
    fn applies_to(&self, claim: &str) -> bool {
        match self.names {
            Names::Exact(name) => claim == name,
            Names::Suffix(suffixes) => {
                claim.starts_with("x-nvidia-") && suffixes.iter().any(|s| claim.ends_with(s))
            }
        }
    }
}

const fn row(names: Names, rule: Rule, message: &'static str) -> Check {
    Check {
        names,
        rule,
        message,
    }
}

use Names::{Exact, Suffix};

/// Claim → what its failure means, most decisive first.
const CHECKS: &[Check] = &[
    // The service's own statement of the first failure.
    row(
        Exact("x-nvidia-error-details"),
        Rule::ErrorDetails,
        "the service reported error",
    ),
    // The evidence.
    row(
        Suffix(&["-arch-check"]),
        Rule::False,
        "the device's architecture is not the one the request named",
    ),
    row(
        Suffix(&["-attestation-report-parsed"]),
        Rule::False,
        "the attestation report could not be parsed",
    ),
    row(
        Suffix(&["-nonce-match"]),
        Rule::False,
        "the attestation report's nonce differs from the request's",
    ),
    row(
        Suffix(&["-attestation-report-signature-verified"]),
        Rule::False,
        "the attestation report's signature did not verify",
    ),
    row(
        Suffix(&["-attestation-report-cert-chain"]),
        Rule::CertChain,
        "the device certificate chain",
    ),
    row(
        Suffix(&["-attestation-report-cert-chain-validated"]),
        Rule::False,
        "the device certificate chain did not validate",
    ),
    row(
        Suffix(&["-cert-chain-fwid-match"]),
        Rule::False,
        "the firmware ID (FWID) in the attestation report differs from the device certificate's",
    ),
    // The reference measurement documents (RIMs).
    row(
        Suffix(&["-rim-fetched", "-rim-schema-fetched"]),
        Rule::False,
        "the {subject} could not be fetched",
    ),
    row(
        Suffix(&["-rim-schema-validated"]),
        Rule::False,
        "the {subject} is not a valid RIM document",
    ),
    row(
        Suffix(&["-rim-cert-chain"]),
        Rule::CertChain,
        "the {subject}'s signing certificate chain",
    ),
    row(
        Suffix(&["-rim-cert-validated"]),
        Rule::False,
        "the {subject}'s signing certificate chain did not validate",
    ),
    row(
        Suffix(&["-rim-signature-verified"]),
        Rule::False,
        "the {subject}'s signature did not verify",
    ),
    row(
        Suffix(&["-rim-version-match"]),
        Rule::False,
        "the {subject}'s version differs from the version in the attestation report",
    ),
    row(
        Suffix(&[
            "-rim-measurements-available",
            "-rim-driver-measurements-available",
        ]),
        Rule::False,
        "the {subject} holds no measurements to compare",
    ),
    row(
        Suffix(&["-vbios-index-no-conflict"]),
        Rule::False,
        "the driver and VBIOS RIMs both claim a measurement index",
    ),
    // The measurement comparison.
    row(
        Exact("x-nvidia-mismatch-measurement-records"),
        Rule::MismatchRecords,
        "measurements differ from",
    ),
    row(
        Exact("x-nvidia-mismatch-indexes"),
        Rule::MismatchIndexes,
        "measurements differ from the RIMs",
    ),
    row(
        Suffix(&["-measurements-match"]),
        Rule::False,
        "the measurements do not match the reference values",
    ),
    row(
        Exact("x-nvidia-mismatch-opaque-data-records"),
        Rule::OpaqueRecords,
        "below the RIM's minimum",
    ),
    row(
        Exact("measres"),
        Rule::Measres,
        "the measurement comparison did not succeed",
    ),
    // The platform state.
    row(Exact("secboot"), Rule::False, "secure boot is not enabled"),
    row(
        Exact("dbgstat"),
        Rule::DebugStatus,
        "debug mode is not disabled",
    ),
];

/// What a claim must be, by the row that reads it (`None`: no row reads it).
pub(super) fn shape(claim: &str) -> Option<Shape> {
    let check = CHECKS.iter().find(|check| check.applies_to(claim))?;
    Some(match check.rule {
        Rule::False
            if claim.ends_with("-cert-chain-validated")
                || claim.ends_with("-rim-cert-validated") =>
        {
            Shape::ChainValidated
        }
        Rule::False => Shape::Check,
        Rule::CertChain => Shape::ChainObject,
        Rule::ErrorDetails => Shape::Object,
        Rule::Measres => Shape::Text,
        Rule::MismatchRecords | Rule::MismatchIndexes | Rule::OpaqueRecords => Shape::List,
        Rule::DebugStatus => Shape::OptionalText,
    })
}

/// The rank of the row that reads `claim` (lower is more decisive) and, when its value says a
/// check failed, the sentence saying so.
pub(super) fn failure(
    claim: &str,
    value: &Value,
    claims: &Map<String, Value>,
    switch: bool,
) -> Option<(usize, String)> {
    let (rank, check) = CHECKS
        .iter()
        .enumerate()
        .find(|(_, check)| check.applies_to(claim))?;
    let context = Context {
        claim,
        claims,
        switch,
    };
    Some((rank, check.rule.failure(value, check.message, &context)?))
}

/// What a rule may look at besides the value.
struct Context<'a> {
    claim: &'a str,
    claims: &'a Map<String, Value>,
    switch: bool,
}

impl Context<'_> {
    /// What the claim is about, from its name.
    fn subject(&self) -> &'static str {
        let name = self.claim;
        if name.contains("-driver-rim") {
            "driver RIM"
        } else if name.contains("-vbios-rim") && !self.switch {
            "VBIOS RIM"
        } else if name.contains("bios-rim") {
            // Switch claims 1.0 name the switch BIOS RIM `vbios`.
            "BIOS RIM"
        } else {
            "RIM"
        }
    }

    /// The RIM a mismatch record's `measurementSource` names.
    fn source(&self, source: &str) -> &'static str {
        let source = source.to_ascii_lowercase();
        if source.contains("driver") {
            "driver RIM"
        } else if source.contains("firmware") || source.contains("bios") {
            if self.switch {
                "BIOS RIM"
            } else {
                "VBIOS RIM"
            }
        } else {
            "RIM"
        }
    }
}

impl Rule {
    /// The failure sentence, or `None` when the value does not say the check failed.
    fn failure(self, value: &Value, message: &str, context: &Context<'_>) -> Option<String> {
        let message = message.replace("{subject}", context.subject());
        match self {
            Self::False => (value == &Value::Bool(false)).then_some(message),
            Self::CertChain => cert_chain_failure(value, &message),
            Self::ErrorDetails => {
                let details = value.as_object()?;
                let code = details.get("code").map(json_text);
                let name = details.get("message").and_then(Value::as_str);
                let description = details
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::trim)
                    .filter(|d| !d.is_empty());
                let head = [code.as_deref(), name]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join(" ");
                Some(match description {
                    Some(description) => format!("{message} {head}: {description}"),
                    None => format!("{message} {head}"),
                })
            }
            Self::Measres => {
                let measres = value.as_str()?;
                (!MEASRES_SUCCESS.contains(&measres)).then(|| format!("{message} ({measres})"))
            }
            Self::MismatchRecords => {
                let records = value.as_array().filter(|r| !r.is_empty())?;
                let mut groups: Vec<(&'static str, Vec<String>)> = Vec::new();
                for record in records {
                    let source = context.source(
                        record
                            .get("measurementSource")
                            .and_then(Value::as_str)
                            .unwrap_or_default(),
                    );
                    let index = record.get("index").map_or_else(String::new, json_text);
                    match groups.iter_mut().find(|(s, _)| *s == source) {
                        Some((_, indices)) => indices.push(index),
                        None => groups.push((source, alloc::vec![index])),
                    }
                }
                let count = counted(records.len(), "measurement", "measurements");
                let verb = if records.len() == 1 {
                    "differs"
                } else {
                    "differ"
                };
                Some(match groups.as_slice() {
                    [(source, indices)] => {
                        format!("{count} {verb} from the {source}: {}", listed(indices))
                    }
                    _ => {
                        let parts: Vec<String> = groups
                            .iter()
                            .map(|(source, indices)| format!("{source} {}", listed(indices)))
                            .collect();
                        format!("{count} {verb} from the RIMs: {}", parts.join("; "))
                    }
                })
            }
            Self::MismatchIndexes => {
                let indexes = value.as_array().filter(|i| !i.is_empty())?;
                let records = context
                    .claims
                    .get("x-nvidia-mismatch-measurement-records")
                    .and_then(Value::as_array);
                if records.is_some_and(|r| !r.is_empty()) {
                    return None;
                }
                let indices: Vec<String> = indexes.iter().map(json_text).collect();
                let count = counted(indexes.len(), "measurement", "measurements");
                let verb = if indexes.len() == 1 {
                    "differs"
                } else {
                    "differ"
                };
                Some(format!(
                    "{count} {verb} from the RIMs: {}",
                    listed(&indices)
                ))
            }
            Self::OpaqueRecords => {
                let records = value.as_array().filter(|r| !r.is_empty())?;
                let names: Vec<String> = records
                    .iter()
                    .map(|record| {
                        let name = record.get("name").and_then(Value::as_str).unwrap_or("?");
                        match (record.get("runtimeValue"), record.get("goldenValue")) {
                            (Some(runtime), Some(floor)) => {
                                format!("{name} {} < {}", json_text(runtime), json_text(floor))
                            }
                            _ => name.to_string(),
                        }
                    })
                    .collect();
                let count = counted(records.len(), "opaque value is", "opaque values are");
                Some(format!("{count} {message}: {}", truncated(&names)))
            }
            Self::DebugStatus => {
                let status = value.as_str()?;
                (status != "disabled").then(|| format!("{message} ({status})"))
            }
        }
    }
}

fn cert_chain_failure(value: &Value, noun: &str) -> Option<String> {
    let chain = value.as_object()?;
    let status = chain.get("x-nvidia-cert-status").and_then(Value::as_str);
    let ocsp = chain
        .get("x-nvidia-cert-ocsp-status")
        .and_then(Value::as_str);
    let expiry = chain
        .get("x-nvidia-cert-expiration-date")
        .and_then(Value::as_str);
    let reason = chain
        .get("x-nvidia-cert-revocation-reason")
        .and_then(Value::as_str);
    if status == Some("revoked") || ocsp == Some("revoked") {
        return Some(match reason {
            Some(reason) => format!("{noun} has been revoked ({reason})"),
            None => format!("{noun} has been revoked"),
        });
    }
    match status? {
        "valid" => None,
        "expired" => Some(match expiry {
            Some(expiry) => format!("{noun} has expired ({expiry})"),
            None => format!("{noun} has expired"),
        }),
        "invalid" => Some(format!("{noun} is not valid")),
        other => Some(format!("{noun} has status {other:?}")),
    }
}

/// `1 measurement` / `3 measurements`.
fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// `index 3` / `indices 3, 5, 9`.
fn listed(indices: &[String]) -> String {
    if indices.len() == 1 {
        format!("index {}", truncated(indices))
    } else {
        format!("indices {}", truncated(indices))
    }
}

fn truncated(items: &[String]) -> String {
    let shown = items.get(..MAX_LISTED).unwrap_or(items);
    let mut text = shown.join(", ");
    if items.len() > shown.len() {
        text.push_str(", …");
    }
    text
}

/// `value` as compact JSON text (what `Value`'s `Display` writes), through the crate's one
/// writer rather than `Display`'s (serde_json's, compact and pretty: two writers more in the
/// module).
pub(super) fn json_text(value: &Value) -> String {
    crate::json::write::to_string(value).unwrap_or_else(|_| String::from("null"))
}
