//! CWT EARs (-04 only): the claims as a CBOR map with the draft's integer labels, signed in
//! a `COSE_Sign1` (tag 18, ES384). Written deterministically (RFC 8949 §4.2.1); read in any
//! key order and either length form (Veraison's library writes indefinite maps), with
//! duplicate keys, floats for `iat`/`exp` and other algorithms refused.

use alloc::string::String;
use alloc::vec::Vec;

use super::json::check_top_status;
use super::{
    nonce_bytes, shape, Ear, EarAppraisal, EarDialect, EarError, TrustTier, TrustVector,
    VerifierId, MAX_EAR_SUBMODS, NONCE_RULE,
};
use crate::cbor::{Cbor, CborLimits};
use crate::cose::{Sign1, HEADER_KID};
use crate::crypto::SignatureCheck;
use crate::time::UnixTime;
use crate::token::signer::{pin, PinPlan};
use crate::token::{ClaimReason, Jwks, TokenError, VerifyOptions};

const PROFILE: i64 = 265;
const IAT: i64 = 6;
const EXP: i64 = 4;
const NONCE: i64 = 10;
const VERIFIER_ID: i64 = 1004;
const SUBMODS: i64 = 266;
const STATUS: i64 = 1000;
const VECTOR: i64 = 1001;
const POLICY_IDS: i64 = 1003;

/// A CWT EAR's parts before its signature: sign [`Self::to_be_signed`] (ES384, raw `r‖s`),
/// then [`Self::assemble`].
#[derive(Clone, Debug, PartialEq)]
pub struct EarCwtInput {
    protected: Vec<(i64, Cbor)>,
    payload: Vec<u8>,
    to_be_signed: Vec<u8>,
}

impl EarCwtInput {
    /// The bytes to sign (the `Sig_structure` of RFC 9052 §4.4).
    pub fn to_be_signed(&self) -> &[u8] {
        &self.to_be_signed
    }

    /// The claims map, as signed.
    pub fn payload(&self) -> &[u8] {
        &self.payload
    }

    /// The tagged `COSE_Sign1` message with `signature` (96 bytes, r and s in range).
    ///
    /// # Errors
    /// [`TokenError::SignatureMalformed`] for another signature.
    pub fn assemble(&self, signature: &[u8]) -> Result<Vec<u8>, TokenError> {
        crate::token::assemble_jws("", signature)?;
        Ok(crate::cose::sign1_assemble(
            &self.protected,
            &[],
            &self.payload,
            signature,
        ))
    }
}

impl Ear {
    /// The EAR's claims as a deterministic CBOR map with -04's labels.
    ///
    /// # Errors
    /// [`EarError::Shape`] (`eat_profile`) for a veraison-dialect EAR (it has no CWT form:
    /// [`Self::into_dialect`] first).
    pub fn to_cwt_claims(&self) -> Result<Vec<u8>, EarError> {
        if self.dialect != EarDialect::Ietf04 {
            return Err(shape("eat_profile", "a CWT EAR is -04 only"));
        }
        let mut claims = Vec::from([
            (Cbor::int(PROFILE), Cbor::text(self.dialect.profile())),
            (Cbor::int(IAT), Cbor::int(self.iat)),
            (
                Cbor::int(VERIFIER_ID),
                Cbor::Map(Vec::from([
                    (Cbor::int(0), Cbor::text(&self.verifier_id.developer)),
                    (Cbor::int(1), Cbor::text(&self.verifier_id.build)),
                ])),
            ),
            (Cbor::int(STATUS), tier(self.status())),
        ]);
        if let Some(exp) = self.exp {
            claims.push((Cbor::int(EXP), Cbor::int(exp)));
        }
        if let Some(nonce) = &self.nonce {
            let bytes = nonce_bytes(nonce).ok_or_else(|| shape("eat_nonce", NONCE_RULE))?;
            claims.push((Cbor::int(NONCE), Cbor::Bytes(bytes)));
        }
        let submods = self
            .submods
            .iter()
            .map(|(label, appraisal)| (Cbor::text(label), appraisal_cbor(appraisal)))
            .collect();
        claims.push((Cbor::int(SUBMODS), Cbor::Map(submods)));
        Ok(Cbor::Map(claims).encode())
    }

    /// The CWT of this EAR before its signature: protected header `{1: -35, 4: kid}`.
    ///
    /// # Errors
    /// As [`Self::to_cwt_claims`].
    pub fn cwt_to_be_signed(&self, kid: &str) -> Result<EarCwtInput, EarError> {
        let payload = self.to_cwt_claims()?;
        let protected = Vec::from([(HEADER_KID, Cbor::bytes(kid.as_bytes()))]);
        let to_be_signed = crate::cose::sign1_to_be_signed(&protected, &payload);
        Ok(EarCwtInput {
            protected,
            payload,
            to_be_signed,
        })
    }

    /// Reads a CWT EAR's claims (a verified `COSE_Sign1` payload): the -04 profile, `iat`
    /// (and `exp`) integers, the verifier id, 1 to [`MAX_EAR_SUBMODS`] submodules, tiers
    /// 0/2/32/96, vectors keyed 0–7 with values −128..127, policy ids a non-empty text
    /// array, the nonce 8 to 64 bytes; the top status no better than the worst submodule's.
    /// Unknown labels are ignored (extensions).
    ///
    /// # Errors
    /// [`EarError::Cose`] (not CBOR, duplicate keys, over budget), [`EarError::Profile`],
    /// [`EarError::Shape`] (the field named by its JSON name).
    pub fn from_cwt_claims(payload: &[u8]) -> Result<Self, EarError> {
        let claims = crate::cbor::decode(payload, CborLimits::DEFAULT)
            .map_err(|error| EarError::Cose(error.into()))?;
        if claims.as_map().is_none() {
            return Err(shape("payload", "must be a CBOR map"));
        }
        match claims.get_int(PROFILE).map(|p| (p.as_text(), p)) {
            Some((Some(profile), _)) if profile == super::EAR_PROFILE_04 => {}
            Some((Some(profile), _)) => {
                return Err(EarError::Profile {
                    found: profile.into(),
                })
            }
            _ => return Err(shape("eat_profile", "is required, as text")),
        }
        let integer = |label, name| {
            claims
                .get_int(label)
                .map(|v| int(v).ok_or_else(|| shape(name, "must be an integer (not a float)")))
        };
        let iat = integer(IAT, "iat").ok_or_else(|| shape("iat", "is required"))??;
        let exp = integer(EXP, "exp").transpose()?;
        let verifier_id = claims
            .get_int(VERIFIER_ID)
            .filter(|id| id.as_map().is_some_and(|m| m.len() == 2))
            .and_then(|id| {
                let text = |label| id.get_int(label).and_then(Cbor::as_text).map(String::from);
                Some(VerifierId {
                    developer: text(0)?,
                    build: text(1)?,
                })
            })
            .ok_or_else(|| shape("ear_verifier_id", "is required: {0: developer, 1: build}"))?;
        let nonce = match claims.get_int(NONCE) {
            None => None,
            Some(nonce) => Some(
                nonce
                    .as_bytes()
                    .filter(|bytes| (8..=64).contains(&bytes.len()))
                    .map(hex::encode)
                    .ok_or_else(|| shape("eat_nonce", NONCE_RULE))?,
            ),
        };
        let members = claims
            .get_int(SUBMODS)
            .and_then(Cbor::as_map)
            .filter(|m| !m.is_empty() && m.len() <= MAX_EAR_SUBMODS)
            .ok_or_else(|| shape("submods", "must map 1 to 64 labels to appraisals"))?;
        let submods = members
            .iter()
            .map(|(label, value)| {
                let label = label
                    .as_text()
                    .ok_or_else(|| shape("submods", "labels must be text"))?;
                Ok((String::from(label), read_appraisal(label, value)?))
            })
            .collect::<Result<Vec<_>, EarError>>()?;
        let ear = Self::read(EarDialect::Ietf04, iat, exp, verifier_id, nonce, submods);
        if let Some(status) = claims.get_int(STATUS) {
            let status = status.as_u64().and_then(TrustTier::from_cbor);
            check_top_status(&ear, status, "ear_status")?;
        }
        Ok(ear)
    }
}

/// An integer item (never a float, never a tagged time).
fn int(item: &Cbor) -> Option<i64> {
    match item {
        Cbor::Uint(_) | Cbor::Neg(_) => item.as_i64(),
        _ => None,
    }
}

fn tier(status: TrustTier) -> Cbor {
    Cbor::Uint(u64::from(status.cbor_value()))
}

fn appraisal_cbor(appraisal: &EarAppraisal) -> Cbor {
    let mut entries = Vec::from([(Cbor::int(STATUS), tier(appraisal.status))]);
    if let Some(vector) = &appraisal.vector {
        let keys = vector
            .values()
            .into_iter()
            .zip(0i64..)
            .filter_map(|(value, key)| Some((Cbor::int(key), Cbor::int(i64::from(value?)))))
            .collect();
        entries.push((Cbor::int(VECTOR), Cbor::Map(keys)));
    }
    if !appraisal.policy_ids.is_empty() {
        let ids = appraisal
            .policy_ids
            .iter()
            .map(|id| Cbor::text(id))
            .collect();
        entries.push((Cbor::int(POLICY_IDS), Cbor::Array(ids)));
    }
    Cbor::Map(entries)
}

fn read_appraisal(label: &str, value: &Cbor) -> Result<EarAppraisal, EarError> {
    let at = |member: &str| alloc::format!("submods/{label}/{member}");
    let fail = |member: &str, detail| EarError::Shape {
        field: at(member),
        detail,
    };
    if value.as_map().is_none() {
        return Err(EarError::Shape {
            field: alloc::format!("submods/{label}"),
            detail: "must be a map",
        });
    }
    let status = value
        .get_int(STATUS)
        .and_then(Cbor::as_u64)
        .and_then(TrustTier::from_cbor)
        .ok_or_else(|| fail("ear_status", "is required: 0, 2, 32 or 96"))?;
    let vector = match value.get_int(VECTOR) {
        None => None,
        Some(map) => Some(read_vector(map).ok_or_else(|| {
            fail(
                "ear_trustworthiness_vector",
                "must map keys 0 to 7 to integers from -128 to 127",
            )
        })?),
    };
    let policy_ids = match value.get_int(POLICY_IDS) {
        None => Vec::new(),
        Some(ids) => ids
            .as_array()
            .filter(|ids| !ids.is_empty())
            .and_then(|ids| {
                ids.iter()
                    .map(|id| id.as_text().map(String::from))
                    .collect::<Option<Vec<_>>>()
            })
            .ok_or_else(|| {
                fail(
                    "ear_appraisal_policy_ids",
                    "must be a non-empty array of text",
                )
            })?,
    };
    Ok(EarAppraisal {
        status,
        vector,
        policy_ids,
    })
}

fn read_vector(map: &Cbor) -> Option<TrustVector> {
    let entries = map.as_map().filter(|m| !m.is_empty())?;
    let mut vector = TrustVector::default();
    for (key, value) in entries {
        let index = usize::try_from(key.as_u64()?).ok()?;
        let claim = i8::try_from(int(value)?).ok()?;
        *vector.slot(index)? = Some(claim);
    }
    Some(vector)
}

/// A CWT EAR whose signature check is handed out.
#[derive(Debug)]
pub(super) struct PreparedCwt {
    /// The message's check, then the pinned chain's link checks.
    checks: Vec<SignatureCheck>,
    pin: Option<(Option<String>, PinPlan)>,
    payload: Vec<u8>,
    options: VerifyOptions,
    now: UnixTime,
}

/// The message's structure and algorithm (ES384 only), the key its `kid` names (or the
/// key set's only key) and its pinning under [`VerifyOptions::signers`], as a JWT's, the
/// claims' shape.
pub(super) fn prepare(
    token: &[u8],
    jwks: &Jwks,
    options: VerifyOptions,
    now: UnixTime,
) -> Result<PreparedCwt, EarError> {
    let sign1 = Sign1::decode(token, CborLimits::DEFAULT).map_err(EarError::Cose)?;
    let kid = match sign1.kid() {
        None => None,
        Some(kid) => {
            Some(core::str::from_utf8(kid).map_err(|_| shape("kid", "must be UTF-8 text bytes"))?)
        }
    };
    let key = jwks.select(kid)?;
    let payload = sign1
        .payload()
        .ok_or_else(|| shape("payload", "must be attached"))?
        .to_vec();
    Ear::from_cwt_claims(&payload)?;
    let mut checks = Vec::from([sign1.signature_check(key.public_key())]);
    let plan = pin(key, &options.signers, now)?;
    if let Some(plan) = &plan {
        checks.extend(plan.checks.iter().cloned());
    }
    Ok(PreparedCwt {
        checks,
        pin: plan.map(|plan| (key.kid().map(String::from), plan)),
        payload,
        options,
        now,
    })
}

impl PreparedCwt {
    pub(super) fn signature_checks(&self) -> &[SignatureCheck] {
        &self.checks
    }

    /// The verdict, then the times (`iat` not in the future, `exp` not past, `max_age`,
    /// with `leeway`); a CWT EAR carries no `iss`, `sub` or `aud`, so options naming them
    /// refuse it.
    pub(super) fn finish(self, verdicts: &[bool]) -> Result<Ear, EarError> {
        let [own, links @ ..] = verdicts else {
            return Err(TokenError::SignatureVerificationFailed.into());
        };
        if verdicts.len() != self.checks.len() || !own {
            return Err(TokenError::SignatureVerificationFailed.into());
        }
        let ear = Ear::from_cwt_claims(&self.payload)?;
        if let Some((kid, plan)) = &self.pin {
            let fail = |error| TokenError::Signer {
                kid: kid.clone(),
                error,
            };
            PinPlan::links(links.iter().all(|ok| *ok)).map_err(fail)?;
            let iat = u64::try_from(ear.iat()).ok().and_then(UnixTime::from_secs);
            plan.valid_at(iat).map_err(fail)?;
        }
        let options = &self.options;
        let missing = |claim: &str| TokenError::ClaimValidation {
            claim: claim.into(),
            reason: ClaimReason::Missing,
        };
        if !options.issuers.is_empty() {
            return Err(missing("iss").into());
        }
        if options.subject.is_some() {
            return Err(missing("sub").into());
        }
        if !options.audiences.is_empty() {
            return Err(missing("aud").into());
        }
        let now = i128::from(self.now.as_secs());
        let leeway = i128::from(options.leeway);
        let iat = i128::from(ear.iat());
        if iat > now + leeway {
            return Err(TokenError::ClaimValidation {
                claim: "iat".into(),
                reason: ClaimReason::CheckFailed,
            }
            .into());
        }
        if ear.exp().is_some_and(|exp| i128::from(exp) <= now - leeway) {
            return Err(TokenError::Expired { claim: "exp" }.into());
        }
        if let Some(max_age) = options.max_age {
            if now - iat - leeway > i128::from(max_age) {
                return Err(TokenError::Expired { claim: "iat" }.into());
            }
        }
        Ok(ear)
    }
}
