//! The bodies of the fuzz targets, one function per target, shared by the cargo-fuzz crate
//! (tests/fuzz/fuzz_targets/*.rs, coverage-guided) and by the native replay test
//! (tests/it/hardening/fuzz_replay.rs, which runs every committed corpus and regression input
//! through the same functions under `cargo test`).
//!
//! Each function takes the fuzzer's bytes, feeds them to one entry point that takes outside
//! bytes, and checks properties that must hold for any input: no panic (the fuzzer's
//! finding), every error carries an `ERR_*` code, and where a cheap oracle exists, the
//! result agrees with it (strict JSON accepts a subset of `serde_json`, a self-signed token
//! never fails its signature, a decoded value re-encodes to an input that decodes the same).
//!
//! Inputs that carry several documents separate them with [`SEP`].

use base64::Engine;
use edgeattest::attest::{validate_request, Arch, Endpoint, FwidPolicy, Nonce};
use edgeattest::chain::{parse_pem_chain, verify_chain, ChainOptions, TimeCheck, TrustStore};
use edgeattest::crypto::{PublicKey, SigningKey, SIGNATURE_LEN};
use edgeattest::evidence::{
    decode_generation1, decode_generation2, verify_evidence, DeviceInput, Transcript, VerifyContext,
};
use edgeattest::rim::{canonical_forms, open_envelope, verify_rim, RimTrust};
use edgeattest::token::Signers;
use edgeattest::token::{
    verify_attestation_result, verify_jwt, AttestationResult, Jwks, JwksKey, TokenError,
    VerifyOptions,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;

// The service's targets (a request through `handle`, a hostile host answering the exchange).
#[path = "harness_service.rs"]
mod service;
pub use service::{service_exchange, service_request};

// OCSP responses (a hostile responder, network or cache).
#[path = "harness_ocsp.rs"]
mod ocsp;
pub use ocsp::{ocsp_request, ocsp_response};

// The gateway: requests, key stores, deprecation checks.
#[path = "harness_access.rs"]
mod access;
pub use access::{access_gateway, access_keystore, deprecation_request};

// Lists: queries and upstream rows.
#[path = "harness_listing.rs"]
mod listing;
pub use listing::{listing_query, listing_table};

// The software P-384 verification against RustCrypto's.
#[path = "harness_crypto.rs"]
mod crypto;
pub use crypto::{p384_edge_cases, p384_verify};

// Strict CBOR and COSE_Sign1.
#[path = "harness_cbor.rs"]
mod cbor;
pub use cbor::cbor_cose;

// Rego policies over fuzzed claims (feature `rego`).
#[cfg(feature = "rego")]
#[path = "harness_rego.rs"]
mod rego;
#[cfg(feature = "rego")]
pub use rego::rego_policy;

// Relying-party policies (NVIDIA's JSON format) over a recorded result.
#[path = "harness_policy.rs"]
mod policy;
pub use policy::policy_json;

/// Separates the documents of a multi-document input.
pub const SEP: &[u8] = b"\n%%\n";

/// A fixed time inside every fixture's validity (2026-06-29 12:00 UTC), so that time is not
/// what rejects an input.
pub const NOW: u64 = 1_782_734_400;

/// The nonce of the Hopper transcript the fuzz PKI re-signs.
pub const FUZZ_NONCE: &str = "931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb";

/// The fuzz PKI (tests/fuzz/keys/generate.py): anchor, chain and leaf key.
pub const FUZZ_ROOT_PEM: &str = include_str!("../keys/fuzz_root.pem");
/// Leaf first.
pub const FUZZ_CHAIN_PEM: &str = include_str!("../keys/fuzz_chain.pem");
const FUZZ_LEAF_KEY_HEX: &str = include_str!("../keys/fuzz_leaf_key.hex");

/// The JWKS of the recorded NRAS exchange (for results and tokens taken from it).
pub const NRAS_JWKS: &str =
    include_str!("../../fixtures/nvidia/nras/teep/v3_1gpu_success_20260629_jwks.json");

/// The kid of the key the token targets sign with.
pub const FUZZ_KID: &str = "fuzz-kid";

/// Splits `data` into at most `n` parts at [`SEP`]; missing parts are empty.
pub fn split(data: &[u8], n: usize) -> Vec<&[u8]> {
    let mut parts = Vec::with_capacity(n);
    let mut rest = data;
    while parts.len() + 1 < n {
        match rest.windows(SEP.len()).position(|w| w == SEP) {
            Some(at) => {
                parts.push(&rest[..at]);
                rest = &rest[at + SEP.len()..];
            }
            None => break,
        }
    }
    parts.push(rest);
    while parts.len() < n {
        parts.push(&[]);
    }
    parts
}

/// Every error code is a stable `ERR_*` string (the JS and HTTP layers rely on it).
fn check_code<E: ErrorCode + core::fmt::Debug>(error: &E) {
    let code = error.code();
    assert!(
        code.starts_with("ERR_") && code.len() > 4,
        "error without a code: {error:?}"
    );
    // Display must not panic either (error bodies and JS messages are built from it).
    let _ = error.field();
}

fn check<T, E: ErrorCode + core::fmt::Debug + core::fmt::Display>(result: &Result<T, E>) {
    if let Err(error) = result {
        check_code(error);
        let _ = error.to_string();
    }
}

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

fn device_store() -> TrustStore {
    TrustStore::nvidia_device_identity().expect("embedded root")
}

fn fuzz_signing_key() -> SigningKey {
    let scalar = hex::decode(FUZZ_LEAF_KEY_HEX.trim()).expect("hex key");
    SigningKey::from_scalar_bytes(&scalar).expect("scalar")
}

fn token_signing_key() -> SigningKey {
    SigningKey::from_scalar_bytes(&[0x5a; 48]).expect("scalar")
}

/// Architecture from one selector byte.
fn arch(selector: u8) -> Arch {
    match selector % 3 {
        0 => Arch::Hopper,
        1 => Arch::Blackwell,
        _ => Arch::Ls10,
    }
}

/// `json_parse`: strict JSON (`crate::json::parse`).
pub fn json_parse(data: &[u8]) {
    let strict = edgeattest::json::parse(data);
    check(&strict);
    let lenient = serde_json::from_slice::<serde_json::Value>(data);
    match (&strict, &lenient) {
        // Strict JSON accepts a subset of serde_json's language and reads it the same.
        (Ok(value), Ok(other)) => assert_eq!(value, other, "strict and lenient disagree"),
        (Ok(_), Err(error)) => panic!("strict accepted what serde_json refuses: {error}"),
        // A duplicate is reported where it is met, even if the text turns invalid later; a
        // refusal by depth is stricter than serde_json's own limit. Both are fine.
        _ => {}
    }
}

/// `evidence_transcript`: SPDM transcript structure and every opaque accessor.
pub fn evidence_transcript(data: &[u8]) {
    let parsed = Transcript::parse(data);
    check(&parsed);
    let Ok(transcript) = parsed else { return };
    assert_eq!(transcript.bytes(), data);
    assert_eq!(
        transcript.signed_bytes().len() + SIGNATURE_LEN,
        data.len(),
        "signature not at the end"
    );
    for index in 0..=u8::MAX {
        let _ = transcript.block(index);
    }
    let opaque = &transcript.response.opaque;
    for kind in [
        edgeattest::attest::DeviceKind::Gpu,
        edgeattest::attest::DeviceKind::Switch,
    ] {
        check(&opaque.validate(kind));
        check(&opaque.vbios_version(kind));
    }
    check(&opaque.switch_gpu_pdis());
    check(&opaque.disabled_ports());
    check(&opaque.device_pdi());
    check(&opaque.switch_pdis());
    check(&opaque.msrscnt());
    for tag in 0..64 {
        check(&opaque.text(tag));
        check(&opaque.u16_field(tag));
        check(&opaque.enable_status(tag));
    }
}

/// `evidence_decode`: generation-1 (base64 of hex) and generation-2 (base64) encodings.
pub fn evidence_decode(data: &[u8]) {
    let input = text(data);
    let base64 = base64::engine::general_purpose::STANDARD;
    let gen2 = decode_generation2(&input);
    check(&gen2);
    if let Ok(bytes) = &gen2 {
        // Canonical re-encoding decodes to the same bytes.
        assert_eq!(
            decode_generation2(&base64.encode(bytes)).as_ref(),
            Ok(bytes)
        );
        let _ = Transcript::parse(bytes);
    }
    let gen1 = decode_generation1(&input);
    check(&gen1);
    if let Ok(bytes) = &gen1 {
        let again = decode_generation1(&base64.encode(hex::encode(bytes)));
        assert_eq!(again.as_ref(), Ok(bytes));
    }
}

/// `evidence_verify`: one device against the NVIDIA device root. Input: selector byte
/// (architecture), then `evidence SEP certificate-PEM`.
pub fn evidence_verify(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let parts = split(rest, 2);
    let pem = text(parts[1]);
    let store = device_store();
    let context = VerifyContext {
        arch: arch(selector),
        nonce: Nonce::parse(FUZZ_NONCE).expect("nonce"),
        now: UnixTime::from_secs(NOW).unwrap(),
        trust_store: &store,
        chain_options: ChainOptions::default(),
        fwid_policy: FwidPolicy::default(),
    };
    let result = verify_evidence(
        DeviceInput {
            evidence: parts[0],
            certificate_pem: &pem,
        },
        &context,
    );
    check(&result);
    let _ = result.map(|verified| serde_json::to_string(&verified.to_report()));
}

/// `evidence_signed`: every transcript that parses is re-signed with the fuzz PKI's leaf
/// key, so that the checks after the signature (nonce, architecture, opaque values, FWID)
/// see fuzzed values. Input: selector byte (architecture), then the transcript.
pub fn evidence_signed(data: &[u8]) {
    let Some((&selector, evidence)) = data.split_first() else {
        return;
    };
    let mut evidence = evidence.to_vec();
    let parses = Transcript::parse(&evidence).is_ok();
    if parses {
        let at = evidence.len() - SIGNATURE_LEN;
        let signature = fuzz_signing_key().sign(&evidence[..at]);
        evidence[at..].copy_from_slice(&signature);
    }
    let store = TrustStore::from_pem(FUZZ_ROOT_PEM).expect("fuzz root");
    let context = VerifyContext {
        arch: arch(selector),
        nonce: Nonce::parse(FUZZ_NONCE).expect("nonce"),
        now: UnixTime::from_secs(NOW).unwrap(),
        trust_store: &store,
        chain_options: ChainOptions::default(),
        fwid_policy: FwidPolicy::default(),
    };
    let result = verify_evidence(
        DeviceInput {
            evidence: &evidence,
            certificate_pem: FUZZ_CHAIN_PEM,
        },
        &context,
    );
    check(&result);
    if parses {
        // We signed it: whatever fails, it is not the evidence signature.
        if let Err(error) = &result {
            assert_ne!(
                error.code(),
                "ERR_EVIDENCE_SIGNATURE",
                "re-signed evidence failed its signature: {error:?}"
            );
        }
    }
    if let Ok(verified) = result {
        let report = verified.to_report();
        let _ = serde_json::to_string(&report);
    }
}

/// `chain_pem`: PEM chain text, verified to the NVIDIA device root and to the RIM root.
pub fn chain_pem(data: &[u8]) {
    let input = text(data);
    let parsed = parse_pem_chain(&input);
    check(&parsed);
    let Ok(ders) = parsed else { return };
    chain_verify_all(&ders);
}

/// `chain_der`: DER certificates separated by [`SEP`] (leaf first), verified to the NVIDIA
/// roots, and the same certificates used as anchors.
pub fn chain_der(data: &[u8]) {
    let ders: Vec<&[u8]> = split(data, 32);
    let ders: Vec<&[u8]> = ders.into_iter().filter(|d| !d.is_empty()).collect();
    chain_verify_all(&ders);
    check(&TrustStore::from_der(&ders));
}

fn chain_verify_all<C: AsRef<[u8]>>(ders: &[C]) {
    let stores = [
        device_store(),
        TrustStore::nvidia_rim().expect("embedded root"),
    ];
    for store in &stores {
        for options in [
            ChainOptions::default(),
            ChainOptions::default().with_time(TimeCheck::Enforce),
        ] {
            let result = verify_chain(ders, store, UnixTime::from_secs(NOW).unwrap(), &options);
            check(&result);
            if let Ok(chain) = result {
                let _ = chain.ueid();
                let _ = chain.hwmodel();
                let _ = chain.fwid_dice();
                let _ = chain.fwid_tcb_info();
                let _ = chain.earliest_not_after_iso();
            }
        }
    }
}

fn fuzz_jwks() -> Jwks {
    let key = token_signing_key().public_key();
    Jwks::new(vec![JwksKey::new(Some(FUZZ_KID.into()), key)]).expect("jwks")
}

/// `token_jwt`: a compact JWS/JWT verified against the recorded NRAS JWKS and a fuzz key.
pub fn token_jwt(data: &[u8]) {
    let token = text(data);
    let nras = Jwks::parse(NRAS_JWKS.as_bytes()).expect("nras jwks");
    for jwks in [&nras, &fuzz_jwks()] {
        let result = verify_jwt(
            &token,
            jwks,
            &VerifyOptions::new().signers(Signers::Any),
            UnixTime::from_secs(NOW).unwrap(),
        );
        check(&result);
        let result = verify_jwt(
            &token,
            jwks,
            &VerifyOptions::new()
                .signers(Signers::Any)
                .issuer("https://nras.attestation.nvidia.com")
                .max_age(3600)
                .typ("JWT")
                .understand_crit("b64"),
            UnixTime::from_secs(NOW).unwrap(),
        );
        check(&result);
    }
}

/// `token_claims`: fuzzed header and claims (`header SEP claims`, raw JSON bytes), signed
/// with the fuzz key and verified, so that the header and claim checks see every shape. A
/// selector byte first picks the options.
pub fn token_claims(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let parts = split(rest, 2);
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let input = format!("{}.{}", b64.encode(parts[0]), b64.encode(parts[1]));
    let signature = token_signing_key().sign(input.as_bytes());
    let token = format!("{input}.{}", b64.encode(signature));
    let mut options = VerifyOptions::new().signers(Signers::Any);
    if selector & 1 != 0 {
        options = options.issuer("https://nras.attestation.nvidia.com");
    }
    if selector & 2 != 0 {
        options = options.max_age(3600);
    }
    if selector & 4 != 0 {
        options = options.nonce(FUZZ_NONCE);
    }
    if selector & 8 != 0 {
        options = options.typ("JWT");
    }
    if selector & 16 != 0 {
        options = options.leeway(u64::from(selector));
    }
    if selector & 32 != 0 {
        options = options.require("sub").subject("NVIDIA-GPU-ATTESTATION");
    }
    if selector & 64 != 0 {
        options = options.understand_crit("b64").understand_crit("exp");
    }
    // The latest time a UnixTime can hold: the time checks' arithmetic at its end.
    let now = if selector & 128 != 0 {
        UnixTime::MAX
    } else {
        UnixTime::from_secs(NOW).unwrap()
    };
    let result = verify_jwt(&token, &fuzz_jwks(), &options, now);
    check(&result);
    match &result {
        Err(TokenError::SignatureVerificationFailed) => {
            panic!("a token signed by the harness failed its signature")
        }
        Ok(verified) => {
            // What was accepted is what was signed.
            let claims = edgeattest::json::parse(parts[1]).expect("accepted claims parse");
            assert_eq!(
                Some(verified.claims()),
                claims.as_object(),
                "claims differ from the signed ones"
            );
        }
        Err(_) => {}
    }
}

/// `token_jwks`: a JWKS document, and single JWKs.
pub fn token_jwks(data: &[u8]) {
    let parsed = Jwks::parse(data);
    check(&parsed);
    if let Ok(jwks) = parsed {
        let json = jwks.to_json();
        let again = Jwks::parse(json.as_bytes()).expect("own JWKS output parses");
        assert_eq!(again.keys().len(), jwks.keys().len());
        check(&jwks.select(None));
        check(&jwks.select(Some("")));
        for key in jwks.keys() {
            let _ = key.to_jwk();
        }
    }
    let key = PublicKey::from_jwk_json(data);
    check(&key);
    if let Ok(key) = key {
        assert_eq!(PublicKey::from_sec1(&key.to_sec1()).as_ref(), Ok(&key));
    }
}

/// `token_result`: an attestation result (either shape) verified against the NRAS JWKS.
pub fn token_result(data: &[u8]) {
    let parsed = AttestationResult::parse(data);
    check(&parsed);
    if let Ok(result) = &parsed {
        let json = result.to_json();
        let again = AttestationResult::parse(json.as_bytes()).expect("own result output parses");
        assert_eq!(&again, result);
    }
    let nras = Jwks::parse(NRAS_JWKS.as_bytes()).expect("nras jwks");
    check(&verify_attestation_result(
        data,
        &nras,
        &VerifyOptions::new().signers(Signers::Any),
        UnixTime::from_secs(NOW).unwrap(),
    ));
}

/// `attest_request`: a request body for the endpoint the selector byte picks, then the
/// decoded evidence and chain of each device through their parsers.
pub fn attest_request(data: &[u8]) {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let endpoint = Endpoint::ALL[usize::from(selector) % Endpoint::ALL.len()];
    let result = validate_request(endpoint, body);
    check(&result);
    if let Ok(request) = result {
        assert_eq!(request.endpoint(), endpoint);
        assert!(!request.devices().is_empty());
        for device in request.devices() {
            check(&Transcript::parse(device.evidence()));
            check(&parse_pem_chain(device.certificate_pem()));
        }
    }
}

/// `rim_verify`: a RIM document verified against NVIDIA's RIM root, and its canonical forms.
pub fn rim_verify(data: &[u8]) {
    let trust = RimTrust::nvidia();
    let result = verify_rim(data, &trust, UnixTime::from_secs(NOW).unwrap());
    check(&result);
    if let Ok(text) = core::str::from_utf8(data) {
        check(&canonical_forms(text));
    }
}

/// `rim_envelope`: a RIM service response body for an expected id (the selector byte picks
/// one of three), and the document inside it.
pub fn rim_envelope(data: &[u8]) {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let id = match selector % 3 {
        0 => "NV_GPU_DRIVER_GH100_550.144.03",
        1 => "NV_SWITCH_BIOS_5612_0002_890_9610550001",
        _ => "",
    };
    let result = open_envelope(body, id);
    check(&result);
    if let Ok(envelope) = result {
        assert_eq!(envelope.id, id);
        check(&verify_rim(
            &envelope.rim,
            &RimTrust::nvidia(),
            UnixTime::from_secs(NOW).unwrap(),
        ));
    }
}

/// A target body.
pub type Target = fn(&[u8]);

/// Every target by name (the replay test and the smoke script use these names).
pub const TARGETS: &[(&str, Target)] = &[
    ("listing_query", listing_query),
    ("listing_table", listing_table),
    ("access_gateway", access_gateway),
    ("access_keystore", access_keystore),
    ("deprecation_request", deprecation_request),
    ("service_request", service_request),
    ("service_exchange", service_exchange),
    ("json_parse", json_parse),
    ("cbor_cose", cbor_cose),
    ("evidence_transcript", evidence_transcript),
    ("evidence_decode", evidence_decode),
    ("evidence_verify", evidence_verify),
    ("evidence_signed", evidence_signed),
    ("chain_pem", chain_pem),
    ("chain_der", chain_der),
    ("token_jwt", token_jwt),
    ("token_claims", token_claims),
    ("token_jwks", token_jwks),
    ("token_result", token_result),
    ("attest_request", attest_request),
    ("rim_verify", rim_verify),
    ("rim_envelope", rim_envelope),
    ("ocsp_response", ocsp_response),
    ("ocsp_request", ocsp_request),
    ("policy_json", policy_json),
    ("p384_verify", p384_verify),
    #[cfg(feature = "rego")]
    ("rego_policy", rego_policy),
];
