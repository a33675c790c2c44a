//! Which firmware produced a device's evidence, and what that firmware always reports.
//!
//! The profile is read from the *verified* certificate chain — the engine word of
//! `hwmodel`, the leaf issuer's common name (`GH100 A01 GSP BROM`, `GB100 A01 FSP BROM`,
//! `LS_10 A01 FSP BROM`) — never from which opaque tags a transcript happens to carry, so
//! evidence cannot choose a laxer path by leaving a tag out. Every per-firmware rule of
//! verification and of the RIM comparison is a method here: a new architecture is one new
//! variant and its rows below.
//!
//! | profile | driver version (tag 3) | RIMs compared | FWID (tag 20) |
//! |---|---|---|---|
//! | Hopper GSP | required | driver + VBIOS | optional: firmware before FWID reporting lacks it (the real 535.86.09 sample); passed as NVIDIA's verifiers do, with a warning, unless the caller requires it |
//! | Blackwell GSP | required | driver + VBIOS | required: every Blackwell firmware reports it (Blackwell shipped with R570 drivers, long after FWID reporting; the real 575.32 sample carries it), so a missing tag is tampering or a fault |
//! | Blackwell FSP | – (the evidence has no opaque data) | firmware RIM only, version from the request's hint | not carried: the FSP transcript has no opaque area |
//! | LS10 | – | switch BIOS | not carried: switch opaque data has no FWID (NVIDIA's verifiers skip the check) |

use crate::attest::Arch;
use crate::chain::VerifiedChain;

/// The firmware that produced a device's evidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EvidenceProfile {
    /// Hopper (GH100), evidence from the GSP.
    HopperGsp,
    /// Blackwell (GB100), evidence from the GSP: opaque data with driver and VBIOS.
    BlackwellGsp,
    /// Blackwell (GB100), evidence from the FSP: no opaque data; its firmware RIM is named
    /// by the APSKU and the request's `firmware_version` hint.
    BlackwellFsp,
    /// LS10 NVSwitch.
    Ls10,
}

/// Which reference measurements a profile's evidence is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RimPath {
    /// A driver RIM and a VBIOS RIM (GSP evidence).
    DriverAndFirmware,
    /// The firmware RIM alone, its version taken from the request's hint (FSP evidence).
    FirmwareOnly,
    /// The switch BIOS RIM.
    Switch,
}

/// What a missing FWID (opaque tag 20) means for a profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FwidRule {
    /// The firmware always reports it: a missing tag fails the device (4016).
    Required,
    /// Some released firmware does not report it: passed with a warning unless the caller
    /// requires it ([`FwidPolicy::Require`]).
    Optional,
    /// The evidence format has no place for it.
    NotCarried,
}

/// The caller's rule for evidence that could carry an FWID but does not
/// ([`FwidRule::Optional`] profiles).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum FwidPolicy {
    /// As NVIDIA's verifiers: the check passes, reported as not in evidence, with a warning.
    #[default]
    AsNvidia,
    /// The device fails with 4016.
    Require,
}

impl EvidenceProfile {
    /// The profile a verified chain names, from the words of its `hwmodel`.
    pub fn of_chain(chain: &VerifiedChain) -> Option<Self> {
        let mut words = chain.hwmodel()?.split(' ');
        let chip = words.next()?;
        let engine = words.nth(1)?;
        match (chip, engine) {
            ("GH100", "GSP") => Some(Self::HopperGsp),
            ("GB100", "GSP") => Some(Self::BlackwellGsp),
            ("GB100", "FSP") => Some(Self::BlackwellFsp),
            ("LS_10", "FSP") => Some(Self::Ls10),
            _ => None,
        }
    }

    /// The architecture of the profile.
    pub fn arch(self) -> Arch {
        match self {
            Self::HopperGsp => Arch::Hopper,
            Self::BlackwellGsp | Self::BlackwellFsp => Arch::Blackwell,
            Self::Ls10 => Arch::Ls10,
        }
    }

    /// Whether the evidence must carry a driver version (opaque tag 3).
    pub fn requires_driver_version(self) -> bool {
        self.rim_path() == RimPath::DriverAndFirmware
    }

    /// The reference measurements the evidence is compared with.
    pub fn rim_path(self) -> RimPath {
        match self {
            Self::HopperGsp | Self::BlackwellGsp => RimPath::DriverAndFirmware,
            Self::BlackwellFsp => RimPath::FirmwareOnly,
            Self::Ls10 => RimPath::Switch,
        }
    }

    /// What a missing FWID means.
    pub fn fwid_rule(self) -> FwidRule {
        match self {
            Self::HopperGsp => FwidRule::Optional,
            Self::BlackwellGsp => FwidRule::Required,
            Self::BlackwellFsp | Self::Ls10 => FwidRule::NotCarried,
        }
    }

    /// The profile's name in reports (`hopper-gsp`, `blackwell-fsp`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::HopperGsp => "hopper-gsp",
            Self::BlackwellGsp => "blackwell-gsp",
            Self::BlackwellFsp => "blackwell-fsp",
            Self::Ls10 => "ls10",
        }
    }
}
