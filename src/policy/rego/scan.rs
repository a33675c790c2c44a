//! The text check: a lexical pass over the policy text, before regorus reads it.
//!
//! regorus's parser takes time exponential in the nesting of array and object literals (a
//! 22-deep `[[[…1…]]]` takes seconds; it tries each `[` as an array and as a comprehension),
//! so brackets nest at most [`MAX_REGO_NESTING`] deep, all kinds together. Comments and strings
//! are skipped. (What the policy may call is checked on the compiled program, not here:
//! `src/policy/rego/program.rs`.)

use super::{RegoError, MAX_REGO_NESTING};

/// Refuses brackets nested deeper than [`MAX_REGO_NESTING`] outside comments and strings.
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
            _ => i += 1,
        }
    }
    Ok(())
}
