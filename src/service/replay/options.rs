//! [`ReplayOptions`]: the trust anchors a replayer gives, as the JS `replayAttestation`
//! takes them: the service's own option names and rule (NVIDIA's roots, and the extra
//! anchors besides them), so that a bundle replays with the options its service was given.

use alloc::string::String;

use serde::Deserialize;

use super::error::ReplayError;
use super::run::ReplayAnchors;
use crate::chain::{NVIDIA_DEVICE_IDENTITY_CA_PEM, NVIDIA_RIM_ROOT_CA_PEM};
use crate::error_code::ErrorCode;
use crate::rim::RimTrust;
use crate::service::options::anchors;

/// The anchors to replay with: NVIDIA's, and the extra ones given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReplayOptions {
    /// Extra device root certificates (PEM), trusted besides the NVIDIA device root: the
    /// service's `trustAnchors`.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub trust_anchors: Option<String>,
    /// Extra RIM root certificates (PEM), trusted besides the NVIDIA RIM root: the service's
    /// `rimTrustAnchors`.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub rim_trust_anchors: Option<String>,
}

impl ReplayOptions {
    /// The anchors these options name.
    ///
    /// # Errors
    /// [`ReplayError::Anchors`] when a PEM text holds no usable certificate.
    pub fn anchors(&self) -> Result<ReplayAnchors, ReplayError> {
        let read = |nvidia: &str, extra: &Option<String>, field: &'static str| {
            anchors(nvidia, extra.as_deref(), field).map_err(|error| ReplayError::Anchors {
                field,
                code: error.code(),
                message: alloc::format!("{error}"),
            })
        };
        Ok(ReplayAnchors {
            device: read(
                NVIDIA_DEVICE_IDENTITY_CA_PEM,
                &self.trust_anchors,
                "trustAnchors",
            )?,
            rim: RimTrust::from_store(read(
                NVIDIA_RIM_ROOT_CA_PEM,
                &self.rim_trust_anchors,
                "rimTrustAnchors",
            )?),
        })
    }
}
