//! Arithmetic modulo p = 2^384 − 2^128 − 2^96 + 2^32 − 1 for verification only: twelve 32-bit
//! limbs (wasm32 multiplies 32 × 32 → 64 bits natively; 64-bit limbs need a 128-bit product
//! wasm does not have, and that helper call was half of RustCrypto's verify time there),
//! schoolbook products and the special form of p for reduction (NIST's fast reduction,
//! "Guide to Elliptic Curve Cryptography" Algorithm 2.30). Variable time: everything a
//! verifier computes on is public.

// Limb loops read as the formulas they implement; `as u32` keeps a sum's low 32 bits.
#![allow(clippy::needless_range_loop)]

/// Runs `$body` once per limb index `0..12`, `$i` bound to the index: straight-line code with
/// constant indices, so that a product's limbs live in locals (wasm registers), not in a
/// stack array walked by a loop. The release build optimises this crate for size ("z"),
/// which never unrolls a loop: with the loops rolled, a software verification in wasm took
/// about 1.85 ms, unrolled 1.17 ms (tests/bench/p384.mjs, same run), for 2 KB gzip.
macro_rules! each_limb {
    ($i:ident => $body:block) => {
        each_limb!(@ $i $body; 0 1 2 3 4 5 6 7 8 9 10 11)
    };
    (@ $i:ident $body:block; $($n:literal)*) => {
        $(
            // The last copy's carry is never read.
            #[allow(unused_assignments)]
            {
                let $i: usize = $n;
                $body
            }
        )*
    };
}

/// p, least significant limb first.
pub(super) const P: [u32; 12] = [
    0xffff_ffff,
    0,
    0,
    0xffff_ffff,
    0xffff_fffe,
    0xffff_ffff,
    0xffff_ffff,
    0xffff_ffff,
    0xffff_ffff,
    0xffff_ffff,
    0xffff_ffff,
    0xffff_ffff,
];

/// An element of the field, always fully reduced (below p), least significant limb first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Fe(pub(super) [u32; 12]);

impl Fe {
    pub(super) const ZERO: Self = Self([0; 12]);
    pub(super) const ONE: Self = Self([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

    /// From 48 big-endian bytes; `None` unless the value is below p.
    pub(super) fn from_be_bytes(bytes: &[u8; 48]) -> Option<Self> {
        let limbs = limbs_of(bytes);
        lt(&limbs, &P).then_some(Self(limbs))
    }

    pub(super) fn is_zero(&self) -> bool {
        self.0 == [0; 12]
    }

    pub(super) fn add(&self, rhs: &Self) -> Self {
        let mut r = [0u32; 12];
        let mut carry = 0u64;
        each_limb!(i => {
            carry += u64::from(self.0[i]) + u64::from(rhs.0[i]);
            r[i] = carry as u32;
            carry >>= 32;
        });
        if carry != 0 || !lt(&r, &P) {
            sub_in_place(&mut r, &P);
        }
        Self(r)
    }

    pub(super) fn sub(&self, rhs: &Self) -> Self {
        let mut r = [0u32; 12];
        let mut borrow = 0i64;
        each_limb!(i => {
            borrow += i64::from(self.0[i]) - i64::from(rhs.0[i]);
            r[i] = borrow as u32;
            borrow >>= 32;
        });
        if borrow != 0 {
            add_in_place(&mut r, &P);
        }
        Self(r)
    }

    pub(super) fn double(&self) -> Self {
        self.add(self)
    }

    pub(super) fn neg(&self) -> Self {
        Self::ZERO.sub(self)
    }

    pub(super) fn mul(&self, rhs: &Self) -> Self {
        let (a, b) = (&self.0, &rhs.0);
        let mut t = [0u32; 24];
        each_limb!(i => {
            let ai = u64::from(a[i]);
            let mut carry = 0u64;
            each_limb!(j => {
                let v = u64::from(t[i + j]) + ai * u64::from(b[j]) + carry;
                t[i + j] = v as u32;
                carry = v >> 32;
            });
            t[i + 12] = carry as u32;
        });
        reduce(&t)
    }

    pub(super) fn square(&self) -> Self {
        // Cross products once, doubled, then the squares on the diagonal.
        let a = &self.0;
        let mut t = [0u32; 24];
        each_limb!(i => {
            let ai = u64::from(a[i]);
            let mut carry = 0u64;
            // Only j > i: the condition is a constant in each unrolled copy.
            each_limb!(j => {
                if j > i {
                    let v = u64::from(t[i + j]) + ai * u64::from(a[j]) + carry;
                    t[i + j] = v as u32;
                    carry = v >> 32;
                }
            });
            if i < 11 {
                t[i + 12] = carry as u32;
            }
        });
        let mut carry = 0u64;
        each_limb!(i => {
            let sq = u64::from(a[i]) * u64::from(a[i]);
            let lo = (u64::from(t[2 * i]) << 1) + (sq & 0xffff_ffff) + carry;
            t[2 * i] = lo as u32;
            let hi = (u64::from(t[2 * i + 1]) << 1) + (sq >> 32) + (lo >> 32);
            t[2 * i + 1] = hi as u32;
            carry = hi >> 32;
        });
        reduce(&t)
    }
}

/// 48 big-endian bytes as limbs, least significant first.
pub(super) fn limbs_of(bytes: &[u8; 48]) -> [u32; 12] {
    let mut limbs = [0u32; 12];
    for (i, chunk) in bytes.rchunks_exact(4).enumerate() {
        limbs[i] = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
    }
    limbs
}

/// `a < b`, both least significant limb first.
pub(super) fn lt(a: &[u32; 12], b: &[u32; 12]) -> bool {
    for i in (0..12).rev() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
    }
    false
}

fn sub_in_place(r: &mut [u32; 12], m: &[u32; 12]) {
    let mut borrow = 0i64;
    each_limb!(i => {
        borrow += i64::from(r[i]) - i64::from(m[i]);
        r[i] = borrow as u32;
        borrow >>= 32;
    });
}

fn add_in_place(r: &mut [u32; 12], m: &[u32; 12]) {
    let mut carry = 0u64;
    each_limb!(i => {
        carry += u64::from(r[i]) + u64::from(m[i]);
        r[i] = carry as u32;
        carry >>= 32;
    });
}

/// The 768-bit `c` (limbs c0..c23) modulo p: s1 + 2·s2 + s3 + s4 + s5 + s6 + s7 − d1 − d2 −
/// d3 (each a 384-bit integer made of c's limbs), then the carry out of limb 11 folded back
/// with 2^384 ≡ 2^128 + 2^96 − 2^32 + 1 until none is left, then at most two subtractions
/// of p.
fn reduce(c: &[u32; 24]) -> Fe {
    let mut wide = [0i64; 24];
    each_limb!(i => {
        wide[i] = i64::from(c[i]);
        wide[i + 12] = i64::from(c[i + 12]);
    });
    let c = wide;
    // Limb by limb, as in Algorithm 2.30 (s2 counted twice).
    let w = [
        c[0] + c[12] + c[21] + c[20] - c[23],
        c[1] + c[13] + c[22] + c[23] - c[12] - c[20],
        c[2] + c[14] + c[23] - c[13] - c[21],
        c[3] + c[15] + c[12] + c[20] + c[21] - c[14] - c[22] - c[23],
        c[4] + 2 * c[21] + c[16] + c[13] + c[12] + c[20] + c[22] - c[15] - 2 * c[23],
        c[5] + 2 * c[22] + c[17] + c[14] + c[13] + c[21] + c[23] - c[16],
        c[6] + 2 * c[23] + c[18] + c[15] + c[14] + c[22] - c[17],
        c[7] + c[19] + c[16] + c[15] + c[23] - c[18],
        c[8] + c[20] + c[17] + c[16] - c[19],
        c[9] + c[21] + c[18] + c[17] - c[20],
        c[10] + c[22] + c[19] + c[18] - c[21],
        c[11] + c[23] + c[20] + c[19] - c[22],
    ];
    let mut r = [0u32; 12];
    let mut carry = propagate(&w, &mut r);
    while carry != 0 {
        // carry · 2^384 ≡ carry · (2^128 + 2^96 − 2^32 + 1)
        let mut w = r.map(i64::from);
        w[0] += carry;
        w[1] -= carry;
        w[3] += carry;
        w[4] += carry;
        carry = propagate(&w, &mut r);
    }
    while !lt(&r, &P) {
        sub_in_place(&mut r, &P);
    }
    Fe(r)
}

/// Signed limb sums to limbs; returns the carry out of the top limb.
fn propagate(w: &[i64; 12], r: &mut [u32; 12]) -> i64 {
    let mut carry = 0i64;
    each_limb!(i => {
        carry += w[i];
        r[i] = carry as u32;
        carry >>= 32;
    });
    carry
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn fe(limbs: [u32; 12]) -> Fe {
        let mut r = limbs;
        while !lt(&r, &P) {
            sub_in_place(&mut r, &P);
        }
        Fe(r)
    }

    /// a · b by double-and-add: a reference that relies on `add` alone.
    fn slow_mul(a: &Fe, b: &Fe) -> Fe {
        let mut acc = Fe::ZERO;
        for i in (0..384).rev() {
            acc = acc.double();
            if (b.0[i / 32] >> (i % 32)) & 1 == 1 {
                acc = acc.add(a);
            }
        }
        acc
    }

    fn p_minus(k: u32) -> Fe {
        let mut r = P;
        r[0] -= k;
        Fe(r)
    }

    #[test]
    fn edges() {
        let m1 = p_minus(1);
        assert_eq!(m1.add(&Fe::ONE), Fe::ZERO);
        assert_eq!(Fe::ZERO.sub(&Fe::ONE), m1);
        assert_eq!(m1.mul(&m1), Fe::ONE);
        assert_eq!(m1.square(), Fe::ONE);
        assert_eq!(m1.neg(), Fe::ONE);
        assert_eq!(Fe::ZERO.neg(), Fe::ZERO);
        for a in [
            m1,
            p_minus(2),
            Fe([u32::MAX - 1; 12]).add(&Fe::ZERO),
            Fe::ONE,
            Fe::ZERO,
        ] {
            for b in [m1, p_minus(3), Fe::ONE, Fe::ZERO, fe([0xffff_ffff; 12])] {
                assert_eq!(a.mul(&b), slow_mul(&a, &b));
            }
            assert_eq!(a.square(), slow_mul(&a, &a));
        }
        let mut bytes = [0xffu8; 48];
        assert_eq!(Fe::from_be_bytes(&bytes), None);
        for (i, limb) in P.iter().rev().enumerate() {
            bytes[i * 4..i * 4 + 4].copy_from_slice(&limb.to_be_bytes());
        }
        assert_eq!(Fe::from_be_bytes(&bytes), None);
        bytes[47] -= 1;
        assert_eq!(Fe::from_be_bytes(&bytes), Some(m1));
    }

    proptest! {
        #[test]
        fn arithmetic_matches_the_reference(a in any::<[u32; 12]>(), b in any::<[u32; 12]>()) {
            let (a, b) = (fe(a), fe(b));
            prop_assert_eq!(a.mul(&b), slow_mul(&a, &b));
            prop_assert_eq!(a.square(), slow_mul(&a, &a));
            prop_assert_eq!(a.add(&b).sub(&b), a);
            prop_assert_eq!(a.sub(&b).add(&b), a);
            prop_assert_eq!(a.add(&a.neg()), Fe::ZERO);
        }
    }
}
