//! RIM benchmark: parse + canonicalise + digest, full verification (RIM signature and the
//! 3-link certificate path), and comparison, for a driver RIM and a VBIOS RIM; with a peer
//! measured in the same run (Python lxml C14N + `cryptography` ECDSA, the stack NVIDIA's
//! Python verifier uses), when `python3` with those modules is available. The peer runs between
//! our rounds (ours, peer, ours, peer, ...; medians), and the last lines are machine-readable
//! for `pkg-config/bench.sh`: `BENCH rim.<doc>.<step> <ours µs> <peer µs> <ratio>`.
//!
//!     cargo bench --bench rim
//!     cargo bench --bench rim -- --prepare-json   # prepare alone, JSON (rim_wasm.mjs's yardstick)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]
#![allow(clippy::std_instead_of_alloc, clippy::std_instead_of_core)] // a std-only host program

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use edgeattest::rim::{compare_gpu, prepare_rim, verify_rim, RimTrust, RuntimeEvidence};
use edgeattest::UnixTime;

const NOW: UnixTime = UnixTime::from_secs(1_704_067_200).unwrap(); // 2024-01-01: inside the nvtrust RIMs' signer validity

fn fixture(rel: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/nvidia")
            .join(rel),
    )
    .unwrap()
}

/// Rounds of ours and the peer, alternating.
const ROUNDS: usize = 3;

/// Median time per call over ~1 s of repetitions.
fn measure(mut f: impl FnMut()) -> Duration {
    for _ in 0..3 {
        f();
    }
    let mut samples = Vec::new();
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(1) || samples.len() < 10 {
        let t = Instant::now();
        f();
        samples.push(t.elapsed());
    }
    samples.sort();
    samples[samples.len() / 2]
}

fn blocks(rel: &str) -> BTreeMap<u8, Vec<u8>> {
    let raw = hex::decode(fixture(rel).trim()).unwrap();
    let r = &raw[37..];
    let len = u32::from_le_bytes([r[5], r[6], r[7], 0]) as usize;
    let records = &r[8..8 + len];
    let mut out = BTreeMap::new();
    let mut i = 0;
    while i < records.len() {
        let size = u16::from_le_bytes([records[i + 2], records[i + 3]]) as usize;
        let value_size = u16::from_le_bytes([records[i + 5], records[i + 6]]) as usize;
        out.insert(records[i], records[i + 7..i + 7 + value_size].to_vec());
        i += 4 + size;
    }
    out
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

/// One run of the Python peer: µs per call by document label and step, or why there is none.
fn peer() -> Result<serde_json::Value, String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bench/rim_peer.py");
    match Command::new("python3").arg(&script).arg("--json").output() {
        Ok(out) if out.status.success() => {
            serde_json::from_slice(&out.stdout).map_err(|e| format!("unreadable output ({e})"))
        }
        Ok(out) => Err(String::from_utf8_lossy(&out.stderr)
            .lines()
            .last()
            .unwrap_or("")
            .to_owned()),
        Err(e) => Err(format!("python3 not available ({e})")),
    }
}

/// The documents measured, by label.
const DOCS: [(&str, &str); 2] = [
    ("driver RIM", "rims/nvtrust/Driver_RIM_test_no_gpu.swidtag"),
    (
        "VBIOS RIM",
        "rims/nvtrust/1010_0200_882_96005E0001_test_no_gpu.swidtag",
    ),
];

/// `--prepare-json`: one round of `prepare_rim` alone, as JSON µs by label — the native
/// yardstick tests/bench/rim_wasm.mjs runs between its rounds.
fn prepare_json() {
    let trust = RimTrust::nvidia();
    let mut out = serde_json::Map::new();
    for (label, path) in DOCS {
        let xml = fixture(path);
        let prepare = measure(|| {
            black_box(prepare_rim(black_box(xml.as_bytes()), &trust, NOW).unwrap());
        });
        out.insert(label.into(), (prepare.as_secs_f64() * 1e6).into());
    }
    println!("{}", serde_json::Value::Object(out));
}

fn main() {
    // `cargo test --all-targets` runs bench programs too, without `--bench`: skip the timing.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    if std::env::args().any(|a| a == "--prepare-json") {
        return prepare_json();
    }
    let trust = RimTrust::nvidia();
    let docs = DOCS;
    // (document, step) -> samples in µs, ours and the peer's.
    let mut ours: BTreeMap<(usize, &str), Vec<f64>> = BTreeMap::new();
    let mut theirs: BTreeMap<(usize, &str), Vec<f64>> = BTreeMap::new();
    let mut peer_missing = None;
    for _ in 0..ROUNDS {
        for (i, (_, path)) in docs.iter().enumerate() {
            let xml = fixture(path);
            let prepare = measure(|| {
                black_box(prepare_rim(black_box(xml.as_bytes()), &trust, NOW).unwrap());
            });
            let verify = measure(|| {
                black_box(verify_rim(black_box(xml.as_bytes()), &trust, NOW).unwrap());
            });
            ours.entry((i, "prepare"))
                .or_default()
                .push(prepare.as_secs_f64() * 1e6);
            ours.entry((i, "verify"))
                .or_default()
                .push(verify.as_secs_f64() * 1e6);
        }
        if peer_missing.is_some() {
            continue;
        }
        match peer() {
            Ok(json) => {
                for (i, (label, _)) in docs.iter().enumerate() {
                    for step in ["prepare", "verify"] {
                        if let Some(us) = json[*label][step].as_f64() {
                            theirs.entry((i, step)).or_default().push(us);
                        }
                    }
                }
            }
            Err(why) => peer_missing = Some(why),
        }
    }

    println!("edgeattest RIM benchmark (native, release), median per call of {ROUNDS} rounds");
    for (i, (label, path)) in docs.iter().enumerate() {
        println!(
            "  {label:<11} {:>6} B  parse+C14N+digest {:>8.1} µs   full verify (4 ECDSA) {:>8.1} µs",
            fixture(path).len(),
            median(ours[&(i, "prepare")].clone()),
            median(ours[&(i, "verify")].clone())
        );
    }
    let driver = verify_rim(fixture(docs[0].1).as_bytes(), &trust, NOW).unwrap();
    let firmware = verify_rim(fixture(docs[1].1).as_bytes(), &trust, NOW).unwrap();
    let evidence = RuntimeEvidence {
        measurements: blocks("evidence/hopper/gonvtrust_hopper_545.00_report.hex"),
        driver_version: Some("545.00".into()),
        vbios_version: Some("96.00.5E.00.01".into()),
        nvdec0_status: Some(0x55),
        ..RuntimeEvidence::default()
    };
    let compare = measure(|| {
        let result =
            compare_gpu(driver.document(), firmware.document(), black_box(&evidence)).unwrap();
        assert!(result.all_match());
        black_box(result);
    });
    println!(
        "  compare driver+VBIOS (32 records)        {:>8.1} µs",
        compare.as_secs_f64() * 1e6
    );
    if let Some(why) = &peer_missing {
        println!("peer skipped: {why}");
    } else {
        println!("peer: Python lxml + cryptography (libxml2, OpenSSL), median per call of {ROUNDS} rounds");
        for (i, (label, _)) in docs.iter().enumerate() {
            println!(
                "  {label:<11}          parse+C14N+digest {:>8.1} µs   full verify (4 ECDSA) {:>8.1} µs",
                median(theirs[&(i, "prepare")].clone()),
                median(theirs[&(i, "verify")].clone())
            );
        }
    }
    println!();
    for ((i, step), samples) in &ours {
        let doc = if *i == 0 { "driver" } else { "vbios" };
        let mine = median(samples.clone());
        match theirs.get(&(*i, *step)) {
            Some(peer) => {
                let peer = median(peer.clone());
                println!(
                    "BENCH rim.{doc}.{step} {mine:.1}us {peer:.1}us {:.2}",
                    mine / peer
                );
            }
            None => println!("BENCH rim.{doc}.{step} {mine:.1}us - -"),
        }
    }
}
