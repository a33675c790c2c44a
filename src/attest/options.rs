//! The options of `buildAttestRequest` as a serde type ([`AttestRequestOptions`]) that builds
//! the request body, and the summary `validateAttestRequest` gives of a valid body
//! ([`RequestSummary`]). JS (serde-wasm-bindgen) and Rust (serde_json) read the same type:
//! the same defaults, the same errors.

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::{
    decode_evidence_text, Arch, AttestRequestBuilder, ClaimsVersion, Endpoint, EvidenceEncoding,
    EvidenceInput, Nonce, RequestBody, RequestError, ValidatedRequest,
};
use crate::evidence::{OptionsError, TextOrBytes, BYTES_EXPECTED};

/// `buildAttestRequest`'s options: `endpoint`, `nonce` (random when absent), `arch`,
/// `claimsVersion`, `evidence` (items of `evidence`, `certificate`, `firmwareVersion`) and
/// `evidenceEncoding`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttestRequestOptions {
    endpoint: Option<String>,
    nonce: Option<String>,
    arch: Option<String>,
    claims_version: Option<String>,
    evidence: Option<Vec<RequestItem>>,
    evidence_encoding: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RequestItem {
    evidence: Option<TextOrBytes>,
    certificate: Option<String>,
    firmware_version: Option<String>,
}

impl AttestRequestOptions {
    /// The body, validated as the service will validate it. `random` gives the nonce when
    /// none is set (the core has no randomness; it is asked only then).
    ///
    /// # Errors
    /// The first member that cannot be used, in the order endpoint, nonce, arch,
    /// claimsVersion, evidence, evidenceEncoding, the items; then the builder's
    /// [`RequestError`].
    pub fn build<E: From<OptionsError>>(
        &self,
        random: impl FnOnce() -> Result<Nonce, E>,
    ) -> Result<RequestBody, E> {
        let invalid = |field: &str, expected: &str| OptionsError::Invalid {
            field: field.into(),
            expected: expected.into(),
        };
        let path = self
            .endpoint
            .as_deref()
            .ok_or_else(|| invalid("endpoint", "a string"))?;
        let endpoint = Endpoint::for_path(path).map_err(OptionsError::Request)?;
        let nonce = match &self.nonce {
            Some(text) => Nonce::parse(text)
                .map_err(|problem| OptionsError::Request(RequestError::InvalidNonce { problem }))?,
            None => random()?,
        };
        let request = |error| OptionsError::Request(error);
        let arch = match &self.arch {
            Some(text) => Some(Arch::parse(text).ok_or_else(|| {
                request(RequestError::InvalidArch {
                    endpoint,
                    value: text.clone(),
                })
            })?),
            None => None,
        };
        let claims_version = match &self.claims_version {
            Some(text) => Some(ClaimsVersion::parse(text).ok_or_else(|| {
                request(RequestError::InvalidClaimsVersion {
                    endpoint,
                    value: text.clone(),
                })
            })?),
            None => None,
        };
        let items = self
            .evidence
            .as_ref()
            .ok_or_else(|| invalid("evidence", "an array"))?;
        let encoding = match &self.evidence_encoding {
            Some(name) => Some(EvidenceEncoding::parse(name).ok_or_else(|| {
                invalid("evidenceEncoding", "\"base64\", \"base64-hex\" or \"hex\"")
            })?),
            None => None,
        };
        let mut owned = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let field = alloc::format!("evidence[{i}].evidence");
            let evidence = match &item.evidence {
                Some(TextOrBytes::Text(text)) => {
                    decode_evidence_text(text, encoding, &field).map_err(OptionsError::Encoding)?
                }
                Some(TextOrBytes::Bytes(bytes)) => bytes.clone(),
                Some(TextOrBytes::NotBytes) => {
                    return Err(invalid(&field, "an array of bytes (0 to 255)").into())
                }
                None => return Err(invalid(&field, BYTES_EXPECTED).into()),
            };
            let certificate = item
                .certificate
                .as_deref()
                .ok_or_else(|| invalid(&alloc::format!("evidence[{i}].certificate"), "a string"))?;
            owned.push((evidence, certificate, item.firmware_version.as_deref()));
        }
        let mut builder = AttestRequestBuilder::new(endpoint, nonce);
        if let Some(arch) = arch {
            builder = builder.arch(arch);
        }
        if let Some(version) = claims_version {
            builder = builder.claims_version(version);
        }
        for (evidence, certificate_pem, firmware_version) in &owned {
            builder = builder.evidence(EvidenceInput {
                evidence,
                certificate_pem,
                firmware_version: *firmware_version,
            });
        }
        Ok(builder.build().map_err(request)?)
    }
}

impl Endpoint {
    /// The endpoint at `path`.
    ///
    /// # Errors
    /// [`RequestError::UnknownEndpoint`] when there is none.
    pub fn for_path(path: &str) -> Result<Self, RequestError> {
        Self::from_path(path).ok_or_else(|| RequestError::UnknownEndpoint { path: path.into() })
    }
}

/// What `validateAttestRequest` reports of a valid body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestSummary {
    /// The endpoint's path.
    pub endpoint: &'static str,
    /// The nonce, hex.
    pub nonce: String,
    /// The architecture (the switch endpoints' default included).
    pub arch: &'static str,
    /// The claims version (the endpoint's default included).
    pub claims_version: &'static str,
    /// Whether the endpoint is deprecated.
    pub deprecated: bool,
    /// The devices, in order.
    pub devices: Vec<DeviceSummary>,
}

/// One device of a [`RequestSummary`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeviceSummary {
    /// `GPU-0`, `SWITCH-1`.
    pub label: String,
    /// Decoded evidence size.
    pub evidence_bytes: usize,
    /// Decoded PEM size.
    pub certificate_bytes: usize,
    /// The firmware version hint, if any.
    pub firmware_version: Option<String>,
}

impl RequestSummary {
    /// The summary of `request`.
    pub fn new(request: &ValidatedRequest) -> Self {
        let endpoint = request.endpoint();
        let kind = endpoint.device_kind().label_prefix();
        Self {
            endpoint: endpoint.path(),
            nonce: request.nonce().to_hex(),
            arch: request.arch().as_str(),
            claims_version: request.claims_version().as_str(),
            deprecated: endpoint.is_deprecated(),
            devices: request
                .devices()
                .iter()
                .enumerate()
                .map(|(i, device)| DeviceSummary {
                    label: alloc::format!("{kind}-{i}"),
                    evidence_bytes: device.evidence().len(),
                    certificate_bytes: device.certificate_pem().len(),
                    firmware_version: device.firmware_version().map(|v| String::from(v.as_str())),
                })
                .collect(),
        }
    }
}
