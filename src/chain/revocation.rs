//! The one revocation status every report carries: a verified chain holds it, the OCSP
//! check sets it.

use serde::{Deserialize, Serialize};

/// A certificate's or a chain's revocation status: the one type of the crate for it. The
/// chain report, the RIM report and the service's claims (`x-nvidia-cert-ocsp-status`) all
/// carry it; serialized as `not-checked`, `good`, `revoked`, `unknown`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum RevocationStatus {
    /// No OCSP request was made (the offline core, OCSP off). The service's claims have no
    /// such value: a chain it did not check is `unknown` there, with a warning.
    #[serde(rename = "not-checked")]
    NotChecked,
    /// Every certificate's responder said good.
    Good,
    /// A certificate is revoked.
    Revoked,
    /// A responder does not know a certificate, or its status could not be had.
    Unknown,
}

impl RevocationStatus {
    /// `not-checked`, `good`, `revoked` or `unknown`: the serialized value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::NotChecked => "not-checked",
            Self::Good => "good",
            Self::Revoked => "revoked",
            Self::Unknown => "unknown",
        }
    }
}
