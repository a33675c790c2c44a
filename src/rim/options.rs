//! How a host asks for a RIM to be verified (the JS `RimOptions`, or a Rust caller with
//! serde): the trust anchors, defaulting to NVIDIA's RIM root. The time is the caller's
//! (`now`): the core reads no clock.

use alloc::string::String;

use serde::Deserialize;

use super::error::RimError;
use super::trust::RimTrust;
use super::verify::{prepare_rim, verify_rim, PendingRim, VerifiedRim};
use crate::time::UnixTime;

/// The options of a RIM's verification. `now` is how the caller wrote the verification time
/// (Unix seconds in JSON; the JS value in the binding, where a `Date` is allowed too): it is
/// declared so that readers refusing unknown members accept it, and the caller reads it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RimOptions<Now = UnixTime> {
    /// PEM anchors replacing NVIDIA's RIM root; default: [`RimTrust::nvidia`].
    pub trust_anchor_pem: Option<String>,
    /// The verification time as written (read by the caller).
    pub now: Option<Now>,
}

impl<Now> Default for RimOptions<Now> {
    fn default() -> Self {
        Self {
            trust_anchor_pem: None,
            now: None,
        }
    }
}

impl<Now> RimOptions<Now> {
    /// The anchors these options name.
    ///
    /// # Errors
    /// [`RimError::Certificate`] when `trust_anchor_pem` holds no usable certificate.
    pub fn trust(&self) -> Result<RimTrust, RimError> {
        match &self.trust_anchor_pem {
            Some(pem) => RimTrust::from_pem(pem),
            None => Ok(RimTrust::nvidia()),
        }
    }

    /// [`verify_rim`] of `xml` with these anchors at `now` (Unix seconds).
    ///
    /// # Errors
    /// As [`RimOptions::trust`] and [`verify_rim`].
    pub fn verify(&self, xml: &[u8], now: UnixTime) -> Result<VerifiedRim, RimError> {
        verify_rim(xml, &self.trust()?, now)
    }

    /// [`prepare_rim`] of `xml` with these anchors at `now` (Unix seconds).
    ///
    /// # Errors
    /// As [`RimOptions::trust`] and [`prepare_rim`].
    pub fn prepare(&self, xml: &[u8], now: UnixTime) -> Result<PendingRim, RimError> {
        prepare_rim(xml, &self.trust()?, now)
    }
}
