//! What a RIM document says it is, read from the document itself (never from a file name):
//! a driver RIM or a firmware RIM, and for which architecture. A host that is handed a RIM
//! (the page's upload, a CLI) asks here instead of guessing.
//!
//! NVIDIA's RIMs have no attribute naming the kind; their `Meta` tells it:
//! - `edition` is `GPU` or `SWITCH` (a switch has only a firmware RIM, its BIOS);
//! - `colloquialVersion` is a firmware version — five groups of two hex digits,
//!   `96.00.5E.00.01` — or a driver version — two or three groups of decimal digits,
//!   `550.144.03`, `575.32`;
//! - `product` is the RIM chip of an architecture's row (`GH100`, `GB100`, `LS10`).
//!
//! A document that fits neither kind is refused ([`RimError::Schema`], naming the `Meta`
//! attribute at fault), not filed under one.

use alloc::string::String;

use serde::Serialize;

use super::document::RimDocument;
use super::error::RimError;
use super::id::RimKind;
use super::verify::read_unverified;
use crate::attest::Arch;

/// What a RIM document is (the JS `RimIdentity`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RimIdentity {
    /// `driver` or `firmware`.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub kind: RimKind,
    /// The architecture one of whose chips' RIMs are named by the document's `product` (a RIM
    /// chip or a `CHIP_INFO` value of the table); `None` for a chip the table does not have.
    #[cfg_attr(feature = "ts", ts(type = "Arch | null"))]
    pub arch: Option<Arch>,
    /// `Meta@product`.
    pub product: Option<String>,
    /// `Meta@colloquialVersion`.
    pub version: String,
    /// `SoftwareIdentity@name`.
    pub name: String,
}

/// What the RIM `xml` is, read within the limits [`super::prepare_rim`] applies; its
/// signature is not checked here (that is [`super::verify_rim`]'s).
///
/// # Errors
/// [`RimError`] when the document cannot be read as a SWID RIM, or
/// [`RimError::Schema`] when it is neither a driver nor a firmware RIM.
pub fn identify_rim(xml: &[u8]) -> Result<RimIdentity, RimError> {
    read_unverified(xml)?.identity()
}

impl RimDocument {
    /// Whether this is a driver or a firmware RIM (the rule above).
    ///
    /// # Errors
    /// [`RimError::Schema`] at `Meta@edition` for an edition other than `GPU` or `SWITCH`,
    /// at `Meta@colloquialVersion` for a version of neither kind (or a driver version on a
    /// switch).
    pub fn kind(&self) -> Result<RimKind, RimError> {
        let version = self.meta.colloquial_version.as_str();
        match (self.meta.edition.as_deref(), firmware_version(version), driver_version(version)) {
            (Some("GPU" | "SWITCH"), true, _) => Ok(RimKind::Firmware),
            (Some("GPU"), false, true) => Ok(RimKind::Driver),
            (Some("GPU" | "SWITCH"), ..) => Err(RimError::schema(
                "Meta@colloquialVersion",
                "neither a driver version (550.144.03) of a GPU nor a firmware version (96.00.5E.00.01)",
            )),
            _ => Err(RimError::schema("Meta@edition", "neither GPU nor SWITCH")),
        }
    }

    /// [`RimDocument::kind`] with the architecture and version.
    ///
    /// # Errors
    /// As [`RimDocument::kind`].
    pub fn identity(&self) -> Result<RimIdentity, RimError> {
        let product = self.meta.product.clone();
        Ok(RimIdentity {
            kind: self.kind()?,
            arch: product.as_deref().and_then(|chip| {
                Arch::ALL
                    .iter()
                    .copied()
                    .find(|arch| arch.profile().names_rim_chip(chip))
            }),
            product,
            version: self.meta.colloquial_version.clone(),
            name: self.name.clone(),
        })
    }
}

/// `96.00.5E.00.01`: five groups of two hex digits.
fn firmware_version(version: &str) -> bool {
    let groups: alloc::vec::Vec<&str> = version.split('.').collect();
    groups.len() == 5
        && groups
            .iter()
            .all(|g| g.len() == 2 && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// `550.144.03`, `575.32`: two or three groups of one to three decimal digits, the first
/// of three.
fn driver_version(version: &str) -> bool {
    let groups: alloc::vec::Vec<&str> = version.split('.').collect();
    (2..=3).contains(&groups.len())
        && groups.first().is_some_and(|g| g.len() == 3)
        && groups
            .iter()
            .all(|g| (1..=3).contains(&g.len()) && g.bytes().all(|b| b.is_ascii_digit()))
}
