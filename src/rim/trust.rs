//! The RIM trust anchor and the status of a RIM's `X509Data` certificate chain, reported
//! the way the real service reports it (`x-nvidia-*-rim-cert-chain`, claims 3.0). Path
//! validation itself is [`crate::chain`]'s (RFC 5280 §6.1, P-384 only).

use alloc::string::{String, ToString};

use serde::Serialize;

use super::error::RimError;
use crate::chain::{ChainError, ChainStatus, RevocationStatus, TrustStore, VerifiedChain};
use crate::error_code::ErrorCode;
use crate::time::UnixTime;

/// A RIM's signing chain has expired (service 4011).
pub const ERR_RIM_CHAIN_EXPIRED: &str = "ERR_RIM_CHAIN_EXPIRED";
/// A RIM's signing chain does not validate (service 4015).
pub const ERR_RIM_CHAIN_INVALID: &str = "ERR_RIM_CHAIN_INVALID";

/// NVIDIA's RIM signing root (`CN=NVIDIA CoRIM signing Root CA`, EC P-384, valid
/// 2023-03-16 → 2053-03-08, SHA-256 fingerprint `12:97:7B:51:…:F5:D1`), the default anchor.
pub const NVIDIA_RIM_ROOT_PEM: &str = crate::chain::NVIDIA_RIM_ROOT_CA_PEM;

/// NVIDIA's CoRIM signing root (`CN=NVIDIA CoRIM Root CA001`, EC P-384, valid 2026-01-01 →
/// 2056-01-01, SHA-256 fingerprint `35:E7:A9:47:…:3E:5E`), the default anchor of signed
/// CoRIMs.
pub const NVIDIA_CORIM_ROOT_PEM: &str = crate::chain::NVIDIA_CORIM_ROOT_CA001_PEM;

/// The anchors a RIM certificate chain must end at, per format: NVIDIA signs XML RIMs under
/// one root and CoRIMs under another (its SDK trusts CA001 for CoRIMs only), so an XML RIM
/// never chains to the CoRIM root nor a CoRIM to the XML root. Anchors a host configures
/// serve both formats.
#[derive(Clone, Debug)]
pub struct RimTrust {
    store: Option<TrustStore>,
    corim: Option<TrustStore>,
}

impl RimTrust {
    /// NVIDIA's RIM roots: the XML RIM root for XML RIMs, CA001 for CoRIMs.
    pub fn nvidia() -> Self {
        // The embedded roots are constants tested to parse; were one ever not to, every
        // chain of its format would be reported invalid, never valid.
        Self {
            store: TrustStore::nvidia_rim().ok(),
            corim: TrustStore::nvidia_corim().ok(),
        }
    }

    /// NVIDIA's CoRIM root (CA001) only, for both formats.
    pub fn nvidia_corim() -> Self {
        // As for `nvidia`: an unparsable embedded root would make every chain invalid.
        let store = TrustStore::nvidia_corim().ok();
        Self {
            corim: store.clone(),
            store,
        }
    }

    /// Anchors from PEM text holding one or more certificates.
    ///
    /// # Errors
    /// [`RimError::Certificate`] when the text holds no usable certificate.
    pub fn from_pem(pem: &str) -> Result<Self, RimError> {
        let store = TrustStore::from_pem(pem).map_err(|_| RimError::Certificate {
            index: 0,
            problem: "trust anchor is not a usable PEM certificate",
        })?;
        Ok(Self::from_store(store))
    }

    /// Anchors from an existing trust store, for both formats.
    pub fn from_store(store: TrustStore) -> Self {
        Self {
            corim: Some(store.clone()),
            store: Some(store),
        }
    }

    /// The anchors of XML RIMs.
    pub(crate) fn store(&self) -> Option<&TrustStore> {
        self.store.as_ref()
    }

    /// The anchors of signed CoRIMs.
    pub(crate) fn corim_store(&self) -> Option<&TrustStore> {
        self.corim.as_ref()
    }
}

impl Default for RimTrust {
    fn default() -> Self {
        Self::nvidia()
    }
}

/// `x-nvidia-cert-status` of a RIM chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum RimCertStatus {
    /// The chain verifies to an anchor and every certificate is within its validity at `now`.
    Valid,
    /// The chain verifies, but a certificate expired before `now`.
    Expired,
    /// The chain does not verify to an anchor (or a certificate is not yet valid).
    Invalid,
}

impl RimCertStatus {
    /// The claim value: `valid`, `expired` or `invalid`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Valid => "valid",
            Self::Expired => "expired",
            Self::Invalid => "invalid",
        }
    }

    /// How a RIM whose signature verifies fails on this chain status: `None` when valid;
    /// expired is 4011, anything else 4015. The one verdict the evidence report and the
    /// service both give.
    pub(crate) const fn failure(self) -> Option<RimChainFailure> {
        match self {
            Self::Valid => None,
            Self::Expired => Some(RimChainFailure {
                code: ERR_RIM_CHAIN_EXPIRED,
                service_code: 4011,
                service_message: "CERTIFICATE_EXPIRED",
                description: "RIM signing certificate chain has expired",
            }),
            Self::Invalid => Some(RimChainFailure {
                code: ERR_RIM_CHAIN_INVALID,
                service_code: 4015,
                service_message: "INVALID_RIM_CERTIFICATE_CHAIN",
                description: "RIM signing certificate chain is not valid",
            }),
        }
    }
}

/// A RIM signing chain's failure, as the crate's code and as the service's error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RimChainFailure {
    /// `ERR_RIM_CHAIN_EXPIRED` or `ERR_RIM_CHAIN_INVALID`.
    pub code: &'static str,
    /// The service's numeric code: 4011 or 4015.
    pub service_code: u16,
    /// The service's symbolic name of `service_code`.
    pub service_message: &'static str,
    /// The service's description.
    pub description: &'static str,
}

/// The chain part of a verified RIM.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RimCertChain {
    /// The status at the time given.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub status: RimCertStatus,
    /// The earliest `notAfter` of the validated path, Unix seconds
    /// (`x-nvidia-cert-expiration-date`); absent when no path was built.
    pub expiration: Option<UnixTime>,
    /// The chain error code when the status is `invalid` (`ERR_CHAIN_*`).
    pub error_code: Option<&'static str>,
    /// The chain error message when the status is `invalid`.
    pub problem: Option<String>,
    /// Common names along the validated path, signer first.
    pub subjects: alloc::vec::Vec<String>,
    /// Revocation is not checked offline (OCSP needs the network): always
    /// [`RevocationStatus::NotChecked`] (`not-checked`).
    #[cfg_attr(feature = "ts", ts(type = r#""not-checked""#))]
    pub ocsp_status: RevocationStatus,
}

impl RimCertChain {
    pub(crate) fn from_result(result: Result<VerifiedChain, ChainError>) -> Self {
        match result {
            Ok(chain) => Self {
                status: match chain.status() {
                    ChainStatus::Valid => RimCertStatus::Valid,
                    ChainStatus::Expired => RimCertStatus::Expired,
                    _ => RimCertStatus::Invalid,
                },
                expiration: Some(chain.earliest_not_after()),
                error_code: None,
                problem: None,
                subjects: chain
                    .certificates()
                    .iter()
                    .map(|c| c.common_name.clone().unwrap_or_else(|| c.subject.clone()))
                    .collect(),
                ocsp_status: RevocationStatus::NotChecked,
            },
            Err(error) => Self {
                status: RimCertStatus::Invalid,
                expiration: None,
                error_code: Some(error.code()),
                problem: Some(error.to_string()),
                subjects: alloc::vec::Vec::new(),
                ocsp_status: RevocationStatus::NotChecked,
            },
        }
    }
}
