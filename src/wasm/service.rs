//! JS API for `crate::service`.
