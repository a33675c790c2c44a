//! JS API for `crate::rim`.
