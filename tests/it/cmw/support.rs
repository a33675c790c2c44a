//! NVIDIA's real JSON CMW (the Blackwell FSP verifier input) and the transcript and chain
//! it wraps, as the CMW tests read them.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;

fn repo(path: &str) -> String {
    let full = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// The CMW file's text, as NVIDIA's SDK wrote it.
pub(crate) fn fsp_cmw_text() -> String {
    repo("nvidia/evidence/blackwell/nvat_blackwell_fsp_evidence.cmw.json")
}

/// The CMW as a JSON value, to edit.
pub(crate) fn fsp_cmw() -> Value {
    serde_json::from_str(&fsp_cmw_text()).unwrap()
}

/// The transcript inside it (the DERIVED fixture decodes it once more, independently).
pub(crate) fn fsp_transcript() -> Vec<u8> {
    hex::decode(repo("nvidia/evidence/blackwell/nvat_blackwell_fsp_DERIVED_report.hex").trim())
        .unwrap()
}

/// The PEM chain inside it.
pub(crate) fn fsp_pem() -> String {
    repo("nvidia/evidence/blackwell/nvat_blackwell_fsp_DERIVED_certchain.pem")
}

/// The transcript's nonce, hex (the SPDM request's bytes 4..36).
pub(crate) const FSP_NONCE: &str =
    "d42a0594c5cd5743ee08fe5ec3cf884b1fac4f106879cda98b7d1c51652b04b7";

/// A JSON CMW re-encoded as the CBOR CMW of the same content: objects become maps with
/// the same text labels (document order), records `[type, bytes, ? ind]` with the value
/// base64url-decoded. No CBOR CMW of NVIDIA's exists (its SDK writes JSON only).
pub(crate) fn to_cbor(value: &Value) -> edgeattest::cbor::Cbor {
    use base64::Engine;
    use edgeattest::cbor::Cbor;
    match value {
        Value::Object(members) => Cbor::Map(
            members
                .iter()
                .map(|(k, v)| {
                    let v = if k == "__cmwc_t" {
                        Cbor::text(v.as_str().unwrap())
                    } else {
                        to_cbor(v)
                    };
                    (Cbor::text(k), v)
                })
                .collect(),
        ),
        Value::Array(items) => {
            let mut record = vec![
                Cbor::text(items[0].as_str().unwrap()),
                Cbor::bytes(
                    &base64::engine::general_purpose::URL_SAFE_NO_PAD
                        .decode(items[1].as_str().unwrap())
                        .unwrap(),
                ),
            ];
            if let Some(ind) = items.get(2) {
                record.push(Cbor::Uint(ind.as_u64().unwrap()));
            }
            Cbor::Array(record)
        }
        other => panic!("not a JSON CMW: {other}"),
    }
}
