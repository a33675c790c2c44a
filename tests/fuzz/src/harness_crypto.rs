//! Fuzz target body for the software P-384 verification (src/crypto/p384v), differential
//! against RustCrypto's `p384`: for every key, message and signature both accept or both
//! refuse, and both take or refuse the key. Part of `harness.rs`.
//!
//! The key is a point made from a scalar (compressed or not), a point of edge coordinates
//! (0, 1, p−1, p, p+1, n−1, n, n+1, 2^384−1, G's x and y, or fuzzed), or raw bytes; the
//! signature is a valid one by that scalar, the same with s replaced by n−s (high s, valid),
//! with one bit flipped, of edge scalars (r, s from the same table, 0 and ≥ n included), or
//! raw bytes. The message is the rest (both hash it with SHA-384: the digest is not an
//! input of the public API).

use edgeattest::crypto::{verify_p384_sha384, SignatureError};
use p384::ecdsa::signature::{Signer, Verifier};
use p384::ecdsa::{Signature, SigningKey, VerifyingKey};

/// The field prime p and the group order n of P-384, G's coordinates (SEC 2 §2.5.1).
const P: &str = "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff";
const N: &str = "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973";
const GX: &str = "aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7";
const GY: &str = "3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f";

fn be(text: &str) -> [u8; 48] {
    hex::decode(text)
        .expect("hex")
        .try_into()
        .expect("48 bytes")
}

/// `v + delta` on 48 big-endian bytes, wrapping.
fn offset(mut v: [u8; 48], delta: i8) -> [u8; 48] {
    let (mut carry, add) = (i16::from(delta.unsigned_abs()), delta >= 0);
    for byte in v.iter_mut().rev() {
        if carry == 0 {
            break;
        }
        let value = i16::from(*byte) + if add { carry } else { -carry };
        *byte = value.rem_euclid(256) as u8;
        carry = if (0..256).contains(&value) { 0 } else { 1 };
    }
    v
}

/// Number of entries of [`edge`]; one more selects the fuzzed value.
pub const EDGES: u8 = 12;

/// The `i`-th edge value (mod [`EDGES`] + 1); the last is `fuzzed`.
fn edge(i: u8, fuzzed: [u8; 48]) -> [u8; 48] {
    match i % (EDGES + 1) {
        0 => [0; 48],
        1 => offset([0; 48], 1),
        2 => offset(be(P), -1),
        3 => be(P),
        4 => offset(be(P), 1),
        5 => offset(be(N), -1),
        6 => be(N),
        7 => offset(be(N), 1),
        8 => [0xff; 48],
        9 => be(GX),
        10 => be(GY),
        11 => offset([0; 48], 2),
        _ => fuzzed,
    }
}

/// Bytes from the input, zeros once it is used up.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        let Some((&b, rest)) = self.0.split_first() else {
            return 0;
        };
        self.0 = rest;
        b
    }
    fn array<const L: usize>(&mut self) -> [u8; L] {
        let mut out = [0; L];
        for b in &mut out {
            *b = self.byte();
        }
        out
    }
}

/// `p384_verify`: see the module comment. Input: key mode, two edge selectors, signature
/// mode, two edge selectors, a bit index, a 48-byte scalar, two 48-byte fuzzed values, the
/// raw key length, then the message.
pub fn p384_verify(data: &[u8]) {
    decide(data);
}

/// [`p384_verify`]'s body; returns the verdict both gave.
fn decide(data: &[u8]) -> bool {
    let mut input = Reader(data);
    let (key_mode, kx, ky) = (input.byte(), input.byte(), input.byte());
    let (sig_mode, sr, ss, bit) = (input.byte(), input.byte(), input.byte(), input.byte());
    let scalar: [u8; 48] = input.array();
    let (fa, fb): ([u8; 48], [u8; 48]) = (input.array(), input.array());
    let raw_len = usize::from(input.byte() % 100);
    let raw: Vec<u8> = input.0.iter().copied().take(raw_len).collect();
    let message = input.0;

    // Made only where it is used: deriving a key from a scalar is the costly step.
    let signer = || SigningKey::from_slice(&scalar).ok();
    let key: Vec<u8> = match key_mode % 5 {
        mode @ (0 | 1) => match signer() {
            Some(signer) => signer
                .verifying_key()
                .to_sec1_point(mode == 1)
                .as_bytes()
                .to_vec(),
            None => raw.clone(),
        },
        2 => [&[4u8][..], &edge(kx, fa), &edge(ky, fb)].concat(),
        3 => [&[2 + (ky & 1)][..], &edge(kx, fa)].concat(),
        _ => raw.clone(),
    };
    let signature: Vec<u8> = match (sig_mode % 5, sig_mode % 5 < 3) {
        (mode, true) => match signer() {
            Some(signer) => {
                let valid: Signature = signer.sign(message);
                let mut bytes = valid.to_bytes().to_vec();
                if mode == 1 {
                    // s → n − s: the high-s twin, valid as well.
                    let (r, s) = valid.split_scalars();
                    let twin = Signature::from_scalars(r.to_bytes(), (-*s).to_bytes())
                        .expect("n − s is a valid scalar");
                    bytes = twin.to_bytes().to_vec();
                } else if mode == 2 {
                    bytes[usize::from(bit) % 96] ^= 1 << (bit % 8);
                }
                bytes
            }
            None => raw,
        },
        (3, _) => [edge(sr, fa), edge(ss, fb)].concat(),
        _ => raw,
    };
    agree(&key, message, &signature)
}

/// Both implementations decide alike on `key`, `message` and `signature`; their verdict.
fn agree(key: &[u8], message: &[u8], signature: &[u8]) -> bool {
    let ours = verify_p384_sha384(key, message, signature);
    let theirs_key = VerifyingKey::from_sec1_bytes(key);
    assert_eq!(
        matches!(ours, Err(SignatureError::InvalidPublicKey)),
        theirs_key.is_err(),
        "key acceptance differs for {}: ours {ours:?}",
        hex::encode(key)
    );
    let theirs = theirs_key.is_ok_and(|key| {
        Signature::from_slice(signature).is_ok_and(|sig| key.verify(message, &sig).is_ok())
    });
    assert_eq!(
        ours.is_ok(),
        theirs,
        "verdicts differ: key {}, signature {}, message {}",
        hex::encode(key),
        hex::encode(signature),
        hex::encode(message)
    );
    theirs
}

/// One input of [`p384_verify`]'s layout.
fn input(modes: [u8; 7], scalar: [u8; 48]) -> Vec<u8> {
    let mut data = modes.to_vec();
    data.extend_from_slice(&scalar);
    data.extend_from_slice(&offset(be(GX), 3));
    data.extend_from_slice(&offset(be(N), -2));
    data.push(0);
    data.extend_from_slice(b"edge case");
    data
}

/// The edge cases above, the deterministic sweep the native tests run
/// (tests/it/hardening/fuzz_replay.rs): valid, high-s and bit-flipped signatures by keys from
/// a few scalars (1, n−1, a middling one; 0 and n are not keys), both point forms; every
/// pair of edge scalars as (r, s) under a valid key; every pair of edge coordinates as a
/// point, and every edge x compressed. Returns how many inputs were decided, and how many
/// accepted; a valid or high-s signature by its own key must be accepted.
pub fn p384_edge_cases() -> (usize, usize) {
    let scalars = [
        offset([0; 48], 1),
        offset(be(N), -1),
        [0x5a; 48],
        be(N),
        [0; 48],
    ];
    let mut inputs: Vec<(Vec<u8>, bool)> = Vec::new();
    for (i, scalar) in scalars.iter().enumerate() {
        let is_key = i < 3;
        for key_mode in 0..2 {
            for sig_mode in 0..3 {
                let valid = is_key && sig_mode < 2;
                inputs.push((input([key_mode, 0, 0, sig_mode, 0, 0, 77], *scalar), valid));
            }
        }
    }
    for r in 0..=EDGES {
        for s in 0..=EDGES {
            inputs.push((input([0, 0, 0, 3, r, s, 0], [0x5a; 48]), false));
        }
    }
    for x in 0..=EDGES {
        for y in 0..=EDGES {
            inputs.push((input([2, x, y, 0, 0, 0, 0], [0x5a; 48]), false));
        }
        for parity in 0..2 {
            inputs.push((input([3, x, parity, 0, 0, 0, 0], [0x5a; 48]), false));
        }
    }
    let decided = inputs.len();
    let mut accepted = 0;
    for (data, valid) in inputs {
        let verdict = decide(&data);
        assert!(
            !valid || verdict,
            "a valid signature was refused: {data:02x?}"
        );
        accepted += usize::from(verdict);
    }
    (decided, accepted)
}
