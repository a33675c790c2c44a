//! Building attest request bodies from raw evidence bytes and PEM chain text.

use alloc::string::String;
use alloc::vec::Vec;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

use super::arch::DeviceKind;
use super::body::{EvidenceItem, EvidenceItemV2, RequestBody};
use super::endpoint::{Arch, ClaimsVersion, Endpoint, EvidenceGeneration};
use super::error::RequestError;
use super::nonce::Nonce;
use super::validate::validate_request;

/// One device's evidence as the host has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvidenceInput<'a> {
    /// The raw SPDM GET_MEASUREMENTS transcript.
    pub evidence: &'a [u8],
    /// The certificate chain as PEM text, leaf first.
    pub certificate_pem: &'a str,
    /// Optional firmware version hint (V3/V4 only; refused elsewhere).
    pub firmware_version: Option<&'a str>,
}

/// Builds the body for one endpoint, encoding each item the way that generation expects
/// (spec §2): generation 2 is base64 of the raw bytes, generation 1 base64 of the
/// lowercase hex text, and every `certificate` base64 of the PEM text.
///
/// [`AttestRequestBuilder::build`] validates its own output with [`validate_request`], so a
/// built body is always one the service accepts.
#[derive(Clone, Debug)]
pub struct AttestRequestBuilder<'a> {
    endpoint: Endpoint,
    nonce: Nonce,
    arch: Option<Arch>,
    claims_version: Option<ClaimsVersion>,
    items: Vec<EvidenceInput<'a>>,
}

impl<'a> AttestRequestBuilder<'a> {
    /// Starts a body for `endpoint` with the caller's nonce.
    pub fn new(endpoint: Endpoint, nonce: Nonce) -> Self {
        Self {
            endpoint,
            nonce,
            arch: None,
            claims_version: None,
            items: Vec::new(),
        }
    }

    /// Sets `arch`. Switch endpoints default to `LS10`; GPU endpoints require it.
    pub fn arch(mut self, arch: Arch) -> Self {
        self.arch = Some(arch);
        self
    }

    /// Sets `claims_version` (V4); omitted means the endpoint's default.
    pub fn claims_version(mut self, version: ClaimsVersion) -> Self {
        self.claims_version = Some(version);
        self
    }

    /// Adds one device. V1 takes exactly one.
    pub fn evidence(mut self, item: EvidenceInput<'a>) -> Self {
        self.items.push(item);
        self
    }

    /// Encodes and validates the body.
    ///
    /// # Errors
    /// The [`RequestError`] that the service would answer for this body: a GPU endpoint
    /// without `arch`, an `arch` or claims version the endpoint does not take, no items, more
    /// than one item on V1, a firmware version on a generation-1 endpoint, oversize items.
    pub fn build(self) -> Result<RequestBody, RequestError> {
        let endpoint = self.endpoint;
        let nonce = self.nonce.to_hex();
        let arch = match (self.arch, endpoint.device_kind()) {
            (Some(arch), _) => Some(arch),
            (None, DeviceKind::Switch) if endpoint.has_arch() => Some(Arch::Ls10),
            (None, DeviceKind::Switch) => None,
            (None, _) => {
                return Err(RequestError::MissingField {
                    field: "arch".into(),
                })
            }
        };
        if !endpoint.has_arch() && arch.is_some_and(|arch| arch != Arch::Ls10) {
            return Err(RequestError::UnexpectedField {
                field: "arch".into(),
            });
        }
        let arch_text = arch.map(|arch| String::from(arch.as_str()));
        let claims_version = self
            .claims_version
            .map(|version| String::from(version.as_str()));
        let field = endpoint.evidence_field();

        let body = match endpoint.evidence_generation() {
            EvidenceGeneration::Gen1 => {
                self.refuse_firmware_versions(field)?;
                if endpoint.version() == 1 {
                    let [item] = self.items.as_slice() else {
                        return Err(match self.items.len() {
                            0 => RequestError::MissingField {
                                field: "evidence".into(),
                            },
                            count => RequestError::TooManyEvidenceItems {
                                field: "evidence".into(),
                                count,
                                limit: 1,
                            },
                        });
                    };
                    RequestBody::GpuV1 {
                        nonce,
                        arch: arch_text.unwrap_or_default(),
                        evidence: STANDARD.encode(hex::encode(item.evidence)),
                        certificate: STANDARD.encode(item.certificate_pem),
                    }
                } else {
                    let evidences = self
                        .items
                        .iter()
                        .map(|item| EvidenceItem {
                            evidence: STANDARD.encode(hex::encode(item.evidence)),
                            certificate: STANDARD.encode(item.certificate_pem),
                        })
                        .collect();
                    RequestBody::V2 {
                        nonce,
                        arch: arch_text.filter(|_| endpoint.has_arch()),
                        evidences,
                    }
                }
            }
            EvidenceGeneration::Gen2 => RequestBody::List {
                nonce,
                arch: arch_text.unwrap_or_default(),
                evidence_list: self
                    .items
                    .iter()
                    .map(|item| EvidenceItemV2 {
                        evidence: STANDARD.encode(item.evidence),
                        certificate: STANDARD.encode(item.certificate_pem),
                        firmware_version: item.firmware_version.map(String::from),
                    })
                    .collect(),
                claims_version,
            },
        };
        // V1 and V2 bodies have no claims_version member: only their fixed version is valid.
        if let (RequestBody::GpuV1 { .. } | RequestBody::V2 { .. }, Some(version)) =
            (&body, self.claims_version)
        {
            if version != endpoint.default_claims_version() {
                return Err(RequestError::InvalidClaimsVersion {
                    endpoint,
                    value: version.as_str().into(),
                });
            }
        }
        validate_request(endpoint, body.to_json().as_bytes())?;
        Ok(body)
    }

    fn refuse_firmware_versions(&self, field: &str) -> Result<(), RequestError> {
        match self
            .items
            .iter()
            .position(|item| item.firmware_version.is_some())
        {
            Some(i) => Err(RequestError::UnexpectedField {
                field: alloc::format!("{field}[{i}].firmware_version"),
            }),
            None => Ok(()),
        }
    }
}
