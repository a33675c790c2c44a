//! The architecture table: every fact that depends on a device's architecture, one row per
//! architecture. The wire name, parsing, the endpoints that accept it, the chips a certificate
//! names it by, where each chip's certificate carries the FWID, its RIM ids, the JS
//! `architectures()` rows, the TS `Arch` union and the page's selects are all read from here.
//!
//! A row is a family: one wire value (NVIDIA's verifiers know one `BLACKWELL`, from NVML's
//! architecture number, whatever the die) and every chip word its certificates name, each with
//! its own FWID source and RIM chip ([`ChipRow`]). A chain naming a chip of no row is refused
//! (4004), the message naming the chip and the rows known.
//!
//! A new architecture is one entry in `architectures!` below (the compiler then asks for
//! its evidence profiles in `evidence/profile.rs`); a new chip of a family is one [`ChipRow`];
//! a new kind of rule (an FWID extension, a RIM-id scheme) is one variant of the rule's enum
//! and its implementation.
//!
//! | architecture | kind | chip (`hwmodel`) | RIM chip without `CHIP_INFO` | FWID (certificate) | driver RIM | firmware RIM |
//! |---|---|---|---|---|---|---|
//! | HOPPER | GPU | `GH100` | `GH100` | DICE extension | `NV_GPU_DRIVER_GH100_<driver>` | VBIOS |
//! | BLACKWELL | GPU | `GB100` (B200, GB200) | `GB100` | DICE TcbInfo (`DiceTcbInfoAlias`) | `NV_GPU_CC_DRIVER_<CHIP_INFO or RIM chip>_<driver>` | VBIOS, or FSP firmware |
//! | | | `GB20X` (RTX PRO 6000 Blackwell Server Edition: `CHIP_INFO` `GB202`) | – (`CHIP_INFO` required) | DICE TcbInfo | as GB100 | VBIOS |
//! | | | `GB110` (B300) | `GB110` | DICE TcbInfo | as GB100 | VBIOS |
//! | LS10 | switch | `LS_10` | `LS10` | DICE extension | – | `NV_SWITCH_BIOS_5612_0002_890_<bios>` |
//!
//! Where each fact comes from (the README's architecture table has the sources): `GB100` and
//! `GH100` from NVIDIA's own samples; `GB20X` from a real RTX PRO 6000 report and chain (its
//! leaf `GB20X A01 GSP FMC LF`, its `CHIP_INFO` `GB202`: `GB20X` names several dies, so no RIM
//! chip is guessed for evidence without one); `GB110` from B300 devices' `hwmodel`
//! `GB110 A01 GSP BROM` and the driver RIMs NVIDIA publishes under `GB110`.

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
    /// The first FWID of the TCG DICE TcbInfo extension 2.23.133.5.4.1.1 (NVIDIA's SDK names
    /// its OID `DiceTcbInfoAlias`).
    TcbInfo,
}

/// How a GPU's driver RIM id is written: `<prefix><chip>_<driver version>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct DriverRimId {
    /// `NV_GPU_DRIVER_`, `NV_GPU_CC_DRIVER_`.
    pub prefix: &'static str,
    /// Whether the chip is the evidence's `CHIP_INFO` when it has one (else the certificate
    /// chip's [`ChipRow::rim_chip`]: drivers from before `CHIP_INFO` are published under it).
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

/// One chip of an architecture's family: the word its certificates name it by, where its leaf
/// carries the FWID, and the chip its RIM ids name when the evidence does not say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ChipRow {
    /// The first word of a verified chain's `hwmodel` (`GB20X A01 GSP BROM` → `GB20X`).
    pub word: &'static str,
    /// The chip of RIM ids and runtime values for evidence without `CHIP_INFO`; `None` when the
    /// word names several dies (`GB20X`): such evidence must carry `CHIP_INFO`.
    pub rim_chip: Option<&'static str>,
    /// The `CHIP_INFO` values (opaque tag 35: the chips NVIDIA publishes driver RIMs under)
    /// seen with this chip word, besides [`ChipRow::rim_chip`]: `GB202` for `GB20X`.
    pub chip_infos: &'static [&'static str],
    /// Where the leaf certificate carries the FWID.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub fwid_source: FwidSource,
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
    /// The chips whose certificates name this architecture, each with its FWID source and RIM
    /// chip. The first is the one named when no certificate says which (before verification:
    /// a host prefetching RIMs), as NVIDIA's verifiers name `GB100` for Blackwell evidence
    /// without `CHIP_INFO`.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub chips: &'static [ChipRow],
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
    /// No chip names the architecture, a chip word is empty or has a space, or one word is
    /// listed twice.
    Chips,
    /// A chip's RIM chip is not usable in a RIM id, or the first chip (named when no
    /// certificate says which) has none.
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
        let chips = self.chips;
        let twice = |i: usize| chips[..i].iter().any(|c| c.word == chips[i].word);
        if chips.is_empty()
            || !chips.iter().all(|chip| word(chip.word, b"_"))
            || (0..chips.len()).any(twice)
        {
            return Err(ProfileDefect::Chips);
        }
        let usable = |chip: &ChipRow| {
            chip.rim_chip.is_none_or(|rim| word(rim, &[]))
                && chip.chip_infos.iter().all(|info| word(info, &[]))
        };
        if chips[0].rim_chip.is_none() || !chips.iter().all(usable) {
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
        self.chip(chip).is_some()
    }

    /// The row of a chip word of this architecture.
    pub fn chip(&self, word: &str) -> Option<&'static ChipRow> {
        self.chips.iter().find(|chip| chip.word == word)
    }

    /// Whether RIM documents of chip `rim_chip` (their `product`) are of this architecture: a
    /// chip's RIM chip or one of its `CHIP_INFO` values.
    pub fn names_rim_chip(&self, rim_chip: &str) -> bool {
        self.chips
            .iter()
            .any(|chip| chip.rim_chip == Some(rim_chip) || chip.chip_infos.contains(&rim_chip))
    }

    /// The chip named when no certificate says which: the first.
    pub fn default_chip(&self) -> &'static ChipRow {
        &self.chips[0]
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
            if row.chips.iter().any(|chip| earlier.names_chip(chip.word)) {
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
        chips: &[ChipRow {
            word: "GH100",
            rim_chip: Some("GH100"),
            chip_infos: &[],
            fwid_source: FwidSource::Dice,
        }],
        driver_rim: Some(DriverRimId { prefix: "NV_GPU_DRIVER_", chip_info: false }),
        firmware_rim: FirmwareRimId::Vbios { fsp: false },
    }
    /// NVIDIA Blackwell GPU: the GB100 (B200, GB200), GB20X (RTX PRO 6000 Blackwell) and
    /// GB110 (B300) chips.
    Blackwell = "BLACKWELL" {
        device_kind: DeviceKind::Gpu,
        chips: &[
            ChipRow {
                word: "GB100",
                rim_chip: Some("GB100"),
                chip_infos: &[],
                fwid_source: FwidSource::TcbInfo,
            },
            ChipRow {
                word: "GB20X",
                rim_chip: None,
                chip_infos: &["GB202"],
                fwid_source: FwidSource::TcbInfo,
            },
            ChipRow {
                word: "GB110",
                rim_chip: Some("GB110"),
                chip_infos: &[],
                fwid_source: FwidSource::TcbInfo,
            },
        ],
        driver_rim: Some(DriverRimId { prefix: "NV_GPU_CC_DRIVER_", chip_info: true }),
        firmware_rim: FirmwareRimId::Vbios { fsp: true },
    }
    /// NVIDIA NVLink switch, fourth generation (LS10).
    Ls10 = "LS10" {
        device_kind: DeviceKind::Switch,
        chips: &[ChipRow {
            word: "LS_10",
            rim_chip: Some("LS10"),
            chip_infos: &[],
            fwid_source: FwidSource::Dice,
        }],
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

    /// The chips of every row as an error message lists them:
    /// `HOPPER (GH100), BLACKWELL (GB100, GB20X, GB110), LS10 (LS_10)`.
    pub fn known_chips() -> String {
        let mut out = String::new();
        for (i, arch) in Self::ALL.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(arch.as_str());
            out.push_str(" (");
            for (j, chip) in arch.profile().chips.iter().enumerate() {
                if j > 0 {
                    out.push_str(", ");
                }
                out.push_str(chip.word);
            }
            out.push(')');
        }
        out
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
            Arch::known_chips(),
            "HOPPER (GH100), BLACKWELL (GB100, GB20X, GB110), LS10 (LS_10)"
        );
        assert_eq!(
            TS_ARCH_UNION,
            "export type Arch = | \"HOPPER\" | \"BLACKWELL\" | \"LS10\";\n"
        );
    }
}
