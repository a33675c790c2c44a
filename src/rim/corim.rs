//! CoRIM reference values (draft-ietf-rats-corim-11, the subset NVIDIA's SDK 2.0 reads):
//! the CBOR twin of the XML RIM, read into the same [`RimDocument`] so that one comparison
//! engine ([`crate::rim::compare_gpu`], [`crate::rim::compare_gpu_firmware`],
//! [`crate::rim::compare_switch`]) serves both formats.
//!
//! ```text
//! signed-corim   = #6.18(COSE_Sign1)        ; NVIDIA networking CoRIMs: #6.500(#6.502(…))
//! unsigned-corim = #6.501(corim-map)
//! corim-map      = { 0 => id (text / uuid), 1 => [+ #6.506(bytes .cbor concise-mid-tag)],
//!                    ? 2 => dependent-rims, ? 3 => profile, ? 4 => rim-validity, ? 5 => entities }
//! ```
//!
//! * [`parse_corim`] reads an unsigned CoRIM (or the payload of a signed one) within the
//!   budgets below: [`MAX_CORIM_BYTES`], the CBOR reader's depth and item budget
//!   ([`CORIM_CBOR_LIMITS`], for the CoRIM and again for each CoMID inside it),
//!   [`MAX_CORIM_TAGS`], [`MAX_CORIM_TRIPLES`], [`MAX_CORIM_MEASUREMENTS`],
//!   [`MAX_CORIM_ALTERNATIVES`]. The CoMID rules are in `comid.rs`.
//! * A signed CoRIM takes the XML RIMs' pipeline ([`crate::rim::prepare_rim`] /
//!   [`crate::rim::verify_rim`]): COSE_Sign1 with ES384 only, protected content type
//!   `application/rim+cbor` when stated, the `x5chain` (label 33) leaf's key (read by
//!   `signed.rs`), and the chain to a [`RimTrust`] — [`RimTrust::nvidia_corim`] (`NVIDIA
//!   CoRIM Root CA001`) by default, not the XML RIMs' root — reported as an XML RIM's chain is.
//! * Comparison: [`Corim::compare`] runs one of the XML comparisons on each alternative of
//!   the measured environment and keeps the first that matches (else the one with the fewest
//!   mismatches, the first on ties): with one alternative it is exactly the XML comparison.
//!
//! A CoRIM states no `colloquialVersion`; a measurement-map without `mkey` holding only a
//! `version-map` does. One that states none (NVIDIA's sample) fails the comparison's version
//! check while its measurements match, and is refused by the RIM id check as an XML RIM
//! without a version is (`PendingRim::check_id`).
//! Dependent RIMs are refused, as NVIDIA's verifier refuses them.
//!
//! Validity: a signed CoRIM is used only inside its `rim-validity` (key 4) and its signer's
//! `signature-validity` (protected `corim-meta`), both inclusive, at the time the RIM
//! pipeline is given; one that states neither is limited only by its chain's certificates
//! (`validity.rs`). [`parse_corim`] reads the period of an unsigned CoRIM but has no time to
//! judge it by.

mod comid;
mod error;
mod signed;
mod validity;

use alloc::string::String;
use alloc::vec::Vec;

pub use error::CorimError;
pub(crate) use signed::read_signed;
pub(crate) use validity::Validity;

use super::compare::Comparison;
use super::document::RimDocument;
use super::error::CompareError;
#[cfg(doc)]
use super::trust::RimTrust;
use crate::cbor::{self, Cbor, CborLimits};

/// Largest CoRIM accepted, in bytes (NVIDIA's: under 2 KB).
pub const MAX_CORIM_BYTES: usize = 1 << 18;
/// The CBOR reader's budget for a CoRIM and for each CoMID inside it.
pub const CORIM_CBOR_LIMITS: CborLimits = CborLimits {
    max_depth: 16,
    max_items: 16_384,
};
/// Most tags (CoMIDs) in one CoRIM.
pub const MAX_CORIM_TAGS: usize = 16;
/// Most reference triples in one CoMID.
pub const MAX_CORIM_TRIPLES: usize = 64;
/// Most measurement-maps in one reference triple.
pub const MAX_CORIM_MEASUREMENTS: usize = 256;
/// Most alternatives (reference triples of the measured environment) in one CoRIM: each
/// is one run of the comparison.
pub const MAX_CORIM_ALTERNATIVES: usize = 16;

/// `tagged-unsigned-corim-map`.
pub(crate) const TAG_UNSIGNED_CORIM: u64 = 501;
/// `tagged-concise-mid-tag`.
const TAG_COMID: u64 = 506;

/// A reference for the device's DICE layer 0 (the `TcbInfo` of its certificate chain):
/// read and kept, not compared with SPDM blocks (the chain's own checks cover it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceReference {
    /// Class vendor (`NVIDIA`).
    pub vendor: Option<String>,
    /// Class model (`GB100 A01 FSP`).
    pub model: Option<String>,
    /// The reference SVN.
    pub svn: Option<u64>,
    /// Whether [`Self::svn`] is a minimum (`#6.553`) rather than exact.
    pub min_svn: bool,
    /// The FWID digests.
    pub digests: Vec<Vec<u8>>,
}

/// The reference values of a CoRIM, in the XML RIM's shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Corim {
    id: String,
    profile: Option<String>,
    tag_ids: Vec<String>,
    alternatives: Vec<RimDocument>,
    dice: Vec<DiceReference>,
    validity: Validity,
}

impl Corim {
    /// `corim-map` id (text; a UUID as hex).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// `corim-map` profile (URI text; an OID as hex), when stated.
    pub fn profile(&self) -> Option<&str> {
        self.profile.as_deref()
    }

    /// The CoMIDs' tag ids, in order.
    pub fn tag_ids(&self) -> &[String] {
        &self.tag_ids
    }

    /// The measured environment's golden records, one document per alternative (at least
    /// one): each is compared as an XML RIM is.
    pub fn alternatives(&self) -> &[RimDocument] {
        &self.alternatives
    }

    /// The first alternative (the only one in NVIDIA's CoRIMs).
    pub fn document(&self) -> &RimDocument {
        // `read` never builds a CoRIM without an alternative.
        &self.alternatives[0]
    }

    /// The DICE layer-0 references.
    pub fn dice(&self) -> &[DiceReference] {
        &self.dice
    }

    /// Runs `compare` (one of the XML comparisons, with the device's evidence) on each
    /// alternative: the first whose measurements match, else the one with the fewest
    /// mismatches (the first on ties).
    ///
    /// # Errors
    /// The first error `compare` returns.
    pub fn compare<F>(&self, compare: F) -> Result<Comparison, CompareError>
    where
        F: FnMut(&RimDocument) -> Result<Comparison, CompareError>,
    {
        best_of(&self.alternatives, compare)
    }

    /// The content, taken apart: the alternatives (at least one), for a verified RIM of
    /// either format, and the `rim-validity` (unbounded when absent).
    pub(crate) fn into_parts(self) -> (Vec<RimDocument>, Validity) {
        (self.alternatives, self.validity)
    }
}

/// Runs `compare` on each of `alternatives`: the first whose measurements match, else the
/// one with the fewest mismatches (the first on ties). One alternative is exactly one
/// comparison.
///
/// # Errors
/// The first error `compare` returns; [`CompareError::IndexConflict`] never arises from an
/// empty list, which no reader builds.
pub(crate) fn best_of<'a, F>(
    alternatives: impl IntoIterator<Item = &'a RimDocument>,
    mut compare: F,
) -> Result<Comparison, CompareError>
where
    F: FnMut(&RimDocument) -> Result<Comparison, CompareError>,
{
    let mut best: Option<Comparison> = None;
    for alternative in alternatives {
        let result = compare(alternative)?;
        if result.measurements_match {
            return Ok(result);
        }
        let misses = |c: &Comparison| c.mismatches.len() + c.opaque_mismatches.len();
        if best.as_ref().is_none_or(|b| misses(&result) < misses(b)) {
            best = Some(result);
        }
    }
    // Every reader builds at least one alternative, so `best` is set.
    best.ok_or(CompareError::IndexConflict { index: 0 })
}

/// Reads an unsigned CoRIM, `#6.501(corim-map)` (or an untagged `corim-map`, the payload of
/// a signed one), within the budgets of this module.
///
/// # Errors
/// [`CorimError`]: too large, not CBOR, a budget exceeded, not a CoRIM, or a construct this
/// reader refuses.
pub fn parse_corim(bytes: &[u8]) -> Result<Corim, CorimError> {
    if bytes.len() > MAX_CORIM_BYTES {
        return Err(CorimError::TooLarge {
            limit: MAX_CORIM_BYTES,
            size: bytes.len(),
        });
    }
    let item = cbor::decode(bytes, CORIM_CBOR_LIMITS)?;
    if item.untag(signed::TAG_SIGN1).is_some() {
        return Err(CorimError::Unsupported {
            what: "a signed CoRIM where an unsigned one is read (use prepare_rim)",
        });
    }
    read(item.untag(TAG_UNSIGNED_CORIM).unwrap_or(&item))
}

fn read(map: &Cbor) -> Result<Corim, CorimError> {
    if map.as_map().is_none() {
        return Err(CorimError::schema("corim", "not a map"));
    }
    if map.get_int(2).is_some() {
        return Err(CorimError::Unsupported {
            what: "dependent RIMs",
        });
    }
    let id = match map.get_int(0) {
        Some(Cbor::Text(text)) => text.clone(),
        Some(Cbor::Tag(37, uuid)) => uuid
            .as_bytes()
            .map(hex::encode)
            .ok_or_else(|| CorimError::schema("corim.0", "UUID is not bytes"))?,
        _ => return Err(CorimError::schema("corim.0", "no id")),
    };
    let profile = match map.get_int(3) {
        None => None,
        Some(profile) => Some(
            profile
                .untag(32)
                .and_then(Cbor::as_text)
                .map(String::from)
                .or_else(|| profile.untag(111).and_then(Cbor::as_bytes).map(hex::encode))
                .ok_or_else(|| CorimError::schema("corim.3", "profile is not a URI or OID"))?,
        ),
    };
    let validity = match map.get_int(4) {
        None => Validity::default(),
        Some(validity) => Validity::read(validity, "corim.4")?,
    };
    let tags = map
        .get_int(1)
        .and_then(Cbor::as_array)
        .ok_or_else(|| CorimError::schema("corim.1", "no tags"))?;
    if tags.is_empty() {
        return Err(CorimError::schema("corim.1", "no tags"));
    }
    if tags.len() > MAX_CORIM_TAGS {
        return Err(CorimError::TooMany {
            what: "tags",
            limit: MAX_CORIM_TAGS,
        });
    }
    let mut tag_ids = Vec::with_capacity(tags.len());
    let mut dice = Vec::new();
    let mut measured: Option<(String, comid::Measured)> = None;
    for tag in tags {
        let decoded = comid_item(tag)?;
        let read = comid::read(&decoded)?;
        tag_ids.push(read.tag_id.clone());
        dice.extend(read.dice);
        if let Some(found) = read.measured {
            if measured.is_some() {
                return Err(CorimError::Unsupported {
                    what: "several measured environments",
                });
            }
            measured = Some((read.tag_id, found));
        }
    }
    let (tag_id, measured) = measured.ok_or_else(|| {
        CorimError::schema("corim.1", "no reference measurements outside DICE layer 0")
    })?;
    let model = measured.model;
    let alternatives = measured
        .attempts
        .into_iter()
        .map(|attempt| comid::document(&tag_id, model.as_deref(), attempt))
        .collect();
    Ok(Corim {
        id,
        profile,
        tag_ids,
        alternatives,
        dice,
        validity,
    })
}

/// A CoMID as a tag carries it: `#6.506(bytes .cbor map)` (draft-11), `bytes .cbor
/// #6.506(map)` (NVIDIA's draft-06 networking CoRIMs), or `#6.506(map)`.
fn comid_item(tag: &Cbor) -> Result<Cbor, CorimError> {
    let inner = match tag {
        Cbor::Tag(TAG_COMID, inner) => inner.as_ref(),
        Cbor::Bytes(_) => tag,
        _ => {
            return Err(CorimError::Unsupported {
                what: "tags other than CoMIDs",
            })
        }
    };
    match inner {
        Cbor::Bytes(bytes) => {
            let decoded = cbor::decode(bytes, CORIM_CBOR_LIMITS)?;
            match decoded {
                Cbor::Tag(TAG_COMID, map) => Ok(*map),
                Cbor::Map(_) if matches!(tag, Cbor::Tag(..)) => Ok(decoded),
                _ => Err(CorimError::Unsupported {
                    what: "tags other than CoMIDs",
                }),
            }
        }
        Cbor::Map(_) => Ok(inner.clone()),
        _ => Err(CorimError::schema("corim.1", "CoMID is not a map")),
    }
}
