//! Comparison of runtime values with verified RIMs, as NVIDIA's verifiers do it
//! (NVAT `generate_set_measurement_claims`, `compare_opaque_data`):
//!
//! * every **active** golden record at RIM index `i` is matched by the runtime block with SPDM
//!   index `i + 1`, byte-equal (same size) to **any** alternative; a missing block is a
//!   mismatch; inactive records and runtime blocks without a record are ignored;
//! * GPU: driver and firmware RIM must not both have an active record at one index (service
//!   code 4009); index 35 is skipped when `NVDEC0_STATUS` is `0x55` (disabled);
//! * every active minimum-SVN floor needs an opaque entry of value type `0x87` holding a
//!   16-bit value at least the floor;
//! * the RIM `colloquialVersion` must equal the evidence's driver / firmware version.
//!
//! Mismatches are reported as the claims 3.0/4.0 records
//! (`x-nvidia-mismatch-measurement-records`, `x-nvidia-mismatch-opaque-data-records`).

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use super::document::{GoldenMeasurement, OpaqueFloor, RimDocument};
use super::error::CompareError;
use super::runtime_evidence::{
    RuntimeEvidence, MIN_SVN_VALUE_TYPE, NVDEC0_DISABLED, NVDEC0_ENABLED,
};
use crate::sort;

/// The RIM index governed by the NVDEC0 rule.
const NVDEC0_INDEX: u32 = 35;

/// Which RIM a golden record came from (`measurementSource`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum MeasurementSource {
    /// The driver RIM.
    Driver,
    /// The firmware (VBIOS / switch BIOS) RIM.
    Firmware,
}

/// One entry of `x-nvidia-mismatch-measurement-records`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct MismatchRecord {
    /// RIM (0-based) index.
    pub index: u32,
    /// Golden size in bytes.
    pub golden_size: usize,
    /// First alternative, lower-case hex.
    pub golden_value: String,
    /// Runtime size in bytes (0 when the block is missing).
    pub runtime_size: usize,
    /// Runtime value, lower-case hex, or `NA` when the block is missing.
    pub runtime_value: String,
    /// Which RIM the record came from.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub measurement_source: MeasurementSource,
}

/// One entry of `x-nvidia-mismatch-opaque-data-records` (claims 4.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OpaqueMismatch {
    /// The opaque id.
    pub id: u16,
    /// The record's name.
    pub name: String,
    /// `MIN_SVN`.
    #[cfg_attr(feature = "ts", ts(type = r#""MIN_SVN""#))]
    pub golden_type: &'static str,
    /// The floor.
    pub golden_value: u64,
    /// `MIN_SVN` when the runtime entry has the right type, absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = r#""MIN_SVN""#))]
    pub runtime_type: Option<&'static str>,
    /// The runtime value, when the entry has the right type.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub runtime_value: Option<u64>,
}

/// The NVDEC0 rule applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum Nvdec0Rule {
    /// `0xAA`: index 35 compared.
    Enabled,
    /// `0x55`: index 35 skipped.
    Disabled,
    /// No `NVDEC0_STATUS` in the evidence: index 35 compared (the stricter reading).
    Absent,
    /// Switches have no NVDEC0.
    NotApplicable,
}

/// A RIM `colloquialVersion` against the evidence's version (`*-rim-version-match`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct VersionCheck {
    /// The RIM's version.
    pub rim_version: String,
    /// The evidence's version, if it has one.
    pub evidence_version: Option<String>,
    /// Exact equality.
    pub matches: bool,
}

/// The result of comparing one device with its RIMs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    /// Every active record matched and every floor met (`measres` `success`).
    pub measurements_match: bool,
    /// Mismatched records, driver records first, each RIM in index order.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub mismatches: Vec<MismatchRecord>,
    /// Unmet floors.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub opaque_mismatches: Vec<OpaqueMismatch>,
    /// Runtime values of floors flagged "include in result" (`x-nvidia-attester-claims`).
    #[cfg_attr(feature = "ts", ts(type = "Record<string, number>"))]
    pub attester_claims: BTreeMap<String, u64>,
    /// Number of golden records compared.
    pub compared: usize,
    /// The NVDEC0 rule applied.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub nvdec0: Nvdec0Rule,
    /// Driver RIM version check (GPU only).
    #[cfg_attr(feature = "ts", ts(inline))]
    pub driver_version: Option<VersionCheck>,
    /// Firmware RIM version check.
    #[cfg_attr(feature = "ts", ts(inline))]
    pub firmware_version: VersionCheck,
}

impl Comparison {
    /// `measres`: `success` or `fail`.
    pub fn measres(&self) -> &'static str {
        if self.measurements_match {
            "success"
        } else {
            "fail"
        }
    }

    /// Measurements match and every RIM version equals the evidence's.
    pub fn all_match(&self) -> bool {
        self.measurements_match
            && self.firmware_version.matches
            && self.driver_version.as_ref().is_none_or(|v| v.matches)
    }

    /// The comparison as a host reports it (the JS `RimComparison`): its members, `measres`
    /// and `allMatch`.
    pub fn report(&self) -> ComparisonReport<'_> {
        ComparisonReport {
            comparison: self,
            measres: self.measres(),
            all_match: self.all_match(),
        }
    }

    /// The mismatched RIM indices (`x-nvidia-mismatch-indexes`).
    pub fn mismatch_indexes(&self) -> Vec<u32> {
        self.mismatches.iter().map(|m| m.index).collect()
    }
}

/// A [`Comparison`] with its verdicts spelt out ([`Comparison::report`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "RimComparison"))]
#[serde(rename_all = "camelCase")]
pub struct ComparisonReport<'a> {
    /// The comparison's members.
    #[serde(flatten)]
    pub comparison: &'a Comparison,
    /// [`Comparison::measres`].
    #[cfg_attr(feature = "ts", ts(type = r#""success" | "fail""#))]
    pub measres: &'static str,
    /// [`Comparison::all_match`].
    pub all_match: bool,
}

/// Compares a GPU's evidence with its driver and firmware RIMs.
///
/// # Errors
/// [`CompareError::IndexConflict`] when both RIMs define an active index (or opaque id or
/// name); [`CompareError::UnknownNvdec0Status`] for an `NVDEC0_STATUS` other than
/// `0xAA`/`0x55`.
pub fn compare_gpu(
    driver: &RimDocument,
    firmware: &RimDocument,
    evidence: &RuntimeEvidence,
) -> Result<Comparison, CompareError> {
    if let Some(index) = driver
        .active_measurements()
        .map(|m| m.index)
        .find(|i| firmware.active_measurements().any(|m| m.index == *i))
    {
        return Err(CompareError::IndexConflict { index });
    }
    if let Some(floor) = driver.active_floors().find(|d| {
        firmware
            .active_floors()
            .any(|f| f.id == d.id || f.name == d.name)
    }) {
        return Err(CompareError::IndexConflict {
            index: u32::from(floor.id),
        });
    }
    let nvdec0 = match evidence.nvdec0_status {
        None => Nvdec0Rule::Absent,
        Some(NVDEC0_ENABLED) => Nvdec0Rule::Enabled,
        Some(NVDEC0_DISABLED) => Nvdec0Rule::Disabled,
        Some(value) => return Err(CompareError::UnknownNvdec0Status { value }),
    };

    let mut result = Comparison {
        measurements_match: true,
        mismatches: Vec::new(),
        opaque_mismatches: Vec::new(),
        attester_claims: BTreeMap::new(),
        compared: 0,
        nvdec0,
        driver_version: Some(version_check(driver, evidence.driver_version.as_deref())),
        // GSP evidence reports its VBIOS version; a request's hint never stands in for it.
        firmware_version: version_check(firmware, evidence.vbios_version.as_deref()),
    };
    for (rim, source) in [
        (driver, MeasurementSource::Driver),
        (firmware, MeasurementSource::Firmware),
    ] {
        for golden in sorted_active(rim) {
            if golden.index == NVDEC0_INDEX && nvdec0 == Nvdec0Rule::Disabled {
                continue;
            }
            compare_one(golden, source, evidence, &mut result);
        }
    }
    let floors: Vec<&OpaqueFloor> = driver
        .active_floors()
        .chain(firmware.active_floors())
        .collect();
    compare_floors(&floors, evidence, &mut result);
    Ok(result)
}

/// Compares a switch's evidence with its BIOS RIM.
///
/// # Errors
/// None today; the `Result` keeps the signature parallel to [`compare_gpu`].
pub fn compare_switch(
    firmware: &RimDocument,
    evidence: &RuntimeEvidence,
) -> Result<Comparison, CompareError> {
    Ok(compare_firmware(
        firmware,
        evidence,
        evidence.vbios_version.as_deref(),
    ))
}

/// Compares GPU evidence that has no driver (Blackwell FSP) with its firmware RIM alone.
/// The RIM's version is checked against the request's `firmware_version` hint — the
/// version its id was built from — whatever opaque tags the evidence carries.
///
/// # Errors
/// None today; the `Result` keeps the signature parallel to [`compare_gpu`].
pub fn compare_gpu_firmware(
    firmware: &RimDocument,
    evidence: &RuntimeEvidence,
) -> Result<Comparison, CompareError> {
    Ok(compare_firmware(
        firmware,
        evidence,
        evidence.firmware_version_hint.as_deref(),
    ))
}

fn compare_firmware(
    firmware: &RimDocument,
    evidence: &RuntimeEvidence,
    evidence_version: Option<&str>,
) -> Comparison {
    let mut result = Comparison {
        measurements_match: true,
        mismatches: Vec::new(),
        opaque_mismatches: Vec::new(),
        attester_claims: BTreeMap::new(),
        compared: 0,
        nvdec0: Nvdec0Rule::NotApplicable,
        driver_version: None,
        firmware_version: version_check(firmware, evidence_version),
    };
    for golden in sorted_active(firmware) {
        compare_one(golden, MeasurementSource::Firmware, evidence, &mut result);
    }
    let floors: Vec<&OpaqueFloor> = firmware.active_floors().collect();
    compare_floors(&floors, evidence, &mut result);
    result
}

fn version_check(rim: &RimDocument, evidence_version: Option<&str>) -> VersionCheck {
    let evidence_version = evidence_version.map(|v| v.trim_end_matches('\0'));
    VersionCheck {
        rim_version: rim.meta.colloquial_version.clone(),
        evidence_version: evidence_version.map(ToString::to_string),
        matches: evidence_version == Some(rim.meta.colloquial_version.as_str()),
    }
}

fn sorted_active(rim: &RimDocument) -> Vec<&GoldenMeasurement> {
    // Document order breaks ties (a document built by hand may repeat an index).
    let mut active: Vec<(u32, usize, &GoldenMeasurement)> = rim
        .active_measurements()
        .enumerate()
        .map(|(at, m)| (m.index, at, m))
        .collect();
    sort::sort_by(&mut active, |a, b| (a.0, a.1) < (b.0, b.1));
    active.into_iter().map(|(_, _, m)| m).collect()
}

fn compare_one(
    golden: &GoldenMeasurement,
    source: MeasurementSource,
    evidence: &RuntimeEvidence,
    result: &mut Comparison,
) {
    result.compared = result.compared.saturating_add(1);
    let runtime = golden
        .index
        .checked_add(1)
        .and_then(|i| u8::try_from(i).ok())
        .and_then(|spdm_index| evidence.measurements.get(&spdm_index));
    if let Some(value) = runtime {
        if golden.alternatives.iter().any(|alt| alt == value) {
            return;
        }
    }
    // A mismatch only: a match (nearly every record) costs no hex text.
    let golden_value = golden
        .alternatives
        .first()
        .map(hex::encode)
        .unwrap_or_default();
    let record = match runtime {
        None => MismatchRecord {
            index: golden.index,
            golden_size: golden.size,
            golden_value,
            runtime_size: 0,
            runtime_value: "NA".into(),
            measurement_source: source,
        },
        Some(value) => MismatchRecord {
            index: golden.index,
            golden_size: golden.size,
            golden_value,
            runtime_size: value.len(),
            runtime_value: hex::encode(value),
            measurement_source: source,
        },
    };
    result.measurements_match = false;
    result.mismatches.push(record);
}

fn compare_floors(floors: &[&OpaqueFloor], evidence: &RuntimeEvidence, result: &mut Comparison) {
    for floor in floors {
        let runtime = evidence
            .opaque_value(floor.id)
            .filter(|v| v.value_type == Some(MIN_SVN_VALUE_TYPE))
            .and_then(|v| match v.value.as_slice() {
                [lo, hi] => Some(u64::from(u16::from_le_bytes([*lo, *hi]))),
                _ => None,
            });
        if let (Some(value), true) = (runtime, floor.include_in_result) {
            result.attester_claims.insert(floor.name.clone(), value);
        }
        let met = runtime.is_some_and(|value| value >= floor.min_svn);
        if !met {
            result.measurements_match = false;
            result.opaque_mismatches.push(OpaqueMismatch {
                id: floor.id,
                name: floor.name.clone(),
                golden_type: "MIN_SVN",
                golden_value: floor.min_svn,
                runtime_type: runtime.map(|_| "MIN_SVN"),
                runtime_value: runtime,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rim::RimMeta;

    fn rim(version: &str) -> RimDocument {
        RimDocument {
            name: "GB100".into(),
            tag_id: None,
            version: None,
            meta: RimMeta {
                colloquial_version: version.into(),
                edition: Some("GPU".into()),
                product: None,
                revision: None,
                firmware_manufacturer_id: None,
                platform_model: None,
            },
            measurements: Vec::new(),
            opaque_floors: Vec::new(),
        }
    }

    /// Each path checks the firmware RIM against its own source of the version, whichever
    /// other value the evidence or the request carries.
    #[test]
    fn each_path_checks_its_own_firmware_version() {
        let hint = "01.00.00.00.01";
        let evidence = RuntimeEvidence {
            driver_version: Some("575.32".into()),
            firmware_version_hint: Some(hint.into()),
            ..RuntimeEvidence::default()
        };
        // GSP evidence without a VBIOS version: the request's hint does not stand in for it.
        let gsp = compare_gpu(&rim("575.32"), &rim(hint), &evidence).unwrap();
        assert_eq!(gsp.firmware_version.evidence_version, None);
        assert!(!gsp.firmware_version.matches);

        // FSP evidence carrying a VBIOS tag: its RIM is named by the hint, checked by it.
        let evidence = RuntimeEvidence {
            vbios_version: Some("97.00.88.00.0F".into()),
            ..evidence
        };
        let fsp = compare_gpu_firmware(&rim(hint), &evidence).unwrap();
        assert_eq!(fsp.firmware_version.evidence_version.as_deref(), Some(hint));
        assert!(fsp.all_match());
        assert!(
            !compare_gpu_firmware(&rim("97.00.88.00.0F"), &evidence)
                .unwrap()
                .firmware_version
                .matches
        );
    }
}
