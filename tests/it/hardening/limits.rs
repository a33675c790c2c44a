//! Resource limits (issue 11): one test per documented cap on a size or a count, each showing
//! (requests, JSON, chains, evidence, tokens, RIMs here; access and the service in
//! `tests/it/hardening/limits_access.rs`)
//! that the cap is enforced *before* the work it protects. Every test builds an input that
//! would fail a later check if the work were done (invalid base64, malformed JSON, invalid
//! DER, missing fields) and asserts that the cap's own error is the one reported; where the
//! cap sits right at its value, the value itself is shown to pass that check.
#![cfg(not(target_arch = "wasm32"))]

use base64::Engine;
use edgeattest::attest::{
    validate_request, Endpoint, FirmwareVersion, RequestError, MAX_BODY_BYTES,
    MAX_CERTIFICATE_BYTES, MAX_EVIDENCE_BYTES, MAX_EVIDENCE_ITEMS,
};
use edgeattest::chain::{
    parse_pem_chain, verify_chain, ChainError, ChainOptions, TrustStore, MAX_CHAIN_CERTIFICATES,
};
use edgeattest::evidence::{ParseError, Transcript};
use edgeattest::json::{self, JsonError, MAX_DEPTH};
use edgeattest::rim::{
    verify_rim, RimError, RimTrust, MAX_ALTERNATIVES, MAX_MEASUREMENT_SIZE, MAX_RIM_BYTES,
    MAX_XML_DEPTH,
};
use edgeattest::token::Signers;
use edgeattest::token::{
    verify_jwt, AttestationResult, Jwks, TokenError, VerifyOptions, MAX_DEVICES, MAX_HEADER_BYTES,
    MAX_JWKS_KEYS, MAX_LABEL_LEN, MAX_RESULT_BYTES, MAX_TOKEN_BYTES,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;

const NONCE: &str = "931d8dd0add203ac3d8b4fbde75e115278eefcdceac5b87671a748f32364dfcb";
const NOW: UnixTime = UnixTime::from_secs(1_782_734_400).unwrap();

fn fixture(path: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn b64(data: impl AsRef<[u8]>) -> String {
    base64::engine::general_purpose::STANDARD.encode(data)
}

fn v3_body(evidence_b64: &str, certificate_b64: &str) -> String {
    serde_json::json!({
        "nonce": NONCE,
        "arch": "HOPPER",
        "evidence_list": [{ "evidence": evidence_b64, "certificate": certificate_b64 }],
    })
    .to_string()
}

fn device_store() -> TrustStore {
    TrustStore::nvidia_device_identity().unwrap()
}

fn chain_pem() -> String {
    fixture("nvidia/evidence/hopper/nvtrust_hopper_550.90.07_certchain.pem")
}

// ---- request bodies (attest::validate_request) -------------------------------------------

#[test]
fn body_bytes_cap_comes_before_json_parsing() {
    // Not JSON at all: a parser would say ERR_REQUEST_JSON (syntax); the cap answers first.
    let body = vec![b'x'; MAX_BODY_BYTES + 1];
    let error = validate_request(Endpoint::GpuV3, &body).unwrap_err();
    assert_eq!(error.code(), "ERR_REQUEST_TOO_LARGE");
    assert!(matches!(error, RequestError::BodyTooLarge { limit, size }
        if limit == MAX_BODY_BYTES && size == MAX_BODY_BYTES + 1));
    // At the cap itself the body is parsed (and found not to be JSON).
    let body = vec![b'x'; MAX_BODY_BYTES];
    assert_ne!(
        validate_request(Endpoint::GpuV3, &body).unwrap_err().code(),
        "ERR_REQUEST_TOO_LARGE"
    );
}

#[test]
fn evidence_item_count_cap_comes_before_any_item_is_read() {
    // Every item is empty: reading item 0 would report its missing `evidence`.
    let items = vec![serde_json::json!({}); MAX_EVIDENCE_ITEMS + 1];
    let body = serde_json::json!({ "nonce": NONCE, "arch": "HOPPER", "evidence_list": items });
    let error = validate_request(Endpoint::GpuV3, body.to_string().as_bytes()).unwrap_err();
    assert_eq!(error.code(), "ERR_REQUEST_TOO_MANY_EVIDENCE_ITEMS");
    assert_eq!(error.field(), Some("evidence_list"));
    // At the cap, items are read: the first one's missing member is reported.
    let items = vec![serde_json::json!({}); MAX_EVIDENCE_ITEMS];
    let body = serde_json::json!({ "nonce": NONCE, "arch": "HOPPER", "evidence_list": items });
    let error = validate_request(Endpoint::GpuV3, body.to_string().as_bytes()).unwrap_err();
    assert_eq!(error.code(), "ERR_REQUEST_MISSING_FIELD");
    assert_eq!(error.field(), Some("evidence_list[0].evidence"));
}

#[test]
fn evidence_bytes_cap_comes_before_base64_decoding() {
    // Not base64 ('!' is outside the alphabet) and longer than the cap's encoded length:
    // refused from its length, without decoding.
    let encoded = "!".repeat(MAX_EVIDENCE_BYTES.div_ceil(3) * 4 + 4);
    let body = v3_body(&encoded, &b64(chain_pem()));
    let error = validate_request(Endpoint::GpuV3, body.as_bytes()).unwrap_err();
    assert_eq!(error.code(), "ERR_REQUEST_ITEM_TOO_LARGE");
    assert_eq!(error.field(), Some("evidence_list[0].evidence"));
    // One byte over the cap, validly encoded: also refused.
    let body = v3_body(&b64(vec![0u8; MAX_EVIDENCE_BYTES + 1]), &b64(chain_pem()));
    let error = validate_request(Endpoint::GpuV3, body.as_bytes()).unwrap_err();
    assert_eq!(error.code(), "ERR_REQUEST_ITEM_TOO_LARGE");
    // Exactly the cap passes the size check (the bytes are not a transcript, which is
    // checked later, by the evidence parser).
    let body = v3_body(&b64(vec![0u8; MAX_EVIDENCE_BYTES]), &b64(chain_pem()));
    let request = validate_request(Endpoint::GpuV3, body.as_bytes()).unwrap();
    assert_eq!(request.devices()[0].evidence().len(), MAX_EVIDENCE_BYTES);
}

#[test]
fn generation1_evidence_cap_counts_decoded_bytes() {
    // Generation 1 carries hex text: the cap is on the transcript bytes. Hex text longer
    // than the cap allows is refused from its base64 length, before base64 or hex decoding
    // ("zz" is not hex).
    let gen1 = |hex_text: &str| {
        let body = serde_json::json!({
            "nonce": NONCE, "arch": "HOPPER",
            "evidences": [{ "evidence": b64(hex_text), "certificate": b64(chain_pem()) }],
        });
        validate_request(Endpoint::GpuV2, body.to_string().as_bytes())
    };
    let error = gen1(&"zz".repeat(MAX_EVIDENCE_BYTES + 4)).unwrap_err();
    assert_eq!(error.code(), "ERR_REQUEST_ITEM_TOO_LARGE");
    // Valid hex of one byte over the cap: refused too.
    let error = gen1(&"00".repeat(MAX_EVIDENCE_BYTES + 1)).unwrap_err();
    assert_eq!(error.code(), "ERR_REQUEST_ITEM_TOO_LARGE");
    let request = gen1(&"00".repeat(MAX_EVIDENCE_BYTES)).unwrap();
    assert_eq!(request.devices()[0].evidence().len(), MAX_EVIDENCE_BYTES);
}

#[test]
fn certificate_text_cap_comes_before_base64_decoding() {
    let encoded = "!".repeat(MAX_CERTIFICATE_BYTES.div_ceil(3) * 4 + 4);
    let body = v3_body(&b64([0x11u8, 0xe0]), &encoded);
    let error = validate_request(Endpoint::GpuV3, body.as_bytes()).unwrap_err();
    assert_eq!(error.code(), "ERR_REQUEST_ITEM_TOO_LARGE");
    assert_eq!(error.field(), Some("evidence_list[0].certificate"));
}

#[test]
fn firmware_version_cap() {
    let ok = "96.00.74.00.1c";
    assert!(FirmwareVersion::parse(ok).is_some());
    // 65 characters of otherwise valid groups.
    let long = ["aaaaaaa"; 8].join(".") + ".aaaaaaaaa";
    assert!(long.len() > FirmwareVersion::MAX_LEN);
    assert!(FirmwareVersion::parse(&long).is_none());
    // 17 groups within the length cap.
    assert!(FirmwareVersion::parse(&["1"; 17].join(".")).is_none());
    assert!(FirmwareVersion::parse(&["1"; 16].join(".")).is_some());
    // In a request.
    let body = serde_json::json!({
        "nonce": NONCE, "arch": "HOPPER",
        "evidence_list": [{ "evidence": b64([1u8]), "certificate": b64(chain_pem()), "firmware_version": long }],
    });
    let error = validate_request(Endpoint::GpuV4, body.to_string().as_bytes()).unwrap_err();
    assert_eq!(error.code(), "ERR_REQUEST_INVALID_FIRMWARE_VERSION");
}

// ---- JSON -----------------------------------------------------------------------------------

#[test]
fn json_depth_cap_stops_the_parser_at_the_limit() {
    // The text after the brackets is not JSON: the depth error comes first, while parsing.
    let deep = "[".repeat(MAX_DEPTH + 1) + "garbage";
    assert_eq!(json::parse(deep.as_bytes()), Err(JsonError::TooDeep));
    let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
    assert!(json::parse(ok.as_bytes()).is_ok());
    // A hostile depth far beyond the cap costs no recursion (no stack overflow).
    let hostile = "[".repeat(1_000_000);
    assert_eq!(json::parse(hostile.as_bytes()), Err(JsonError::TooDeep));
    // In a request body it has its own code.
    let body = format!("{{\"nonce\":{}}}", "[".repeat(MAX_DEPTH + 1));
    let error = validate_request(Endpoint::GpuV3, body.as_bytes()).unwrap_err();
    assert_eq!(error.code(), "ERR_REQUEST_TOO_DEEP");
}

// ---- certificate chains ---------------------------------------------------------------------

#[test]
fn pem_chain_certificate_cap_comes_before_decoding_the_extra_block() {
    let one = chain_pem();
    let first = &one[..one.find("-----END CERTIFICATE-----").unwrap() + 25];
    let mut text = format!("{first}\n").repeat(MAX_CHAIN_CERTIFICATES);
    assert_eq!(
        parse_pem_chain(&text).unwrap().len(),
        MAX_CHAIN_CERTIFICATES
    );
    // A 17th block that is not valid PEM: the count answers before it is decoded.
    text.push_str("-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n");
    assert_eq!(
        parse_pem_chain(&text),
        Err(ChainError::TooManyCertificates {
            count: MAX_CHAIN_CERTIFICATES + 1
        })
    );
}

#[test]
fn der_chain_certificate_cap_comes_before_any_certificate_is_parsed() {
    // Not DER: parsing certificate 0 would fail; the count answers first.
    let garbage = vec![vec![0xFFu8; 8]; MAX_CHAIN_CERTIFICATES + 1];
    let error = verify_chain(&garbage, &device_store(), NOW, &ChainOptions::default()).unwrap_err();
    assert_eq!(error.code(), "ERR_CHAIN_TOO_MANY_CERTIFICATES");
    // At the cap, certificates are parsed.
    let garbage = vec![vec![0xFFu8; 8]; MAX_CHAIN_CERTIFICATES];
    let error = verify_chain(&garbage, &device_store(), NOW, &ChainOptions::default()).unwrap_err();
    assert_ne!(error.code(), "ERR_CHAIN_TOO_MANY_CERTIFICATES");
}

// ---- evidence -------------------------------------------------------------------------------

#[test]
fn measurement_block_count_is_bounded_by_the_format_and_checked() {
    // NumberOfBlocks is one byte (at most 255 blocks) and the record length three bytes, but
    // the record must lie inside the transcript, which a request caps at MAX_EVIDENCE_BYTES:
    // a transcript declaring a 16 MiB record is refused as truncated, without allocation.
    let mut t = vec![0x11, 0xE0, 0x01, 0xFF];
    t.extend_from_slice(&[0u8; 32]);
    t.push(0); // slot
    t.extend_from_slice(&[0x11, 0x60, 0, 0, 0xFF]); // 255 blocks declared
    t.extend_from_slice(&[0xFF, 0xFF, 0xFF]); // record length 16 MiB - 1
    t.extend_from_slice(&[0u8; 16]);
    let error = Transcript::parse(&t).unwrap_err();
    assert_eq!(error.code(), "ERR_EVIDENCE_TRUNCATED");
    // A record whose blocks do not match the declared count is refused.
    let mut t = t[..41].to_vec();
    t.truncate(41);
    t.push(2); // declares 2 blocks
    let block = [1u8, 0x01, 5, 0, 0x01, 2, 0, 0xAA, 0xBB]; // index 1, 5-byte measurement
    t.extend_from_slice(&[block.len() as u8, 0, 0]);
    t.extend_from_slice(&block);
    t.extend_from_slice(&[0u8; 32]); // responder nonce
    t.extend_from_slice(&[0, 0]); // no opaque data
    t.extend_from_slice(&[0u8; 96]);
    let error = Transcript::parse(&t).unwrap_err();
    assert!(
        matches!(
            error,
            ParseError::BlockCount {
                declared: 2,
                found: 1
            }
        ),
        "{error:?}"
    );
}

// ---- tokens -----------------------------------------------------------------------------------

fn empty_jwks() -> Jwks {
    Jwks::new(Vec::new()).unwrap()
}

#[test]
fn token_bytes_cap_comes_before_splitting() {
    // No dots: splitting would report a malformed token.
    let token = "a".repeat(MAX_TOKEN_BYTES + 1);
    let error = verify_jwt(
        &token,
        &empty_jwks(),
        &VerifyOptions::new().signers(Signers::Any),
        NOW,
    )
    .unwrap_err();
    assert_eq!(error.code(), "ERR_JWS_TOO_LARGE");
    assert!(matches!(error, TokenError::TooLarge { what: "token", .. }));
    let token = "a".repeat(MAX_TOKEN_BYTES);
    let error = verify_jwt(
        &token,
        &empty_jwks(),
        &VerifyOptions::new().signers(Signers::Any),
        NOW,
    )
    .unwrap_err();
    assert_eq!(error.code(), "ERR_JWS_INVALID");
}

#[test]
fn header_bytes_cap_comes_before_base64_decoding() {
    // '!' is not base64url: decoding would report ERR_JWS_INVALID_BASE64.
    let token = format!("{}.e30.AA", "!".repeat(MAX_HEADER_BYTES + 1));
    let error = verify_jwt(
        &token,
        &empty_jwks(),
        &VerifyOptions::new().signers(Signers::Any),
        NOW,
    )
    .unwrap_err();
    assert!(
        matches!(error, TokenError::TooLarge { what: "header", .. }),
        "{error:?}"
    );
    let token = format!("{}.e30.AA", "!".repeat(MAX_HEADER_BYTES));
    let error = verify_jwt(
        &token,
        &empty_jwks(),
        &VerifyOptions::new().signers(Signers::Any),
        NOW,
    )
    .unwrap_err();
    assert_eq!(error.code(), "ERR_JWS_INVALID_BASE64");
}

#[test]
fn result_bytes_cap_comes_before_json_parsing() {
    let text = vec![b'x'; MAX_RESULT_BYTES + 1];
    let error = AttestationResult::parse(&text).unwrap_err();
    assert!(
        matches!(error, TokenError::TooLarge { what: "result", .. }),
        "{error:?}"
    );
    let text = vec![b'x'; MAX_RESULT_BYTES];
    assert_ne!(
        AttestationResult::parse(&text).unwrap_err().code(),
        "ERR_JWS_TOO_LARGE"
    );
}

fn result_with_devices(count: usize, label_len: usize) -> String {
    let devices: serde_json::Map<String, serde_json::Value> = (0..count)
        .map(|i| {
            let label = format!("GPU-{i:0>width$}", width = label_len.saturating_sub(4));
            // Numbers, not tokens: reading any device would fail.
            (label, serde_json::json!(i))
        })
        .collect();
    serde_json::json!([["JWT", "a.b.c"], devices]).to_string()
}

#[test]
fn device_count_cap_comes_before_any_device_is_read() {
    let error =
        AttestationResult::parse(result_with_devices(MAX_DEVICES + 1, 6).as_bytes()).unwrap_err();
    assert_eq!(error.code(), "ERR_EAT_TOO_MANY_DEVICES");
    let error =
        AttestationResult::parse(result_with_devices(MAX_DEVICES, 6).as_bytes()).unwrap_err();
    assert_eq!(error.code(), "ERR_EAT_RESULT_INVALID");
}

#[test]
fn device_label_cap() {
    let ok = serde_json::json!([["JWT", "a.b.c"], { "x".repeat(MAX_LABEL_LEN): "a.b.c" }]);
    assert!(AttestationResult::parse(ok.to_string().as_bytes()).is_ok());
    let long = serde_json::json!([["JWT", "a.b.c"], { "x".repeat(MAX_LABEL_LEN + 1): "a.b.c" }]);
    let error = AttestationResult::parse(long.to_string().as_bytes()).unwrap_err();
    assert_eq!(error.code(), "ERR_EAT_RESULT_INVALID");
}

#[test]
fn jwks_key_count_cap_comes_before_any_key_is_read() {
    // Entries that are not keys: reading keys[0] would name it.
    let keys = vec![serde_json::json!(0); MAX_JWKS_KEYS + 1];
    let text = serde_json::json!({ "keys": keys }).to_string();
    let error = Jwks::parse(text.as_bytes()).unwrap_err();
    assert_eq!(
        error,
        TokenError::JwksInvalid {
            field: "keys".into()
        }
    );
    let keys = vec![serde_json::json!(0); MAX_JWKS_KEYS];
    let text = serde_json::json!({ "keys": keys }).to_string();
    let error = Jwks::parse(text.as_bytes()).unwrap_err();
    assert_ne!(
        error,
        TokenError::JwksInvalid {
            field: "keys".into()
        }
    );
}

// ---- RIM XML ----------------------------------------------------------------------------------

fn rim_fixture() -> String {
    fixture("nvidia/rims/nvat/NV_GPU_DRIVER_GH100_550.144.03.xml")
}

#[test]
fn rim_bytes_cap_comes_before_utf8_and_xml() {
    // Not UTF-8: decoding would report ERR_RIM_MALFORMED_XML.
    let xml = vec![0xFFu8; MAX_RIM_BYTES + 1];
    let error = verify_rim(&xml, &RimTrust::nvidia(), NOW).unwrap_err();
    assert_eq!(error.code(), "ERR_RIM_TOO_LARGE");
    let xml = vec![0xFFu8; MAX_RIM_BYTES];
    let error = verify_rim(&xml, &RimTrust::nvidia(), NOW).unwrap_err();
    assert_eq!(error.code(), "ERR_RIM_MALFORMED_XML");
}

#[test]
fn rim_depth_cap_comes_before_reading_the_document() {
    // Not a SWID tag and not signed: reading it would report the schema.
    let deep = |n: usize| "<a>".repeat(n) + &"</a>".repeat(n);
    let error =
        verify_rim(deep(MAX_XML_DEPTH + 2).as_bytes(), &RimTrust::nvidia(), NOW).unwrap_err();
    assert_eq!(error, RimError::TooDeep);
    let error = verify_rim(deep(MAX_XML_DEPTH).as_bytes(), &RimTrust::nvidia(), NOW).unwrap_err();
    assert_ne!(error, RimError::TooDeep);
    // Hostile nesting far beyond the cap, within the size cap: no stack overflow.
    let error = verify_rim(deep(100_000).as_bytes(), &RimTrust::nvidia(), NOW).unwrap_err();
    assert!(
        matches!(error, RimError::TooDeep | RimError::Xml { .. }),
        "{error:?}"
    );
}

#[test]
fn rim_node_count_cap_stops_the_xml_parser() {
    // 150 000 elements in well under MAX_RIM_BYTES: the XML parser stops at its node limit.
    let xml = format!("<a>{}</a>", "<b/>".repeat(150_000));
    assert!(xml.len() < MAX_RIM_BYTES);
    let error = verify_rim(xml.as_bytes(), &RimTrust::nvidia(), NOW).unwrap_err();
    assert_eq!(error.code(), "ERR_RIM_MALFORMED_XML", "{error:?}");
    // Below the node limit the document is read (and is not a RIM).
    let xml = format!("<a>{}</a>", "<b/>".repeat(1_000));
    let error = verify_rim(xml.as_bytes(), &RimTrust::nvidia(), NOW).unwrap_err();
    assert_ne!(error.code(), "ERR_RIM_MALFORMED_XML", "{error:?}");
}

#[test]
fn rim_alternatives_cap_comes_before_reading_the_hashes() {
    // 65 alternatives with one hash: reading them would report the missing Hash1.
    let xml = rim_fixture().replacen(
        r#"index="0" active="False" alternatives="1""#,
        &format!(
            r#"index="0" active="False" alternatives="{}""#,
            MAX_ALTERNATIVES + 1
        ),
        1,
    );
    let error = verify_rim(xml.as_bytes(), &RimTrust::nvidia(), NOW).unwrap_err();
    assert_eq!(error.code(), "ERR_RIM_SCHEMA");
    assert_eq!(error.field(), Some("Resource[0]@alternatives"), "{error:?}");
    let xml = rim_fixture().replacen(
        r#"index="0" active="False" alternatives="1""#,
        r#"index="0" active="False" alternatives="2""#,
        1,
    );
    let error = verify_rim(xml.as_bytes(), &RimTrust::nvidia(), NOW).unwrap_err();
    assert_eq!(error.field(), Some("Resource[0]@Hash1"), "{error:?}");
}

#[test]
fn rim_measurement_size_cap() {
    let xml = rim_fixture().replacen(
        r#"name="Measurement_0" size="48""#,
        &format!(
            r#"name="Measurement_0" size="{}""#,
            MAX_MEASUREMENT_SIZE + 1
        ),
        1,
    );
    let error = verify_rim(xml.as_bytes(), &RimTrust::nvidia(), NOW).unwrap_err();
    assert_eq!(error.code(), "ERR_RIM_SCHEMA");
    assert_eq!(error.field(), Some("Resource[0]@size"), "{error:?}");
}

#[test]
fn jwks_bytes_cap_comes_before_json_parsing() {
    use edgeattest::token::MAX_JWKS_BYTES;
    // Not JSON: parsing would report ERR_JSON_SYNTAX.
    let text = vec![b'x'; MAX_JWKS_BYTES + 1];
    let error = Jwks::parse(&text).unwrap_err();
    assert!(
        matches!(error, TokenError::TooLarge { what: "jwks", .. }),
        "{error:?}"
    );
    assert_eq!(error.code(), "ERR_JWS_TOO_LARGE");
    let text = vec![b'x'; MAX_JWKS_BYTES];
    assert_ne!(Jwks::parse(&text).unwrap_err().code(), "ERR_JWS_TOO_LARGE");
    // The real service's JWKS is far below the cap.
    let real = fixture("nvidia/nras/teep/v3_1gpu_success_20260629_jwks.json");
    assert!(real.len() * 8 < MAX_JWKS_BYTES);
    assert!(Jwks::parse(real.as_bytes()).is_ok());
}
