//! The SHA-256 digest under which a key is stored, and its constant-time comparison.
//!
//! Keys carry 256 random bits, so a fast hash suffices at rest (no password hashing: there
//! is nothing to brute-force). Comparing digests still runs in constant time (CWE-208):
//! every byte is examined whatever the first difference, so response timing tells an
//! attacker nothing about how close a guess came.

use alloc::string::String;
use core::fmt;

use sha2::{Digest, Sha256};
use subtle::{Choice, ConstantTimeEq};

/// SHA-256 of a key's text. Not secret in itself, but never printed whole by `Debug`.
#[derive(Clone, Copy, Eq)]
pub struct KeyDigest([u8; 32]);

impl KeyDigest {
    /// The digest of key text as presented (the UTF-8 bytes, no normalisation).
    pub fn of_key_text(text: &str) -> Self {
        Self(Sha256::digest(text.as_bytes()).into())
    }

    /// Wraps 32 digest bytes, e.g. read from a store.
    pub const fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// Parses 64 hex digits (either case).
    pub fn from_hex(text: &str) -> Option<Self> {
        let mut bytes = [0u8; 32];
        hex::decode_to_slice(text, &mut bytes).ok()?;
        Some(Self(bytes))
    }

    /// The 32 bytes.
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// 64 lowercase hex digits.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// Constant-time equality.
    pub fn ct_eq(&self, other: &Self) -> Choice {
        ct_eq_observed(&self.0, &other.0, |_| {})
    }
}

/// Equality through [`KeyDigest::ct_eq`]; safe to use on secrets.
impl PartialEq for KeyDigest {
    fn eq(&self, other: &Self) -> bool {
        bool::from(self.ct_eq(other))
    }
}

impl fmt::Debug for KeyDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex = self.to_hex();
        write!(f, "KeyDigest({}…)", hex.get(..12).unwrap_or(""))
    }
}

/// Compares all 32 byte pairs, OR-ing their differences, and only then turns the result into
/// a [`Choice`]. `observe` is told each index as it is examined; production passes a no-op
/// (inlined away), tests count calls to prove there is no early exit.
pub(crate) fn ct_eq_observed(a: &[u8; 32], b: &[u8; 32], mut observe: impl FnMut(usize)) -> Choice {
    let mut difference = 0u8;
    for (i, (x, y)) in a.iter().zip(b.iter()).enumerate() {
        observe(i);
        difference |= x ^ y;
    }
    // subtle's ct_eq on u8 is branch-free and hides the value behind an optimisation barrier.
    difference.ct_eq(&0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparison_examines_every_byte_whatever_the_first_difference() {
        let base = [0x5Au8; 32];
        for position in 0..32 {
            let mut other = base;
            other[position] ^= 0x01;
            let mut seen = [false; 32];
            let mut calls = 0;
            let equal = ct_eq_observed(&base, &other, |i| {
                seen[i] = true;
                calls += 1;
            });
            assert!(!bool::from(equal));
            assert_eq!(calls, 32, "difference at byte {position}");
            assert!(seen.iter().all(|s| *s));
        }
        let mut calls = 0;
        assert!(bool::from(ct_eq_observed(&base, &base, |_| calls += 1)));
        assert_eq!(calls, 32);
    }

    #[test]
    fn every_single_bit_difference_is_detected() {
        let base = [0u8; 32];
        for byte in 0..32 {
            for bit in 0..8 {
                let mut other = base;
                other[byte] = 1 << bit;
                assert!(!bool::from(ct_eq_observed(&base, &other, |_| {})));
            }
        }
    }

    #[test]
    fn sha256_of_key_text() {
        // FIPS 180-2 example: SHA-256("abc").
        assert_eq!(
            KeyDigest::of_key_text("abc").to_hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let digest = KeyDigest::of_key_text("abc");
        assert_eq!(KeyDigest::from_hex(&digest.to_hex()), Some(digest));
        assert_eq!(
            KeyDigest::from_hex(&digest.to_hex().to_uppercase()),
            Some(digest)
        );
        assert_eq!(KeyDigest::from_hex("ab"), None);
        assert_eq!(KeyDigest::from_hex(&"g".repeat(64)), None);
    }
}
