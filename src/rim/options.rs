//! How a host asks for a RIM to be verified (the JS `RimOptions`, or a Rust caller with
//! serde): the trust anchors, defaulting to NVIDIA's RIM root. The time is the caller's
//! (`now`): the core reads no clock.

use alloc::string::String;

use serde::{Deserialize, Serialize};

use super::error::RimError;
use super::trust::RimTrust;
use super::verify::{prepare_rim, verify_rim, PendingRim, VerifiedRim};
use crate::time::UnixTime;

/// Which reference-value formats a host asks the RIM service for (`rimFormats`).
///
/// Decision: XML alone by default. NVIDIA's RIM service serves GPU reference values as
/// signed SWID XML; it has published no GPU CoRIM yet (its CoRIMs are for networking
/// devices, signed under a certificate named only by URL), and its CoRIM root (`NVIDIA CoRIM
/// Root CA001`) signs nothing that can be checked today. Asking for CoRIMs is a
/// deployment's choice once they exist.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RimFormats {
    /// SWID XML RIMs in the service's JSON envelope (`Accept: application/json`).
    #[default]
    Xml,
    /// CoRIMs preferred (signed `application/rim+cose`, then unsigned
    /// `application/rim+cbor`), the JSON envelope (XML or CoRIM) still accepted.
    CorimPreferred,
}

impl RimFormats {
    /// The `Accept` header of a RIM service request.
    pub const fn accept(self) -> &'static str {
        match self {
            Self::Xml => "application/json",
            Self::CorimPreferred => {
                "application/rim+cose, application/rim+cbor;q=0.9, application/json;q=0.8"
            }
        }
    }

    /// Whether these are the default, XML alone.
    pub fn is_xml(&self) -> bool {
        *self == Self::Xml
    }

    /// The formats an `Accept` header of [`Self::accept`] asks for (XML for any other).
    pub fn of_accept(accept: &str) -> Self {
        if accept == Self::CorimPreferred.accept() {
            Self::CorimPreferred
        } else {
            Self::Xml
        }
    }
}

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
