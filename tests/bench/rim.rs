//! RIM benchmark: parse + canonicalise + digest, full verification (RIM signature and the
//! 3-link certificate path), and comparison, for a driver RIM and a VBIOS RIM; with a peer
//! measured in the same run (Python lxml C14N + `cryptography` ECDSA, the stack NVIDIA's
//! Python verifier uses), when `python3` with those modules is available.
//!
//!     cargo bench --bench rim
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]
#![allow(clippy::std_instead_of_alloc, clippy::std_instead_of_core)] // a std-only host program

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use edgeattest::{compare_gpu, prepare_rim, verify_rim, RimTrust, RuntimeEvidence};

const NOW: u64 = 1_704_067_200; // 2024-01-01: inside the nvtrust RIMs' signer validity

fn fixture(rel: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/nvidia")
            .join(rel),
    )
    .unwrap()
}

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

fn main() {
    let trust = RimTrust::nvidia();
    let docs = [
        ("driver RIM", "rims/nvtrust/Driver_RIM_test_no_gpu.swidtag"),
        (
            "VBIOS RIM",
            "rims/nvtrust/1010_0200_882_96005E0001_test_no_gpu.swidtag",
        ),
    ];
    println!("edgeattest RIM benchmark (native, release), median per call");
    for (label, path) in docs {
        let xml = fixture(path);
        let prepare = measure(|| {
            black_box(prepare_rim(black_box(xml.as_bytes()), &trust, NOW).unwrap());
        });
        let verify = measure(|| {
            black_box(verify_rim(black_box(xml.as_bytes()), &trust, NOW).unwrap());
        });
        println!(
            "  {label:<11} {:>6} B  parse+C14N+digest {:>8.1} µs   full verify (4 ECDSA) {:>8.1} µs",
            xml.len(),
            prepare.as_secs_f64() * 1e6,
            verify.as_secs_f64() * 1e6
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

    let peer = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bench/rim_peer.py");
    match Command::new("python3").arg(&peer).output() {
        Ok(out) if out.status.success() => print!("{}", String::from_utf8_lossy(&out.stdout)),
        Ok(out) => println!(
            "peer skipped: {}",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("")
        ),
        Err(e) => println!("peer skipped: python3 not available ({e})"),
    }
}
