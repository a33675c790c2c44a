//! JS API for `crate::evidence`.
