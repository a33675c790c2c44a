//! Native benchmark of EAR encodings: NVIDIA's recorded 8-GPU result as a draft-04 EAR (eight
//! submodules), verified as a CWT (CBOR claims in a COSE_Sign1) beside the same EAR verified as
//! a JWT, and written and signed as a CWT beside as a JWT, in the same run, alternating rounds
//! so that a shared machine's load hits both alike. The JWT is the yardstick: the encoding
//! relying parties already use.
//!
//! The last lines are machine-readable for `pkg-config/bench.sh`:
//! `BENCH ear.verify.cwt <CWT µs> <JWT µs> <ratio>` and `BENCH ear.sign.cwt …`.
//!
//! Run: `cargo bench --bench ear`. Under `cargo test --all-targets` (no `--bench` argument)
//! it only checks that both encodings verify to the same EAR.

#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]

use core::hint::black_box;

use edgeattest::crypto::SigningKey;
use edgeattest::ear::{verify_ear, verify_ear_cwt, Ear, EarDialect};
use edgeattest::token::{
    assemble_jws, verify_attestation_result, Jwks, JwksKey, Signers, VerifyOptions,
};
use edgeattest::UnixTime;

#[path = "timing.rs"]
mod timing;

use timing::race;

const NAME: &str = "v3_8gpu_success_20260629";
const KID: &str = "ear-bench";

fn fixture(suffix: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/nvidia/nras/teep/{NAME}_{suffix}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn main() {
    let response = fixture("response");
    let nras = Jwks::parse(&fixture("jwks")).unwrap();
    let request: serde_json::Value = serde_json::from_slice(&fixture("request")).unwrap();
    let nonce = request["nonce"].as_str().unwrap();
    let options = VerifyOptions::new()
        .issuer("https://nras.attestation.nvidia.com")
        .nonce(nonce)
        .signers(Signers::Any);
    // Verified at its own issue time (its tokens live an hour).
    let result =
        verify_attestation_result(&response, &nras, &options, result_iat(&response)).unwrap();
    let iat = 1_800_000_000;
    let ear = Ear::from_result(&result, None, iat)
        .into_dialect(EarDialect::Ietf04)
        .unwrap();
    assert_eq!(ear.submods().len(), 8);

    let key = SigningKey::generate(&[0x52; 48]).unwrap();
    let jwks = Jwks::new(vec![JwksKey::new(Some(KID.into()), key.public_key())]).unwrap();
    let sign_jwt = || {
        let input = ear.signing_input(KID).unwrap();
        assemble_jws(&input, &key.sign(input.as_bytes())).unwrap()
    };
    let sign_cwt = || {
        let input = ear.cwt_to_be_signed(KID).unwrap();
        input.assemble(&key.sign(input.to_be_signed())).unwrap()
    };
    let (jwt, cwt) = (sign_jwt(), sign_cwt());
    let verify_options = VerifyOptions::new()
        .signers(Signers::Any)
        .nonce(ear.nonce().unwrap())
        .max_age(60);
    let at = UnixTime::from_secs(iat as u64 + 1).unwrap();
    let from_jwt = verify_ear(&jwt, &jwks, &verify_options, at).unwrap();
    let from_cwt = verify_ear_cwt(&cwt, &jwks, &verify_options, at).unwrap();
    assert_eq!(from_cwt, from_jwt);
    assert_eq!(from_cwt, ear);
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }

    let (cwt_us, jwt_us) = race(
        &mut || {
            black_box(verify_ear_cwt(black_box(&cwt), &jwks, &verify_options, at).unwrap());
        },
        &mut || {
            black_box(verify_ear(black_box(&jwt), &jwks, &verify_options, at).unwrap());
        },
        21,
        20,
    );
    println!(
        "8-submodule -04 EAR, verified: CWT ({} B) {cwt_us:.1} µs; JWT ({} B) {jwt_us:.1} µs",
        cwt.len(),
        jwt.len()
    );
    let (cwt_sign_us, jwt_sign_us) = race(
        &mut || {
            black_box(sign_cwt());
        },
        &mut || {
            black_box(sign_jwt());
        },
        21,
        20,
    );
    println!("the same, written and signed: CWT {cwt_sign_us:.1} µs; JWT {jwt_sign_us:.1} µs");
    println!(
        "BENCH ear.verify.cwt {cwt_us:.3}us {jwt_us:.3}us {:.3}",
        cwt_us / jwt_us
    );
    println!(
        "BENCH ear.sign.cwt {cwt_sign_us:.3}us {jwt_sign_us:.3}us {:.3}",
        cwt_sign_us / jwt_sign_us
    );
}

/// The overall token's `iat`.
fn result_iat(response: &[u8]) -> UnixTime {
    use base64::Engine as _;
    let result: serde_json::Value = serde_json::from_slice(response).unwrap();
    let payload = result[0][1].as_str().unwrap().split('.').nth(1).unwrap();
    let claims: serde_json::Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap(),
    )
    .unwrap();
    UnixTime::from_secs(claims["iat"].as_u64().unwrap()).unwrap()
}
