//! `edgeattest:verifier/attest`: request bodies validated as the service validates them.

use alloc::string::String;
use alloc::vec::Vec;

use super::exports::edgeattest::verifier::attest::{
    Guest, ValidatedAttestRequest, ValidatedDevice,
};
use super::{coded, Verifier, WitError};
use crate::attest::{validate_request, Endpoint, RequestSummary};

impl Guest for Verifier {
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
