//! [`ReplayOptions`]: the trust anchors a replayer gives, as the JS `replayAttestation` and
//! the component take them (PEM text; NVIDIA's roots by default).

use alloc::string::String;

use serde::Deserialize;

use super::error::ReplayError;
use super::run::ReplayAnchors;
use crate::chain::TrustStore;
use crate::error_code::ErrorCode;
use crate::rim::RimTrust;

/// The anchors to replay with; each absent one is NVIDIA's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReplayOptions {
    /// Device roots, PEM (default: NVIDIA's Device Identity CA).
    #[cfg_attr(feature = "ts", ts(optional))]
    pub device_roots: Option<String>,
    /// RIM roots, PEM (default: NVIDIA's RIM root).
    #[cfg_attr(feature = "ts", ts(optional))]
    pub rim_roots: Option<String>,
}

impl ReplayOptions {
    /// The anchors these options name.
    ///
    /// # Errors
    /// [`ReplayError::Anchors`] when a PEM text holds no usable certificate.
    pub fn anchors(&self) -> Result<ReplayAnchors, ReplayError> {
        let read = |pem: &Option<String>, field: &'static str, default: fn() -> _| {
            match pem {
                None => default(),
                Some(pem) => TrustStore::from_pem(pem),
            }
            .map_err(|error| ReplayError::Anchors {
                field,
                code: error.code(),
                message: alloc::format!("{error}"),
            })
        };
        Ok(ReplayAnchors {
            device: read(
                &self.device_roots,
                "deviceRoots",
                TrustStore::nvidia_device_identity,
            )?,
            rim: RimTrust::from_store(read(&self.rim_roots, "rimRoots", TrustStore::nvidia_rim)?),
        })
    }
}
