//! The architecture table: every fact that depends on a device's architecture, one row per
//! architecture. The wire name, parsing, the endpoints that accept it, the chip a certificate
//! names it by, where its certificate carries the FWID, its RIM ids, the JS `architectures()`
//! rows, the TS `Arch` union and the page's selects are all read from here.
//!
//! A new architecture is one entry in `architectures!` below (the compiler then asks for
//! its evidence profiles in `evidence/profile.rs`); a new kind of rule (an FWID extension, a
//! RIM-id scheme) is one variant of the rule's enum and its implementation.
//!
//! | architecture | kind | chip (`hwmodel`) | RIM chip | FWID (certificate) | driver RIM | firmware RIM |
//! |---|---|---|---|---|---|---|
//! | HOPPER | GPU | `GH100` | `GH100` | DICE extension | `NV_GPU_DRIVER_GH100_<driver>` | VBIOS |
//! | BLACKWELL | GPU | `GB100` | `GB100` | DICE TcbInfo | `NV_GPU_CC_DRIVER_<CHIP_INFO or GB100>_<driver>` | VBIOS, or FSP firmware |
//! | LS10 | switch | `LS_10` | `LS10` | DICE extension | – | `NV_SWITCH_BIOS_5612_0002_890_<bios>` |

use alloc::string::String;
use core::fmt;

use serde::Serialize;

/// GPU or switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum DeviceKind {
    /// A GPU: labels `GPU-<i>`.
    Gpu,
    /// A switch: labels `SWITCH-<i>`.
    Switch,
}

impl DeviceKind {
    /// The label prefix of a device token in a detached EAT result, without the dash.
    pub const fn label_prefix(self) -> &'static str {
        match self {
            Self::Gpu => "GPU",
            Self::Switch => "SWITCH",
        }
    }
}

/// Where a device's leaf certificate carries the FWID that evidence opaque tag 20 must equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum FwidSource {
    /// The TCG DICE attestation extension 2.23.133.5.4.1 (its FWID's digest).
    Dice,
    /// The first FWID of the TCG DICE TcbInfo extension 2.23.133.5.4.1.1.
    TcbInfo,
}

/// How a GPU's driver RIM id is written: `<prefix><chip>_<driver version>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct DriverRimId {
    /// `NV_GPU_DRIVER_`, `NV_GPU_CC_DRIVER_`.
    pub prefix: &'static str,
    /// Whether the chip is the evidence's `CHIP_INFO` when it has one (else the row's
    /// [`ArchProfile::rim_chip`]: drivers from before `CHIP_INFO` are published under it).
    pub chip_info: bool,
}

/// How a device's firmware RIM id is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", tag = "scheme")]
#[non_exhaustive]
pub enum FirmwareRimId {
    /// `NV_GPU_VBIOS_<project>_<project sku>_<chip sku>_<vbios without dots>` (GSP evidence).
    /// With `fsp`, evidence without `PROJECT` but with an `APSKU` is FSP evidence, named
    /// `NV_GPU_VBIOS_<hwmodel>_<APSKU>_<firmware_version hint without dots>`.
    Vbios {
        /// Whether the architecture has FSP evidence.
        fsp: bool,
    },
    /// `<prefix><bios without dots>`: a switch, whose project and SKUs are constants in the
    /// prefix (the switch reports none of them).
    SwitchBios {
        /// E.g. `NV_SWITCH_BIOS_5612_0002_890_`.
        prefix: &'static str,
    },
}

/// One architecture's row. The functions that use a row (the RIM ids of
/// [`driver_rim_id`](crate::rim::driver_rim_id), the FWID comparison and the chip check of
/// [`verify_evidence`](crate::evidence::verify_evidence)) take any row, so a row made elsewhere (a
/// test's) runs through the same rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ArchProfile {
    /// The wire value of `arch`: `HOPPER`, `BLACKWELL`, `LS10`.
    #[cfg_attr(feature = "ts", ts(type = "Arch"))]
    pub name: &'static str,
    /// GPU or switch: which attest endpoints accept it, which opaque data it reports.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub device_kind: DeviceKind,
    /// The chip words of a verified chain's `hwmodel` that name this architecture
    /// (`GH100 A01 GSP BROM` → `GH100`).
    pub chips: &'static [&'static str],
    /// The chip name in RIM ids and runtime values when no certificate gives one.
    pub rim_chip: &'static str,
    /// Where the leaf certificate carries the FWID.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub fwid_source: FwidSource,
    /// The driver RIM id; `None` when the architecture has no driver RIM (switches).
    #[cfg_attr(feature = "ts", ts(inline))]
    pub driver_rim: Option<DriverRimId>,
    /// The firmware (VBIOS, switch BIOS, FSP firmware) RIM id.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub firmware_rim: FirmwareRimId,
}

/// A row that cannot work, found by [`ArchProfile::check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProfileDefect {
    /// The wire name is empty or not upper-case ASCII letters and digits.
    Name,
    /// No chip names the architecture, or a chip word is empty or has a space.
    Chips,
    /// The RIM chip is empty or not usable in a RIM id.
    RimChip,
    /// A GPU without a driver RIM, or a switch with one.
    DriverRim,
    /// A GPU with a switch BIOS RIM, a switch with a VBIOS RIM, or an empty prefix.
    FirmwareRim,
    /// Two rows share a wire name.
    DuplicateName,
    /// Two rows claim the same chip.
    DuplicateChip,
}

impl fmt::Display for ProfileDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Name => "the name is not an upper-case wire value",
            Self::Chips => "no usable chip names the architecture",
            Self::RimChip => "the RIM chip is not usable in a RIM id",
            Self::DriverRim => "a GPU needs a driver RIM id and a switch has none",
            Self::FirmwareRim => "the firmware RIM scheme does not fit the device kind",
            Self::DuplicateName => "two architectures share a name",
            Self::DuplicateChip => "two architectures claim one chip",
        })
    }
}

impl ArchProfile {
    /// Whether the row is complete and consistent in itself.
    ///
    /// # Errors
    /// The first [`ProfileDefect`].
    pub fn check(&self) -> Result<(), ProfileDefect> {
        let word = |s: &str, extra: &[u8]| {
            !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || extra.contains(&b))
        };
        if !word(self.name, &[]) {
            return Err(ProfileDefect::Name);
        }
        if self.chips.is_empty() || !self.chips.iter().all(|chip| word(chip, b"_")) {
            return Err(ProfileDefect::Chips);
        }
        if !word(self.rim_chip, &[]) {
            return Err(ProfileDefect::RimChip);
        }
        let gpu = self.device_kind == DeviceKind::Gpu;
        if gpu != self.driver_rim.is_some() || self.driver_rim.is_some_and(|d| d.prefix.is_empty())
        {
            return Err(ProfileDefect::DriverRim);
        }
        match self.firmware_rim {
            FirmwareRimId::Vbios { .. } if gpu => Ok(()),
            FirmwareRimId::SwitchBios { prefix } if !gpu && !prefix.is_empty() => Ok(()),
            _ => Err(ProfileDefect::FirmwareRim),
        }
    }

    /// Whether a verified chain's `hwmodel` chip word names this architecture.
    pub fn names_chip(&self, chip: &str) -> bool {
        self.chips.contains(&chip)
    }
}

/// Checks a whole table: every row ([`ArchProfile::check`]), no name and no chip twice.
///
/// # Errors
/// The first row's index and its [`ProfileDefect`].
pub fn check_table<'a>(
    rows: impl IntoIterator<Item = &'a ArchProfile> + Clone,
) -> Result<(), (usize, ProfileDefect)> {
    for (i, row) in rows.clone().into_iter().enumerate() {
        row.check().map_err(|defect| (i, defect))?;
        for earlier in rows.clone().into_iter().take(i) {
            if earlier.name == row.name {
                return Err((i, ProfileDefect::DuplicateName));
            }
            if row.chips.iter().any(|chip| earlier.names_chip(chip)) {
                return Err((i, ProfileDefect::DuplicateChip));
            }
        }
    }
    Ok(())
}

/// Declares [`Arch`] and its table: per architecture its doc, variant, wire name and row.
/// The wire names are literals here so that the TS union can be made from them at compile
/// time.
macro_rules! architectures {
    ($($(#[$doc:meta])* $variant:ident = $name:literal { $($field:ident: $value:expr,)+ })+) => {
        /// Device architecture, the request's `arch` value. Its facts are its row,
        /// [`Arch::profile`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Arch {
            $($(#[$doc])* $variant,)+
        }

        impl Arch {
            /// Every architecture, in the table's order (the order of lists and selects).
            pub const ALL: &'static [Arch] = &[$(Self::$variant),+];

            /// The architecture's row of the table.
            pub const fn profile(self) -> &'static ArchProfile {
                match self {
                    $(Self::$variant => {
                        const ROW: ArchProfile = ArchProfile { name: $name, $($field: $value,)+ };
                        &ROW
                    })+
                }
            }
        }

        /// The TS union of the wire names, for the binding's type declarations (read by a
        /// `typescript_custom_section`, which rustc does not count as a use).
        #[allow(dead_code)]
        pub(crate) const TS_ARCH_UNION: &str =
            concat!("export type Arch =" $(, " | \"", $name, "\"")+, ";\n");
    };
}

architectures! {
    /// NVIDIA Hopper GPU (GH100).
    Hopper = "HOPPER" {
        device_kind: DeviceKind::Gpu,
        chips: &["GH100"],
        rim_chip: "GH100",
        fwid_source: FwidSource::Dice,
        driver_rim: Some(DriverRimId { prefix: "NV_GPU_DRIVER_", chip_info: false }),
        firmware_rim: FirmwareRimId::Vbios { fsp: false },
    }
    /// NVIDIA Blackwell GPU (GB100 family).
    Blackwell = "BLACKWELL" {
        device_kind: DeviceKind::Gpu,
        chips: &["GB100"],
        rim_chip: "GB100",
        fwid_source: FwidSource::TcbInfo,
        driver_rim: Some(DriverRimId { prefix: "NV_GPU_CC_DRIVER_", chip_info: true }),
        firmware_rim: FirmwareRimId::Vbios { fsp: true },
    }
    /// NVIDIA NVLink switch, fourth generation (LS10).
    Ls10 = "LS10" {
        device_kind: DeviceKind::Switch,
        chips: &["LS_10"],
        rim_chip: "LS10",
        fwid_source: FwidSource::Dice,
        driver_rim: None,
        firmware_rim: FirmwareRimId::SwitchBios { prefix: "NV_SWITCH_BIOS_5612_0002_890_" },
    }
}

impl Arch {
    /// The wire value: `HOPPER`, `BLACKWELL` or `LS10`.
    pub const fn as_str(self) -> &'static str {
        self.profile().name
    }

    /// Parses a wire value. Matching is exact: the service's enum is upper case.
    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|arch| arch.profile().name == value)
    }

    /// Whether this is a GPU or a switch architecture.
    pub const fn device_kind(self) -> DeviceKind {
        self.profile().device_kind
    }

    /// The architecture a verified chain's `hwmodel` chip word names (`GH100`, `LS_10`).
    pub fn of_chip(chip: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|arch| arch.profile().names_chip(chip))
    }

    /// The wire values as an error message lists them: `HOPPER, BLACKWELL or LS10`.
    pub fn expected() -> String {
        let mut out = String::new();
        for (i, arch) in Self::ALL.iter().enumerate() {
            if i > 0 {
                out.push_str(if i + 1 == Self::ALL.len() {
                    " or "
                } else {
                    ", "
                });
            }
            out.push_str(arch.as_str());
        }
        out
    }

    /// The architectures of one device kind, in the table's order (a `const` so that
    /// [`super::Endpoint::arches`] stays `const`).
    pub(crate) const fn of_kind<const N: usize>(kind: DeviceKind) -> [Self; N] {
        let mut out = [Self::ALL[0]; N];
        let (mut i, mut n) = (0, 0);
        while i < Self::ALL.len() {
            if Self::ALL[i].device_kind() as u8 == kind as u8 {
                out[n] = Self::ALL[i];
                n += 1;
            }
            i += 1;
        }
        assert!(n == N, "wrong count of architectures of a kind");
        out
    }

    /// How many architectures are of one device kind.
    pub(crate) const fn count(kind: DeviceKind) -> usize {
        let (mut i, mut n) = (0, 0);
        while i < Self::ALL.len() {
            if Self::ALL[i].device_kind() as u8 == kind as u8 {
                n += 1;
            }
            i += 1;
        }
        n
    }
}

/// The GPU architectures, accepted by the GPU endpoints.
pub(crate) const GPUS: [Arch; Arch::count(DeviceKind::Gpu)] = Arch::of_kind(DeviceKind::Gpu);
/// The switch architectures, accepted by the switch endpoints that take `arch`.
pub(crate) const SWITCHES: [Arch; Arch::count(DeviceKind::Switch)] =
    Arch::of_kind(DeviceKind::Switch);

impl fmt::Display for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Arch {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Arch {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Arch;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&Arch::expected())
            }
            fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Arch, E> {
                Arch::parse(value)
                    .ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(value), &self))
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_consistent() {
        assert_eq!(
            check_table(Arch::ALL.iter().map(|arch| arch.profile())),
            Ok(())
        );
        assert_eq!(GPUS, [Arch::Hopper, Arch::Blackwell]);
        assert_eq!(SWITCHES, [Arch::Ls10]);
        assert_eq!(Arch::expected(), "HOPPER, BLACKWELL or LS10");
        assert_eq!(
            TS_ARCH_UNION,
            "export type Arch = | \"HOPPER\" | \"BLACKWELL\" | \"LS10\";\n"
        );
    }
}
