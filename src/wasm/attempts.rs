//! JS API for `crate::service::FetchAttempts`: how a host fetches one resource of an
//! exchange's `fetch` step — the sources in order, retries with backoff and jitter, the
//! breakers, stale-if-error — decided by the core; the host only fetches, waits and answers.
//! Made by `AttestationService.fetchAttempts`, whose source breakers it reads and counts in.

use alloc::rc::Rc;
use core::cell::RefCell;

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::args;
use super::convert::{self, from_js};
use super::service::{busy, AttestationService};
use crate::host_answer::FetchAnswer;
use crate::service::{FetchAttempts, Resource, Service};

/// The attempts for one `FetchResource`: call `next(nowMs)` and do what it says — fetch a
/// URL (then `answered(answer, nowMs)`), wait, or give the exchange the `done` answer.
/// Free it when done.
#[wasm_bindgen(js_name = FetchAttempts)]
pub struct FetchAttemptsJs {
    service: Rc<RefCell<Service>>,
    attempts: FetchAttempts,
}

impl FetchAttemptsJs {
    pub(crate) fn new(service: Rc<RefCell<Service>>, attempts: FetchAttempts) -> Self {
        Self { service, attempts }
    }
}

/// Host milliseconds as the core counts them: a finite number, 0 or more.
pub(crate) fn millis(value: &JsValue, field: &str) -> Result<u64, JsValue> {
    match value.as_f64() {
        Some(ms) if ms.is_finite() && ms >= 0.0 => Ok(ms as u64),
        _ => Err(super::error::invalid_argument(field, "milliseconds (a number, 0 or more)")),
    }
}

#[wasm_bindgen(js_class = FetchAttempts)]
impl FetchAttemptsJs {
    /// What to do next at `nowMs` (the host's clock, `Date.now()`): `{kind: 'fetch', url,
    /// timeoutMs}`, `{kind: 'wait', ms}` or `{kind: 'done', answer}`.
    #[wasm_bindgen(unchecked_return_type = "FetchAttempt")]
    pub fn next(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<JsValue, JsValue> {
        let now_ms = millis(&now_ms, "nowMs")?;
        let random = u32::from_le_bytes(args::random_bytes::<4>()?);
        let service = self.service.try_borrow().map_err(|_| busy())?;
        let attempt = self.attempts.next(service.sources(), now_ms, random);
        convert::to_js(&attempt)
    }

    /// The answer of the last `fetch` attempt (a `FetchAnswer`: `{body}` or
    /// `{error, status?}`), at `nowMs`. Throws `ERR_INVALID_ARGUMENT` for an answer of the
    /// wrong shape.
    pub fn answered(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "FetchAnswer")] answer: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] now_ms: JsValue,
    ) -> Result<(), JsValue> {
        let now_ms = millis(&now_ms, "nowMs")?;
        let answer: FetchAnswer = from_js(&answer, "answer")?;
        let fetched = answer
            .fetched()
            .map_err(|error| super::answer::within("answer", &error))?
            .capped();
        let mut service = self
            .service
            .try_borrow_mut()
            .map_err(|_| busy())?;
        self.attempts
            .answered(fetched, service.sources_mut(), now_ms);
        Ok(())
    }
}

#[wasm_bindgen]
impl AttestationService {
    /// The attempts for one resource of a `fetch` step (`FetchAttempts`): which URL to fetch
    /// next, how long to wait for it, when to retry and when to give up, under this
    /// service's source breakers. `timeoutMs`: one attempt's budget (the kind's:
    /// `serviceLimits().rimTimeoutMs`, or the host's OCSP timeout); `nowMs`: the host's clock;
    /// `kept`: the body (and OCSP nonce) the host kept past its freshness, given only when
    /// every source fails. Throws `ERR_INVALID_ARGUMENT` for a resource or options of the
    /// wrong shape.
    #[wasm_bindgen(js_name = fetchAttempts)]
    pub fn fetch_attempts(
        &self,
        #[wasm_bindgen(unchecked_param_type = "FetchResource")] resource: JsValue,
        #[wasm_bindgen(
            unchecked_param_type = "{ timeoutMs: number; nowMs: number; kept?: { body: Uint8Array; nonce?: Uint8Array } }"
        )]
        options: JsValue,
    ) -> Result<FetchAttemptsJs, JsValue> {
        let resource: Resource = from_js(&resource, "resource")?;
        let timeout_ms = millis(&args::member(&options, "timeoutMs"), "timeoutMs")?;
        let now_ms = millis(&args::member(&options, "nowMs"), "nowMs")?;
        let kept = args::member(&options, "kept");
        let kept = if kept.is_undefined() || kept.is_null() {
            None
        } else {
            let body = args::bytes(&args::member(&kept, "body"), "kept.body")?;
            let nonce = args::member(&kept, "nonce");
            let nonce = if nonce.is_undefined() || nonce.is_null() {
                None
            } else {
                Some(args::bytes(&nonce, "kept.nonce")?)
            };
            Some((body, nonce))
        };
        let attempts = FetchAttempts::new(&resource, timeout_ms, now_ms, kept);
        Ok(FetchAttemptsJs::new(
            Rc::clone(&self.inner),
            attempts,
        ))
    }

}
