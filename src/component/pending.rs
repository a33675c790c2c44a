//! The component's one shape for use-once work waiting on the host's signature verdicts
//! (the JS binding's `Pending`): whichever core verifier it holds ([`Deferred`]), its checks
//! go out the same way, and a second use is `ERR_BATCH_CONSUMED`.

use alloc::vec::Vec;
use core::cell::RefCell;

use super::exports::edgeattest::verifier::types::SignatureCheck as WitCheck;
use super::WitError;
use crate::crypto::{Deferred, SignatureCheck};

pub(super) struct Pending<D> {
    inner: RefCell<Option<D>>,
    /// What the consumed error calls it ("batch", "PendingRim"), as the JS binding does.
    what: &'static str,
}

impl<D: Deferred> Pending<D> {
    pub(super) fn new(inner: D, what: &'static str) -> Self {
        Self {
            inner: RefCell::new(Some(inner)),
            what,
        }
    }

    /// The signature checks, for the host's crypto.
    pub(super) fn checks(&self) -> Result<Vec<WitCheck>, WitError> {
        let inner = self.inner.borrow();
        let inner = inner.as_ref().ok_or_else(|| consumed(self.what))?;
        Ok(checks_out(inner.signature_checks()))
    }

    /// The work itself, once.
    pub(super) fn take(&self) -> Result<D, WitError> {
        self.inner
            .borrow_mut()
            .take()
            .ok_or_else(|| consumed(self.what))
    }
}

/// Core checks as WIT records.
pub(super) fn checks_out(checks: &[SignatureCheck]) -> Vec<WitCheck> {
    checks
        .iter()
        .map(|check| WitCheck {
            public_key: check.public_key_sec1.clone(),
            message: check.message.clone(),
            signature: check.signature.clone(),
        })
        .collect()
}

/// The JS binding's `ERR_BATCH_CONSUMED`, word for word.
fn consumed(what: &str) -> WitError {
    WitError {
        code: "ERR_BATCH_CONSUMED".into(),
        field: None,
        message: alloc::format!("this {what} was already finished"),
    }
}
