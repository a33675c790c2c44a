//! Minting the result: device claims → device tokens → the overall token with its `submods`
//! digests (a detached EAT), or the V1 single token (spec §2 "Attestation result").

use alloc::string::String;
use alloc::vec::Vec;
use core::cell::Cell;

use sha2::{Digest, Sha256};

use super::claims::{DeviceClaims, GpuSingleTokenV1, OverallClaims, TokenTimes};
use super::keys::KeyRing;
use super::outcome::DeviceOutcome;
use crate::attest::{ClaimsVersion, Endpoint, Nonce};
use crate::token::{create_detached_eat, create_v1_result, sign_jwt, TokenError};

/// Issues tokens with common times and fresh `jti`s.
pub(crate) struct Minter<'a> {
    pub(crate) keys: &'a KeyRing,
    pub(crate) issuer: &'a str,
    pub(crate) lifetime: i64,
    pub(crate) now: i64,
    pub(crate) entropy: [u8; 32],
    counter: Cell<u32>,
}

impl<'a> Minter<'a> {
    pub(crate) fn new(
        keys: &'a KeyRing,
        issuer: &'a str,
        lifetime: i64,
        now: i64,
        entropy: [u8; 32],
    ) -> Self {
        Self {
            keys,
            issuer,
            lifetime,
            now,
            entropy,
            counter: Cell::new(0),
        }
    }

    /// The result body for `outcomes` (one per device, request order).
    pub(crate) fn result(
        &self,
        endpoint: Endpoint,
        version: ClaimsVersion,
        nonce: &Nonce,
        outcomes: &[DeviceOutcome],
    ) -> Result<String, TokenError> {
        let (kid, key) = (self.keys.kid(), self.keys.signing_key());
        if endpoint == Endpoint::GpuV1 {
            let outcome = outcomes.first().ok_or(TokenError::ResultInvalid {
                field: "devices".into(),
            })?;
            let token = sign_jwt(
                &GpuSingleTokenV1::new(outcome, nonce, self.times()),
                key,
                kid,
            )?;
            return Ok(create_v1_result(&token));
        }
        let prefix = endpoint.device_kind().label_prefix();
        let devices: Vec<(String, String)> = outcomes
            .iter()
            .enumerate()
            .map(|(i, outcome)| {
                let claims = DeviceClaims::build(outcome, version, nonce, self.times()).to_json();
                Ok((alloc::format!("{prefix}-{i}"), sign_jwt(&claims, key, kid)?))
            })
            .collect::<Result<_, TokenError>>()?;
        let overall_result = !outcomes.is_empty() && outcomes.iter().all(DeviceOutcome::passed);
        let overall = OverallClaims::new(self.times(), version, overall_result, nonce.to_hex());
        create_detached_eat(&overall.to_json(), &devices, key, kid)
    }

    fn times(&self) -> TokenTimes {
        TokenTimes {
            iss: self.issuer.into(),
            iat: self.now,
            nbf: self.now,
            exp: self.now.saturating_add(self.lifetime),
            jti: self.next_jti(),
        }
    }

    /// A UUID v4 (RFC 9562 §5.4) from the request's entropy and a counter: unique per token
    /// as long as the host passes fresh entropy per request.
    fn next_jti(&self) -> String {
        let n = self.counter.get();
        self.counter.set(n.wrapping_add(1));
        let digest = Sha256::new()
            .chain_update(self.entropy)
            .chain_update(n.to_be_bytes())
            .finalize();
        let mut b = [0u8; 16];
        b.copy_from_slice(digest.get(..16).unwrap_or(&[0; 16]));
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        let h = hex::encode(b);
        let part = |r: core::ops::Range<usize>| h.get(r).unwrap_or("");
        alloc::format!(
            "{}-{}-{}-{}-{}",
            part(0..8),
            part(8..12),
            part(12..16),
            part(16..20),
            part(20..32)
        )
    }
}
