//! The devices of one `evidence` member of the evidence entries' options: a plain transcript
//! with the caller's chain, or the devices of a CMW (NVIDIA's verifier input or a lone
//! transcript record) with the chains, nonce and firmware hints it carries.

use alloc::string::String;
use alloc::vec::Vec;

use super::decode_generation2;
use super::options_error::OptionsError;
use super::DeviceInput;
use crate::attest::decode_evidence_text;
use crate::attest::{EvidenceEncoding, Nonce};
use crate::bytes::{TextOrBytes, BYTES_EXPECTED};
use crate::cmw::{CmwEvidence, CmwForm, CmwLimits, EvidenceForm};
use alloc::string::ToString;

/// One device as read from the options: its transcript, its PEM chain, the form they came
/// in and the firmware-version hint of a CMW.
pub(super) struct DeviceParts {
    pub(super) evidence: Vec<u8>,
    pub(super) pem: String,
    pub(super) form: EvidenceForm,
    pub(super) firmware_version: Option<String>,
}

impl DeviceParts {
    pub(super) fn input(&self) -> DeviceInput<'_> {
        DeviceInput {
            evidence: &self.evidence,
            certificate_pem: &self.pem,
        }
    }
}

/// The devices of one `evidence` member: one transcript with `certificate`, or the devices
/// of a CMW (JSON text or bytes, or CBOR bytes or their text in an evidence encoding; see
/// [`crate::cmw`]). A CMW's nonce must be the options' `nonce`; its chains are its own, so
/// `certificate` is then refused, unless the CMW is a lone transcript record. `prefix` names
/// the device (`devices[0].`).
pub(super) fn device(
    evidence: &Option<TextOrBytes>,
    certificate: &Option<String>,
    prefix: &str,
    encoding: Option<EvidenceEncoding>,
    nonce: &Nonce,
) -> Result<Vec<DeviceParts>, OptionsError> {
    let field = alloc::format!("{prefix}evidence");
    let bytes = match evidence {
        // JSON is never evidence text (hex or base64): `{` and `[` are in neither.
        Some(TextOrBytes::Text(text)) if CmwForm::sniff(text.as_bytes()) == Some(CmwForm::Json) => {
            text.as_bytes().to_vec()
        }
        _ => evidence_bytes(evidence.as_ref(), encoding, &field)?,
    };
    let certificate_field = alloc::format!("{prefix}certificate");
    let chain = |own: Option<String>| match (own, certificate.as_deref()) {
        (Some(pem), None) => Ok(pem),
        (None, Some(text)) => certificate_text(text),
        (Some(_), Some(_)) => Err(OptionsError::invalid(
            &certificate_field,
            "absent: the evidence CMW carries the chain",
        )),
        (None, None) => Err(OptionsError::invalid(&certificate_field, "a string")),
    };
    if CmwForm::sniff(&bytes).is_none() {
        return Ok(alloc::vec![DeviceParts {
            evidence: bytes,
            pem: chain(None)?,
            form: EvidenceForm::Plain,
            firmware_version: None,
        }]);
    }
    let cmw = CmwEvidence::decode(&bytes, CmwLimits::DEFAULT).map_err(OptionsError::Cmw)?;
    cmw.check_nonce(nonce.as_bytes())
        .map_err(OptionsError::Cmw)?;
    let form = EvidenceForm::from(cmw.form);
    cmw.devices
        .into_iter()
        .map(|device| {
            Ok(DeviceParts {
                pem: chain(device.certificate_pem)?,
                evidence: device.evidence,
                form,
                firmware_version: device.firmware_version,
            })
        })
        .collect()
}

/// Evidence bytes as given, or text decoded by the core's one rule ([`decode_evidence_text`]).
pub(super) fn evidence_bytes(
    value: Option<&TextOrBytes>,
    encoding: Option<EvidenceEncoding>,
    field: &str,
) -> Result<Vec<u8>, OptionsError> {
    match value {
        Some(TextOrBytes::Text(text)) => {
            decode_evidence_text(text, encoding, field).map_err(OptionsError::Encoding)
        }
        Some(TextOrBytes::Bytes(bytes)) => Ok(bytes.clone()),
        Some(TextOrBytes::NotBytes) => {
            Err(OptionsError::invalid(field, "an array of bytes (0 to 255)"))
        }
        None => Err(OptionsError::invalid(field, BYTES_EXPECTED)),
    }
}

/// PEM text as given, or decoded from base64 (the request format). The error names
/// `certificate` whichever device it is, as it always has.
pub(super) fn certificate_text(text: &str) -> Result<String, OptionsError> {
    if text.contains("-----BEGIN") {
        return Ok(text.to_string());
    }
    decode_generation2(text)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .ok_or_else(|| OptionsError::invalid("certificate", "PEM text or base64 of PEM text"))
}
