//! The RIM documents the service can use without the network: bundled, from a folder, or
//! fetched earlier by the host (the core never fetches; see [`super::Service::missing_rims`]).
//!
//! Lookup is by RIM id. A document added with its id (the RIM service envelope's `id`, or a
//! file named `<id>.xml` / `<id>.swidtag`, or for a signed CoRIM `<id>.cbor` / `<id>.corim`)
//! is found by that id. An XML document added without one is indexed by what it says about itself — driver or firmware, GPU or switch, chip,
//! version — and is found for an id naming the same, read by the architecture table's RIM-id
//! schemes, when exactly one stored document matches. Firmware ids name the board (project
//! and SKUs), not the chip, and a document carries no board: a GPU firmware id is matched by
//! version alone, whatever the chip; the signature and the measurement comparison still
//! decide whether the document fits the device.
//!
//! A document named `configured-roots/<id>.xml` serves only devices whose chain ends at a root
//! configured on the service, not at NVIDIA's Device Identity CA (a test PKI's devices), and
//! is found for them before a document of the same id without the prefix: so the RIMs of a
//! test PKI never shadow NVIDIA's for an NVIDIA device, nor NVIDIA's theirs. The store key of
//! a RIM for a device is [`store_key`]; the RIM id, in URLs and messages, [`id_of_key`].

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::attest::{Arch, DeviceKind};
use crate::rim::{is_cbor, prepare_rim, verify_rim, RimError, RimKind, RimTrust, VerifiedRim};
use crate::time::UnixTime;

/// The name prefix of documents for devices of configured roots: `configured-roots/<id>.xml`
/// serves only devices whose chain ends at a root configured on the service (not NVIDIA's
/// Device Identity CA), before a document of the same id without the prefix, and never an
/// NVIDIA device.
pub const CONFIGURED_ROOTS: &str = "configured-roots/";

/// The store key of RIM `id` for a device whose chain ends at NVIDIA's Device Identity CA
/// (`nvidia_device`: the id itself) or at a configured root.
pub(crate) fn store_key(id: &str, nvidia_device: bool) -> String {
    if nvidia_device {
        id.to_string()
    } else {
        alloc::format!("{CONFIGURED_ROOTS}{id}")
    }
}

/// The RIM id a store key names.
pub(crate) fn id_of_key(key: &str) -> &str {
    key.strip_prefix(CONFIGURED_ROOTS).unwrap_or(key)
}

/// Whether `key` is the key of a device of a configured root.
pub(crate) fn is_configured_roots_key(key: &str) -> bool {
    key.starts_with(CONFIGURED_ROOTS)
}

/// A RIM file's name without its `.xml`, `.swidtag`, `.cbor` or `.corim` extension.
fn without_extension(name: &str) -> &str {
    [".xml", ".swidtag", ".cbor", ".corim"]
        .iter()
        .find_map(|extension| name.strip_suffix(extension))
        .unwrap_or(name)
}

/// Most documents a store holds (the bundled set is 32; a folder may add more).
pub const MAX_STORED_RIMS: usize = 4096;

/// RIM documents by id.
#[derive(Clone, Debug, Default)]
pub struct RimStore {
    by_id: BTreeMap<String, Vec<u8>>,
    by_content: Vec<(ContentKey, Vec<u8>)>,
}

/// What a document says about itself: enough to match an id without the id.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ContentKey {
    driver: bool,
    /// `Meta@edition` `SWITCH`.
    switch: bool,
    /// `SoftwareIdentity@name`.
    chip: String,
    /// `colloquialVersion`, upper case, dots removed for firmware versions.
    version: String,
}

/// What an id says of its document ([`key_of_id`]): the chip only where the id names one.
#[derive(Clone, Debug, PartialEq, Eq)]
struct WantedKey {
    driver: bool,
    switch: bool,
    chip: Option<String>,
    version: String,
}

impl WantedKey {
    fn fits(&self, key: &ContentKey) -> bool {
        self.driver == key.driver
            && self.switch == key.switch
            && self.version == key.version
            && self.chip.as_ref().is_none_or(|chip| *chip == key.chip)
    }
}

impl RimStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of documents.
    pub fn len(&self) -> usize {
        self.by_id.len() + self.by_content.len()
    }

    /// Whether the store is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds a document under its id (from an envelope or a file name).
    pub fn insert(&mut self, id: &str, xml: Vec<u8>) {
        if self.len() < MAX_STORED_RIMS {
            self.by_id.insert(id.to_string(), xml);
        }
    }

    /// Adds a document known only by its content; `name` (a file name) is used as the id
    /// when its stem looks like one (`NV_…`). A name `configured-roots/<id>.xml` adds it for
    /// devices of configured roots only ([`CONFIGURED_ROOTS`]).
    ///
    /// # Errors
    /// [`RimError`] when the document cannot be read well enough to index it, or a
    /// `configured-roots/` name does not name an id (it must: such documents have no content
    /// index), or a CoRIM's name does not (a CoRIM states no RIM kind, nor GPU or switch, to
    /// be indexed by).
    pub fn insert_named(&mut self, name: &str, xml: Vec<u8>) -> Result<(), RimError> {
        if let Some(rest) = name.strip_prefix(CONFIGURED_ROOTS) {
            let id = without_extension(rest);
            if !id.starts_with("NV_") || id.contains('/') {
                return Err(RimError::Schema {
                    field: name.to_string(),
                    problem: "a configured-roots/ document is named by its RIM id (NV_…)",
                });
            }
            self.insert(&store_key(id, false), xml);
            return Ok(());
        }
        let stem = without_extension(name.rsplit('/').next().unwrap_or(name));
        if stem.starts_with("NV_") {
            self.insert(stem, xml);
            return Ok(());
        }
        if is_cbor(&xml) {
            return Err(RimError::Schema {
                field: name.to_string(),
                problem: "a CoRIM is named by its RIM id (NV_….cbor): it states no RIM kind to be indexed by",
            });
        }
        let key = content_key(&xml)?;
        if self.len() < MAX_STORED_RIMS {
            self.by_content.push((key, xml));
        }
        Ok(())
    }

    /// The document for `key` (for an NVIDIA device the RIM id; for a device of a configured
    /// root the id prefixed with [`CONFIGURED_ROOTS`]), if the store has exactly one that
    /// fits: for a device of a configured root, a `configured-roots/` document first, else one
    /// for any device.
    pub fn get(&self, key: &str) -> Option<&[u8]> {
        if let Some(xml) = self.by_id.get(key) {
            return Some(xml);
        }
        let id = id_of_key(key);
        if id != key {
            return self.get(id);
        }
        let wanted = key_of_id(id)?;
        let mut matches = self.by_content.iter().filter(|(key, _)| wanted.fits(key));
        let (_, xml) = matches.next()?;
        matches.next().is_none().then_some(xml.as_slice())
    }

    /// The RIM ids of the documents held by id for NVIDIA devices, sorted (documents held by
    /// content or for configured roots only are not listed).
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.by_id
            .keys()
            .map(String::as_str)
            .filter(|key| !is_configured_roots_key(key))
    }

    /// Whether `id` can be served.
    pub fn contains(&self, id: &str) -> bool {
        self.get(id).is_some()
    }

    /// Verifies the document for `id`.
    pub fn verify(
        &self,
        id: &str,
        trust: &RimTrust,
        now: UnixTime,
    ) -> Option<Result<VerifiedRim, RimError>> {
        self.get(id).map(|xml| verify_rim(xml, trust, now))
    }
}

/// Reads `name`, `colloquialVersion` and `edition` of a document (its signature is checked
/// again, fully, when the document is used).
fn content_key(xml: &[u8]) -> Result<ContentKey, RimError> {
    let pending = prepare_rim(xml, &RimTrust::nvidia(), UnixTime::EPOCH)?;
    let document = pending.unverified_document();
    let version = &document.meta.colloquial_version;
    // Driver versions are decimal (`550.90.07`); firmware versions are five hex pairs.
    let driver = document.meta.edition.as_deref() == Some("GPU") && !is_firmware_version(version);
    Ok(ContentKey {
        driver,
        switch: document.meta.edition.as_deref() == Some("SWITCH"),
        chip: document.name.clone(),
        version: normalise_version(version, driver),
    })
}

/// The content an id names, read by the architecture table's RIM-id schemes
/// ([`crate::attest::ArchProfile::read_rim_id`]): `NV_GPU_DRIVER_GH100_550.90.07` and
/// `NV_GPU_CC_DRIVER_GB202_595.58.03` name a driver RIM of that chip and version;
/// `NV_GPU_VBIOS_1010_0200_882_96005E0001` a GPU firmware RIM of that version, of whichever
/// chip (the id names the board, not the chip); `NV_SWITCH_BIOS_5612_0002_890_9610550001` a
/// switch firmware RIM.
fn key_of_id(id: &str) -> Option<WantedKey> {
    let parts = Arch::ALL
        .iter()
        .find_map(|arch| arch.profile().read_rim_id(id))?;
    let driver = parts.kind == RimKind::Driver;
    Some(WantedKey {
        driver,
        switch: parts.device_kind == DeviceKind::Switch,
        chip: parts.chip,
        version: normalise_version(&parts.version, driver),
    })
}

fn is_firmware_version(version: &str) -> bool {
    let groups: Vec<&str> = version.split('.').collect();
    groups.len() == 5
        && groups
            .iter()
            .all(|g| g.len() == 2 && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn normalise_version(version: &str, driver: bool) -> String {
    if driver {
        version.to_string()
    } else {
        version
            .chars()
            .filter(|c| *c != '.')
            .flat_map(char::to_uppercase)
            .collect()
    }
}
