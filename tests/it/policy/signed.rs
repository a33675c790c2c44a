//! Verified results for the policy and EAR suites: detached results signed by a test key over
//! given claims, and NVIDIA's recordings, verified as recorded or re-signed after an edit.
//! Each is verified whatever its verdict: a policy is appraised over authentic tokens.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::crypto::SigningKey;
use edgeattest::ocsp::RevocationPolicy;
use edgeattest::token::Signers;
use edgeattest::token::{
    create_detached_eat, sign_jwt, verify_attestation_result, Jwks, JwksKey, ResultFormat,
    VerifiedAttestationResult, VerifyOptions,
};
use edgeattest::UnixTime;
use serde_json::{json, Map, Value};

use crate::token::teep::{capture, claims, fixture};

pub(crate) const KID: &str = "policy-test";
pub(crate) const ISS: &str = "https://edgeattest.invalid";
pub(crate) const NONCE: &str = "931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb";
pub(crate) const IAT: u64 = 1_749_601_858;

pub(crate) fn key() -> SigningKey {
    SigningKey::generate(&[0x52; 48]).unwrap()
}

pub(crate) fn jwks() -> Jwks {
    Jwks::new(vec![JwksKey::new(Some(KID.into()), key().public_key())]).unwrap()
}

/// `claims` over the test's issuer, times and nonce (the claims win).
pub(crate) fn with_times(claims: Value) -> Value {
    let mut all = json!({"iss": ISS, "iat": IAT, "nbf": IAT, "exp": IAT + 600, "eat_nonce": NONCE});
    all.as_object_mut()
        .unwrap()
        .extend(claims.as_object().unwrap().clone());
    all
}

/// A result signed by the test key, verified whatever its verdict and its chains' revocation
/// (the policies decide those claims themselves).
pub(crate) fn verify(result: &str, format: ResultFormat) -> VerifiedAttestationResult {
    let options = VerifyOptions::new()
        .signers(Signers::Any)
        .issuer(ISS)
        .nonce(NONCE)
        .result_format(format)
        .allow_failed_result(true)
        // Every chain's revocation is the policy's to judge here: unknown and held pass.
        .revocation(RevocationPolicy::strict().with_hold_allowed())
        .allow_unknown_revocation(true);
    verify_attestation_result(
        result.as_bytes(),
        &jwks(),
        &options,
        UnixTime::from_secs(IAT).unwrap(),
    )
    .unwrap()
}

/// A detached result: overall claims and one device token per `(label, claims)`.
pub(crate) fn detached(overall: Value, devices: &[(&str, Value)]) -> VerifiedAttestationResult {
    let key = key();
    let devices: Vec<(String, String)> = devices
        .iter()
        .map(|(label, claims)| {
            let token = sign_jwt(&with_times(claims.clone()), &key, KID).unwrap();
            ((*label).to_owned(), token)
        })
        .collect();
    let overall = with_times(overall);
    let result = create_detached_eat(overall.as_object().unwrap(), &devices, &key, KID).unwrap();
    verify(&result, ResultFormat::Detached)
}

/// A recorded NRAS exchange, verified; a result the service refused gives its authentic
/// tokens all the same.
pub(crate) fn recorded(name: &str) -> VerifiedAttestationResult {
    let c = capture(name);
    let options = VerifyOptions::new()
        .signers(Signers::Any)
        .issuer("https://nras.attestation.nvidia.com")
        .nonce(&c.nonce);
    match verify_attestation_result(
        &c.response,
        &c.jwks,
        &options,
        UnixTime::from_secs(c.iat).unwrap(),
    ) {
        Ok(result) => result,
        Err(error) => error
            .refused_result()
            .expect("an authentic result")
            .1
            .clone(),
    }
}

/// A recorded NVAT result (`nras/nvat/NAME_detached_eat.json`) with its claims re-signed
/// by the test key, `edit` applied to every device's claims first; its issuer, time and
/// nonce as recorded.
pub(crate) fn resigned(
    name: &str,
    edit: impl Fn(&mut Map<String, Value>),
) -> VerifiedAttestationResult {
    let recorded: Value =
        serde_json::from_slice(&fixture(&format!("nras/nvat/{name}_detached_eat.json"))).unwrap();
    let mut overall = claims(recorded[0][1].as_str().unwrap());
    let overall = overall.as_object_mut().unwrap();
    overall.remove("submods");
    let nonce = overall["eat_nonce"].as_str().unwrap().to_owned();
    let iat = overall["iat"].as_u64().unwrap();
    let issuer = overall["iss"].as_str().unwrap().to_owned();
    let key = key();
    let devices: Vec<(String, String)> = recorded[1]
        .as_object()
        .unwrap()
        .iter()
        .map(|(label, token)| {
            let mut device = claims(token.as_str().unwrap());
            edit(device.as_object_mut().unwrap());
            (label.clone(), sign_jwt(&device, &key, KID).unwrap())
        })
        .collect();
    let result = create_detached_eat(overall, &devices, &key, KID).unwrap();
    let options = VerifyOptions::new()
        .signers(Signers::Any)
        .issuer(&issuer)
        .nonce(&nonce)
        .allow_failed_result(true)
        // Every chain's revocation is the policy's to judge here: unknown and held pass.
        .revocation(RevocationPolicy::strict().with_hold_allowed())
        .allow_unknown_revocation(true);
    verify_attestation_result(
        result.as_bytes(),
        &jwks(),
        &options,
        UnixTime::from_secs(iat).unwrap(),
    )
    .unwrap()
}
