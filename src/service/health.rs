//! `GET /health` (spec §2 "Health status"): the spec's object, reflecting real state.
//!
//! The spec leaves the status strings open. We use the Spring Boot vocabulary the real
//! service's stack suggests — `UP`, `DOWN` — plus `DEGRADED` (answering, but some
//! attestations will fail), `NOT_CONFIGURED` and `NOT_CHECKED` (revocation is not checked in
//! this release). The HTTP status is 200 unless the service is `DOWN` (no signing key or no
//! device trust anchor), then 503, so load balancers can act on it.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;

use serde::Serialize;

use super::http::Response;

/// Whether a remote RIM service is configured and answered its last fetch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RimServiceState {
    /// No RIM service URL configured.
    NotConfigured,
    /// Configured; the last fetch succeeded (or none was needed yet).
    Up,
    /// Configured; the last fetch failed.
    Down,
}

/// The state the health answer reflects; the host knows it and passes it in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HealthInputs {
    /// A signing key is loaded.
    pub signing_key: bool,
    /// Device trust anchors loaded.
    pub device_anchors: usize,
    /// RIM trust anchors loaded.
    pub rim_anchors: usize,
    /// RIM documents available without the network (bundled, folder, cache).
    pub rim_documents: usize,
    /// The remote RIM service.
    pub rim_service: RimServiceState,
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
    /// `NOT_CHECKED`: revocation is not checked in this release.
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
    /// `NOT_CONFIGURED`: no revocation database.
    pub db_status: &'static str,
}

impl Health {
    /// The health object for `inputs`.
    pub fn new(inputs: &HealthInputs) -> Self {
        let up_down = |up: bool| if up { "UP" } else { "DOWN" };
        let rims_usable = inputs.rim_documents > 0 || inputs.rim_service == RimServiceState::Up;
        let overall_status = if !inputs.signing_key || inputs.device_anchors == 0 {
            "DOWN"
        } else if !rims_usable || inputs.rim_anchors == 0 {
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
        checks.insert(
            "rimService",
            String::from(match inputs.rim_service {
                RimServiceState::NotConfigured => "NOT_CONFIGURED",
                RimServiceState::Up => "UP",
                RimServiceState::Down => "DOWN",
            }),
        );
        Self {
            overall_status,
            database_status: up_down(inputs.rim_documents > 0),
            rim_service_health: RimServiceHealth {
                status: up_down(rims_usable),
                checks,
            },
            ocsp_service_health: OcspServiceHealth {
                overall_status: "NOT_CHECKED",
                service: OcspServiceParts {
                    hsm_status: up_down(inputs.signing_key),
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

    fn inputs() -> HealthInputs {
        HealthInputs {
            signing_key: true,
            device_anchors: 1,
            rim_anchors: 1,
            rim_documents: 36,
            rim_service: RimServiceState::NotConfigured,
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

        let no_rims = Health::new(&HealthInputs {
            rim_documents: 0,
            rim_service: RimServiceState::Down,
            ..inputs()
        });
        assert_eq!(
            (no_rims.overall_status, no_rims.rim_service_health.status),
            ("DEGRADED", "DOWN")
        );
        let remote = Health::new(&HealthInputs {
            rim_documents: 0,
            rim_service: RimServiceState::Up,
            ..inputs()
        });
        assert_eq!(remote.overall_status, "UP");
        let no_key = Health::new(&HealthInputs {
            signing_key: false,
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
}
