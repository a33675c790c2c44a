//! JS API for `crate::deprecation`.
