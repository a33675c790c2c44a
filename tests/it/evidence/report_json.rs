//! The crate's one JSON writer (`src/json/write.rs`, compiled in here by path) writes what
//! serde_json writes: for every result shape on real
//! fixtures (passing and failing batches, device reports, a chain report, runtime values)
//! and for the serde forms those shapes do not use today, the text parses to the same value,
//! numbers compared as JS compares them (one f64).

use std::collections::BTreeMap;

use edgeattest::evidence::{
    CertificateChainReport, DeviceResult, EvidenceOptions, OptionsError, RuntimeEvidenceInput,
};
use edgeattest::UnixTime;
use serde::Serialize;
use serde_json::{json, Value};

use super::{
    blackwell_fsp, blackwell_gsp, hopper_545, ls10, report, rims, text, BLACKWELL_NOW, JAN_2024,
    JULY_2026, SWITCH_RIM, VBIOS_TEST,
};

#[path = "../../../src/json/write.rs"]
#[allow(dead_code, unreachable_pub)]
mod json;

/// `a` and `b` are the same once `JSON.parse` read them: numbers as f64.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, vx), (ky, vy))| kx == ky && same(vx, vy))
        }
        _ => a == b,
    }
}

/// The writer's text is JSON and means what serde_json's means, members in the same order;
/// it is serde_json's text byte for byte (the crate's bodies and signed payloads are written
/// with it).
#[track_caller]
fn agrees<T: Serialize + ?Sized>(value: &T) -> String {
    let text = json::to_string(value).unwrap();
    assert_eq!(text, serde_json::to_string(value).unwrap());
    let ours: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let theirs = serde_json::to_value(value).unwrap();
    assert!(same(&ours, &theirs), "ours {ours}\nserde_json {theirs}");
    text
}

fn clock() -> UnixTime {
    UnixTime::from_secs(1_790_000_000).unwrap()
}

fn options(value: &Value) -> EvidenceOptions {
    serde_json::from_value(value.clone()).unwrap()
}

/// One batch request of a serialized fixture (as tests/bench/evidence.mjs sends it).
fn batch(file: &str) -> Value {
    let items: Value =
        serde_json::from_str(&text(&format!("nvidia/evidence/serialized/{file}"))).unwrap();
    let items = items.as_array().unwrap();
    let devices: Vec<Value> = items
        .iter()
        .map(|i| json!({ "evidence": i["evidence"], "certificate": i["certificate"] }))
        .collect();
    json!({ "nonce": items[0]["nonce"], "arch": items[0]["arch"], "now": 1_790_000_000, "devices": devices })
}

fn results(request: &Value) -> Vec<DeviceResult> {
    let plan = options(request)
        .batch_plan(UnixTime::given_or::<OptionsError>(clock()))
        .unwrap();
    DeviceResult::list(plan.verify())
}

#[test]
fn batch_results_agree_passing_and_failing() {
    for file in [
        "nvtrust_ppcie_gpu_evidence_8gpu.json",
        "nvtrust_ppcie_switch_evidence_4sw.json",
        "nvat_multi_gpu_hopper.json",
    ] {
        let request = batch(file);
        let passed = results(&request);
        assert!(
            passed
                .iter()
                .all(|r| matches!(r, DeviceResult::Passed { .. })),
            "{file}"
        );
        agrees(&passed);
        // Another nonce: every device fails, with its code and message.
        let mut other = request.clone();
        other["nonce"] = json!("00".repeat(32));
        let failed = results(&other);
        assert!(
            failed
                .iter()
                .all(|r| matches!(r, DeviceResult::Failed { .. })),
            "{file}"
        );
        agrees(&failed);
    }
}

#[test]
fn device_reports_agree() {
    agrees(&report(
        &ls10(),
        rims(None, Some(SWITCH_RIM), JULY_2026),
        JULY_2026,
    ));
    agrees(&report(&ls10(), rims(None, None, JULY_2026), JULY_2026));
    agrees(&report(
        &hopper_545(),
        rims(None, Some(VBIOS_TEST), JAN_2024),
        JAN_2024,
    ));
    agrees(&report(
        &blackwell_gsp(),
        rims(None, None, BLACKWELL_NOW),
        BLACKWELL_NOW,
    ));
    agrees(&report(
        &blackwell_fsp(),
        rims(None, None, BLACKWELL_NOW),
        BLACKWELL_NOW,
    ));
}

#[test]
fn chain_and_runtime_values_agree() {
    let request = batch("nvtrust_ppcie_gpu_evidence_8gpu.json");
    let device = &request["devices"][0];
    let chain: CertificateChainReport =
        options(&json!({ "certificate": device["certificate"], "now": 1_790_000_000 }))
            .verify_certificate_chain(UnixTime::given_or::<OptionsError>(clock()))
            .unwrap()
            .unwrap();
    // Bytes are an array of numbers (the binding makes them a Uint8Array afterwards).
    assert!(agrees(&chain).contains("\"leafPublicKey\":[4,"));
    let runtime = options(&json!({ "evidence": device["evidence"], "arch": "HOPPER" }))
        .runtime_evidence()
        .unwrap();
    agrees(&RuntimeEvidenceInput::from(runtime));
}

#[derive(Serialize)]
enum Variant {
    Unit,
    Newtype(u8),
    Tuple(i32, String),
    Struct { a: Option<bool>, b: () },
}

#[derive(Serialize)]
struct Unit;

#[derive(Serialize)]
struct Pair(u16, char);

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Shapes {
    text: &'static str,
    control: String,
    numbers: (i8, i64, u64, u128, i128),
    floats: Vec<f64>,
    variants: Vec<Variant>,
    unit: Unit,
    pair: Pair,
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<u8>,
    absent: Option<u8>,
    #[serde(serialize_with = "as_bytes")]
    bytes: Vec<u8>,
    counts: BTreeMap<String, u64>,
    by_number: BTreeMap<i32, &'static str>,
    #[serde(flatten)]
    extra: BTreeMap<&'static str, Value>,
}

fn as_bytes<S: serde::Serializer>(value: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_bytes(value)
}

#[test]
fn every_serde_form_agrees() {
    let controls: String = (0u8..0x20).map(char::from).collect();
    let shapes = Shapes {
        text: "quote \" backslash \\ slash / é 😀 \u{2028} \u{7f}",
        control: controls + "\u{8}\u{c}\n\r\t end",
        numbers: (
            i8::MIN,
            i64::MIN,
            u64::MAX,
            u128::from(u64::MAX),
            i128::from(i64::MIN),
        ),
        floats: vec![
            0.0,
            -0.0,
            1.0,
            0.1,
            -2.5e-300,
            1e21,
            1.5e300,
            f64::MAX,
            f64::NAN,
            f64::INFINITY,
        ],
        variants: vec![
            Variant::Unit,
            Variant::Newtype(7),
            Variant::Tuple(-3, "x".into()),
            Variant::Struct {
                a: Some(false),
                b: (),
            },
            Variant::Struct { a: None, b: () },
        ],
        unit: Unit,
        pair: Pair(65_535, '"'),
        skipped: None,
        absent: None,
        bytes: vec![0, 1, 255],
        counts: [("a\"b".to_string(), 1), (String::new(), 0)].into(),
        by_number: [(-1, "minus"), (10, "ten")].into(),
        extra: [("flat", json!({ "deep": [1, 2.5, null, "s"] }))].into(),
    };
    let text = agrees(&shapes);
    assert!(
        text.contains(r#""byNumber":{"-1":"minus","10":"ten"}"#),
        "{text}"
    );
    assert!(!text.contains("skipped"), "{text}");
    // Beyond 64 bits serde_json has no value, but writes the digits.
    let wide = (u128::MAX, i128::MIN);
    assert_eq!(
        json::to_string(&wide).unwrap(),
        serde_json::to_string(&wide).unwrap()
    );
    // A byte to escape (or not) at every place of a run of plain bytes.
    for special in [
        '"', '\\', '\n', '\u{1f}', '\0', '\u{7f}', 'é', '!', ' ', '#', '[', ']',
    ] {
        for at in 0..24 {
            let mut text: Vec<char> = "0123456789abcdef~}|{ZYXW".chars().collect();
            text[at] = special;
            let text: String = text.into_iter().collect();
            assert_eq!(
                json::to_string(&text).unwrap(),
                serde_json::to_string(&text).unwrap()
            );
        }
    }
    agrees(&Vec::<u8>::new());
    agrees(&BTreeMap::<String, u8>::new());
    agrees("");
    // A key JSON cannot hold is refused, as serde_json refuses it.
    let unit_keys: BTreeMap<Option<u8>, u8> = [(None, 1)].into();
    assert!(json::to_string(&unit_keys).is_err());
    assert!(serde_json::to_string(&unit_keys).is_err());
}
