//! Request validation, exactly as the service applies it before verifying anything.
//!
//! Decisions where the spec says "not shown" (§2 gaps, §8):
//! - Required members: `nonce`; `arch` except on Switch V2; the evidence member of the
//!   endpoint's generation; each item's `evidence` and `certificate`. `claims_version` is
//!   optional on V4 (default 3.0) and, on V1–V3, accepted only when it names the endpoint's
//!   own fixed version, so that a caller never silently gets another version than it asked.
//! - Members of another generation (`evidences` on V4, `evidence_list` on V2, `evidence` or
//!   `certificate` at the top level of a list request, `arch` on Switch V2) are refused
//!   with [`RequestError::UnexpectedField`]; other unknown members are ignored, as the real
//!   service ignores the extra `arch`/`nonce` members real clients put in items.
//! - Base64 is the standard alphabet (RFC 4648 §4); padding may be omitted; whitespace and
//!   the URL-safe alphabet are refused.
//! - Generation-1 evidence: the decoded text is hexadecimal; surrounding ASCII whitespace
//!   (the SDK files end in a newline) is trimmed.
//! - Limits, all checked before decoding: [`MAX_BODY_BYTES`], [`MAX_EVIDENCE_ITEMS`],
//!   [`MAX_EVIDENCE_BYTES`], [`MAX_CERTIFICATE_BYTES`].

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::{alphabet, Engine};
use serde_json::{Map, Value};

use super::encoding::decode_evidence_text;
use super::endpoint::{Arch, ClaimsVersion, Endpoint, EvidenceGeneration};
use super::error::RequestError;
use super::firmware_version::FirmwareVersion;
use super::nonce::Nonce;
use crate::cmw::EvidenceForm;
use crate::json;

/// Largest accepted request body: 2 MiB. A real 8-GPU request is 98 KB; 64 items of the
/// largest real evidence and chain stay under 1.1 MB.
pub const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;
/// Most evidence items in one request: 64 (an 8-GPU node needs 8; the largest NVLink
/// domains attest per tray).
pub const MAX_EVIDENCE_ITEMS: usize = 64;
/// Largest decoded evidence: 64 KiB (real GET_MEASUREMENTS transcripts are 2–5 KiB).
pub const MAX_EVIDENCE_BYTES: usize = 64 * 1024;
/// Largest decoded certificate chain text: 64 KiB (real five-certificate chains are ~5 KiB).
pub const MAX_CERTIFICATE_BYTES: usize = 64 * 1024;

/// The PEM boundary every certificate chain must contain (RFC 7468 §2).
const PEM_CERTIFICATE_LABEL: &str = "-----BEGIN CERTIFICATE-----";

/// Standard base64, padding optional: clients differ, and the padding carries no data.
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// A request that passed validation: the nonce parsed, the claims version resolved and every
/// item decoded. Only [`validate_request`] builds one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidatedRequest {
    endpoint: Endpoint,
    nonce: Nonce,
    arch: Arch,
    claims_version: ClaimsVersion,
    devices: Vec<DeviceEvidence>,
    evidence_form: EvidenceForm,
}

impl ValidatedRequest {
    /// The endpoint the body was validated for.
    pub fn endpoint(&self) -> Endpoint {
        self.endpoint
    }

    /// The caller's nonce.
    pub fn nonce(&self) -> &Nonce {
        &self.nonce
    }

    /// The architecture; `LS10` on Switch V2, whose body has no `arch`.
    pub fn arch(&self) -> Arch {
        self.arch
    }

    /// The claims version to issue: the requested one, or the endpoint's default.
    pub fn claims_version(&self) -> ClaimsVersion {
        self.claims_version
    }

    /// The devices in request order; device `i` gets the label `GPU-i` or `SWITCH-i`.
    pub fn devices(&self) -> &[DeviceEvidence] {
        &self.devices
    }

    /// The form the evidence came in: `plain` items, or a JSON or CBOR CMW.
    pub fn evidence_form(&self) -> EvidenceForm {
        self.evidence_form
    }
}

/// One device's decoded evidence and certificate chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceEvidence {
    evidence: Vec<u8>,
    certificate_pem: String,
    firmware_version: Option<FirmwareVersion>,
}

impl DeviceEvidence {
    /// The raw SPDM GET_MEASUREMENTS transcript bytes.
    pub fn evidence(&self) -> &[u8] {
        &self.evidence
    }

    /// The certificate chain as PEM text, leaf first.
    pub fn certificate_pem(&self) -> &str {
        &self.certificate_pem
    }

    /// The optional firmware version hint (generation-2 items only).
    pub fn firmware_version(&self) -> Option<&FirmwareVersion> {
        self.firmware_version.as_ref()
    }
}

/// Validates a request body for `endpoint`.
///
/// # Errors
/// The first [`RequestError`] found, checked in this order: size, JSON, members of the
/// body in the order nonce, arch, claims_version, evidence; then each item in order.
pub fn validate_request(endpoint: Endpoint, body: &[u8]) -> Result<ValidatedRequest, RequestError> {
    if body.len() > MAX_BODY_BYTES {
        return Err(RequestError::BodyTooLarge {
            limit: MAX_BODY_BYTES,
            size: body.len(),
        });
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(RequestError::EmptyBody);
    }
    let value = json::parse(body)?;
    let Value::Object(members) = value else {
        return Err(RequestError::NotAnObject { field: "$".into() });
    };

    refuse_other_generations(endpoint, &members)?;
    let nonce = required_str(&members, "nonce", "nonce")?;
    let nonce = Nonce::parse(nonce).map_err(|problem| RequestError::InvalidNonce { problem })?;
    let arch = arch(endpoint, &members)?;
    let claims_version = claims_version(endpoint, &members)?;

    let mut evidence_form = EvidenceForm::Plain;
    let devices = if endpoint.version() == 1 {
        let evidence = required_str(&members, "evidence", "evidence")?;
        let certificate = required_str(&members, "certificate", "certificate")?;
        Vec::from([DeviceEvidence {
            evidence: decode_evidence(EvidenceGeneration::Gen1, evidence, "evidence")?,
            certificate_pem: decode_certificate(certificate, "certificate")?,
            firmware_version: None,
        }])
    } else {
        let (devices, form) = items(endpoint, &members, &nonce)?;
        evidence_form = form;
        devices
    };

    Ok(ValidatedRequest {
        endpoint,
        nonce,
        arch,
        claims_version,
        devices,
        evidence_form,
    })
}

fn refuse_other_generations(
    endpoint: Endpoint,
    members: &Map<String, Value>,
) -> Result<(), RequestError> {
    let foreign: &[&str] = match endpoint.version() {
        1 => &["evidences", "evidence_list"],
        2 => &["evidence", "certificate", "evidence_list"],
        _ => &["evidence", "certificate", "evidences"],
    };
    let no_arch: &[&str] = if endpoint.has_arch() { &[] } else { &["arch"] };
    match foreign
        .iter()
        .chain(no_arch)
        .find(|name| members.contains_key(**name))
    {
        Some(name) => Err(RequestError::UnexpectedField {
            field: (*name).into(),
        }),
        None => Ok(()),
    }
}

fn arch(endpoint: Endpoint, members: &Map<String, Value>) -> Result<Arch, RequestError> {
    if !endpoint.has_arch() {
        return Ok(Arch::Ls10);
    }
    let value = required_str(members, "arch", "arch")?;
    Arch::parse(value)
        .filter(|arch| endpoint.arches().contains(arch))
        .ok_or_else(|| RequestError::InvalidArch {
            endpoint,
            value: value.into(),
        })
}

fn claims_version(
    endpoint: Endpoint,
    members: &Map<String, Value>,
) -> Result<ClaimsVersion, RequestError> {
    let Some(value) = optional_str(members, "claims_version", "claims_version")? else {
        return Ok(endpoint.default_claims_version());
    };
    let selectable = endpoint.selectable_claims_versions();
    let accepted = ClaimsVersion::parse(value).filter(|version| {
        selectable.contains(version)
            || (selectable.is_empty() && *version == endpoint.default_claims_version())
    });
    accepted.ok_or_else(|| RequestError::InvalidClaimsVersion {
        endpoint,
        value: value.into(),
    })
}

fn items(
    endpoint: Endpoint,
    members: &Map<String, Value>,
    #[cfg_attr(not(feature = "cmw"), allow(unused_variables))] nonce: &Nonce,
) -> Result<(Vec<DeviceEvidence>, EvidenceForm), RequestError> {
    let name = endpoint.evidence_field();
    let list = match members.get(name) {
        None | Some(Value::Null) => return Err(RequestError::MissingField { field: name.into() }),
        Some(Value::Array(list)) => list,
        // NVIDIA's verifier input in place of the items (generation 2 only).
        #[cfg(feature = "cmw")]
        Some(value @ (Value::Object(_) | Value::String(_)))
            if endpoint.evidence_generation() == EvidenceGeneration::Gen2
                && value
                    .as_object()
                    .is_none_or(|o| o.contains_key(crate::cmw::COLLECTION_TYPE_LABEL)) =>
        {
            return cmw_devices(value, name, nonce);
        }
        Some(_) => {
            return Err(RequestError::WrongType {
                field: name.into(),
                expected: "array",
            })
        }
    };
    if list.is_empty() {
        return Err(RequestError::EmptyEvidenceList { field: name.into() });
    }
    if list.len() > MAX_EVIDENCE_ITEMS {
        return Err(RequestError::TooManyEvidenceItems {
            field: name.into(),
            count: list.len(),
            limit: MAX_EVIDENCE_ITEMS,
        });
    }
    let generation = endpoint.evidence_generation();
    list.iter()
        .enumerate()
        .map(|(i, item)| {
            let path = format!("{name}[{i}]");
            let Value::Object(item) = item else {
                return Err(RequestError::NotAnObject { field: path });
            };
            let evidence_path = format!("{path}.evidence");
            let certificate_path = format!("{path}.certificate");
            let evidence = required_str(item, "evidence", &evidence_path)?;
            let certificate = required_str(item, "certificate", &certificate_path)?;
            let evidence = decode_evidence(generation, evidence, &evidence_path)?;
            let certificate_pem = decode_certificate(certificate, &certificate_path)?;
            let firmware_version = match generation {
                EvidenceGeneration::Gen1 => None,
                EvidenceGeneration::Gen2 => firmware_version(item, &path)?,
            };
            Ok(DeviceEvidence {
                evidence,
                certificate_pem,
                firmware_version,
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(|devices| (devices, EvidenceForm::Plain))
}

/// The devices of a CMW `evidence_list` (see `cmw_items`), each held to the item limits.
#[cfg(feature = "cmw")]
fn cmw_devices(
    value: &Value,
    name: &str,
    nonce: &Nonce,
) -> Result<(Vec<DeviceEvidence>, EvidenceForm), RequestError> {
    let bytes = match value {
        Value::String(text) => decode_base64(text, name, MAX_BODY_BYTES, MAX_BODY_BYTES)?,
        other => serde_json::to_vec(other).map_err(|_| RequestError::WrongType {
            field: name.into(),
            expected: "array",
        })?,
    };
    let (items, form) = super::cmw_items::cmw_items(&bytes, name, nonce)?;
    if items.len() > MAX_EVIDENCE_ITEMS {
        return Err(RequestError::TooManyEvidenceItems {
            field: name.into(),
            count: items.len(),
            limit: MAX_EVIDENCE_ITEMS,
        });
    }
    let devices = items
        .into_iter()
        .map(|item| {
            if item.evidence.len() > MAX_EVIDENCE_BYTES {
                return Err(RequestError::ItemTooLarge {
                    field: format!("{}.evidence", item.path),
                    limit: MAX_EVIDENCE_BYTES,
                });
            }
            let field = format!("{}.certificate", item.path);
            let pem = item
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
            Ok(DeviceEvidence {
                evidence: item.evidence,
                certificate_pem: pem,
                firmware_version: item.firmware_version,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((devices, form))
}

fn firmware_version(
    item: &Map<String, Value>,
    path: &str,
) -> Result<Option<FirmwareVersion>, RequestError> {
    let field = format!("{path}.firmware_version");
    let Some(text) = optional_str(item, "firmware_version", &field)? else {
        return Ok(None);
    };
    FirmwareVersion::parse(text)
        .map(Some)
        .ok_or(RequestError::InvalidFirmwareVersion { field })
}

fn decode_evidence(
    generation: EvidenceGeneration,
    text: &str,
    field: &str,
) -> Result<Vec<u8>, RequestError> {
    // Generation 1 carries hex text: two characters per byte, plus a trailing newline at most.
    let limit = match generation {
        EvidenceGeneration::Gen1 => MAX_EVIDENCE_BYTES * 2 + 2,
        EvidenceGeneration::Gen2 => MAX_EVIDENCE_BYTES,
    };
    if text.len() > limit.div_ceil(3) * 4 {
        return Err(RequestError::ItemTooLarge {
            field: field.into(),
            limit: MAX_EVIDENCE_BYTES,
        });
    }
    // The field's encoding is fixed (spec §2): text in another is named as such; text in
    // none keeps the codes it always had.
    let bytes = decode_evidence_text(text, Some(generation.encoding()), field).map_err(
        |error| match error.found {
            Some(found) if found != generation.encoding() => RequestError::EvidenceEncoding(error),
            _ if BASE64.decode(text).is_err() => RequestError::InvalidBase64 {
                field: field.into(),
            },
            _ => RequestError::InvalidEvidenceHex {
                field: field.into(),
            },
        },
    )?;
    if bytes.len() > MAX_EVIDENCE_BYTES {
        return Err(RequestError::ItemTooLarge {
            field: field.into(),
            limit: MAX_EVIDENCE_BYTES,
        });
    }
    Ok(bytes)
}

fn decode_certificate(text: &str, field: &str) -> Result<String, RequestError> {
    let decoded = decode_base64(text, field, MAX_CERTIFICATE_BYTES, MAX_CERTIFICATE_BYTES)?;
    let pem = String::from_utf8(decoded).map_err(|_| RequestError::InvalidCertificateText {
        field: field.into(),
    })?;
    if !pem.contains(PEM_CERTIFICATE_LABEL) {
        return Err(RequestError::InvalidCertificateText {
            field: field.into(),
        });
    }
    Ok(pem)
}

/// Decodes standard base64 after checking, from the encoded length alone, that the result
/// fits `limit` bytes — so an oversize member costs no decoding work.
fn decode_base64(
    text: &str,
    field: &str,
    limit: usize,
    reported_limit: usize,
) -> Result<Vec<u8>, RequestError> {
    let max_encoded = limit.div_ceil(3) * 4;
    if text.len() > max_encoded {
        return Err(RequestError::ItemTooLarge {
            field: field.into(),
            limit: reported_limit,
        });
    }
    BASE64
        .decode(text)
        .map_err(|_| RequestError::InvalidBase64 {
            field: field.into(),
        })
}

fn required_str<'v>(
    members: &'v Map<String, Value>,
    name: &str,
    field: &str,
) -> Result<&'v str, RequestError> {
    optional_str(members, name, field)?.ok_or_else(|| RequestError::MissingField {
        field: field.into(),
    })
}

/// A string member; an explicit `null` counts as absent, as in most JSON APIs.
fn optional_str<'v>(
    members: &'v Map<String, Value>,
    name: &str,
    field: &str,
) -> Result<Option<&'v str>, RequestError> {
    match members.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(RequestError::WrongType {
            field: field.to_string(),
            expected: "string",
        }),
    }
}
