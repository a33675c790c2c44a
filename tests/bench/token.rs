//! Native benchmark of signer pinning: verifying NVIDIA's recorded 8-GPU result (nine tokens
//! signed by one key, whose `x5c` is an RSA-2048 intermediate over a P-384 leaf) with the
//! default anchors, beside verifying the same result with `Signers::Any` (no pinning), in the
//! same run, alternating rounds so that a shared machine's load hits both alike.
//!
//! The last line is machine-readable for `pkg-config/bench.sh`:
//! `BENCH token.pinning <pinned µs> <any µs> <ratio>`.
//!
//! Run: `cargo bench --bench token`. Under `cargo test --all-targets` (no `--bench`
//! argument) it only checks that both verify, so the test suite stays fast.

#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]

use core::hint::black_box;

use edgeattest::token::{verify_attestation_result, Jwks, Signers, VerifyOptions};
use edgeattest::UnixTime;

#[path = "timing.rs"]
mod timing;

const NAME: &str = "v3_8gpu_success_20260629";

fn fixture(suffix: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/nvidia/nras/teep/{NAME}_{suffix}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn main() {
    let response = fixture("response");
    let jwks = Jwks::parse(&fixture("jwks")).unwrap();
    let request: serde_json::Value = serde_json::from_slice(&fixture("request")).unwrap();
    let nonce = request["nonce"].as_str().unwrap();
    let result: serde_json::Value = serde_json::from_slice(&response).unwrap();
    let overall = result[0][1].as_str().unwrap();
    let payload = overall.split('.').nth(1).unwrap();
    use base64::Engine as _;
    let claims: serde_json::Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap(),
    )
    .unwrap();
    let now = UnixTime::from_secs(claims["iat"].as_u64().unwrap()).unwrap();
    let base = VerifyOptions::new()
        .issuer("https://nras.attestation.nvidia.com")
        .nonce(nonce);
    let pinned = base.clone();
    let any = base.signers(Signers::Any);

    let mut run_pinned = || {
        let verified = verify_attestation_result(&response, &jwks, &pinned, now).unwrap();
        assert!(verified.signer().pinned().is_some());
        black_box(verified);
    };
    let mut run_any = || {
        let verified = verify_attestation_result(&response, &jwks, &any, now).unwrap();
        assert!(verified.signer().pinned().is_none());
        black_box(verified);
    };
    run_pinned();
    run_any();
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let (ours_us, peer_us) = timing::race(&mut run_pinned, &mut run_any, 21, 20);
    println!(
        "8-GPU result, pinned (default anchors): {ours_us:.1} µs; Signers::Any: {peer_us:.1} µs"
    );
    println!(
        "BENCH token.pinning {ours_us:.3}us {peer_us:.3}us {:.3}",
        ours_us / peer_us
    );
}
