//! Fuzz target bodies for edgeattest; see `harness.rs`.
pub mod harness;
