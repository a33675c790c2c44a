//! Verification options as a caller writes them (the JS `VerifyOptions`, or JSON read with
//! `serde_json`): one reading of their names, defaults and ranges for every host, turned into
//! the checked [`VerifyOptions`] and into prepared verifications.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;

use super::signer::Signers;
use super::{
    prepare_attestation_result, prepare_jwt, Jwks, PreparedAttestationResult, PreparedJwt,
    ResultFormat, TokenError, VerifyOptions,
};
use crate::attest::Endpoint;
use crate::ocsp::RevocationPolicy;
use crate::time::UnixTime;

/// Verification options in their written form: camelCase members, every one optional here
/// (the JS `CoreVerifyOptions`, where `now` is required). The core does not read `now`, the
/// verification time: it is declared so that a reader refusing unknown members accepts it,
/// and the caller reads it (`Now` is how it is written: Unix seconds in JSON, the JS value in
/// the binding, where a `Date` is allowed too) and passes the time to [`Self::prepare_jwt`]
/// and [`Self::prepare_attestation_result`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(rename = "CoreVerifyOptions", concrete(Now = crate::time::UnixTime))
)]
pub struct VerifyInput<Now = UnixTime> {
    /// The verification time as written (read by the caller, see above).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub now: Option<Now>,
    /// Accepted `iss` values: one or a list.
    #[serde(default, deserialize_with = "one_or_many")]
    #[cfg_attr(feature = "ts", ts(optional = nullable, type = "string | string[]"))]
    pub issuer: Vec<String>,
    /// Accepted `aud` values: one or a list.
    #[serde(default, deserialize_with = "one_or_many")]
    #[cfg_attr(feature = "ts", ts(optional = nullable, type = "string | string[]"))]
    pub audience: Vec<String>,
    /// Required `sub`.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub subject: Option<String>,
    /// Expected `eat_nonce`.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub nonce: Option<String>,
    /// Clock tolerance: non-negative seconds, fractions dropped; default 0.
    #[serde(default, deserialize_with = "seconds")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub clock_tolerance: Option<u64>,
    /// Maximum token age: non-negative seconds, fractions dropped.
    #[serde(default, deserialize_with = "seconds")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub max_token_age: Option<u64>,
    /// Claims that must be present.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub required_claims: Option<Vec<String>>,
    /// Required header `typ`.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub typ: Option<String>,
    /// Header extensions understood in `crit`.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub crit: Option<Vec<String>>,
    /// Results only: the expected shape, `v1` or `detached` (default `detached`).
    #[cfg_attr(feature = "ts", ts(optional, type = r#""detached" | "v1""#))]
    pub format: Option<String>,
    /// Results only: the attest path the request went to; its shape is expected.
    #[cfg_attr(feature = "ts", ts(optional, type = "AttestEndpoint"))]
    pub endpoint: Option<String>,
    /// Results only: resolve with an authentic result whose verdict is not a pass.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub allow_failed_result: Option<bool>,
    /// Results only: resolve with a passing result whose chains are not confirmed `good`
    /// (shorthand: `allowUnknown` on every component of `revocation`, merged into it).
    #[cfg_attr(feature = "ts", ts(optional))]
    pub allow_unknown_revocation: Option<bool>,
    /// Results only: per component, which chains that are not confirmed `good` a passing
    /// result may have (`allowUnknown`, `revokedGracePeriod`, `allowHold`); default strict.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub revocation: Option<RevocationPolicy>,
    /// Which keys may sign: `'any'` (no pinning), or trusted anchors, each the hex SHA-256
    /// of a certificate's DER SubjectPublicKeyInfo or a CA certificate (PEM). Default: NVIDIA's
    /// attestation CA (the key of its GPU Intermediate 004).
    #[cfg_attr(
        feature = "ts",
        ts(
            optional,
            type = r#""any" | ({ spkiSha256: string } | { certificate: string })[]"#
        )
    )]
    pub signers: Option<Signers>,
}

impl<Now> VerifyInput<Now> {
    /// The checked options.
    ///
    /// # Errors
    /// [`TokenError::InvalidOption`] naming `format` (not `v1` or `detached`, or not the shape
    /// of `endpoint`) or `endpoint` (not an attest path).
    pub fn options(&self) -> Result<VerifyOptions, TokenError> {
        let mut out = VerifyOptions::new();
        out.issuers.clone_from(&self.issuer);
        out.audiences.clone_from(&self.audience);
        out.subject.clone_from(&self.subject);
        out.nonce.clone_from(&self.nonce);
        out.leeway = self.clock_tolerance.unwrap_or(0);
        out.max_age = self.max_token_age;
        if let Some(required) = &self.required_claims {
            out.required_claims.clone_from(required);
        }
        out.typ.clone_from(&self.typ);
        if let Some(crit) = &self.crit {
            out.crit.clone_from(crit);
        }
        out.result_format = self.result_format()?;
        out.allow_failed_result = self.allow_failed_result.unwrap_or(false);
        out.allow_unknown_revocation = self.allow_unknown_revocation.unwrap_or(false);
        if let Some(revocation) = &self.revocation {
            out.revocation.clone_from(revocation);
        }
        if let Some(signers) = &self.signers {
            out.signers.clone_from(signers);
        }
        Ok(out)
    }

    /// Phase one of verifying a compact JWT at `now` (Unix seconds) against `jwks`.
    ///
    /// # Errors
    /// As [`Self::options`], then as [`prepare_jwt`].
    pub fn prepare_jwt(
        &self,
        token: &str,
        jwks: &Jwks,
        now: UnixTime,
    ) -> Result<PreparedJwt, TokenError> {
        prepare_jwt(token, jwks, &self.options()?, now)
    }

    /// Phase one of verifying an attestation result (JSON text) at `now` against `jwks`.
    ///
    /// # Errors
    /// As [`Self::options`], then as [`prepare_attestation_result`].
    pub fn prepare_attestation_result(
        &self,
        result: &[u8],
        jwks: &Jwks,
        now: UnixTime,
    ) -> Result<PreparedAttestationResult, TokenError> {
        prepare_attestation_result(result, jwks, &self.options()?, now)
    }

    /// The expected result shape: `format`, or the shape of `endpoint`; both must agree;
    /// neither means detached.
    fn result_format(&self) -> Result<ResultFormat, TokenError> {
        let invalid = |field, expected| TokenError::InvalidOption { field, expected };
        let format = self
            .format
            .as_deref()
            .map(|text| ResultFormat::parse(text).ok_or(invalid("format", "'v1' or 'detached'")))
            .transpose()?;
        let endpoint = self
            .endpoint
            .as_deref()
            .map(|path| {
                Endpoint::from_path(path)
                    .map(ResultFormat::for_endpoint)
                    .ok_or(invalid("endpoint", "an attest endpoint path"))
            })
            .transpose()?;
        match (format, endpoint) {
            (Some(format), Some(of_endpoint)) if format != of_endpoint => {
                Err(invalid("format", "the shape the endpoint answers with"))
            }
            (format, endpoint) => Ok(format.or(endpoint).unwrap_or_default()),
        }
    }
}

/// A string or an array of strings (a visitor of its own: serde's `untagged` buffers every
/// value and costs kilobytes of wasm). `null` is absent.
fn one_or_many<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    struct Strings;
    impl<'de> Visitor<'de> for Strings {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string or an array of strings")
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_str<E: de::Error>(self, one: &str) -> Result<Self::Value, E> {
            Ok(alloc::vec![one.into()])
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut many = Vec::new();
            while let Some(one) = seq.next_element::<String>()? {
                many.push(one);
            }
            Ok(many)
        }
    }
    deserializer.deserialize_any(Strings)
}

/// A non-negative number of seconds, fractions dropped; `null` is absent.
fn seconds<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
    let Some(number) = Option::<f64>::deserialize(deserializer)? else {
        return Ok(None);
    };
    // Checked finite and in range, so the conversion is exact after flooring.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    if number.is_finite() && (0.0..9.0e15).contains(&number) {
        Ok(Some(number as u64))
    } else {
        Err(de::Error::custom("not a non-negative number of seconds"))
    }
}
