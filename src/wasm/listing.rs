//! JS API for `crate::listing`.
