//! Native benchmark of the list engine: 100k and 1M generated alerts, two filters, two sort
//! keys, page 3 at rpp 50, against the obvious Rust peer measured in the same run,
//! alternating (filter a `Vec` of JSON items, sort it fully with a comparator, slice the
//! page). Prints a `BENCH` line per size for `pkg-config/bench.sh`.
//!
//! Run: `cargo bench --bench listing` (add `-- 100000` to pick one size). Under
//! `cargo test --all-targets` (no `--bench` argument) it only checks the engines agree on
//! 2,000 rows, so the test suite stays fast.

#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]

use core::hint::black_box;
use core::time::Duration;
use std::time::Instant;

use edgeattest::listing::{generate_rows, list_response, Schema, Table};
use serde_json::Value;

const PATH: &str = "/analytics/alerts/filter";
const QUERY: &str = "filter=severity[neq]info&filter=description[con]port\
                     &sorting=timestamp[desc],occurrence[asc]&page_number=3&rpp=50";

fn naive(rows: &[Value]) -> Vec<i64> {
    let mut kept: Vec<&Value> = rows
        .iter()
        .filter(|r| {
            r["severity"] != "info"
                && r["description"]
                    .as_str()
                    .is_some_and(|d| d.contains("port"))
        })
        .collect();
    kept.sort_by(|a, b| {
        b["timestamp"]
            .as_i64()
            .cmp(&a["timestamp"].as_i64())
            .then(a["occurrence"].as_i64().cmp(&b["occurrence"].as_i64()))
            .then(a["alert_id"].as_i64().cmp(&b["alert_id"].as_i64()))
    });
    kept.iter()
        .skip(100)
        .take(50)
        .map(|r| r["alert_id"].as_i64().unwrap_or(0))
        .collect()
}

/// Medians of `a` and `b`, timed in alternating rounds (a, b, a, b, ...) after one warm-up
/// call each, so that machine noise falls on both alike.
fn alternating(mut a: impl FnMut(), mut b: impl FnMut(), rounds: usize) -> (Duration, Duration) {
    a();
    b();
    let mut times = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    for _ in 0..rounds {
        let t = Instant::now();
        a();
        times.0.push(t.elapsed());
        let t = Instant::now();
        b();
        times.1.push(t.elapsed());
    }
    times.0.sort();
    times.1.sort();
    (times.0[rounds / 2], times.1[rounds / 2])
}

fn main() {
    let benchmarking = std::env::args().any(|a| a == "--bench");
    let sizes: Vec<usize> = match std::env::args().skip(1).find_map(|a| a.parse().ok()) {
        Some(n) => vec![n],
        None if benchmarking => vec![100_000, 1_000_000],
        None => vec![2_000],
    };
    let schema = Schema::for_path(PATH).expect("alerts schema");
    for n in sizes {
        let rows = generate_rows(schema, n, 1).expect("rows");
        let json = serde_json::to_vec(&rows).expect("json");
        let table = Table::from_json(schema, &json).expect("table");
        // Loading (parse, check, rank every column) against parsing the same text into
        // JSON values, the naive peer's load.
        let (load, parse) = alternating(
            || {
                black_box(Table::from_json(schema, &json).ok());
            },
            || {
                black_box(serde_json::from_slice::<Vec<Value>>(&json).ok());
            },
            if n > 200_000 { 3 } else { 5 },
        );
        let body = list_response(PATH, QUERY, &table).expect("page");
        let page: Value = serde_json::from_str(&body).expect("envelope");
        let ours: Vec<i64> = page["data"]
            .as_array()
            .expect("data")
            .iter()
            .map(|r| r["alert_id"].as_i64().unwrap_or(0))
            .collect();
        assert_eq!(ours, naive(&rows), "engines disagree");
        let (engine, peer) = alternating(
            || {
                black_box(list_response(PATH, QUERY, &table).ok());
            },
            || {
                black_box(naive(&rows));
            },
            if n > 200_000 { 5 } else { 11 },
        );
        let (engine_ms, peer_ms) = (engine.as_secs_f64() * 1e3, peer.as_secs_f64() * 1e3);
        println!(
            "{n:>8} alerts: query: engine {engine_ms:>7.3} ms, naive Vec filter+sort {peer_ms:>8.3} ms ({:.0}x) | {} filtered",
            peer_ms / engine_ms,
            page["filtered_resources"],
        );
        let (load_ms, parse_ms) = (load.as_secs_f64() * 1e3, parse.as_secs_f64() * 1e3);
        println!(
            "{n:>8} alerts: load {load_ms:>8.1} ms, serde_json parse to values {parse_ms:>8.1} ms"
        );
        if benchmarking {
            println!(
                "BENCH listing.native.{}k.load-vs-parse {load_ms:.1}ms {parse_ms:.1}ms {:.4}",
                n / 1000,
                load_ms / parse_ms,
            );
            // The line pkg-config/bench.sh collects: ours, yardstick, ours / yardstick.
            println!(
                "BENCH listing.native.{}k.query-vs-naive {engine_ms:.3}ms {peer_ms:.3}ms {:.4} <=1.00",
                n / 1000,
                engine_ms / peer_ms,
            );
        }
    }
}
