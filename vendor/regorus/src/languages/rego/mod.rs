#[path = "compiler/mod.rs"]
pub mod compiler;
