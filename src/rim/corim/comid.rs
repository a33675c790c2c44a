//! A CoMID (`concise-mid-tag`, draft-ietf-rats-corim-11 §5) read into reference
//! measurements: the reference triples of the measured environment become the golden
//! records of a [`RimDocument`], the DICE layer-0 triples become [`DiceReference`]s.
//!
//! ```text
//! concise-mid-tag = { ? 0 => language, 1 => tag-identity-map, ? 2 => [+ entity-map],
//!                     ? 3 => linked-tags, 4 => triples-map }
//! triples-map     = { ? 0 => [+ [environment-map, [+ measurement-map]]], … }
//! environment-map = { ? 0 => class-map { ? 0 class-id, ? 1 vendor, ? 2 model, ? 3 layer,
//!                     ? 4 index }, ? 1 => instance, ? 2 => group }
//! measurement-map = { ? 0 => mkey, 1 => mval, ? 2 => authorized-by }
//! mval            = { ? 0 => version-map, ? 1 => svn, ? 2 => digests [+ [alg, bytes]],
//!                     ? 4 => raw-value (#6.560(bytes) / #6.563([bytes, mask])), … }
//! ```
//!
//! Rules (NVIDIA's GPU CoRIMs; `mkey` is the SPDM measurement index, 1-based):
//! * the environment of class `layer` 0 is the DICE `TcbInfo` of the device's certificate
//!   chain: kept as [`DiceReference`], not compared with SPDM blocks;
//! * every other environment is the measured one: there must be exactly one; several
//!   reference triples for it are alternatives (the device matches if any one matches);
//! * each of its measurement-maps is one golden record at RIM index `mkey − 1`, holding one
//!   value: a single digest (alg 1 / 7 / 8 = SHA-256 / 384 / 512, IANA Named Information)
//!   or a `#6.560` raw value — a `#6.563` masked value, several digests, or other `mval`
//!   members are refused, not ignored;
//! * a measurement-map without `mkey` holding only a `version-map` states the firmware
//!   version (the XML `colloquialVersion`).

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::error::CorimError;
use super::{DiceReference, MAX_CORIM_ALTERNATIVES, MAX_CORIM_MEASUREMENTS, MAX_CORIM_TRIPLES};
use crate::cbor::Cbor;
use crate::rim::{GoldenMeasurement, RimDocument, RimMeta, MAX_MEASUREMENT_SIZE};

/// `tagged-bytes`: an exact raw value.
const TAG_RAW_VALUE: u64 = 560;
/// `tagged-masked-raw-value`.
const TAG_MASKED_RAW_VALUE: u64 = 563;
/// `tagged-svn` (exact) and `tagged-min-svn`.
const TAG_SVN: u64 = 552;
const TAG_MIN_SVN: u64 = 553;

/// What one CoMID contributes.
pub(super) struct Comid {
    /// `tag-identity.tag-id` (text, or a UUID as hex).
    pub tag_id: String,
    /// The measured environment, if this CoMID has reference triples for it.
    pub measured: Option<Measured>,
    /// Layer-0 references.
    pub dice: Vec<DiceReference>,
}

/// The measured environment of a CoMID.
pub(super) struct Measured {
    /// Its encoding: the key that tells a second reference triple for it (an alternative)
    /// from a triple for another environment.
    key: Vec<u8>,
    /// Its class model.
    pub model: Option<String>,
    /// One set of golden records per reference triple (alternatives).
    pub attempts: Vec<Attempt>,
}

/// One reference triple of the measured environment.
pub(super) struct Attempt {
    /// The golden records, in document order.
    pub measurements: Vec<GoldenMeasurement>,
    /// The stated firmware version, if any.
    pub version: Option<String>,
}

/// Reads a decoded `concise-mid-tag`.
pub(super) fn read(comid: &Cbor) -> Result<Comid, CorimError> {
    if comid.as_map().is_none() {
        return Err(CorimError::schema("comid", "not a map"));
    }
    if comid.get_int(3).is_some() {
        return Err(CorimError::Unsupported {
            what: "linked tags",
        });
    }
    let identity = comid
        .get_int(1)
        .ok_or_else(|| CorimError::schema("comid.1", "no tag-identity"))?;
    let tag_id = match identity.get_int(0) {
        Some(Cbor::Text(text)) => text.clone(),
        Some(Cbor::Tag(37, uuid)) => uuid
            .as_bytes()
            .map(hex::encode)
            .ok_or_else(|| CorimError::schema("comid.1.0", "UUID is not bytes"))?,
        Some(Cbor::Bytes(uuid)) => hex::encode(uuid),
        _ => return Err(CorimError::schema("comid.1.0", "no tag-id")),
    };
    let triples = comid
        .get_int(4)
        .and_then(Cbor::as_map)
        .ok_or_else(|| CorimError::schema("comid.4", "no triples map"))?;
    let mut reference = None;
    for (key, value) in triples {
        match key.as_u64() {
            Some(0) => reference = Some(value),
            _ => {
                return Err(CorimError::Unsupported {
                    what: "triples other than reference triples",
                })
            }
        }
    }
    let reference = reference
        .and_then(Cbor::as_array)
        .ok_or_else(|| CorimError::schema("comid.4.0", "no reference triples"))?;
    if reference.len() > MAX_CORIM_TRIPLES {
        return Err(CorimError::TooMany {
            what: "reference-triples",
            limit: MAX_CORIM_TRIPLES,
        });
    }

    let mut measured: Option<Measured> = None;
    let mut dice = Vec::new();
    for (at, triple) in reference.iter().enumerate() {
        let field = format!("comid.4.0[{at}]");
        let (environment, measurements) = match triple.as_array() {
            Some([environment, Cbor::Array(measurements)]) => (environment, measurements),
            _ => {
                return Err(CorimError::schema(
                    field,
                    "not [environment, [+ measurement]]",
                ))
            }
        };
        if measurements.is_empty() || measurements.len() > MAX_CORIM_MEASUREMENTS {
            return Err(CorimError::TooMany {
                what: "measurements",
                limit: MAX_CORIM_MEASUREMENTS,
            });
        }
        let class = environment
            .get_int(0)
            .ok_or_else(|| CorimError::schema(format!("{field}.0"), "no class"))?;
        let text = |key| class.get_int(key).and_then(Cbor::as_text).map(String::from);
        let layer = class.get_int(3).and_then(Cbor::as_u64);
        if layer == Some(0) {
            for (i, m) in measurements.iter().enumerate() {
                dice.push(dice_reference(
                    m,
                    text(1),
                    text(2),
                    &format!("{field}.1[{i}]"),
                )?);
            }
            continue;
        }
        let key = environment.encode();
        let attempt = attempt(measurements, &field)?;
        match &mut measured {
            None => {
                measured = Some(Measured {
                    key,
                    model: text(2),
                    attempts: alloc::vec![attempt],
                })
            }
            Some(Measured {
                key: known,
                attempts,
                ..
            }) if *known == key => {
                if attempts.len() >= MAX_CORIM_ALTERNATIVES {
                    return Err(CorimError::TooMany {
                        what: "alternatives",
                        limit: MAX_CORIM_ALTERNATIVES,
                    });
                }
                attempts.push(attempt);
            }
            Some(_) => {
                return Err(CorimError::Unsupported {
                    what: "several measured environments",
                })
            }
        }
    }
    Ok(Comid {
        tag_id,
        measured,
        dice,
    })
}

/// Builds one alternative's [`RimDocument`].
pub(super) fn document(tag_id: &str, model: Option<&str>, attempt: Attempt) -> RimDocument {
    RimDocument {
        name: model.unwrap_or(tag_id).to_string(),
        tag_id: Some(tag_id.to_string()),
        version: None,
        meta: RimMeta {
            // No stated version: an empty one, which no evidence version equals.
            colloquial_version: attempt.version.unwrap_or_default(),
            edition: None,
            product: None,
            revision: None,
            firmware_manufacturer_id: None,
            platform_model: model.map(String::from),
        },
        measurements: attempt.measurements,
        opaque_floors: Vec::new(),
    }
}

fn attempt(measurements: &[Cbor], field: &str) -> Result<Attempt, CorimError> {
    let mut golden = Vec::with_capacity(measurements.len());
    let mut seen = BTreeSet::new();
    let mut version: Option<String> = None;
    for (i, m) in measurements.iter().enumerate() {
        let field = format!("{field}.1[{i}]");
        let mval = m
            .get_int(1)
            .ok_or_else(|| CorimError::schema(format!("{field}.1"), "no mval"))?;
        if m.get_int(2).is_some() {
            return Err(CorimError::Unsupported {
                what: "authorized-by",
            });
        }
        let Some(mkey) = m.get_int(0) else {
            let stated =
                only_version(mval).ok_or_else(|| CorimError::schema(field.clone(), "no mkey"))?;
            if version.as_deref().is_some_and(|v| v != stated) {
                return Err(CorimError::schema(field, "two different versions"));
            }
            version = Some(stated.to_string());
            continue;
        };
        let mkey = mkey
            .as_u64()
            .filter(|k| (1..=u64::from(u32::MAX)).contains(k))
            .ok_or_else(|| CorimError::schema(format!("{field}.0"), "mkey is not an SPDM index"))?;
        if !seen.insert(mkey) {
            return Err(CorimError::DuplicateIndex { mkey });
        }
        let value = value(mval, &field)?;
        golden.push(GoldenMeasurement {
            // The range was checked above.
            index: u32::try_from(mkey - 1).unwrap_or(u32::MAX),
            active: true,
            name: format!("mkey {mkey}"),
            size: value.len(),
            alternatives: alloc::vec![value],
        });
    }
    Ok(Attempt {
        measurements: golden,
        version,
    })
}

/// The one value of a measured `mval`: a single digest or an exact raw value.
fn value(mval: &Cbor, field: &str) -> Result<Vec<u8>, CorimError> {
    let entries = mval
        .as_map()
        .ok_or_else(|| CorimError::schema(format!("{field}.1"), "mval is not a map"))?;
    let mut found = None;
    for (key, member) in entries {
        let value = match key.as_u64() {
            Some(2) => single_digest(member, field)?,
            Some(4) => raw_value(member, field)?,
            _ => {
                return Err(CorimError::Unsupported {
                    what: "measurement values other than digests and raw values",
                })
            }
        };
        if found.replace(value).is_some() {
            return Err(CorimError::Unsupported {
                what: "a digest and a raw value in one measurement",
            });
        }
    }
    let value = found.ok_or_else(|| CorimError::schema(format!("{field}.1"), "empty mval"))?;
    if value.len() > MAX_MEASUREMENT_SIZE {
        return Err(CorimError::schema(format!("{field}.1"), "value too large"));
    }
    Ok(value)
}

fn single_digest(digests: &Cbor, field: &str) -> Result<Vec<u8>, CorimError> {
    match digests.as_array() {
        Some([digest]) => digest_value(digest, field),
        Some([]) | None => Err(CorimError::schema(format!("{field}.1.2"), "no digest")),
        Some(_) => Err(CorimError::Unsupported {
            what: "several digests in one measurement",
        }),
    }
}

/// `[alg, bytes]` with the length its algorithm gives.
fn digest_value(digest: &Cbor, field: &str) -> Result<Vec<u8>, CorimError> {
    let (alg, bytes) = match digest.as_array() {
        Some([alg, Cbor::Bytes(bytes)]) => (alg.as_u64(), bytes),
        _ => {
            return Err(CorimError::schema(
                format!("{field}.1.2"),
                "not [alg, bytes]",
            ))
        }
    };
    let expected = match alg {
        Some(1) => 32,
        Some(7) => 48,
        Some(8) => 64,
        _ => {
            return Err(CorimError::Unsupported {
                what: "a digest algorithm other than SHA-256/384/512",
            })
        }
    };
    if bytes.len() != expected {
        return Err(CorimError::schema(
            format!("{field}.1.2"),
            "digest length differs from its algorithm's",
        ));
    }
    Ok(bytes.clone())
}

fn raw_value(raw: &Cbor, field: &str) -> Result<Vec<u8>, CorimError> {
    if raw.untag(TAG_MASKED_RAW_VALUE).is_some() {
        return Err(CorimError::Unsupported {
            what: "masked raw values",
        });
    }
    raw.untag(TAG_RAW_VALUE)
        .and_then(Cbor::as_bytes)
        .map(<[u8]>::to_vec)
        .ok_or_else(|| CorimError::schema(format!("{field}.1.4"), "raw value is not #6.560(bytes)"))
}

/// The version text of an `mval` holding only `{0: {0: text, ? 1: scheme}}`.
fn only_version(mval: &Cbor) -> Option<&str> {
    match mval.as_map()? {
        [(key, version)] if key.as_u64() == Some(0) => version.get_int(0)?.as_text(),
        _ => None,
    }
}

fn dice_reference(
    m: &Cbor,
    vendor: Option<String>,
    model: Option<String>,
    field: &str,
) -> Result<DiceReference, CorimError> {
    let mval = m
        .get_int(1)
        .ok_or_else(|| CorimError::schema(format!("{field}.1"), "no mval"))?;
    let svn = match mval.get_int(1) {
        None => None,
        Some(svn) => Some(
            svn.as_u64()
                .or_else(|| svn.untag(TAG_SVN).and_then(Cbor::as_u64))
                .map(|n| (n, false))
                .or_else(|| {
                    svn.untag(TAG_MIN_SVN)
                        .and_then(Cbor::as_u64)
                        .map(|n| (n, true))
                })
                .ok_or_else(|| CorimError::schema(format!("{field}.1.1"), "svn is not a uint"))?,
        ),
    };
    let digests = match mval.get_int(2) {
        None => Vec::new(),
        Some(digests) => {
            let list = digests
                .as_array()
                .ok_or_else(|| CorimError::schema(format!("{field}.1.2"), "not an array"))?;
            list.iter()
                .map(|d| digest_value(d, field))
                .collect::<Result<Vec<_>, _>>()?
        }
    };
    Ok(DiceReference {
        vendor,
        model,
        svn: svn.map(|(n, _)| n),
        min_svn: svn.is_some_and(|(_, min)| min),
        digests,
    })
}
