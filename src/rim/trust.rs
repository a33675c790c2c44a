//! The RIM trust anchor and the status of a RIM's `X509Data` certificate chain, reported
//! the way the real service reports it (`x-nvidia-*-rim-cert-chain`, claims 3.0).

use alloc::vec::Vec;

use der::Decode;
use serde::Serialize;
use x509_cert::Certificate;

use super::error::RimError;

/// NVIDIA's RIM signing root (`CN=NVIDIA CoRIM signing Root CA`, EC P-384, valid
/// 2023-03-16 → 2053-03-08, SHA-256 fingerprint `12:97:7B:51:…:F5:D1`), the default anchor.
pub const NVIDIA_RIM_ROOT_PEM: &str = include_str!("nvidia_rim_root_ca.pem");

/// The anchors a RIM certificate chain must end at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RimTrust {
    anchors: Vec<Vec<u8>>,
}

impl RimTrust {
    /// The NVIDIA RIM root only.
    pub fn nvidia() -> Self {
        // The bundled PEM is a constant known to parse (tested); an empty anchor list would
        // make every chain invalid, never valid.
        Self::from_pem(NVIDIA_RIM_ROOT_PEM).unwrap_or(Self {
            anchors: Vec::new(),
        })
    }

    /// Anchors from PEM text holding one or more certificates.
    ///
    /// # Errors
    /// [`RimError::Certificate`] when the text holds no certificate or one is not DER.
    pub fn from_pem(pem: &str) -> Result<Self, RimError> {
        let certificates =
            Certificate::load_pem_chain(pem.as_bytes()).map_err(|_| RimError::Certificate {
                index: 0,
                problem: "trust anchor is not a PEM certificate",
            })?;
        let mut anchors = Vec::with_capacity(certificates.len());
        for certificate in certificates {
            anchors.push(
                der::Encode::to_der(&certificate).map_err(|_| RimError::Certificate {
                    index: 0,
                    problem: "trust anchor does not re-encode",
                })?,
            );
        }
        if anchors.is_empty() {
            return Err(RimError::Certificate {
                index: 0,
                problem: "no trust anchor certificate",
            });
        }
        Ok(Self { anchors })
    }

    /// Anchors as DER certificates.
    ///
    /// # Errors
    /// [`RimError::Certificate`] when one is not a DER certificate.
    pub fn from_der(anchors: Vec<Vec<u8>>) -> Result<Self, RimError> {
        for (index, der) in anchors.iter().enumerate() {
            Certificate::from_der(der).map_err(|_| RimError::Certificate {
                index,
                problem: "trust anchor is not a DER certificate",
            })?;
        }
        Ok(Self { anchors })
    }

    /// The anchors, DER.
    pub fn anchors(&self) -> &[Vec<u8>] {
        &self.anchors
    }
}

impl Default for RimTrust {
    fn default() -> Self {
        Self::nvidia()
    }
}

/// `x-nvidia-cert-status` of a RIM chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RimCertStatus {
    /// The chain verifies to an anchor and every certificate is within its validity at `now`.
    Valid,
    /// The chain verifies, but a certificate is outside its validity at `now`.
    Expired,
    /// The chain does not verify to an anchor.
    Invalid,
    /// No chain validator is available in this build: the chain was NOT checked. Never treat
    /// this as valid.
    NotValidated,
}

impl RimCertStatus {
    /// The claim value: `valid`, `expired`, `invalid`, or `not-validated`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Valid => "valid",
            Self::Expired => "expired",
            Self::Invalid => "invalid",
            Self::NotValidated => "not-validated",
        }
    }
}

/// The chain part of a verified RIM.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RimCertChain {
    /// The status at the time given.
    pub status: RimCertStatus,
    /// The earliest `notAfter` of the chain's certificates, Unix seconds
    /// (`x-nvidia-cert-expiration-date`).
    pub expiration: Option<u64>,
    /// Why the chain is invalid, when it is.
    pub problem: Option<&'static str>,
}

/// The earliest `notAfter` of the certificates, and whether `now` is inside every validity.
pub(crate) fn validity_window(certificates: &[Vec<u8>], now: u64) -> (Option<u64>, bool) {
    let mut earliest: Option<u64> = None;
    let mut all_current = true;
    for der in certificates {
        let Ok(certificate) = Certificate::from_der(der) else {
            all_current = false;
            continue;
        };
        let validity = certificate.tbs_certificate().validity();
        let not_before = validity.not_before.to_unix_duration().as_secs();
        let not_after = validity.not_after.to_unix_duration().as_secs();
        earliest = Some(earliest.map_or(not_after, |e| e.min(not_after)));
        if now < not_before || now > not_after {
            all_current = false;
        }
    }
    (earliest, all_current)
}
