//! Minting the result: device claims → device tokens → the overall token with its `submods`
//! digests (a detached EAT), or the V1 single token (spec §2 "Attestation result").
//!
//! Minting is planned as data, like verification: [`Minter::plan`] builds every claim set
//! and the device tokens' signing inputs; whoever holds the key signs them (the core's
//! software key, or the host's WebCrypto key); [`MintPlan::devices_signed`] then gives the
//! overall token's signing input, and [`OverallPending::signed`] the result text.

use alloc::string::String;
use alloc::vec::Vec;
use core::cell::Cell;

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::claims::{DeviceClaims, GpuSingleTokenV1, OverallClaims, TokenTimes};
use super::outcome::DeviceOutcome;
use super::policy_gate::policy_failure;
use crate::attest::{ClaimsVersion, Endpoint, Nonce};
use crate::cmw::EvidenceForm;
use crate::ear::{EarCwtInput, EarDialect, EarEncoding};
use crate::policy::Policy;
use crate::token::{
    assemble_detached_eat, assemble_jws, create_v1_result, detached_eat_signing_input,
    jwt_signing_input, ResultFormat, TokenError,
};

/// Issues tokens with common times and fresh `jti`s.
pub(crate) struct Minter<'a> {
    pub(crate) kid: &'a str,
    pub(crate) issuer: &'a str,
    pub(crate) lifetime: i64,
    pub(crate) now: i64,
    pub(crate) entropy: [u8; 32],
    /// The form the request's evidence came in, stated by a detached result's overall token.
    evidence_form: EvidenceForm,
    counter: Cell<u32>,
}

/// The claims of one result, serialised into signing inputs, waiting for signatures.
#[derive(Clone, Debug)]
pub(crate) enum MintPlan {
    /// V1: one token, `{"eat": token}`.
    Single { input: Vec<u8> },
    /// An EAT Attestation Result (the request asked for one) as a JWT: one token, the EAR.
    Ear { input: Vec<u8>, media_type: String },
    /// An EAT Attestation Result as a CWT: one `COSE_Sign1`, `input` its `Sig_structure`.
    EarCwt {
        cwt: EarCwtInput,
        input: Vec<u8>,
        media_type: String,
    },
    /// A detached EAT: one token per device, then the overall token over their digests.
    Detached {
        kid: String,
        labels: Vec<String>,
        inputs: Vec<Vec<u8>>,
        overall: Map<String, Value>,
    },
}

/// A detached EAT whose device tokens are signed: the overall token's signing input.
#[derive(Clone, Debug)]
pub(crate) struct OverallPending {
    devices: Vec<(String, String)>,
    input: Vec<u8>,
}

/// What comes of the first round of signatures.
pub(crate) enum Minted {
    /// The result text (V1).
    Done(String),
    /// The EAR: a compact JWS or a `COSE_Sign1`, with its media type.
    Ear { body: Vec<u8>, media_type: String },
    /// The overall token still to sign.
    Overall(OverallPending),
}

impl<'a> Minter<'a> {
    pub(crate) fn new(
        kid: &'a str,
        issuer: &'a str,
        lifetime: i64,
        now: i64,
        entropy: [u8; 32],
    ) -> Self {
        Self {
            kid,
            issuer,
            lifetime,
            now,
            entropy,
            evidence_form: EvidenceForm::Plain,
            counter: Cell::new(0),
        }
    }

    /// The form the request's evidence came in (default plain).
    pub(crate) fn with_evidence_form(mut self, form: EvidenceForm) -> Self {
        self.evidence_form = form;
        self
    }

    /// The claims and device signing inputs of the result for `outcomes` (one per device,
    /// request order). With a `policy`, a device that passed but whose claims fail it fails
    /// with the policy's error details (`policy_gate`).
    pub(crate) fn plan(
        &self,
        endpoint: Endpoint,
        version: ClaimsVersion,
        nonce: &Nonce,
        outcomes: &[DeviceOutcome],
        policy: Option<&Policy>,
        ear: Option<(EarDialect, EarEncoding)>,
    ) -> Result<MintPlan, TokenError> {
        if let Some(form) = ear {
            return self.plan_ear(endpoint, version, nonce, outcomes, policy, form);
        }
        if endpoint == Endpoint::GpuV1 {
            let outcome = outcomes.first().ok_or(TokenError::ResultInvalid {
                field: "devices".into(),
            })?;
            let times = self.times();
            // The times again only for a policy's rebuild (no copy on the common path).
            let gate = policy
                .filter(|_| outcome.passed())
                .map(|p| (p, times.clone()));
            let mut claims = GpuSingleTokenV1::new(outcome, nonce, times);
            if let Some((policy, times)) = gate {
                if let Some(error) =
                    policy_failure(policy, ResultFormat::V1, &claims_json(&claims)?)
                {
                    let failed = DeviceOutcome {
                        error: Some(error),
                        ..outcome.clone()
                    };
                    claims = GpuSingleTokenV1::new(&failed, nonce, times);
                }
            }
            return Ok(MintPlan::Single {
                input: jwt_signing_input(&claims, self.kid)?.into_bytes(),
            });
        }
        let prefix = endpoint.device_kind().label_prefix();
        let mut labels = Vec::with_capacity(outcomes.len());
        let mut inputs = Vec::with_capacity(outcomes.len());
        let mut overall_result = !outcomes.is_empty();
        for (i, outcome) in outcomes.iter().enumerate() {
            // Serialised straight from the typed claims: the signing input builds the JSON
            // object once (DeviceClaims::to_json would be a second copy of it, made only for
            // a policy).
            let times = self.times();
            let mut passed = outcome.passed();
            let gate = policy.filter(|_| passed).map(|p| (p, times.clone()));
            let mut claims = DeviceClaims::build(outcome, version, nonce, times);
            if let Some((policy, times)) = gate {
                let json = claims_json(&claims)?;
                if let Some(error) = policy_failure(policy, ResultFormat::Detached, &json) {
                    let failed = DeviceOutcome {
                        error: Some(error),
                        ..outcome.clone()
                    };
                    claims = DeviceClaims::build(&failed, version, nonce, times);
                    passed = false;
                }
            }
            overall_result &= passed;
            labels.push(alloc::format!("{prefix}-{i}"));
            inputs.push(jwt_signing_input(&claims, self.kid)?.into_bytes());
        }
        let overall = OverallClaims::new(self.times(), version, overall_result, nonce.to_hex())
            .with_evidence_form(self.evidence_form);
        Ok(MintPlan::Detached {
            kid: self.kid.into(),
            labels,
            inputs,
            overall: overall.to_json(),
        })
    }

    /// The EAR of the result for `outcomes` (see `crate::ear`): each device's vector read
    /// from its newest claims set (GPU 4.0, switch 3.0, whatever `version` the request
    /// asked: they describe the same verification and carry every claim even on failure);
    /// with a `policy`, whether the device meets it on the claims the request's format
    /// would carry, as the policy gate reads them.
    fn plan_ear(
        &self,
        endpoint: Endpoint,
        version: ClaimsVersion,
        nonce: &Nonce,
        outcomes: &[DeviceOutcome],
        policy: Option<&Policy>,
        (dialect, encoding): (EarDialect, EarEncoding),
    ) -> Result<MintPlan, TokenError> {
        if outcomes.is_empty() {
            return Err(TokenError::ResultInvalid {
                field: "devices".into(),
            });
        }
        let prefix = endpoint.device_kind().label_prefix();
        let format = ResultFormat::for_endpoint(endpoint);
        let id = policy.map(crate::ear::policy_id);
        let mut submods = Vec::with_capacity(outcomes.len());
        for (i, outcome) in outcomes.iter().enumerate() {
            let label = alloc::format!("{prefix}-{i}");
            let newest = DeviceClaims::build(outcome, ClaimsVersion::V4_0, nonce, self.times());
            let claims = claims_json(&newest)?;
            let verdict = match (policy, id.as_deref()) {
                (Some(policy), Some(id)) => {
                    let asked = if format == ResultFormat::V1 {
                        claims_json(&GpuSingleTokenV1::new(outcome, nonce, self.times()))?
                    } else {
                        claims_json(&DeviceClaims::build(outcome, version, nonce, self.times()))?
                    };
                    Some((id, policy_failure(policy, format, &asked).is_none()))
                }
                _ => None,
            };
            let appraisal = crate::ear::appraise_device(&label, &claims, verdict);
            submods.push((label, appraisal));
        }
        let invalid = |_| TokenError::ResultInvalid {
            field: "eat_nonce".into(),
        };
        let ear = crate::ear::Ear::new(self.now, Some(nonce.to_hex()), submods)
            .into_dialect(dialect)
            .map_err(invalid)?;
        let media_type = crate::ear::ear_media_type(dialect, encoding);
        match encoding {
            EarEncoding::Jwt => Ok(MintPlan::Ear {
                input: ear.signing_input(self.kid)?.into_bytes(),
                media_type,
            }),
            _ => {
                let cwt = ear.cwt_to_be_signed(self.kid).map_err(invalid)?;
                Ok(MintPlan::EarCwt {
                    input: cwt.to_be_signed().to_vec(),
                    cwt,
                    media_type,
                })
            }
        }
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

/// The claims as the JSON object the token will carry, for a policy to read: written as the
/// signing input writes them and read back (the code both already use), not through a
/// second serializer.
fn claims_json<T: serde::Serialize>(claims: &T) -> Result<Map<String, Value>, TokenError> {
    let invalid = || TokenError::JwtInvalid { field: "payload" };
    let text = crate::json::write::to_vec(claims).map_err(|_| invalid())?;
    match crate::json::parse(&text) {
        Ok(Value::Object(members)) => Ok(members),
        _ => Err(invalid()),
    }
}

impl MintPlan {
    /// The signing inputs of the first round: the V1 token, or every device token.
    pub(crate) fn signing_inputs(&self) -> &[Vec<u8>] {
        match self {
            Self::Single { input } | Self::Ear { input, .. } | Self::EarCwt { input, .. } => {
                core::slice::from_ref(input)
            }
            Self::Detached { inputs, .. } => inputs,
        }
    }

    /// Completes the first round with one raw `r‖s` signature per signing input.
    ///
    /// # Errors
    /// [`TokenError::SignatureMalformed`] for a signature that is not 96 bytes in range;
    /// [`TokenError::ResultInvalid`] for a count that does not match the inputs.
    pub(crate) fn devices_signed(&self, signatures: &[Vec<u8>]) -> Result<Minted, TokenError> {
        let inputs = self.signing_inputs();
        if signatures.len() != inputs.len() {
            return Err(TokenError::ResultInvalid {
                field: "signatures".into(),
            });
        }
        if let Self::EarCwt {
            cwt, media_type, ..
        } = self
        {
            let signature = signatures.first().map_or(&[][..], Vec::as_slice);
            return Ok(Minted::Ear {
                body: cwt.assemble(signature)?,
                media_type: media_type.clone(),
            });
        }
        let tokens = inputs
            .iter()
            .zip(signatures)
            .map(|(input, signature)| assemble_jws(text(input)?, signature))
            .collect::<Result<Vec<String>, TokenError>>()?;
        match self {
            Self::Single { .. } => Ok(Minted::Done(create_v1_result(
                tokens.first().map_or("", String::as_str),
            ))),
            Self::Ear { media_type, .. } | Self::EarCwt { media_type, .. } => Ok(Minted::Ear {
                body: tokens.into_iter().next().unwrap_or_default().into_bytes(),
                media_type: media_type.clone(),
            }),
            Self::Detached {
                kid,
                labels,
                overall,
                ..
            } => {
                let devices: Vec<(String, String)> = labels.iter().cloned().zip(tokens).collect();
                let input = detached_eat_signing_input(overall, &devices, kid)?.into_bytes();
                Ok(Minted::Overall(OverallPending { devices, input }))
            }
        }
    }
}

impl OverallPending {
    /// The overall token's signing input.
    pub(crate) fn signing_inputs(&self) -> &[Vec<u8>] {
        core::slice::from_ref(&self.input)
    }

    /// The detached EAT text, from the overall token's signature.
    ///
    /// # Errors
    /// As [`MintPlan::devices_signed`].
    pub(crate) fn signed(&self, signatures: &[Vec<u8>]) -> Result<String, TokenError> {
        let [signature] = signatures else {
            return Err(TokenError::ResultInvalid {
                field: "signatures".into(),
            });
        };
        assemble_detached_eat(text(&self.input)?, signature, &self.devices)
    }
}

/// A JWS signing input as the text it was written as (always ASCII).
fn text(input: &[u8]) -> Result<&str, TokenError> {
    core::str::from_utf8(input).map_err(|_| TokenError::ResultInvalid {
        field: "signing input".into(),
    })
}
