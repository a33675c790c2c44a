//! Properties over arbitrary input: the decision never panics, always answers with a known
//! status, and never puts caller-supplied text into a response header.
#![cfg(not(target_arch = "wasm32"))]
// Test helpers outside #[test] functions may fail loudly too.

use edgeattest::access::{
    authorize, dev_key_set, store_of, ApiKey, CanonicalPath, GatewayConfig, GatewayRequest,
    KeyStore, KeyType,
};
use edgeattest::UnixTime;
use proptest::prelude::*;

const NOW: UnixTime = UnixTime::from_secs(1_800_000_000).unwrap();

fn target() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ -~]{0,80}",
        "/api/v3/(simulations|images|marketplace/demos|trainings)(/[a-z0-9%._~;-]{0,8}){0,4}/?(\\?[a-z_=&%]{0,20})?",
        any::<String>(),
    ]
}

fn authorization(valid: String) -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(None),
        Just(Some(format!("Bearer {valid}"))),
        "(Bearer|bearer|Basic|) {0,3}[ -~]{0,70}".prop_map(Some),
        any::<String>().prop_map(Some),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn decisions_are_total_and_headers_are_ours(
        method in prop_oneof![Just("GET".to_owned()), Just("POST".to_owned()), Just("OPTIONS".to_owned()), "[A-Za-z]{0,8}"],
        target in target(),
        auth in authorization(dev_key_set(&[1; 32], NOW)[0].key().expose_secret().to_owned()),
    ) {
        let keys = dev_key_set(&[1; 32], NOW);
        let store = store_of(&keys).unwrap();
        let request = GatewayRequest { method: &method, target: &target, authorization: auth.as_deref(), headers: &[] };
        let decision = authorize(&request, &store, &GatewayConfig::default(), NOW);
        if decision.allow {
            prop_assert_eq!(decision.status, 0);
            let forward = decision.forward.as_ref().unwrap();
            prop_assert!(CanonicalPath::parse(&forward.path).is_ok());
            prop_assert!(forward.path.starts_with("/api/v3/"));
        } else {
            prop_assert!([204, 400, 401, 403, 404, 405].contains(&decision.status), "{}", decision.status);
            prop_assert!(decision.forward.is_none());
        }
        for (_, value) in &decision.headers {
            prop_assert!(value.bytes().all(|b| (0x20..0x7F).contains(&b)), "{value:?}");
            if let Some(auth) = &auth {
                if auth.len() > 8 {
                    prop_assert!(!value.contains(auth.as_str()));
                }
            }
        }
        let body = decision.body_json();
        if let Some(auth) = &auth {
            if let Some(key) = auth.strip_prefix("Bearer ") {
                if key.len() > 8 {
                    prop_assert!(!body.contains(key), "the key is echoed");
                }
            }
        }
    }

    #[test]
    fn key_parsing_is_total(text in any::<String>()) {
        let _ = ApiKey::parse(&text);
    }

    #[test]
    fn generated_keys_always_parse(random in any::<[u8; 32]>(), service in any::<bool>()) {
        let kind = if service { KeyType::Service } else { KeyType::Personal };
        let key = ApiKey::generate(kind, &random);
        prop_assert_eq!(ApiKey::parse(key.expose_secret()).unwrap(), key);
    }

    #[test]
    fn key_store_parsing_is_total(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = KeyStore::from_json(&bytes);
    }

    #[test]
    fn canonical_paths_are_fixed_points(path in "/[a-z0-9._~-]{0,6}(/[a-z0-9._~-]{0,6}){0,5}") {
        if let Ok(canonical) = CanonicalPath::parse(&path) {
            let again = CanonicalPath::parse(canonical.as_str()).unwrap();
            prop_assert_eq!(again.as_str(), canonical.as_str());
            prop_assert!(canonical.as_str().ends_with('/'));
        }
    }
}
