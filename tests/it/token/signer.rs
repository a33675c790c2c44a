//! Signer pinning (`token::signer`): NVIDIA's recorded results verify with the default anchors
//! at their recorded times; the same tokens under a key set whose `x5c` is missing, foreign,
//! carries another key or was tampered with are refused, each with its own code; anchors given
//! as a key pin or a certificate, several at once; `Signers::Any` keeps the old behaviour and
//! says it did not pin; a leaf that may not sign or a CA that may not issue is refused by name;
//! budgets on hostile `x5c` chains.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use edgeattest::chain::parse_pem_chain;
use edgeattest::crypto::{Deferred, SigningKey};
use edgeattest::time::UnixTime;
use edgeattest::token::signer::NRAS_INTERMEDIATE_004_SPKI_SHA256;
use edgeattest::token::{
    create_detached_eat, prepare_attestation_result, prepare_jwt, sign_jwt,
    verify_attestation_result, verify_jwt, Jwks, JwksKey, SignerAnchor, Signers, TokenError,
    VerifiedSigner, VerifyInput, VerifyOptions,
};
use edgeattest::ErrorCode;
use serde_json::{json, Value};

use super::teep::{capture, fixture, Capture};

const ONE_GPU: &str = "v3_1gpu_success_20260629";
const EIGHT_GPU: &str = "v3_8gpu_success_20260629";
const ISSUER: &str = "https://nras.attestation.nvidia.com";
const NRAS_PIN: &str =
    "spkiSha256:fd32837f954e2c45db073105166dfe6985ae0480bb113fba63b091a75affe896";

fn at(secs: u64) -> UnixTime {
    UnixTime::from_secs(secs).unwrap()
}

fn nvidia(c: &Capture, signers: Signers) -> VerifyOptions {
    VerifyOptions::new()
        .issuer(ISSUER)
        .nonce(&c.nonce)
        .signers(signers)
}

/// The recorded key set as JSON.
fn jwks_json(name: &str) -> Value {
    serde_json::from_slice(&fixture(&format!("nras/teep/{name}_jwks.json"))).unwrap()
}

/// The recorded key set with every key's `x5c` changed by `change(index, x5c)`.
fn jwks_with(name: &str, change: impl Fn(usize, &mut Vec<Value>)) -> Jwks {
    let mut set = jwks_json(name);
    for (index, key) in set["keys"].as_array_mut().unwrap().iter_mut().enumerate() {
        let mut x5c = key["x5c"].as_array().cloned().unwrap_or_default();
        change(index, &mut x5c);
        if x5c.is_empty() {
            key.as_object_mut().unwrap().remove("x5c");
        } else {
            key["x5c"] = Value::Array(x5c);
        }
    }
    Jwks::from_value(&set).unwrap()
}

fn verify_recorded(
    name: &str,
    jwks: &Jwks,
    signers: Signers,
) -> Result<VerifiedSigner, TokenError> {
    let c = capture(name);
    verify_attestation_result(&c.response, jwks, &nvidia(&c, signers), at(c.iat))
        .map(|verified| verified.signer().clone())
}

fn code(error: &TokenError) -> &'static str {
    error.code()
}

fn pem_block(der: &[u8]) -> String {
    let body = STANDARD.encode(der);
    let lines: Vec<&str> = body
        .as_bytes()
        .chunks(64)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect();
    format!(
        "-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----\n",
        lines.join("\n")
    )
}

fn spki_pin(der: &[u8]) -> SignerAnchor {
    SignerAnchor::SpkiSha256(SignerAnchor::spki_sha256_of(der).unwrap())
}

// ---- NVIDIA's recorded results ------------------------------------------------------------

#[test]
fn recorded_results_verify_with_the_default_anchors_and_report_the_signer() {
    for name in [ONE_GPU, EIGHT_GPU] {
        let c = capture(name);
        let verified = verify_attestation_result(
            &c.response,
            &c.jwks,
            &VerifyOptions::new().issuer(ISSUER).nonce(&c.nonce),
            at(c.iat),
        )
        .unwrap();
        let signer = verified.signer().pinned().expect("pinned by default");
        assert_eq!(signer.anchor(), NRAS_PIN, "{name}");
        let chain = signer.chain();
        assert_eq!(chain.len(), 2, "{name}");
        assert!(chain[0]
            .subject
            .contains("NVIDIA Attestation Service GPU GH100"));
        assert!(chain[1].subject.contains("GPU Intermediate 004"));
        assert!(chain[1]
            .issuer
            .contains("NVIDIA Attestation Service CA 001"));
        assert!(signer.kid().unwrap().starts_with("nv-eat-kid-prod-"));
        for device in verified.devices() {
            assert_eq!(device.token().signer(), verified.signer());
        }
        let written = serde_json::to_value(&verified).unwrap();
        assert_eq!(written["signer"]["pinned"], true);
        assert_eq!(written["signer"]["anchor"], NRAS_PIN);
        assert_eq!(written["overall"]["signer"], written["signer"]);
    }
}

#[test]
fn signers_any_keeps_the_old_behaviour_and_says_it_did_not_pin() {
    let no_x5c = jwks_with(ONE_GPU, |_, x5c| x5c.clear());
    for jwks in [capture(ONE_GPU).jwks, no_x5c] {
        let signer = verify_recorded(ONE_GPU, &jwks, Signers::Any).unwrap();
        assert_eq!(signer, VerifiedSigner::Unpinned);
        assert_eq!(
            serde_json::to_value(&signer).unwrap(),
            json!({"pinned": false})
        );
    }
}

#[test]
fn a_key_without_x5c_is_refused_under_pinning() {
    let jwks = jwks_with(ONE_GPU, |_, x5c| x5c.clear());
    let error = verify_recorded(ONE_GPU, &jwks, Signers::nras()).unwrap_err();
    assert_eq!(code(&error), "ERR_SIGNER_NO_X5C");
    assert_eq!(error.field(), Some("x5c"));
    assert!(error.to_string().contains("signers: 'any'"), "{error}");
}

#[test]
fn a_leaf_carrying_another_key_is_refused() {
    // Each key gets the next key's chain: a real NVIDIA leaf, but not of this key.
    let set = jwks_json(ONE_GPU);
    let chains: Vec<Value> = set["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["x5c"].clone())
        .collect();
    let jwks = jwks_with(ONE_GPU, |index, x5c| {
        *x5c = chains[(index + 1) % chains.len()]
            .as_array()
            .unwrap()
            .clone();
    });
    let error = verify_recorded(ONE_GPU, &jwks, Signers::nras()).unwrap_err();
    assert_eq!(code(&error), "ERR_SIGNER_KEY_MISMATCH");
}

#[test]
fn a_tampered_or_foreign_chain_is_untrusted() {
    // The leaf's RSA signature by the intermediate, one byte changed: the key still matches.
    let tampered = jwks_with(ONE_GPU, |_, x5c| {
        let mut der = STANDARD.decode(x5c[0].as_str().unwrap()).unwrap();
        let last = der.len() - 1;
        der[last] ^= 1;
        x5c[0] = Value::String(STANDARD.encode(der));
    });
    let error = verify_recorded(ONE_GPU, &tampered, Signers::nras()).unwrap_err();
    assert_eq!(code(&error), "ERR_SIGNER_UNTRUSTED");
    // The intermediate replaced by a foreign CA: it did not issue the leaf.
    let foreign_ca = token_chain()[1].clone();
    let foreign = jwks_with(ONE_GPU, |_, x5c| {
        x5c[1] = Value::String(STANDARD.encode(&foreign_ca));
    });
    let error = verify_recorded(ONE_GPU, &foreign, Signers::nras()).unwrap_err();
    assert_eq!(code(&error), "ERR_SIGNER_UNTRUSTED");
    // The leaf alone: nothing reaches the pin.
    let leaf_only = jwks_with(ONE_GPU, |_, x5c| x5c.truncate(1));
    let error = verify_recorded(ONE_GPU, &leaf_only, Signers::nras()).unwrap_err();
    assert_eq!(code(&error), "ERR_SIGNER_UNTRUSTED");
    // Another anchor only: NVIDIA's chain does not reach it.
    let error = verify_recorded(
        ONE_GPU,
        &capture(ONE_GPU).jwks,
        Signers::Anchors(vec![SignerAnchor::SpkiSha256([7; 32])]),
    )
    .unwrap_err();
    assert_eq!(code(&error), "ERR_SIGNER_UNTRUSTED");
}

#[test]
fn several_anchors_at_once_and_an_anchor_certificate_work() {
    let c = capture(ONE_GPU);
    let other = SignerAnchor::SpkiSha256([7; 32]);
    let nras = SignerAnchor::SpkiSha256(NRAS_INTERMEDIATE_004_SPKI_SHA256);
    for anchors in [vec![nras.clone(), other.clone()], vec![other.clone(), nras]] {
        let signer = verify_recorded(ONE_GPU, &c.jwks, Signers::Anchors(anchors)).unwrap();
        assert_eq!(signer.pinned().unwrap().anchor(), NRAS_PIN);
    }
    // The intermediate's certificate itself (RSA key) as a `certificate` anchor, written as JSON.
    let x5c = c.jwks.keys()[0].x5c().unwrap();
    let intermediate = STANDARD.decode(&x5c[1]).unwrap();
    assert_eq!(
        SignerAnchor::spki_sha256_of(&intermediate),
        Some(NRAS_INTERMEDIATE_004_SPKI_SHA256)
    );
    let input: VerifyInput = serde_json::from_value(json!({
        "issuer": ISSUER,
        "nonce": c.nonce,
        "signers": [{"spkiSha256": "00".repeat(32)}, {"certificate": pem_block(&intermediate)}],
    }))
    .unwrap();
    let verified = input
        .prepare_attestation_result(&c.response, &c.jwks, at(c.iat))
        .unwrap()
        .verify()
        .unwrap();
    let signer = verified.signer().pinned().unwrap();
    assert_eq!(
        signer.anchor(),
        "certificate:C=US,O=NVIDIA Corporation,CN=NVIDIA Attestation Service GPU Intermediate 004"
    );
}

// ---- a chain of our own: the test token signer and its CA ---------------------------------

/// `token_signing_chain.pem` (leaf "edgeattest test token signer", then its self-signed CA
/// "Test Token Signing CA", both ECDSA P-384, valid 2026-01-01 to 2036-01-01), DER.
fn token_chain() -> Vec<Vec<u8>> {
    parse_pem_chain(include_str!(
        "../../fixtures/generated/token_signing_chain.pem"
    ))
    .unwrap()
}

fn token_key() -> SigningKey {
    SigningKey::from_pkcs8_pem(include_str!(
        "../../fixtures/generated/token_signing_key.pem"
    ))
    .unwrap()
}

/// 2027-01-01: inside the chain's validity.
const NOW: u64 = 1_798_761_600;
/// 2037-01-01: after it.
const LATER: u64 = 2_114_380_800;
/// 2025-12-31: before it.
const BEFORE: u64 = 1_767_139_200;

fn own_jwks(chain: &[Vec<u8>]) -> Jwks {
    let x5c = chain.iter().map(|der| STANDARD.encode(der)).collect();
    Jwks::new(vec![JwksKey::new(
        Some("own".into()),
        token_key().public_key(),
    )
    .with_x5c(x5c)])
    .unwrap()
}

fn own_token(iat: Option<u64>, exp: u64) -> String {
    let mut claims = json!({"iss": "https://own.example", "exp": exp});
    if let Some(iat) = iat {
        claims["iat"] = json!(iat);
    }
    sign_jwt(&claims, &token_key(), "own").unwrap()
}

fn root_certificate() -> Signers {
    let root = token_chain()[1].clone();
    Signers::Anchors(vec![
        SignerAnchor::from_certificate_pem(&pem_block(&root)).unwrap()
    ])
}

#[test]
fn our_own_chain_passes_pinned_to_its_root_and_fails_pinned_to_nvidia() {
    let chain = token_chain();
    let token = own_token(Some(NOW), NOW + 60);
    let options = |signers| VerifyOptions::new().signers(signers);
    let error = verify_jwt(
        &token,
        &own_jwks(&chain),
        &options(Signers::nras()),
        at(NOW),
    )
    .unwrap_err();
    assert_eq!(code(&error), "ERR_SIGNER_UNTRUSTED");
    // The root in x5c equals the anchor certificate; or x5c holds the leaf only and the anchor
    // issued it; or the root's key pinned.
    for (x5c, signers, length) in [
        (chain.clone(), root_certificate(), 2),
        (chain[..1].to_vec(), root_certificate(), 2),
        (
            chain.clone(),
            Signers::Anchors(vec![spki_pin(&chain[1])]),
            2,
        ),
        (
            chain.clone(),
            Signers::Anchors(vec![spki_pin(&chain[0])]),
            1,
        ),
    ] {
        let jwt = verify_jwt(&token, &own_jwks(&x5c), &options(signers), at(NOW)).unwrap();
        let signer = jwt.signer().pinned().unwrap();
        assert_eq!(signer.chain().len(), length);
        assert_eq!(signer.kid(), Some("own"));
    }
    let jwt = verify_jwt(
        &token,
        &own_jwks(&chain),
        &options(root_certificate()),
        at(NOW),
    )
    .unwrap();
    assert_eq!(
        jwt.signer().pinned().unwrap().anchor(),
        "certificate:CN=Test Token Signing CA"
    );
}

#[test]
fn the_ecdsa_links_are_deferred_and_a_false_verdict_is_untrusted() {
    let chain = token_chain();
    let token = own_token(Some(NOW), NOW + 60);
    let options = VerifyOptions::new().signers(root_certificate());
    let prepared = prepare_jwt(&token, &own_jwks(&chain), &options, at(NOW)).unwrap();
    // The token's check, then the leaf's signature by the CA.
    assert_eq!(prepared.signature_checks().len(), 2);
    let error = Deferred::finish(prepared.clone(), &[true, false]).unwrap_err();
    assert_eq!(code(&error), "ERR_SIGNER_UNTRUSTED");
    let error = Deferred::finish(prepared.clone(), &[false, true]).unwrap_err();
    assert_eq!(code(&error), "ERR_JWS_SIGNATURE_VERIFICATION_FAILED");
    let error = Deferred::finish(prepared.clone(), &[true]).unwrap_err();
    assert_eq!(code(&error), "ERR_VERDICT_COUNT");
    assert!(prepared.finish_in_software().is_ok());
    // A tampered leaf signature: the software verdict is false.
    let mut leaf = chain[0].clone();
    let last = leaf.len() - 1;
    leaf[last] ^= 1;
    let error = verify_jwt(
        &token,
        &own_jwks(&[leaf, chain[1].clone()]),
        &options,
        at(NOW),
    )
    .unwrap_err();
    assert_eq!(code(&error), "ERR_SIGNER_UNTRUSTED");
}

#[test]
fn a_chain_outside_its_validity_at_now_or_at_iat_is_expired() {
    let jwks = own_jwks(&token_chain());
    let options = VerifyOptions::new().signers(root_certificate());
    // Signed and checked after the leaf expired.
    let token = own_token(Some(LATER), LATER + 60);
    let error = verify_jwt(&token, &jwks, &options, at(LATER)).unwrap_err();
    assert_eq!(code(&error), "ERR_SIGNER_EXPIRED");
    assert!(error.to_string().contains("at now"), "{error}");
    // Signed before the leaf was valid, checked while it is.
    let token = own_token(Some(BEFORE), NOW + 60);
    let error = verify_jwt(&token, &jwks, &options, at(NOW)).unwrap_err();
    assert_eq!(code(&error), "ERR_SIGNER_EXPIRED");
    assert!(error.to_string().contains("at iat"), "{error}");
    // No iat: when it was signed is unknown.
    let token = own_token(None, NOW + 60);
    let error = verify_jwt(&token, &jwks, &options, at(NOW)).unwrap_err();
    assert_eq!(code(&error), "ERR_SIGNER_EXPIRED");
    // A token that itself expired says so first.
    let token = own_token(Some(NOW), NOW + 60);
    let error = verify_jwt(&token, &jwks, &options, at(LATER)).unwrap_err();
    assert_eq!(code(&error), "ERR_JWT_EXPIRED");
}

#[test]
fn a_result_whose_tokens_share_a_key_pins_it_once() {
    let chain = token_chain();
    let key = token_key();
    let devices: Vec<(String, String)> = (0..8)
        .map(|i| {
            let claims = json!({"iat": NOW, "exp": NOW + 60, "x-nvidia-gpu-arch-check": true});
            (format!("GPU-{i}"), sign_jwt(&claims, &key, "own").unwrap())
        })
        .collect();
    let overall = json!({"iss": "https://own.example", "iat": NOW, "exp": NOW + 60,
        "x-nvidia-overall-att-result": true});
    let result = create_detached_eat(overall.as_object().unwrap(), &devices, &key, "own").unwrap();
    let options = VerifyOptions::new()
        .signers(root_certificate())
        .allow_failed_result(true)
        .allow_unknown_revocation(true);
    let prepared =
        prepare_attestation_result(result.as_bytes(), &own_jwks(&chain), &options, at(NOW))
            .unwrap();
    // Nine tokens, one link.
    assert_eq!(prepared.signature_checks().len(), 10);
    let mut verdicts = vec![true; 10];
    let report = prepared.clone().report(&verdicts).unwrap();
    assert!(report.first_error().is_none());
    // The one link false: every token is refused for its signer.
    verdicts[9] = false;
    let report = prepared.report(&verdicts).unwrap();
    assert_eq!(code(report.overall().unwrap_err()), "ERR_SIGNER_UNTRUSTED");
    for device in report.devices() {
        assert_eq!(code(device.outcome().unwrap_err()), "ERR_SIGNER_UNTRUSTED");
    }
}

// ---- key usage: generate_signer_usage.py's chains ----------------------------------------

/// `signer_usage/chain_<case>.pem` (a leaf carrying `signer_usage/key.pem`'s key, then the CA
/// that issued it): the case, the certificate refused, what it may not do.
const USAGE_CASES: [(&str, &str, &str, &str); 3] = [
    (
        "leaf_without_digital_signature",
        include_str!(
            "../../fixtures/generated/signer_usage/chain_leaf_without_digital_signature.pem"
        ),
        "CN=Signer Usage Test Leaf (leaf_without_digital_signature)",
        "sign tokens",
    ),
    (
        "ca_without_keycertsign",
        include_str!("../../fixtures/generated/signer_usage/chain_ca_without_keycertsign.pem"),
        "CN=Signer Usage Test CA (ca_without_keycertsign)",
        "issue certificates",
    ),
    (
        "ca_without_ca",
        include_str!("../../fixtures/generated/signer_usage/chain_ca_without_ca.pem"),
        "CN=Signer Usage Test CA (ca_without_ca)",
        "issue certificates",
    ),
];

#[test]
fn a_leaf_that_may_not_sign_or_a_ca_that_may_not_issue_is_refused_by_name() {
    let key = SigningKey::from_pkcs8_pem(include_str!(
        "../../fixtures/generated/signer_usage/key.pem"
    ))
    .unwrap();
    let token = sign_jwt(&json!({"iat": NOW, "exp": NOW + 60}), &key, "usage").unwrap();
    for (case, pem, subject, what) in USAGE_CASES {
        let chain = parse_pem_chain(pem).unwrap();
        let x5c = chain.iter().map(|der| STANDARD.encode(der)).collect();
        let jwks = Jwks::new(vec![
            JwksKey::new(Some("usage".into()), key.public_key()).with_x5c(x5c)
        ])
        .unwrap();
        // The CA pinned by its key and given as a certificate: refused either way.
        for signers in [
            Signers::Anchors(vec![spki_pin(&chain[1])]),
            Signers::Anchors(vec![SignerAnchor::from_certificate_pem(&pem_block(
                &chain[1],
            ))
            .unwrap()]),
        ] {
            let options = VerifyOptions::new().signers(signers);
            let error = verify_jwt(&token, &jwks, &options, at(NOW)).unwrap_err();
            assert_eq!(code(&error), "ERR_SIGNER_KEY_USAGE", "{case}: {error}");
            let text = error.to_string();
            assert!(
                text.contains(&format!("certificate {subject:?}")) && text.contains(what),
                "{case}: {text}"
            );
        }
        // Unpinned, the same key set verifies: only pinning reads the usage.
        let options = VerifyOptions::new().signers(Signers::Any);
        assert!(
            verify_jwt(&token, &jwks, &options, at(NOW)).is_ok(),
            "{case}"
        );
    }
}

// ---- budgets and the written form ----------------------------------------------------------

#[test]
fn oversized_x5c_chains_are_refused_before_parsing() {
    let chain = token_chain();
    let token = own_token(Some(NOW), NOW + 60);
    let options = VerifyOptions::new().signers(root_certificate());
    // Nine certificates.
    let nine: Vec<Vec<u8>> = std::iter::repeat_n(chain[0].clone(), 9).collect();
    let error = verify_jwt(&token, &own_jwks(&nine), &options, at(NOW)).unwrap_err();
    assert_eq!(code(&error), "ERR_SIGNER_UNTRUSTED");
    assert!(error.to_string().contains("more than 8"), "{error}");
    // One entry over 16 KB.
    let big = vec![0x30u8; 17 * 1024];
    let error = verify_jwt(
        &token,
        &own_jwks(&[chain[0].clone(), big]),
        &options,
        at(NOW),
    )
    .unwrap_err();
    assert_eq!(code(&error), "ERR_SIGNER_UNTRUSTED");
    assert!(error.to_string().contains("16384"), "{error}");
    // Not base64 of a certificate: the key set is malformed.
    let error = verify_jwt(
        &token,
        &own_jwks(&[chain[0].clone(), vec![1, 2, 3]]),
        &options,
        at(NOW),
    )
    .unwrap_err();
    assert_eq!(code(&error), "ERR_JWKS_INVALID");
}

#[test]
fn the_written_form_is_any_or_anchors_and_nothing_else() {
    let read = |value: Value| serde_json::from_value::<VerifyInput>(json!({ "signers": value }));
    assert_eq!(
        read(json!("any")).unwrap().options().unwrap().signers,
        Signers::Any
    );
    assert_eq!(VerifyOptions::new().signers, Signers::nras());
    assert_eq!(
        serde_json::from_value::<VerifyInput>(json!({}))
            .unwrap()
            .options()
            .unwrap()
            .signers,
        Signers::nras()
    );
    let pin = hex::encode(NRAS_INTERMEDIATE_004_SPKI_SHA256);
    assert_eq!(
        read(json!([{ "spkiSha256": pin.to_uppercase() }]))
            .unwrap()
            .options()
            .unwrap()
            .signers,
        Signers::nras()
    );
    for bad in [
        json!("all"),
        json!([]),
        json!([{ "spkiSha256": "abc" }]),
        json!([{ "spkiSha256": pin, "certificate": "x" }]),
        json!([{ "spki": pin }]),
        json!([{ "certificate": "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----" }]),
        json!([{}]),
        json!(true),
    ] {
        assert!(read(bad.clone()).is_err(), "{bad}");
    }
    let error = SignerAnchor::from_spki_sha256_hex("zz").unwrap_err();
    assert_eq!(error.code(), "ERR_INVALID_ARGUMENT");
    assert_eq!(error.field(), Some("signers.spkiSha256"));
    let error = SignerAnchor::from_certificate_pem("not pem").unwrap_err();
    assert_eq!(error.field(), Some("signers.certificate"));
}
