//! A CMW as the evidence of an attest request (V3, V4): `evidence_list` is then NVIDIA's
//! verifier input instead of the item array, as `collect-evidence-v2` writes it — the JSON
//! collection itself (an object), or a string holding standard base64 of the CMW in either
//! serialisation (the CBOR form has no JSON spelling). `nonce` and `arch` stay the body's.
//!
//! Each CMW item is one device, in the collection's order, held to the item rules of the
//! array form: its chain is required (`…certificate`, PEM text), the sizes are the same
//! limits, its `hints.fwversion` is the item's `firmware_version`. The CMW's nonce, when it
//! has one, must be the body's (`ERR_CMW_NONCE_MISMATCH`); its other refusals keep their
//! `ERR_CMW_*` codes, their `field` the member's path inside the CMW.

use alloc::format;
use alloc::vec::Vec;

use base64::Engine;
use serde_json::Value;

use super::error::RequestError;
use super::firmware_version::FirmwareVersion;
use super::nonce::Nonce;
use super::validate::{
    DeviceEvidence, BASE64, MAX_CERTIFICATE_BYTES, MAX_EVIDENCE_BYTES, MAX_EVIDENCE_ITEMS,
    PEM_CERTIFICATE_LABEL,
};
use crate::cmw::{CmwEvidence, CmwLimits, EvidenceForm};

/// The devices of a CMW `evidence_list` (`name`), and the form it came in.
pub(super) fn cmw_items(
    value: &Value,
    name: &str,
    nonce: &Nonce,
) -> Result<(Vec<DeviceEvidence>, EvidenceForm), RequestError> {
    let bytes = match value {
        Value::String(text) => BASE64
            .decode(text)
            .map_err(|_| RequestError::InvalidBase64 { field: name.into() })?,
        other => serde_json::to_vec(other).map_err(|_| RequestError::WrongType {
            field: name.into(),
            expected: "array",
        })?,
    };
    let cmw = CmwEvidence::decode(&bytes, CmwLimits::DEFAULT).map_err(RequestError::Cmw)?;
    cmw.check_nonce(nonce.as_bytes())
        .map_err(RequestError::Cmw)?;
    if cmw.devices.len() > MAX_EVIDENCE_ITEMS {
        return Err(RequestError::TooManyEvidenceItems {
            field: name.into(),
            count: cmw.devices.len(),
            limit: MAX_EVIDENCE_ITEMS,
        });
    }
    let form = EvidenceForm::from(cmw.form);
    let devices = cmw
        .devices
        .into_iter()
        .map(|device| {
            let path = format!("{name}.{}", device.label);
            if device.evidence.len() > MAX_EVIDENCE_BYTES {
                return Err(RequestError::ItemTooLarge {
                    field: format!("{path}.evidence"),
                    limit: MAX_EVIDENCE_BYTES,
                });
            }
            let field = format!("{path}.certificate");
            let pem = device
                .certificate_pem
                .ok_or_else(|| RequestError::MissingField {
                    field: field.clone(),
                })?;
            if pem.len() > MAX_CERTIFICATE_BYTES {
                return Err(RequestError::ItemTooLarge {
                    field,
                    limit: MAX_CERTIFICATE_BYTES,
                });
            }
            if !pem.contains(PEM_CERTIFICATE_LABEL) {
                return Err(RequestError::InvalidCertificateText { field });
            }
            let firmware_version = device
                .firmware_version
                .map(|text| {
                    FirmwareVersion::parse(&text).ok_or(RequestError::InvalidFirmwareVersion {
                        field: format!("{path}.hints"),
                    })
                })
                .transpose()?;
            Ok(DeviceEvidence {
                evidence: device.evidence,
                certificate_pem: pem,
                firmware_version,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((devices, form))
}
