//! What an allowed request carries upstream (issue 15, point 6): the client's headers minus
//! credentials, hop-by-hop headers, method and path overrides, look-alikes of the gateway's
//! own headers and proxy-asserted ones; the query minus `_method`; the caps on both.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions may fail loudly too.

use edgeattest::access::{
    authorize, dev_key_set, store_of, Decision, Forward, GatewayConfig, GatewayRequest, IssuedKey,
    KeyStore, MAX_QUERY_LEN, MAX_REQUEST_HEADERS, MAX_REQUEST_HEADER_BYTES,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;

const NOW: UnixTime = UnixTime::from_secs(1_800_000_000).unwrap();
const SIMS: &str = "/api/v3/simulations/";

struct Gateway {
    keys: Vec<IssuedKey>,
    store: KeyStore,
}

impl Gateway {
    fn new() -> Self {
        let keys = dev_key_set(&[0x15; 32], NOW);
        let store = store_of(&keys).unwrap();
        Self { keys, store }
    }

    fn bearer(&self) -> String {
        let user = self
            .keys
            .iter()
            .find(|k| k.record().id() == "dev-lab_user")
            .unwrap();
        format!("Bearer {}", user.key().expose_secret())
    }

    fn decide(&self, method: &str, target: &str, headers: &[(&str, &str)]) -> Decision {
        let bearer = self.bearer();
        let request = GatewayRequest {
            method,
            target,
            authorization: Some(&bearer),
            headers,
        };
        authorize(&request, &self.store, &GatewayConfig::default(), NOW)
    }

    fn forward(&self, target: &str, headers: &[(&str, &str)]) -> Forward {
        let decision = self.decide("GET", target, headers);
        assert!(decision.allow, "{decision:?}");
        decision.forward.unwrap()
    }
}

/// The names sent upstream, lower-cased.
fn names(forward: &Forward) -> Vec<String> {
    forward
        .headers
        .iter()
        .map(|(n, _)| n.to_ascii_lowercase())
        .collect()
}

fn assert_kept_only(forward: &Forward, kept: &[(&str, &str)]) {
    let client: Vec<(&str, &str)> = forward
        .headers
        .iter()
        .filter(|(n, _)| !n.to_ascii_lowercase().starts_with("x-edgeattest-"))
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    assert_eq!(client, kept);
}

#[test]
fn method_overrides_never_reach_the_upstream() {
    let g = Gateway::new();
    let headers = [
        ("X-HTTP-Method-Override", "DELETE"),
        ("X-Method-Override", "DELETE"),
        ("X-HTTP-Method", "DELETE"),
        ("x_http_method_override", "DELETE"),
        ("X-Http-Method_Override", "DELETE"),
        ("Accept", "application/json"),
    ];
    let forward = g.forward(
        "/api/v3/simulations/?limit=5&_method=DELETE&page=2",
        &headers,
    );
    assert_kept_only(&forward, &[("Accept", "application/json")]);
    // The query keeps every other parameter, in order, and loses the override.
    assert_eq!(forward.target, "/api/v3/simulations/?limit=5&page=2");
    assert_eq!(forward.path, SIMS);
    for query in [
        "_method=DELETE",
        "_METHOD=DELETE",
        "%5Fmethod=DELETE",
        "_%6d%65thod=PATCH",
        "X-HTTP-Method-Override=DELETE",
        "a=1;_method=DELETE",
    ] {
        let target = format!("{SIMS}?{query}");
        let forward = g.forward(&target, &[]);
        assert!(
            !forward.target.to_ascii_lowercase().contains("method"),
            "{query} -> {}",
            forward.target
        );
    }
    // A query without overrides goes upstream byte for byte.
    let forward = g.forward("/api/v3/simulations?q=a%20b&sort=-name;x&&", &[]);
    assert_eq!(
        forward.target,
        "/api/v3/simulations/?q=a%20b&sort=-name;x&&"
    );
    assert_eq!(g.forward(SIMS, &[]).target, SIMS);
    assert_eq!(
        g.forward("/api/v3/simulations/?_method=PUT", &[]).target,
        SIMS
    );
}

#[test]
fn look_alikes_of_the_gateway_headers_are_stripped_in_every_spelling() {
    let g = Gateway::new();
    let headers = [
        ("X-Edgeattest_Scopes", "lab:image_publish"),
        ("x_edgeattest_key_id", "admin"),
        ("X-EDGEATTEST-KEY-TYPE", "service"),
        ("X_EDGEATTEST-SCOPES", "lab:training_instructor"),
        ("X-Edgeattest-Scopes", "lab:image_publish"),
        ("x-edgeattest-role", "admin"),
        ("X-Request-Id", "r-1"),
    ];
    let forward = g.forward(SIMS, &headers);
    assert_kept_only(&forward, &[("X-Request-Id", "r-1")]);
    let ours: Vec<(&str, &str)> = forward
        .headers
        .iter()
        .filter(|(n, _)| {
            n.to_ascii_lowercase()
                .replace('_', "-")
                .starts_with("x-edgeattest-")
        })
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        ours,
        vec![
            ("X-Edgeattest-Key-Id", "dev-lab_user"),
            ("X-Edgeattest-Key-Type", "personal"),
            ("X-Edgeattest-Scopes", forward.set_headers[2].1.as_str()),
        ]
    );
    assert!(forward.set_headers[2].1.contains("lab:simulation_read"));
    assert!(!forward.set_headers[2].1.contains("lab:image_publish"));
}

#[test]
fn hop_by_hop_and_connection_named_headers_are_stripped() {
    let g = Gateway::new();
    let headers = [
        ("Connection", "keep-alive, X-Hop-Secret"),
        ("connection", " x_other_hop ,\tUpgrade"),
        ("Keep-Alive", "timeout=5"),
        ("Proxy-Connection", "keep-alive"),
        ("TE", "trailers"),
        ("Trailer", "X-Checksum"),
        ("Transfer-Encoding", "chunked"),
        ("Transfer_Encoding", "chunked"),
        ("Upgrade", "websocket"),
        ("Proxy-Authorization", "Basic dXNlcjpwYXNz"),
        ("Proxy-Authenticate", "Basic"),
        ("X-Hop-Secret", "1"),
        ("X-Other-Hop", "2"),
        ("Content-Type", "application/json"),
    ];
    let forward = g.forward(SIMS, &headers);
    assert_kept_only(&forward, &[("Content-Type", "application/json")]);
}

#[test]
fn credentials_proxy_assertions_path_overrides_and_framing_are_stripped() {
    let g = Gateway::new();
    let bearer = g.bearer();
    let headers = [
        ("Authorization", bearer.as_str()),
        ("Cookie", "session=admin"),
        ("Host", "internal.example"),
        ("Content-Length", "0"),
        ("Forwarded", "for=10.0.0.1;host=admin.internal"),
        ("X-Forwarded-For", "10.0.0.1"),
        ("X_Forwarded_Host", "admin.internal"),
        ("X-Forwarded-Proto", "https"),
        ("X-Real-IP", "10.0.0.1"),
        ("True-Client-IP", "10.0.0.1"),
        ("X-Client-IP", "10.0.0.1"),
        ("X-Original-URL", "/api/v3/images/"),
        ("X-Original-URI", "/api/v3/images/"),
        ("X-Rewrite-URL", "/api/v3/images/"),
        ("X-Bad Name", "1"),
        ("X-Split", "a\r\nX-Edgeattest-Scopes: lab:image_publish"),
        ("Accept", "application/json"),
    ];
    let forward = g.forward(SIMS, &headers);
    assert_kept_only(&forward, &[("Accept", "application/json")]);
    let sent = forward
        .headers
        .iter()
        .map(|(_, v)| v.as_str())
        .collect::<String>();
    assert!(!sent.contains(bearer.trim_start_matches("Bearer ")));
}

#[test]
fn ordinary_headers_are_kept_unchanged_and_in_order() {
    let g = Gateway::new();
    let headers = [
        ("Content-Type", "application/json; charset=utf-8"),
        ("Accept", "application/json"),
        ("X-Request-Id", "3f1c-77"),
        ("accept-language", "en, fr;q=0.5"),
        ("X-Request-Id", "second"),
        ("If-None-Match", "\"abc\""),
        ("User-Agent", "edgeattest-test/1"),
        ("X-Custom_Header", "under_score"),
    ];
    let forward = g.forward(SIMS, &headers);
    assert_kept_only(&forward, &headers);
    assert_eq!(
        names(&forward)[headers.len()..],
        [
            "x-edgeattest-key-id",
            "x-edgeattest-key-type",
            "x-edgeattest-scopes"
        ]
    );
}

#[test]
fn remove_headers_name_what_was_stripped_for_hosts_that_edit_in_place() {
    let g = Gateway::new();
    let headers = [
        ("X-HTTP-Method-Override", "DELETE"),
        ("x-http-method-override", "PUT"),
        ("Connection", "X-Hop"),
        ("X-Hop", "1"),
        ("X-Edgeattest_Scopes", "lab:image_publish"),
        ("Accept", "*/*"),
    ];
    let forward = g.forward(SIMS, &headers);
    assert_eq!(
        forward.remove_headers,
        vec![
            "Authorization",
            "X-HTTP-Method-Override",
            "Connection",
            "X-Hop",
            "X-Edgeattest_Scopes"
        ]
    );
    // Editing in place gives the same header set as `headers`.
    let mut edited: Vec<(String, String)> = headers
        .iter()
        .filter(|(n, _)| {
            !forward
                .remove_headers
                .iter()
                .any(|r| r.eq_ignore_ascii_case(n))
        })
        .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
        .collect();
    edited.extend(
        forward
            .set_headers
            .iter()
            .map(|(n, v)| ((*n).to_owned(), v.clone())),
    );
    assert_eq!(edited, forward.headers);
    let json: serde_json::Value = serde_json::from_str(
        &g.decide("GET", "/api/v3/simulations/?a=1&_method=PUT", &headers)
            .to_json(),
    )
    .unwrap();
    assert_eq!(json["forward"]["target"], "/api/v3/simulations/?a=1");
    assert_eq!(
        json["forward"]["headers"][0],
        serde_json::json!(["Accept", "*/*"])
    );
}

#[test]
fn caps_are_checked_first_each_with_its_own_code() {
    let g = Gateway::new();
    let many: Vec<(&str, &str)> = vec![("X-A", "1"); MAX_REQUEST_HEADERS + 1];
    let anonymous = |target: &str, headers: &[(&str, &str)]| {
        let request = GatewayRequest {
            method: "GET",
            target,
            authorization: None,
            headers,
        };
        authorize(&request, &g.store, &GatewayConfig::default(), NOW)
    };
    // Before credentials: the cap protects the work, whoever asks.
    let d = anonymous(SIMS, &many);
    assert_eq!(
        (d.status, d.code()),
        (431, Some("ERR_ACCESS_TOO_MANY_HEADERS"))
    );
    assert_eq!(d.audit.reason, "too_many_headers");
    assert!(g.decide("GET", SIMS, &many[1..]).allow);

    let half = "v".repeat(MAX_REQUEST_HEADER_BYTES / 2);
    let big = [("A", half.as_str()), ("B", half.as_str())];
    let d = anonymous(SIMS, &big);
    assert_eq!(
        (d.status, d.code()),
        (431, Some("ERR_ACCESS_HEADERS_TOO_LARGE"))
    );
    let fits = "v".repeat(MAX_REQUEST_HEADER_BYTES / 2 - 1);
    assert!(
        g.decide("GET", SIMS, &[("A", fits.as_str()), ("B", fits.as_str())])
            .allow
    );

    let long = format!("{SIMS}?q={}", "x".repeat(MAX_QUERY_LEN - 1));
    let d = anonymous(&long, &[]);
    assert_eq!(
        (d.status, d.code()),
        (414, Some("ERR_ACCESS_QUERY_TOO_LONG"))
    );
    let at_cap = format!("{SIMS}?q={}", "x".repeat(MAX_QUERY_LEN - 2));
    assert!(g.decide("GET", &at_cap, &[]).allow);
    let body: serde_json::Value = serde_json::from_str(&d.body_json()).unwrap();
    assert_eq!(body["code"], "ERR_ACCESS_QUERY_TOO_LONG");
    assert_eq!(body["status"], 414);
    assert_eq!(
        edgeattest::access::Denial::QueryTooLong.code(),
        "ERR_ACCESS_QUERY_TOO_LONG"
    );
}
