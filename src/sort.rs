//! One small in-place sort shared by the RIM and token code (canonical XML's namespace and
//! attribute order, measurement order, appraisal reasons).
//!
//! Heapsort: `O(n log n)` comparisons on any input and no allocation, so the RIM work
//! budget's `n · ⌈log₂ n⌉` charge for a sort stays an honest bound, in a few hundred bytes of
//! wasm per element type — `core`'s sorts are several kilobytes per instantiation, and the
//! lists sorted here are short (a start tag's attributes, a RIM's measurements). It is not
//! stable: a caller whose keys may tie breaks the tie itself (by position).

/// Sorts `v` ascending by `less` (a strict weak order).
pub(crate) fn sort_by<T, F: FnMut(&T, &T) -> bool>(v: &mut [T], mut less: F) {
    let len = v.len();
    // A max-heap over the whole slice, then the maximum moved to the end, one at a time.
    for node in (0..len / 2).rev() {
        sift_down(v, node, &mut less);
    }
    for end in (1..len).rev() {
        v.swap(0, end);
        if let Some(heap) = v.get_mut(..end) {
            sift_down(heap, 0, &mut less);
        }
    }
}

/// Moves `v[node]` down the max-heap `v` until neither child is greater.
fn sift_down<T, F: FnMut(&T, &T) -> bool>(v: &mut [T], mut node: usize, less: &mut F) {
    loop {
        // `node < v.len() / 2` in any heap of interest, so `2 · node + 2` cannot overflow.
        let mut child = node.saturating_mul(2).saturating_add(1);
        let Some(left) = v.get(child) else { return };
        if let Some(right) = v.get(child.saturating_add(1)) {
            if less(left, right) {
                child = child.saturating_add(1);
            }
        }
        match (v.get(node), v.get(child)) {
            (Some(parent), Some(greater)) if less(parent, greater) => v.swap(node, child),
            _ => return,
        }
        node = child;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    #[test]
    fn sorts_short_and_empty_slices() {
        let mut empty: [u8; 0] = [];
        sort_by(&mut empty, |a, b| a < b);
        let mut one = [7];
        sort_by(&mut one, |a, b| a < b);
        assert_eq!(one, [7]);
        let mut few = [3, 1, 2, 1];
        sort_by(&mut few, |a, b| a < b);
        assert_eq!(few, [1, 1, 2, 3]);
        let mut strings = ["xmlns", "", "b", "a"];
        sort_by(&mut strings, |a, b| a < b);
        assert_eq!(strings, ["", "a", "b", "xmlns"]);
    }

    proptest! {
        #[test]
        fn matches_the_standard_sort(mut v in proptest::collection::vec(any::<u16>(), 0..200)) {
            let mut expected: Vec<u16> = v.clone();
            expected.sort_unstable();
            sort_by(&mut v, |a, b| a < b);
            prop_assert_eq!(v, expected);
        }

        #[test]
        fn descending_order_by_a_reversed_comparison(mut v in proptest::collection::vec(any::<u8>(), 0..64)) {
            let mut expected: Vec<u8> = v.clone();
            expected.sort_unstable_by(|a, b| b.cmp(a));
            sort_by(&mut v, |a, b| a > b);
            prop_assert_eq!(v, expected);
        }
    }
}
