//! Timing shared by the native benchmarks that race one function against its yardstick:
//! rounds alternate between the two so that a shared machine's load hits both alike, and
//! each side's median round is reported.

use core::time::Duration;
use std::time::Instant;

/// The mean time of one call of `f` over `inner` calls.
pub(crate) fn sample(f: &mut impl FnMut(), inner: u32) -> Duration {
    let t = Instant::now();
    for _ in 0..inner {
        f();
    }
    t.elapsed() / inner
}

/// Medians, in µs, of `ours` and `yardstick` over `rounds` alternating samples of `inner`
/// calls each.
pub(crate) fn race(
    ours: &mut impl FnMut(),
    yardstick: &mut impl FnMut(),
    rounds: usize,
    inner: u32,
) -> (f64, f64) {
    let (mut a, mut b) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    for _ in 0..rounds {
        a.push(sample(ours, inner));
        b.push(sample(yardstick, inner));
    }
    a.sort();
    b.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    (us(a[rounds / 2]), us(b[rounds / 2]))
}
