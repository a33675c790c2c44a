//! Fuzz target bodies for the gateway's inputs: requests with fuzzed methods, targets and
//! credentials, key store documents, and deprecation checks. Part of `harness.rs`.

use std::sync::OnceLock;

use edgeattest::UnixTime;

use super::{check, split, text, NOW};

fn now() -> UnixTime {
    UnixTime::from_secs(NOW).expect("in range")
}

fn dev_keys() -> &'static (
    Vec<edgeattest::access::IssuedKey>,
    edgeattest::access::KeyStore,
) {
    static KEYS: OnceLock<(
        Vec<edgeattest::access::IssuedKey>,
        edgeattest::access::KeyStore,
    )> = OnceLock::new();
    KEYS.get_or_init(|| {
        let keys = edgeattest::access::dev_key_set(&[7; 32], now());
        let store = edgeattest::access::store_of(&keys).expect("dev store");
        (keys, store)
    })
}

/// `access_gateway`: the gateway decision for a fuzzed request. Input: selector byte, then
/// `method SEP target SEP authorization SEP headers` (headers: `name:value` lines). Selector
/// bit 0 replaces the authorization by a
/// real dev key of the user picked by bits 1–3 (so that routes and scopes see fuzzed
/// methods and paths with a valid credential); bit 4 drops the header.
pub fn access_gateway(data: &[u8]) {
    use edgeattest::access::{
        authorize, bearer_token, split_target, ApiKey, CanonicalPath, GatewayConfig, GatewayRequest,
    };
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let parts = split(rest, 4);
    let (method, target, header) = (text(parts[0]), text(parts[1]), text(parts[2]));
    let header_text = text(parts[3]);
    let headers: Vec<(&str, &str)> = header_text
        .split('\n')
        .filter(|line| !line.is_empty())
        .map(|line| line.split_once(':').unwrap_or((line, "")))
        .collect();
    let (keys, store) = dev_keys();
    let real;
    let authorization = if selector & 16 != 0 {
        None
    } else if selector & 1 != 0 && !keys.is_empty() {
        let key = &keys[usize::from(selector >> 1 & 7) % keys.len()];
        real = format!("Bearer {}", key.key().expose_secret());
        Some(real.as_str())
    } else {
        Some(header.as_str())
    };
    let request = GatewayRequest {
        method: &method,
        target: &target,
        authorization,
        headers: &headers,
    };
    let decision = authorize(&request, store, &GatewayConfig::default(), now());
    // A decision is always well-formed: allowed and forwarded, or answered with a status
    // (4xx for a denial, 204 for a preflight), never a server error.
    if decision.allow {
        let forward = decision
            .forward
            .as_ref()
            .expect("an allowed request is forwarded");
        // Only the gateway speaks for the key, once per header; the target is what was
        // authorized, without method overrides.
        let ours = forward
            .headers
            .iter()
            .filter(|(n, _)| {
                n.to_ascii_lowercase()
                    .replace('_', "-")
                    .starts_with("x-edgeattest-")
            })
            .count();
        assert_eq!(ours, forward.set_headers.len(), "{forward:?}");
        assert!(forward.target.starts_with(&forward.path), "{forward:?}");
        let query = forward.target.get(forward.path.len()..).unwrap_or("");
        let mut names = query.trim_start_matches('?').split(['&', ';']);
        assert!(
            names.all(|pair| !pair
                .split('=')
                .next()
                .unwrap_or("")
                .eq_ignore_ascii_case("_method")),
            "{forward:?}"
        );
    } else if decision.status == 204 {
        // A CORS preflight, answered by the gateway.
        assert!(decision.code().is_none(), "{decision:?}");
    } else {
        assert!(
            (400..500).contains(&decision.status),
            "denial status {}",
            decision.status
        );
        let code = decision.code().expect("a denial has a code");
        assert!(code.starts_with("ERR_"), "{code}");
        let body = decision.body_json();
        edgeattest::json::parse(body.as_bytes()).expect("denial body is JSON");
    }
    let _ = decision.to_json();
    let (path, query) = split_target(&target);
    check(&CanonicalPath::parse(path));
    let _ = bearer_token(Some(&header), query);
    check(&ApiKey::parse(&header));
    if let Ok(key) = ApiKey::parse(&header) {
        assert_eq!(ApiKey::parse(key.expose_secret()).as_ref(), Ok(&key));
    }
}

/// `access_keystore`: a key store document (the host's KV or environment JSON).
pub fn access_keystore(data: &[u8]) {
    let parsed = edgeattest::access::KeyStore::from_json(data);
    check(&parsed);
    if let Ok(store) = parsed {
        let json = store.to_json();
        let again = edgeattest::access::KeyStore::from_json(json.as_bytes())
            .expect("own key store output parses");
        assert_eq!(again.records().len(), store.records().len());
    }
}

/// `deprecation_request`: a create/update body checked against the attribute rules of the
/// target the selector byte picks, and the same text as a query string; before and after
/// every enforcement date.
pub fn deprecation_request(data: &[u8]) {
    use edgeattest::deprecation::{check_query, check_request_json, REGISTRY};
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let mut targets: Vec<&str> = REGISTRY
        .iter()
        .flat_map(|row| row.targets.iter().copied())
        .collect();
    targets.sort_unstable();
    targets.dedup();
    targets.push("no such target");
    let target = targets[usize::from(selector) % targets.len()];
    for now in [UnixTime::EPOCH, now(), UnixTime::MAX] {
        let result = check_request_json(target, body, now);
        check(&result);
        if let Ok(checked) = &result {
            // Ignored attributes are removed, never kept.
            for row in &checked.ignored {
                assert!(checked.body.get(row.name).is_none());
            }
        }
        check(&check_query(target, &text(body), now));
    }
}
