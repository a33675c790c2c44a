//! The service's configuration from the environment (`wasi:cli/environment`), read once per
//! instance by the core's reading of the `EDGEATTEST_*` variables
//! (`edgeattest::service::HostSettings`), the one the edge worker uses too: one set of
//! variables means the same on either host. What a component cannot do is refused here, never
//! ignored.

use alloc::collections::BTreeMap;

use edgeattest::service::{HostSettings, Service, TestPkiAnswers};
use edgeattest::ErrorCode;

use crate::test_pki::TEST_PKI;

/// A configured instance: the service and the host's own settings.
pub(crate) struct Config {
    pub(crate) service: Service,
    /// `EDGEATTEST_FIXED_TIME`: answer as at this Unix second (replays only).
    pub(crate) fixed_time: Option<u64>,
    /// `EDGEATTEST_OCSP_TIMEOUT_MS`.
    pub(crate) ocsp_timeout_ms: u64,
    /// `EDGEATTEST_FETCH_CACHE`: `off` asks the sources for every attestation.
    pub(crate) fetch_cache: bool,
    /// `EDGEATTEST_TEST_PKI=on`: the test PKI's OCSP answers, given ahead of the cache.
    pub(crate) test_pki_answers: Option<TestPkiAnswers>,
}

/// Why the service is not available: answered 503 with this code, as the worker does.
#[derive(Debug)]
pub(crate) struct ConfigError {
    pub(crate) code: &'static str,
    pub(crate) message: String,
}

impl ConfigError {
    fn of(error: &(impl ErrorCode + core::fmt::Display)) -> Self {
        Self {
            code: error.code(),
            message: error.to_string(),
        }
    }
}

/// This instance's environment.
pub(crate) struct Env(BTreeMap<String, String>);

impl Env {
    pub(crate) fn read() -> Self {
        Self(
            wasip2::cli::environment::get_environment()
                .into_iter()
                .collect(),
        )
    }
}

impl Config {
    /// The configuration the environment describes.
    pub(crate) fn from_env(env: &Env) -> Result<Self, ConfigError> {
        let mut settings = HostSettings::read(|name| env.0.get(name).cloned()).map_err(|error| {
            let mut error = ConfigError::of(&error);
            if error.code == "ERR_NO_SIGNING_KEY" {
                error.message.push_str(
                    " (npm run serve:component: EDGEATTEST_SIGNING_KEY=\"$(cat key.pem)\" in its \
                     environment; wasmtime serve: -Scli --env EDGEATTEST_SIGNING_KEY=\"$(cat key.pem)\")",
                );
            }
            error
        })?;
        // A component bundles no RIMs (the worker bundles the fixtures'; the test PKI's are
        // EDGEATTEST_TEST_PKI's): `on` would mean nothing.
        if settings.bundled_rims == Some(true) {
            return Err(ConfigError {
                code: "ERR_CONFIG",
                message: "EDGEATTEST_BUNDLED_RIMS: the service component bundles no RIMs; give \
                          them in EDGEATTEST_RIM_DOCUMENTS"
                    .into(),
            });
        }
        let test_pki_answers = if settings.test_pki {
            settings.add_test_pki(&TEST_PKI);
            eprintln!(
                "EDGEATTEST_TEST_PKI=on: also trusting the {}: for development only",
                TEST_PKI.label
            );
            Some(
                TEST_PKI
                    .answers()
                    .map_err(|error| ConfigError::of(&error))?,
            )
        } else {
            None
        };
        // EDGEATTEST_CRYPTO either way: a component has no WebCrypto, the core does it all.
        let mut service = settings
            .options
            .build()
            .map_err(|error| ConfigError::of(&error))?;
        for document in settings.rim_documents {
            if let Err(error) = service
                .rims_mut()
                .insert_named(&document.name, document.xml.into_bytes())
            {
                eprintln!("RIM {} not loaded: {} {error}", document.name, error.code());
            }
        }
        Ok(Self {
            service,
            fixed_time: settings.fixed_time.map(edgeattest::UnixTime::as_secs),
            ocsp_timeout_ms: settings.ocsp_timeout_ms,
            fetch_cache: settings.fetch_cache,
            test_pki_answers,
        })
    }
}
