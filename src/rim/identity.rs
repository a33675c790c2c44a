//! A document used for RIM id X must be X by its own signed content, not only by the name it
//! was stored or fetched under (a file name, a RIM service envelope's `id`).
//!
//! NVIDIA's RIM ids name the document's kind, platform and version (src/rim/id.rs builds them
//! from the evidence, and reads them back by the same architecture rows); its
//! `SoftwareIdentity@tagId` is a digest that no id carries. So the rule compares what both say:
//!
//! | id | the document's `Meta` |
//! |---|---|
//! | `NV_GPU_DRIVER_<chip>_<driver>` | a driver RIM ([`super::RimDocument::kind`]), `product` `<chip>`, `colloquialVersion` `<driver>` |
//! | `NV_GPU_CC_DRIVER_<chip>_<driver>` | a driver RIM, `colloquialVersion` `<driver>` (the chip is the evidence's `CHIP_INFO` or the certificate chip's RIM chip, not necessarily `product`) |
//! | `NV_GPU_VBIOS_…_<version without dots>` | a firmware RIM, `edition` `GPU`, `colloquialVersion` the version |
//! | `NV_SWITCH_BIOS_…_<version without dots>` | a firmware RIM, `edition` `SWITCH`, `colloquialVersion` the version |
//!
//! A firmware id's board (project, SKUs) is not in the document: the signature and the
//! measurement comparison still decide whether it fits the device.

use alloc::string::String;

use super::document::RimDocument;
use super::error::RimError;
use super::id::RimKind;
use crate::attest::{Arch, DeviceKind};

/// What an id says of its document.
struct Named {
    kind: RimKind,
    /// `Meta@edition` for firmware (`GPU`, `SWITCH`).
    edition: Option<&'static str>,
    /// `Meta@product`, where the id names it.
    product: Option<String>,
    /// The version as the id writes it.
    version: String,
}

/// What RIM id `id` says of its document, read by the architecture table's schemes; `None`
/// for an id of no row's form. A driver id names the document's product unless its row takes
/// the chip from `CHIP_INFO` (which need not be the document's product).
fn named(id: &str) -> Option<Named> {
    Arch::ALL.iter().find_map(|arch| {
        let row = arch.profile();
        let parts = row.read_rim_id(id)?;
        let chip_info = row.driver_rim.is_some_and(|rule| rule.chip_info);
        Some(Named {
            kind: parts.kind,
            edition: (parts.kind == RimKind::Firmware).then_some(match parts.device_kind {
                DeviceKind::Gpu => "GPU",
                DeviceKind::Switch => "SWITCH",
            }),
            product: parts.chip.filter(|_| !chip_info),
            version: parts.version,
        })
    })
}

/// Whether `document` is the RIM `id` names (the table above).
///
/// # Errors
/// [`RimError::IdMismatch`] naming what differs, or when `id` is of no known form;
/// [`RimError::Schema`] when the document is neither a driver nor a firmware RIM.
pub fn check_rim_id(document: &RimDocument, id: &str) -> Result<(), RimError> {
    let mismatch = |problem: &'static str| RimError::IdMismatch {
        id: id.into(),
        problem,
    };
    let named = named(id).ok_or_else(|| mismatch(
        "the id is of no known form (NV_GPU_DRIVER_…, NV_GPU_CC_DRIVER_…, NV_GPU_VBIOS_…, NV_SWITCH_BIOS_…)",
    ))?;
    let meta = &document.meta;
    if document.kind()? != named.kind {
        return Err(mismatch(match named.kind {
            RimKind::Driver => "the id names a driver RIM, the document is a firmware RIM",
            RimKind::Firmware => "the id names a firmware RIM, the document is a driver RIM",
        }));
    }
    if named
        .edition
        .is_some_and(|edition| meta.edition.as_deref() != Some(edition))
    {
        return Err(mismatch(
            "the id names the other platform (a GPU or a switch) than the document's edition",
        ));
    }
    if named
        .product
        .as_deref()
        .is_some_and(|chip| meta.product.as_deref() != Some(chip))
    {
        return Err(mismatch(
            "the id names another chip than the document's product",
        ));
    }
    check_version(&named, &meta.colloquial_version, id)
}

/// The version rule of both formats: the document states a version, and it is the one the
/// id names (a driver's verbatim, a firmware's without its dots: `96.00.5E.00.01` is written
/// `96005E0001` in an id). Every id names a version, so a document that states none is not
/// the RIM any id names. An XML RIM always states one by the time it gets here (a missing
/// `colloquialVersion` is a schema error when read, an empty one is of neither kind); a
/// CoRIM states it in a `version-map` measurement, or not at all.
///
/// # Errors
/// [`RimError::IdMismatch`] when the document states no version or another one.
fn check_version(named: &Named, version: &str, id: &str) -> Result<(), RimError> {
    let mismatch = |problem: &'static str| RimError::IdMismatch {
        id: id.into(),
        problem,
    };
    if version.is_empty() {
        return Err(mismatch(
            "the document states no version, and the id names one",
        ));
    }
    let same = match named.kind {
        RimKind::Driver => version == named.version,
        RimKind::Firmware => undotted(version).eq_ignore_ascii_case(&named.version),
    };
    if !same {
        return Err(mismatch(
            "the id names another version than the document states",
        ));
    }
    Ok(())
}

/// Whether the CoRIM content `document` (its first alternative) is the RIM `id` names. A
/// CoRIM carries none of the XML `Meta` the table above reads (kind, edition, product): only
/// the version it states (a `version-map` without `mkey`), judged by the XML RIMs' rule
/// (`check_version`); the signature, its chain and the measurement comparison decide the
/// rest.
///
/// # Errors
/// [`RimError::IdMismatch`] when `id` is of no known form, or the CoRIM states no version or
/// another one.
pub(crate) fn check_corim_id(document: &RimDocument, id: &str) -> Result<(), RimError> {
    let mismatch = |problem: &'static str| RimError::IdMismatch {
        id: id.into(),
        problem,
    };
    let named = named(id).ok_or_else(|| mismatch(
        "the id is of no known form (NV_GPU_DRIVER_…, NV_GPU_CC_DRIVER_…, NV_GPU_VBIOS_…, NV_SWITCH_BIOS_…)",
    ))?;
    check_version(&named, &document.meta.colloquial_version, id)
}

fn undotted(version: &str) -> String {
    version.chars().filter(|c| *c != '.').collect()
}
