use alloc::vec;
use alloc::vec::Vec;

use super::*;
use crate::crypto::SigningKey;

/// A draft-04 EAR as a CWT, signed ES384 by Veraison's `ear` crate 0.6.0 (its
/// `Ear::sign_cose_pem`) with a throwaway key, whose public half is below. Its payload is an
/// indefinite-length map, as that writer emits.
const VERAISON_CWT: &str = "d28444a1013822a058b9bf190109781d7461673a696574662e6f72672c323032363a726174732f656172233034061a6a18a5001903eca200782868747470733a2f2f6769746875622e636f6d2f656467656174746573742f6564676561747465737401706564676561747465737420302e322e3019010aa1654750552d30bf1903e8021903e9bf0002010202020402ff0a48931d8dd0add203acff1903e8020a5820931d8dd0add203ac0102030405060708090a0b0c0d0e0f101112131415161718ff58605772c7356a57dc55ce1cfb4e1494146675b4c2a54ccd57bbf10a5e5be53173f1fa33e4c2e05e399b6b084f6f911b98f2747f29b6f7a671958da38f9a3b9152ab54c20228daa288a7e720f31bd85aa26a8183dd90f580b68a5c01a7c9f89d6641";
const VERAISON_KEY: &str = "-----BEGIN PUBLIC KEY-----
MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAEnnHPrqtIJ53vg+1v5NAnVjSKrWxfNcbv
cnWKQGSV32S+RPYqi2PEnf47YiVm0g8K1wMh5DjcqC8/degYeTP0L6XvkGtCo2n7
rRXnBKGS9f3+GAL9HfZHQxkL0PBGyDIe
-----END PUBLIC KEY-----";

fn veraison() -> Vec<u8> {
    hex::decode(VERAISON_CWT).unwrap()
}

#[test]
fn a_message_signed_by_veraisons_library_verifies() {
    let message = Sign1::decode(&veraison(), CborLimits::DEFAULT).unwrap();
    let key = PublicKey::from_spki_pem(VERAISON_KEY).unwrap();
    message.verify(&key).unwrap();
    let claims = cbor::decode(message.payload().unwrap(), CborLimits::DEFAULT).unwrap();
    assert_eq!(
        claims.get_int(265).and_then(Cbor::as_text),
        Some("tag:ietf.org,2026:rats/ear#04")
    );
    assert!(message.is_protected(HEADER_ALG));
    assert_eq!(message.kid(), None);
    assert_eq!(message.x5chain(), Err(CoseError::CertificateChain));
    // The backend's check is the same bytes.
    let check = message.signature_check(&key);
    assert_eq!(check.message, message.to_be_signed(None));
    assert_eq!(crate::crypto::software_verdicts(&[check]), vec![true]);
}

#[test]
fn a_changed_payload_or_signature_fails() {
    let key = PublicKey::from_spki_pem(VERAISON_KEY).unwrap();
    let bytes = veraison();
    // 0x6a18a500 (iat) → 0x6a18a501: the payload's bytes, not its layout, change.
    let at = bytes
        .windows(4)
        .position(|w| w == [0x6a, 0x18, 0xa5, 0x00])
        .unwrap();
    let mut tampered = bytes.clone();
    tampered[at + 3] = 0x01;
    let message = Sign1::decode(&tampered, CborLimits::DEFAULT).unwrap();
    assert!(message.verify(&key).is_err());
    let mut tampered = bytes;
    let last = tampered.len() - 1;
    tampered[last] ^= 1;
    let message = Sign1::decode(&tampered, CborLimits::DEFAULT).unwrap();
    assert!(message.verify(&key).is_err());
    let other = SigningKey::from_scalar_bytes(&[7; 48])
        .unwrap()
        .public_key();
    let message = Sign1::decode(&veraison(), CborLimits::DEFAULT).unwrap();
    assert!(message.verify(&other).is_err());
}

#[test]
fn written_messages_read_back_and_verify() {
    let key = SigningKey::from_scalar_bytes(&[9; 48]).unwrap();
    let protected = [(HEADER_CONTENT_TYPE, Cbor::text("application/rim+cbor"))];
    let unprotected = [
        (HEADER_KID, Cbor::bytes(b"k1")),
        (
            HEADER_X5CHAIN,
            Cbor::Array(vec![Cbor::bytes(&[0x30, 1]), Cbor::bytes(&[0x30, 2])]),
        ),
    ];
    let payload = b"\xa1\x01\x02";
    let signature = key.sign(&sign1_to_be_signed(&protected, payload));
    let bytes = sign1_assemble(&protected, &unprotected, payload, &signature);
    assert_eq!(bytes[0], 0xd2, "tag 18");
    let message = Sign1::decode(&bytes, CborLimits::DEFAULT).unwrap();
    message.verify(&key.public_key()).unwrap();
    assert_eq!(message.payload(), Some(&payload[..]));
    assert_eq!(message.kid(), Some(&b"k1"[..]));
    assert_eq!(message.content_type(), Some("application/rim+cbor"));
    assert!(!message.is_protected(HEADER_KID));
    assert_eq!(
        message.x5chain().unwrap(),
        vec![vec![0x30, 1], vec![0x30, 2]]
    );
    // An `alg` the caller passes is not written: ES384 is the only one.
    let other_alg = [(HEADER_ALG, Cbor::int(-7))];
    assert_eq!(
        sign1_to_be_signed(&other_alg, payload),
        sign1_to_be_signed(&[], payload)
    );
}

/// A COSE_Sign1 with its members replaced, signed with a fixed key.
fn message(protected: Cbor, unprotected: Cbor, payload: Cbor, signature: Cbor) -> Vec<u8> {
    Cbor::Tag(
        18,
        alloc::boxed::Box::new(Cbor::Array(vec![
            protected,
            unprotected,
            payload,
            signature,
        ])),
    )
    .encode()
}

fn map(entries: &[(i64, Cbor)]) -> Cbor {
    Cbor::Map(
        entries
            .iter()
            .map(|(k, v)| (Cbor::int(*k), v.clone()))
            .collect(),
    )
}

#[test]
fn malformed_messages_are_refused_with_their_codes() {
    let es384 = Cbor::Bytes(map(&[(1, Cbor::int(-35))]).encode());
    let sig = Cbor::bytes(&[0; 96]);
    let payload = Cbor::bytes(b"x");
    let empty = map(&[]);
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (vec![0xd2], "ERR_CBOR_MALFORMED"),
        (
            Cbor::Tag(17, alloc::boxed::Box::new(Cbor::Array(vec![]))).encode(),
            "ERR_COSE_SHAPE",
        ),
        (
            Cbor::Array(vec![es384.clone(), empty.clone(), payload.clone()]).encode(),
            "ERR_COSE_SHAPE",
        ),
        (
            message(
                map(&[(1, Cbor::int(-35))]),
                empty.clone(),
                payload.clone(),
                sig.clone(),
            ),
            "ERR_COSE_SHAPE",
        ),
        (
            message(
                Cbor::bytes(&[0x01]),
                empty.clone(),
                payload.clone(),
                sig.clone(),
            ),
            "ERR_COSE_SHAPE",
        ),
        (
            message(
                es384.clone(),
                Cbor::Array(vec![]),
                payload.clone(),
                sig.clone(),
            ),
            "ERR_COSE_SHAPE",
        ),
        (
            message(es384.clone(), empty.clone(), Cbor::text("x"), sig.clone()),
            "ERR_COSE_SHAPE",
        ),
        (
            message(
                es384.clone(),
                empty.clone(),
                payload.clone(),
                Cbor::bytes(&[0; 64]),
            ),
            "ERR_COSE_SHAPE",
        ),
        // ES256, EdDSA, an alg only in the unprotected bucket, no alg at all.
        (
            message(
                Cbor::Bytes(map(&[(1, Cbor::int(-7))]).encode()),
                empty.clone(),
                payload.clone(),
                sig.clone(),
            ),
            "ERR_COSE_ALGORITHM",
        ),
        (
            message(
                Cbor::Bytes(map(&[(1, Cbor::int(-8))]).encode()),
                empty.clone(),
                payload.clone(),
                sig.clone(),
            ),
            "ERR_COSE_ALGORITHM",
        ),
        (
            message(
                Cbor::Bytes(Vec::new()),
                map(&[(1, Cbor::int(-35))]),
                payload.clone(),
                sig.clone(),
            ),
            "ERR_COSE_ALGORITHM",
        ),
        (
            message(
                Cbor::Bytes(Vec::new()),
                empty.clone(),
                payload.clone(),
                sig.clone(),
            ),
            "ERR_COSE_ALGORITHM",
        ),
        // The same label in both buckets.
        (
            message(
                Cbor::Bytes(map(&[(1, Cbor::int(-35)), (4, Cbor::bytes(b"a"))]).encode()),
                map(&[(4, Cbor::bytes(b"b"))]),
                payload.clone(),
                sig.clone(),
            ),
            "ERR_COSE_SHAPE",
        ),
        // crit naming a label not processed, or empty.
        (
            message(
                Cbor::Bytes(
                    map(&[(1, Cbor::int(-35)), (2, Cbor::Array(vec![Cbor::int(99)]))]).encode(),
                ),
                empty.clone(),
                payload.clone(),
                sig.clone(),
            ),
            "ERR_COSE_CRITICAL",
        ),
        (
            message(
                Cbor::Bytes(map(&[(1, Cbor::int(-35)), (2, Cbor::Array(vec![]))]).encode()),
                empty.clone(),
                payload.clone(),
                sig.clone(),
            ),
            "ERR_COSE_CRITICAL",
        ),
        // Duplicate labels inside the protected header's own bytes.
        (
            message(
                Cbor::bytes(&[0xa2, 0x01, 0x38, 0x22, 0x01, 0x38, 0x22]),
                empty.clone(),
                payload.clone(),
                sig.clone(),
            ),
            "ERR_CBOR_DUPLICATE_KEY",
        ),
    ];
    for (bytes, code) in cases {
        let err = Sign1::decode(&bytes, CborLimits::DEFAULT).unwrap_err();
        assert_eq!(err.code(), code, "{} gave {err}", hex::encode(&bytes));
    }
    // crit naming understood labels, an untagged message and a detached payload are read.
    let crit =
        Cbor::Bytes(map(&[(1, Cbor::int(-35)), (2, Cbor::Array(vec![Cbor::int(33)]))]).encode());
    assert!(Sign1::decode(
        &message(crit, empty.clone(), payload.clone(), sig.clone()),
        CborLimits::DEFAULT
    )
    .is_ok());
    let untagged = Cbor::Array(vec![es384.clone(), empty.clone(), payload, sig.clone()]).encode();
    assert!(Sign1::decode(&untagged, CborLimits::DEFAULT).is_ok());
    let detached =
        Sign1::decode(&message(es384, empty, Cbor::Null, sig), CborLimits::DEFAULT).unwrap();
    assert_eq!(detached.payload(), None);
    assert_eq!(
        detached.to_be_signed(Some(b"x")),
        sig_structure(&detached.protected, b"x")
    );
}

#[test]
fn x5chain_takes_one_certificate_or_an_array_of_them() {
    let es384 = Cbor::Bytes(map(&[(1, Cbor::int(-35))]).encode());
    let read = |x5chain: Cbor| {
        let bytes = message(
            es384.clone(),
            map(&[(33, x5chain)]),
            Cbor::bytes(b""),
            Cbor::bytes(&[0; 96]),
        );
        Sign1::decode(&bytes, CborLimits::DEFAULT)
            .unwrap()
            .x5chain()
    };
    assert_eq!(read(Cbor::bytes(&[0x30])).unwrap(), vec![vec![0x30]]);
    assert_eq!(read(Cbor::Array(vec![])), Err(CoseError::CertificateChain));
    assert_eq!(
        read(Cbor::Array(vec![Cbor::text("pem")])),
        Err(CoseError::CertificateChain)
    );
    assert_eq!(read(Cbor::text("pem")), Err(CoseError::CertificateChain));
}
