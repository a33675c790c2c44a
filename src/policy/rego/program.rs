//! The checks on the compiled program: the builtins it calls and the operators it uses.
//!
//! regorus's compiler resolves every call to a builtin, however the policy spells it
//! (`numbers.range`, `numbers["range"]`, `data`-rooted or through an import), to one entry of
//! the program's builtin table, and the VM calls builtins only through that table. Checking
//! the table is therefore the guard: a name that reaches a builtin is in it, whatever the text
//! looked like. (`with`, which could swap a function for a builtin, does not compile for the
//! VM.)
//!
//! Some builtins allocate their whole result in one VM instruction (`numbers.range(1,
//! 100000000)` reserves gigabytes before any budget is looked at), so a policy may call only
//! those below; and multiplication is refused (each squaring doubles a number's size, one
//! instruction a rule).

use alloc::string::String;

use regorus::rvm::program::Program;
use regorus::rvm::Instruction;

use super::RegoError;

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

/// The builtins regorus compiles the set operators `|` and `&` to: their result is at most
/// the size of their arguments, as `intersection`'s.
const OPERATORS: &[&str] = &["__builtin_sets.union", "__builtin_sets.intersection"];

/// Refuses a program that can call a builtin outside [`ALLOWED_BUILTINS`] or multiplies.
pub(super) fn check_program(program: &Program) -> Result<(), RegoError> {
    if let Some(builtin) = program.builtin_info_table.iter().find(|builtin| {
        let name = builtin.name.as_str();
        !ALLOWED_BUILTINS.contains(&name) && !OPERATORS.contains(&name)
    }) {
        return Err(refused(builtin.name.clone()));
    }
    if program
        .instructions
        .iter()
        .any(|instruction| matches!(instruction, Instruction::Mul { .. }))
    {
        return Err(refused("*".into()));
    }
    Ok(())
}

fn refused(name: String) -> RegoError {
    RegoError::Builtin { name }
}
