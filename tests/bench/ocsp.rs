//! Native OCSP cost — building a request, checking one response (structure only, and with
//! its signatures), a device chain's three responses — beside one Hopper evidence
//! verification and one ECDSA P-384 verify measured in the same run. The last lines are
//! machine-readable for `pkg-config/bench.sh`: `BENCH ocsp.<workload> <ms> <one Hopper
//! evidence verification, ms> <ratio>`.
//!
//!     cargo bench --bench ocsp
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use core::hint::black_box;
use core::time::Duration;
use std::time::Instant;

use edgeattest::attest::{Arch, FwidPolicy, Nonce};
use edgeattest::chain::{ChainOptions, TrustStore};
use edgeattest::evidence::{BatchPlan, DeviceInput, VerifyContext};
use edgeattest::ocsp::{check_response, OcspRequest};
use edgeattest::UnixTime;

#[path = "../common/ocsp_fixtures.rs"]
mod fixtures;
use fixtures::{der, nonce, request, response, Fixture};

fn time<F: FnMut()>(mut f: F) -> Duration {
    for _ in 0..3 {
        f();
    }
    let start = Instant::now();
    let mut runs = 0u32;
    while start.elapsed() < Duration::from_millis(1500) || runs < 5 {
        f();
        runs += 1;
    }
    start.elapsed() / runs
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn evidence(path: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/nvidia/evidence/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn main() {
    // `cargo test --all-targets` runs bench programs too, without `--bench`: skip the timing.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    // One Hopper device (as tests/bench/evidence.rs): transcript signature and 4 chain links.
    let store = TrustStore::nvidia_device_identity().unwrap();
    let transcript =
        hex::decode(evidence("hopper/nvtrust_hopper_550.90.07_report.hex").trim()).unwrap();
    let chain = evidence("hopper/nvtrust_hopper_550.90.07_certchain.pem");
    let context = VerifyContext {
        arch: Arch::Hopper,
        nonce: Nonce::parse("931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb")
            .unwrap(),
        now: UnixTime::from_secs(1_790_000_000).unwrap(),
        trust_store: &store,
        chain_options: ChainOptions::default(),
        fwid_policy: FwidPolicy::default(),
    };
    let device = || {
        BatchPlan::new(
            &[DeviceInput {
                evidence: &transcript,
                certificate_pem: &chain,
            }],
            &context,
        )
    };
    let one_verify = {
        let check = device().signature_checks()[0].clone();
        time(|| check.verify().unwrap())
    };
    let hopper = time(|| {
        let results = device().verify();
        assert!(results.iter().all(Result::is_ok));
        black_box(results);
    });

    let (subject, issuer) = (der("brom_good.pem"), der("ica.pem"));
    let build = time(|| {
        black_box(OcspRequest::new(&subject, &issuer, nonce("brom_good")).unwrap());
    });
    let check = |f: &Fixture, req: &OcspRequest, verify: bool| {
        let pending = check_response(
            &f.bytes,
            req,
            &nonce(&f.request),
            &f.issuer,
            UnixTime::from_secs(f.now).unwrap(),
        )
        .unwrap();
        if verify {
            black_box(pending.verify_in_core().unwrap());
        } else {
            black_box(pending);
        }
    };
    let delegated = (response("brom_good.der"), request("brom_good"));
    let ca_signed = (response("ca_signed_by_name.der"), request("brom_good"));
    let structure = time(|| check(&delegated.0, &delegated.1, false));
    let full_delegated = time(|| check(&delegated.0, &delegated.1, true));
    let full_ca = time(|| check(&ca_signed.0, &ca_signed.1, true));
    let device_chain: Vec<(Fixture, OcspRequest)> = ["brom_good", "ica", "identity"]
        .iter()
        .map(|n| (response(&format!("{n}.der")), request(n)))
        .collect();
    let three = time(|| {
        for (f, r) in &device_chain {
            check(f, r, true);
        }
    });

    println!("native; one ECDSA P-384 verify: {:.3} ms", ms(one_verify));
    println!(
        "one Hopper evidence verification (5 checks): {:.3} ms",
        ms(hopper)
    );
    println!("workload                                 ms  x evidence  x verify");
    let workloads = [
        ("OcspRequest::new", "request", build),
        ("check_response, signatures not run", "structure", structure),
        (
            "one response, delegated (2 verifies)",
            "delegated",
            full_delegated,
        ),
        ("one response, CA-signed (1 verify)", "ca-signed", full_ca),
        ("device chain, 3 responses (6 verifies)", "chain-3", three),
    ];
    for (name, _, d) in workloads {
        println!(
            "{name:<38} {:>6.3}  {:>10.2}  {:>8.2}",
            ms(d),
            d.as_secs_f64() / hopper.as_secs_f64(),
            d.as_secs_f64() / one_verify.as_secs_f64()
        );
    }
    println!();
    for (_, id, d) in workloads {
        println!(
            "BENCH ocsp.{id} {:.3}ms {:.3}ms {:.3}",
            ms(d),
            ms(hopper),
            d.as_secs_f64() / hopper.as_secs_f64()
        );
    }
}
