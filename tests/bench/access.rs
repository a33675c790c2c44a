//! Native benchmark of the gateway decision and the key lookup, against the obvious peer
//! measured in the same run: keys kept in clear in a `HashMap<String, record>` and compared
//! with `==` (what a first implementation does, and what the access module refuses to do).
//!
//! Three measurements:
//! 1. a whole `authorize` (header parse, checksum, SHA-256, constant-time scan, route match,
//!    scope check) for the 12 development keys, against the peer's map lookup + scope check;
//! 2. the constant-time store scan at 12, 1,000 and 10,000 records, against a `HashMap` keyed
//!    by digest — the point where a host should index its store (e.g. KV by digest);
//! 3. timing of a lookup for a digest equal to a stored one but for the last byte, against
//!    one differing in the first byte: equal medians are what "constant time" means here.
//!
//! The last lines are machine-readable for `pkg-config/bench.sh`:
//! `BENCH access.<measure> <ours µs> <peer µs> <ratio>`.
//!
//! Run: `cargo bench --bench access`. Under `cargo test --all-targets` (no `--bench`
//! argument) it only checks that both implementations agree, so the test suite stays fast.

#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]

use core::hint::black_box;
use core::time::Duration;
use std::collections::HashMap;
use std::time::Instant;

use edgeattest::access::{
    authorize, dev_key_set, match_route, store_of, ApiKey, CanonicalPath, GatewayConfig,
    GatewayRequest, KeyDigest, KeyRecord, KeyStore, KeyType, Method, Role, RouteMatch,
};
use edgeattest::UnixTime;

const NOW: UnixTime = UnixTime::from_secs(1_800_000_000).unwrap();

fn median(mut f: impl FnMut(), runs: usize, inner: usize) -> Duration {
    f();
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..inner {
                f();
            }
            t.elapsed() / inner as u32
        })
        .collect();
    times.sort();
    times[runs / 2]
}

/// The peer: clear-text keys in a map, `==` comparison, same route table and scope check.
fn peer_allows(map: &HashMap<String, KeyRecord>, header: &str, method: &str, path: &str) -> bool {
    let Some(key) = header.strip_prefix("Bearer ") else {
        return false;
    };
    let Some(record) = map.get(key) else {
        return false;
    };
    let Ok(path) = CanonicalPath::parse(path) else {
        return false;
    };
    match match_route(Method::parse(method), &path) {
        RouteMatch::Found(route) => route.requirement().is_met(record.scopes()),
        _ => false,
    }
}

fn big_store(n: usize) -> (KeyStore, HashMap<[u8; 32], usize>, Vec<KeyDigest>) {
    let mut records = Vec::with_capacity(n);
    let mut index = HashMap::with_capacity(n);
    let mut digests = Vec::with_capacity(n);
    for i in 0..n {
        let mut random = [0u8; 32];
        random[..8].copy_from_slice(&(i as u64).to_be_bytes());
        let key = ApiKey::generate(KeyType::Personal, &random);
        let digest = key.digest();
        index.insert(*digest.as_bytes(), i);
        digests.push(digest);
        records.push(KeyRecord::personal(
            format!("k{i}"),
            digest,
            vec![Role::LabUser],
            vec!["simulation".into()],
        ));
    }
    (KeyStore::new(records).unwrap(), index, digests)
}

fn main() {
    let benchmarking = std::env::args().any(|a| a == "--bench");
    let keys = dev_key_set(&[9; 32], NOW);
    let store = store_of(&keys).unwrap();
    let config = GatewayConfig::default();
    let peer: HashMap<String, KeyRecord> = keys
        .iter()
        .map(|k| (k.key().expose_secret().to_owned(), k.record().clone()))
        .collect();
    let requests: Vec<(String, &str, &str)> = keys
        .iter()
        .flat_map(|k| {
            let header = format!("Bearer {}", k.key().expose_secret());
            [
                (header.clone(), "GET", "/api/v3/simulations/"),
                (header.clone(), "PATCH", "/api/v3/images/i1/publish/"),
                (header, "DELETE", "/api/v3/marketplace/demos/tags/t1/"),
            ]
        })
        .collect();
    // Both implementations agree on every request (the peer ignores the service audience,
    // so the foreign key is left out of the comparison).
    for (header, method, path) in &requests {
        if header.contains(keys[11].key().expose_secret()) {
            continue;
        }
        let ours = authorize(
            &GatewayRequest {
                method,
                target: path,
                authorization: Some(header),
                headers: &[],
            },
            &store,
            &config,
            NOW,
        )
        .allow;
        assert_eq!(
            ours,
            peer_allows(&peer, header, method, path),
            "{method} {path}"
        );
    }
    if !benchmarking {
        println!(
            "access bench: implementations agree on {} requests (run with --bench to time)",
            requests.len()
        );
        return;
    }

    println!("1. one gateway decision (12 keys, 36 requests, per request)");
    let ours = median(
        || {
            for (header, method, path) in &requests {
                black_box(authorize(
                    &GatewayRequest {
                        method,
                        target: path,
                        authorization: Some(header),
                        headers: &[],
                    },
                    &store,
                    &config,
                    NOW,
                ));
            }
        },
        21,
        20,
    ) / requests.len() as u32;
    let theirs = median(
        || {
            for (header, method, path) in &requests {
                black_box(peer_allows(&peer, header, method, path));
            }
        },
        21,
        20,
    ) / requests.len() as u32;
    println!("   edgeattest authorize : {ours:>10.2?}");
    println!("   clear-text map peer  : {theirs:>10.2?}");

    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let mut bench = vec![format!(
        "BENCH access.authorize {:.3}us {:.3}us {:.2}",
        us(ours),
        us(theirs),
        ours.as_secs_f64() / theirs.as_secs_f64()
    )];

    println!("2. key lookup by digest (per lookup)");
    for n in [12usize, 1_000, 10_000] {
        let (big, index, digests) = big_store(n);
        let probe = digests[n / 2];
        let scan = median(
            || {
                black_box(big.find(black_box(&probe)));
            },
            21,
            50,
        );
        let map = median(
            || {
                black_box(index.get(black_box(probe.as_bytes())));
            },
            21,
            5_000,
        );
        println!("   n = {n:>6}: constant-time scan {scan:>10.2?}   HashMap {map:>8.2?}");
        bench.push(format!(
            "BENCH access.lookup-{n} {:.3}us {:.3}us {:.2}",
            us(scan),
            us(map),
            scan.as_secs_f64() / map.as_secs_f64()
        ));
    }

    println!("3. constant time: a near miss (last byte differs) against a far miss (first byte)");
    let (big, _, digests) = big_store(1_000);
    let mut near = *digests[500].as_bytes();
    near[31] ^= 1;
    let mut far = *digests[500].as_bytes();
    far[0] ^= 1;
    let (near, far) = (KeyDigest::from_bytes(near), KeyDigest::from_bytes(far));
    let near_t = median(
        || {
            black_box(big.find(black_box(&near)));
        },
        41,
        50,
    );
    let far_t = median(
        || {
            black_box(big.find(black_box(&far)));
        },
        41,
        50,
    );
    println!(
        "   near miss {near_t:>10.2?}   far miss {far_t:>10.2?}   ratio {:.3}",
        near_t.as_secs_f64() / far_t.as_secs_f64()
    );
    bench.push(format!(
        "BENCH access.constant-time-near-vs-far {:.3}us {:.3}us {:.3}",
        us(near_t),
        us(far_t),
        near_t.as_secs_f64() / far_t.as_secs_f64()
    ));
    println!();
    for line in bench {
        println!("{line}");
    }
}
