//! A parsed transcript's values as the RIM ids and the comparison read them
//! ([`RuntimeEvidence`], defined with the RIMs, which know no transcript).

use alloc::string::String;

use super::{tag, Transcript};
use crate::attest::DeviceKind;
use crate::rim::{apsku_from_block, OpaqueValue, RuntimeEvidence};

/// SPDM block of the Blackwell FSP device identifiers (holds `APSKU`).
const FSP_IDENTIFIER_BLOCK: u8 = 52;

impl RuntimeEvidence {
    /// The values of a parsed transcript (the table of `RuntimeEvidence`'s module documentation). `hwmodel`
    /// is the chip name the device certificate gives (`GB100`), `firmware_version_hint` the
    /// request's `firmware_version`; the transcript's signature is not checked here.
    pub fn from_transcript(
        transcript: &Transcript,
        kind: DeviceKind,
        hwmodel: Option<String>,
        firmware_version_hint: Option<String>,
    ) -> Self {
        let opaque = &transcript.response.opaque;
        let text = |t: u16| opaque.text(t).ok().flatten();
        Self {
            measurements: transcript
                .response
                .blocks
                .iter()
                .map(|b| (b.index, b.value.clone()))
                .collect(),
            driver_version: opaque.driver_version().ok().flatten(),
            vbios_version: opaque.vbios_version(kind).ok().flatten(),
            project: text(tag::PROJECT),
            project_sku: text(tag::PROJECT_SKU),
            chip_sku: text(tag::CHIP_SKU),
            chip_info: text(tag::CHIP_INFO),
            nvdec0_status: opaque
                .get(tag::NVDEC0_STATUS)
                .and_then(|e| e.value.first().copied()),
            opaque: opaque
                .entries()
                .iter()
                .map(|e| OpaqueValue {
                    id: e.tag,
                    value_type: e.value_type,
                    value: e.value.clone(),
                })
                .collect(),
            hwmodel,
            apsku: transcript
                .block(FSP_IDENTIFIER_BLOCK)
                .and_then(|b| apsku_from_block(&b.value)),
            firmware_version_hint,
        }
    }
}
