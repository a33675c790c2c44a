//! `GET /health` (spec §2 "Health status"): the spec's object, reflecting real state.
//!
//! The spec leaves the status strings open. We use the Spring Boot vocabulary the real
//! service's stack suggests — `UP`, `DOWN` — plus `DEGRADED` (answering, but some
//! attestations will fail), `NOT_CONFIGURED` and `NOT_CHECKED` (revocation is not checked in
//! this release). The HTTP status is 200 unless the service is `DOWN` (no signing key or no
//! device trust anchor), then 503, so load balancers can act on it. Beyond the spec's fields,
//! `network` and `networkDetail` say whether the sources answer and, when one does not, what
//! fails and what to do ([`super::health_probe`]); `sources` lists every configured source
//! (mirrors too) with its breaker, `keptAnswers` how stale the kept answers the last
//! attestation used are (stale-if-error), which makes the service `DEGRADED`, and `verified`
//! how much this process has verified and keeps ([`super::memo`]): all zeros on a new process
//! or isolate, which is why a first attestation costs more than the next.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::health_probe::{self, Network};
use super::http::Response;
use super::memo::MemoCounts;
use super::source::SourceState;

/// Where the signing key is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum KeyLocation {
    /// Held by the core (software signing).
    InCore,
    /// Held by the host (a WebCrypto key); the core has its public half.
    External,
}

/// The state the health answer reflects; the host knows it and passes it in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HealthInputs {
    /// A signing key is loaded, and where.
    pub signing_key: Option<KeyLocation>,
    /// The active key's `kid`.
    pub kid: String,
    /// Device trust anchors loaded.
    pub device_anchors: usize,
    /// RIM trust anchors loaded.
    pub rim_anchors: usize,
    /// RIM documents available without the network (bundled, folder).
    pub rim_documents: usize,
    /// The RIM service URL (`None`: off) and what the host last saw of it.
    pub rim_service: (Option<String>, SourceState),
    /// The OCSP responder URL (`None`: off) and what the host last saw of it.
    pub ocsp: (Option<String>, SourceState),
    /// Every configured source, mirrors too, with what the host's attempts saw.
    pub sources: Vec<SourceHealth>,
    /// What the service's memo holds.
    pub verified: MemoCounts,
}

/// One configured source in `/health`'s `sources`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceHealth {
    /// `rim` or `ocsp`.
    pub kind: &'static str,
    /// The configured URL.
    pub url: String,
    /// `UP` (its last attempt got an answer), `DOWN` or `UNKNOWN` (not asked yet).
    pub status: &'static str,
    /// Its breaker: `closed`, `open` or `half-open`.
    pub breaker: &'static str,
    /// How long an open breaker still skips it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_for_ms: Option<u64>,
    /// Attempts made, and how many failed.
    pub attempts: u64,
    /// Attempts failed.
    pub failures: u64,
    /// Its last failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
}

impl SourceHealth {
    /// The source at `url` of `kind` (`rim` or `ocsp`) as `book` saw it at `now_ms`.
    pub fn of(
        kind: &'static str,
        url: &str,
        book: &super::breaker::SourceBook,
        now_ms: u64,
    ) -> Self {
        let record = book.record(url);
        let breaker = book.state(url, now_ms);
        Self {
            kind,
            url: String::from(url),
            status: match record {
                None => "UNKNOWN",
                Some(record) if record.reachable => "UP",
                Some(_) => "DOWN",
            },
            breaker: breaker.as_str(),
            open_for_ms: match breaker {
                super::BreakerState::Open { until_ms } => Some(until_ms - now_ms),
                _ => None,
            },
            attempts: record.map_or(0, |r| r.attempts),
            failures: record.map_or(0, |r| r.failures),
            last_error: record.and_then(|r| r.last_error.clone()),
        }
    }
}

/// `keptAnswers`: seconds past their freshness of the stalest kept answers the last
/// attestation used because every source failed (absent: none).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeptAnswers {
    /// RIM envelopes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rim_seconds: Option<u64>,
    /// OCSP answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ocsp_seconds: Option<u64>,
}

/// The health object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Health {
    /// `UP`, `DEGRADED` or `DOWN`.
    pub overall_status: &'static str,
    /// The RIM document store: `UP` when it holds documents.
    pub database_status: &'static str,
    /// Reference-measurement availability.
    pub rim_service_health: RimServiceHealth,
    /// Revocation checking and the signing key store.
    pub ocsp_service_health: OcspServiceHealth,
    /// Whether the configured sources answer (the host probes them at start).
    pub network: Network,
    /// Each source in words: answering, off, or unreachable with the cause and the remedy.
    pub network_detail: String,
    /// Every configured source, mirrors too, with its breaker.
    pub sources: Vec<SourceHealth>,
    /// How stale the kept answers the last attestation used are.
    pub kept_answers: KeptAnswers,
    /// What this process has verified and keeps.
    pub verified: MemoCounts,
}

/// `rimServiceHealth`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RimServiceHealth {
    /// `UP` when RIMs can be had (locally or from the service).
    pub status: &'static str,
    /// Check name → result.
    pub checks: BTreeMap<&'static str, String>,
}

/// `ocspServiceHealth`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OcspServiceHealth {
    /// The responder: `UP` (its last answer came), `DOWN` (its last fetch failed),
    /// `UNKNOWN` (not asked yet) or `NOT_CONFIGURED` (revocation is not checked).
    pub overall_status: &'static str,
    /// The parts.
    pub service: OcspServiceParts,
}

/// `ocspServiceHealth.service`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OcspServiceParts {
    /// The signing key store (the real service's HSM): `UP` when a key is loaded.
    pub hsm_status: &'static str,
    /// Where the signing key is held.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signing_key: Option<KeyLocation>,
    /// The active key's `kid`.
    pub kid: String,
    /// The responder's URL, when configured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub responder: Option<String>,
    /// The responder's last failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
    /// OCSP answers held in the host's cache.
    pub cached_responses: u64,
    /// Kept from the real service's shape: `NOT_CONFIGURED` (no revocation database; the
    /// responder is asked instead).
    pub db_status: &'static str,
}

/// `UP`, `DOWN`, `UNKNOWN` or `NOT_CONFIGURED` for a source.
fn source_status(source: &(Option<String>, SourceState)) -> &'static str {
    match (&source.0, source.1.reachable) {
        (None, _) => "NOT_CONFIGURED",
        (Some(_), None) => "UNKNOWN",
        (Some(_), Some(true)) => "UP",
        (Some(_), Some(false)) => "DOWN",
    }
}

impl Health {
    /// The health object for `inputs`.
    pub fn new(inputs: &HealthInputs) -> Self {
        let up_down = |up: bool| if up { "UP" } else { "DOWN" };
        let rim_service = source_status(&inputs.rim_service);
        let ocsp = source_status(&inputs.ocsp);
        let rims_usable = inputs.rim_documents > 0 || matches!(rim_service, "UP" | "UNKNOWN");
        let kept_answers = KeptAnswers {
            rim_seconds: inputs.rim_service.1.kept_seconds,
            ocsp_seconds: inputs.ocsp.1.kept_seconds,
        };
        let kept = kept_answers != KeptAnswers::default();
        // A configured source that does not answer fails the attestations that need it, even
        // when RIMs are held, and kept answers stand in for fresh ones: DEGRADED, not UP.
        let overall_status = if inputs.signing_key.is_none() || inputs.device_anchors == 0 {
            "DOWN"
        } else if !rims_usable
            || inputs.rim_anchors == 0
            || ocsp == "DOWN"
            || rim_service == "DOWN"
            || kept
        {
            "DEGRADED"
        } else {
            "UP"
        };
        let mut checks = BTreeMap::new();
        checks.insert(
            "localDocuments",
            format!("{} documents", inputs.rim_documents),
        );
        checks.insert("rimTrustAnchors", format!("{} anchors", inputs.rim_anchors));
        checks.insert("rimService", String::from(rim_service));
        if let Some(url) = &inputs.rim_service.0 {
            checks.insert("rimServiceUrl", url.clone());
            checks.insert(
                "cachedDocuments",
                format!("{} documents", inputs.rim_service.1.cached_entries),
            );
        }
        if let Some(error) = &inputs.rim_service.1.last_error {
            checks.insert("rimServiceLastError", error.clone());
        }
        let (network, network_detail) = health_probe::network(&inputs.rim_service, &inputs.ocsp);
        Self {
            overall_status,
            network,
            network_detail,
            sources: inputs.sources.clone(),
            kept_answers,
            verified: inputs.verified,
            database_status: up_down(inputs.rim_documents > 0),
            rim_service_health: RimServiceHealth {
                status: up_down(rims_usable),
                checks,
            },
            ocsp_service_health: OcspServiceHealth {
                overall_status: ocsp,
                service: OcspServiceParts {
                    hsm_status: up_down(inputs.signing_key.is_some()),
                    signing_key: inputs.signing_key,
                    kid: inputs.kid.clone(),
                    responder: inputs.ocsp.0.clone(),
                    last_error: inputs.ocsp.1.last_error.clone(),
                    cached_responses: inputs.ocsp.1.cached_entries,
                    db_status: "NOT_CONFIGURED",
                },
            },
        }
    }

    /// The HTTP answer: 503 when `DOWN`, else 200.
    pub fn into_response(self) -> Response {
        let status = if self.overall_status == "DOWN" {
            503
        } else {
            200
        };
        Response::json(status, &self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn up() -> SourceState {
        SourceState {
            reachable: Some(true),
            ..SourceState::default()
        }
    }

    fn inputs() -> HealthInputs {
        HealthInputs {
            signing_key: Some(KeyLocation::External),
            kid: "kid-1".into(),
            device_anchors: 1,
            rim_anchors: 1,
            rim_documents: 36,
            rim_service: (None, SourceState::default()),
            ocsp: (Some("https://ocsp.example/".into()), up()),
            sources: Vec::new(),
            verified: MemoCounts::default(),
        }
    }

    #[test]
    fn reflects_state() {
        let health = Health::new(&inputs());
        assert_eq!(
            (health.overall_status, health.database_status),
            ("UP", "UP")
        );
        assert_eq!(
            health.rim_service_health.checks["localDocuments"],
            "36 documents"
        );
        let value = serde_json::to_value(&health).unwrap();
        for key in [
            "overallStatus",
            "databaseStatus",
            "rimServiceHealth",
            "ocspServiceHealth",
        ] {
            assert!(value.get(key).is_some(), "{key}");
        }
        assert_eq!(value["ocspServiceHealth"]["service"]["hsmStatus"], "UP");
        assert_eq!(
            value["ocspServiceHealth"]["service"]["signingKey"],
            "EXTERNAL"
        );
        assert_eq!(value["ocspServiceHealth"]["overallStatus"], "UP");

        let no_rims = Health::new(&HealthInputs {
            rim_documents: 0,
            rim_service: (
                Some("https://rim.example/".into()),
                SourceState {
                    reachable: Some(false),
                    last_error: Some("timeout".into()),
                    cached_entries: 0,
                    kept_seconds: None,
                },
            ),
            ..inputs()
        });
        assert_eq!(
            (no_rims.overall_status, no_rims.rim_service_health.status),
            ("DEGRADED", "DOWN")
        );
        assert_eq!(
            no_rims.rim_service_health.checks["rimServiceLastError"],
            "timeout"
        );
        let remote = Health::new(&HealthInputs {
            rim_documents: 0,
            rim_service: (Some("https://rim.example/".into()), up()),
            ..inputs()
        });
        assert_eq!(remote.overall_status, "UP");
        let responder_down = Health::new(&HealthInputs {
            ocsp: (
                Some("https://ocsp.example/".into()),
                SourceState {
                    reachable: Some(false),
                    ..SourceState::default()
                },
            ),
            ..inputs()
        });
        assert_eq!(
            (
                responder_down.overall_status,
                responder_down.ocsp_service_health.overall_status
            ),
            ("DEGRADED", "DOWN")
        );
        let off = Health::new(&HealthInputs {
            ocsp: (None, SourceState::default()),
            ..inputs()
        });
        assert_eq!(off.ocsp_service_health.overall_status, "NOT_CONFIGURED");
        let no_key = Health::new(&HealthInputs {
            signing_key: None,
            ..inputs()
        });
        assert_eq!(no_key.overall_status, "DOWN");
        assert_eq!(no_key.into_response().status, 503);
        let no_anchor = Health::new(&HealthInputs {
            device_anchors: 0,
            ..inputs()
        });
        assert_eq!(no_anchor.into_response().status, 503);
    }

    fn down(error: &str) -> SourceState {
        SourceState {
            reachable: Some(false),
            last_error: Some(error.into()),
            cached_entries: 0,
            kept_seconds: None,
        }
    }

    #[test]
    fn a_probe_that_failed_says_offline_at_once() {
        // NVIDIA's sources as configured by default, both probed and unreachable, before any
        // attestation: DEGRADED and OFFLINE, with the causes and the remedies in words.
        let offline = Health::new(&HealthInputs {
            rim_service: (
                Some(crate::service::fetch::NVIDIA_RIM_SERVICE_URL.into()),
                down("unreachable"),
            ),
            ocsp: (
                Some(crate::service::fetch::NVIDIA_OCSP_URL.into()),
                down("timeout"),
            ),
            ..inputs()
        });
        assert_eq!(offline.overall_status, "DEGRADED");
        assert_eq!(offline.network, Network::Offline);
        let value = serde_json::to_value(&offline).unwrap();
        assert_eq!(value["network"], "OFFLINE");
        let detail = value["networkDetail"].as_str().unwrap();
        assert!(
            detail.contains("its name did not resolve") && detail.contains("no answer in time"),
            "{detail}"
        );
        assert!(detail.contains("EDGEATTEST_OCSP_URL=off"), "{detail}");
        // The spec's fields keep their shape.
        assert_eq!(value["rimServiceHealth"]["checks"]["rimService"], "DOWN");
        assert_eq!(value["ocspServiceHealth"]["overallStatus"], "DOWN");
        assert_eq!(offline.into_response().status, 200);
    }

    #[test]
    fn a_rim_service_down_degrades_even_with_rims_held() {
        // RIMs held cover only their devices: any other one fails with 5008.
        let health = Health::new(&HealthInputs {
            rim_service: (Some("https://rim.example/".into()), down("unreachable")),
            ..inputs()
        });
        assert_eq!(
            (health.overall_status, health.rim_service_health.status),
            ("DEGRADED", "UP")
        );
        assert_eq!(health.network, Network::PartlyOffline);
    }

    #[test]
    fn not_probed_yet_is_unknown_and_air_gapped_is_up() {
        let unprobed = Health::new(&HealthInputs {
            ocsp: (Some("https://ocsp.example/".into()), SourceState::default()),
            ..inputs()
        });
        assert_eq!(
            (unprobed.overall_status, unprobed.network),
            ("UP", Network::Unknown)
        );
        let air_gapped = Health::new(&HealthInputs {
            ocsp: (None, SourceState::default()),
            ..inputs()
        });
        assert_eq!(
            (air_gapped.overall_status, air_gapped.network),
            ("UP", Network::AirGapped)
        );
        assert!(air_gapped
            .network_detail
            .contains("EDGEATTEST_RIM_SERVICE_URL=off"));
    }
}
