//! `EDGEATTEST_TEST_PKI=on` (`HostSettings::add_test_pki`, `TestPki::answers`): the one rule the
//! worker and the service component follow. Its roots join the configured anchors, its RIMs are
//! added for configured roots only (`configured-roots/<id>.xml`), its OCSP answers are found by
//! the core's cache key; off, nothing of it is added. On the real collateral
//! (tests/fixtures/generated/ocsp and demo/).

use edgeattest::service::{HostSettings, RimDocument, TestPki};
use edgeattest::ErrorCode;

macro_rules! fixture {
    ($path:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/generated/",
            $path
        ))
    };
}

const DRIVER: &str = fixture!("ocsp/rims/NV_GPU_DRIVER_GH100_550.90.07.xml");

fn pki(ocsp_answers: &str) -> TestPki<'_> {
    TestPki {
        label: "edgeattest TEST PKI",
        device_roots: fixture!("ocsp/root.pem"),
        rim_roots: fixture!("ocsp/rim_root.pem"),
        rims: &[("NV_GPU_DRIVER_GH100_550.90.07", DRIVER)],
        ocsp_answers,
    }
}

const ANSWERS: &str = fixture!("demo/ocsp_answers.json");

fn settings(vars: &[(&str, &str)]) -> HostSettings {
    let key = fixture!("token_signing_key.pem");
    HostSettings::read(|name| match name {
        "EDGEATTEST_SIGNING_KEY" => Some(key.into()),
        _ => vars
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| (*v).into()),
    })
    .unwrap()
}

const CONFIGURED: [(&str, &str); 2] = [
    ("EDGEATTEST_TRUST_ANCHORS", fixture!("test_root.pem")),
    (
        "EDGEATTEST_RIM_DOCUMENTS",
        r#"[{"name": "mine.xml", "xml": "<a/>"}]"#,
    ),
];

#[test]
fn off_adds_nothing() {
    for vars in [&CONFIGURED[..], &[("EDGEATTEST_TEST_PKI", "off")][..]] {
        let before = settings(vars);
        let mut after = before.clone();
        after.add_test_pki(&pki(ANSWERS));
        assert_eq!(after, before);
    }
}

#[test]
fn on_adds_the_roots_after_the_configured_ones_and_the_rims_for_configured_roots_only() {
    let mut vars = CONFIGURED.to_vec();
    vars.push(("EDGEATTEST_TEST_PKI", "on"));
    let mut settings = settings(&vars);
    settings.add_test_pki(&pki(ANSWERS));
    let o = &settings.options;
    assert_eq!(
        o.trust_anchors.as_deref(),
        Some(
            format!(
                "{}\n{}",
                fixture!("test_root.pem"),
                fixture!("ocsp/root.pem")
            )
            .as_str()
        )
    );
    assert_eq!(
        o.rim_trust_anchors.as_deref(),
        Some(fixture!("ocsp/rim_root.pem"))
    );
    assert_eq!(
        settings.rim_documents,
        [
            RimDocument {
                name: "configured-roots/NV_GPU_DRIVER_GH100_550.90.07.xml".into(),
                xml: DRIVER.into(),
            },
            RimDocument {
                name: "mine.xml".into(),
                xml: "<a/>".into(),
            },
        ]
    );
    // The joined anchors are PEM the service takes, and the RIM is stored for configured
    // roots under its id.
    let mut service = settings.options.build().unwrap();
    for document in &settings.rim_documents[..1] {
        service
            .rims_mut()
            .insert_named(&document.name, document.xml.clone().into_bytes())
            .unwrap();
    }
    assert!(service
        .rims_mut()
        .get("configured-roots/NV_GPU_DRIVER_GH100_550.90.07")
        .is_some());
    assert!(service
        .rims_mut()
        .get("NV_GPU_DRIVER_GH100_550.90.07")
        .is_none());
}

#[test]
fn its_ocsp_answers_are_found_by_the_cores_cache_key_only() {
    let answers = pki(ANSWERS).answers().unwrap();
    assert_eq!(answers.len(), 10);
    // brom_good's answer: issuer key hash and serial, as `Resource::Ocsp::cache_key` names them.
    let key = "sha384:48566632b5b579b7b43ae88d3a29a87714e99b256667e72b8919a9d6937e14af100e0c819ac070b00ecd8f356a9a6c83:4f4e2365c69b7e7e61b2e376df44bfc1c64b08eb";
    let der = answers.get(key).unwrap();
    assert_eq!(der[0], 0x30, "an OCSPResponse (DER SEQUENCE)");
    assert!(answers.get(&key.replace(":4f4e", ":4f4f")).is_none());
    assert!(answers.get(&format!("ocsp:{key}")).is_none());
    // Every answer, as a host that holds them in its own form (the worker) reads them.
    let all: Vec<_> = answers.iter().collect();
    assert_eq!(all.len(), answers.len());
    assert!(all.iter().all(|(k, d)| answers.get(k) == Some(*d)));
    assert!(all.contains(&(key, der)));
}

#[test]
fn unusable_answers_are_a_configuration_error() {
    for (bad, says) in [
        ("{", "the test PKI's OCSP answers:"),
        (
            r#"{"k": {"certificate": "c", "response": "not base64!"}}"#,
            "k:",
        ),
        (r#"{"k": {"certificate": "c"}}"#, "response"),
        (
            r#"{"k": {"certificate": "c", "response": "MA=="}, "k": {"certificate": "c", "response": "MA=="}}"#,
            "duplicate",
        ),
    ] {
        let error = pki(bad).answers().unwrap_err();
        assert_eq!(error.code(), "ERR_CONFIG", "{bad}");
        assert!(error.to_string().contains(says), "{bad}: {error}");
    }
}
