//! Compiling a Rego policy for regorus's VM, and running it over verified claims.

use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::cell::RefCell;
use core::num::{NonZeroU32, NonZeroUsize};

use regorus::rvm::program::Program;
use regorus::rvm::vm::{ExecutionMode, RegoVM};
use regorus::{CompiledPolicy, Engine, PolicyLengthConfig};
use serde_json::{Map, Value};

use super::super::decision::{DeviceDecision, PolicyDecision, RuleOutcome, RuleStatus};
use super::super::{PolicyVersion, MAX_POLICY_BYTES};
use super::meter::Meter;
use super::program::check_program;
use super::scan::check_text;
use super::{input, message, RegoError, MAX_REGO_COLUMNS, MAX_REGO_INSTRUCTIONS, MAX_REGO_LINES};
use crate::token::{ResultFormat, VerifiedAttestationResult};

/// The package read beside the policy, whose `result` is the one entry point: the decision
/// rule (as in NVIDIA's SDK) and the optional list of failed rules, each in an array of one
/// value or none (undefined), evaluated in one run so that rules both read (`nv_match` usually
/// counts `reasons`) are evaluated once. The text reads the same as Rego v1 and v0.
const APPRAISAL: &str = "package edgeattest_appraisal

default nv_match := []

nv_match := [data.policy.nv_match]

default reasons := []

reasons := [data.policy.reasons]

result := [nv_match, reasons]
";
/// [`APPRAISAL`] for a policy without `reasons`.
const APPRAISAL_WITHOUT_REASONS: &str = "package edgeattest_appraisal

default nv_match := []

nv_match := [data.policy.nv_match]

result := [nv_match, []]
";
/// The entry point.
const RESULT: &str = "data.edgeattest_appraisal.result";

/// A Rego policy, checked against the budgets and compiled for regorus's VM once: parse it
/// once and apply it to any number of results ([`appraise_rego`]; each appraisal gets the whole
/// budget). Cloning shares the compiled program.
#[derive(Clone)]
pub struct RegoPolicy {
    compiled: CompiledPolicy,
    program: Arc<Program>,
    has_reasons: bool,
    syntax: RegoSyntax,
}

/// The Rego syntax a policy is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegoSyntax {
    /// OPA 1.0's syntax (`if` before rule bodies, `contains` for partial sets).
    V1,
    /// The syntax before OPA 1.0, which NVIDIA's SDK reads its policies in.
    V0,
}

impl core::fmt::Debug for RegoPolicy {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RegoPolicy")
            .field("has_reasons", &self.has_reasons)
            .field("syntax", &self.syntax)
            .finish_non_exhaustive()
    }
}

impl RegoPolicy {
    /// Reads and compiles a policy (`package policy`, Rego v1 or v0: [`RegoSyntax`]), refusing it when it is
    /// too large, does not compile, can call a builtin outside the allowed list or recurses.
    /// Nothing is evaluated here.
    pub fn parse(text: &[u8]) -> Result<Self, RegoError> {
        if text.len() > MAX_POLICY_BYTES {
            return Err(RegoError::TooLarge { len: text.len() });
        }
        let text = core::str::from_utf8(text).map_err(|_| RegoError::Parse {
            detail: "the text is not UTF-8".into(),
        })?;
        check_text(text)?;
        let (mut engine, syntax) = read(text)?;
        let in_package = engine
            .get_packages()
            .map_err(|e| RegoError::Parse {
                detail: message(&e),
            })?
            .iter()
            .any(|package| package == "data.policy");
        let has_reasons = in_package && declares(&engine, "reasons");
        if !in_package || !declares(&engine, "nv_match") {
            return Err(RegoError::Result {
                detail: "the policy must define data.policy.nv_match",
            });
        }
        let appraisal = if has_reasons {
            APPRAISAL
        } else {
            APPRAISAL_WITHOUT_REASONS
        };
        engine
            .add_policy("edgeattest_appraisal.rego".into(), appraisal.into())
            .map_err(compile_error)?;
        let compiled = engine
            .compile_with_entrypoint(&RESULT.into())
            .map_err(compile_error)?;
        let program =
            regorus::languages::rego::compiler::Compiler::compile_from_policy(&compiled, &[RESULT])
                .map_err(compile_error)?;
        check_program(&program)?;
        Ok(Self {
            compiled,
            program,
            has_reasons,
            syntax,
        })
    }

    /// The syntax the policy was read in.
    pub fn syntax(&self) -> RegoSyntax {
        self.syntax
    }

    /// Whether the policy lists its failed rules (`data.policy.reasons`).
    pub fn has_reasons(&self) -> bool {
        self.has_reasons
    }
}

/// Reads the text as Rego v1 (OPA 1.0's syntax, and regorus's default) and, when that fails,
/// as v0, the syntax NVIDIA's SDK reads its policies in (`nv_match { … }` without `if`,
/// `import future.keywords.every`). A text that reads as v1 means what v1 says; v0 is only the
/// fallback, as OPA 1.0's `--v0-compatible` is an opt-in. Both readings are under the same
/// length limits, and the text checks ran before either.
fn read(text: &str) -> Result<(Engine, RegoSyntax), RegoError> {
    let engine = |syntax: RegoSyntax| {
        let mut engine = Engine::new();
        engine.set_policy_length_config(length_config());
        engine.set_rego_v0(syntax == RegoSyntax::V0);
        engine
            .add_policy("policy.rego".into(), text.into())
            .map(|_| engine)
            .map_err(|e| message(&e))
    };
    match engine(RegoSyntax::V1) {
        Ok(engine) => Ok((engine, RegoSyntax::V1)),
        Err(as_v1) => match engine(RegoSyntax::V0) {
            Ok(engine) => Ok((engine, RegoSyntax::V0)),
            Err(as_v0) => Err(RegoError::Parse {
                detail: alloc::format!("{as_v1}; as Rego v0: {as_v0}"),
            }),
        },
    }
}

/// Whether package `policy` declares a rule named `name`.
fn declares(engine: &Engine, name: &str) -> bool {
    engine.get_policies().map(|_| ()).is_ok()
        && engine
            .has_declared_rule_rooted_at("policy.rego", name)
            .unwrap_or(false)
}

fn length_config() -> PolicyLengthConfig {
    PolicyLengthConfig {
        max_col: NonZeroU32::new(MAX_REGO_COLUMNS).unwrap_or(NonZeroU32::MIN),
        max_file_bytes: NonZeroUsize::new(MAX_POLICY_BYTES).unwrap_or(NonZeroUsize::MIN),
        max_lines: NonZeroUsize::new(MAX_REGO_LINES).unwrap_or(NonZeroUsize::MIN),
    }
}

fn compile_error(error: impl core::fmt::Display) -> RegoError {
    let detail = message(&error);
    if error.to_string().contains("recursion") {
        RegoError::Recursion { detail }
    } else {
        RegoError::Parse { detail }
    }
}

/// Applies a Rego policy to a verified result (the input document: `src/policy/rego.rs`).
/// Fails when the policy runs past its budget or its result has the wrong shape.
pub fn appraise_rego(
    result: &VerifiedAttestationResult,
    policy: &RegoPolicy,
) -> Result<PolicyDecision, RegoError> {
    let devices = result.device_claims();
    appraise_rego_claims(result.format(), result.overall().claims(), &devices, policy)
}

/// [`appraise_rego`] over claims a host kept from a verified result.
pub(crate) fn appraise_rego_claims(
    format: ResultFormat,
    overall_claims: &Map<String, Value>,
    device_claims: &[(&str, &Map<String, Value>)],
    policy: &RegoPolicy,
) -> Result<PolicyDecision, RegoError> {
    let mut vm = RegoVM::new_with_policy(policy.compiled.clone());
    vm.load_program(policy.program.clone());
    vm.set_max_instructions(MAX_REGO_INSTRUCTIONS);
    // The stackless engine: rule calls do not recurse on the native stack (a recursive policy
    // that regorus's compiler does not see is stopped by the budget, not by an overflow), and
    // it runs one instruction at a time for the cost meter.
    vm.set_execution_mode(ExecutionMode::Suspendable);
    let data = regorus::Value::from(input::context(format, overall_claims, device_claims));
    let devices = regorus::Value::from(input::devices(device_claims));
    vm.set_data(data.clone()).map_err(|e| RegoError::Eval {
        detail: message(&e),
    })?;
    vm.set_input(devices.clone());
    let mut roots = alloc::vec![data, devices];
    roots.extend(policy.program.literals.iter().cloned());
    let meter = Rc::new(RefCell::new(Meter::new(&policy.program, roots)));
    let result = Meter::run(&meter, &mut vm, RESULT)?;
    let (nv_match, reasons) = match &result {
        regorus::Value::Array(pair) => (
            pair.first()
                .and_then(only)
                .unwrap_or(&regorus::Value::Undefined),
            pair.get(1)
                .and_then(only)
                .unwrap_or(&regorus::Value::Undefined),
        ),
        _ => (&regorus::Value::Undefined, &regorus::Value::Undefined),
    };
    let nv_match = match nv_match {
        regorus::Value::Bool(b) => *b,
        regorus::Value::Undefined => false,
        _ => {
            return Err(RegoError::Result {
                detail: "data.policy.nv_match must be a boolean",
            })
        }
    };
    if meter.borrow().size(reasons, MAX_REASONS_SIZE) > MAX_REASONS_SIZE {
        return Err(RegoError::Result {
            detail: "data.policy.reasons is larger than 131072 units",
        });
    }
    let reasons = reasons_of(reasons)?;
    let mut overall = Vec::new();
    let mut devices: Vec<DeviceDecision> = device_claims
        .iter()
        .map(|(label, _)| DeviceDecision {
            label: (*label).into(),
            passed: true,
            rules: Vec::new(),
        })
        .collect();
    for (scope, rule) in reasons.iter().cloned() {
        match scope {
            None => overall.push(rule),
            Some(label) => match devices.iter_mut().find(|d| d.label == label) {
                Some(device) => device.rules.push(rule),
                None => {
                    return Err(RegoError::Result {
                        detail: "a reason names a device the result does not have",
                    })
                }
            },
        }
    }
    for device in &mut devices {
        device.passed = if policy.has_reasons {
            device.rules.is_empty()
        } else {
            nv_match
        };
    }
    Ok(PolicyDecision {
        passed: nv_match && reasons.is_empty(),
        version: PolicyVersion::Rego,
        overall,
        devices,
    })
}

/// The most reasons read (one per failed leaf rule and device is at most
/// `MAX_RULES × MAX_DEVICES`; more is a runaway policy).
const MAX_REASONS: usize = 4096;

/// The largest `data.policy.reasons` read, in cost units (32 a reason): its conversion to
/// JSON walks every shared copy.
const MAX_REASONS_SIZE: u64 = 131_072;

/// The value in an array of one (a rule of [`APPRAISAL`]; an empty one is undefined).
fn only(value: &regorus::Value) -> Option<&regorus::Value> {
    match value {
        regorus::Value::Array(one) => one.first(),
        _ => None,
    }
}

/// `data.policy.reasons` (a set or an array of reason objects; undefined: none).
fn reasons_of(value: &regorus::Value) -> Result<Vec<(Option<String>, RuleOutcome)>, RegoError> {
    const SHAPE: RegoError = RegoError::Result {
        detail:
            "data.policy.reasons must be a set of {device, path, expected, found, status} objects",
    };
    let items: Vec<regorus::Value> = match value {
        regorus::Value::Undefined => return Ok(Vec::new()),
        regorus::Value::Set(set) => set.iter().cloned().collect(),
        regorus::Value::Array(array) => array.iter().cloned().collect(),
        _ => return Err(SHAPE),
    };
    if items.len() > MAX_REASONS {
        return Err(RegoError::Result {
            detail: "data.policy.reasons lists more than 4096 failures",
        });
    }
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let Ok(Value::Object(item)) = serde_json::to_value(&item) else {
            return Err(SHAPE);
        };
        let scope = match item.get("device") {
            None | Some(Value::Null) => None,
            Some(Value::String(label)) => Some(label.clone()),
            Some(_) => return Err(SHAPE),
        };
        let Some(Value::String(path)) = item.get("path") else {
            return Err(SHAPE);
        };
        let found = item.get("found").cloned();
        let status = match item.get("status").map(Value::as_str) {
            None => RuleStatus::Mismatch,
            Some(Some("mismatch")) => RuleStatus::Mismatch,
            Some(Some("missing")) => RuleStatus::Missing,
            Some(_) => return Err(SHAPE),
        };
        out.push((
            scope,
            RuleOutcome {
                path: path.clone(),
                expected: item.get("expected").cloned().unwrap_or(Value::Null),
                found,
                status,
            },
        ));
    }
    // Report order: by scope (overall first), then path, as the JSON evaluation's policy
    // order cannot be recovered from a set.
    out.sort_by(|(a, x), (b, y)| (a, &x.path).cmp(&(b, &y.path)));
    Ok(out)
}
