//! Why a topology could not be checked, or why it is refused.

use alloc::string::String;
use core::fmt;

use super::outcome::{TopologyFinding, TopologyRule};
use crate::error_code::ErrorCode;
use crate::evidence::error::VerifyError;

/// Why a topology could not be checked, or why it is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TopologyError {
    /// The topology broke a rule (from [`super::TopologyReport::require`]).
    Failed {
        /// The first failed rule.
        rule: TopologyRule,
        /// How many rules failed.
        failed_rules: usize,
        /// Its first finding.
        finding: Option<TopologyFinding>,
    },
    /// A GPU given as a switch, or the reverse.
    WrongDevice {
        /// The device's label.
        device: String,
        /// `gpu` or `switch`: what was expected there.
        expected: &'static str,
    },
    /// A claim that is not what NVIDIA's verifiers write (a PDI is 16 hex digits).
    ClaimInvalid {
        /// The device's label.
        device: String,
        /// The claim.
        claim: &'static str,
    },
    /// A device's evidence did not verify: a topology is read only from devices that
    /// passed. Its code is the device's own (`ERR_EVIDENCE_SIGNATURE`, `ERR_CHAIN_*`).
    Device {
        /// The device's label (`GPU-3`).
        device: String,
        /// Why it failed.
        error: VerifyError,
    },
    /// A joined result did not pass (`x-nvidia-overall-att-result` is not `true`).
    ResultFailed {
        /// `GPU` or `switch`: which result.
        result: &'static str,
    },
    /// The GPU result and the switch result answer different nonces (or one has none).
    NonceMismatch,
    /// More devices or PDIs than the budgets allow.
    TooLarge {
        /// What overflowed.
        what: &'static str,
        /// The device, for a device's PDIs.
        device: Option<String>,
    },
}

impl ErrorCode for TopologyError {
    fn code(&self) -> &'static str {
        match self {
            Self::Failed { .. } => "ERR_TOPOLOGY_FAILED",
            Self::WrongDevice { .. } => "ERR_TOPOLOGY_WRONG_DEVICE",
            Self::ClaimInvalid { .. } => "ERR_TOPOLOGY_CLAIM_INVALID",
            Self::TooLarge { .. } => "ERR_TOPOLOGY_TOO_LARGE",
            Self::Device { error, .. } => error.code(),
            Self::ResultFailed { .. } => "ERR_TOPOLOGY_RESULT_FAILED",
            Self::NonceMismatch => "ERR_TOPOLOGY_NONCE_MISMATCH",
        }
    }
}

impl fmt::Display for TopologyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Failed {
                rule,
                failed_rules,
                finding,
            } => {
                write!(f, "the PPCIE topology failed rule {}", rule.id())?;
                if let Some(finding) = finding {
                    write!(f, ": {}", finding.message)?;
                }
                if *failed_rules > 1 {
                    write!(f, " ({failed_rules} rules failed)")?;
                }
                Ok(())
            }
            Self::WrongDevice { device, expected } => {
                write!(f, "{device} is not a {expected}")
            }
            Self::ClaimInvalid { device, claim } => {
                write!(f, "{device}: {claim} is not a list of 16-digit hex PDIs")
            }
            Self::Device { device, error } => write!(
                f,
                "{device}: {error}; a topology is checked only between devices whose evidence verifies"
            ),
            Self::ResultFailed { result } => write!(
                f,
                "the {result} result did not pass (x-nvidia-overall-att-result is not true): \
                 a topology is checked only between devices that passed; fix the failing \
                 devices and attest the node again"
            ),
            Self::NonceMismatch => f.write_str(
                "the GPU result and the switch result answer different nonces: collect the \
                 GPUs' and the switches' evidence with one nonce, as NVIDIA's PPCIE verifier \
                 does, and attest both",
            ),
            Self::TooLarge { what, device } => match device {
                Some(device) => write!(f, "{device}: too many {what}"),
                None => write!(f, "too many {what}"),
            },
        }
    }
}

impl core::error::Error for TopologyError {}
