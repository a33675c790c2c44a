//! Running a query: filter (AND), order by the sort keys then the primary key, and cut one
//! page, sorting no more than the rows up to the end of that page.
//!
//! Rows are stored in primary-key order, so the row index itself is the unique tie-breaker.
//! Each sort key is a column rank (descending keys are bit-inverted), so the full order of a
//! row is one integer: the keys' ranks and the row index packed side by side, most
//! significant first, in as few bits as the table needs. When that fits 64 bits, selecting
//! the page is integer selection (`order::page`, a radix selection that sorts only the
//! values that can land on the page). Wider orders are first ranked over the selected rows
//! (`order::rank_wide`), and the rank takes the keys' place.

use alloc::vec::Vec;

use super::column::{ColumnData, RankSet};
use super::error::ListError;
use super::order;
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
        let rows = if keys.is_empty() {
            // Filtering keeps primary-key order: the page is a slice.
            selected
                .get(start..end)
                .map(<[u32]>::to_vec)
                .unwrap_or_default()
        } else {
            let row_bits = order::bits_for(self.len().saturating_sub(1) as u64);
            let (packed, bits) = sort_keys(&selected, &keys, row_bits);
            order::page(packed, bits, start, end)
                .into_iter()
                .map(|packed| (packed & order::low_mask(row_bits)) as u32)
                .collect()
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
        let before = |a: &RankSet, b: &RankSet| {
            let ((kept_a, all_a), (kept_b, all_b)) = (share(a), share(b));
            u128::from(kept_a) * u128::from(all_b) < u128::from(kept_b) * u128::from(all_a)
        };
        // Insertion sort (stable; at most MAX_FILTERS sets): no sort instantiation for this.
        for i in 1..sets.len() {
            let mut j = i;
            while j > 0 {
                match sets.get(j - 1..=j) {
                    Some([(_, a), (_, b)]) if before(b, a) => sets.swap(j - 1, j),
                    _ => break,
                }
                j -= 1;
            }
        }
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

/// Each selected row's place in the order as one integer (its row index in the low
/// `row_bits`), and the bits those integers use.
fn sort_keys(
    selected: &[u32],
    keys: &[(&ColumnData, Direction)],
    row_bits: u32,
) -> (Vec<u64>, u32) {
    let key_bits: u64 = keys.iter().map(|(column, _)| u64::from(column.bits)).sum();
    match u32::try_from(key_bits) {
        Ok(bits) if bits + row_bits <= u64::BITS => {
            (packed_keys(selected, keys, row_bits), bits + row_bits)
        }
        _ => ranked_keys(selected, keys, key_bits, row_bits),
    }
}

/// The keys' ranks and the row index side by side (they fit 64 bits).
fn packed_keys(selected: &[u32], keys: &[(&ColumnData, Direction)], row_bits: u32) -> Vec<u64> {
    selected
        .iter()
        .map(|&row| {
            let mut value = 0u64;
            for &(column, direction) in keys {
                value = value.checked_shl(column.bits).unwrap_or(0)
                    | u64::from(key_rank(column, direction, row));
            }
            value.checked_shl(row_bits).unwrap_or(0) | u64::from(row)
        })
        .collect()
}

/// For keys too wide to pack: the rank of the row's keys among the selected rows' keys,
/// then the row index.
fn ranked_keys(
    selected: &[u32],
    keys: &[(&ColumnData, Direction)],
    key_bits: u64,
    row_bits: u32,
) -> (Vec<u64>, u32) {
    let chunk = |i: usize, from: u64, len: u32| {
        let row = selected.get(i).copied().unwrap_or_default();
        let fields = keys
            .iter()
            .map(|&(column, direction)| (u64::from(key_rank(column, direction, row)), column.bits));
        order::window(fields, from, len)
    };
    let (ranks, count) = order::rank_wide(selected.len(), key_bits, &chunk);
    let rank_bits = order::bits_for(count.saturating_sub(1) as u64);
    let packed = ranks
        .iter()
        .zip(selected)
        .map(|(&rank, &row)| (u64::from(rank) << row_bits) | u64::from(row))
        .collect();
    (packed, rank_bits + row_bits)
}

#[cfg(test)]
mod tests {
    use super::super::column::RawColumn;
    use super::*;
    use core::cmp::Ordering;

    /// The page's rows by packed keys (or, with `wide`, by ranked keys whatever their width).
    fn page_of(
        selected: &[u32],
        keys: &[(&ColumnData, Direction)],
        rows: u32,
        (start, end): (usize, usize),
        wide: bool,
    ) -> Vec<u32> {
        let row_bits = order::bits_for(u64::from(rows - 1));
        let (packed, bits) = if wide {
            let key_bits = keys.iter().map(|(c, _)| u64::from(c.bits)).sum();
            ranked_keys(selected, keys, key_bits, row_bits)
        } else {
            sort_keys(selected, keys, row_bits)
        };
        order::page(packed, bits, start, end)
            .into_iter()
            .map(|p| (p & order::low_mask(row_bits)) as u32)
            .collect()
    }

    /// Packed and ranked keys agree with a full comparator sort, for every page window,
    /// including keys too wide to pack (which take the ranked path on their own).
    #[test]
    fn orders_agree_with_a_full_sort() {
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
        let mut keys = alloc::vec![
            (&narrow, Direction::Desc),
            (&wide, Direction::Asc),
            (&narrow, Direction::Asc),
            (&wide, Direction::Desc),
        ];
        // 2 + 12 + 2 + 12 bits and a 12-bit row index: 6 more 12-bit keys pass 64 bits.
        for _ in 0..3 {
            keys.push((&wide, Direction::Asc));
            keys.push((&wide, Direction::Desc));
        }
        for used in [1, 2, 4, keys.len()] {
            let keys = &keys[..used];
            let mut full = selected.clone();
            full.sort_by(|a, b| {
                for &(column, direction) in keys {
                    let o = key_rank(column, direction, *a).cmp(&key_rank(column, direction, *b));
                    if o != Ordering::Equal {
                        return o;
                    }
                }
                a.cmp(b)
            });
            for window in [
                (0, 1),
                (0, 50),
                (100, 150),
                (1950, 2000),
                (0, selected.len()),
                (selected.len() - 7, selected.len()),
            ] {
                let expected = full.get(window.0..window.1).unwrap().to_vec();
                assert_eq!(page_of(&selected, keys, n, window, false), expected);
                assert_eq!(page_of(&selected, keys, n, window, true), expected);
            }
        }
    }
}
