//! `s^e mod n` for RSA public keys, with Montgomery multiplication over 32-bit limbs.
//!
//! Hand-written rather than taken from `crypto-bigint` (or the `rsa` crate built on it): its
//! boxed Montgomery arithmetic, compiled at the opt-level the P-384 code needs, added about
//! 75 KB of code to every wasm module that verifies tokens, for one public-key operation per
//! signer key. Only public values are involved (modulus, exponent, signature), so variable
//! time is fine. Checked against `crypto-bigint` below.

use alloc::vec;
use alloc::vec::Vec;

/// An odd modulus with its Montgomery constants (R = 2^(32·limbs)).
struct Modulus {
    /// Little-endian limbs, the top one non-zero.
    n: Vec<u32>,
    /// -n⁻¹ mod 2³².
    n0_inv: u32,
}

/// `base^exponent mod modulus`, all big-endian bytes; `None` unless the modulus is odd and
/// above one, and the base below it. The result has the modulus's byte length.
pub(crate) fn modpow(base: &[u8], exponent: &[u8], modulus: &[u8]) -> Option<Vec<u8>> {
    let n = limbs(modulus);
    let n = n
        .get(..n.iter().rposition(|&limb| limb != 0)?.checked_add(1)?)?
        .to_vec();
    let first = *n.first()?;
    if first & 1 == 0 || (n.len() == 1 && first == 1) {
        return None;
    }
    let m = Modulus {
        n0_inv: neg_inverse(first),
        n,
    };
    let k = m.n.len();
    let mut s = limbs(base);
    if s.iter().skip(k).any(|&limb| limb != 0) {
        return None;
    }
    s.resize(k, 0);
    if !less(&s, &m.n) {
        return None;
    }
    let one = m.r_mod_n();
    let r2 = m.r_squared(&one);
    let s_mont = m.mul(&s, &r2);
    let mut acc = one;
    for byte in exponent {
        for bit in (0..8).rev() {
            acc = m.mul(&acc, &acc);
            if byte >> bit & 1 == 1 {
                acc = m.mul(&acc, &s_mont);
            }
        }
    }
    let mut unit = vec![0u32; k];
    *unit.first_mut()? = 1;
    let out = m.mul(&acc, &unit);
    let mut bytes: Vec<u8> = out
        .iter()
        .rev()
        .flat_map(|limb| limb.to_be_bytes())
        .collect();
    let extra = bytes.len().checked_sub(modulus.len())?;
    if bytes.get(..extra)?.iter().any(|&b| b != 0) {
        return None;
    }
    bytes.drain(..extra);
    Some(bytes)
}

impl Modulus {
    /// Montgomery product `a·b·R⁻¹ mod n` of `a, b < n` (CIOS, Koç et al. 1996).
    fn mul(&self, a: &[u32], b: &[u32]) -> Vec<u32> {
        let k = self.n.len();
        let mut t = vec![0u32; k + 2];
        for &b_i in b.iter().take(k) {
            let mut carry = 0u64;
            for (t_j, &a_j) in t.iter_mut().zip(a) {
                let sum = u64::from(*t_j) + u64::from(a_j) * u64::from(b_i) + carry;
                *t_j = sum as u32;
                carry = sum >> 32;
            }
            let sum = u64::from(t[k]) + carry;
            t[k] = sum as u32;
            t[k + 1] = (sum >> 32) as u32;
            let m = t[0].wrapping_mul(self.n0_inv);
            let mut carry = (u64::from(t[0]) + u64::from(m) * u64::from(self.n[0])) >> 32;
            for j in 1..k {
                let sum = u64::from(t[j]) + u64::from(m) * u64::from(self.n[j]) + carry;
                t[j - 1] = sum as u32;
                carry = sum >> 32;
            }
            let sum = u64::from(t[k]) + carry;
            t[k - 1] = sum as u32;
            t[k] = t[k + 1] + (sum >> 32) as u32;
        }
        let high = t[k];
        t.truncate(k);
        if high != 0 || !less(&t, &self.n) {
            sub_in_place(&mut t, &self.n);
        }
        t
    }

    /// `R mod n`: from 2^(32(k-1)), which is below `n` (its top limb is non-zero and `n` is
    /// odd), doubled modulo `n` 32 times.
    fn r_mod_n(&self) -> Vec<u32> {
        let k = self.n.len();
        let mut x = vec![0u32; k];
        x[k - 1] = 1;
        if !less(&x, &self.n) {
            sub_in_place(&mut x, &self.n);
        }
        for _ in 0..32 {
            self.double(&mut x);
        }
        x
    }

    /// `R² mod n` from `one = R mod n`: the Montgomery form of 2^(32k), by squaring and
    /// doubling along the bits of 32k.
    fn r_squared(&self, one: &[u32]) -> Vec<u32> {
        let power = self.n.len() * 32;
        let mut x = one.to_vec();
        for bit in (0..usize::BITS - power.leading_zeros()).rev() {
            x = self.mul(&x, &x);
            if power >> bit & 1 == 1 {
                self.double(&mut x);
            }
        }
        x
    }

    /// `x = 2x mod n` for `x < n`.
    fn double(&self, x: &mut [u32]) {
        let mut carry = 0u32;
        for limb in x.iter_mut() {
            let next = *limb >> 31;
            *limb = *limb << 1 | carry;
            carry = next;
        }
        if carry != 0 || !less(x, &self.n) {
            sub_in_place(x, &self.n);
        }
    }
}

/// -a⁻¹ mod 2³² for odd `a` (Newton's iteration doubles the correct low bits each step).
fn neg_inverse(a: u32) -> u32 {
    let mut inverse = a; // a·a ≡ 1 mod 8: three bits
    for _ in 0..4 {
        inverse = inverse.wrapping_mul(2u32.wrapping_sub(a.wrapping_mul(inverse)));
    }
    inverse.wrapping_neg()
}

/// Big-endian bytes as little-endian 32-bit limbs.
fn limbs(bytes: &[u8]) -> Vec<u32> {
    bytes
        .rchunks(4)
        .map(|chunk| chunk.iter().fold(0u32, |acc, &b| acc << 8 | u32::from(b)))
        .collect()
}

/// `a < b` for equal-length little-endian limbs.
fn less(a: &[u32], b: &[u32]) -> bool {
    for (x, y) in a.iter().rev().zip(b.iter().rev()) {
        if x != y {
            return x < y;
        }
    }
    false
}

/// `a -= b` modulo 2^(32·len) (the caller knows the true result is non-negative, or that
/// the borrow cancels a carry it dropped).
fn sub_in_place(a: &mut [u32], b: &[u32]) {
    let mut borrow = 0u64;
    for (x, &y) in a.iter_mut().zip(b) {
        let diff = u64::from(*x)
            .wrapping_sub(u64::from(y))
            .wrapping_sub(borrow);
        *x = diff as u32;
        borrow = diff >> 63;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crypto_bigint::modular::{BoxedMontyForm, BoxedMontyParams};
    use crypto_bigint::{BoxedUint, Odd};
    use proptest::prelude::*;

    /// The same operation with `crypto-bigint`; the exponent at its own precision.
    fn reference(base: &[u8], exponent: &[u8], modulus: &[u8]) -> Option<Vec<u8>> {
        let bits = |bytes: &[u8]| u32::try_from(bytes.len() * 8).ok();
        let n = BoxedUint::from_be_slice(modulus, bits(modulus)?).ok()?;
        let s = BoxedUint::from_be_slice(base, bits(modulus)?).ok()?;
        let e = BoxedUint::from_be_slice(exponent, bits(exponent)?).ok()?;
        let params = BoxedMontyParams::new_vartime(Odd::new(n).into_option()?);
        let out = BoxedMontyForm::new(s, &params)
            .pow(&e)
            .retrieve()
            .to_be_bytes();
        out.get(out.len() - modulus.len()..).map(<[u8]>::to_vec)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// Every odd modulus of 1 to 4096 bits, any base below it, small and full exponents.
        #[test]
        fn agrees_with_crypto_bigint(
            mut modulus in proptest::collection::vec(any::<u8>(), 1..=512),
            base_seed in proptest::collection::vec(any::<u8>(), 512),
            exponent in prop_oneof![
                Just(vec![0x01, 0x00, 0x01]),
                Just(vec![0x03]),
                proptest::collection::vec(any::<u8>(), 1..=8),
            ],
        ) {
            modulus[0] |= 0x80;
            *modulus.last_mut().unwrap_or(&mut 0) |= 1;
            prop_assume!(modulus != [1]);
            // A base below the modulus: the modulus's length, its top byte halved.
            let mut base = base_seed[..modulus.len()].to_vec();
            base[0] = modulus[0] >> 1;
            prop_assert_eq!(modpow(&base, &exponent, &modulus), reference(&base, &exponent, &modulus));
        }
    }

    #[test]
    fn refuses_even_moduli_and_bases_not_below_the_modulus() {
        assert_eq!(modpow(&[2], &[3], &[0x10]), None);
        assert_eq!(modpow(&[0x11], &[3], &[0x11]), None);
        assert_eq!(modpow(&[0x12], &[3], &[0x11]), None);
        assert_eq!(modpow(&[2], &[3], &[1]), None);
        assert_eq!(modpow(&[5], &[3], &[0x00, 0x0b]), Some(vec![0x00, 0x04])); // 125 mod 11
    }
}
