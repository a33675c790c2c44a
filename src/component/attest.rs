//! `edgeattest:verifier/attest`: request bodies built by the core's [`AttestRequestBuilder`]
//! (the JS `buildAttestRequest`, its checks in the same order) and validated as the service
//! validates them. The nonce is the host's: no randomness here.

use alloc::string::String;
use alloc::vec::Vec;

use super::exports::edgeattest::verifier::attest::{
    AttestRequestOptions, Guest, ValidatedAttestRequest, ValidatedDevice,
};
use super::exports::edgeattest::verifier::types::Document;
use super::{at_most, coded, invalid, Verifier, WitError};
use crate::attest::{
    decode_evidence_text, validate_request, Arch, AttestRequestBuilder, ClaimsVersion, Endpoint,
    EvidenceEncoding, EvidenceInput, Nonce, RequestError, RequestSummary, MAX_EVIDENCE_ITEMS,
};

impl Guest for Verifier {
    fn build_attest_request(options: AttestRequestOptions) -> Result<String, WitError> {
        at_most(&options.evidence, MAX_EVIDENCE_ITEMS, "evidence")?;
        let endpoint = Endpoint::for_path(&options.endpoint).map_err(|e| coded(&e))?;
        let nonce = Nonce::parse(&options.nonce)
            .map_err(|problem| coded(&RequestError::InvalidNonce { problem }))?;
        let arch = match options.arch {
            Some(value) => Some(
                Arch::parse(&value)
                    .ok_or_else(|| coded(&RequestError::InvalidArch { endpoint, value }))?,
            ),
            None => None,
        };
        let claims_version =
            match options.claims_version {
                Some(value) => Some(ClaimsVersion::parse(&value).ok_or_else(|| {
                    coded(&RequestError::InvalidClaimsVersion { endpoint, value })
                })?),
                None => None,
            };
        let encoding = match options.evidence_encoding.as_deref() {
            Some(name) => Some(EvidenceEncoding::parse(name).ok_or_else(|| {
                invalid("evidenceEncoding", "\"base64\", \"base64-hex\" or \"hex\"")
            })?),
            None => None,
        };
        let mut evidence = Vec::with_capacity(options.evidence.len());
        for (i, item) in options.evidence.iter().enumerate() {
            evidence.push(match &item.evidence {
                Document::Text(text) => {
                    let field = alloc::format!("evidence[{i}].evidence");
                    decode_evidence_text(text, encoding, &field).map_err(|e| coded(&e))?
                }
                Document::Bytes(bytes) => bytes.clone(),
            });
        }
        let mut builder = AttestRequestBuilder::new(endpoint, nonce);
        if let Some(arch) = arch {
            builder = builder.arch(arch);
        }
        if let Some(version) = claims_version {
            builder = builder.claims_version(version);
        }
        for (item, bytes) in options.evidence.iter().zip(&evidence) {
            builder = builder.evidence(EvidenceInput {
                evidence: bytes,
                certificate_pem: &item.certificate,
                firmware_version: item.firmware_version.as_deref(),
            });
        }
        Ok(builder.build().map_err(|e| coded(&e))?.to_json())
    }

    fn nonce_from_bytes(random: Vec<u8>) -> Result<String, WitError> {
        let bytes = <[u8; Nonce::LEN]>::try_from(random.as_slice())
            .map_err(|_| invalid("random", "32 bytes"))?;
        Ok(Nonce::from_bytes(bytes).to_hex())
    }

    fn validate_attest_request(
        endpoint: String,
        body: Vec<u8>,
    ) -> Result<ValidatedAttestRequest, WitError> {
        let endpoint = Endpoint::for_path(&endpoint).map_err(|e| coded(&e))?;
        let request = validate_request(endpoint, &body).map_err(|e| coded(&e))?;
        let summary = RequestSummary::new(&request);
        Ok(ValidatedAttestRequest {
            endpoint: summary.endpoint.into(),
            nonce: summary.nonce,
            arch: summary.arch.into(),
            claims_version: summary.claims_version.into(),
            deprecated: summary.deprecated,
            devices: summary
                .devices
                .into_iter()
                .map(|device| ValidatedDevice {
                    label: device.label,
                    // Bounded by MAX_EVIDENCE_BYTES / MAX_CERTIFICATE_BYTES, far below 4 GiB.
                    evidence_bytes: u32::try_from(device.evidence_bytes).unwrap_or(u32::MAX),
                    certificate_bytes: u32::try_from(device.certificate_bytes).unwrap_or(u32::MAX),
                    firmware_version: device.firmware_version,
                })
                .collect(),
        })
    }
}
