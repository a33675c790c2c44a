//! RIM XML signatures: canonical forms against lxml, every fixture's verdict (the expected
//! verdicts: `tests/common/verdicts.rs`), tampering.
//!
//! Shared with the wasm suites (`tests/wasm_node.rs`, `tests/wasm_browser.rs`), which include
//! this file as a module: `#[test]` is wasm-bindgen-test's there.
// Test helpers outside #[test] functions unwrap and panic on bad fixtures.

// Crate-level here; a wasm suite that includes this file uses its own (`crate::`).
#[path = "../../common/fixture_files.rs"]
mod fixture_files;
#[path = "../../common/verdicts.rs"]
mod verdicts;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use edgeattest::rim::{
    canonical_forms, prepare_rim, verify_rim, RimCertStatus, RimError, RimTrust, VerifiedRim,
    MAX_RIM_BYTES,
};
use edgeattest::ErrorCode;
use edgeattest::UnixTime;
use serde_json::Value;

use crate::verdicts::{rim_verdict, RIM_COUNTS, RIM_DIRS, RIM_NOW};

/// A RIM fixture, relative to `tests/fixtures/nvidia/rims/`.
fn read(rel: &str) -> String {
    crate::fixture_files::text(&format!("nvidia/rims/{rel}")).to_owned()
}

/// Every RIM fixture, relative to `tests/fixtures/nvidia/rims/`.
fn all_rims() -> Vec<String> {
    let mut out = Vec::new();
    for dir in RIM_DIRS {
        for path in crate::fixture_files::files_in(&format!("nvidia/{dir}")) {
            if path.ends_with(".xml") || path.ends_with(".swidtag") {
                out.push(path.trim_start_matches("nvidia/rims/").to_owned());
            }
        }
    }
    out.sort();
    out
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn the_embedded_fixture_table_lists_every_file() {
    crate::fixture_files::assert_table_is_complete();
}

fn verify(xml: &str) -> Result<VerifiedRim, RimError> {
    verify_rim(
        xml.as_bytes(),
        &RimTrust::nvidia(),
        UnixTime::from_secs(RIM_NOW).unwrap(),
    )
}

#[test]
fn canonical_forms_equal_lxml_for_every_fixture() {
    let expected: Value =
        serde_json::from_str(crate::fixture_files::text("generated-rim/canonical.json")).unwrap();
    let names = all_rims();
    assert_eq!(names.len(), RIM_COUNTS.0);
    assert_eq!(expected.as_object().unwrap().len(), names.len());
    for name in names {
        let (document, signed_info) = canonical_forms(&read(&name)).unwrap();
        let want = &expected[&name];
        assert_eq!(
            hex::encode(sha384(&document)),
            want["document_sha384"].as_str().unwrap(),
            "{name}: canonical document"
        );
        assert_eq!(
            core::str::from_utf8(&signed_info).unwrap(),
            want["signed_info_c14n"].as_str().unwrap(),
            "{name}: canonical SignedInfo"
        );
    }
}

fn sha384(data: &[u8]) -> Vec<u8> {
    use sha2::Digest;
    sha2::Sha384::digest(data).to_vec()
}

#[test]
fn every_fixture_gets_the_expected_verdict() {
    let mut verified = 0;
    for name in all_rims() {
        let result = verify(&read(&name));
        match rim_verdict(&format!("rims/{name}")) {
            Ok(()) => {
                result.unwrap_or_else(|e| panic!("{name}: {e}"));
                verified += 1;
            }
            Err(code) => {
                let err = result.unwrap_err();
                assert_eq!(err.code(), code, "{name}");
                // Both are NRAS's RIM signature failure.
                assert_eq!(err.service_code(), 5013, "{name}");
            }
        }
    }
    assert_eq!(verified, RIM_COUNTS.1);
}

#[test]
fn driver_rim_content() {
    let rim = verify(&read("nvat/NV_GPU_DRIVER_GH100_550.144.03.xml")).unwrap();
    let doc = rim.document();
    assert_eq!(doc.name, "GH100");
    assert_eq!(doc.meta.colloquial_version, "550.144.03");
    assert_eq!(doc.meta.edition.as_deref(), Some("GPU"));
    assert_eq!(doc.meta.product.as_deref(), Some("GH100"));
    assert_eq!(doc.meta.firmware_manufacturer_id.as_deref(), Some("5703"));
    assert_eq!(doc.measurements.len(), 64);
    let active: Vec<u32> = doc.active_measurements().map(|m| m.index).collect();
    let mut expected = vec![7];
    expected.extend(21..=40);
    assert_eq!(active, expected);
    let m7 = &doc.measurements[7];
    assert_eq!(m7.name, "Measurement_7");
    assert_eq!(m7.size, 48);
    assert_eq!(
        hex::encode(&m7.alternatives[0]),
        "4a5e4b3d501fe31f91bd8b6f2921b58437704a504dbedba971440e840c938c805612689ae3ac04b1009515a179063d49"
    );
    assert!(doc.opaque_floors.is_empty());
    assert_eq!(rim.certificates().len(), 4);
}

#[test]
fn switch_rim_content_with_alternatives() {
    let rim = verify(&read(
        "nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml",
    ))
    .unwrap();
    let doc = rim.document();
    assert_eq!(doc.name, "LS10");
    assert_eq!(doc.meta.colloquial_version, "96.10.55.00.01");
    assert_eq!(doc.meta.edition.as_deref(), Some("SWITCH"));
    assert_eq!(doc.active_measurements().count(), 31);
    assert_eq!(doc.measurements[9].alternatives.len(), 4);
}

// ---- tampering: every change to signed content or to SignedInfo breaks verification ----

fn replace_once(xml: &str, from: &str, to: &str) -> String {
    assert_eq!(
        xml.matches(from).count(),
        1,
        "pattern {from:?} must be unique"
    );
    xml.replacen(from, to, 1)
}

const GOOD: &str = "nvat/NV_GPU_DRIVER_GH100_550.144.03.xml";

#[test]
fn changing_an_attribute_breaks_the_digest() {
    let xml = read(GOOD);
    let tampered = replace_once(
        &xml,
        "index=\"0\" active=\"False\"",
        "index=\"0\" active=\"True\"",
    );
    assert_eq!(verify(&tampered).unwrap_err(), RimError::DigestMismatch);
    let tampered = replace_once(
        &xml,
        "colloquialVersion=\"550.144.03\"",
        "colloquialVersion=\"550.144.04\"",
    );
    assert_eq!(verify(&tampered).unwrap_err(), RimError::DigestMismatch);
}

#[test]
fn changing_one_hash_character_breaks_the_digest() {
    let xml = read(GOOD);
    let tampered = replace_once(&xml, "ns2:Hash0=\"4a5e4b3d", "ns2:Hash0=\"4a5e4b3e");
    assert_eq!(verify(&tampered).unwrap_err(), RimError::DigestMismatch);
}

#[test]
fn changing_one_character_in_a_signed_element_breaks_the_digest() {
    let xml = read(GOOD);
    let tampered = replace_once(
        &xml,
        "<ns0:Entity name=\"NVIDIA Corporation\"",
        "<ns0:Entity name=\"NVIDIA CorporatioN\"",
    );
    assert_eq!(verify(&tampered).unwrap_err(), RimError::DigestMismatch);
    // Whitespace text between elements is signed content too.
    let tampered = replace_once(&xml, "</ns0:Payload>\n", "</ns0:Payload>\n ");
    assert_eq!(verify(&tampered).unwrap_err(), RimError::DigestMismatch);
    // An added element.
    let tampered = replace_once(
        &xml,
        "</ns0:Payload>",
        "<ns0:Resource type=\"Note\"/></ns0:Payload>",
    );
    assert_eq!(verify(&tampered).unwrap_err(), RimError::DigestMismatch);
}

#[test]
fn changing_signed_info_breaks_the_signature() {
    let xml = read(GOOD);
    // A new digest value that matches tampered content would still fail: SignedInfo is signed.
    let tampered = replace_once(
        &xml,
        "<ds:Reference URI=\"\">",
        "<ds:Reference URI=\"\" Id=\"r\">",
    );
    assert_eq!(verify(&tampered).unwrap_err(), RimError::SignatureInvalid);
    // Content change plus a recomputed DigestValue: the digest matches, the signature fails.
    let changed = replace_once(&xml, "ns2:Hash0=\"4a5e4b3d", "ns2:Hash0=\"4a5e4b3e");
    let (document, _) = canonical_forms(&changed).unwrap();
    use base64::Engine;
    let new_digest = base64::engine::general_purpose::STANDARD.encode(sha384(&document));
    let old_digest = "BqNofyPEyR5BQcx1pnATUpWbyeH2cdjeSv3KP13zEoDiST2XE4Y10j0KtdKh2SYx";
    let forged = replace_once(&changed, old_digest, &new_digest);
    assert_eq!(verify(&forged).unwrap_err(), RimError::SignatureInvalid);
}

#[test]
fn signature_value_and_certificate_changes_fail() {
    let xml = read(GOOD);
    let start = xml.find("<ds:SignatureValue>").unwrap() + "<ds:SignatureValue>".len();
    let mut bytes = xml.into_bytes();
    bytes[start + 5] = if bytes[start + 5] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(bytes).unwrap();
    assert_eq!(verify(&tampered).unwrap_err(), RimError::SignatureInvalid);

    // Another signer certificate first: its key does not verify the signature.
    let xml = read(GOOD);
    let other = read("nvat/switchVBIOSRim_NV_SWITCH_BIOS_5612_0002_890_9610550001.xml");
    let cert = |x: &str| {
        let s = x.find("<ds:X509Certificate>").unwrap() + "<ds:X509Certificate>".len();
        let e = s + x[s..].find("</ds:X509Certificate>").unwrap();
        x[s..e].to_string()
    };
    let swapped = xml.replacen(&cert(&xml), &cert(&other), 1);
    assert_eq!(verify(&swapped).unwrap_err(), RimError::SignatureInvalid);
}

#[test]
fn canonically_equivalent_serialisations_still_verify() {
    let xml = read(GOOD);
    // Attribute order, quote style, spaces inside tags and character references are not
    // part of the canonical form.
    let variant = replace_once(
        &xml,
        "<ns0:Resource type=\"Measurement\" index=\"7\" active=\"True\"",
        "<ns0:Resource   active='True' index=\"&#55;\" type=\"Measurement\"",
    );
    let variant = variant.replacen("<ns0:Entity name=\"NVIDIA Corporation\" role=\"softwareCreator tagCreator\"/>",
        "<ns0:Entity role=\"softwareCreator tagCreator\" name=\"NVIDIA Corporation\" ></ns0:Entity>", 1);
    let rim = verify(&variant).unwrap();
    assert!(rim.document().measurements[7].active);
    // An XML declaration and a comment outside the document element are not signed either.
    let variant = format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- fetched -->\n{xml}");
    verify(&variant).unwrap();
}

// ---- structure and algorithm allow-list ----

#[test]
fn unsupported_algorithms_are_refused() {
    let xml = read(GOOD);
    let cases = [
        ("<ds:CanonicalizationMethod Algorithm=\"http://www.w3.org/2006/12/xml-c14n11\"/>",
         "<ds:CanonicalizationMethod Algorithm=\"http://www.w3.org/2001/10/xml-exc-c14n#\"/>",
         "CanonicalizationMethod"),
        ("http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384", "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256", "SignatureMethod"),
        ("Algorithm=\"http://www.w3.org/2001/04/xmldsig-more#sha384\"", "Algorithm=\"http://www.w3.org/2000/09/xmldsig#sha1\"", "DigestMethod"),
        ("<ds:Transform Algorithm=\"http://www.w3.org/2006/12/xml-c14n11\"/></ds:Transforms>",
         "<ds:Transform Algorithm=\"http://www.w3.org/TR/1999/REC-xpath-19991116\"/></ds:Transforms>", "Transform"),
    ];
    for (from, to, element) in cases {
        let err = verify(&replace_once(&xml, from, to)).unwrap_err();
        assert!(
            matches!(&err, RimError::UnsupportedAlgorithm { element: e, .. } if *e == element),
            "{element}: {err:?}"
        );
        assert_eq!(err.code(), "ERR_RIM_UNSUPPORTED_ALGORITHM");
    }
}

#[test]
fn signature_structure_is_enforced() {
    let xml = read(GOOD);
    let sig_start = xml.find("<ds:Signature").unwrap();
    let sig_end = xml.find("</ds:Signature>").unwrap() + "</ds:Signature>".len();
    let signature = &xml[sig_start..sig_end];

    let unsigned = xml.replacen(signature, "", 1);
    let err = verify(&unsigned).unwrap_err();
    assert_eq!(err, RimError::NotSigned);
    assert_eq!(err.service_code(), 5012);

    let twice = xml.replacen(signature, &format!("{signature}{signature}"), 1);
    assert!(matches!(
        verify(&twice).unwrap_err(),
        RimError::SignatureStructure { .. }
    ));

    // The signature moved inside Payload: not enveloped by the document element directly.
    let moved = xml.replacen(signature, "", 1).replacen(
        "</ns0:Payload>",
        &format!("{signature}</ns0:Payload>"),
        1,
    );
    assert!(matches!(
        verify(&moved).unwrap_err(),
        RimError::SignatureStructure { .. }
    ));

    let other_uri = replace_once(&xml, "<ds:Reference URI=\"\">", "<ds:Reference URI=\"#x\">");
    assert!(matches!(
        verify(&other_uri).unwrap_err(),
        RimError::SignatureStructure { .. }
    ));

    let with_object = xml.replacen("</ds:KeyInfo>", "</ds:KeyInfo><ds:Object/>", 1);
    assert!(matches!(
        verify(&with_object).unwrap_err(),
        RimError::SignatureStructure { .. }
    ));
}

#[test]
fn malformed_and_hostile_documents_are_refused() {
    let err = verify_rim(
        b"<a><b></a>",
        &RimTrust::nvidia(),
        UnixTime::from_secs(0).unwrap(),
    )
    .unwrap_err();
    assert_eq!(err.code(), "ERR_RIM_MALFORMED_XML");
    let dtd = "<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>";
    assert_eq!(
        verify_rim(
            dtd.as_bytes(),
            &RimTrust::nvidia(),
            UnixTime::from_secs(0).unwrap()
        )
        .unwrap_err()
        .code(),
        "ERR_RIM_MALFORMED_XML"
    );
    let deep = format!("{}{}", "<a>".repeat(100), "</a>".repeat(100));
    assert_eq!(
        verify_rim(
            deep.as_bytes(),
            &RimTrust::nvidia(),
            UnixTime::from_secs(0).unwrap()
        )
        .unwrap_err(),
        RimError::TooDeep
    );
    // Hostile nesting is refused quickly (one pass, no quadratic ancestor walks).
    let hostile = format!("{}{}", "<a>".repeat(90_000), "</a>".repeat(90_000));
    // (No clock in wasm32-unknown-unknown's std: the time bound is checked natively.)
    #[cfg(not(target_arch = "wasm32"))]
    let started = std::time::Instant::now();
    assert_eq!(
        verify_rim(
            hostile.as_bytes(),
            &RimTrust::nvidia(),
            UnixTime::from_secs(0).unwrap()
        )
        .unwrap_err(),
        RimError::TooDeep
    );
    #[cfg(not(target_arch = "wasm32"))]
    assert!(started.elapsed() < core::time::Duration::from_secs(5));
    let big = vec![b' '; MAX_RIM_BYTES + 1];
    assert!(matches!(
        verify_rim(&big, &RimTrust::nvidia(), UnixTime::from_secs(0).unwrap()).unwrap_err(),
        RimError::TooLarge { .. }
    ));
    assert_eq!(
        verify_rim(
            &[0xff, 0xfe],
            &RimTrust::nvidia(),
            UnixTime::from_secs(0).unwrap()
        )
        .unwrap_err()
        .code(),
        "ERR_RIM_MALFORMED_XML"
    );
    let not_swid = "<x xmlns:ds=\"http://www.w3.org/2000/09/xmldsig#\"/>";
    assert_eq!(
        verify_rim(
            not_swid.as_bytes(),
            &RimTrust::nvidia(),
            UnixTime::from_secs(0).unwrap()
        )
        .unwrap_err()
        .code(),
        "ERR_RIM_SCHEMA"
    );
}

#[test]
fn two_phase_verification_matches_one_call() {
    let xml = read(GOOD);
    let trust = RimTrust::nvidia();
    let now = 1_750_000_000;
    let pending = prepare_rim(xml.as_bytes(), &trust, UnixTime::from_secs(now).unwrap()).unwrap();
    let checks = pending.signature_checks().to_vec();
    // The RIM signature, then the three links signer → L3 → CA → root.
    assert_eq!(checks.len(), 4);
    assert_eq!(checks[0].signature.len(), 96);
    assert_eq!(checks[0].public_key_sec1.len(), 97);
    assert!(checks[0].message.starts_with(b"<ds:SignedInfo xmlns="));
    let verdicts: Vec<bool> = checks.iter().map(|c| c.verify().is_ok()).collect();
    assert_eq!(verdicts, [true; 4]);
    let verified = pending.finish(&verdicts).unwrap();
    assert_eq!(
        verified,
        verify_rim(xml.as_bytes(), &trust, UnixTime::from_secs(now).unwrap()).unwrap()
    );
    assert!(verified.is_trusted());

    // A backend that reports the RIM signature as failed is honoured.
    let pending = prepare_rim(xml.as_bytes(), &trust, UnixTime::from_secs(now).unwrap()).unwrap();
    assert_eq!(
        pending.finish(&[false, true, true, true]).unwrap_err(),
        RimError::SignatureInvalid
    );
    // Too few verdicts is not a pass.
    let pending = prepare_rim(xml.as_bytes(), &trust, UnixTime::from_secs(now).unwrap()).unwrap();
    assert_eq!(
        pending.finish(&[true]).unwrap_err(),
        RimError::SignatureInvalid
    );
    // A failed chain link makes the chain invalid, with the chain's error code.
    let pending = prepare_rim(xml.as_bytes(), &trust, UnixTime::from_secs(now).unwrap()).unwrap();
    let verified = pending.finish(&[true, true, false, true]).unwrap();
    assert_eq!(verified.cert_chain().status, RimCertStatus::Invalid);
    assert_eq!(
        verified.cert_chain().error_code,
        Some("ERR_CHAIN_SIGNATURE_INVALID")
    );
    assert!(!verified.is_trusted());
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn generated_canonical_forms_are_current() {
    // Re-derive canonical.json with lxml when it is installed (pkg-config/setup.sh installs
    // it); the comparison above runs everywhere on the committed file.
    let has_lxml = std::process::Command::new("python3")
        .args(["-c", "import lxml"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_lxml {
        eprintln!("python3 with lxml not available: regeneration check not run");
        return;
    }
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/generated-rim/generate.py");
    let status = std::process::Command::new("python3")
        .arg(script)
        .arg("--check")
        .status()
        .unwrap();
    assert!(
        status.success(),
        "canonical.json differs from lxml's output: regenerate it"
    );
}
