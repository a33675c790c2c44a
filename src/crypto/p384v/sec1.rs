//! SEC1 public points (SEC 1 v2 §2.3.4) decoded with this module's field arithmetic, so that
//! parsing a key does not pull RustCrypto's generic point decompression (its constant-time
//! square root alone was 11 KB of wasm). The forms and checks are exactly those of RustCrypto's
//! `PublicKey::from_sec1_bytes`, which this replaced: uncompressed `04‖x‖y` (97 bytes),
//! compressed `02‖x` / `03‖x` and compact `05‖x` (49 bytes); coordinates below p, the point on
//! the curve; the identity `00` and every other length refused. Public values: variable time.

use super::field::{lt, Fe, P};
use super::point::Affine;
use super::table::limbs_of_hex;

/// b of y² = x³ − 3x + b (NIST SP 800-186 §3.2.1.4).
const B: Fe = Fe(limbs_of_hex(
    "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef",
));

/// The point a SEC1 encoding names, `None` unless it is a valid non-identity P-384 point.
pub(in crate::crypto) fn decode(bytes: &[u8]) -> Option<Affine> {
    let (&tag, rest) = bytes.split_first()?;
    match (tag, rest.len()) {
        (4, 96) => {
            let x = fe(&rest[..48])?;
            let y = fe(&rest[48..])?;
            (y.square() == rhs(&x)).then_some(Affine { x, y })
        }
        (2 | 3 | 5, 48) => {
            let x = fe(rest)?;
            let beta = sqrt(&rhs(&x))?;
            let other = beta.neg();
            let y = if tag == 5 {
                // Compact form: the smaller of y and p − y (RustCrypto's `to_compact`).
                if lt(&other.0, &beta.0) {
                    other
                } else {
                    beta
                }
            } else if u8::from(beta.0[0] & 1 == 1) == tag & 1 {
                beta
            } else {
                other
            };
            Some(Affine { x, y })
        }
        _ => None,
    }
}

/// The uncompressed encoding `04‖x‖y`.
pub(in crate::crypto) fn encode(point: &Affine) -> [u8; 97] {
    let mut out = [0u8; 97];
    out[0] = 4;
    for (k, limb) in point
        .x
        .0
        .iter()
        .rev()
        .chain(point.y.0.iter().rev())
        .enumerate()
    {
        out[1 + k * 4..5 + k * 4].copy_from_slice(&limb.to_be_bytes());
    }
    out
}

fn fe(bytes: &[u8]) -> Option<Fe> {
    Fe::from_be_bytes(bytes.try_into().ok()?)
}

/// x³ − 3x + b.
fn rhs(x: &Fe) -> Fe {
    let three_x = x.double().add(x);
    x.square().mul(x).sub(&three_x).add(&B)
}

/// A square root of `a`, if it has one: a^((p+1)/4), as p ≡ 3 (mod 4).
fn sqrt(a: &Fe) -> Option<Fe> {
    // (p + 1) / 4: p + 1 carries out of the all-ones low limb, then two bits shift out.
    let mut e = P;
    e[0] = 0;
    e[1] = 1;
    for i in 0..12 {
        let high = if i + 1 < 12 { e[i + 1] << 30 } else { 0 };
        e[i] = (e[i] >> 2) | high;
    }
    let mut root = Fe::ONE;
    for i in (0..384).rev() {
        root = root.square();
        if (e[i / 32] >> (i % 32)) & 1 == 1 {
            root = root.mul(a);
        }
    }
    (root.square() == *a).then_some(root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use p384::elliptic_curve::sec1::{FromSec1Point, ToSec1Point};
    use p384::{AffinePoint, ProjectivePoint, Scalar};
    use proptest::prelude::*;

    /// RustCrypto's decoding of the same bytes, as uncompressed bytes.
    fn reference(bytes: &[u8]) -> Option<[u8; 97]> {
        let point = p384::Sec1Point::from_bytes(bytes).ok()?;
        let affine = Option::<AffinePoint>::from(AffinePoint::from_sec1_point(&point))?;
        let out = affine.to_sec1_point(false);
        out.as_bytes().try_into().ok()
    }

    fn ours(bytes: &[u8]) -> Option<[u8; 97]> {
        decode(bytes).map(|p| encode(&p))
    }

    #[test]
    fn refusals() {
        let g = ProjectivePoint::GENERATOR.to_affine().to_sec1_point(false);
        let g = g.as_bytes();
        assert!(ours(g).is_some());
        assert_eq!(ours(&[0]), None, "the identity");
        assert_eq!(ours(&[]), None);
        assert_eq!(ours(&g[..96]), None, "short");
        let mut long = g.to_vec();
        long.push(0);
        assert_eq!(ours(&long), None, "long");
        for tag in [0u8, 1, 6, 7, 0xff] {
            let mut other = g.to_vec();
            other[0] = tag;
            assert_eq!(ours(&other), None, "tag {tag}");
        }
        // y + 1: off the curve.
        let mut off = g.to_vec();
        off[96] ^= 1;
        assert_eq!(ours(&off), None);
        // x = p: not a canonical coordinate.
        let mut p_bytes = [0xffu8; 48];
        p_bytes[31] = 0xfe;
        p_bytes[32..40].copy_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0]);
        p_bytes[40..44].copy_from_slice(&[0xff; 4]);
        assert_eq!(ours(&[&[2u8][..], &p_bytes].concat()), None);
        assert_eq!(reference(&[&[2u8][..], &p_bytes].concat()), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn every_form_decodes_as_rustcrypto(d in any::<[u8; 48]>(), x in any::<[u8; 48]>(), tag in 0u8..8) {
            // A valid point in each form.
            let scalar = <Scalar as p384::elliptic_curve::ops::Reduce<p384::FieldBytes>>::reduce(&d.into());
            let point = (ProjectivePoint::GENERATOR * scalar).to_affine();
            prop_assume!(!bool::from(point.is_identity()));
            let uncompressed = point.to_sec1_point(false).as_bytes().to_vec();
            let compact = [&[5u8][..], &uncompressed[1..49]].concat();
            for bytes in [uncompressed.clone(), point.to_sec1_point(true).as_bytes().to_vec(), compact] {
                prop_assert_eq!(ours(&bytes), reference(&bytes));
                prop_assert!(ours(&bytes).is_some());
            }
            prop_assert_eq!(ours(&uncompressed).map(|b| b.to_vec()), Some(uncompressed));
            // Random x in a short form (about half are on the curve), random bytes in the long.
            let short = [&[tag][..], &x].concat();
            prop_assert_eq!(ours(&short), reference(&short));
            let long = [&[tag][..], &x, &d].concat();
            prop_assert_eq!(ours(&long), reference(&long));
        }
    }
}
