//! `edgeattest:verifier/ocsp`: a chain's OCSP requests and the check of the responses the
//! host fetched, by the core's [`OcspRequestsOptions`] and [`CheckOcspOptions`] (the JS
//! `ocspRequests` / `checkOcspResponses`; the check's options are the JS API's JSON), and the
//! signer chain's ([`super::signer_ocsp`]). The nonces are the host's: no randomness here.

use alloc::string::String;
use alloc::vec::Vec;

use super::exports::edgeattest::verifier::ocsp::{
    ChainKind as WitKind, Guest, OcspAnswer, OcspChainStatus, OcspRequest, OcspStatus,
    SignerOcspRequest, SignerOcspStatus,
};
use super::ocsp_values::{answers_in, certificate_out, json_options, kind_in, nonces_in};
use super::signer_ocsp;
use super::{checked_now, coded, Verifier, WitError};
use crate::chain::parse_pem_chain;
use crate::ocsp::{
    ocsp_targets, ChainRevocation, CheckOcspOptions, OcspInputError, OcspRequestsOptions,
};

impl Guest for Verifier {
    fn ocsp_request_count(chain_pem: String, kind: WitKind) -> Result<u32, WitError> {
        let chain = parse_pem_chain(&chain_pem).map_err(|e| coded(&OcspInputError::Chain(e)))?;
        let count = ocsp_targets(chain.len(), kind_in(kind)).len();
        Ok(u32::try_from(count).unwrap_or(u32::MAX))
    }

    fn ocsp_requests(
        chain_pem: String,
        kind: WitKind,
        nonces: Vec<Vec<u8>>,
    ) -> Result<Vec<OcspRequest>, WitError> {
        let nonces = nonces_in(&nonces)?;
        let options = OcspRequestsOptions {
            kind: Some(kind_in(kind)),
            nonces: Some(nonces),
        };
        // Every nonce is given (the core refuses a count that does not match), so the core
        // never asks for a fresh one.
        let requests = options
            .requests(&chain_pem, || {
                Err(OcspInputError::NonceCount { expected: 0 })
            })
            .map_err(|e| coded(&e))?;
        Ok(requests
            .into_iter()
            .map(|r| OcspRequest {
                certificate: r.certificate,
                index: u32::try_from(r.index).unwrap_or(u32::MAX),
                cache_key: r.cache_key,
                request: r.request,
                nonce: r.nonce,
            })
            .collect())
    }

    fn check_ocsp_responses(
        chain_pem: String,
        kind: WitKind,
        answers: Vec<OcspAnswer>,
        now: u64,
        options: Option<String>,
    ) -> Result<OcspChainStatus, WitError> {
        let now = checked_now(now)?;
        let options: CheckOcspOptions = json_options(options.as_deref(), "CheckOcspOptions")?;
        let answers = answers_in(answers)?;
        let status = options
            .check(&chain_pem, kind_in(kind), &answers, now)
            .map_err(|e| coded(&e))?;
        Ok(OcspChainStatus {
            status: match status.revocation {
                ChainRevocation::Good { .. } => OcspStatus::Good,
                ChainRevocation::Revoked { .. } => OcspStatus::Revoked,
                ChainRevocation::Unknown => OcspStatus::Unknown,
                ChainRevocation::Failed(_) => OcspStatus::Failed,
            },
            held: status.held == Some(true),
            reason: status.reason.map(Into::into),
            code: status.code.map(Into::into),
            service_code: status.service_code,
            warnings: status.warnings.clone(),
            certificates: status
                .certificates
                .into_iter()
                .map(certificate_out)
                .collect(),
        })
    }

    fn signer_ocsp_request_count(
        jwks: Vec<u8>,
        options: Option<String>,
        now: u64,
    ) -> Result<u32, WitError> {
        signer_ocsp::request_count(&jwks, options.as_deref(), now)
    }

    fn signer_ocsp_requests(
        jwks: Vec<u8>,
        options: Option<String>,
        now: u64,
        nonces: Vec<Vec<u8>>,
    ) -> Result<Vec<SignerOcspRequest>, WitError> {
        signer_ocsp::requests(&jwks, options.as_deref(), now, &nonces)
    }

    fn check_signer_ocsp(
        jwks: Vec<u8>,
        answers: Vec<OcspAnswer>,
        now: u64,
        options: Option<String>,
    ) -> Result<SignerOcspStatus, WitError> {
        signer_ocsp::check(&jwks, answers, now, options.as_deref())
    }
}
