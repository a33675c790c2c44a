//! Native evidence verification cost, with one native ECDSA P-384 verify as the yardstick
//! measured in the same run. The last lines are machine-readable for `pkg-config/bench.sh`:
//! `BENCH evidence.native.<workload> <ms> <checks x one verify, ms> <ratio>`, and the PPCIE
//! topology rules over the verified 8 + 4 node against one verify.
//!
//!     cargo bench --bench evidence
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use core::hint::black_box;
use core::time::Duration;
use std::time::Instant;

use base64::Engine;
use edgeattest::attest::{Arch, FwidPolicy, Nonce};
use edgeattest::chain::{ChainOptions, TrustStore};
use edgeattest::evidence::{
    check_topology, BatchPlan, DeviceInput, TopologyInput, TopologyOptions, VerifyContext,
};
use edgeattest::UnixTime;

const NOW: UnixTime = UnixTime::from_secs(1_790_000_000).unwrap();

fn read(path: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/nvidia/evidence/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

struct Set {
    arch: Arch,
    nonce: Nonce,
    devices: Vec<(Vec<u8>, String)>,
}

fn serialized(file: &str) -> Set {
    let json: serde_json::Value =
        serde_json::from_str(&read(&format!("serialized/{file}"))).unwrap();
    let b64 = base64::engine::general_purpose::STANDARD;
    let items = json.as_array().unwrap();
    Set {
        arch: Arch::parse(items[0]["arch"].as_str().unwrap()).unwrap(),
        nonce: Nonce::parse(items[0]["nonce"].as_str().unwrap()).unwrap(),
        devices: items
            .iter()
            .map(|i| {
                (
                    b64.decode(i["evidence"].as_str().unwrap()).unwrap(),
                    String::from_utf8(b64.decode(i["certificate"].as_str().unwrap()).unwrap())
                        .unwrap(),
                )
            })
            .collect(),
    }
}

fn plan<'a>(set: &'a Set, store: &'a TrustStore) -> BatchPlan {
    let inputs: Vec<DeviceInput<'_>> = set
        .devices
        .iter()
        .map(|(e, c)| DeviceInput {
            evidence: e,
            certificate_pem: c,
        })
        .collect();
    let context = VerifyContext {
        arch: set.arch,
        nonce: set.nonce,
        now: NOW,
        trust_store: store,
        chain_options: ChainOptions::default(),
        fwid_policy: FwidPolicy::default(),
    };
    BatchPlan::new(&inputs, &context)
}

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

fn main() {
    // `cargo test --all-targets` runs bench programs too, without `--bench`: skip the timing.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let store = TrustStore::nvidia_device_identity().unwrap();
    let hopper = Set {
        arch: Arch::Hopper,
        nonce: Nonce::parse("931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb")
            .unwrap(),
        devices: vec![(
            hex::decode(read("hopper/nvtrust_hopper_550.90.07_report.hex").trim()).unwrap(),
            read("hopper/nvtrust_hopper_550.90.07_certchain.pem"),
        )],
    };
    let gpus = serialized("nvtrust_ppcie_gpu_evidence_8gpu.json");
    let switches = serialized("nvtrust_ppcie_switch_evidence_4sw.json");

    let check = plan(&hopper, &store).signature_checks()[0].clone();
    let one = time(|| check.verify().unwrap());
    println!(
        "native; one ECDSA P-384 verify: {:.3} ms",
        one.as_secs_f64() * 1e3
    );
    println!("workload            checks  native ms  checks x verify ms  ratio");
    let mut bench = Vec::new();
    for (name, sets) in [
        ("hopper x1", vec![&hopper]),
        ("8 GPU + 4 switch", vec![&gpus, &switches]),
    ] {
        let checks: usize = sets
            .iter()
            .map(|s| plan(s, &store).signature_checks().len())
            .sum();
        let total = time(|| {
            for set in &sets {
                let results = plan(set, &store).verify();
                assert!(results.iter().all(Result::is_ok));
                black_box(results);
            }
        });
        let floor = one.as_secs_f64() * checks as f64;
        println!(
            "{name:<18} {checks:>7}  {:>9.2}  {:>18.2}  {:>5.2}",
            total.as_secs_f64() * 1e3,
            floor * 1e3,
            total.as_secs_f64() / floor
        );
        bench.push(format!(
            "BENCH evidence.native.{} {:.3}ms {:.3}ms {:.2}",
            name.split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|part| !part.is_empty())
                .collect::<Vec<_>>()
                .join("-")
                .to_lowercase(),
            total.as_secs_f64() * 1e3,
            floor * 1e3,
            total.as_secs_f64() / floor
        ));
    }
    // The PPCIE topology rules over the verified node: a few set operations, against one
    // signature check (the node's verification makes 38 of them).
    let verified_gpus: Vec<_> = plan(&gpus, &store)
        .verify()
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let verified_switches: Vec<_> = plan(&switches, &store)
        .verify()
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let topology = time(|| {
        let input = TopologyInput::from_evidence(&verified_gpus, &verified_switches).unwrap();
        let report = check_topology(&input, &TopologyOptions::default()).unwrap();
        assert!(report.passed());
        let _ = black_box(report);
    });
    println!(
        "topology rules (8 GPU + 4 switch): {:.3} ms, {:.3} x one verify",
        topology.as_secs_f64() * 1e3,
        topology.as_secs_f64() / one.as_secs_f64()
    );
    bench.push(format!(
        "BENCH evidence.native.topology-rules {:.4}ms {:.3}ms {:.3}",
        topology.as_secs_f64() * 1e3,
        one.as_secs_f64() * 1e3,
        topology.as_secs_f64() / one.as_secs_f64()
    ));
    println!();
    for line in bench {
        println!("{line}");
    }
}
