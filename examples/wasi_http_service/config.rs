//! The service's configuration from the environment (`wasi:cli/environment`), read once per
//! instance. The names and their meaning are the edge worker's bindings (`www/worker.js`), so
//! one set of variables configures either host; what a component cannot do is refused or
//! said here, never ignored silently.

use alloc::collections::BTreeMap;

use edgeattest::service::{Service, ServiceOptions, Setting};
use edgeattest::{parse_rfc3339, ErrorCode};

/// Time allowed for one OCSP request when `EDGEATTEST_OCSP_TIMEOUT_MS` is unset (the JS host's).
const OCSP_TIMEOUT_MS: u64 = 5_000;
/// The longest `EDGEATTEST_OCSP_TIMEOUT_MS` accepted.
const MAX_OCSP_TIMEOUT_MS: u64 = 30_000;

/// A configured instance: the service and the host's own settings.
pub(crate) struct Config {
    pub(crate) service: Service,
    /// `EDGEATTEST_FIXED_TIME`: answer as at this Unix second (replays only).
    pub(crate) fixed_time: Option<u64>,
    /// `EDGEATTEST_OCSP_TIMEOUT_MS`.
    pub(crate) ocsp_timeout_ms: u64,
    /// `EDGEATTEST_FETCH_CACHE`: `off` asks the sources for every attestation.
    pub(crate) fetch_cache: bool,
}

/// Why the service is not available: answered 503 with this code, as the worker does.
#[derive(Debug)]
pub(crate) struct ConfigError {
    pub(crate) code: &'static str,
    pub(crate) message: String,
}

fn config_error(message: String) -> ConfigError {
    ConfigError {
        code: "ERR_CONFIG",
        message,
    }
}

/// The variables, an empty value read as unset (as the worker reads its bindings).
pub(crate) struct Env(BTreeMap<String, String>);

impl Env {
    /// This instance's environment.
    pub(crate) fn read() -> Self {
        Self::from_pairs(wasip2::cli::environment::get_environment())
    }

    fn from_pairs(pairs: Vec<(String, String)>) -> Self {
        Self(pairs.into_iter().filter(|(_, v)| !v.is_empty()).collect())
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// An on/off variable: unset gives `fallback`; anything but on/off is a configuration error.
    fn on_off(&self, name: &str, fallback: bool) -> Result<bool, ConfigError> {
        match self.get(name) {
            None => Ok(fallback),
            Some("on") => Ok(true),
            Some("off") => Ok(false),
            Some(value) => Err(config_error(format!(
                "{name} must be on or off, not {value}"
            ))),
        }
    }

    /// A source URL: unset keeps the core's default (NVIDIA's), `off` switches it off.
    fn source(&self, name: &str) -> Setting {
        match self.get(name) {
            None => Setting::Default,
            Some("off") => Setting::Off,
            Some(url) => Setting::Url(url.to_string()),
        }
    }
}

impl Config {
    /// The configuration the environment describes, checked in the worker's order.
    pub(crate) fn from_env(env: &Env) -> Result<Self, ConfigError> {
        let Some(signing_key) = env.get("EDGEATTEST_SIGNING_KEY") else {
            return Err(ConfigError {
                code: "ERR_NO_SIGNING_KEY",
                message: "EDGEATTEST_SIGNING_KEY is not configured (wasmtime serve: -Scli \
                          --env EDGEATTEST_SIGNING_KEY=\"$(cat key.pem)\")"
                    .into(),
            });
        };
        // The worker's backends; a component has no WebCrypto, so both run in the core.
        match env.get("EDGEATTEST_CRYPTO") {
            None | Some("webcrypto" | "software") => {}
            Some(other) => {
                return Err(config_error(format!(
                    "EDGEATTEST_CRYPTO must be one of webcrypto, software, not {other}"
                )))
            }
        }
        let fixed_time = env
            .get("EDGEATTEST_FIXED_TIME")
            .map(fixed_time)
            .transpose()?;
        let ocsp_timeout_ms = timeout_ms(env.get("EDGEATTEST_OCSP_TIMEOUT_MS"))?;
        let options = ServiceOptions {
            signing_key: Some(signing_key.to_string()),
            certificate: env.get("EDGEATTEST_SIGNING_CERTIFICATE").map(Into::into),
            retired_keys: env.get("EDGEATTEST_RETIRED_KEYS").map(Into::into),
            issuer: env.get("EDGEATTEST_ISSUER").map(Into::into),
            require_fwid: Some(env.on_off("EDGEATTEST_REQUIRE_FWID", false)?),
            trust_anchors: env.get("EDGEATTEST_TRUST_ANCHORS").map(Into::into),
            rim_trust_anchors: env.get("EDGEATTEST_RIM_TRUST_ANCHORS").map(Into::into),
            rim_service_url: rim_service_url(env.source("EDGEATTEST_RIM_SERVICE_URL")),
            ocsp_url: env.source("EDGEATTEST_OCSP_URL"),
            policy: env.get("EDGEATTEST_POLICY").map(Into::into),
            ..ServiceOptions::default()
        };
        let mut service = options.build().map_err(|error| ConfigError {
            code: error.code(),
            message: error.to_string(),
        })?;
        // The worker bundles the fixtures' RIMs by default (www/rims.js); a component ships
        // none, so `on` is refused rather than meaning nothing.
        if env.on_off("EDGEATTEST_BUNDLED_RIMS", false)? {
            return Err(config_error(
                "EDGEATTEST_BUNDLED_RIMS: the service component bundles no RIMs; give them in \
                 EDGEATTEST_RIM_DOCUMENTS"
                    .into(),
            ));
        }
        if let Some(text) = env.get("EDGEATTEST_RIM_DOCUMENTS") {
            add_documents(&mut service, text)?;
        }
        Ok(Self {
            service,
            fixed_time,
            ocsp_timeout_ms,
            fetch_cache: env.on_off("EDGEATTEST_FETCH_CACHE", true)?,
        })
    }
}

/// `EDGEATTEST_FIXED_TIME`: Unix seconds or an RFC 3339 time.
fn fixed_time(text: &str) -> Result<u64, ConfigError> {
    let seconds = if text.bytes().all(|b| b.is_ascii_digit()) {
        text.parse::<u64>().ok()
    } else {
        parse_rfc3339(text).ok()
    };
    // The calendar's range (the worker asks for a safe integer); past it, a configuration error.
    seconds
        .filter(|&s| s <= edgeattest::MAX_SECS)
        .ok_or_else(|| {
            config_error(format!(
                "EDGEATTEST_FIXED_TIME is not an RFC 3339 time or Unix seconds: {text}"
            ))
        })
}

fn timeout_ms(text: Option<&str>) -> Result<u64, ConfigError> {
    let Some(text) = text else {
        return Ok(OCSP_TIMEOUT_MS);
    };
    match text.parse::<u64>() {
        Ok(ms) if text.bytes().all(|b| b.is_ascii_digit()) && (1..=MAX_OCSP_TIMEOUT_MS).contains(&ms) => Ok(ms),
        _ => Err(config_error(format!(
            "EDGEATTEST_OCSP_TIMEOUT_MS must be milliseconds from 1 to {MAX_OCSP_TIMEOUT_MS}, not {text}"
        ))),
    }
}

/// The RIM service: a base without `/rim/` (e.g. `https://rim.example/`) gets `v1/rim/`, as
/// the worker's `rimServiceUrl`.
fn rim_service_url(setting: Setting) -> Setting {
    match setting {
        Setting::Url(url) => {
            let base = url.trim_end_matches('/');
            if base.ends_with("/rim") {
                Setting::Url(format!("{base}/"))
            } else {
                Setting::Url(format!("{base}/v1/rim/"))
            }
        }
        other => other,
    }
}

/// `EDGEATTEST_RIM_DOCUMENTS`: JSON `[{name, xml}]`. A document the store cannot index is
/// skipped with a warning on stderr, as the worker does.
fn add_documents(service: &mut Service, text: &str) -> Result<(), ConfigError> {
    #[derive(serde::Deserialize)]
    struct Document {
        name: String,
        xml: String,
    }
    let documents: Vec<Document> = edgeattest::json::from_slice(text.as_bytes())
        .map_err(|error| config_error(format!("EDGEATTEST_RIM_DOCUMENTS: {error}")))?;
    for Document { name, xml } in documents {
        if let Err(error) = service.rims_mut().insert_named(&name, xml.into_bytes()) {
            eprintln!("RIM {name} not loaded: {} {error}", error.code());
        }
    }
    Ok(())
}
