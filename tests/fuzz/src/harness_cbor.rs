//! Fuzz target body for the strict CBOR reader and COSE_Sign1 (src/cbor, src/cose). Part of
//! `harness.rs`.
//!
//! Whatever the reader accepts, the deterministic writer writes back into bytes the reader
//! reads as the same item (compared by their encodings, so a NaN compares equal to itself);
//! whatever it refuses has a registered code. An accepted item is then read as a COSE_Sign1,
//! tagged or not: a message taken has an ES384 `alg`, a 96-byte signature and a
//! `Sig_structure` that starts as RFC 9052 §4.4 lays it out.

use edgeattest::cbor::{decode, CborLimits};
use edgeattest::cose::{Sign1, ALG_ES384, HEADER_ALG};
use edgeattest::crypto::SigningKey;

use super::check;

/// `cbor_cose`: any bytes as a CBOR document, then as a COSE_Sign1 message.
pub fn cbor_cose(data: &[u8]) {
    let read = decode(data, CborLimits::DEFAULT);
    check(&read);
    let Ok(item) = read else { return };
    let written = item.encode();
    let again = decode(&written, CborLimits::DEFAULT).expect("the writer's output reads back");
    assert_eq!(again.encode(), written, "the writer is not deterministic");

    let message = Sign1::from_cbor(item, CborLimits::DEFAULT);
    check(&message);
    let Ok(message) = message else { return };
    assert_eq!(
        message.header(HEADER_ALG).and_then(|a| a.as_i64()),
        Some(ALG_ES384)
    );
    assert_eq!(message.signature().len(), 96);
    let signed = message.to_be_signed(None);
    assert_eq!(&signed[..12], b"\x84\x6aSignature1", "Sig_structure head");
    check(&message.x5chain());
    let key = SigningKey::from_scalar_bytes(&[3; 48])
        .expect("scalar")
        .public_key();
    let _ = message.verify(&key);
}
