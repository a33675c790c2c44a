//! RSA PKCS#1 v1.5 signature verification (RFC 8017 §8.2.2), for one use: the links of a
//! token signer's certificate chain, where NVIDIA's attestation intermediate holds an RSA key
//! and signs its leaves with sha256WithRSAEncryption. Tokens themselves stay ES384 only.
//!
//! Public-key operations only (no secret is involved, so variable time is fine); moduli of
//! 2048 to 4096 bits, SHA-256/384/512, the whole encoded message compared (no parsing of the
//! padding, so no Bleichenbacher-style forgery with a lax parser).

use alloc::vec::Vec;

use const_oid::ObjectIdentifier;
use der::asn1::UintRef;
use der::{Decode, Reader, SliceReader};
use sha2::Digest as _;

mod modpow;

/// rsaEncryption (RFC 8017 appendix A.1).
const RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
const SHA256_WITH_RSA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.11");
const SHA384_WITH_RSA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.12");
const SHA512_WITH_RSA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.13");

/// DigestInfo prefixes (RFC 8017 §9.2 note 1).
const SHA256_PREFIX: [u8; 19] = [
    0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05,
    0x00, 0x04, 0x20,
];
const SHA384_PREFIX: [u8; 19] = [
    0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05,
    0x00, 0x04, 0x30,
];
const SHA512_PREFIX: [u8; 19] = [
    0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05,
    0x00, 0x04, 0x40,
];

/// Smallest and largest modulus accepted, in bits.
const MIN_BITS: usize = 2048;
const MAX_BITS: usize = 4096;

/// Whether `algorithm` is one of the RSA signature algorithms verified here.
pub(crate) fn is_rsa_signature(algorithm: ObjectIdentifier) -> bool {
    [SHA256_WITH_RSA, SHA384_WITH_RSA, SHA512_WITH_RSA].contains(&algorithm)
}

/// Verifies `signature` over `message` with the RSA key of the DER SubjectPublicKeyInfo
/// `spki` under `algorithm` (sha{256,384,512}WithRSAEncryption). False for anything else: a
/// key that is not RSA, a modulus outside 2048–4096 bits or even, an exponent other than odd
/// and above 1, a signature of the wrong length or not below the modulus.
pub(crate) fn verify_pkcs1v15(
    spki: &spki::SubjectPublicKeyInfoRef<'_>,
    algorithm: ObjectIdentifier,
    message: &[u8],
    signature: &[u8],
) -> bool {
    verify(spki, algorithm, message, signature).unwrap_or(false)
}

fn verify(
    spki: &spki::SubjectPublicKeyInfoRef<'_>,
    algorithm: ObjectIdentifier,
    message: &[u8],
    signature: &[u8],
) -> Option<bool> {
    if spki.algorithm.oid != RSA_ENCRYPTION {
        return None;
    }
    let (modulus, exponent) = rsa_public_key(spki.subject_public_key.as_bytes()?)?;
    let k = modulus.len();
    let bits = k.checked_mul(8)?;
    let top = modulus.first().copied()?;
    let modulus_bits = bits.checked_sub(usize::try_from(top.leading_zeros()).ok()?)?;
    if !(MIN_BITS..=MAX_BITS).contains(&modulus_bits) || signature.len() != k {
        return None;
    }
    if exponent.is_empty() || exponent.len() > 8 || exponent.last()? & 1 == 0 || exponent == [1] {
        return None;
    }
    let (prefix, digest): (&[u8], Vec<u8>) = match algorithm {
        a if a == SHA256_WITH_RSA => (&SHA256_PREFIX, sha2::Sha256::digest(message).to_vec()),
        a if a == SHA384_WITH_RSA => (&SHA384_PREFIX, sha2::Sha384::digest(message).to_vec()),
        a if a == SHA512_WITH_RSA => (&SHA512_PREFIX, sha2::Sha512::digest(message).to_vec()),
        _ => return None,
    };
    // s ≥ n is an invalid signature (RFC 8017 §5.2.2), not a malformed key.
    let Some(em) = modpow::modpow(signature, exponent, modulus) else {
        return Some(false);
    };
    // EM = 0x00 || 0x01 || PS (0xff, at least 8) || 0x00 || DigestInfo (RFC 8017 §9.2).
    let tail = prefix.len().checked_add(digest.len())?;
    let padding = k.checked_sub(tail)?.checked_sub(3)?;
    if padding < 8 {
        return None;
    }
    let mut expected = Vec::with_capacity(k);
    expected.extend_from_slice(&[0x00, 0x01]);
    expected.resize(padding.checked_add(2)?, 0xff);
    expected.push(0x00);
    expected.extend_from_slice(prefix);
    expected.extend_from_slice(&digest);
    Some(expected == em)
}

/// `RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }` (RFC 8017 A.1.1):
/// the modulus and the exponent, big-endian without leading zeros.
fn rsa_public_key(der: &[u8]) -> Option<(&[u8], &[u8])> {
    let mut reader = SliceReader::new(der).ok()?;
    let parts = reader
        .sequence(|seq| {
            let n = UintRef::decode(seq)?;
            let e = UintRef::decode(seq)?;
            Ok::<_, der::Error>((n.as_bytes(), e.as_bytes()))
        })
        .ok()?;
    reader.finish().ok()?;
    Some(parts)
}
