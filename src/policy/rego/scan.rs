//! The text checks: a lexical pass over the policy text, before regorus reads it.
//!
//! regorus's parser takes time exponential in the nesting of array and object literals (a
//! 22-deep `[[[…1…]]]` takes seconds; it tries each `[` as an array and as a comprehension),
//! so brackets nest at most [`MAX_REGO_NESTING`] deep, all kinds together.
//!
//! Some regorus builtins allocate their whole result in one VM instruction
//! (`numbers.range(1, 100000000)` reserves gigabytes before any budget is looked at), so a
//! policy may name only the builtins below. Every name of a regorus builtin outside the list
//! is refused wherever it appears (called, or passed to `with … as`), and so is `*` (each
//! squaring doubles a number's size, one instruction a rule). Comments and strings are
//! skipped; a function the policy defines under an unlisted builtin's name is refused too.

use alloc::string::String;

use super::{RegoError, MAX_REGO_NESTING};

/// The builtins a policy may call: none makes a value larger than its arguments by more than
/// a constant factor. (NVIDIA's Rego policies use `count`; the minimum-driver example
/// `split` and `to_number`.)
pub const ALLOWED_BUILTINS: &[&str] = &[
    "abs",
    "all",
    "any",
    "array.reverse",
    "array.slice",
    "ceil",
    "contains",
    "count",
    "endswith",
    "floor",
    "indexof",
    "intersection",
    "is_array",
    "is_boolean",
    "is_null",
    "is_number",
    "is_object",
    "is_set",
    "is_string",
    "lower",
    "max",
    "min",
    "object.get",
    "object.keys",
    "round",
    "sort",
    "split",
    "startswith",
    "substring",
    "sum",
    "to_number",
    "trim",
    "trim_left",
    "trim_prefix",
    "trim_right",
    "trim_space",
    "trim_suffix",
    "type_name",
    "upper",
];

/// Refuses the first unlisted builtin name, or `*`, outside comments and strings, and
/// brackets nested deeper than [`MAX_REGO_NESTING`].
pub(super) fn check_text(text: &str) -> Result<(), RegoError> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut depth = 0usize;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_REGO_NESTING {
                    return Err(RegoError::TooDeep);
                }
                i += 1;
            }
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    // An escape: skip the escaped byte (`\"`).
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'`' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'`' {
                    i += 1;
                }
                i += 1;
            }
            b'*' => return Err(refused("*")),
            b if is_start(b) => {
                // An identifier, or a dotted chain of them (`numbers . range` too).
                let mut name = String::new();
                loop {
                    let start = i;
                    while i < bytes.len() && is_part(bytes[i]) {
                        i += 1;
                    }
                    name.push_str(&text[start..i]);
                    let mut j = i;
                    while j < bytes.len() && bytes[j].is_ascii_whitespace() && bytes[j] != b'\n' {
                        j += 1;
                    }
                    if j < bytes.len() && bytes[j] == b'.' {
                        j += 1;
                        while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                            j += 1;
                        }
                        if j < bytes.len() && is_start(bytes[j]) {
                            name.push('.');
                            i = j;
                            continue;
                        }
                    }
                    break;
                }
                if is_builtin(&name) && !ALLOWED_BUILTINS.contains(&name.as_str()) {
                    return Err(refused(&name));
                }
            }
            _ => i += 1,
        }
    }
    Ok(())
}

fn is_builtin(name: &str) -> bool {
    regorus::unstable::BUILTINS.contains_key(name)
        // Not in regorus's table but the same hazard, or evaluated by the interpreter
        // itself: refused by name.
        || matches!(name, "print" | "walk" | "numbers.range" | "numbers.range_step")
}

fn refused(name: &str) -> RegoError {
    RegoError::Builtin { name: name.into() }
}

fn is_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_part(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}
