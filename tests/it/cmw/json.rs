//! JSON CMWs: the draft's and Veraison's examples read as the draft defines them, NVIDIA's
//! real verifier input read into its device, and every malformed shape refused with its code.
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::cmw::{
    Cmw, CmwEvidence, CmwForm, CmwLimits, Collection, Label, MediaType, Record,
    NVIDIA_COLLECTION_TYPE,
};
use edgeattest::ErrorCode;
use serde_json::{json, Value};

use super::support::{fsp_cmw, fsp_cmw_text, fsp_pem, fsp_transcript};

fn decode(text: &str) -> Result<Cmw, String> {
    Cmw::decode(text.as_bytes(), CmwLimits::DEFAULT)
        .map(|(cmw, form)| {
            assert_eq!(form, CmwForm::Json);
            cmw
        })
        .map_err(|e| e.code().to_string())
}

fn nvidia(value: &Value) -> Result<CmwEvidence, (String, Option<String>)> {
    CmwEvidence::decode(value.to_string().as_bytes(), CmwLimits::DEFAULT)
        .map_err(|e| (e.code().to_string(), e.field().map(String::from)))
}

fn record(media_type: &str, value: &[u8], ind: Option<u64>) -> Cmw {
    Cmw::Record(Record {
        media_type: MediaType::Text(media_type.into()),
        value: value.to_vec(),
        ind,
    })
}

#[test]
fn the_drafts_json_examples_read_as_written() {
    // draft-ietf-rats-msg-wrap-23 cddl/cmw-example-1.json and -2.json.
    assert_eq!(
        decode(r#"["application/vnd.example.rats-conceptual-msg", "I0faVQ"]"#),
        Ok(record(
            "application/vnd.example.rats-conceptual-msg",
            &[0x23, 0x47, 0xda, 0x55],
            None
        ))
    );
    let example2 =
        r#"["application/eat+cwt; eat_profile=\"tag:psacertified.org,2023:psa#tfm\"", "I0faVQ"]"#;
    let Ok(Cmw::Record(two)) = decode(example2) else {
        panic!("example 2")
    };
    assert!(two.media_type.is("application/eat+cwt"));
    // cddl/collection-example-2.json: a typed collection of two records with ind 4.
    let collection = decode(
        r#"{"__cmwc_t": "tag:example.com,2024:another-composite-attester",
            "attester A": ["application/eat-ucs+json", "e30K", 4],
            "attester B": ["application/eat-ucs+cbor", "oA", 4]}"#,
    );
    assert_eq!(
        collection,
        Ok(Cmw::Collection(Collection {
            collection_type: Some("tag:example.com,2024:another-composite-attester".into()),
            entries: vec![
                (
                    Label::Text("attester A".into()),
                    record("application/eat-ucs+json", b"{}\n", Some(4))
                ),
                (
                    Label::Text("attester B".into()),
                    record("application/eat-ucs+cbor", &[0xa0], Some(4))
                ),
            ],
        }))
    );
    // Veraison cmw testdata/collection-ok.json: an untyped collection.
    let Ok(Cmw::Collection(ok)) =
        decode(r#"{"a": ["application/vnd.a", "YQ"], "b": ["application/vnd.b", "Yg"]}"#)
    else {
        panic!("collection-ok")
    };
    assert_eq!(ok.collection_type, None);
    assert_eq!(ok.entries.len(), 2);
}

#[test]
fn nvidias_verifier_input_reads_into_its_device() {
    let evidence = CmwEvidence::decode(fsp_cmw_text().as_bytes(), CmwLimits::DEFAULT).unwrap();
    assert_eq!(evidence.form, CmwForm::Json);
    assert_eq!(evidence.nonce, None);
    assert_eq!(evidence.devices.len(), 1);
    let device = &evidence.devices[0];
    assert_eq!(device.label, "gpu_0");
    assert_eq!(device.evidence, fsp_transcript());
    assert_eq!(device.certificate_pem.as_deref(), Some(fsp_pem().as_str()));
    assert_eq!(device.firmware_version.as_deref(), Some("01.00.00.00.01"));
}

#[test]
fn malformed_records_are_refused_with_their_codes() {
    let cases = [
        // Padding, the standard alphabet, and a non-canonical last character.
        (r#"["application/vnd.a", "3q2-7w=="]"#, "ERR_CMW_BASE64"),
        (r#"["application/vnd.a", "3q2+7w"]"#, "ERR_CMW_BASE64"),
        (r#"["application/vnd.a", "YR"]"#, "ERR_CMW_BASE64"),
        (r#"["application/vnd.a", 1.2]"#, "ERR_CMW_SHAPE"),
        // JSON records carry media types, never CoAP Content-Formats.
        (r#"[30001, "3q2-7w"]"#, "ERR_CMW_MEDIA_TYPE"),
        (r#"[{"type": 1}, "3q2-7w"]"#, "ERR_CMW_MEDIA_TYPE"),
        (r#"["application", "3q2-7w"]"#, "ERR_CMW_MEDIA_TYPE"),
        (r#"[]"#, "ERR_CMW_SHAPE"),
        (r#"["application/vnd.a"]"#, "ERR_CMW_SHAPE"),
        (
            r#"["application/vnd.a", "3q2-7w", 1, "EXTRA"]"#,
            "ERR_CMW_SHAPE",
        ),
        (
            r#"["application/vnd.a", "3q2-7w", "Evidence"]"#,
            "ERR_CMW_SHAPE",
        ),
        (r#"["application/vnd.a", "3q2-7w", 0]"#, "ERR_CMW_INDICATOR"),
        (
            r#"["application/vnd.a", "3q2-7w", 32]"#,
            "ERR_CMW_INDICATOR",
        ),
        // Trailing bytes after the one item, and text that is no JSON.
        (r#"["application/vnd.a", "3q2-7w"] x"#, "ERR_CMW_SYNTAX"),
        (r#"["application/vnd.a", "3q2-7w""#, "ERR_CMW_SYNTAX"),
        ("hello", "ERR_CMW_SYNTAX"),
        ("", "ERR_CMW_SYNTAX"),
        ("\"x\"", "ERR_CMW_SYNTAX"),
        // Collections: empty, duplicate labels, a bad type, a non-CMW member.
        (r#"{}"#, "ERR_CMW_EMPTY_COLLECTION"),
        (
            r#"{"__cmwc_t": "tag:x.com,2024:y"}"#,
            "ERR_CMW_EMPTY_COLLECTION",
        ),
        (
            r#"{"a": ["application/vnd.a", "YQ"], "a": ["application/vnd.b", "Yg"]}"#,
            "ERR_CMW_DUPLICATE_LABEL",
        ),
        (
            r#"{"__cmwc_t": "not a uri", "a": ["application/vnd.a", "YQ"]}"#,
            "ERR_CMW_COLLECTION_TYPE",
        ),
        (
            r#"{"__cmwc_t": 7, "a": ["application/vnd.a", "YQ"]}"#,
            "ERR_CMW_COLLECTION_TYPE",
        ),
        (r#"{"a": "YQ"}"#, "ERR_CMW_SHAPE"),
    ];
    for (text, code) in cases {
        assert_eq!(decode(text).map(|_| ()), Err(code.to_string()), "{text}");
    }
}

#[test]
fn budgets_bound_size_depth_and_items() {
    // Four nested collections are accepted, a fifth is too deep.
    let mut nested = json!(["application/vnd.a", "YQ"]);
    for _ in 0..4 {
        nested = json!({ "n": nested });
    }
    assert!(decode(&nested.to_string()).is_ok());
    let too_deep = json!({ "n": nested });
    assert_eq!(
        decode(&too_deep.to_string()),
        Err("ERR_CMW_TOO_DEEP".into())
    );
    // Deeper than the JSON reader's own bound is refused as too deep too.
    let abyss = format!("{}{}", "{\"n\":".repeat(40), "}".repeat(40));
    assert_eq!(decode(&abyss), Err("ERR_CMW_TOO_DEEP".into()));

    let wide: serde_json::Map<String, Value> = (0..600)
        .map(|i| (format!("r{i}"), json!(["application/vnd.a", "YQ"])))
        .collect();
    assert_eq!(
        decode(&Value::Object(wide).to_string()),
        Err("ERR_CMW_TOO_MANY_ITEMS".into())
    );

    let limits = CmwLimits {
        max_bytes: 16,
        ..CmwLimits::DEFAULT
    };
    let error = Cmw::decode(br#"["application/vnd.a", "YQ"]"#, limits).unwrap_err();
    assert_eq!(error.code(), "ERR_CMW_TOO_LARGE");
}

/// An edit of NVIDIA's CMW that breaks its profile.
type Edit = Box<dyn Fn(&mut Value)>;

#[test]
fn nvidias_profile_is_enforced() {
    let cases: Vec<(&str, Edit, &str, &str)> = vec![
        (
            "a collection with a non-GPU item",
            Box::new(|c| c["cpu_0"] = json!(["application/vnd.example.tdx-quote", "YQ"])),
            "ERR_CMW_PROFILE",
            "cpu_0",
        ),
        (
            "an item whose evidence is another media type",
            Box::new(|c| c["gpu_0"]["evidence"][0] = json!("application/eat+cwt")),
            "ERR_CMW_PROFILE",
            "gpu_0.evidence",
        ),
        (
            "another collection type",
            Box::new(|c| c["__cmwc_t"] = json!("tag:example.com,2024:composite-attester")),
            "ERR_CMW_COLLECTION_TYPE",
            "$",
        ),
        (
            "no collection type",
            Box::new(|c| {
                c.as_object_mut().unwrap().shift_remove("__cmwc_t");
            }),
            "ERR_CMW_COLLECTION_TYPE",
            "$",
        ),
        (
            "an item of another type",
            Box::new(|c| c["gpu_0"]["__cmwc_t"] = json!("tag:nvidia.com,2026:evidence-item/v2")),
            "ERR_CMW_COLLECTION_TYPE",
            "gpu_0",
        ),
        (
            "a record with ind",
            Box::new(|c| {
                c["gpu_0"]["evidence"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!(4))
            }),
            "ERR_CMW_INDICATOR",
            "gpu_0.evidence",
        ),
        (
            "an item without evidence",
            Box::new(|c| {
                c["gpu_0"].as_object_mut().unwrap().shift_remove("evidence");
            }),
            "ERR_CMW_PROFILE",
            "gpu_0.evidence",
        ),
        (
            "an unknown item member",
            Box::new(|c| c["gpu_0"]["quote"] = json!(["application/octet-stream", "YQ"])),
            "ERR_CMW_PROFILE",
            "gpu_0.quote",
        ),
        (
            "a 31-byte nonce",
            Box::new(|c| c["nonce"] = json!(["application/octet-stream", b64u(&[7; 31])])),
            "ERR_CMW_NONCE",
            "nonce",
        ),
        (
            "an item nonce that is not the collection's",
            Box::new(|c| {
                c["nonce"] = json!(["application/octet-stream", b64u(&[7; 32])]);
                c["gpu_0"]["nonce"] = json!(["application/octet-stream", b64u(&[8; 32])]);
            }),
            "ERR_CMW_NONCE",
            "gpu_0.nonce",
        ),
        (
            "hints that are not an object",
            Box::new(|c| c["gpu_0"]["hints"] = json!(["application/json", b64u(b"[1]")])),
            "ERR_CMW_HINTS",
            "gpu_0.hints",
        ),
        (
            "a fwversion that is not a string",
            Box::new(|c| {
                c["gpu_0"]["hints"] = json!(["application/json", b64u(br#"{"fwversion":1}"#)])
            }),
            "ERR_CMW_HINTS",
            "gpu_0.hints",
        ),
        (
            "a certificate that is not text",
            Box::new(|c| c["gpu_0"]["certificate"][1] = json!(b64u(&[0xff, 0xfe]))),
            "ERR_CMW_PROFILE",
            "gpu_0.certificate",
        ),
        (
            "no item at all",
            Box::new(|c| {
                c.as_object_mut().unwrap().shift_remove("gpu_0");
                c["nonce"] = json!(["application/octet-stream", b64u(&[7; 32])]);
            }),
            "ERR_CMW_PROFILE",
            "$",
        ),
    ];
    for (name, edit, code, field) in cases {
        let mut cmw = fsp_cmw();
        edit(&mut cmw);
        assert_eq!(
            nvidia(&cmw).map(|_| ()),
            Err((code.to_string(), Some(field.to_string()))),
            "{name}"
        );
    }
}

#[test]
fn nonces_and_settings_of_the_profile_are_read() {
    let mut cmw = fsp_cmw();
    cmw["nonce"] = json!(["application/octet-stream", b64u(&[7; 32])]);
    cmw["gpu_0"]["nonce"] = json!(["application/octet-stream", b64u(&[7; 32])]);
    cmw["appraisal-settings"] = json!(["application/json", b64u(b"{}")]);
    let evidence = nvidia(&cmw).unwrap();
    assert_eq!(evidence.nonce, Some([7; 32]));
    assert_eq!(evidence.check_nonce(&[7; 32]), Ok(()));
    let mismatch = evidence.check_nonce(&[9; 32]).unwrap_err();
    assert_eq!(mismatch.code(), "ERR_CMW_NONCE_MISMATCH");
    assert_eq!(mismatch.field(), Some("nonce"));
    assert_eq!(NVIDIA_COLLECTION_TYPE, cmw["__cmwc_t"]);
}

#[test]
fn a_lone_transcript_record_is_one_device_without_chain() {
    let transcript = fsp_transcript();
    let text = json!([
        "application/vnd.nvidia.spdm-measurement-transcript",
        b64u(&transcript),
        4
    ]);
    let evidence = nvidia(&text).unwrap();
    assert_eq!(evidence.devices.len(), 1);
    assert_eq!(evidence.devices[0].evidence, transcript);
    assert_eq!(evidence.devices[0].certificate_pem, None);
    // An indicator without the evidence bit says this is not evidence.
    let reference_values = json!([
        "application/vnd.nvidia.spdm-measurement-transcript",
        b64u(&transcript),
        1
    ]);
    assert_eq!(
        nvidia(&reference_values).map(|_| ()),
        Err(("ERR_CMW_INDICATOR".into(), Some("$".into())))
    );
    let other = json!(["application/eat+cwt", b64u(&transcript)]);
    assert_eq!(
        nvidia(&other).map(|_| ()),
        Err(("ERR_CMW_PROFILE".into(), Some("$".into())))
    );
}

fn b64u(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}
