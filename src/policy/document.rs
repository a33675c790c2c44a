//! A policy document: read, checked against the budgets, and kept as its rule sets.

use alloc::format;
use alloc::string::{String, ToString};

use serde_json::{Map, Value};

use super::version::PolicyVersion;
use super::{PolicyError, MAX_POLICY_BYTES, MAX_RULES, MAX_RULE_ARRAY, MAX_RULE_DEPTH};
use crate::json;

/// The rule sets of a policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Rules {
    /// Version 1.0: one set, for the V1 single token.
    Flat(Map<String, Value>),
    /// Versions 2.0–4.0: the overall token's rules and every device token's.
    Split {
        overall: Map<String, Value>,
        detached: Map<String, Value>,
    },
}

/// A relying-party policy in NVIDIA's JSON format, checked against the budgets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    version: PolicyVersion,
    rules: Rules,
    rule_count: usize,
}

const VERSION: &str = "version";
const RULES: &str = "authorization-rules";
const TYPE: &str = "type";
const OVERALL: &str = "overall-claims";
const DETACHED: &str = "detached-claims";
const REQUIRED_OBJECT: &str = "is required, as an object";

impl Policy {
    /// Reads a policy: strict JSON (no duplicate members), a known `version`, the shape that
    /// version has, and within every budget. Nothing is evaluated here.
    pub fn parse(text: &[u8]) -> Result<Self, PolicyError> {
        if text.len() > MAX_POLICY_BYTES {
            return Err(PolicyError::TooLarge { len: text.len() });
        }
        let Value::Object(top) = json::parse(text).map_err(PolicyError::Json)? else {
            return Err(shape("", "a policy is a JSON object"));
        };
        only_members(&top, "", &[VERSION, RULES])?;
        let (mut version, mut rules) = (None, None);
        for (name, value) in top {
            if name == VERSION {
                version = Some(value);
            } else {
                rules = Some(value);
            }
        }
        let version = match version {
            Some(Value::String(text)) => {
                PolicyVersion::parse(&text).ok_or(PolicyError::UnknownVersion { version: text })?
            }
            Some(_) => return Err(shape("/version", "must be a string such as \"4.0\"")),
            None => return Err(shape("/version", "is required")),
        };
        let Some(Value::Object(rules)) = rules else {
            return Err(shape("/authorization-rules", REQUIRED_OBJECT));
        };
        let mut count = 0;
        let rules = if version == PolicyVersion::V1 {
            check_rules(&rules, "/authorization-rules", 1, &mut count)?;
            Rules::Flat(rules)
        } else {
            only_members(&rules, "/authorization-rules", &[TYPE, OVERALL, DETACHED])?;
            let (mut kind, mut overall, mut detached) = (None, None, None);
            for (name, value) in rules {
                match name.as_str() {
                    TYPE => kind = Some(value),
                    OVERALL => overall = Some(value),
                    _ => detached = Some(value),
                }
            }
            match kind {
                Some(Value::String(kind)) if kind == "JWT" => {}
                Some(_) => return Err(shape("/authorization-rules/type", "must be \"JWT\"")),
                None => return Err(shape("/authorization-rules/type", "is required")),
            }
            let Some(Value::Object(overall)) = overall else {
                return Err(shape(
                    "/authorization-rules/overall-claims",
                    REQUIRED_OBJECT,
                ));
            };
            let Some(Value::Object(detached)) = detached else {
                return Err(shape(
                    "/authorization-rules/detached-claims",
                    REQUIRED_OBJECT,
                ));
            };
            check_rules(
                &overall,
                "/authorization-rules/overall-claims",
                1,
                &mut count,
            )?;
            check_rules(
                &detached,
                "/authorization-rules/detached-claims",
                1,
                &mut count,
            )?;
            Rules::Split { overall, detached }
        };
        if count == 0 {
            return Err(shape("/authorization-rules", "holds no rules"));
        }
        Ok(Self {
            version,
            rules,
            rule_count: count,
        })
    }

    /// The policy's format version.
    pub fn version(&self) -> PolicyVersion {
        self.version
    }

    /// How many leaf rules it holds, all scopes together.
    pub fn rule_count(&self) -> usize {
        self.rule_count
    }

    /// The rules for the overall token (versions 2.0–4.0) or for the V1 single token (1.0).
    pub fn overall_rules(&self) -> &Map<String, Value> {
        match &self.rules {
            Rules::Flat(rules) => rules,
            Rules::Split { overall, .. } => overall,
        }
    }

    /// The rules every device token must meet (versions 2.0–4.0; none for 1.0).
    pub fn detached_rules(&self) -> Option<&Map<String, Value>> {
        match &self.rules {
            Rules::Flat(_) => None,
            Rules::Split { detached, .. } => Some(detached),
        }
    }

    pub(super) fn rules(&self) -> &Rules {
        &self.rules
    }
}

fn shape(field: &str, detail: &'static str) -> PolicyError {
    PolicyError::Shape {
        field: field.to_string(),
        detail,
    }
}

/// Refuses a member `object` does not declare.
fn only_members(
    object: &Map<String, Value>,
    at: &str,
    declared: &[&str],
) -> Result<(), PolicyError> {
    match object.keys().find(|key| !declared.contains(&key.as_str())) {
        Some(key) => Err(PolicyError::Shape {
            field: format!("{at}/{}", pointer_token(key)),
            detail: "is not a member of this policy version",
        }),
        None => Ok(()),
    }
}

/// Walks a rule set: depth, leaf count and array lengths, each against its budget.
fn check_rules(
    rules: &Map<String, Value>,
    at: &str,
    depth: usize,
    count: &mut usize,
) -> Result<(), PolicyError> {
    for (name, rule) in rules {
        let field = || format!("{at}/{}", pointer_token(name));
        match rule {
            Value::Object(members) if !members.is_empty() => {
                if depth >= MAX_RULE_DEPTH {
                    return Err(PolicyError::TooDeep { field: field() });
                }
                check_rules(members, &field(), depth + 1, count)?;
            }
            leaf => {
                if !arrays_within_budget(leaf) {
                    return Err(PolicyError::ArrayTooLarge { field: field() });
                }
                *count += 1;
                if *count > MAX_RULES {
                    return Err(PolicyError::TooManyRules);
                }
            }
        }
    }
    Ok(())
}

/// Every array in `value`, at any depth, is within [`MAX_RULE_ARRAY`]. (The JSON nesting
/// limit bounds the recursion.)
fn arrays_within_budget(value: &Value) -> bool {
    match value {
        Value::Array(items) => {
            items.len() <= MAX_RULE_ARRAY && items.iter().all(arrays_within_budget)
        }
        Value::Object(members) => members.values().all(arrays_within_budget),
        _ => true,
    }
}

/// A member name as one JSON Pointer reference token (RFC 6901 §3: `~` → `~0`, `/` → `~1`).
pub(super) fn pointer_token(name: &str) -> String {
    if name.contains(['~', '/']) {
        name.replace('~', "~0").replace('/', "~1")
    } else {
        name.to_string()
    }
}
