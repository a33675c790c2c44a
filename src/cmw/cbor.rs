//! The CBOR serialisation (`application/cmw+cbor`): records, tags and collections.

use super::{Cmw, CmwError, CmwLimits};

/// Reads a CBOR CMW.
pub(super) fn decode(_bytes: &[u8], _limits: CmwLimits) -> Result<Cmw, CmwError> {
    Err(CmwError::Syntax {
        detail: "CBOR CMW not read yet".into(),
    })
}
