//! What `validateAttestRequest` reports of a valid body ([`RequestSummary`]), and the
//! endpoint lookup that refuses an unknown path with the service's code.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::{Endpoint, RequestError, ValidatedRequest};

impl Endpoint {
    /// The endpoint at `path`.
    ///
    /// # Errors
    /// [`RequestError::UnknownEndpoint`] when there is none.
    pub fn for_path(path: &str) -> Result<Self, RequestError> {
        Self::from_path(path).ok_or_else(|| RequestError::UnknownEndpoint { path: path.into() })
    }
}

/// What `validateAttestRequest` found in a valid body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(rename = "ValidatedAttestRequest")
)]
#[serde(rename_all = "camelCase")]
pub struct RequestSummary {
    /// The endpoint's path.
    #[cfg_attr(feature = "ts", ts(type = "AttestEndpoint"))]
    pub endpoint: &'static str,
    /// The nonce, hex.
    pub nonce: String,
    /// The architecture (the switch endpoints' default included).
    #[cfg_attr(feature = "ts", ts(type = "Arch"))]
    pub arch: &'static str,
    /// The claims version (the endpoint's default included).
    #[cfg_attr(feature = "ts", ts(type = "ClaimsVersion"))]
    pub claims_version: &'static str,
    /// Whether the endpoint is deprecated.
    pub deprecated: bool,
    /// The devices, in order.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub devices: Vec<DeviceSummary>,
}

/// One device of a [`RequestSummary`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct DeviceSummary {
    /// `GPU-0`, `SWITCH-1`.
    pub label: String,
    /// Decoded evidence size.
    pub evidence_bytes: usize,
    /// Decoded PEM size.
    pub certificate_bytes: usize,
    /// The firmware version hint, if any.
    pub firmware_version: Option<String>,
}

impl RequestSummary {
    /// The summary of `request`.
    pub fn new(request: &ValidatedRequest) -> Self {
        let endpoint = request.endpoint();
        let kind = endpoint.device_kind().label_prefix();
        Self {
            endpoint: endpoint.path(),
            nonce: request.nonce().to_hex(),
            arch: request.arch().as_str(),
            claims_version: request.claims_version().as_str(),
            deprecated: endpoint.is_deprecated(),
            devices: request
                .devices()
                .iter()
                .enumerate()
                .map(|(i, device)| DeviceSummary {
                    label: alloc::format!("{kind}-{i}"),
                    evidence_bytes: device.evidence().len(),
                    certificate_bytes: device.certificate_pem().len(),
                    firmware_version: device.firmware_version().map(|v| String::from(v.as_str())),
                })
                .collect(),
        }
    }
}
