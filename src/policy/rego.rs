//! Rego policies (the format of NVIDIA's C++ attestation SDK), evaluated with Microsoft's
//! `regorus` over a verified result's claims; Cargo feature `rego`.
//!
//! [`RegoPolicy::parse`] reads a policy, refuses a hostile one before any evaluation and
//! compiles it; [`appraise_rego`] applies it and returns the same [`PolicyDecision`] the JSON
//! policies do. A policy is compiled once and applied to any number of results: an appraisal
//! only builds the input document and runs the compiled program, within budgets of its own.
//!
//! # Syntax
//! Rego v1 (OPA 1.0's, regorus's default) and v0, the syntax NVIDIA's SDK reads (`nv_match {`
//! without `if`, `import future.keywords.every`), so that NVIDIA's own policies run as they are.
//! A text is read as v1 first and as v0 only when that fails ([`RegoSyntax`]); a text that
//! reads as v1 means what v1 says. Everything below holds for both.
//!
//! # Input document, version 1 (stable)
//!
//! The shape NVIDIA's SDK gives its policies, so that theirs run unchanged:
//! - `input`: an array, one object per device in the result's order: the device token's
//!   verified claims, verbatim, plus `"x-nvidia-device-type"` (`"gpu"`, or `"nvswitch"` for a
//!   `SWITCH-n` label) **only when the claims lack it** (NRAS claims up to 3.0 do). A V1
//!   result has one device: its single token.
//! - `data.edgeattest`: the context NVIDIA's shape has no place for —
//!   `{"version": 1, "format": "detached" | "v1", "overall": {…the overall token's claims},
//!   "labels": ["GPU-0", …]}` (`labels[i]` names `input[i]`; a V1 result's overall claims are
//!   its single token's).
//!
//! # What the policy provides
//! - `data.policy.nv_match` (required, as in NVIDIA's SDK): a boolean; undefined is `false`
//!   (`default nv_match := false` is the usual form); any other value is
//!   [`RegoError::Result`].
//! - `data.policy.reasons` (optional): a set or array of failed rules, each an object
//!   `{"device": "GPU-0" | null, "path": "/a/b", "expected": …, "found": …,
//!   "status": "mismatch" | "missing"}` — `device` null or absent for the overall token,
//!   `found` absent when the claim is missing, `status` defaulting to `"mismatch"`. They fill
//!   [`PolicyDecision`]'s rule lists: a Rego decision lists the rules that failed, not every
//!   rule checked. The bundled translations of NVIDIA's JSON policies report every failed leaf
//!   rule this way, with the JSON evaluation's paths.
//!
//! The decision: `passed` is `nv_match` and no reason given. A device passed when no reason
//! names it, or, for a policy without `reasons`, when `nv_match` holds. `version` is
//! [`PolicyVersion::Rego`].
//!
//! # Budgets (each refused with its code, before or instead of the work)
//! - the text: [`MAX_POLICY_BYTES`], [`MAX_REGO_LINES`] lines, [`MAX_REGO_COLUMNS`] columns,
//!   brackets nested at most [`MAX_REGO_NESTING`] deep (regorus's parser is exponential in
//!   it);
//! - builtins: the compiled program may call only those listed in [`ALLOWED_BUILTINS`] (and
//!   the set operators `|` and `&`), and may not multiply. The check is on the program's
//!   builtin table, through which the VM makes every builtin call, so no spelling reaches
//!   another (`numbers["range"]`, `data`-rooted, imported; `with` does not compile for the
//!   VM). regorus builtins such as `numbers.range(1, 100000000)` allocate their whole result in
//!   one step, before any budget can stop them; squaring doubles a number's size per rule.
//!   What `nv_match` and `reasons` cannot reach is not compiled, and not checked;
//! - recursion: refused by regorus when compiled;
//! - work: at most [`MAX_REGO_INSTRUCTIONS`] VM instructions and [`MAX_REGO_COST`] cost units
//!   per appraisal (`nv_match` and `reasons` are evaluated in one run, so a rule both read is
//!   evaluated once). Each instruction is charged before it runs
//!   by the size of what it walks (its compared, sorted or searched operands and builtin
//!   arguments, a shared value counted at every place it appears, times `log2` of a searched
//!   collection), so that no instruction does more than a constant times its charge: an
//!   appraisal's time is bounded whatever the policy's values (`src/policy/rego/meter.rs`).
//!   Appraising the recorded 8-GPU result with the bundled translation of NVIDIA's remote
//!   policy spends under 160,000 units. No clock is read, so the budget holds where time stands
//!   still, as in a worker's synchronous code.

use alloc::string::{String, ToString};
use core::fmt;

use crate::error_code::ErrorCode;

mod evaluate;
mod input;
mod meter;
mod program;
mod scan;

pub use evaluate::{appraise_rego, RegoPolicy, RegoSyntax};
// The JS binding appraises the claims the verification handed to JS.
#[cfg(all(target_arch = "wasm32", target_os = "unknown", feature = "js-rego"))]
pub(crate) use evaluate::appraise_rego_claims;
pub use program::ALLOWED_BUILTINS;

use super::MAX_POLICY_BYTES;

/// The most lines a Rego policy may have (NVIDIA's examples have under 100).
pub const MAX_REGO_LINES: usize = 2_000;

/// The longest line of a Rego policy.
pub const MAX_REGO_COLUMNS: u32 = 256;

/// The deepest nesting of brackets (`(`, `[`, `{` together) in a Rego policy: regorus's parser
/// takes time exponential in it (NVIDIA's policies nest 4 deep). At this depth, a policy of
/// [`MAX_POLICY_BYTES`] full of nested literals parses in about a second natively.
pub const MAX_REGO_NESTING: usize = 8;

/// The most VM instructions one appraisal may execute (the bundled translations use under
/// 10,000 for 8 GPUs, so 64 devices stay under 100,000). Each costs a step of the cost meter;
/// this many cheap ones are the slowest policy we could construct (`tests/bench/rego.rs`).
pub const MAX_REGO_INSTRUCTIONS: usize = 250_000;

/// The most cost units one appraisal may spend: each instruction
/// costs one unit plus the size of the values it can read (one unit per scalar, collection
/// and member, and per 64 bytes of a string; `src/policy/rego/meter.rs`).
pub const MAX_REGO_COST: u64 = 10_000_000;

/// Why a Rego policy was refused, or could not decide.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegoError {
    /// The text is longer than [`MAX_POLICY_BYTES`].
    TooLarge {
        /// Its length in bytes.
        len: usize,
    },
    /// Not a Rego policy regorus reads (syntax, UTF-8, line limits, nesting), or one whose
    /// rules do not compile (an unknown function, a conflict).
    Parse {
        /// regorus's message.
        detail: String,
    },
    /// Brackets nest deeper than [`MAX_REGO_NESTING`].
    TooDeep,
    /// It calls a builtin outside [`ALLOWED_BUILTINS`] (or uses `*`).
    Builtin {
        /// The builtin as written.
        name: String,
    },
    /// A rule depends on itself.
    Recursion {
        /// regorus's message.
        detail: String,
    },
    /// The appraisal ran past [`MAX_REGO_INSTRUCTIONS`] or [`MAX_REGO_COST`].
    Budget,
    /// The policy lacks `data.policy.nv_match`, or it or `reasons` has the wrong shape.
    Result {
        /// What is wrong.
        detail: &'static str,
    },
    /// Evaluation failed (a conflict between rule values, a builtin error).
    Eval {
        /// regorus's message.
        detail: String,
    },
}

impl fmt::Display for RegoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge { len } => write!(
                f,
                "the policy is {len} bytes, more than the {MAX_POLICY_BYTES} allowed"
            ),
            Self::Parse { detail } => write!(f, "the Rego policy does not compile: {detail}"),
            Self::TooDeep => write!(
                f,
                "the Rego policy nests brackets deeper than {MAX_REGO_NESTING} levels"
            ),
            Self::Builtin { name } => write!(
                f,
                "the Rego policy uses {name}, which is not allowed (it can allocate without bound)"
            ),
            Self::Recursion { detail } => write!(f, "the Rego policy recurses: {detail}"),
            Self::Budget => write!(
                f,
                "the Rego policy ran past its budget ({MAX_REGO_INSTRUCTIONS} instructions, \
                 {MAX_REGO_COST} cost units)"
            ),
            Self::Result { detail } => write!(f, "the Rego policy's result: {detail}"),
            Self::Eval { detail } => write!(f, "the Rego policy failed: {detail}"),
        }
    }
}

impl core::error::Error for RegoError {}

/// regorus's message in one line, as a [`RegoError`] detail: its `--> file:line:col` and
/// `error: …` lines (it shows the source excerpt between them), or its first line.
fn message(error: &impl core::fmt::Display) -> String {
    let text = error.to_string();
    let lines = || text.lines().map(str::trim).filter(|line| !line.is_empty());
    let location = lines().find_map(|line| line.strip_prefix("--> "));
    let error_line = lines().find_map(|line| line.strip_prefix("error: "));
    let detail = match (location, error_line) {
        (Some(at), Some(what)) => alloc::format!("{what} (at {at})"),
        _ => lines().next().unwrap_or("unknown error").into(),
    };
    detail.chars().take(300).collect()
}

impl ErrorCode for RegoError {
    fn code(&self) -> &'static str {
        match self {
            Self::TooLarge { .. } => "ERR_POLICY_TOO_LARGE",
            Self::Parse { .. } => "ERR_REGO_PARSE",
            Self::TooDeep => "ERR_REGO_TOO_DEEP",
            Self::Builtin { .. } => "ERR_REGO_BUILTIN",
            Self::Recursion { .. } => "ERR_REGO_RECURSION",
            Self::Budget => "ERR_REGO_BUDGET",
            Self::Result { .. } => "ERR_REGO_RESULT",
            Self::Eval { .. } => "ERR_REGO_EVAL",
        }
    }
}
