//! JS API for `crate::token`.
