//! Signed CoRIMs (COSE_Sign1, ES384, `x5chain`) and the CoRIM budgets. NVIDIA publishes no
//! signed GPU CoRIM and no chain under `NVIDIA CoRIM Root CA001` that could be checked
//! offline, so these CoRIMs are signed here by the test PKI's RIM signer
//! (`generated/ocsp/rim_signer_*`: leaf → L3 → CA → `Test OCSP CoRIM signing Root CA`).
#![cfg(not(target_arch = "wasm32"))]

use edgeattest::cbor::Cbor;
use edgeattest::chain::parse_pem_chain;
use edgeattest::cose;
use edgeattest::rim::{
    compare_switch, parse_corim, prepare_rim, verify_rim, CorimError, RimCertStatus, RimError,
    RimTrust, MAX_CORIM_ALTERNATIVES, MAX_CORIM_BYTES, MAX_CORIM_MEASUREMENTS, MAX_CORIM_TAGS,
    MAX_CORIM_TRIPLES,
};
use edgeattest::ErrorCode;
use p384::ecdsa::signature::Signer;
use p384::ecdsa::{Signature, SigningKey};
use p384::pkcs8::DecodePrivateKey;
use sha2::Digest;

use super::corim::{corim_from_xml, corim_map, evidence, fixture_bytes, xml_rim, NOW};

pub(super) fn pki(name: &str) -> String {
    String::from_utf8(fixture_bytes(&format!("generated/ocsp/{name}"))).unwrap()
}

pub(super) fn test_trust() -> RimTrust {
    RimTrust::from_pem(&pki("rim_root.pem")).unwrap()
}

/// `payload` signed by the test RIM signer, with `protected` headers besides the algorithm
/// and its chain (leaf, L3, CA) in `x5chain`.
pub(super) fn sign(payload: &[u8], mut protected: Vec<(i64, Cbor)>) -> Vec<u8> {
    let key = SigningKey::from_pkcs8_pem(&pki("rim_signer_key.pem")).unwrap();
    let chain = parse_pem_chain(&pki("rim_signer_chain.pem")).unwrap();
    let x5chain = Cbor::Array(chain[..3].iter().map(|der| Cbor::bytes(der)).collect());
    protected.push((33, x5chain));
    let signature: Signature = key.sign(&cose::sign1_to_be_signed(&protected, payload));
    cose::sign1_assemble(&protected, &[], payload, &signature.to_bytes())
}

pub(super) fn content_type() -> Vec<(i64, Cbor)> {
    vec![(3, Cbor::text("application/rim+cbor"))]
}

fn signed_switch_corim() -> Vec<u8> {
    let xml = xml_rim("nvtrust/1010_0200_882_96005E0001_PROD.swidtag");
    sign(&corim_from_xml(&xml).encode(), content_type())
}

#[test]
fn a_signed_corim_verifies_to_its_root_and_compares_as_its_xml_rim() {
    let bytes = signed_switch_corim();
    let verified = verify_rim(&bytes, &test_trust(), NOW).unwrap();
    assert!(verified.is_trusted(), "{:?}", verified.cert_chain());
    assert_eq!(verified.certificates().len(), 3);
    assert_eq!(
        verified.cert_chain().subjects[0],
        "Test OCSP RIM L4 Signer good"
    );
    let xml = xml_rim("nvtrust/1010_0200_882_96005E0001_PROD.swidtag");
    let ev = evidence("hopper/nvat_hopper_535.86.09_report.hex", None, None);
    assert!(verified.is_corim());
    assert_eq!(
        verified.compare(|doc| compare_switch(doc, &ev)).unwrap(),
        compare_switch(&xml, &ev).unwrap()
    );
    // The draft-06 wrappers NVIDIA's networking CoRIMs carry: #6.500(#6.502(COSE_Sign1)).
    let wrapped = [&[0xd9, 0x01, 0xf4, 0xd9, 0x01, 0xf6][..], &bytes].concat();
    assert!(verify_rim(&wrapped, &test_trust(), NOW)
        .unwrap()
        .is_trusted());
    // Two steps, as for XML RIMs: one ECDSA check for the COSE signature, then the path's.
    let pending = prepare_rim(&bytes, &test_trust(), NOW).unwrap();
    assert!(pending.chain_planned());
    assert_eq!(pending.signature_checks().len(), 4);
    assert_eq!(
        pending
            .clone()
            .finish(&[false, true, true, true])
            .unwrap_err(),
        RimError::SignatureInvalid
    );
    assert_eq!(
        pending.finish(&[true]).unwrap_err(),
        RimError::SignatureInvalid
    );
}

#[test]
fn a_changed_payload_fails_the_signature() {
    let bytes = signed_switch_corim();
    let xml = xml_rim("nvtrust/1010_0200_882_96005E0001_PROD.swidtag");
    let first = &xml.active_measurements().next().unwrap().alternatives[0];
    let at = bytes
        .windows(first.len())
        .position(|w| w == first.as_slice())
        .unwrap();
    let mut tampered = bytes.clone();
    tampered[at] ^= 1;
    let error = verify_rim(&tampered, &test_trust(), NOW).unwrap_err();
    assert_eq!(error, RimError::SignatureInvalid);
    assert_eq!(error.code(), "ERR_RIM_SIGNATURE_INVALID");
    assert_eq!(error.service_code(), 5013);
}

#[test]
fn a_chain_to_another_root_is_invalid() {
    let bytes = signed_switch_corim();
    // NVIDIA's CoRIM root (the default anchor) and the XML RIMs' root: neither issued it.
    for trust in [RimTrust::nvidia_corim(), RimTrust::nvidia()] {
        let verified = verify_rim(&bytes, &trust, NOW).unwrap();
        assert_eq!(verified.cert_chain().status, RimCertStatus::Invalid);
        assert!(!verified.is_trusted());
    }
    // The embedded CoRIM root is NVIDIA's CA001 (its SHA-256 fingerprint).
    let store = edgeattest::chain::TrustStore::nvidia_corim().unwrap();
    assert_eq!(store.len(), 1);
    assert_eq!(
        hex::encode(sha2::Sha256::digest(store.anchor_der(0).unwrap())),
        "35e7a947caff230efc27ba93dd75af135077af4cd244ce465e111e2bae663e5e"
    );
}

#[test]
fn only_es384_is_accepted() {
    let payload = corim_map("x", vec![vec![]]).encode();
    // A well-formed COSE_Sign1 whose protected header says ES256 (-7).
    let protected = Cbor::Map(vec![(Cbor::int(1), Cbor::int(-7))]).encode();
    let es256 = Cbor::Tag(
        18,
        Box::new(Cbor::Array(vec![
            Cbor::Bytes(protected),
            Cbor::Map(vec![]),
            Cbor::Bytes(payload),
            Cbor::Bytes(vec![0; 96]),
        ])),
    )
    .encode();
    let error = prepare_rim(&es256, &test_trust(), NOW).unwrap_err();
    assert!(
        matches!(error, RimError::Corim(CorimError::Cose(_))),
        "{error:?}"
    );
    assert_eq!(error.code(), "ERR_CORIM_COSE");

    // ES384 with another content type.
    let xml = xml_rim("nvtrust/1010_0200_882_96005E0001_PROD.swidtag");
    let other = sign(
        &corim_from_xml(&xml).encode(),
        vec![(3, Cbor::text("application/json"))],
    );
    assert_eq!(
        prepare_rim(&other, &test_trust(), NOW).unwrap_err(),
        RimError::Corim(CorimError::ContentType)
    );
    // No x5chain.
    let key = SigningKey::from_pkcs8_pem(&pki("rim_signer_key.pem")).unwrap();
    let payload = corim_from_xml(&xml).encode();
    let signature: Signature = key.sign(&cose::sign1_to_be_signed(&[], &payload));
    let bare = cose::sign1_assemble(&[], &[], &payload, &signature.to_bytes());
    assert_eq!(
        prepare_rim(&bare, &test_trust(), NOW).unwrap_err().code(),
        "ERR_CORIM_CERTIFICATE"
    );
}

fn measurement(mkey: i64) -> Cbor {
    Cbor::Map(vec![
        (Cbor::int(0), Cbor::int(mkey)),
        (
            Cbor::int(1),
            Cbor::Map(vec![(
                Cbor::int(4),
                Cbor::Tag(560, Box::new(Cbor::bytes(&[0]))),
            )]),
        ),
    ])
}

#[test]
fn budgets_give_typed_errors() {
    // Too many measurements in one triple.
    let many: Vec<Cbor> = (1..=i64::try_from(MAX_CORIM_MEASUREMENTS).unwrap() + 1)
        .map(measurement)
        .collect();
    let error = parse_corim(&corim_map("x", vec![many]).encode()).unwrap_err();
    assert_eq!(
        error,
        CorimError::TooMany {
            what: "measurements",
            limit: MAX_CORIM_MEASUREMENTS
        }
    );
    assert_eq!(error.code(), "ERR_CORIM_TOO_MANY");

    // Too many alternatives (one more reference triple than allowed).
    let triples = vec![vec![measurement(1)]; MAX_CORIM_ALTERNATIVES + 1];
    assert_eq!(
        parse_corim(&corim_map("x", triples).encode()).unwrap_err(),
        CorimError::TooMany {
            what: "alternatives",
            limit: MAX_CORIM_ALTERNATIVES
        }
    );
    let triples = vec![vec![measurement(1)]; MAX_CORIM_TRIPLES + 1];
    assert_eq!(
        parse_corim(&corim_map("x", triples).encode()).unwrap_err(),
        CorimError::TooMany {
            what: "reference-triples",
            limit: MAX_CORIM_TRIPLES
        }
    );

    // Too many tags.
    let one = corim_map("x", vec![vec![measurement(1)]]);
    let tag = one.get_int(1).unwrap().as_array().unwrap()[0].clone();
    let tags = Cbor::Map(vec![
        (Cbor::int(0), Cbor::text("many")),
        (Cbor::int(1), Cbor::Array(vec![tag; MAX_CORIM_TAGS + 1])),
    ]);
    assert_eq!(
        parse_corim(&tags.encode()).unwrap_err().code(),
        "ERR_CORIM_TOO_MANY"
    );

    // Deep nesting: 10,000 nested arrays are refused by the CBOR budget, not the stack.
    let mut deep = vec![0x81u8; 10_000];
    deep.push(0x00);
    let error = parse_corim(&deep).unwrap_err();
    assert!(matches!(error, CorimError::Cbor(_)), "{error:?}");
    assert_eq!(error.code(), "ERR_CORIM_CBOR");

    // An array head claiming 2^32 items with none present, and a huge document.
    let error = parse_corim(&[0x9a, 0xff, 0xff, 0xff, 0xff]).unwrap_err();
    assert_eq!(error.code(), "ERR_CORIM_CBOR");
    let huge = vec![0u8; MAX_CORIM_BYTES + 1];
    assert_eq!(
        parse_corim(&huge).unwrap_err().code(),
        "ERR_CORIM_TOO_LARGE"
    );
    // Led by a CBOR tag byte, so that the RIM pipeline reads it as a CoRIM.
    let mut huge_signed = huge.clone();
    huge_signed[0] = 0xd2;
    assert_eq!(
        prepare_rim(&huge_signed, &test_trust(), NOW)
            .unwrap_err()
            .code(),
        "ERR_CORIM_TOO_LARGE"
    );
}

#[test]
fn refused_constructs_are_named() {
    let with_mval = |mval: Cbor| {
        corim_map(
            "x",
            vec![vec![Cbor::Map(vec![
                (Cbor::int(0), Cbor::int(1)),
                (Cbor::int(1), mval),
            ])]],
        )
        .encode()
    };
    let digest =
        |alg: i64, len: usize| Cbor::Array(vec![Cbor::int(alg), Cbor::Bytes(vec![0; len])]);
    for (mval, expected) in [
        (
            Cbor::Map(vec![(
                Cbor::int(4),
                Cbor::Tag(563, Box::new(Cbor::Array(vec![]))),
            )]),
            "ERR_CORIM_UNSUPPORTED",
        ),
        (
            Cbor::Map(vec![(
                Cbor::int(2),
                Cbor::Array(vec![digest(7, 48), digest(7, 48)]),
            )]),
            "ERR_CORIM_UNSUPPORTED",
        ),
        (
            Cbor::Map(vec![(Cbor::int(2), Cbor::Array(vec![digest(7, 32)]))]),
            "ERR_CORIM_SCHEMA",
        ),
        (
            Cbor::Map(vec![(Cbor::int(2), Cbor::Array(vec![digest(2, 32)]))]),
            "ERR_CORIM_UNSUPPORTED",
        ),
        (
            Cbor::Map(vec![(Cbor::int(1), Cbor::int(3))]),
            "ERR_CORIM_UNSUPPORTED",
        ),
        (Cbor::Map(vec![]), "ERR_CORIM_SCHEMA"),
    ] {
        assert_eq!(
            parse_corim(&with_mval(mval.clone())).unwrap_err().code(),
            expected,
            "{mval:?}"
        );
    }
    // A repeated mkey.
    let twice = corim_map("x", vec![vec![measurement(3), measurement(3)]]);
    assert_eq!(
        parse_corim(&twice.encode()).unwrap_err(),
        CorimError::DuplicateIndex { mkey: 3 }
    );
    // Dependent RIMs.
    let mut map = corim_map("x", vec![vec![measurement(1)]]);
    if let Cbor::Map(entries) = &mut map {
        entries.push((Cbor::int(2), Cbor::Array(vec![])));
    }
    assert_eq!(
        parse_corim(&map.encode()).unwrap_err(),
        CorimError::Unsupported {
            what: "dependent RIMs"
        }
    );
}
