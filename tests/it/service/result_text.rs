//! The detached EAT text the service answers with: written from the tokens in place (not
//! through a JSON value), it is the text the JSON object rule gives — members in device
//! order, one per label — and reads back to itself.

use edgeattest::crypto::SigningKey;
use edgeattest::token::{create_detached_eat, sign_jwt, AttestationResult, ResultFormat};
use serde_json::{json, Map, Value};

fn key() -> SigningKey {
    SigningKey::generate(&[0x51; 48]).unwrap()
}

/// `labels`' device tokens (one per label, distinct claims) and the result minted over them.
fn minted(labels: &[&str]) -> (Vec<(String, String)>, String) {
    let key = key();
    let devices: Vec<(String, String)> = labels
        .iter()
        .enumerate()
        .map(|(i, label)| {
            let token = sign_jwt(&json!({ "device": i, "label": label }), &key, "kid-1").unwrap();
            ((*label).to_string(), token)
        })
        .collect();
    let mut overall = Map::new();
    overall.insert("sub".into(), Value::from("NVIDIA-PLATFORM-ATTESTATION"));
    let text = create_detached_eat(&overall, &devices, &key, "kid-1").unwrap();
    (devices, text)
}

#[test]
fn the_result_text_is_the_json_object_rule_s_text_in_device_order() {
    // Out of label order on purpose: the device order is kept.
    let (devices, text) = minted(&["GPU-2", "GPU-0", "GPU-10", "GPU-1"]);
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
    let labels: Vec<&str> = value[1]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(labels, ["GPU-2", "GPU-0", "GPU-10", "GPU-1"]);
    for (label, token) in &devices {
        assert_eq!(value[1][label], Value::from(token.as_str()));
    }
    assert_eq!(value[0][0], "JWT");
    let parsed = AttestationResult::parse(text.as_bytes()).unwrap();
    assert_eq!(parsed.format(), ResultFormat::Detached);
    assert_eq!(parsed.devices(), devices.as_slice());
    assert_eq!(parsed.to_json(), text);
}

#[test]
fn a_repeated_label_is_refused_before_any_text() {
    let key = key();
    let token = sign_jwt(&json!({ "device": 0 }), &key, "kid-1").unwrap();
    let devices = vec![
        ("GPU-0".to_string(), token.clone()),
        ("GPU-0".to_string(), token),
    ];
    let error = create_detached_eat(&Map::new(), &devices, &key, "kid-1").unwrap_err();
    assert_eq!(
        edgeattest::ErrorCode::code(&error),
        "ERR_EAT_RESULT_INVALID"
    );
}
