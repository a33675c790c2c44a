//! ECDSA P-384 verification for the software backend, fast in wasm: u1·G + u2·Q by one
//! interleaved width-5 NAF pass (Shamir's trick) in Jacobian coordinates, G's odd multiples
//! fixed at compile time ([`table`]), field arithmetic on 32-bit limbs ([`field`]), SEC1 keys
//! decoded with the same arithmetic ([`sec1`]). Scalars (r, s, s⁻¹, u1, u2) stay RustCrypto's,
//! which also parses the signature.
//! Verification computes on public values only, so all of it is variable time; signing
//! stays with RustCrypto's constant-time code.

// Limb loops read as the formulas they implement.
#![allow(clippy::needless_range_loop)]

mod field;
mod point;
mod sec1;
mod table;

pub(in crate::crypto) use point::Affine;
pub(in crate::crypto) use sec1::{decode as decode_sec1, encode as encode_sec1};

use p384::ecdsa::Signature;
use p384::elliptic_curve::ops::{Invert, Reduce};
use p384::{FieldBytes, Scalar};

use field::{lt, Fe};
use point::Jacobian;
use table::G_ODD_MULTIPLES;

/// The group order n, least significant limb first.
const N: [u32; 12] = [
    0xccc5_2973,
    0xecec_196a,
    0x48b0_a77a,
    0x581a_0db2,
    0xf437_2ddf,
    0xc763_4d81,
    0xffff_ffff,
    0xffff_ffff,
    0xffff_ffff,
    0xffff_ffff,
    0xffff_ffff,
    0xffff_ffff,
];

/// NAF widths: 5 for G (its 8 odd multiples are fixed; width 7's 32 cost 2.3 KB more gzip for
/// 4 % of a verification), 5 for Q (8 odd multiples built per verification: a wider table
/// costs more to build than it saves).
const G_WIDTH: u32 = 5;
const Q_WIDTH: u32 = 5;
const Q_TABLE: usize = 1 << (Q_WIDTH - 2);
/// Digits of a NAF of a scalar below n: one more than its bits.
const DIGITS: usize = 385;

/// Whether `signature` is a valid ECDSA signature by `key` of the message whose SHA-384
/// digest is `prehash` (48 bytes): x(u1·G + u2·Q) ≡ r (mod n) with u1 = z·s⁻¹, u2 = r·s⁻¹
/// (FIPS 186-5 §6.4.2; high s accepted).
pub(in crate::crypto) fn verify_prehash(
    key: &Affine,
    prehash: &[u8; 48],
    signature: &Signature,
) -> bool {
    let (r, s) = signature.split_scalars();
    let z = <Scalar as Reduce<FieldBytes>>::reduce(&FieldBytes::from(*prehash));
    let s_inv = *s.invert_vartime();
    let u1 = z * s_inv;
    let u2 = *r * s_inv;

    let sum = lincomb(&u1.to_bytes().into(), key, &u2.to_bytes().into());
    if sum.is_identity() {
        return false;
    }
    // x(sum) = X/Z² is below p < 2n, so x mod n is r when X = r·Z², or when r + n < p and
    // X = (r + n)·Z²: no inversion.
    let zz = sum.z.square();
    let r_bytes: [u8; 48] = r.to_bytes().into();
    let r_limbs = field::limbs_of(&r_bytes);
    if Fe(r_limbs).mul(&zz) == sum.x {
        return true;
    }
    let (r_plus_n, carry) = add_limbs(&r_limbs, &N);
    !carry && lt(&r_plus_n, &field::P) && Fe(r_plus_n).mul(&zz) == sum.x
}

fn add_limbs(a: &[u32; 12], b: &[u32; 12]) -> ([u32; 12], bool) {
    let mut r = [0u32; 12];
    let mut carry = 0u64;
    for i in 0..12 {
        carry += u64::from(a[i]) + u64::from(b[i]);
        r[i] = carry as u32;
        carry >>= 32;
    }
    (r, carry != 0)
}

/// u1·G + u2·Q, scalars as 48 big-endian bytes.
fn lincomb(u1: &[u8; 48], q: &Affine, u2: &[u8; 48]) -> Jacobian {
    let d1 = naf(u1, G_WIDTH);
    let d2 = naf(u2, Q_WIDTH);
    let q1 = Jacobian::from_affine(q);
    let q2 = q1.double();
    let mut q_table = [q1; Q_TABLE];
    for k in 1..Q_TABLE {
        q_table[k] = q_table[k - 1].add(&q2);
    }
    let mut acc = Jacobian::IDENTITY;
    for i in (0..DIGITS).rev() {
        if !acc.is_identity() {
            acc = acc.double();
        }
        let g = d1[i];
        if g != 0 {
            let entry = &G_ODD_MULTIPLES[usize::from(g.unsigned_abs() / 2)];
            acc = acc.add_affine(&if g > 0 { *entry } else { entry.neg() });
        }
        let d = d2[i];
        if d != 0 {
            let entry = &q_table[usize::from(d.unsigned_abs() / 2)];
            acc = acc.add(&if d > 0 { *entry } else { entry.neg() });
        }
    }
    acc
}

/// The width-`w` NAF of a 384-bit big-endian scalar: digits odd and below 2^(w−1) in
/// magnitude, or zero, least significant first; at most one of any w consecutive digits is
/// non-zero.
fn naf(scalar: &[u8; 48], w: u32) -> [i8; DIGITS] {
    let mut k = [0u32; 13];
    k[..12].copy_from_slice(&field::limbs_of(scalar));
    let mut digits = [0i8; DIGITS];
    let window = 1u32 << w;
    let half = 1i32 << (w - 1);
    let mut i = 0;
    while k != [0; 13] && i < DIGITS {
        if k[0] & 1 == 1 {
            let mut digit = (k[0] & (window - 1)) as i32;
            if digit >= half {
                digit -= window as i32;
            }
            // k −= digit, which clears the low w bits of k.
            if digit > 0 {
                sub_small(&mut k, digit as u32);
            } else {
                add_small(&mut k, digit.unsigned_abs());
            }
            digits[i] = digit as i8;
        }
        shr1(&mut k);
        i += 1;
    }
    digits
}

fn add_small(k: &mut [u32; 13], v: u32) {
    let mut carry = u64::from(v);
    for limb in k.iter_mut() {
        carry += u64::from(*limb);
        *limb = carry as u32;
        carry >>= 32;
        if carry == 0 {
            break;
        }
    }
}

fn sub_small(k: &mut [u32; 13], v: u32) {
    let mut borrow = i64::from(v);
    for limb in k.iter_mut() {
        let x = i64::from(*limb) - borrow;
        *limb = x as u32;
        borrow = i64::from(x < 0);
        if borrow == 0 {
            break;
        }
    }
}

fn shr1(k: &mut [u32; 13]) {
    for i in 0..13 {
        let high = if i + 1 < 13 { k[i + 1] << 31 } else { 0 };
        k[i] = (k[i] >> 1) | high;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use p384::ecdsa::signature::{Signer, Verifier};
    use p384::ecdsa::SigningKey;
    use p384::elliptic_curve::sec1::ToSec1Point;
    use p384::ProjectivePoint;
    use proptest::prelude::*;

    /// a^(p−2): the inverse, by the field's own operations (tests only).
    fn invert(a: &Fe) -> Fe {
        let mut e = field::P;
        e[0] -= 2;
        let mut acc = Fe::ONE;
        for i in (0..384).rev() {
            acc = acc.square();
            if (e[i / 32] >> (i % 32)) & 1 == 1 {
                acc = acc.mul(a);
            }
        }
        acc
    }

    /// Affine coordinates as SEC1 bytes, `None` for the identity.
    fn sec1_of(p: &Jacobian) -> Option<[u8; 96]> {
        if p.is_identity() {
            return None;
        }
        let zi = invert(&p.z);
        let zi2 = zi.square();
        let (x, y) = (p.x.mul(&zi2), p.y.mul(&zi2.mul(&zi)));
        let mut out = [0u8; 96];
        for (k, limb) in x.0.iter().rev().chain(y.0.iter().rev()).enumerate() {
            out[k * 4..k * 4 + 4].copy_from_slice(&limb.to_be_bytes());
        }
        Some(out)
    }

    fn sec1_of_reference(p: &ProjectivePoint) -> Option<[u8; 96]> {
        let encoded = p.to_affine().to_sec1_point(false);
        let bytes = encoded.as_bytes();
        (bytes.len() == 97).then(|| bytes[1..].try_into().unwrap())
    }

    fn affine_of(p: &ProjectivePoint) -> Affine {
        let encoded = p.to_affine().to_sec1_point(false);
        Affine {
            x: fe(encoded.x().unwrap()).unwrap(),
            y: fe(encoded.y().unwrap()).unwrap(),
        }
    }

    fn fe(bytes: &[u8]) -> Option<Fe> {
        Fe::from_be_bytes(bytes.try_into().ok()?)
    }

    fn scalar(bytes: [u8; 48]) -> Scalar {
        <Scalar as Reduce<FieldBytes>>::reduce(&FieldBytes::from(bytes))
    }

    #[test]
    fn base_table_is_the_odd_multiples_of_g() {
        for (k, entry) in G_ODD_MULTIPLES.iter().enumerate() {
            let multiple = ProjectivePoint::GENERATOR * Scalar::from(2 * k as u64 + 1);
            assert_eq!(*entry, affine_of(&multiple), "{}G", 2 * k + 1);
        }
    }

    #[test]
    fn exceptional_sums() {
        let g = ProjectivePoint::GENERATOR;
        let one = Scalar::ONE;
        let minus_one = -Scalar::ONE;
        let n_minus = |v: u64| -Scalar::from(v);
        // Q = G, −G, 2G, 3G with scalars that make the accumulator meet Q's table entries.
        for q in [g, -g, g + g, g * Scalar::from(3u64), g * n_minus(3)] {
            for (a, b) in [
                (one, one),
                (one, minus_one),
                (minus_one, one),
                (Scalar::from(2u64), n_minus(1)),
                (Scalar::from(5u64), Scalar::from(7u64)),
                (Scalar::ZERO, Scalar::from(5u64)),
                (Scalar::from(5u64), Scalar::ZERO),
                (Scalar::ZERO, Scalar::ZERO),
                (n_minus(64), Scalar::from(64u64)),
            ] {
                let ours = lincomb(&a.to_bytes().into(), &affine_of(&q), &b.to_bytes().into());
                let reference = g * a + q * b;
                assert_eq!(sec1_of(&ours), sec1_of_reference(&reference));
            }
        }
    }

    #[test]
    fn naf_digits_sum_to_the_scalar() {
        for bytes in [
            [0xffu8; 48],
            [0u8; 48],
            [0x55u8; 48],
            (-Scalar::ONE).to_bytes().into(),
        ] {
            for w in [5, 7] {
                let digits = naf(&bytes, w);
                // Horner from the top, in the scalar field.
                let mut acc = Scalar::ZERO;
                for &d in digits.iter().rev() {
                    acc = acc.double();
                    let v = Scalar::from(u64::from(d.unsigned_abs()));
                    acc = if d < 0 { acc - v } else { acc + v };
                    assert!(d == 0 || (d % 2 != 0 && i32::from(d).abs() < 1 << (w - 1)));
                }
                assert_eq!(acc, scalar(bytes));
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn lincomb_matches_rustcrypto(a in any::<[u8; 48]>(), b in any::<[u8; 48]>(), d in any::<[u8; 48]>()) {
            let (a, b) = (scalar(a), scalar(b));
            let q = ProjectivePoint::GENERATOR * scalar(d);
            prop_assume!(!bool::from(q.to_affine().is_identity()));
            let ours = lincomb(&a.to_bytes().into(), &affine_of(&q), &b.to_bytes().into());
            prop_assert_eq!(sec1_of(&ours), sec1_of_reference(&(ProjectivePoint::GENERATOR * a + q * b)));
        }

        #[test]
        fn verdicts_match_rustcrypto(d in any::<[u8; 48]>(), message in any::<[u8; 40]>(), flip in 0usize..96, junk in any::<[u8; 48]>()) {
            let Ok(key) = SigningKey::from_slice(&d) else { return Ok(()) };
            let signature: Signature = key.sign(&message);
            let verifying = key.verifying_key();
            let q = decode_sec1(verifying.to_sec1_point(false).as_bytes()).unwrap();
            let digest: [u8; 48] = <sha2::Sha384 as sha2::Digest>::digest(message).into();
            prop_assert!(verify_prehash(&q, &digest, &signature));
            // High s verifies too.
            let (r, s) = signature.split_scalars();
            let high = Signature::from_scalars(*r, -*s).unwrap();
            prop_assert!(verify_prehash(&q, &digest, &high));
            // Any changed byte: as RustCrypto says (which refuses it).
            let mut bytes: [u8; 96] = signature.to_bytes().into();
            bytes[flip] ^= 1;
            if let Ok(changed) = Signature::from_slice(&bytes) {
                prop_assert_eq!(verify_prehash(&q, &digest, &changed), verifying.verify(&message, &changed).is_ok());
                prop_assert!(!verify_prehash(&q, &digest, &changed));
            }
            let mut other = digest;
            other[0] ^= 0x80;
            prop_assert!(!verify_prehash(&q, &other, &signature));
            // r taken from another point: the x-coordinate test with r + n.
            let mut forged = [0u8; 96];
            forged[..48].copy_from_slice(&junk);
            forged[48..].copy_from_slice(&bytes[48..]);
            if let Ok(forged) = Signature::from_slice(&forged) {
                prop_assert_eq!(verify_prehash(&q, &digest, &forged), verifying.verify(&message, &forged).is_ok());
            }
        }
    }
}
