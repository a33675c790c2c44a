//! A host's answer for one fetched resource (the core's `FetchAnswer`), and core refusals of a
//! member of a value read under a name (`answers[0].status`).

use alloc::format;
use alloc::vec::Vec;
use core::fmt::Display;

use wasm_bindgen::JsValue;

use super::convert::from_js;
use super::error::coded;
use crate::error_code::ErrorCode;
use crate::host_answer::{FetchAnswer, Fetched};

/// `error`, a refusal of a member of the value read as `at`, with the member named under it
/// (the core's messages start with the member's name).
pub(crate) fn within<E: ErrorCode + Display>(at: &str, error: &E) -> JsValue {
    let field = error.field().map(|field| format!("{at}.{field}"));
    coded(error.code(), &format!("{at}.{error}"), field.as_deref())
}

/// The hosts' answers `answers` (the core's `FetchAnswer`s), each as the fetch it reports; a
/// refusal names the answer (`answers[1].status`).
pub(crate) fn fetched(answers: &JsValue) -> Result<Vec<Fetched>, JsValue> {
    let answers: Vec<FetchAnswer> = from_js(answers, "answers")?;
    (0..)
        .zip(answers)
        .map(|(n, answer)| {
            answer
                .fetched()
                .map_err(|e| within(&format!("answers[{n}]"), &e))
        })
        .collect()
}

/// One host answer `answer` (a core `FetchAnswer`) as the fetch it reports; a refusal names
/// it `answer`. (The service's exchange only: the local module's OCSP checks take lists.)
#[cfg(feature = "js-service")]
pub(crate) fn fetched_one(answer: &JsValue) -> Result<Fetched, JsValue> {
    let answer: FetchAnswer = from_js(answer, "answer")?;
    answer.fetched().map_err(|e| within("answer", &e))
}
