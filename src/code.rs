//! Stable error codes shared by every module.

/// A stable, machine-readable code for an error value.
///
/// Codes are part of the public contract: they are never renamed, only added. The same string
/// is the `code` of a JavaScript error and of an HTTP error body. Where an error concerns one
/// input field, [`ErrorCode::field`] names it (`nonce`, `evidence_list[2].certificate`).
pub trait ErrorCode {
    /// The stable `ERR_*` code.
    fn code(&self) -> &'static str;

    /// The input field the error is about, if any.
    fn field(&self) -> Option<&str> {
        None
    }
}
