//! `ServiceOptions`: the one place a service is made from text (key formats told apart,
//! NVIDIA's roots plus the extra anchors, the token-lifetime range, the source URLs), with a
//! typed error naming the option at fault.

use edgeattest::crypto::SigningKey;
use edgeattest::service::{
    OptionsError, ServiceOptions, Setting, DEFAULT_TOKEN_LIFETIME, NVIDIA_OCSP_URL,
    NVIDIA_RIM_SERVICE_URL,
};
use edgeattest::ErrorCode;

fn generated(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/generated/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn with_key() -> ServiceOptions {
    ServiceOptions {
        signing_key: Some(generated("token_signing_key.pem")),
        ..ServiceOptions::default()
    }
}

fn refusal(options: &ServiceOptions) -> OptionsError {
    match options.build() {
        Ok(_) => panic!("options accepted: {options:?}"),
        Err(error) => error,
    }
}

#[test]
fn defaults_are_nvidias_sources_and_an_hour() {
    let service = with_key().build().unwrap();
    let config = service.config();
    assert_eq!(config.token_lifetime, DEFAULT_TOKEN_LIFETIME);
    assert_eq!(
        config.rim_service_url.as_deref(),
        Some(NVIDIA_RIM_SERVICE_URL)
    );
    assert_eq!(config.ocsp_url.as_deref(), Some(NVIDIA_OCSP_URL));
    assert_eq!(config.issuer, None);
}

#[test]
fn a_key_is_pem_or_a_jwk_and_exactly_one_of_the_two_kinds() {
    let pem = generated("token_signing_key.pem");
    let jwk =
        serde_json::to_string(&SigningKey::from_pkcs8_pem(&pem).unwrap().to_jwk(None)).unwrap();
    for text in [pem.clone(), format!("  \n{jwk}")] {
        let options = ServiceOptions {
            signing_key: Some(text),
            ..ServiceOptions::default()
        };
        options.build().unwrap();
    }
    let public = SigningKey::from_pkcs8_pem(&pem).unwrap().public_key();
    for text in [
        public.to_spki_pem(),
        serde_json::to_string(&public.to_jwk(None)).unwrap(),
    ] {
        let options = ServiceOptions {
            public_key: Some(text),
            ..ServiceOptions::default()
        };
        options.build().unwrap();
    }
    for options in [
        ServiceOptions::default(),
        ServiceOptions {
            public_key: Some(public.to_spki_pem()),
            ..with_key()
        },
    ] {
        let error = refusal(&options);
        assert_eq!(error, OptionsError::KeyCount);
        assert_eq!(error.code(), "ERR_INVALID_ARGUMENT");
        assert_eq!(error.field(), Some("signingKey"));
    }
    let error = refusal(&ServiceOptions {
        signing_key: Some("not a key".into()),
        ..ServiceOptions::default()
    });
    assert!(matches!(error, OptionsError::Key(_)), "{error:?}");
    assert_eq!(error.code(), "ERR_KEY_ENCODING_INVALID");
}

#[test]
fn the_token_lifetime_is_a_minute_to_a_day() {
    for (lifetime, ok) in [
        (59, false),
        (60, true),
        (86_400, true),
        (86_401, false),
        (-1, false),
    ] {
        let options = ServiceOptions {
            token_lifetime: Some(lifetime),
            ..with_key()
        };
        match options.build() {
            Ok(service) => {
                assert!(ok, "{lifetime} accepted");
                assert_eq!(service.config().token_lifetime, lifetime);
            }
            Err(error) => {
                assert!(!ok, "{lifetime} refused: {error}");
                assert_eq!(error, OptionsError::TokenLifetime(lifetime));
                assert_eq!(error.field(), Some("tokenLifetime"));
                assert_eq!(error.code(), "ERR_INVALID_ARGUMENT");
            }
        }
    }
}

#[test]
fn a_source_is_the_default_off_or_an_http_url() {
    let options = ServiceOptions {
        rim_service_url: Setting::Off,
        ocsp_url: Setting::Url("https://ocsp.example/".into()),
        ..with_key()
    };
    let service = options.build().unwrap();
    assert_eq!(service.config().rim_service_url, None);
    assert_eq!(
        service.config().ocsp_url.as_deref(),
        Some("https://ocsp.example/")
    );
    for bad in ["ftp://x/", "", "https://user@host/"] {
        let error = refusal(&ServiceOptions {
            ocsp_url: Setting::Url(bad.into()),
            ..with_key()
        });
        assert_eq!(error, OptionsError::SourceUrl("ocspUrl"), "{bad}");
        assert_eq!(error.field(), Some("ocspUrl"));
    }
}

#[test]
fn extra_anchors_add_to_nvidias_and_bad_ones_name_their_option() {
    let extra = generated("chain_other_root.pem");
    let options = ServiceOptions {
        trust_anchors: Some(extra.clone()),
        rim_trust_anchors: Some(extra),
        ..with_key()
    };
    options.build().unwrap();
    for (options, name) in [
        (
            ServiceOptions {
                trust_anchors: Some(
                    "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----".into(),
                ),
                ..with_key()
            },
            "trustAnchors",
        ),
        (
            ServiceOptions {
                rim_trust_anchors: Some(
                    "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----".into(),
                ),
                ..with_key()
            },
            "rimTrustAnchors",
        ),
    ] {
        let error = refusal(&options);
        assert!(matches!(error, OptionsError::TrustAnchors(..)), "{error:?}");
        assert_eq!(error.field(), Some(name));
        assert_eq!(error.code(), "ERR_CERT_MALFORMED");
    }
}

#[test]
fn options_read_from_json_with_camel_case_names() {
    let options: ServiceOptions = serde_json::from_str(
        r#"{"signingKey":"k","tokenLifetime":120,"rimServiceUrl":null,"ocspUrl":"off","requireFwid":true}"#,
    )
    .unwrap();
    assert_eq!(options.signing_key.as_deref(), Some("k"));
    assert_eq!(options.token_lifetime, Some(120));
    assert_eq!(options.rim_service_url, Setting::Off);
    assert_eq!(options.ocsp_url, Setting::Off);
    assert_eq!(options.require_fwid, Some(true));
    let absent: ServiceOptions =
        serde_json::from_str(r#"{"ocspUrl":"https://o.example/"}"#).unwrap();
    assert_eq!(absent.rim_service_url, Setting::Default);
    assert_eq!(absent.ocsp_url, Setting::Url("https://o.example/".into()));
    assert!(serde_json::from_str::<ServiceOptions>(r#"{"signingkey":"k"}"#).is_err());
}
