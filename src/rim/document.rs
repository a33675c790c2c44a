//! The content of a SWID RIM (ISO/IEC 19770-2:2015 tag with TCG RIM-IM attributes) as NVIDIA
//! writes them: `SoftwareIdentity` → `Meta` (versions, manufacturer) and `Payload` → one
//! `Resource` per measurement slot, plus the newer opaque-data records (minimum-SVN floors)
//! of the NVIDIA `ns3` namespace (`docs.nvidia.com/attestation/specs/latest/opaque-data.html`).

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use roxmltree::{ExpandedName, Node};
use serde::Serialize;

use super::budget::Budget;
use super::error::RimError;
use crate::bytes::hex_digit;

/// SWID tag namespace (ISO/IEC 19770-2:2015).
pub(crate) const SWID_NS: &str = "http://standards.iso.org/iso/19770/-2/2015/schema.xsd";
/// The namespace of the `HashN` attributes (XML-Enc SHA-384 URI, used by NVIDIA as a namespace).
pub(crate) const HASH_NS: &str = "http://www.w3.org/2001/04/xmlenc#sha384";
/// TCG RIM information model namespace (`FirmwareManufacturerId`, …).
pub(crate) const TCG_RIM_NS: &str =
    "https://trustedcomputinggroup.org/resource/tcg-reference-integrity-manifest-rim-information-model/";
/// NVIDIA opaque-data RIM attribute namespace (`ns3`).
pub(crate) const OPAQUE_NS: &str =
    "https://docs.nvidia.com/attestation/specs/latest/opaque-data.html";

/// RIM indices below this are SPDM measurement slots; a record at `OPAQUE_INDEX_BASE + id`
/// carries a reference value for opaque-data id `id`. NVIDIA's page reserves 0–63 for the
/// SPDM blocks and NVAT treats "index == base" as opaque id 0; the base value itself is
/// inferred from that reservation (NVIDIA's page does not state it).
pub(crate) const OPAQUE_INDEX_BASE: u32 = 64;

/// Most alternatives accepted for one measurement (real RIMs have 1–4).
pub const MAX_ALTERNATIVES: u32 = 64;

/// Largest golden value accepted, in bytes (real RIMs: 48, a SHA-384 digest).
pub const MAX_MEASUREMENT_SIZE: usize = 1024;

/// Which firmware a RIM describes: `Meta@edition`, with the document name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RimMeta {
    /// `colloquialVersion`: the driver version (`550.144.03`) or firmware version in dotted
    /// upper-case hex (`96.00.5E.00.01`).
    pub colloquial_version: String,
    /// `edition`: `GPU` or `SWITCH`.
    pub edition: Option<String>,
    /// `product`: `GH100`, `GB100`, `LS10`.
    pub product: Option<String>,
    /// `revision`.
    pub revision: Option<String>,
    /// TCG `FirmwareManufacturerId` (`5703`), the `oemid` claim of the driver RIM.
    pub firmware_manufacturer_id: Option<String>,
    /// TCG `PlatformModel`.
    pub platform_model: Option<String>,
}

/// One measurement slot of a RIM.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct GoldenMeasurement {
    /// 0-based RIM index: it is compared with SPDM block `index + 1`.
    pub index: u32,
    /// Whether the record takes part in the comparison.
    pub active: bool,
    /// `name` (`Measurement_7`).
    pub name: String,
    /// `size` in bytes.
    pub size: usize,
    /// `Hash0` … `HashN-1`: any of them is an acceptable runtime value.
    #[serde(serialize_with = "hex_list")]
    #[cfg_attr(feature = "ts", ts(type = "string[]"))]
    pub alternatives: Vec<Vec<u8>>,
}

/// A non-hash record: a numeric floor for one opaque-data id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OpaqueFloor {
    /// The opaque-data id (`37` = `FSP_UCODE_MIN_SVN`).
    pub id: u16,
    /// The RIM index of the record.
    pub index: u32,
    /// `name`.
    pub name: String,
    /// Whether the record is active (inactive floors are not compared).
    pub active: bool,
    /// `ns3:minSvn`: the runtime value must be at least this.
    pub min_svn: u64,
    /// `ns3:includeInResult`: copy the runtime value to `x-nvidia-attester-claims`.
    pub include_in_result: bool,
}

/// The parsed content of a RIM. Obtain it through [`super::verify_rim`] (or
/// [`super::PendingRim`]), which checks the signature over exactly this content.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "RimDocumentJson"))]
#[serde(rename_all = "camelCase")]
pub struct RimDocument {
    /// `SoftwareIdentity@name` (`GH100`, `LS10`).
    pub name: String,
    /// `SoftwareIdentity@tagId`.
    pub tag_id: Option<String>,
    /// `SoftwareIdentity@version`.
    pub version: Option<String>,
    /// `Meta`.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub meta: RimMeta,
    /// Every measurement record in document order (active and inactive).
    pub measurements: Vec<GoldenMeasurement>,
    /// Opaque-data floors (`ns3` records).
    #[cfg_attr(feature = "ts", ts(inline))]
    pub opaque_floors: Vec<OpaqueFloor>,
}

impl RimDocument {
    /// The active measurement records.
    pub fn active_measurements(&self) -> impl Iterator<Item = &GoldenMeasurement> {
        self.measurements.iter().filter(|m| m.active)
    }

    /// The active opaque floors.
    pub fn active_floors(&self) -> impl Iterator<Item = &OpaqueFloor> {
        self.opaque_floors.iter().filter(|f| f.active)
    }
}

fn hex_list<S: serde::Serializer>(values: &[Vec<u8>], serializer: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = serializer.serialize_seq(Some(values.len()))?;
    for value in values {
        seq.serialize_element(&hex::encode(value))?;
    }
    seq.end()
}

/// Reads the SWID content from the parsed tree. Linear in the document: each `Payload` child
/// and each attribute is looked at a bounded number of times, and indices are checked for
/// repeats in a set (`O(r log r)` for `r` records).
pub(crate) fn read(root: Node<'_, '_>, budget: &mut Budget) -> Result<RimDocument, RimError> {
    if !root.has_tag_name((SWID_NS, "SoftwareIdentity")) {
        return Err(RimError::schema(
            "SoftwareIdentity",
            "document element is not a SWID SoftwareIdentity",
        ));
    }
    let name = required(root, "SoftwareIdentity", "name", budget)?.to_string();
    let meta_node = single_child(
        root,
        "Meta",
        |n| n.has_attribute("colloquialVersion"),
        budget,
    )?;
    let payload = single_child(root, "Payload", |_| true, budget)?;

    budget.spend_usize(meta_node.attributes().len().saturating_mul(6))?;
    let meta = RimMeta {
        colloquial_version: required(meta_node, "Meta", "colloquialVersion", budget)?.to_string(),
        edition: meta_node.attribute("edition").map(String::from),
        product: meta_node.attribute("product").map(String::from),
        revision: meta_node.attribute("revision").map(String::from),
        firmware_manufacturer_id: meta_node
            .attribute((TCG_RIM_NS, "FirmwareManufacturerId"))
            .map(String::from),
        platform_model: meta_node
            .attribute((TCG_RIM_NS, "PlatformModel"))
            .map(String::from),
    };

    let mut measurements: Vec<GoldenMeasurement> = Vec::new();
    let mut opaque_floors: Vec<OpaqueFloor> = Vec::new();
    // Measurement and opaque records share one index space.
    let mut indices: BTreeSet<u32> = BTreeSet::new();
    for resource in payload.children() {
        budget.spend(1)?;
        if !(resource.is_element() && resource.has_tag_name((SWID_NS, "Resource"))) {
            continue;
        }
        budget.spend_usize(resource.attributes().len())?;
        let is_opaque = resource
            .attributes()
            .any(|a| a.namespace() == Some(OPAQUE_NS));
        let index = if is_opaque {
            let floor = opaque_floor(resource, budget)?;
            let index = floor.index;
            opaque_floors.push(floor);
            index
        } else if attribute(resource, "type", budget)? == Some("Measurement") {
            let measurement = measurement(resource, budget)?;
            let index = measurement.index;
            measurements.push(measurement);
            index
        } else {
            // Other SWID resource types carry no reference values.
            continue;
        };
        budget.spend_lookup(indices.len())?;
        if !indices.insert(index) {
            return Err(RimError::DuplicateIndex { index });
        }
    }

    Ok(RimDocument {
        name,
        tag_id: attribute(root, "tagId", budget)?.map(String::from),
        version: attribute(root, "version", budget)?.map(String::from),
        meta,
        measurements,
        opaque_floors,
    })
}

fn measurement(node: Node<'_, '_>, budget: &mut Budget) -> Result<GoldenMeasurement, RimError> {
    let index = decimal_u32(node, "index", budget)?;
    let at = |attr: &str| format!("Resource[{index}]@{attr}");
    let active = boolean(node, "active", index, budget)?;
    let alternatives = decimal_u32(node, "alternatives", budget)?;
    if alternatives == 0 || alternatives > MAX_ALTERNATIVES {
        return Err(RimError::schema(at("alternatives"), "must be 1 to 64"));
    }
    let size = usize::try_from(decimal_u32(node, "size", budget)?)
        .ok()
        .filter(|s| *s > 0 && *s <= MAX_MEASUREMENT_SIZE)
        .ok_or_else(|| RimError::schema(at("size"), "must be 1 to 1024"))?;
    let name = attribute(node, "name", budget)?
        .unwrap_or_default()
        .to_string();
    // `Hash0` … `HashN-1` in one pass over the attributes (looking each name up would be
    // alternatives × attributes).
    let mut texts: Vec<Option<&str>> = alloc::vec![None; alternatives as usize];
    budget.spend_usize(node.attributes().len())?;
    for attr in node.attributes() {
        if attr.namespace() != Some(HASH_NS) {
            continue;
        }
        if let Some(slot) = hash_alternative(attr.name()).and_then(|i| texts.get_mut(i)) {
            *slot = Some(attr.value());
        }
    }
    let mut values = Vec::new();
    for (alt, text) in texts.into_iter().enumerate() {
        // The field's name is formatted only for an error: this loop runs for every hash.
        let bad = |problem| RimError::schema(at(&format!("Hash{alt}")), problem);
        let text = text.ok_or_else(|| bad("missing hash alternative"))?;
        budget.spend_usize(text.len())?;
        let value = hex_value(text).ok_or_else(|| bad("not hexadecimal"))?;
        if value.len() != size {
            return Err(bad("length differs from size"));
        }
        values.push(value);
    }
    Ok(GoldenMeasurement {
        index,
        active,
        name,
        size,
        alternatives: values,
    })
}

/// The bytes of hex text (an even number of digits, either case): a measurement's value.
/// An index loop rather than the `hex` crate's iterator chain, which the size-optimised
/// build does not fuse: every hash of a RIM passes here.
fn hex_value(text: &str) -> Option<Vec<u8>> {
    let digits = text.as_bytes();
    if digits.len() % 2 != 0 {
        return None;
    }
    let mut value = Vec::with_capacity(digits.len() / 2);
    for pair in 0..digits.len() / 2 {
        let (high, low) = (digits.get(2 * pair)?, digits.get(2 * pair + 1)?);
        value.push(hex_digit(*high)? << 4 | hex_digit(*low)?);
    }
    Some(value)
}

/// `N` of an attribute named exactly `HashN` (decimal, no sign, no leading zero).
fn hash_alternative(name: &str) -> Option<usize> {
    let digits = name.strip_prefix("Hash")?;
    if digits.is_empty()
        || digits.len() > 3
        || (digits.len() > 1 && digits.starts_with('0'))
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    digits.parse().ok()
}

fn opaque_floor(node: Node<'_, '_>, budget: &mut Budget) -> Result<OpaqueFloor, RimError> {
    let index = decimal_u32(node, "index", budget)?;
    let at = |attr: &str| format!("Resource[{index}]@{attr}");
    let id = index
        .checked_sub(OPAQUE_INDEX_BASE)
        .and_then(|id| u16::try_from(id).ok())
        .ok_or_else(|| {
            RimError::schema(at("index"), "opaque record outside the opaque index range")
        })?;
    let active = match attribute(node, "active", budget)? {
        Some(_) => boolean(node, "active", index, budget)?,
        None => true,
    };
    // A floor this verifier cannot read must not be skipped silently: refuse the document.
    let min_svn_text = attribute(node, (OPAQUE_NS, "minSvn"), budget)?
        .ok_or_else(|| RimError::schema(at("ns3:minSvn"), "opaque record without minSvn"))?;
    let min_svn = parse_decimal(min_svn_text)
        .ok_or_else(|| RimError::schema(at("ns3:minSvn"), "not a decimal number"))?;
    let include_in_result = match attribute(node, (OPAQUE_NS, "includeInResult"), budget)? {
        None => false,
        Some(text) => parse_bool(text)
            .ok_or_else(|| RimError::schema(at("ns3:includeInResult"), "not True or False"))?,
    };
    budget.spend_usize(node.attributes().len())?;
    if node.attributes().any(|a| {
        a.namespace() == Some(OPAQUE_NS) && !matches!(a.name(), "minSvn" | "includeInResult")
    }) {
        return Err(RimError::schema(
            at("ns3"),
            "opaque record attribute this verifier does not know",
        ));
    }
    Ok(OpaqueFloor {
        id,
        index,
        name: attribute(node, "name", budget)?
            .unwrap_or_default()
            .to_string(),
        active,
        min_svn,
        include_in_result,
    })
}

/// An attribute's value, its lookup (a linear search of the element's attributes) charged.
fn attribute<'a, 'n, 'm>(
    node: Node<'a, '_>,
    name: impl Into<ExpandedName<'n, 'm>>,
    budget: &mut Budget,
) -> Result<Option<&'a str>, RimError> {
    budget.spend_usize(node.attributes().len().saturating_add(1))?;
    Ok(node.attribute(name))
}

fn single_child<'a, 'input>(
    parent: Node<'a, 'input>,
    local: &'static str,
    wanted: impl Fn(Node<'a, 'input>) -> bool,
    budget: &mut Budget,
) -> Result<Node<'a, 'input>, RimError> {
    let mut found = None;
    for child in parent.children() {
        budget.spend(1)?;
        if !(child.is_element() && child.has_tag_name((SWID_NS, local))) {
            continue;
        }
        budget.spend_usize(child.attributes().len())?;
        if !wanted(child) {
            continue;
        }
        if found.is_some() {
            return Err(RimError::schema(local, "element repeated"));
        }
        found = Some(child);
    }
    found.ok_or_else(|| RimError::schema(local, "element missing"))
}

fn required<'a>(
    node: Node<'a, '_>,
    element: &str,
    attr: &str,
    budget: &mut Budget,
) -> Result<&'a str, RimError> {
    attribute(node, attr, budget)?
        .ok_or_else(|| RimError::schema(format!("{element}@{attr}"), "attribute missing"))
}

fn decimal_u32(
    node: Node<'_, '_>,
    attr: &'static str,
    budget: &mut Budget,
) -> Result<u32, RimError> {
    let text = required(node, "Resource", attr, budget)?;
    parse_decimal(text)
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| RimError::schema(format!("Resource@{attr}"), "not a decimal number"))
}

fn boolean(
    node: Node<'_, '_>,
    attr: &'static str,
    index: u32,
    budget: &mut Budget,
) -> Result<bool, RimError> {
    let text = required(node, "Resource", attr, budget)?;
    parse_bool(text)
        .ok_or_else(|| RimError::schema(format!("Resource[{index}]@{attr}"), "not True or False"))
}

/// Decimal digits only (no sign, no spaces), at most 19 digits.
fn parse_decimal(text: &str) -> Option<u64> {
    if text.is_empty() || text.len() > 19 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// NVIDIA writes Python's `True`/`False`; the XML Schema forms are accepted too.
fn parse_bool(text: &str) -> Option<bool> {
    match text {
        "True" | "true" | "1" => Some(true),
        "False" | "false" | "0" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn hex_values_and_refusals() {
        assert_eq!(hex_value(""), Some(Vec::new()));
        assert_eq!(hex_value("00fFa9"), Some(alloc::vec![0, 0xff, 0xa9]));
        for bad in ["0", "abc", "0g", "g0", " 00", "00 ", "+1", "é0"] {
            assert_eq!(hex_value(bad), None, "{bad:?}");
        }
    }

    proptest! {
        #[test]
        fn hex_value_reads_as_the_hex_crate(text in "[0-9a-fA-Fg ]{0,20}") {
            prop_assert_eq!(hex_value(&text), hex::decode(&text).ok());
        }
    }
}
