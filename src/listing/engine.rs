//! Running a query: filter (AND), order by the sort keys then the primary key, and cut one
//! page, sorting no more than the rows up to the end of that page.
//!
//! Rows are stored in primary-key order, so the row index itself is the unique tie-breaker.
//! Each sort key is a column rank (descending keys are bit-inverted), so the full order of a
//! row is one integer: the keys' ranks and the row index packed side by side, most
//! significant first. When the packing fits 64 bits (or 128), selecting the page is
//! integer selection: `select_nth_unstable` to find the first `page_number × rpp` rows,
//! again to drop the rows of earlier pages, then a sort of the page alone. Orders too wide
//! to pack fall back to the same selection with a comparator over ranks.

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::column::{ColumnData, RankSet};
use super::error::ListError;
use super::page::Page;
use super::query::{Direction, ListQuery};
use super::table::Table;

impl Table {
    /// Runs a parsed query and returns its page.
    ///
    /// # Errors
    /// [`ListError::PageOutOfRange`] when `page_number` is past the last page (page 1 always
    /// exists, empty when nothing matches).
    pub fn query(&self, query: &ListQuery) -> Result<Page, ListError> {
        let rows = self.page_rows(query)?;
        Ok(Page {
            data: rows
                .rows
                .iter()
                .filter_map(|&row| self.row(row as usize))
                .collect(),
            filtered_resources: rows.filtered as u64,
            first_index: rows.first_index,
            last_index: rows.last_index,
            num_of_pages: rows.num_of_pages,
        })
    }

    /// Runs a parsed query and returns the row positions of its page (positions in
    /// primary-key order, as [`Table::row`] takes them) with the envelope numbers.
    ///
    /// # Errors
    /// As [`Table::query`].
    pub fn page_rows(&self, query: &ListQuery) -> Result<PageRows, ListError> {
        let columns = self.columns();
        let selected = self.filter(query);
        let filtered = selected.len() as u64;
        // rpp >= 1 is guaranteed by the parser; max(1) keeps a hand-built query safe.
        let rpp = query.rpp.max(1);
        let num_of_pages = filtered.div_ceil(rpp);
        if query.page_number == 0 || query.page_number > num_of_pages.max(1) {
            return Err(ListError::PageOutOfRange {
                page_number: query.page_number,
                num_of_pages,
            });
        }
        let start = (query.page_number - 1).saturating_mul(rpp);
        let end = query.page_number.saturating_mul(rpp).min(filtered);
        // Both bounds are at most `filtered`, a usize.
        let (start, end) = (start.min(filtered) as usize, end as usize);

        let keys: Vec<(&ColumnData, Direction)> = query
            .sort
            .iter()
            .filter_map(|key| columns.get(key.column).map(|c| (c, key.direction)))
            .collect();
        // The row index takes the low 32 bits.
        let key_bits: u32 = keys.iter().map(|(c, _)| c.bits).sum::<u32>() + u32::BITS;
        let rows = if keys.is_empty() {
            // Filtering keeps primary-key order: the page is a slice.
            selected
                .get(start..end)
                .map(<[u32]>::to_vec)
                .unwrap_or_default()
        } else if key_bits <= 64 {
            packed_page::<u64>(&selected, &keys, start, end)
        } else if key_bits <= 128 {
            packed_page::<u128>(&selected, &keys, start, end)
        } else {
            compared_page(selected, &keys, start, end)
        };
        let (first_index, last_index) = if filtered == 0 {
            (0, 0)
        } else {
            (start as u64 + 1, end as u64)
        };
        Ok(PageRows {
            rows,
            filtered: filtered as usize,
            first_index,
            last_index,
            num_of_pages,
        })
    }

    /// The rows that pass every filter, in primary-key order.
    fn filter(&self, query: &ListQuery) -> Vec<u32> {
        let columns = self.columns();
        let mut sets: Vec<(&[u32], RankSet)> = query
            .filters
            .iter()
            .filter_map(|filter| {
                let column = columns.get(filter.column)?;
                Some((
                    column.ranks.as_slice(),
                    column.select(filter.op, &filter.operand),
                ))
            })
            .collect();
        // Most selective first, estimated by the share of distinct values a filter keeps
        // (compared as fractions, cross-multiplied): later passes then touch fewer rows.
        let share = |set: &RankSet| (set.count() as u64, set.universe().max(1) as u64);
        if sets.iter().any(|(_, set)| set.count() == 0) {
            return Vec::new();
        }
        // A filter that keeps every value keeps every row.
        sets.retain(|(_, set)| set.count() != set.universe());
        sets.sort_by(|(_, a), (_, b)| {
            let ((kept_a, all_a), (kept_b, all_b)) = (share(a), share(b));
            (u128::from(kept_a) * u128::from(all_b)).cmp(&(u128::from(kept_b) * u128::from(all_a)))
        });
        let len = self.len() as u32;
        let Some(((first_ranks, first_set), rest)) = sets.split_first() else {
            return (0..len).collect();
        };
        let mut selected: Vec<u32> = first_ranks
            .iter()
            .zip(0..len)
            .filter_map(|(&rank, row)| first_set.contains(rank).then_some(row))
            .collect();
        for (ranks, set) in rest {
            selected.retain(|&row| {
                ranks
                    .get(row as usize)
                    .is_some_and(|&rank| set.contains(rank))
            });
        }
        selected
    }
}

/// The row positions of one page and the envelope numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageRows {
    /// Positions (in primary-key order) of the page's rows, in page order.
    pub rows: Vec<u32>,
    /// Rows after filtering.
    pub filtered: usize,
    /// 1-based position of the page's first row in the filtered, sorted set; 0 when empty.
    pub first_index: u64,
    /// 1-based position of the page's last row; 0 when empty.
    pub last_index: u64,
    /// Pages of the filtered set; 0 when empty.
    pub num_of_pages: u64,
}

/// An unsigned integer a whole row order packs into.
trait Packed: Copy + Ord {
    const ZERO: Self;
    fn push(self, bits: u32, value: u32) -> Self;
    fn low_u32(self) -> u32;
}

impl Packed for u64 {
    const ZERO: Self = 0;
    #[inline]
    fn push(self, bits: u32, value: u32) -> Self {
        self.checked_shl(bits).unwrap_or(0) | u64::from(value)
    }
    #[inline]
    fn low_u32(self) -> u32 {
        self as u32
    }
}

impl Packed for u128 {
    const ZERO: Self = 0;
    #[inline]
    fn push(self, bits: u32, value: u32) -> Self {
        self.checked_shl(bits).unwrap_or(0) | u128::from(value)
    }
    #[inline]
    fn low_u32(self) -> u32 {
        self as u32
    }
}

/// The rank of a row for one key, inverted within its bit width for a descending key.
#[inline]
fn key_rank(column: &ColumnData, direction: Direction, row: u32) -> u32 {
    let rank = column.ranks.get(row as usize).copied().unwrap_or_default();
    match direction {
        Direction::Asc => rank,
        Direction::Desc => {
            let mask = u32::MAX.checked_shr(u32::BITS - column.bits).unwrap_or(0);
            !rank & mask
        }
    }
}

fn packed_page<P: Packed>(
    selected: &[u32],
    keys: &[(&ColumnData, Direction)],
    start: usize,
    end: usize,
) -> Vec<u32> {
    let mut packed: Vec<P> = selected
        .iter()
        .map(|&row| {
            let mut value = P::ZERO;
            for &(column, direction) in keys {
                value = value.push(column.bits, key_rank(column, direction, row));
            }
            value.push(u32::BITS, row)
        })
        .collect();
    select_page(&mut packed, start, end, Ord::cmp);
    packed
        .get(start..end)
        .unwrap_or_default()
        .iter()
        .map(|p| p.low_u32())
        .collect()
}

fn compared_page(
    mut selected: Vec<u32>,
    keys: &[(&ColumnData, Direction)],
    start: usize,
    end: usize,
) -> Vec<u32> {
    let compare = |a: &u32, b: &u32| {
        for &(column, direction) in keys {
            let ordering = key_rank(column, direction, *a).cmp(&key_rank(column, direction, *b));
            if ordering != Ordering::Equal {
                return ordering;
            }
        }
        a.cmp(b)
    };
    select_page(&mut selected, start, end, compare);
    selected
        .get(start..end)
        .map(<[u32]>::to_vec)
        .unwrap_or_default()
}

/// Leaves `items[start..end]` holding, in order, the items that a full sort would put there,
/// sorting only those.
fn select_page<T>(
    items: &mut [T],
    start: usize,
    end: usize,
    mut compare: impl FnMut(&T, &T) -> Ordering,
) {
    if start >= end || end > items.len() {
        return;
    }
    if end < items.len() {
        items.select_nth_unstable_by(end, &mut compare);
    }
    let Some(head) = items.get_mut(..end) else {
        return;
    };
    if start > 0 {
        head.select_nth_unstable_by(start, &mut compare);
    }
    if let Some(page) = head.get_mut(start..) {
        page.sort_unstable_by(compare);
    }
}

#[cfg(test)]
mod tests {
    use super::super::column::RawColumn;
    use super::*;

    /// The three selection paths (u64, u128, comparator) agree with a full sort, for every
    /// page window, including keys wide enough to need each path.
    #[test]
    fn packings_agree_with_a_full_sort() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let n = 3000u32;
        // Wide (up to 3000 distinct: 12 bits) and narrow (4 distinct) columns.
        let wide = ColumnData::build(RawColumn::Integer(
            (0..n).map(|_| next(3000) as i64).collect(),
        ));
        let narrow =
            ColumnData::build(RawColumn::Integer((0..n).map(|_| next(4) as i64).collect()));
        let selected: Vec<u32> = (0..n).filter(|_| next(3) != 0).collect();
        let keys = [
            (&narrow, Direction::Desc),
            (&wide, Direction::Asc),
            (&narrow, Direction::Asc),
            (&wide, Direction::Desc),
        ];
        let mut full = selected.clone();
        full.sort_by(|a, b| {
            for &(column, direction) in &keys {
                let o = key_rank(column, direction, *a).cmp(&key_rank(column, direction, *b));
                if o != Ordering::Equal {
                    return o;
                }
            }
            a.cmp(b)
        });
        for (start, end) in [
            (0, 1),
            (0, 50),
            (100, 150),
            (1950, 2000),
            (0, selected.len()),
            (selected.len() - 7, selected.len()),
        ] {
            let expected = full.get(start..end).unwrap().to_vec();
            assert_eq!(
                packed_page::<u64>(&selected, &keys[..1], start, end).len(),
                end - start
            );
            assert_eq!(packed_page::<u128>(&selected, &keys, start, end), expected);
            assert_eq!(compared_page(selected.clone(), &keys, start, end), expected);
        }
        // u64 and the comparator agree on keys that fit 64 bits.
        let two = &keys[..2];
        let mut full_two = selected.clone();
        full_two.sort_by_key(|&r| {
            (
                key_rank(&narrow, Direction::Desc, r),
                key_rank(&wide, Direction::Asc, r),
                r,
            )
        });
        assert_eq!(packed_page::<u64>(&selected, two, 10, 60), full_two[10..60]);
        assert_eq!(
            compared_page(selected.clone(), two, 10, 60),
            full_two[10..60]
        );
    }
}
