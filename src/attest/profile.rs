//! Which firmware produced a device's evidence, and what that firmware always reports.
//!
//! The profile is read from the *verified* certificate chain — the engine word of
//! `hwmodel`, the leaf issuer's common name (`GH100 A01 GSP BROM`, `GB100 A01 FSP BROM`,
//! `LS_10 A01 FSP BROM`) — never from which opaque tags a transcript happens to carry, so
//! evidence cannot choose a laxer path by leaving a tag out. Every per-firmware rule of
//! verification and of the RIM comparison is read from the profile's row (`EvidenceProfile::row`):
//! a new architecture (a row of [`crate::attest::ArchProfile`]) has one new variant here per
//! firmware engine, and its row.
//!
//! | profile | driver version (tag 3) | RIMs compared | FWID (tag 20) |
//! |---|---|---|---|
//! | Hopper GSP | required | driver + VBIOS | optional: firmware before FWID reporting lacks it (the real 535.86.09 sample); passed as NVIDIA's verifiers do, with a warning, unless the caller requires it |
//! | Blackwell GSP | required | driver + VBIOS | required: every Blackwell firmware reports it (Blackwell shipped with R570 drivers, long after FWID reporting; the real 575.32 and RTX PRO 6000 595.58.03 samples carry it), so a missing tag is tampering or a fault |
//! | Blackwell FSP | – (the evidence has no opaque data) | firmware RIM only, version from the request's hint | not carried: the FSP transcript has no opaque area |
//! | LS10 | – | switch BIOS | not carried: switch opaque data has no FWID (NVIDIA's verifiers skip the check) |

use super::arch::Arch;

/// The firmware that produced a device's evidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EvidenceProfile {
    /// Hopper (GH100), evidence from the GSP.
    HopperGsp,
    /// Blackwell (every chip of the row), evidence from the GSP: opaque data with driver and
    /// VBIOS.
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

/// One evidence profile's row.
struct Row {
    name: &'static str,
    arch: Arch,
    /// The engine word of `hwmodel` (`GH100 A01 GSP BROM` → `GSP`).
    engine: &'static str,
    rim_path: RimPath,
    fwid_rule: FwidRule,
}

impl EvidenceProfile {
    /// Every profile, in the table's order.
    pub const ALL: &'static [Self] = &[
        Self::HopperGsp,
        Self::BlackwellGsp,
        Self::BlackwellFsp,
        Self::Ls10,
    ];

    /// The profile's row: the table above, one arm per profile.
    const fn row(self) -> Row {
        match self {
            Self::HopperGsp => Row {
                name: "hopper-gsp",
                arch: Arch::Hopper,
                engine: "GSP",
                rim_path: RimPath::DriverAndFirmware,
                fwid_rule: FwidRule::Optional,
            },
            Self::BlackwellGsp => Row {
                name: "blackwell-gsp",
                arch: Arch::Blackwell,
                engine: "GSP",
                rim_path: RimPath::DriverAndFirmware,
                fwid_rule: FwidRule::Required,
            },
            Self::BlackwellFsp => Row {
                name: "blackwell-fsp",
                arch: Arch::Blackwell,
                engine: "FSP",
                rim_path: RimPath::FirmwareOnly,
                fwid_rule: FwidRule::NotCarried,
            },
            Self::Ls10 => Row {
                name: "ls10",
                arch: Arch::Ls10,
                engine: "FSP",
                rim_path: RimPath::Switch,
                fwid_rule: FwidRule::NotCarried,
            },
        }
    }

    /// The profile a certificate's `hwmodel` names, from its words: the chip (the
    /// architecture table's) and the engine. Read from a verified chain only
    /// (`EvidenceProfile::of_chain`).
    pub(crate) fn of_hwmodel(hwmodel: &str) -> Option<Self> {
        let mut words = hwmodel.split(' ');
        let arch = Arch::of_chip(words.next()?)?;
        let engine = words.nth(1)?;
        Self::ALL
            .iter()
            .copied()
            .find(|profile| profile.arch() == arch && profile.engine() == engine)
    }

    /// The profiles of an architecture, in the table's order.
    pub fn of_arch(arch: Arch) -> impl Iterator<Item = Self> {
        Self::ALL
            .iter()
            .copied()
            .filter(move |profile| profile.arch() == arch)
    }

    /// The architecture of the profile.
    pub fn arch(self) -> Arch {
        self.row().arch
    }

    /// The engine word of `hwmodel` that names the profile (`GSP`, `FSP`).
    pub fn engine(self) -> &'static str {
        self.row().engine
    }

    /// Whether the evidence must carry a driver version (opaque tag 3).
    pub fn requires_driver_version(self) -> bool {
        self.rim_path() == RimPath::DriverAndFirmware
    }

    /// The reference measurements the evidence is compared with.
    pub fn rim_path(self) -> RimPath {
        self.row().rim_path
    }

    /// What a missing FWID means.
    pub fn fwid_rule(self) -> FwidRule {
        self.row().fwid_rule
    }

    /// The profile's name in reports (`hopper-gsp`, `blackwell-fsp`, …).
    pub fn as_str(self) -> &'static str {
        self.row().name
    }
}
