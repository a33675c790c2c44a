//! Runtime evidence and RIM comparisons between the WIT records and the core's own types
//! ([`RuntimeEvidence`], [`Comparison`]): member for member, nothing decided here.

use alloc::string::String;
use alloc::vec::Vec;

use super::exports::edgeattest::verifier::rim::{
    Measres, MeasurementSource as WitSource, MismatchRecord, Nvdec0Rule as WitNvdec0,
    OpaqueMismatch, OpaqueValue as WitOpaque, RimComparison, RuntimeEvidence as WitRuntime,
    VersionCheck as WitVersion,
};
use super::{at_most, invalid, WitError};
use crate::rim::{
    Comparison, MeasurementSource, Nvdec0Rule, OpaqueValue, RuntimeEvidence, VersionCheck,
};

/// SPDM has at most 255 measurement blocks; a transcript's opaque data as many entries.
const MAX_ENTRIES: usize = 255;

/// The WIT record as the core's values; block index 0 is refused as the JS API refuses it
/// (SPDM indices are 1 to 255).
pub(super) fn runtime_in(evidence: WitRuntime) -> Result<RuntimeEvidence, WitError> {
    at_most(&evidence.measurements, MAX_ENTRIES, "evidence.measurements")?;
    at_most(&evidence.opaque, MAX_ENTRIES, "evidence.opaque")?;
    if evidence.measurements.iter().any(|(index, _)| *index == 0) {
        return Err(invalid(
            "evidence.measurements",
            "keyed by an SPDM index 1 to 255",
        ));
    }
    Ok(RuntimeEvidence {
        measurements: evidence.measurements.into_iter().collect(),
        driver_version: evidence.driver_version,
        vbios_version: evidence.vbios_version,
        project: evidence.project,
        project_sku: evidence.project_sku,
        chip_sku: evidence.chip_sku,
        chip_info: evidence.chip_info,
        nvdec0_status: evidence.nvdec0_status,
        opaque: evidence
            .opaque
            .into_iter()
            .map(|o| OpaqueValue {
                id: o.id,
                value_type: o.value_type,
                value: o.value,
            })
            .collect(),
        hwmodel: evidence.hwmodel,
        apsku: evidence.apsku,
        firmware_version_hint: evidence.firmware_version_hint,
    })
}

/// The core's values as the WIT record.
pub(super) fn runtime_out(evidence: RuntimeEvidence) -> WitRuntime {
    WitRuntime {
        measurements: evidence.measurements.into_iter().collect(),
        driver_version: evidence.driver_version,
        vbios_version: evidence.vbios_version,
        project: evidence.project,
        project_sku: evidence.project_sku,
        chip_sku: evidence.chip_sku,
        chip_info: evidence.chip_info,
        nvdec0_status: evidence.nvdec0_status,
        opaque: evidence
            .opaque
            .into_iter()
            .map(|o| WitOpaque {
                id: o.id,
                value_type: o.value_type,
                value: o.value,
            })
            .collect(),
        hwmodel: evidence.hwmodel,
        apsku: evidence.apsku,
        firmware_version_hint: evidence.firmware_version_hint,
    }
}

/// A comparison as the WIT record, its verdicts (`measres`, `all-match`) the core's.
pub(super) fn comparison_out(comparison: &Comparison) -> RimComparison {
    let report = comparison.report();
    RimComparison {
        measres: if report.measres == "success" {
            Measres::Success
        } else {
            Measres::Fail
        },
        measurements_match: comparison.measurements_match,
        all_match: report.all_match,
        mismatches: comparison
            .mismatches
            .iter()
            .map(|m| MismatchRecord {
                index: m.index,
                golden_size: size(m.golden_size),
                golden_value: m.golden_value.clone(),
                runtime_size: size(m.runtime_size),
                runtime_value: m.runtime_value.clone(),
                measurement_source: match m.measurement_source {
                    MeasurementSource::Driver => WitSource::Driver,
                    MeasurementSource::Firmware => WitSource::Firmware,
                },
            })
            .collect(),
        opaque_mismatches: comparison
            .opaque_mismatches
            .iter()
            .map(|m| OpaqueMismatch {
                id: m.id,
                name: m.name.clone(),
                golden_type: m.golden_type.into(),
                golden_value: m.golden_value,
                runtime_type: m.runtime_type.map(Into::into),
                runtime_value: m.runtime_value,
            })
            .collect(),
        attester_claims: comparison
            .attester_claims
            .iter()
            .map(|(name, value)| (name.clone(), *value))
            .collect::<Vec<(String, u64)>>(),
        compared: size(comparison.compared),
        nvdec0: match comparison.nvdec0 {
            Nvdec0Rule::Enabled => WitNvdec0::Enabled,
            Nvdec0Rule::Disabled => WitNvdec0::Disabled,
            Nvdec0Rule::Absent => WitNvdec0::Absent,
            Nvdec0Rule::NotApplicable => WitNvdec0::NotApplicable,
        },
        driver_version: comparison.driver_version.as_ref().map(version),
        firmware_version: version(&comparison.firmware_version),
    }
}

fn version(check: &VersionCheck) -> WitVersion {
    WitVersion {
        rim_version: check.rim_version.clone(),
        evidence_version: check.evidence_version.clone(),
        matches: check.matches,
    }
}

/// Sizes and counts bounded by the core's limits (MAX_MEASUREMENT_SIZE, MAX_RIM_BYTES).
fn size(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
