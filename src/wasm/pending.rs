//! The binding's one shape for use-once work waiting on JS's signature verdicts: whichever
//! core verifier it holds ([`Deferred`]), its checks go out the same way, its verdicts come
//! back through the one reader, and a second use is `ERR_BATCH_CONSUMED`.

use core::fmt::Display;

use wasm_bindgen::JsValue;

use super::args;
use super::error::{consumed, OrJs};
use crate::crypto::Deferred;
use crate::error_code::ErrorCode;

pub(crate) struct Pending<D> {
    inner: Option<D>,
    /// What the consumed error calls it ("batch", "PendingRim").
    what: &'static str,
}

impl<D: Deferred> Pending<D>
where
    D::Error: ErrorCode + Display,
{
    pub(crate) fn new(inner: D, what: &'static str) -> Self {
        let inner = Some(inner);
        Self { inner, what }
    }

    /// The signature checks, for a JS backend.
    pub(crate) fn checks(&self) -> Result<JsValue, JsValue> {
        let inner = self.inner.as_ref().ok_or_else(|| consumed(self.what))?;
        Ok(args::checks_to_js(inner.signature_checks()).into())
    }

    /// Completes with one boolean verdict per check (read before the work is used up, so a
    /// malformed list leaves it usable).
    pub(crate) fn finish(&mut self, verdicts: &JsValue) -> Result<D::Output, JsValue> {
        let flags = args::verdicts_arg(verdicts, "verdicts")?;
        self.take()?.finish(&flags).or_js()
    }

    /// The work itself, once: for completing it another way (the software backend).
    pub(crate) fn take(&mut self) -> Result<D, JsValue> {
        self.inner.take().ok_or_else(|| consumed(self.what))
    }
}
