//! The EAR's shape against the draft (`tests/fixtures/ear/`, PROVENANCE.md): one checker
//! written from the Veraison profile's CDDL (`veraison-ear.cddl`, `veraison-ear-appraisal.cddl`,
//! `ar4si.cddl`) accepts the draft's JSON examples and every EAR edgeattest writes, and
//! refuses what the CDDL refuses.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::ear::{Ear, EarAppraisal, TrustTier, TrustVector, EAR_PROFILE};
use serde_json::{json, Map, Value};

fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/ear/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap()
}

/// `ar4si.cddl`'s eight vector labels.
const VECTOR_KEYS: [&str; 8] = [
    "instance-identity",
    "configuration",
    "executables",
    "file-system",
    "hardware",
    "runtime-opaque",
    "storage-opaque",
    "sourced-data",
];

const TIERS: [&str; 4] = ["none", "affirming", "warning", "contraindicated"];

/// The CDDL's rules; `Err` names the first member at fault. Extensions (`$$ear-extension`)
/// are allowed: only the members the CDDL names are checked.
fn check(ear: &Value) -> Result<(), String> {
    let ear = ear.as_object().ok_or("EAR is a map")?;
    if ear.get("eat_profile") != Some(&json!(EAR_PROFILE)) {
        return Err("eat_profile".into());
    }
    if !ear.get("iat").is_some_and(|iat| iat.is_i64()) {
        return Err("iat".into());
    }
    let id = ear
        .get("ear.verifier-id")
        .and_then(Value::as_object)
        .ok_or("ear.verifier-id")?;
    if id.len() != 2
        || !id.get("developer").is_some_and(Value::is_string)
        || !id.get("build").is_some_and(Value::is_string)
    {
        return Err("ear.verifier-id".into());
    }
    if let Some(raw) = ear.get("ear.raw-evidence") {
        let text = raw.as_str().ok_or("ear.raw-evidence")?;
        if !text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'=')
        {
            return Err("ear.raw-evidence".into());
        }
    }
    if let Some(nonce) = ear.get("eat_nonce") {
        // RFC 9711 JSON: text of 8 to 88 characters, or an array of them.
        let ok = |n: &Value| n.as_str().is_some_and(|t| (8..=88).contains(&t.len()));
        let valid = ok(nonce)
            || nonce
                .as_array()
                .is_some_and(|a| !a.is_empty() && a.iter().all(ok));
        if !valid {
            return Err("eat_nonce".into());
        }
    }
    let submods = ear
        .get("submods")
        .and_then(Value::as_object)
        .ok_or("submods")?;
    if submods.is_empty() {
        return Err("submods".into());
    }
    for (label, appraisal) in submods {
        check_appraisal(appraisal).map_err(|member| format!("submods/{label}/{member}"))?;
    }
    Ok(())
}

fn check_appraisal(appraisal: &Value) -> Result<(), String> {
    let appraisal: &Map<String, Value> = appraisal.as_object().ok_or("")?;
    if !appraisal
        .get("ear.status")
        .and_then(Value::as_str)
        .is_some_and(|s| TIERS.contains(&s))
    {
        return Err("ear.status".into());
    }
    if let Some(vector) = appraisal.get("ear.trustworthiness-vector") {
        let vector = vector
            .as_object()
            .filter(|v| !v.is_empty())
            .ok_or("ear.trustworthiness-vector")?;
        for (key, value) in vector {
            let in_range = value.as_i64().is_some_and(|v| (-128..=127).contains(&v));
            if !VECTOR_KEYS.contains(&key.as_str()) || !in_range {
                return Err(format!("ear.trustworthiness-vector/{key}"));
            }
        }
    }
    if appraisal
        .get("ear.appraisal-policy-id")
        .is_some_and(|id| !id.is_string())
    {
        return Err("ear.appraisal-policy-id".into());
    }
    Ok(())
}

#[test]
fn the_drafts_examples_pass_the_checker_and_read_as_ears() {
    for (name, status) in [
        ("veraison-ear-json-1.json", TrustTier::Contraindicated),
        ("veraison-ear-json-2.json", TrustTier::Affirming),
    ] {
        let example = fixture(name);
        check(&example).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ear = Ear::from_claims(example.as_object().unwrap()).unwrap();
        assert_eq!(ear.status(), status, "{name}");
        // Read and written again, only the raw evidence (not written here) is gone.
        let mut expected = example.clone();
        expected.as_object_mut().unwrap().remove("ear.raw-evidence");
        let written: Value = serde_json::from_str(&ear.to_json()).unwrap();
        assert_eq!(written, expected, "{name}");
    }
    // The example of draft -04's profile: another profile and other claim names.
    let later = fixture("draft-04-ear-json-2.json");
    assert_eq!(check(&later), Err("eat_profile".into()));
    assert_eq!(
        edgeattest::ErrorCode::code(&Ear::from_claims(later.as_object().unwrap()).unwrap_err()),
        "ERR_EAR_PROFILE"
    );
}

#[test]
fn every_ear_edgeattest_writes_passes_the_checker() {
    let appraisal = |status, vector: Option<TrustVector>, policy: Option<&str>| EarAppraisal {
        status,
        vector,
        policy_ids: policy.map(String::from).into_iter().collect(),
    };
    let full = TrustVector {
        instance_identity: Some(2),
        configuration: Some(96),
        executables: Some(33),
        hardware: Some(97),
        ..TrustVector::default()
    };
    let ear = Ear::new(
        1_800_000_000,
        Some("931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb".into()),
        vec![
            (
                "GPU-0".into(),
                appraisal(TrustTier::Affirming, Some(full.clone()), None),
            ),
            (
                "GPU-1".into(),
                appraisal(TrustTier::Contraindicated, None, Some("tag:x,2026:p")),
            ),
            (
                "SWITCH-0".into(),
                appraisal(TrustTier::Warning, Some(full), None),
            ),
        ],
    );
    let written: Value = serde_json::from_str(&ear.to_json()).unwrap();
    check(&written).unwrap();
    assert_eq!(
        written["ear.verifier-id"]["developer"],
        "https://github.com/edgeattest/edgeattest"
    );
    assert_eq!(
        written["ear.verifier-id"]["build"],
        format!("edgeattest {}", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(
        written["submods"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["GPU-0", "GPU-1", "SWITCH-0"]
    );
    assert!(written["submods"]["GPU-1"]
        .get("ear.trustworthiness-vector")
        .is_none());
    assert_eq!(Ear::from_claims(written.as_object().unwrap()).unwrap(), ear);
}

/// A change to an EAR.
type Edit = fn(&mut Value);

#[test]
fn the_checker_and_the_reader_refuse_what_the_cddl_refuses() {
    let good = fixture("veraison-ear-json-2.json");
    let cases: [(&str, Edit, &str); 6] = [
        (
            "no submods",
            |e| drop(e.as_object_mut().unwrap().remove("submods")),
            "submods",
        ),
        ("empty submods", |e| e["submods"] = json!({}), "submods"),
        ("iat text", |e| e["iat"] = json!("1666529300"), "iat"),
        (
            "unknown tier",
            |e| e["submods"]["CCA Realm"]["ear.status"] = json!("ok"),
            "submods/CCA Realm/ear.status",
        ),
        (
            "vector key",
            |e| e["submods"]["CCA Realm"]["ear.trustworthiness-vector"] = json!({"firmware": 2}),
            "submods/CCA Realm/ear.trustworthiness-vector",
        ),
        (
            "vector range",
            |e| e["submods"]["CCA Realm"]["ear.trustworthiness-vector"] = json!({"hardware": 128}),
            "submods/CCA Realm/ear.trustworthiness-vector",
        ),
    ];
    for (what, edit, field) in cases {
        let mut ear = good.clone();
        edit(&mut ear);
        assert!(check(&ear).is_err(), "{what}");
        let error = Ear::from_claims(ear.as_object().unwrap()).unwrap_err();
        assert_eq!(edgeattest::ErrorCode::field(&error), Some(field), "{what}");
    }
}
