// Copyright (c) Microsoft Corporation.
// Licensed under the MIT License.
use super::Program;
use alloc::string::{String, ToString as _};

impl Program {
    /// Compile a partial deserialized program to a complete one
    ///
    /// This method takes a partial program (containing only entry_points and sources)
    /// and recompiles it to create a complete program with all instructions and data.
    pub fn compile_from_partial(partial_program: Program) -> Result<Program, String> {
        if partial_program.entry_points.is_empty() {
            return Err("Partial program must contain entry points".to_string());
        }
        if partial_program.sources.is_empty() {
            return Err("Partial program must contain sources".to_string());
        }

        Err("Recompilation from partial program is not yet implemented".to_string())
    }
}
