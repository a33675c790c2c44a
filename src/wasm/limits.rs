//! What the hosts (the edge workers, the package's JS) take from the core instead of copying
//! it: the limits the core enforces (`serviceLimits`), the one error-answer shape
//! (`errorResponse`, [`crate::ErrorBody`] with the service's headers) and the reading of a
//! bearer credential (`bearerToken`, [`crate::access::bearer_token`]).

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::error::{coded, invalid_argument, to_js};
use crate::service::{decorate, Response};
use crate::ErrorBody;

#[wasm_bindgen(typescript_custom_section)]
const TS_LIMITS: &str = r#"
/** The core's limits, in bytes: hosts read them here rather than copying them. */
export interface ServiceLimits {
  /** An attestation request body (MAX_BODY_BYTES); past it the service answers 413 ERR_REQUEST_TOO_LARGE. */
  maxBodyBytes: number;
  /** A fetched RIM service envelope or OCSP answer (MAX_FETCHED_BYTES). */
  maxFetchedBytes: number;
  /** An OCSP response (MAX_RESPONSE_LEN). */
  maxOcspResponseBytes: number;
  /** An Authorization header value (MAX_AUTHORIZATION_LEN). */
  maxAuthorizationBytes: number;
}

/** An error answer a host makes itself: the members of every error body. */
export interface ErrorResponseInit {
  /** 400 to 599. */
  status: number;
  /** A registered `ERR_*` code (src/error_code/registry.rs; ErrorCodeName in codes.d.ts). */
  code: string;
  message: string;
  /** The request member, header or parameter concerned. */
  field?: string;
}

/** The answer to send: `new Response(answer.body, answer)`. */
export interface ErrorResponse {
  status: number;
  /** content-type application/json and the headers of every service answer (CORS, nosniff, no-store). */
  headers: [string, string][];
  /** The JSON error body: `{code, message, field?, status}`. */
  body: string;
}
"#;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Limits {
    max_body_bytes: usize,
    max_fetched_bytes: usize,
    max_ocsp_response_bytes: usize,
    max_authorization_bytes: usize,
}

/// The core's limits as a plain object (`ServiceLimits`).
#[wasm_bindgen(js_name = serviceLimits, unchecked_return_type = "ServiceLimits")]
pub fn service_limits() -> Result<JsValue, JsValue> {
    plain(&Limits {
        max_body_bytes: crate::attest::MAX_BODY_BYTES,
        max_fetched_bytes: crate::service::MAX_FETCHED_BYTES,
        max_ocsp_response_bytes: crate::ocsp::MAX_RESPONSE_LEN,
        max_authorization_bytes: crate::access::MAX_AUTHORIZATION_LEN,
    })
}

const INIT_MEMBERS: [&str; 4] = ["status", "code", "message", "field"];

#[derive(Serialize)]
struct ErrorAnswer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

/// What an `ErrorResponseInit` holds.
struct ErrorResponseInit {
    status: u16,
    code: String,
    message: String,
    field: Option<String>,
}

/// Reads `init` member by member (a getter that throws is a refusal with a code, and a
/// member it does not know is refused: serde-wasm-bindgen would let the first through as is
/// and ignore the second, RReverser/serde-wasm-bindgen#39).
fn init_of(init: &JsValue) -> Result<ErrorResponseInit, JsValue> {
    let refused = |why: &str| {
        coded(
            "ERR_INVALID_ARGUMENT",
            &alloc::format!("init must be {{ status, code, message, field? }}: {why}"),
            Some("init"),
        )
    };
    if !init.is_object() {
        return Err(refused("not an object"));
    }
    let keys =
        js_sys::Reflect::own_keys(init).map_err(|_| refused("its members cannot be listed"))?;
    if let Some(name) = keys
        .iter()
        .map(|key| key.as_string().unwrap_or_else(|| "a symbol".into()))
        .find(|key| !INIT_MEMBERS.contains(&key.as_str()))
    {
        return Err(refused(&alloc::format!("no member {name:?}")));
    }
    let member = |name: &str| {
        js_sys::Reflect::get(init, &name.into())
            .map_err(|_| refused(&alloc::format!("{name} cannot be read")))
    };
    let text = |name: &str| {
        member(name)?
            .as_string()
            .ok_or_else(|| invalid_argument(&alloc::format!("init.{name}"), "a string"))
    };
    let status = member("status")?
        .as_f64()
        .filter(|status| status.fract() == 0.0 && (0.0..=f64::from(u16::MAX)).contains(status))
        .ok_or_else(|| invalid_argument("init.status", "an HTTP error status (400 to 599)"))?;
    let field = member("field")?;
    Ok(ErrorResponseInit {
        // An integer from 0 to 65535, checked above.
        status: status as u16,
        code: text("code")?,
        message: text("message")?,
        field: if field.is_undefined() {
            None
        } else {
            Some(text("field")?)
        },
    })
}

/// An error answer of a host (a worker's 404, 405, 413, 502, 503) in the service's one
/// shape: the body is an [`ErrorBody`], the headers those of every service answer. The code
/// must be registered ([`crate::ERROR_CODES`]): a host gives no code the registry lacks.
#[wasm_bindgen(js_name = errorResponse, unchecked_return_type = "ErrorResponse")]
pub fn error_response(
    #[wasm_bindgen(unchecked_param_type = "ErrorResponseInit")] init: JsValue,
) -> Result<JsValue, JsValue> {
    let init = init_of(&init)?;
    if !(400..=599).contains(&init.status) {
        return Err(invalid_argument(
            "init.status",
            "an HTTP error status (400 to 599)",
        ));
    }
    let Some(registered) = crate::registered_code(&init.code) else {
        return Err(invalid_argument("init.code", "a registered ERR_* code"));
    };
    if init.message.is_empty() {
        return Err(invalid_argument("init.message", "a non-empty sentence"));
    }
    let mut body = ErrorBody::new(init.status, registered.code, init.message);
    body.field = init.field.filter(|field| !field.is_empty());
    let response = decorate(Response::json(init.status, &body));
    plain(&ErrorAnswer {
        status: response.status,
        headers: response.headers,
        body: String::from_utf8(response.body)
            .map_err(|_| coded("ERR_INTERNAL", "the error body is not UTF-8", None))?,
    })
}

/// The bearer token of an `Authorization` value (RFC 6750 §2.1), read as the gateway reads
/// it; `query` (without `?`) is checked for a key in the URL. Throws the credential's
/// `ERR_ACCESS_*` error otherwise.
#[wasm_bindgen(js_name = bearerToken)]
pub fn bearer_token(
    #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] authorization: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string | null")] query: JsValue,
) -> Result<String, JsValue> {
    let authorization = optional_text(&authorization, "authorization")?;
    let query = optional_text(&query, "query")?;
    crate::access::bearer_token(authorization.as_deref(), query.as_deref())
        .map(String::from)
        .map_err(|error| to_js(&error))
}

fn optional_text(value: &JsValue, field: &str) -> Result<Option<String>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .as_string()
        .map(Some)
        .ok_or_else(|| invalid_argument(field, "a string"))
}

fn plain<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|_| coded("ERR_INTERNAL", "could not convert the value", None))
}
