//! The edgeattest TEST PKI, development only: what `EDGEATTEST_TEST_PKI=on` means on every host.
//! The test PKI's private keys are public (tests/fixtures/generated/ocsp), so it proves nothing
//! about a real device; hosts trust it only when the setting asks, so that the offline samples
//! pass with RIMs compared and revocation checked. Every token of a device rooted there carries
//! the core's warning for a root other than NVIDIA's.
//!
//! The host brings the collateral (the worker bundles it, the service component embeds it);
//! the rule is here: its device and RIM roots join the configured anchors, its RIMs are added
//! as `configured-roots/<id>.xml` (never serving an NVIDIA device), and its nonce-free OCSP
//! answers are given for exactly the certificates they name, ahead of any cache or responder.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde::Deserialize;

use super::bindings::{HostSettings, RimDocument};
use super::rims::CONFIGURED_ROOTS;
use crate::error_code::ErrorCode;

/// The test PKI's collateral, as a host holds it.
#[derive(Clone, Copy, Debug)]
pub struct TestPki<'a> {
    /// What it is, for the host's start-up warning.
    pub label: &'a str,
    /// Its device root(s), PEM.
    pub device_roots: &'a str,
    /// Its RIM root(s), PEM.
    pub rim_roots: &'a str,
    /// Its test devices' RIMs: (RIM id, XML).
    pub rims: &'a [(&'a str, &'a str)],
    /// Its OCSP answers, JSON `{ "<cache key>": { "certificate", "response": base64 DER } }`
    /// (tests/fixtures/generated/demo/ocsp_answers.json).
    pub ocsp_answers: &'a str,
}

/// The test PKI's collateral as a host holds it, owned (`TestPkiCollateral` in JS;
/// development only: its keys are public): what `readServiceBindings` adds with
/// `EDGEATTEST_TEST_PKI=on`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TestPkiCollateral {
    /// What it is, for the host's start-up warning.
    pub label: String,
    /// Its device root(s), PEM.
    pub device_roots: String,
    /// Its RIM root(s), PEM.
    pub rim_roots: String,
    /// Its test devices' RIMs, added as `configured-roots/<id>.xml`.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub rims: Vec<TestPkiRim>,
    /// Its OCSP answers, JSON `{ "<cache key>": { "certificate", "response": base64 DER } }`.
    pub ocsp_answers: String,
}

/// One RIM of [`TestPkiCollateral`].
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TestPkiRim {
    /// The RIM id.
    pub id: String,
    /// The RIM's XML text.
    pub xml: String,
}

impl TestPkiCollateral {
    /// Its OCSP answers, once `settings` took it ([`HostSettings::add_test_pki`]: only with
    /// `EDGEATTEST_TEST_PKI=on`).
    pub fn add_to(&self, settings: &mut HostSettings) -> Result<TestPkiAnswers, TestPkiError> {
        let rims: Vec<(&str, &str)> = self.rims.iter().map(|r| (&*r.id, &*r.xml)).collect();
        let pki = TestPki {
            label: &self.label,
            device_roots: &self.device_roots,
            rim_roots: &self.rim_roots,
            rims: &rims,
            ocsp_answers: &self.ocsp_answers,
        };
        let answers = pki.answers()?;
        settings.add_test_pki(&pki);
        Ok(answers)
    }
}

/// Why the test PKI's OCSP answers are unusable: `ERR_CONFIG`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestPkiError(String);

impl fmt::Display for TestPkiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the test PKI's OCSP answers: {}", self.0)
    }
}

impl core::error::Error for TestPkiError {}

impl ErrorCode for TestPkiError {
    fn code(&self) -> &'static str {
        "ERR_CONFIG"
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Answer {
    #[allow(dead_code)]
    certificate: String,
    response: String,
}

/// The test PKI's OCSP answers by the core's OCSP cache key (`Resource::Ocsp::cache_key`:
/// issuer key hash and serial, so no other certificate's query matches).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TestPkiAnswers(BTreeMap<String, Vec<u8>>);

impl TestPkiAnswers {
    /// The answer (DER) to a query about the certificate `cache_key` names, if the test PKI
    /// has one: given as fetched now (it carries no nonce).
    pub fn get(&self, cache_key: &str) -> Option<&[u8]> {
        self.0.get(cache_key).map(Vec::as_slice)
    }

    /// Every answer by cache key, for a host that holds them in its own form (the worker).
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.0
            .iter()
            .map(|(key, der)| (key.as_str(), der.as_slice()))
    }

    /// How many certificates it answers for.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it answers for none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl TestPki<'_> {
    /// Its OCSP answers, decoded.
    pub fn answers(&self) -> Result<TestPkiAnswers, TestPkiError> {
        let parsed: BTreeMap<String, Answer> =
            crate::json::from_slice(self.ocsp_answers.as_bytes())
                .map_err(|error| TestPkiError(error.to_string()))?;
        let mut answers = BTreeMap::new();
        for (key, answer) in parsed {
            let der = STANDARD
                .decode(answer.response.as_bytes())
                .map_err(|error| TestPkiError(format!("{key}: {error}")))?;
            answers.insert(key, der);
        }
        Ok(TestPkiAnswers(answers))
    }
}

impl HostSettings {
    /// With `EDGEATTEST_TEST_PKI=on`, adds `pki`: its roots after the configured anchors, its
    /// RIMs as `configured-roots/<id>.xml` before the configured documents (as the worker
    /// loads its bundled RIMs first). Off, nothing changes.
    pub fn add_test_pki(&mut self, pki: &TestPki<'_>) {
        if !self.test_pki {
            return;
        }
        let join = |configured: &mut Option<String>, added: &str| {
            *configured = Some(match configured.take() {
                Some(text) => format!("{text}\n{added}"),
                None => added.into(),
            });
        };
        join(&mut self.options.trust_anchors, pki.device_roots);
        join(&mut self.options.rim_trust_anchors, pki.rim_roots);
        let rims = pki.rims.iter().map(|(id, xml)| RimDocument {
            name: format!("{CONFIGURED_ROOTS}{id}.xml"),
            xml: (*xml).into(),
        });
        self.rim_documents.splice(0..0, rims);
    }
}
