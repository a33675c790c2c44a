//! Stable error codes shared by every module: the [`ErrorCode`] trait, the registry of every
//! code ([`ERROR_CODES`]) and the one problem-body type ([`ErrorBody`]).

mod registry;

pub use registry::{registered_code, RegisteredCode, ERROR_CODES};

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
/// Decision: the attest errors' shape is the reference, kept as it was; every
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
/// The one problem-body type: every error body of the crate is an `ErrorBody<D>`, `D` being
/// the kind's detail members (flattened after the common ones; [`NoDetail`] adds none).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody<D = NoDetail> {
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
    /// The detail members of this kind of error, after the common ones (camelCase).
    #[serde(flatten)]
    pub detail: D,
}

/// The detail of an error body that has none: serializes to no members.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct NoDetail {}

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
            detail: NoDetail {},
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
            detail: NoDetail {},
        }
    }
}

impl<D> ErrorBody<D> {
    /// The same body with `detail` for its detail members.
    pub fn with_detail<E>(self, detail: E) -> ErrorBody<E> {
        ErrorBody {
            code: self.code,
            error_code: self.error_code,
            message: self.message,
            field: self.field,
            status: self.status,
            detail,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Extra {
        allowed_methods: [&'static str; 1],
    }

    /// The bytes of a body, plain and with detail: the common members in their order, the
    /// detail members after them, absent options omitted.
    #[test]
    fn one_body_bytes() {
        let plain = ErrorBody::new(404, "ERR_NOT_FOUND", "no route");
        assert_eq!(
            serde_json::to_string(&plain).unwrap(),
            r#"{"code":"ERR_NOT_FOUND","message":"no route","status":404}"#
        );
        let mut attest = plain.clone();
        attest.error_code = Some(4003);
        attest.field = Some("nonce".into());
        assert_eq!(
            serde_json::to_string(&attest).unwrap(),
            r#"{"code":"ERR_NOT_FOUND","errorCode":4003,"message":"no route","field":"nonce","status":404}"#
        );
        let detailed = plain.with_detail(Extra {
            allowed_methods: ["GET"],
        });
        assert_eq!(
            serde_json::to_string(&detailed).unwrap(),
            r#"{"code":"ERR_NOT_FOUND","message":"no route","status":404,"allowedMethods":["GET"]}"#
        );
    }
}
