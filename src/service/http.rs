//! HTTP-shaped requests and responses: what a host (the worker, a native server, a test)
//! passes in and writes out. No I/O here.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

/// A request as the host received it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(as = "super::wire::RequestIn", rename = "ServiceRequest")
)]
pub struct Request {
    /// The method, e.g. `POST`; compared case-sensitively, as RFC 9110 §9.1 says.
    pub method: String,
    /// The path, e.g. `/v4/attest/gpu`. A query string after `?` is read only for the
    /// `result` parameter (`result=ear`: the EAT Attestation Result, `negotiate`); a host
    /// that strips it leaves the client `Accept` to ask with.
    pub path: String,
    /// The headers as received; names compare case-insensitively.
    pub headers: Vec<(String, String)>,
    /// The body bytes.
    pub body: Vec<u8>,
    /// The origin the request was addressed to (`https://attest.example.com`), as the host
    /// received it: the tokens' `iss` when the service configures no issuer.
    pub origin: Option<String>,
}

impl Request {
    /// A request with no headers and no body.
    pub fn new(method: &str, path: &str) -> Self {
        Self {
            method: method.into(),
            path: path.into(),
            ..Self::default()
        }
    }

    /// Adds a header.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Sets the origin the request was addressed to.
    pub fn origin(mut self, origin: &str) -> Self {
        self.origin = Some(origin.into());
        self
    }

    /// Sets the body.
    pub fn body(mut self, body: impl Into<Vec<u8>>) -> Self {
        self.body = body.into();
        self
    }

    /// The first value of header `name` (case-insensitive).
    pub fn header_value(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(candidate, _)| candidate.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// A response for the host to send.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(as = "super::wire::ResponseOut<'static>", rename = "ServiceResponse")
)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The headers, in order.
    pub headers: Vec<(String, String)>,
    /// The body bytes (JSON for every response of the service).
    pub body: Vec<u8>,
}

impl Response {
    /// A JSON response of `value`.
    pub fn json<T: Serialize + ?Sized>(status: u16, value: &T) -> Self {
        // Serialising the service's own serde types cannot fail; an empty object is the
        // conservative fallback rather than a panic.
        let body = crate::json::write::to_vec(value).unwrap_or_else(|_| b"{}".to_vec());
        Self {
            status,
            headers: Vec::from([("content-type".into(), "application/json".into())]),
            body,
        }
    }

    /// A response with no body.
    pub fn empty(status: u16) -> Self {
        Self {
            status,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    /// Adds a header.
    pub fn with_header(mut self, name: &str, value: impl ToString) -> Self {
        self.headers.push((name.into(), value.to_string()));
        self
    }

    /// The first value of header `name` (case-insensitive).
    pub fn header_value(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(candidate, _)| candidate.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// Whether a `Content-Type` value names JSON: `application/json` or any `+json` type, with
/// any parameters (RFC 8259 §11, RFC 6839 §3.1).
pub(crate) fn is_json_media_type(value: &str) -> bool {
    let essence = value.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case("application/json")
        || essence.split_once('/').is_some_and(|(kind, subtype)| {
            kind.eq_ignore_ascii_case("application")
                && subtype.to_ascii_lowercase().ends_with("+json")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_media_types() {
        for ok in [
            "application/json",
            "Application/JSON; charset=utf-8",
            "application/problem+json",
            " application/json ",
        ] {
            assert!(is_json_media_type(ok), "{ok}");
        }
        for bad in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "",
            "application/jsonx",
            "text/json+xml",
        ] {
            assert!(!is_json_media_type(bad), "{bad}");
        }
    }

    #[test]
    fn header_lookup_ignores_case() {
        let request = Request::new("POST", "/").header("Content-Type", "application/json");
        assert_eq!(
            request.header_value("content-type"),
            Some("application/json")
        );
        assert_eq!(request.header_value("accept"), None);
    }
}
