//! The revocation policy: per component (the device chain, the driver and VBIOS RIM chains,
//! switch chains, the result signer's chain), which OCSP outcomes pass with a warning
//! instead of failing. The default of every member is strict, as NVIDIA's service: `unknown`,
//! an unanswered query, `revoked` and `certificateHold` each fail the chain.
//!
//! * `allowUnknown`: `unknown`, or no answer at all (the host could not fetch it), passes
//!   with a warning. A response that was had but is not believed (bad signature, stale,
//!   replayed nonce, ...) still fails: it is not "no answer".
//! * `revokedGracePeriod` (seconds): a revoked certificate passes, with a warning naming
//!   its revocation time and reason, until `revocationTime + revokedGracePeriod`
//!   (exclusive); from then on it fails.
//! * `allowHold`: `certificateHold` passes with a warning (the request header
//!   `X-NVIDIA-OCSP-ALLOW-CERT-HOLD: true` turns it on for one request of the service).
//!
//! Every relaxation that applied is a [`Relaxation`] of the folded chain
//! ([`super::ChainRevocation::Good`]); its [`Relaxation::warning`] is the one text every
//! report carries (the token's `x-nvidia-attestation-warning`, the appraisal's reasons, the
//! page).

use alloc::format;
use alloc::string::String;

use serde::{Deserialize, Serialize};

use super::error::OcspError;
use super::status::RevocationReason;
use crate::error_code::ErrorCode;
use crate::time::UnixTime;

/// The end of every hold's warning (after "A certificate of the `<chain>` "). No warning holds
/// "; ", which joins a device's warnings in `x-nvidia-attestation-warning`.
pub const HOLD_ACCEPTED: &str = "is on hold (certificateHold), accepted because allowHold is \
     set (the revocation policy, or the request's X-NVIDIA-OCSP-ALLOW-CERT-HOLD: true)";

/// The revocation policy of every component (the JS `RevocationPolicy`); every member is
/// optional and strict by default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RevocationPolicy {
    /// A GPU's device certificate chain.
    #[serde(default, skip_serializing_if = "RevocationRule::is_strict")]
    pub device_chain: RevocationRule,
    /// The chain of the driver RIM's signer.
    #[serde(default, skip_serializing_if = "RevocationRule::is_strict")]
    pub driver_rim_chain: RevocationRule,
    /// The chain of the VBIOS RIM's signer.
    #[serde(default, skip_serializing_if = "RevocationRule::is_strict")]
    pub vbios_rim_chain: RevocationRule,
    /// An NVSwitch's device certificate chain.
    #[serde(default, skip_serializing_if = "RevocationRule::is_strict")]
    pub switch_chain: RevocationRule,
    /// The chain of the key that signed an attestation result (relying party).
    #[serde(default, skip_serializing_if = "RevocationRule::is_strict")]
    pub signer_chain: RevocationRule,
}

/// What one component's chain accepts besides `good` (the JS `RevocationRule`); every member
/// is optional and strict by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RevocationRule {
    /// OCSP `unknown`, or no answer, passes with a warning.
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub allow_unknown: bool,
    /// Seconds after its revocation time during which a revoked certificate passes with a
    /// warning.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub revoked_grace_period: Option<u64>,
    /// `certificateHold` passes with a warning.
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub allow_hold: bool,
}

/// The components a [`RevocationPolicy`] has a rule for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum RevocationComponent {
    /// A GPU's device certificate chain.
    DeviceChain,
    /// The driver RIM's signer chain.
    DriverRimChain,
    /// The VBIOS RIM's signer chain.
    VbiosRimChain,
    /// An NVSwitch's device certificate chain.
    SwitchChain,
    /// The attestation result signer's chain.
    SignerChain,
}

/// A non-good OCSP outcome that a [`RevocationRule`] let pass.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Relaxation {
    /// A certificate is on hold (`certificateHold`), accepted by `allowHold`.
    Held,
    /// The responder does not know a certificate, accepted by `allowUnknown`.
    Unknown,
    /// A certificate's status could not be fetched, accepted by `allowUnknown`.
    Unanswered(OcspError),
    /// A certificate is revoked, accepted by `revokedGracePeriod` until `until`.
    RevokedInGrace {
        /// Its CRL reason, when the responder gave one.
        reason: Option<RevocationReason>,
        /// Its revocation time.
        at: UnixTime,
        /// When the grace period ends (`at` + the period).
        until: UnixTime,
    },
    /// A certificate's status comes from a kept answer past its validity, used because every
    /// responder failed, as the service's `ocspStaleIfError` allows.
    Stale {
        /// When the answer stopped being valid (its `nextUpdate`).
        until: UnixTime,
    },
}

impl RevocationPolicy {
    /// Strict everywhere (NVIDIA's service's behaviour); the same as `Default`.
    pub fn strict() -> Self {
        Self::default()
    }

    /// `allowUnknown` on every component, the rest strict: what the relying party's
    /// `allowUnknownRevocation: true` stands for.
    pub fn allow_unknown_everywhere() -> Self {
        Self::strict().with_unknown_allowed()
    }

    /// The rule of `component`.
    pub const fn rule(&self, component: RevocationComponent) -> &RevocationRule {
        match component {
            RevocationComponent::DeviceChain => &self.device_chain,
            RevocationComponent::DriverRimChain => &self.driver_rim_chain,
            RevocationComponent::VbiosRimChain => &self.vbios_rim_chain,
            RevocationComponent::SwitchChain => &self.switch_chain,
            RevocationComponent::SignerChain => &self.signer_chain,
        }
    }

    /// The same policy with `allowHold` on for every component (the service's
    /// `X-NVIDIA-OCSP-ALLOW-CERT-HOLD: true`).
    pub fn with_hold_allowed(&self) -> Self {
        self.map_rules(|rule| RevocationRule {
            allow_hold: true,
            ..rule
        })
    }

    /// The same policy with `allowUnknown` on for every component (the relying party's
    /// `allowUnknownRevocation: true`).
    pub fn with_unknown_allowed(&self) -> Self {
        self.map_rules(|rule| RevocationRule {
            allow_unknown: true,
            ..rule
        })
    }

    /// Every component's rule changed by `change`.
    fn map_rules(&self, change: impl Fn(RevocationRule) -> RevocationRule) -> Self {
        Self {
            device_chain: change(self.device_chain),
            driver_rim_chain: change(self.driver_rim_chain),
            vbios_rim_chain: change(self.vbios_rim_chain),
            switch_chain: change(self.switch_chain),
            signer_chain: change(self.signer_chain),
        }
    }

    /// Nothing is relaxed.
    pub fn is_strict(&self) -> bool {
        *self == Self::default()
    }
}

impl RevocationRule {
    /// Nothing is relaxed (the default).
    pub fn is_strict(&self) -> bool {
        *self == Self::default()
    }

    /// Until when a certificate revoked at `at` passes (exclusive), when a grace period is
    /// set.
    pub const fn grace_until(&self, at: UnixTime) -> Option<UnixTime> {
        match self.revoked_grace_period {
            Some(period) => Some(at.saturating_add(period)),
            None => None,
        }
    }
}

impl RevocationComponent {
    /// Every component, in the policy's order.
    pub const ALL: [Self; 5] = [
        Self::DeviceChain,
        Self::DriverRimChain,
        Self::VbiosRimChain,
        Self::SwitchChain,
        Self::SignerChain,
    ];

    /// The policy's member name: `deviceChain`, `driverRimChain`, `vbiosRimChain`,
    /// `switchChain`, `signerChain`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::DeviceChain => "deviceChain",
            Self::DriverRimChain => "driverRimChain",
            Self::VbiosRimChain => "vbiosRimChain",
            Self::SwitchChain => "switchChain",
            Self::SignerChain => "signerChain",
        }
    }

    /// For people: `device certificate chain`, `driver RIM chain`, ...
    pub const fn describe(self) -> &'static str {
        match self {
            Self::DeviceChain => "device certificate chain",
            Self::DriverRimChain => "driver RIM chain",
            Self::VbiosRimChain => "VBIOS RIM chain",
            Self::SwitchChain => "switch certificate chain",
            Self::SignerChain => "result signer's chain",
        }
    }
}

impl Relaxation {
    /// The policy member that allowed it: `allowHold`, `allowUnknown` or
    /// `revokedGracePeriod`.
    pub const fn allowed_by(&self) -> &'static str {
        match self {
            Self::Held => "allowHold",
            Self::Unknown | Self::Unanswered(_) => "allowUnknown",
            Self::RevokedInGrace { .. } => "revokedGracePeriod",
            Self::Stale { .. } => "ocspStaleIfError",
        }
    }

    /// The warning of this relaxation on `component`'s chain, as every report carries it;
    /// a revoked certificate's names its revocation time and reason.
    pub fn warning(&self, component: RevocationComponent) -> String {
        self.warning_about(component.describe())
    }

    /// The same warning about a chain named `chain` (e.g. `RIM chain` when the caller did
    /// not say which component it is).
    pub fn warning_about(&self, chain: &str) -> String {
        let because = "because the revocation policy sets";
        match self {
            Self::Held => format!("A certificate of the {chain} {HOLD_ACCEPTED}"),
            Self::Unknown => format!(
                "The OCSP responder does not know a certificate of the {chain}, accepted {because} \
                 allowUnknown"
            ),
            Self::Unanswered(error) => format!(
                "The OCSP status of a certificate of the {chain} could not be had ({}), accepted \
                 {because} allowUnknown",
                error.code()
            ),
            Self::RevokedInGrace { reason, at, until } => format!(
                "A certificate of the {chain} was revoked at {at} ({}), accepted until {until} \
                 {because} revokedGracePeriod",
                reason.map_or("unspecified", RevocationReason::as_str)
            ),
            Self::Stale { until } => format!(
                "The OCSP status of a certificate of the {chain} comes from an answer valid until \
                 {until}, used past it because every OCSP responder failed and the service sets \
                 ocspStaleIfError"
            ),
        }
    }
}
