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

/// The JSON body of every error response the service returns — attest and service routes,
/// the API-key gateway (400/401/403/404/405/414/431), the analytics lists and the
/// deprecation checks — and of the worker's own 404/405/413/502/503 answers.
///
/// ```json
/// {"code":"ERR_REQUEST_INVALID_NONCE","errorCode":4003,"message":"nonce …","field":"nonce","status":400}
/// ```
///
/// Decision (issue 17): the attest errors' shape is the reference, kept as it was; every
/// other body carries the same members, spelt the same way (camelCase):
/// - `code` (always): the stable `ERR_*` string, the same as in Rust and JS;
/// - `message` (always): one sentence for people;
/// - `status` (always): the HTTP status, repeated for clients that keep only the body;
/// - `field` (when one input is at fault): the request member, query parameter or header
///   (`evidence_list[0].evidence`, `rpp`, `Host`, `Authorization`);
/// - `errorCode` (attest only): the real service's numeric code (4003), where one applies.
///
/// A kind of error may add detail members after these, also camelCase: the gateway's 403
/// names `route`, `requirement`, `requiredScopes`, `grantedScopes`, `missingScopes`; its 405
/// `route` and `allowedMethods`; a deprecation 400 the notice object `deprecation`.
///
/// The RFC 6750 members (`error`, `error_description`, `scope`) are not in the body: they
/// belong to the `WWW-Authenticate` challenge (RFC 6750 §3), which carries them unchanged;
/// the body's `message` is the challenge's `error_description` text. The specs show no error
/// body for any of these cases (attestation §7, access control §7); the pagination and
/// deprecation spec only requires that a deprecation 400's message say the new attribute is
/// preferred, or that the attribute is deprecated — which `message` does.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody {
    /// Stable code, e.g. `ERR_REQUEST_INVALID_NONCE`.
    pub code: &'static str,
    /// The real service's numeric code, e.g. 4003, where one applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_code: Option<u16>,
    /// What went wrong, for people.
    pub message: alloc::string::String,
    /// The request member, query parameter or header concerned, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<alloc::string::String>,
    /// The HTTP status, repeated for clients that only keep the body.
    pub status: u16,
}

impl ErrorBody {
    /// The members every error body carries, in order: what a client may rely on.
    pub const MEMBERS: [&'static str; 3] = ["code", "message", "status"];

    /// An error body with no `field` and no `errorCode`.
    pub fn new(status: u16, code: &'static str, message: impl alloc::string::ToString) -> Self {
        Self {
            code,
            error_code: None,
            message: message.to_string(),
            field: None,
            status,
        }
    }

    /// The body of `error`: its code, its text and its field.
    pub fn of<E: ErrorCode + core::fmt::Display + ?Sized>(status: u16, error: &E) -> Self {
        Self {
            code: error.code(),
            error_code: None,
            message: alloc::string::ToString::to_string(error),
            field: error.field().map(alloc::string::String::from),
            status,
        }
    }
}
