//! The host variables (`HostSettings::read`): the one reading of `EDGEATTEST_*` that the edge
//! worker (through `readServiceBindings`) and the service component share. Every variable,
//! its default, the empty value as unset, and a coded refusal for each value that means
//! nothing, with the signing key checked first.

use std::collections::BTreeMap;

use edgeattest::service::{CryptoChoice, HostSettings, RimDocument, Setting};
use edgeattest::ErrorCode;

const KEY: &str = "-----BEGIN PRIVATE KEY-----\nnot checked here\n-----END PRIVATE KEY-----";

fn read(vars: &[(&str, &str)]) -> Result<HostSettings, (String, String)> {
    let vars: BTreeMap<String, String> = vars
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    HostSettings::read(|name| vars.get(name).cloned())
        .map_err(|error| (error.code().to_owned(), error.to_string()))
}

fn with_key(vars: &[(&str, &str)]) -> Result<HostSettings, (String, String)> {
    let mut all = vec![("EDGEATTEST_SIGNING_KEY", KEY)];
    all.extend_from_slice(vars);
    read(&all)
}

fn refused(vars: &[(&str, &str)]) -> (String, String) {
    with_key(vars).unwrap_err()
}

#[test]
fn only_the_signing_key_is_required_and_everything_else_has_its_default() {
    let settings = with_key(&[]).unwrap();
    assert_eq!(settings.options.signing_key.as_deref(), Some(KEY));
    assert_eq!(settings.crypto, CryptoChoice::WebCrypto);
    assert_eq!(settings.fixed_time, None);
    assert_eq!(settings.ocsp_timeout_ms, 5_000);
    assert!(settings.fetch_cache);
    assert_eq!(settings.bundled_rims, None);
    assert!(settings.rim_documents.is_empty());
    assert!(!settings.test_pki, "the test PKI is off unless asked for");
    let o = &settings.options;
    assert_eq!(o.rim_service_url, Setting::Default);
    assert_eq!(o.ocsp_url, Setting::Default);
    assert_eq!(o.require_fwid, Some(false));
    assert!(o.issuer.is_none() && o.policy.is_none() && o.certificate.is_none());
    assert!(o.public_key.is_none() && o.kid.is_none() && o.token_lifetime.is_none());
}

#[test]
fn the_signing_key_is_checked_first_and_empty_is_unset() {
    for vars in [
        &[][..],
        &[("EDGEATTEST_SIGNING_KEY", "")][..],
        // Other variables wrong as well: the missing key is named, as the worker always did.
        &[("EDGEATTEST_CRYPTO", "hsm"), ("EDGEATTEST_FIXED_TIME", "x")][..],
    ] {
        let (code, message) = read(vars).unwrap_err();
        assert_eq!(code, "ERR_NO_SIGNING_KEY");
        assert_eq!(message, "EDGEATTEST_SIGNING_KEY is not configured");
    }
}

#[test]
fn every_variable_reaches_its_setting() {
    let settings = with_key(&[
        ("EDGEATTEST_CRYPTO", "software"),
        ("EDGEATTEST_FIXED_TIME", "2026-06-29T12:00:00Z"),
        ("EDGEATTEST_SIGNING_CERTIFICATE", "cert"),
        ("EDGEATTEST_RETIRED_KEYS", "{\"keys\":[]}"),
        ("EDGEATTEST_ISSUER", "https://nras.example"),
        ("EDGEATTEST_REQUIRE_FWID", "on"),
        ("EDGEATTEST_POLICY", "{}"),
        ("EDGEATTEST_TRUST_ANCHORS", "anchors"),
        ("EDGEATTEST_RIM_TRUST_ANCHORS", "rim anchors"),
        ("EDGEATTEST_RIM_SERVICE_URL", "https://rim.example"),
        ("EDGEATTEST_OCSP_URL", "off"),
        ("EDGEATTEST_OCSP_TIMEOUT_MS", "30000"),
        ("EDGEATTEST_FETCH_CACHE", "off"),
        ("EDGEATTEST_RIM_FORMATS", "corim-preferred"),
        ("EDGEATTEST_BUNDLED_RIMS", "off"),
        (
            "EDGEATTEST_RIM_DOCUMENTS",
            r#"[{"name": "a.xml", "xml": "<a/>"}]"#,
        ),
    ])
    .unwrap();
    assert_eq!(settings.crypto, CryptoChoice::Software);
    assert_eq!(
        settings.fixed_time,
        edgeattest::UnixTime::from_secs(1_782_734_400)
    );
    assert_eq!(settings.ocsp_timeout_ms, 30_000);
    assert!(!settings.fetch_cache);
    assert_eq!(settings.bundled_rims, Some(false));
    assert_eq!(
        settings.rim_documents,
        [RimDocument {
            name: "a.xml".into(),
            xml: "<a/>".into()
        }]
    );
    let o = &settings.options;
    assert_eq!(o.certificate.as_deref(), Some("cert"));
    assert_eq!(o.retired_keys.as_deref(), Some("{\"keys\":[]}"));
    assert_eq!(o.issuer.as_deref(), Some("https://nras.example"));
    assert_eq!(o.require_fwid, Some(true));
    assert_eq!(o.policy.as_deref(), Some("{}"));
    assert_eq!(o.trust_anchors.as_deref(), Some("anchors"));
    assert_eq!(o.rim_trust_anchors.as_deref(), Some("rim anchors"));
    assert_eq!(
        o.rim_service_url,
        Setting::Url("https://rim.example/v1/rim/".into())
    );
    assert_eq!(o.ocsp_url, Setting::Off);
    assert_eq!(
        o.rim_formats,
        Some(edgeattest::rim::RimFormats::CorimPreferred)
    );
}

#[test]
fn a_rim_service_base_gets_nvidias_path_and_a_rim_path_its_slash() {
    for (given, used) in [
        ("https://rim.example", "https://rim.example/v1/rim/"),
        ("https://rim.example/", "https://rim.example/v1/rim/"),
        (
            "https://rim.example/mirror",
            "https://rim.example/mirror/v1/rim/",
        ),
        ("https://rim.example/v1/rim", "https://rim.example/v1/rim/"),
        ("https://rim.example/v1/rim/", "https://rim.example/v1/rim/"),
    ] {
        let settings = with_key(&[("EDGEATTEST_RIM_SERVICE_URL", given)]).unwrap();
        assert_eq!(
            settings.options.rim_service_url,
            Setting::Url(used.into()),
            "{given}"
        );
    }
    let off = with_key(&[("EDGEATTEST_RIM_SERVICE_URL", "off")]).unwrap();
    assert_eq!(off.options.rim_service_url, Setting::Off);
}

#[test]
fn the_fixed_time_is_unix_seconds_or_rfc_3339_within_the_calendar() {
    let time = |text: &str| {
        with_key(&[("EDGEATTEST_FIXED_TIME", text)])
            .map(|s| s.fixed_time.map(edgeattest::UnixTime::as_secs))
    };
    assert_eq!(time("1782734400").unwrap(), Some(1_782_734_400));
    assert_eq!(time("0").unwrap(), Some(0));
    assert_eq!(time("2026-06-01T00:00:00Z").unwrap(), Some(1_780_272_000));
    for bad in [
        "yesterday",
        "-1",
        "1.5",
        "2026-06-01",
        "99999999999999999999",
        "253402300800",
    ] {
        let (code, message) = time(bad).unwrap_err();
        assert_eq!(code, "ERR_CONFIG", "{bad}");
        assert_eq!(
            message,
            format!("EDGEATTEST_FIXED_TIME is not an RFC 3339 time or Unix seconds: {bad}")
        );
    }
}

#[test]
fn values_that_mean_nothing_are_configuration_errors() {
    let cases: [(&str, &str, &str); 11] = [
        (
            "EDGEATTEST_RIM_FORMATS",
            "corim",
            "EDGEATTEST_RIM_FORMATS must be xml or corim-preferred, not corim",
        ),
        (
            "EDGEATTEST_TEST_PKI",
            "yes",
            "EDGEATTEST_TEST_PKI must be on or off, not yes",
        ),
        (
            "EDGEATTEST_TEST_PKI",
            "ON",
            "EDGEATTEST_TEST_PKI must be on or off, not ON",
        ),
        (
            "EDGEATTEST_CRYPTO",
            "hsm",
            "EDGEATTEST_CRYPTO must be one of webcrypto, software, not hsm",
        ),
        (
            "EDGEATTEST_OCSP_TIMEOUT_MS",
            "0",
            "EDGEATTEST_OCSP_TIMEOUT_MS must be milliseconds from 1 to 30000, not 0",
        ),
        (
            "EDGEATTEST_OCSP_TIMEOUT_MS",
            "30001",
            "EDGEATTEST_OCSP_TIMEOUT_MS must be milliseconds from 1 to 30000, not 30001",
        ),
        (
            "EDGEATTEST_OCSP_TIMEOUT_MS",
            "+5",
            "EDGEATTEST_OCSP_TIMEOUT_MS must be milliseconds from 1 to 30000, not +5",
        ),
        (
            "EDGEATTEST_REQUIRE_FWID",
            "yes",
            "EDGEATTEST_REQUIRE_FWID must be on or off, not yes",
        ),
        (
            "EDGEATTEST_FETCH_CACHE",
            "true",
            "EDGEATTEST_FETCH_CACHE must be on or off, not true",
        ),
        (
            "EDGEATTEST_BUNDLED_RIMS",
            "0",
            "EDGEATTEST_BUNDLED_RIMS must be on or off, not 0",
        ),
        (
            "EDGEATTEST_CRYPTO",
            "WebCrypto",
            "EDGEATTEST_CRYPTO must be one of webcrypto, software, not WebCrypto",
        ),
    ];
    for (name, value, message) in cases {
        assert_eq!(
            refused(&[(name, value)]),
            ("ERR_CONFIG".to_owned(), message.to_owned()),
            "{name}={value}"
        );
    }
}

#[test]
fn rim_documents_are_strict_json() {
    for bad in [
        "not json",
        r#"{"name": "a", "xml": "<a/>"}"#,
        r#"[{"name": "a"}]"#,
        r#"[{"name": "a", "xml": "<a/>", "extra": 1}]"#,
        r#"[{"name": "a", "name": "b", "xml": "<a/>"}]"#,
    ] {
        let (code, message) = refused(&[("EDGEATTEST_RIM_DOCUMENTS", bad)]);
        assert_eq!(code, "ERR_CONFIG", "{bad}");
        assert!(
            message.starts_with("EDGEATTEST_RIM_DOCUMENTS: "),
            "{message}"
        );
    }
    let empty = with_key(&[("EDGEATTEST_RIM_DOCUMENTS", "[]")]).unwrap();
    assert!(empty.rim_documents.is_empty());
}

#[test]
fn what_the_variables_give_builds_a_service_or_names_the_option() {
    let key = edgeattest::crypto::SigningKey::generate(&[7; 48])
        .unwrap()
        .to_pkcs8_pem();
    let vars = [("EDGEATTEST_SIGNING_KEY", key.as_str())];
    assert!(read(&vars).unwrap().options.build().is_ok());
    let mut bad_url = vars.to_vec();
    bad_url.push(("EDGEATTEST_OCSP_URL", "ftp://ocsp.example"));
    let error = read(&bad_url).unwrap().options.build().unwrap_err();
    assert_eq!(error.field(), Some("ocspUrl"));
}

#[test]
fn the_test_pki_is_on_only_when_asked_for() {
    assert!(with_key(&[("EDGEATTEST_TEST_PKI", "on")]).unwrap().test_pki);
    for off in ["off", ""] {
        assert!(
            !with_key(&[("EDGEATTEST_TEST_PKI", off)]).unwrap().test_pki,
            "{off:?}"
        );
    }
    // Without a key the key is named first, as for every variable.
    let (code, _) = read(&[("EDGEATTEST_TEST_PKI", "on")]).unwrap_err();
    assert_eq!(code, "ERR_NO_SIGNING_KEY");
}
