//! The evidence entries' options read by the core from JSON (`EvidenceOptions` through
//! serde_json), on real fixtures: the cases of `options_cases.json`, which the wasm exports
//! run too (tests/js/evidence-options.test.mjs), so both paths must give each outcome.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::evidence::{DeviceResult, EvidenceOptions, OptionsError, RuntimeEvidenceInput};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::{json, Value};

fn repo(path: &str) -> String {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// `@hex:`, `@text:` and `@sample:` strings replaced by what they name.
fn resolve(value: &mut Value, samples: &Value) {
    match value {
        Value::String(text) => {
            if let Some(path) = text.strip_prefix("@hex:") {
                *text = repo(&format!("tests/fixtures/{path}")).trim().to_string();
            } else if let Some(path) = text.strip_prefix("@text:") {
                *text = repo(&format!("tests/fixtures/{path}"));
            } else if let Some(name) = text.strip_prefix("@sample:") {
                let (id, field) = name.rsplit_once('.').unwrap();
                let sample = samples["samples"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|s| s["id"] == id)
                    .unwrap_or_else(|| panic!("no sample {id}"));
                *text = sample[field].as_str().unwrap().to_string();
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| resolve(v, samples)),
        Value::Object(members) => members.values_mut().for_each(|v| resolve(v, samples)),
        _ => {}
    }
}

fn error(error: &impl ErrorCode) -> Value {
    json!({ "error": error.code(), "field": error.field() })
}

/// The clock of a test: never read by these cases, which all give `now` (a case without it
/// would be judged at the epoch, and fail loudly).
fn clock() -> impl FnOnce(Option<&UnixTime>) -> Result<UnixTime, OptionsError> {
    UnixTime::given_or(UnixTime::EPOCH)
}

/// One case's outcome, in the shape the JS test builds from the exports' results.
fn outcome(entry: &str, options: &EvidenceOptions) -> Value {
    let run = || -> Result<Value, OptionsError> {
        Ok(match entry {
            "evidenceReport" => {
                let report = serde_json::to_value(options.report_plan(clock())?.verify()).unwrap();
                json!({
                    "verdict": report["verdict"],
                    "failure": report["failure"]["code"],
                    "revocation": report["revocation"],
                })
            }
            "verifyEvidence" => match options.verify_evidence(clock())? {
                Ok(device) => {
                    let report = device.to_report();
                    json!({ "arch": report.arch, "fwid": report.fwid, "driverVersion": report.driver_version })
                }
                Err(e) => error(&e),
            },
            "prepareEvidence" => {
                let results = DeviceResult::list(options.batch_plan(clock())?.verify());
                let codes: Vec<&str> = results
                    .iter()
                    .map(|r| match r {
                        DeviceResult::Passed { .. } => "ok",
                        DeviceResult::Failed { error, .. } => error.code,
                    })
                    .collect();
                json!({ "devices": codes })
            }
            "verifyCertificateChain" => match options.verify_certificate_chain(clock())? {
                Ok(chain) => json!({ "status": chain.status, "subjects": chain.subjects.len() }),
                Err(e) => error(&e),
            },
            "runtimeEvidence" => {
                let values =
                    serde_json::to_value(RuntimeEvidenceInput::from(options.runtime_evidence()?))
                        .unwrap();
                json!({
                    "vbiosVersion": values["vbiosVersion"],
                    "measurements": values["measurements"].as_object().unwrap().len(),
                })
            }
            other => panic!("unknown entry {other}"),
        })
    };
    run().unwrap_or_else(|e| error(&e))
}

#[test]
fn every_case_gives_its_outcome_from_json() {
    let samples: Value = serde_json::from_str(&repo("www/samples/evidence.json")).unwrap();
    let table: Value = serde_json::from_str(&repo("tests/it/evidence/options_cases.json")).unwrap();
    let cases = table["cases"].as_array().unwrap();
    assert!(cases.len() >= 20);
    let mut wrong = Vec::new();
    for case in cases {
        let mut options = case["options"].clone();
        resolve(&mut options, &samples);
        let options: EvidenceOptions = serde_json::from_value(options).unwrap();
        let got = outcome(case["entry"].as_str().unwrap(), &options);
        let mut want = case["outcome"].clone();
        if want["error"] == "@any" {
            assert!(
                got["error"].as_str().is_some_and(|c| c.starts_with("ERR_")),
                "{got}"
            );
            want["error"] = got["error"].clone();
        }
        if got != want {
            wrong.push(format!("{}: got {got}, want {want}", case["name"]));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_member_of_the_wrong_type_is_a_serde_error() {
    for bad in [
        json!({ "arch": 5 }),
        json!({ "nonce": true }),
        json!({ "revocation": { "status": 7 } }),
        json!({ "rims": { "firmware": 42 } }),
        json!({ "now": -1 }),
        json!({ "now": 1.5 }),
        json!({ "now": 253_402_300_800_u64 }),
        json!({ "devices": "none" }),
    ] {
        assert!(
            serde_json::from_value::<EvidenceOptions>(bad.clone()).is_err(),
            "{bad}"
        );
    }
    // An unknown member is refused, as the JS binding refuses it (a misspelt option must never
    // fall back to its default).
    let unknown = serde_json::from_value::<EvidenceOptions>(json!({ "trustAnchor": "pem" }))
        .err()
        .map(|e| e.to_string());
    assert!(
        unknown
            .as_deref()
            .is_some_and(|e| e.contains("unknown field `trustAnchor`")),
        "{unknown:?}"
    );
    // Members an entry does not use are still read (one type for every entry).
    let options: EvidenceOptions = serde_json::from_value(json!({})).unwrap();
    let refused = options.batch_plan(clock()).unwrap_err();
    assert_eq!(
        (refused.code(), refused.field()),
        ("ERR_INVALID_ARGUMENT", Some("nonce"))
    );
}

#[test]
fn now_is_read_from_the_options_else_the_callers_clock() {
    let text = repo("tests/fixtures/nvidia/evidence/hopper/nvtrust_hopper_550.90.07_certchain.pem");
    let chain = |now: Option<u64>, clock: u64| {
        let mut options = json!({ "certificate": text, "enforceTime": true });
        if let Some(now) = now {
            options["now"] = json!(now);
        }
        let options: EvidenceOptions = serde_json::from_value(options).unwrap();
        let clock = UnixTime::given_or::<OptionsError>(UnixTime::from_secs(clock).unwrap());
        options
            .verify_certificate_chain(clock)
            .unwrap()
            .map(|c| c.status)
    };
    // The leaf is valid from 2023 on: the epoch is before it, whichever of the two gives it.
    assert_eq!(chain(Some(1_790_000_000), 0), Ok("valid"));
    assert!(chain(None, 0).is_err());
    assert_eq!(chain(None, 1_790_000_000), Ok("valid"));
    assert!(chain(Some(0), 1_790_000_000).is_err());
}

#[test]
fn runtime_values_read_back_as_they_were_written() {
    let samples: Value = serde_json::from_str(&repo("www/samples/evidence.json")).unwrap();
    let mut options =
        json!({ "evidence": "@sample:hopper-535.86.09.evidenceHex", "arch": "HOPPER" });
    resolve(&mut options, &samples);
    let options: EvidenceOptions = serde_json::from_value(options).unwrap();
    let values = options.runtime_evidence().unwrap();
    let written = serde_json::to_value(RuntimeEvidenceInput::from(values.clone())).unwrap();
    assert_eq!(written["driverVersion"], "535.86.09");
    let read: RuntimeEvidenceInput = serde_json::from_value(written).unwrap();
    assert_eq!(edgeattest::rim::RuntimeEvidence::from(read), values);
    // Unknown members and index 0 are refused.
    assert!(serde_json::from_value::<RuntimeEvidenceInput>(json!({ "drivers": "1" })).is_err());
    assert!(serde_json::from_value::<RuntimeEvidenceInput>(
        json!({ "measurements": { "0": "00" } })
    )
    .is_err());
}
