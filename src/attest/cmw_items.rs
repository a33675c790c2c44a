//! A CMW as the evidence of an attest request (V3, V4): `evidence_list` is then NVIDIA's
//! verifier input instead of the item array, as `collect-evidence-v2` writes it — the JSON
//! collection itself (an object with `__cmwc_t`), or a string holding standard base64 of the
//! CMW in either serialisation (the CBOR form has no JSON spelling). `nonce` and `arch` stay
//! the body's.
//!
//! Each CMW item is one device, in the collection's order, held to the item rules of the
//! array form by the validator: its chain is required (`…certificate`, PEM text), the sizes
//! are the same limits, its `hints.fwversion` is the item's `firmware_version`. The CMW's
//! nonce, when it has one, must be the body's (`ERR_CMW_NONCE_MISMATCH`); its other
//! refusals keep their `ERR_CMW_*` codes, their `field` the member's path inside the CMW.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::error::RequestError;
use super::firmware_version::FirmwareVersion;
use super::nonce::Nonce;
use crate::cmw::{CmwEvidence, CmwLimits, EvidenceForm};

/// One device of a CMW `evidence_list`, before the item limits.
pub(super) struct CmwItem {
    /// The item's path in the body (`evidence_list.gpu_0`).
    pub(super) path: String,
    pub(super) evidence: Vec<u8>,
    pub(super) certificate_pem: Option<String>,
    pub(super) firmware_version: Option<FirmwareVersion>,
}

/// The devices of the CMW `bytes` of member `name`, and the form it came in.
pub(super) fn cmw_items(
    bytes: &[u8],
    name: &str,
    nonce: &Nonce,
) -> Result<(Vec<CmwItem>, EvidenceForm), RequestError> {
    let cmw = CmwEvidence::decode(bytes, CmwLimits::DEFAULT).map_err(RequestError::Cmw)?;
    cmw.check_nonce(nonce.as_bytes())
        .map_err(RequestError::Cmw)?;
    let form = EvidenceForm::from(cmw.form);
    let items = cmw
        .devices
        .into_iter()
        .map(|device| {
            let path = format!("{name}.{}", device.label);
            let firmware_version = device
                .firmware_version
                .map(|text| {
                    FirmwareVersion::parse(&text).ok_or(RequestError::InvalidFirmwareVersion {
                        field: format!("{path}.hints"),
                    })
                })
                .transpose()?;
            Ok(CmwItem {
                path,
                evidence: device.evidence,
                certificate_pem: device.certificate_pem,
                firmware_version,
            })
        })
        .collect::<Result<Vec<_>, RequestError>>()?;
    Ok((items, form))
}
