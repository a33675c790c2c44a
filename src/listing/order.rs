//! Ordering by integer keys: the list engine's one sort.
//!
//! Everything the engine orders (a column's values when a table is built, the rows of a
//! query) is first turned into `u64` keys whose integer order is the wanted order, with the
//! item's position packed into the low bits where keys must be unique. One LSD radix sort
//! and one MSD radix selection then serve every caller. No comparator closures: one small
//! copy of the code instead of a `core::slice::sort` instantiation per key type and closure
//! (those were over 100 KB of the wasm module), and linear passes over the keys
//! instead of `n log n` comparisons.

use alloc::vec::Vec;

/// Bits per radix digit: 256 counters stay in L1 and small inputs pay little for them.
const DIGIT: u32 = 8;
/// Inputs up to this length are sorted by insertion.
const SMALL: usize = 32;
const TOP: u64 = 1 << 63;

/// The bits needed to write `max` (0 for 0).
pub(crate) const fn bits_for(max: u64) -> u32 {
    u64::BITS - max.leading_zeros()
}

/// The low `bits` bits set (all 64 for 64 or more).
pub(crate) const fn low_mask(bits: u32) -> u64 {
    match u64::MAX.checked_shr(u64::BITS.saturating_sub(bits)) {
        Some(mask) if bits > 0 => mask,
        _ => 0,
    }
}

/// An `i64` as a key of the same order.
pub(crate) const fn int_key(value: i64) -> u64 {
    (value as u64) ^ TOP
}

/// The `i64` of an [`int_key`].
pub(crate) const fn int_value(key: u64) -> i64 {
    (key ^ TOP) as i64
}

/// An `f64` as a key in `total_cmp` order: negative numbers have all bits flipped,
/// non-negative ones the sign bit set.
pub(crate) fn num_key(value: f64) -> u64 {
    let bits = value.to_bits();
    if bits & TOP == 0 {
        bits | TOP
    } else {
        !bits
    }
}

/// The `f64` of a [`num_key`].
pub(crate) fn num_value(key: u64) -> f64 {
    f64::from_bits(if key & TOP == 0 { !key } else { key & !TOP })
}

/// Sorts `values` ascending; every value is below `2^bits`.
pub(crate) fn sort(values: &mut Vec<u64>, bits: u32) {
    if values.len() <= SMALL {
        insertion_sort(values);
        return;
    }
    let mut scratch = alloc::vec![0u64; values.len()];
    let mut shift = 0;
    while shift < bits.min(u64::BITS) {
        if scatter(values, &mut scratch, shift) {
            core::mem::swap(values, &mut scratch);
        }
        shift += DIGIT;
    }
}

/// One LSD pass: `to` receives `from` ordered (stably) by the digit at `shift`. Returns
/// false, writing nothing, when every value has the same digit there.
fn scatter(from: &[u64], to: &mut [u64], shift: u32) -> bool {
    let digit = |value: u64| usize::from((value >> shift) as u8);
    let mut offsets = [0usize; 1 << DIGIT];
    for &value in from {
        offsets[digit(value)] += 1;
    }
    if offsets.contains(&from.len()) {
        return false;
    }
    let mut sum = 0;
    for slot in &mut offsets {
        let count = *slot;
        *slot = sum;
        sum += count;
    }
    for &value in from {
        let slot = &mut offsets[digit(value)];
        if let Some(target) = to.get_mut(*slot) {
            *target = value;
        }
        *slot += 1;
    }
    true
}

fn insertion_sort(values: &mut [u64]) {
    for i in 1..values.len() {
        let mut j = i;
        while j > 0 {
            match values.get(j - 1..=j) {
                Some(&[a, b]) if a > b => values.swap(j - 1, j),
                _ => break,
            }
            j -= 1;
        }
    }
}

/// The values a sort of `values` (each below `2^bits`) would put at `start..end`, in order,
/// without sorting the rest: most-significant digits first, each pass keeping only the
/// values whose digit can place them in the window, until the window is all that is left
/// or it straddles digits.
pub(crate) fn page(mut values: Vec<u64>, bits: u32, start: usize, end: usize) -> Vec<u64> {
    let end = end.min(values.len());
    if start >= end {
        return Vec::new();
    }
    let (mut start, mut end) = (start, end);
    let mut shift = bits.min(u64::BITS);
    while shift > 0 && values.len() > end - start {
        shift = shift.saturating_sub(DIGIT);
        let digit = |value: u64| usize::from((value >> shift) as u8);
        let mut counts = [0usize; 1 << DIGIT];
        for &value in &values {
            counts[digit(value)] += 1;
        }
        // The digits of the window's first and last values, and how many values come
        // before the first one's digit.
        let (mut first, mut last, mut below, mut seen) = (0, 0, 0, 0);
        for (d, &count) in counts.iter().enumerate() {
            if seen + count <= start {
                below += count;
                first = d + 1;
            }
            seen += count;
            if seen >= end {
                last = d;
                break;
            }
        }
        values.retain(|&value| (first..=last).contains(&digit(value)));
        start -= below;
        end -= below;
        if first != last {
            // The survivors differ in this digit: lower digits no longer order them alone.
            break;
        }
    }
    sort(&mut values, bits);
    values.truncate(end);
    values.drain(..start);
    values
}

/// Dense ranks: the distinct values of `keys` in order, and for each key the position of
/// its value among them.
pub(crate) fn rank(mut keys: Vec<u64>) -> (Vec<u64>, Vec<u32>) {
    let n = keys.len();
    let (min, max) = keys
        .iter()
        .fold((u64::MAX, 0), |(lo, hi), &key| (lo.min(key), hi.max(key)));
    let mut ranks = alloc::vec![0u32; n];
    let mut distinct: Vec<u64> = Vec::new();
    if n == 0 {
        return (distinct, ranks);
    }
    let index_bits = bits_for(n as u64 - 1);
    let value_bits = bits_for(max - min);
    if value_bits + index_bits <= u64::BITS {
        // Key and position in one integer: one sort, then one sweep.
        for (key, index) in keys.iter_mut().zip(0u64..) {
            *key = ((*key - min) << index_bits) | index;
        }
        sort(&mut keys, value_bits + index_bits);
        for packed in keys {
            let key = (packed >> index_bits) + min;
            if distinct.last() != Some(&key) {
                distinct.push(key);
            }
            if let Some(slot) = ranks.get_mut((packed & low_mask(index_bits)) as usize) {
                *slot = (distinct.len() - 1) as u32;
            }
        }
    } else {
        // Keys too spread out to carry their position (numbers): sort the distinct keys
        // alone and look each one up.
        for key in &mut keys {
            *key -= min;
        }
        distinct.clone_from(&keys);
        sort(&mut distinct, value_bits);
        distinct.dedup();
        for (slot, key) in ranks.iter_mut().zip(&keys) {
            *slot = distinct.binary_search(key).unwrap_or_default() as u32;
        }
        for key in &mut distinct {
            *key += min;
        }
    }
    (distinct, ranks)
}

/// Dense ranks of `n` items by keys wider than 64 bits, and the number of distinct keys.
///
/// Item `i`'s key is a string of `total` bits; `chunk(i, from, len)` returns `len` (at most
/// 64) of them, starting `from` bits after the most significant. Each pass ranks the items
/// by their rank so far followed by the next chunk, so the last ranks order the whole key.
pub(crate) fn rank_wide(
    n: usize,
    total: u64,
    chunk: &dyn Fn(usize, u64, u32) -> u64,
) -> (Vec<u32>, usize) {
    let index_bits = bits_for(n.saturating_sub(1) as u64);
    let mut ranks = alloc::vec![0u32; n];
    let mut count = usize::from(n > 0);
    let mut from = 0;
    while from < total && n > 0 {
        let rank_bits = bits_for(count.saturating_sub(1) as u64);
        // At least 12 bits a pass: ranks and positions are below 2^26 (`MAX_ROWS`).
        let room = u64::BITS.saturating_sub(rank_bits + index_bits).max(1);
        let len = u32::try_from(total - from).map_or(room, |left| left.min(room));
        let keys = ranks
            .iter()
            .enumerate()
            .map(|(i, &rank)| u64::from(rank).checked_shl(len).unwrap_or(0) | chunk(i, from, len))
            .collect();
        let (distinct, next) = rank(keys);
        count = distinct.len();
        ranks = next;
        from += u64::from(len);
    }
    (ranks, count)
}

/// Bits `from..from + len` (`len` at most 64) of the bit string made of `fields` (each a
/// value and its width, most significant first) followed by zeros.
pub(crate) fn window(fields: impl Iterator<Item = (u64, u32)>, from: u64, len: u32) -> u64 {
    let end = from + u64::from(len);
    let (mut out, mut taken, mut position) = (0u64, 0u32, 0u64);
    for (value, bits) in fields {
        let (lo, hi) = (position, position + u64::from(bits));
        position = hi;
        if hi <= from {
            continue;
        }
        if lo >= end {
            break;
        }
        let (a, b) = (lo.max(from), hi.min(end));
        let take = (b - a) as u32;
        let part = value.checked_shr((hi - b) as u32).unwrap_or(0) & low_mask(take);
        out = out.checked_shl(take).unwrap_or(0) | part;
        taken += take;
    }
    out.checked_shl(len - taken).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    #[test]
    fn sort_and_page_agree_with_core_sort() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for (n, bits) in [
            (0, 8),
            (1, 1),
            (7, 3),
            (33, 64),
            (1000, 20),
            (5000, 64),
            (4096, 9),
        ] {
            let values: Vec<u64> = (0..n).map(|_| next() & low_mask(bits)).collect();
            let mut expected = values.clone();
            expected.sort_unstable();
            let mut sorted = values.clone();
            sort(&mut sorted, bits);
            assert_eq!(sorted, expected, "{n} values of {bits} bits");
            for (start, end) in [
                (0, 1),
                (0, 50),
                (10, 60),
                (n / 2, n / 2 + 7),
                (0, n),
                (n, n + 3),
            ] {
                let want = expected.get(start..end.min(n)).unwrap_or_default();
                assert_eq!(
                    page(values.clone(), bits, start, end),
                    want,
                    "{start}..{end}"
                );
            }
        }
    }

    #[test]
    fn ranks_are_dense_in_order() {
        let mut next = xorshift(42);
        // Narrow keys (packed with positions), and keys spread over all 64 bits.
        for spread in [20u32, 64] {
            let keys: Vec<u64> = (0..3000).map(|_| next() & low_mask(spread) | 7).collect();
            let (distinct, ranks) = rank(keys.clone());
            let mut expected = keys.clone();
            expected.sort_unstable();
            expected.dedup();
            assert_eq!(distinct, expected);
            for (key, rank) in keys.iter().zip(&ranks) {
                assert_eq!(distinct.get(*rank as usize), Some(key));
            }
        }
        assert_eq!(rank(Vec::new()), (Vec::new(), Vec::new()));
    }

    #[test]
    fn keys_keep_the_order_of_their_values() {
        let ints = [i64::MIN, -5, -1, 0, 1, 7, i64::MAX];
        let keys: Vec<u64> = ints.iter().map(|&v| int_key(v)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        assert!(ints.iter().all(|&v| int_value(int_key(v)) == v));
        let nums = [f64::MIN, -2.5, -1e-300, 0.0, 1e-300, 0.25, 3.0, f64::MAX];
        let keys: Vec<u64> = nums.iter().map(|&v| num_key(v)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        assert!(nums.iter().all(|&v| num_value(num_key(v)) == v));
    }

    #[test]
    fn wide_ranks_order_bit_strings() {
        let mut next = xorshift(7);
        // 200 items, 150-bit keys from three 50-bit fields, with repeats.
        let items: Vec<[u64; 3]> = (0..200)
            .map(|_| {
                let a = next() % 4;
                [a, next() & low_mask(50) & !0xff, next() % 3]
            })
            .collect();
        let fields = |i: usize| items[i].iter().map(|&v| (v, 50u32));
        let (ranks, count) = rank_wide(items.len(), 150, &|i, from, len| {
            window(fields(i), from, len)
        });
        let mut distinct = items.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(count, distinct.len());
        for (item, rank) in items.iter().zip(&ranks) {
            assert_eq!(distinct.get(*rank as usize), Some(item));
        }
        // A window across a field boundary, and past the end (zeros).
        let two = [(0b101u64, 3u32), (0b0110u64, 4u32)];
        assert_eq!(window(two.into_iter(), 1, 4), 0b0101);
        assert_eq!(window(two.into_iter(), 5, 4), 0b1000);
    }
}
