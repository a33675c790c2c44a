//! The incoming request in the core's shape and the core's response out, as the worker
//! (`www/worker.js` `route`) moves them: the body read up to the core's limit (past it only
//! its size is kept, and the core answers 413), the path with its query, the origin.

use edgeattest::service::{ErrorResponseInit, Request, Response, ServiceLimits};
use wasip2::http::types::{
    Fields, IncomingRequest, Method, OutgoingBody, OutgoingResponse, ResponseOutparam, Scheme,
};

/// How much of an oversize body is read and dropped before answering 413 (the worker's
/// `DRAIN_LIMIT_BYTES`); past it reading stops.
const DRAIN_LIMIT_BYTES: usize = 16 * 1024 * 1024;
/// The most `blocking-write-and-flush` takes at once (wasi:io/streams).
const WRITE_CHUNK: usize = 4096;

/// The method's name as HTTP writes it.
fn method_name(method: Method) -> String {
    match method {
        Method::Get => "GET".into(),
        Method::Head => "HEAD".into(),
        Method::Post => "POST".into(),
        Method::Put => "PUT".into(),
        Method::Delete => "DELETE".into(),
        Method::Connect => "CONNECT".into(),
        Method::Options => "OPTIONS".into(),
        Method::Trace => "TRACE".into(),
        Method::Patch => "PATCH".into(),
        Method::Other(other) => other,
    }
}

/// The request as the worker gives it to the core: `content-length` left out unless the body
/// was too large to keep, when it carries the size actually received.
pub(crate) fn read_request(incoming: &IncomingRequest) -> Request {
    let method = method_name(incoming.method());
    let path = incoming.path_with_query().unwrap_or_else(|| "/".into());
    let scheme = match incoming.scheme() {
        Some(Scheme::Https) => "https".to_string(),
        Some(Scheme::Other(other)) => other,
        _ => "http".to_string(),
    };
    let headers = incoming.headers().entries();
    let host = incoming.authority().or_else(|| {
        let value = headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("host"))?;
        String::from_utf8(value.1.clone()).ok()
    });
    let mut request = Request::new(&method, &path);
    if let Some(host) = host {
        request = request.origin(&format!("{scheme}://{host}"));
    }
    for (name, value) in &headers {
        if !name.eq_ignore_ascii_case("content-length") {
            request = request.header(name, &String::from_utf8_lossy(value));
        }
    }
    let (body, size) = read_body(incoming, ServiceLimits::CORE.max_body_bytes);
    match body {
        Some(body) => request.body(body),
        None if size > 0 => request.header("content-length", &size.to_string()),
        None => request,
    }
}

/// The body and its size in bytes; a body over `keep` bytes is read and dropped, never kept.
fn read_body(incoming: &IncomingRequest, keep: usize) -> (Option<Vec<u8>>, usize) {
    let Ok(body) = incoming.consume() else {
        return (Some(Vec::new()), 0);
    };
    let Ok(stream) = body.stream() else {
        return (Some(Vec::new()), 0);
    };
    let mut kept = Vec::new();
    let mut size = 0usize;
    while let Ok(chunk) = stream.blocking_read(64 * 1024) {
        size += chunk.len();
        if size <= keep {
            kept.extend_from_slice(&chunk);
        } else if size > DRAIN_LIMIT_BYTES {
            break;
        }
    }
    if size > keep {
        return (None, size);
    }
    (Some(kept), size)
}

/// A host error in the service's one shape (the worker's `errorAnswer`).
pub(crate) fn error_response(status: u16, code: &str, message: &str) -> Response {
    let init = ErrorResponseInit {
        status,
        code: code.into(),
        message: message.into(),
        field: None,
    };
    match init.response() {
        Ok(answer) => Response {
            status: answer.status,
            headers: answer.headers,
            body: answer.body.into_bytes(),
        },
        // Only a code missing from the registry gets here: a bug in this file, still an answer.
        Err(_) => Response {
            status: 500,
            headers: vec![("content-type".into(), "application/json".into())],
            body: br#"{"code":"ERR_INTERNAL","message":"unregistered error code","status":500}"#
                .to_vec(),
        },
    }
}

/// Writes `response`, with `content-length` (without it runtimes send chunked bodies, where
/// the worker's answers carry the length) unless the answer has no body by definition.
pub(crate) fn respond(out: ResponseOutparam, response: &Response, head: bool) {
    let fields = Fields::new();
    let mut refused = None;
    for (name, value) in &response.headers {
        if fields.append(name, value.as_bytes()).is_err() {
            refused = Some(name.clone());
        }
    }
    let no_body = head || response.status == 204 || response.status == 304;
    if !no_body
        && fields
            .set(
                "content-length",
                &[response.body.len().to_string().into_bytes()],
            )
            .is_err()
    {
        refused = Some("content-length".into());
    }
    if let Some(name) = refused {
        // The core's headers are plain tokens: a runtime refusing one is a bug, answered as one.
        let message = format!("the runtime refused the response header {name}");
        return respond(out, &error_response(500, "ERR_INTERNAL", &message), head);
    }
    let outgoing = OutgoingResponse::new(fields);
    // Every status the core or error_response gives is a valid one.
    let _ = outgoing.set_status_code(response.status);
    let Ok(body) = outgoing.body() else {
        ResponseOutparam::set(out, Ok(outgoing));
        return;
    };
    ResponseOutparam::set(out, Ok(outgoing));
    if !no_body {
        if let Ok(stream) = body.write() {
            for chunk in response.body.chunks(WRITE_CHUNK) {
                // The client went away: nothing left to tell it.
                if stream.blocking_write_and_flush(chunk).is_err() {
                    break;
                }
            }
        }
    }
    let _ = OutgoingBody::finish(body, None);
}
