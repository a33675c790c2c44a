//! The JSON claims of an EAR (a JWT's payload) in either dialect: the names of the module
//! documentation's table, written from and read into the one model.

use alloc::string::String;
use alloc::vec::Vec;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use super::{
    nonce_bytes, shape, Ear, EarAppraisal, EarDialect, EarError, TrustTier, TrustVector,
    VerifierId, MAX_EAR_SUBMODS, NONCE_RULE,
};

/// A dialect's JSON claim names.
struct Names {
    verifier_id: &'static str,
    status: &'static str,
    vector: &'static str,
    policy: &'static str,
}

impl Names {
    fn of(dialect: EarDialect) -> Self {
        match dialect {
            EarDialect::Veraison => Self {
                verifier_id: "ear.verifier-id",
                status: "ear.status",
                vector: "ear.trustworthiness-vector",
                policy: "ear.appraisal-policy-id",
            },
            EarDialect::Ietf04 => Self {
                verifier_id: "ear_verifier_id",
                status: "ear_status",
                vector: "ear_trustworthiness_vector",
                policy: "ear_appraisal_policy_ids",
            },
        }
    }
}

/// An EAR written as its dialect's JSON claims (member order: profile, `iat`, `exp`, verifier
/// id, top status, nonce, submodules).
pub(super) struct Claims<'a>(pub(super) &'a Ear);

impl Serialize for Claims<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let ear = self.0;
        let names = Names::of(ear.dialect);
        let ietf = ear.dialect == EarDialect::Ietf04;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("eat_profile", ear.dialect.profile())?;
        map.serialize_entry("iat", &ear.iat)?;
        if let Some(exp) = ear.exp {
            map.serialize_entry("exp", &exp)?;
        }
        map.serialize_entry(names.verifier_id, &ear.verifier_id)?;
        if ietf {
            map.serialize_entry("ear_status", &ear.status())?;
        }
        if let Some(nonce) = &ear.nonce {
            if ietf {
                let bytes = nonce_bytes(nonce).unwrap_or_default();
                map.serialize_entry("eat_nonce", &crate::crypto::b64url_encode(&bytes))?;
            } else {
                map.serialize_entry("eat_nonce", nonce)?;
            }
        }
        map.serialize_entry("submods", &Submods(ear))?;
        map.end()
    }
}

struct Submods<'a>(&'a Ear);

impl Serialize for Submods<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.submods.len()))?;
        for (label, appraisal) in &self.0.submods {
            map.serialize_entry(label, &Appraisal(self.0.dialect, appraisal))?;
        }
        map.end()
    }
}

struct Appraisal<'a>(EarDialect, &'a EarAppraisal);

impl Serialize for Appraisal<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Self(dialect, appraisal) = *self;
        let names = Names::of(dialect);
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry(names.status, &appraisal.status)?;
        if let Some(vector) = &appraisal.vector {
            map.serialize_entry(names.vector, vector)?;
        }
        match (dialect, appraisal.policy_ids.first()) {
            (_, None) => {}
            (EarDialect::Veraison, Some(first)) => map.serialize_entry(names.policy, first)?,
            (EarDialect::Ietf04, Some(_)) => {
                map.serialize_entry(names.policy, &appraisal.policy_ids)?;
            }
        }
        map.end()
    }
}

impl Ear {
    /// Reads an EAR's JSON claims (a verified JWT's payload) in the dialect its
    /// `eat_profile` names ([`super::EAR_PROFILE`] or [`super::EAR_PROFILE_04`]): `iat` (and
    /// `exp`, when present) an integer, not a float; the verifier id and `submods` (1 to
    /// [`MAX_EAR_SUBMODS`]) present and well-formed; `eat_nonce` a string when present (-04:
    /// base64url of 8 to 64 bytes); -04's top-level `ear_status`, when present, no better than
    /// the worst submodule's. Unknown claims are ignored (extensions); unknown members of a
    /// vector are refused.
    ///
    /// # Errors
    /// [`EarError::Profile`] or [`EarError::Shape`].
    pub fn from_claims(claims: &Map<String, Value>) -> Result<Self, EarError> {
        let dialect = match claims.get("eat_profile") {
            Some(Value::String(profile)) => {
                EarDialect::from_profile(profile).ok_or_else(|| EarError::Profile {
                    found: profile.clone(),
                })?
            }
            _ => return Err(shape("eat_profile", "is required, as a string")),
        };
        let names = Names::of(dialect);
        let iat = integer(claims.get("iat")).ok_or_else(|| shape("iat", INTEGER))?;
        let exp = match claims.get("exp") {
            None => None,
            value => Some(integer(value).ok_or_else(|| shape("exp", INTEGER))?),
        };
        let verifier_id = VerifierId::from_json(claims.get(names.verifier_id))
            .ok_or_else(|| shape(names.verifier_id, "is required: {developer, build}"))?;
        let nonce = match (claims.get("eat_nonce"), dialect) {
            (None, _) => None,
            (Some(Value::String(nonce)), EarDialect::Veraison) => Some(nonce.clone()),
            (Some(Value::String(nonce)), EarDialect::Ietf04) => Some(
                crate::crypto::b64url_decode(nonce)
                    .filter(|bytes| (8..=64).contains(&bytes.len()))
                    .map(hex::encode)
                    .ok_or_else(|| shape("eat_nonce", NONCE_RULE))?,
            ),
            (Some(_), _) => return Err(shape("eat_nonce", "must be a string")),
        };
        let Some(Value::Object(members)) = claims.get("submods") else {
            return Err(shape("submods", "is required, as an object"));
        };
        if members.is_empty() || members.len() > MAX_EAR_SUBMODS {
            return Err(shape("submods", "must hold 1 to 64 submodules"));
        }
        let submods = members
            .iter()
            .map(|(label, value)| Ok((label.clone(), read_appraisal(&names, label, value)?)))
            .collect::<Result<Vec<_>, EarError>>()?;
        let ear = Self::read(dialect, iat, exp, verifier_id, nonce, submods);
        if dialect == EarDialect::Ietf04 {
            match claims.get("ear_status") {
                None => {}
                Some(value) => {
                    let status = value.as_str().and_then(TrustTier::parse);
                    check_top_status(&ear, status, "ear_status")?;
                }
            }
        }
        Ok(ear)
    }
}

/// -04: the top-level status must be a tier and no better than the worst submodule's (a
/// reader that looks only at the top must not be told more than the submodules say).
pub(super) fn check_top_status(
    ear: &Ear,
    status: Option<TrustTier>,
    field: &str,
) -> Result<(), EarError> {
    match status {
        None => Err(shape(field, "must be a trustworthiness tier")),
        Some(status) if status < ear.status() => {
            Err(shape(field, "is better than the worst submodule's status"))
        }
        Some(_) => Ok(()),
    }
}

const INTEGER: &str = "is required, as an integer (not a float)";

/// An integer claim: JSON numbers written without fraction or exponent only.
fn integer(value: Option<&Value>) -> Option<i64> {
    value.and_then(Value::as_i64)
}

fn read_appraisal(names: &Names, label: &str, value: &Value) -> Result<EarAppraisal, EarError> {
    let at = |member: &str| alloc::format!("submods/{label}/{member}");
    let object = value.as_object().ok_or_else(|| EarError::Shape {
        field: alloc::format!("submods/{label}"),
        detail: "must be an object",
    })?;
    let status = object
        .get(names.status)
        .and_then(Value::as_str)
        .and_then(TrustTier::parse)
        .ok_or_else(|| EarError::Shape {
            field: at(names.status),
            detail: "is required: none, affirming, warning or contraindicated",
        })?;
    let vector = match object.get(names.vector) {
        None => None,
        Some(value) => Some(TrustVector::read(value).ok_or_else(|| EarError::Shape {
            field: at(names.vector),
            detail: "must map AR4SI keys to integers from -128 to 127",
        })?),
    };
    let policy_ids = match object.get(names.policy) {
        None => Vec::new(),
        Some(Value::String(id)) if names.policy == "ear.appraisal-policy-id" => {
            Vec::from([id.clone()])
        }
        Some(Value::Array(ids)) if names.policy == "ear_appraisal_policy_ids" => ids
            .iter()
            .map(|id| id.as_str().map(String::from))
            .collect::<Option<Vec<_>>>()
            .filter(|ids| !ids.is_empty())
            .ok_or_else(|| EarError::Shape {
                field: at(names.policy),
                detail: "must be a non-empty array of strings",
            })?,
        Some(_) => {
            return Err(EarError::Shape {
                field: at(names.policy),
                detail: "must be a string (veraison) or an array of strings (-04)",
            })
        }
    };
    Ok(EarAppraisal {
        status,
        vector,
        policy_ids,
    })
}
