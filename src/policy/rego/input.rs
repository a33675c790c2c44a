//! The input document, version 1 (its shape is documented in `src/policy/rego.rs`).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Map, Value};

use crate::token::ResultFormat;

/// The version of the input shape, `data.edgeattest.version`.
pub(super) const INPUT_VERSION: u32 = 1;

const DEVICE_TYPE: &str = "x-nvidia-device-type";

/// `input`: each device's claims, plus its device type when the claims lack one.
pub(super) fn devices(device_claims: &[(&str, &Map<String, Value>)]) -> Value {
    Value::Array(
        device_claims
            .iter()
            .map(|(label, claims)| {
                let mut claims = (*claims).clone();
                if !claims.contains_key(DEVICE_TYPE) {
                    let kind = if label.starts_with("SWITCH-") {
                        "nvswitch"
                    } else {
                        "gpu"
                    };
                    claims.insert(DEVICE_TYPE.into(), kind.into());
                }
                Value::Object(claims)
            })
            .collect(),
    )
}

/// `data`: `{"edgeattest": {version, format, overall, labels}}`.
pub(super) fn context(
    format: ResultFormat,
    overall: &Map<String, Value>,
    device_claims: &[(&str, &Map<String, Value>)],
) -> Value {
    let labels: Vec<&str> = device_claims.iter().map(|(label, _)| *label).collect();
    json!({
        "edgeattest": {
            "version": INPUT_VERSION,
            "format": match format {
                ResultFormat::V1 => "v1",
                ResultFormat::Detached => "detached",
            },
            "overall": overall,
            "labels": labels,
        }
    })
}
