//! The leaf's keyUsage / extendedKeyUsage against its purpose (issue 15 point 8): generated
//! leaves that differ only in those extensions (tests/fixtures/generated/purpose_*.pem), and
//! every real NVIDIA device and RIM signing chain of the fixtures still passing.
#![cfg(not(target_arch = "wasm32"))]

use base64::Engine as _;
use edgeattest::chain::{
    parse_pem_chain, verify_chain, CertPosition, ChainError, ChainOptions, Purpose, TrustStore,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;

const NOW: UnixTime = UnixTime::from_secs(1_790_000_000).unwrap();

fn read(path: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn check(case: &str, purpose: Purpose) -> Result<(), ChainError> {
    let store = TrustStore::from_pem(&read("generated/purpose_root.pem")).unwrap();
    let chain = parse_pem_chain(&read(&format!("generated/purpose_{case}.pem"))).unwrap();
    let options = ChainOptions::default().with_purpose(purpose);
    verify_chain(&chain, &store, NOW, &options).map(|_| ())
}

const OK: Option<&str> = None;
const KU: Option<&str> = Some("ERR_CHAIN_KEY_USAGE");
const EKU: Option<&str> = Some("ERR_CHAIN_EXTENDED_KEY_USAGE");

/// Each generated leaf and the outcome for a device leaf, a RIM signer, an OCSP responder.
const CASES: [(&str, [Option<&str>; 3]); 10] = [
    ("ku_digital_signature", [OK, OK, EKU]),
    ("no_ku", [OK, OK, EKU]),
    ("ku_key_agreement", [KU, KU, KU]),
    ("eku_server_auth_critical", [EKU, EKU, EKU]),
    // Non-critical binds too (RFC 5280 §4.2.1.12: "MUST only be used for one of the
    // purposes indicated").
    ("eku_server_auth_noncritical", [EKU, EKU, EKU]),
    ("eku_spdm_responder", [OK, EKU, EKU]),
    ("eku_document_signing", [EKU, OK, EKU]),
    ("eku_any", [OK, OK, EKU]),
    ("eku_ocsp_signing", [EKU, EKU, OK]),
    ("eku_ocsp_signing_ku_key_agreement", [KU, KU, KU]),
];

#[test]
fn leaf_key_usage_and_extended_key_usage_per_purpose() {
    let purposes = [
        Purpose::DeviceLeaf,
        Purpose::RimSigner,
        Purpose::OcspResponder,
    ];
    for (case, expected) in CASES {
        for (purpose, expected) in purposes.into_iter().zip(expected) {
            let outcome = check(case, purpose);
            assert_eq!(
                outcome.as_ref().err().map(ErrorCode::code),
                expected,
                "{case} as {purpose}: {outcome:?}"
            );
            if let Err(error) = outcome {
                // Always the leaf, with the purpose it was checked for.
                let (ChainError::KeyUsage { at, purpose: p }
                | ChainError::ExtendedKeyUsage { at, purpose: p }) = error
                else {
                    panic!("{error:?}");
                };
                assert_eq!((at, p), (CertPosition::Chain(0), purpose));
            }
        }
    }
}

#[test]
fn the_default_purpose_is_a_device_leaf() {
    assert_eq!(ChainOptions::default().purpose, Some(Purpose::DeviceLeaf));
    let store = TrustStore::from_pem(&read("generated/purpose_root.pem")).unwrap();
    let chain = parse_pem_chain(&read("generated/purpose_ku_key_agreement.pem")).unwrap();
    let error = verify_chain(&chain, &store, NOW, &ChainOptions::default()).unwrap_err();
    assert_eq!(
        error,
        ChainError::KeyUsage {
            at: CertPosition::Chain(0),
            purpose: Purpose::DeviceLeaf
        }
    );
    assert_eq!(
        error.to_string(),
        "the keyUsage of certificate 0 of the chain does not allow digitalSignature (device leaf)"
    );
}

/// Every certificate chain in the fixtures: the PEM chains and the base64 PEM `certificate`
/// members of the serialized evidence.
fn device_chains() -> Vec<(String, String)> {
    let base = format!(
        "{}/tests/fixtures/nvidia/evidence",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut out = Vec::new();
    for dir in ["hopper", "blackwell", "switch", "serialized"] {
        for entry in std::fs::read_dir(format!("{base}/{dir}")).unwrap() {
            let path = entry.unwrap().path();
            let name = path.display().to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            if name.ends_with("certchain.pem") && !name.contains("INVALID") {
                out.push((name, text));
            } else if name.ends_with(".json") {
                let value: serde_json::Value = serde_json::from_str(&text).unwrap();
                certificates(&value, &name, &mut out);
            }
        }
    }
    out
}

fn certificates(value: &serde_json::Value, name: &str, out: &mut Vec<(String, String)>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, member) in map {
                match (key.as_str(), member.as_str()) {
                    ("certificate", Some(b64)) => {
                        let pem = base64::engine::general_purpose::STANDARD
                            .decode(b64)
                            .unwrap();
                        let label = format!("{name}#{}", out.len());
                        out.push((label, String::from_utf8(pem).unwrap()));
                    }
                    _ => certificates(member, name, out),
                }
            }
        }
        serde_json::Value::Array(items) => {
            for item in items {
                certificates(item, name, out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_real_device_chain_passes_as_a_device_leaf() {
    let store = TrustStore::nvidia_device_identity().unwrap();
    let chains = device_chains();
    // 8 PEM chains, and the serialized evidence's (1 + 1 + 1 + 8 + 4 + 1 + 8 + 4 items).
    assert!(chains.len() >= 30, "{}", chains.len());
    for (name, pem) in chains {
        let ders = parse_pem_chain(&pem).unwrap();
        let options = ChainOptions::default().with_purpose(Purpose::DeviceLeaf);
        if let Err(error) = verify_chain(&ders, &store, NOW, &options) {
            panic!("{name}: {error:?}");
        }
    }
}

fn x509_data(xml: &str) -> Vec<Vec<u8>> {
    xml.split("X509Certificate>")
        .skip(1)
        .step_by(2)
        .map(|part| {
            let b64: String = part
                .split('<')
                .next()
                .unwrap()
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            base64::engine::general_purpose::STANDARD
                .decode(b64)
                .unwrap()
        })
        .collect()
}

#[test]
fn every_real_rim_signing_chain_passes_as_a_rim_signer() {
    let store = TrustStore::nvidia_rim().unwrap();
    let base = format!("{}/tests/fixtures/nvidia/rims", env!("CARGO_MANIFEST_DIR"));
    let mut verified = 0;
    for dir in ["nvat", "nvtrust"] {
        for entry in std::fs::read_dir(format!("{base}/{dir}")).unwrap() {
            let path = entry.unwrap().path();
            let Ok(xml) = std::fs::read_to_string(&path) else {
                continue;
            };
            let chain = x509_data(&xml);
            if chain.is_empty() {
                continue;
            }
            let options = ChainOptions::default().with_purpose(Purpose::RimSigner);
            match verify_chain(&chain, &store, NOW, &options) {
                Ok(_) => verified += 1,
                // Negative fixtures (a chain cut short, a debug-only root) fail on the path,
                // never on the leaf's usage.
                Err(error) => assert!(
                    !matches!(
                        error,
                        ChainError::KeyUsage { .. } | ChainError::ExtendedKeyUsage { .. }
                    ),
                    "{}: {error:?}",
                    path.display()
                ),
            }
        }
    }
    assert!(verified >= 30, "{verified}");
}
