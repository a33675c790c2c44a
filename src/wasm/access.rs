//! JS API for `crate::access`.
