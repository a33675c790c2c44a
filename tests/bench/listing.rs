//! Native benchmark of the list engine: 100k and 1M generated alerts, two filters, two sort
//! keys, page 3 at rpp 50, against the obvious Rust peer measured in the same run (filter a
//! `Vec` of JSON items, sort it fully with a comparator, slice the page).
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

fn median(mut f: impl FnMut(), runs: usize) -> Duration {
    f();
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
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
        let t = Instant::now();
        let table = Table::from_json(schema, &json).expect("table");
        let load = t.elapsed();
        let body = list_response(PATH, QUERY, &table).expect("page");
        let page: Value = serde_json::from_str(&body).expect("envelope");
        let ours: Vec<i64> = page["data"]
            .as_array()
            .expect("data")
            .iter()
            .map(|r| r["alert_id"].as_i64().unwrap_or(0))
            .collect();
        assert_eq!(ours, naive(&rows), "engines disagree");
        let engine = median(
            || {
                black_box(list_response(PATH, QUERY, &table).ok());
            },
            21,
        );
        let peer = median(
            || {
                black_box(naive(&rows));
            },
            if n > 200_000 { 5 } else { 11 },
        );
        println!(
            "{n:>8} alerts: load {:>8.1} ms | query: engine {:>7.3} ms, naive Vec filter+sort {:>8.3} ms ({:.0}x) | {} filtered",
            load.as_secs_f64() * 1e3,
            engine.as_secs_f64() * 1e3,
            peer.as_secs_f64() * 1e3,
            peer.as_secs_f64() / engine.as_secs_f64(),
            page["filtered_resources"],
        );
    }
}
