//! P-384 points in Jacobian coordinates (x = X/Z², y = Y/Z³; Z = 0 is the identity) with the
//! a = −3 doubling and the general and mixed additions of the Explicit-Formulas Database
//! (dbl-2001-b, add-2007-bl, madd-2007-bl), their exceptional cases handled: fewer field
//! multiplications than the complete projective formulas RustCrypto uses, which a verifier,
//! computing on public values only, does not need.

use super::field::Fe;

/// A point; `z` zero is the identity.
#[derive(Clone, Copy, Debug)]
pub(super) struct Jacobian {
    pub(super) x: Fe,
    pub(super) y: Fe,
    pub(super) z: Fe,
}

/// An affine point (never the identity).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::crypto) struct Affine {
    pub(super) x: Fe,
    pub(super) y: Fe,
}

impl Affine {
    pub(super) fn neg(&self) -> Self {
        Self {
            x: self.x,
            y: self.y.neg(),
        }
    }
}

impl Jacobian {
    pub(super) const IDENTITY: Self = Self {
        x: Fe::ONE,
        y: Fe::ONE,
        z: Fe::ZERO,
    };

    pub(super) fn from_affine(p: &Affine) -> Self {
        Self {
            x: p.x,
            y: p.y,
            z: Fe::ONE,
        }
    }

    pub(super) fn is_identity(&self) -> bool {
        self.z.is_zero()
    }

    pub(super) fn neg(&self) -> Self {
        Self {
            x: self.x,
            y: self.y.neg(),
            z: self.z,
        }
    }

    /// 2·self (dbl-2001-b, a = −3). The identity stays the identity (Z3 = 0); P-384 has no
    /// point of order 2, so y is never zero otherwise.
    pub(super) fn double(&self) -> Self {
        let delta = self.z.square();
        let gamma = self.y.square();
        let beta = self.x.mul(&gamma);
        let t = self.x.sub(&delta).mul(&self.x.add(&delta));
        let alpha = t.double().add(&t);
        let beta4 = beta.double().double();
        let x3 = alpha.square().sub(&beta4.double());
        let z3 = self.y.add(&self.z).square().sub(&gamma).sub(&delta);
        let gamma2 = gamma.square();
        let y3 = alpha
            .mul(&beta4.sub(&x3))
            .sub(&gamma2.double().double().double());
        Self {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    /// self + q (add-2007-bl).
    pub(super) fn add(&self, q: &Self) -> Self {
        if self.is_identity() {
            return *q;
        }
        if q.is_identity() {
            return *self;
        }
        let z1z1 = self.z.square();
        let z2z2 = q.z.square();
        let u1 = self.x.mul(&z2z2);
        let u2 = q.x.mul(&z1z1);
        let s1 = self.y.mul(&q.z).mul(&z2z2);
        let s2 = q.y.mul(&self.z).mul(&z1z1);
        let h = u2.sub(&u1);
        let r = s2.sub(&s1).double();
        if h.is_zero() {
            // Same x: the same point (double it) or its negation (the sum is the identity).
            return if r.is_zero() {
                self.double()
            } else {
                Self::IDENTITY
            };
        }
        let i = h.double().square();
        let j = h.mul(&i);
        let v = u1.mul(&i);
        let x3 = r.square().sub(&j).sub(&v.double());
        let y3 = r.mul(&v.sub(&x3)).sub(&s1.mul(&j).double());
        let z3 = self.z.add(&q.z).square().sub(&z1z1).sub(&z2z2).mul(&h);
        Self {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    /// self + q for an affine q (madd-2007-bl).
    pub(super) fn add_affine(&self, q: &Affine) -> Self {
        if self.is_identity() {
            return Self::from_affine(q);
        }
        let z1z1 = self.z.square();
        let u2 = q.x.mul(&z1z1);
        let s2 = q.y.mul(&self.z).mul(&z1z1);
        let h = u2.sub(&self.x);
        let r = s2.sub(&self.y).double();
        if h.is_zero() {
            return if r.is_zero() {
                self.double()
            } else {
                Self::IDENTITY
            };
        }
        let hh = h.square();
        let i = hh.double().double();
        let j = h.mul(&i);
        let v = self.x.mul(&i);
        let x3 = r.square().sub(&j).sub(&v.double());
        let y3 = r.mul(&v.sub(&x3)).sub(&self.y.mul(&j).double());
        let z3 = self.z.add(&h).square().sub(&z1z1).sub(&hh);
        Self {
            x: x3,
            y: y3,
            z: z3,
        }
    }
}
