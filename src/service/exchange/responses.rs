//! The responses an attestation ends in: the result, the EAR, or the failure to mint.

use alloc::string::String;
use alloc::vec::Vec;

use super::super::http::Response;
use crate::error_code::ErrorBody;

pub(super) fn result_response(text: String) -> Response {
    Response {
        status: 200,
        headers: Vec::from([("content-type".into(), "application/json".into())]),
        body: text.into_bytes(),
    }
}

/// The EAR: the compact JWS (`application/eat+jwt`) or the `COSE_Sign1` bytes
/// (`application/eat+cwt`), with its profile.
pub(super) fn ear_response(body: Vec<u8>, media_type: String) -> Response {
    Response {
        status: 200,
        headers: Vec::from([("content-type".into(), media_type)]),
        body,
    }
}

pub(super) fn token_failure() -> Response {
    ErrorBody::new(
        500,
        "ERR_ATTESTATION_TOKEN_FAILURE",
        "the attestation tokens could not be minted",
    )
    .into_response()
}
