//! Properties of the forwarded headers over arbitrary header names and values, against a
//! strip list written here by hand from issue 15 and RFC 9110 §7.6.1 (not the library's):
//! no forwarded header normalises to a gateway name, each gateway header appears once with
//! the gateway's value, and every header outside the strip classes is kept unchanged.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions may fail loudly too.

use edgeattest::access::{authorize, dev_key_set, store_of, GatewayConfig, GatewayRequest};
use edgeattest::UnixTime;
use proptest::prelude::*;

const NOW: UnixTime = UnixTime::from_secs(1_800_000_000).unwrap();

const STRIPPED: &[&str] = &[
    "authorization",
    "cookie",
    "connection",
    "keep-alive",
    "proxy-connection",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "proxy-authorization",
    "proxy-authenticate",
    "x-http-method-override",
    "x-http-method",
    "x-method-override",
    "x-original-url",
    "x-original-uri",
    "x-rewrite-url",
    "forwarded",
    "x-real-ip",
    "true-client-ip",
    "x-client-ip",
    "host",
    "content-length",
];
const FAMILIES: &[&str] = &["x-edgeattest-", "x-forwarded-"];
const GATEWAY: &[&str] = &[
    "x-edgeattest-key-id",
    "x-edgeattest-key-type",
    "x-edgeattest-scopes",
];

fn norm(name: &str) -> String {
    name.to_ascii_lowercase().replace('_', "-")
}

fn token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// `%XX` decoded (bytes as Latin-1 is enough to compare ASCII names), `+` as space.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let hex = text
            .get(i + 1..i + 3)
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(char::from(byte));
                i += 3;
            }
            (b'+', _) => {
                out.push(' ');
                i += 1;
            }
            (byte, _) => {
                out.push(char::from(byte));
                i += 1;
            }
        }
    }
    out
}

/// A known name in random case with `-` and `_` mixed.
fn disguised(names: &'static [&'static str]) -> impl Strategy<Value = String> {
    (prop::sample::select(names), any::<u64>()).prop_map(|(name, bits)| {
        name.chars()
            .enumerate()
            .map(|(i, c)| {
                let bit = bits >> (i % 64) & 1 == 1;
                match c {
                    '-' if bit => '_',
                    c if bit => c.to_ascii_uppercase(),
                    c => c,
                }
            })
            .collect()
    })
}

fn header_name() -> impl Strategy<Value = String> {
    prop_oneof![
        disguised(STRIPPED),
        disguised(GATEWAY),
        (disguised(FAMILIES), "[A-Za-z0-9_-]{0,8}").prop_map(|(p, s)| p + &s),
        "[A-Za-z0-9!#$%&'*+.^_`|~-]{1,16}",
        "[ -~]{0,12}",
        any::<String>(),
    ]
}

fn header_value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ -~]{0,24}",
        Just("a\r\nb".to_owned()),
        (disguised(STRIPPED), disguised(GATEWAY)).prop_map(|(a, b)| format!("{a}, {b}")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn forwarded_headers_are_the_client_kept_ones_then_the_gateway_ones(
        headers in prop::collection::vec((header_name(), header_value()), 0..24),
        connection in prop::option::of(prop::collection::vec(header_name(), 0..4)),
    ) {
        let keys = dev_key_set(&[0x16; 32], NOW);
        let store = store_of(&keys).unwrap();
        let bearer = format!("Bearer {}", keys[0].key().expose_secret());
        let mut headers = headers;
        if let Some(named) = connection {
            headers.push(("Connection".to_owned(), named.join(", ")));
        }
        let pairs: Vec<(&str, &str)> =
            headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        let request = GatewayRequest {
            method: "GET",
            target: "/api/v3/simulations/",
            authorization: Some(&bearer),
            headers: &pairs,
        };
        let decision = authorize(&request, &store, &GatewayConfig::default(), NOW);
        prop_assert!(decision.allow);
        let forward = decision.forward.unwrap();

        // The oracle: what the classes strip.
        let connection_named: Vec<String> = pairs
            .iter()
            .filter(|(n, _)| token(n) && norm(n) == "connection")
            .flat_map(|(_, v)| v.split(','))
            .map(|o| o.trim_matches([' ', '\t']))
            .filter(|o| token(o))
            .map(norm)
            .collect();
        let stripped = |name: &str, value: &str| {
            let n = norm(name);
            !token(name)
                || value.contains(['\r', '\n', '\0'])
                || STRIPPED.contains(&n.as_str())
                || FAMILIES.iter().any(|f| n.starts_with(f))
                || connection_named.contains(&n)
        };
        let expected: Vec<(String, String)> = pairs
            .iter()
            .filter(|(n, v)| !stripped(n, v))
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect();
        let (client, ours) = forward.headers.split_at(forward.headers.len() - 3);
        prop_assert_eq!(client, expected.as_slice());
        for (name, _) in client {
            prop_assert!(!norm(name).starts_with("x-edgeattest-"), "{}", name);
        }
        let gateway: Vec<(String, String)> = forward
            .set_headers
            .iter()
            .map(|(n, v)| ((*n).to_owned(), v.clone()))
            .collect();
        prop_assert_eq!(ours, gateway.as_slice());
        for name in GATEWAY {
            let count = forward.headers.iter().filter(|(n, _)| norm(n) == *name).count();
            prop_assert_eq!(count, 1, "{}", name);
        }
        prop_assert_eq!(forward.set_headers[0].1.as_str(), keys[0].record().id());
    }

    #[test]
    fn queries_lose_their_overrides_and_nothing_else(
        query in prop_oneof!["[a-zA-Z0-9=&;%_.~+-]{0,40}", "((_|%5[Ff])(m|%6[Dd])ethod(=[A-Z]{0,6})?|[a-z]{1,4}=[0-9]{0,3})([&;]((_|%5[Ff])(m|%6[Dd])ethod(=[A-Z]{0,6})?|[a-z]{1,4}=[0-9]{0,3})){0,4}"],
    ) {
        let keys = dev_key_set(&[0x16; 32], NOW);
        let store = store_of(&keys).unwrap();
        let bearer = format!("Bearer {}", keys[0].key().expose_secret());
        let target = format!("/api/v3/simulations/?{query}");
        let request = GatewayRequest {
            method: "GET",
            target: &target,
            authorization: Some(&bearer),
            headers: &[],
        };
        let decision = authorize(&request, &store, &GatewayConfig::default(), NOW);
        if !decision.allow {
            // Only a key in the URL is refused.
            prop_assert_eq!(decision.code(), Some("ERR_ACCESS_INVALID_REQUEST"));
            return Ok(());
        }
        let forward = decision.forward.unwrap();
        let is_override = |query: &str| {
            query.split(['&', ';']).any(|pair| {
                let name = norm(&decode(pair.split('=').next().unwrap_or("")));
                ["-method", "x-http-method-override", "x-http-method", "x-method-override"]
                    .contains(&name.as_str())
            })
        };
        let has_override = is_override(&query);
        let kept = forward.target.strip_prefix("/api/v3/simulations/").unwrap();
        if has_override {
            prop_assert!(!is_override(kept.trim_start_matches('?')), "{}", kept);
            prop_assert!(kept.len() < query.len() + 1);
        } else if query.is_empty() {
            prop_assert_eq!(kept, "");
        } else {
            prop_assert_eq!(kept, format!("?{query}"));
        }
    }
}
