//! Columnar storage: each column keeps its distinct values in sorted order and, per row, the
//! rank of the row's value among them.
//!
//! Ranks make the engine cheap: a filter is decided once per *distinct* value (a set of
//! ranks) and then tested per row with one bit lookup; a sort key is the rank itself, a
//! small integer whose order is the column's order, so several keys pack into one machine
//! integer (see `engine.rs`).

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::Value;

use super::order;
use super::query::{FilterOp, Operand};

/// The sorted distinct values of a column.
#[derive(Clone, Debug)]
pub(crate) enum Distinct {
    Integer(Vec<i64>),
    /// Sorted by `total_cmp`; `-0` was normalised to `0` on load, so equality and order agree.
    Number(Vec<f64>),
    /// Sorted by byte order, which for UTF-8 is Unicode scalar value order.
    String(Vec<Box<str>>),
    /// `elements`: the sorted distinct strings of all arrays; `lists`: the sorted distinct
    /// arrays, each as ranks into `elements` (rank order is string order, so comparing rank
    /// sequences lexicographically compares the arrays).
    StringArray {
        elements: Vec<Box<str>>,
        lists: Vec<Box<[u32]>>,
    },
}

/// One column of a table.
#[derive(Clone, Debug)]
pub(crate) struct ColumnData {
    pub(crate) distinct: Distinct,
    /// Per row, the rank of its value in `distinct`.
    pub(crate) ranks: Vec<u32>,
    /// Bits needed for the largest rank.
    pub(crate) bits: u32,
}

/// A column's values as loaded, one per row, before ranking. Strings are interned as they
/// arrive (one allocation per distinct string, not per row) and rows hold their ids.
pub(crate) enum RawColumn {
    Integer(Vec<i64>),
    Number(Vec<f64>),
    String(Interner, Vec<u32>),
    StringArray(Interner, Vec<Box<[u32]>>),
}

/// Distinct strings and their ids in order of first appearance.
#[derive(Default)]
pub(crate) struct Interner {
    ids: BTreeMap<Box<str>, u32>,
}

impl Interner {
    pub(crate) fn intern(&mut self, text: &str) -> u32 {
        if let Some(&id) = self.ids.get(text) {
            return id;
        }
        let id = self.ids.len() as u32;
        self.ids.insert(Box::from(text), id);
        id
    }

    /// The distinct strings in order, and for each id its rank among them.
    fn finish(self) -> (Vec<Box<str>>, Vec<u32>) {
        let mut rank_of = alloc::vec![0u32; self.ids.len()];
        let mut distinct = Vec::with_capacity(self.ids.len());
        for (rank, (text, id)) in self.ids.into_iter().enumerate() {
            if let Some(slot) = rank_of.get_mut(id as usize) {
                *slot = rank as u32;
            }
            distinct.push(text);
        }
        (distinct, rank_of)
    }
}

impl ColumnData {
    pub(crate) fn build(raw: RawColumn) -> Self {
        let (distinct, ranks) = match raw {
            RawColumn::Integer(values) => {
                let (keys, ranks) = order::rank(values.into_iter().map(order::int_key).collect());
                let distinct = keys.into_iter().map(order::int_value).collect();
                (Distinct::Integer(distinct), ranks)
            }
            RawColumn::Number(values) => {
                let (keys, ranks) = order::rank(values.into_iter().map(order::num_key).collect());
                let distinct = keys.into_iter().map(order::num_value).collect();
                (Distinct::Number(distinct), ranks)
            }
            RawColumn::String(interner, ids) => {
                let (distinct, rank_of) = interner.finish();
                let ranks = ids
                    .into_iter()
                    .map(|id| rank_of.get(id as usize).copied().unwrap_or_default())
                    .collect();
                (Distinct::String(distinct), ranks)
            }
            RawColumn::StringArray(interner, mut lists) => {
                // Arrays become their elements' ranks: ranking the arrays then compares
                // small integers, not strings.
                let (elements, rank_of) = interner.finish();
                for list in &mut lists {
                    for id in list.iter_mut() {
                        *id = rank_of.get(*id as usize).copied().unwrap_or_default();
                    }
                }
                let (lists, ranks) = rank_lists(lists, elements.len());
                (Distinct::StringArray { elements, lists }, ranks)
            }
        };
        let count = distinct.len();
        let bits = match u32::try_from(count.saturating_sub(1)) {
            Ok(max) => u32::BITS - max.leading_zeros(),
            Err(_) => u32::BITS,
        };
        Self {
            distinct,
            ranks,
            bits,
        }
    }

    /// The JSON value of rank `rank` (`Null` only for an out-of-range rank, which the
    /// engine never asks for).
    pub(crate) fn value(&self, rank: u32) -> Value {
        let i = rank as usize;
        match &self.distinct {
            Distinct::Integer(v) => v.get(i).map_or(Value::Null, |&x| Value::from(x)),
            Distinct::Number(v) => v
                .get(i)
                .and_then(|&x| serde_json::Number::from_f64(x))
                .map_or(Value::Null, Value::Number),
            Distinct::String(v) => v.get(i).map_or(Value::Null, |s| Value::from(&**s)),
            Distinct::StringArray { elements, lists } => lists.get(i).map_or(Value::Null, |l| {
                Value::Array(
                    l.iter()
                        .map(|&e| {
                            elements
                                .get(e as usize)
                                .map_or(Value::Null, |s| Value::from(&**s))
                        })
                        .collect(),
                )
            }),
        }
    }

    /// The set of ranks whose values a filter selects.
    pub(crate) fn select(&self, op: FilterOp, operand: &Operand) -> RankSet {
        let negate = matches!(op, FilterOp::Neq | FilterOp::Ncon);
        let positive = match &self.distinct {
            Distinct::Integer(values) => match operand {
                Operand::Text(text) if op.is_textual() => {
                    textual_set(values.len(), op, text, |i| {
                        values.get(i).map(|v| alloc::format!("{v}"))
                    })
                }
                _ => exact_set(values.len(), int_positions(values, operand)),
            },
            Distinct::Number(values) => match operand {
                Operand::Text(text) if op.is_textual() => {
                    textual_set(values.len(), op, text, |i| {
                        values.get(i).map(|&v| number_text(v))
                    })
                }
                _ => exact_set(values.len(), num_positions(values, operand)),
            },
            Distinct::String(values) => string_set(values, op, operand),
            Distinct::StringArray { elements, lists } => {
                let hits = string_set(elements, op, operand);
                let mut set = RankSet::empty(lists.len());
                for (i, list) in lists.iter().enumerate() {
                    if list.iter().any(|&e| hits.contains(e)) {
                        set.insert(i);
                    }
                }
                set
            }
        };
        if negate {
            positive.complement()
        } else {
            positive
        }
    }
}

impl Distinct {
    fn len(&self) -> usize {
        match self {
            Self::Integer(v) => v.len(),
            Self::Number(v) => v.len(),
            Self::String(v) => v.len(),
            Self::StringArray { lists, .. } => lists.len(),
        }
    }
}

/// The canonical text of a number, as it appears in the JSON output (`serde_json`'s
/// shortest round-trip form: `1.0`, `0.25`, `1e-7`).
pub(crate) fn number_text(value: f64) -> String {
    crate::json::write::to_string(&value).unwrap_or_default()
}

/// For textual operators on numeric columns: test the text of each distinct value.
fn textual_set(
    len: usize,
    op: FilterOp,
    text: &str,
    value_text: impl Fn(usize) -> Option<String>,
) -> RankSet {
    let mut set = RankSet::empty(len);
    for i in 0..len {
        if value_text(i).is_some_and(|value| text_match(op, &value, text)) {
            set.insert(i);
        }
    }
    set
}

fn exact_set(len: usize, positions: Vec<usize>) -> RankSet {
    let mut set = RankSet::empty(len);
    for i in positions {
        set.insert(i);
    }
    set
}

fn int_positions(values: &[i64], operand: &Operand) -> Vec<usize> {
    let one = |x: &i64| values.binary_search(x).ok();
    match operand {
        Operand::Integer(x) => one(x).into_iter().collect(),
        Operand::Integers(xs) => xs.iter().filter_map(one).collect(),
        _ => Vec::new(),
    }
}

fn num_positions(values: &[f64], operand: &Operand) -> Vec<usize> {
    let one = |x: &f64| values.binary_search_by(|v| v.total_cmp(x)).ok();
    match operand {
        Operand::Number(x) => one(x).into_iter().collect(),
        Operand::Numbers(xs) => xs.iter().filter_map(one).collect(),
        _ => Vec::new(),
    }
}

/// The positive set (before `neq`/`ncon` negation) over sorted distinct strings.
fn string_set(values: &[Box<str>], op: FilterOp, operand: &Operand) -> RankSet {
    let mut set = RankSet::empty(values.len());
    let find = |x: &str| values.binary_search_by(|v| (**v).cmp(x)).ok();
    match operand {
        Operand::Text(text) if !op.is_textual() => {
            if let Some(i) = find(text) {
                set.insert(i);
            }
        }
        Operand::Text(text) => {
            if op == FilterOp::Sw {
                // Sorted values: the ones starting with `text` form one run.
                let start = values.partition_point(|v| (**v) < **text);
                for (i, v) in values.iter().enumerate().skip(start) {
                    if !v.starts_with(text.as_str()) {
                        break;
                    }
                    set.insert(i);
                }
            } else {
                for (i, v) in values.iter().enumerate() {
                    if text_match(op, v, text) {
                        set.insert(i);
                    }
                }
            }
        }
        Operand::Texts(texts) => {
            for text in texts {
                if let Some(i) = find(text) {
                    set.insert(i);
                }
            }
        }
        _ => {}
    }
    set
}

/// The positive form of a textual operator: `ncon` tests like `con` (negated by the caller).
fn text_match(op: FilterOp, value: &str, text: &str) -> bool {
    match op {
        FilterOp::Sw => value.starts_with(text),
        FilterOp::Ew => value.ends_with(text),
        _ => value.contains(text),
    }
}

/// Ranks arrays of element ranks (each below `elements`): the sorted distinct arrays and
/// each array's rank. An array's key is its elements, each plus one, in a fixed width, then
/// zeros: 0 ends an array, so a proper prefix comes first.
fn rank_lists(lists: Vec<Box<[u32]>>, elements: usize) -> (Vec<Box<[u32]>>, Vec<u32>) {
    let width = order::bits_for(elements as u64);
    let longest = lists.iter().map(|list| list.len()).max().unwrap_or(0);
    let total = u64::from(width).saturating_mul(longest as u64);
    let (count, ranks) = match u32::try_from(total) {
        Ok(bits) if bits <= u64::BITS => {
            let keys = lists
                .iter()
                .map(|list| order::window(symbols(list, width), 0, bits))
                .collect();
            let (distinct, ranks) = order::rank(keys);
            (distinct.len(), ranks)
        }
        _ => {
            let chunk = |i: usize, from: u64, len: u32| {
                lists
                    .get(i)
                    .map_or(0, |list| order::window(symbols(list, width), from, len))
            };
            let (ranks, count) = order::rank_wide(lists.len(), total, &chunk);
            (count, ranks)
        }
    };
    // Each distinct array once: the first row's.
    let mut distinct: Vec<Option<Box<[u32]>>> = alloc::vec![None; count];
    for (list, &rank) in lists.into_iter().zip(&ranks) {
        if let Some(slot @ None) = distinct.get_mut(rank as usize) {
            *slot = Some(list);
        }
    }
    let distinct = distinct
        .into_iter()
        .map(Option::unwrap_or_default)
        .collect();
    (distinct, ranks)
}

/// An array's elements as key fields: each element rank plus one, `width` bits wide.
fn symbols(list: &[u32], width: u32) -> impl Iterator<Item = (u64, u32)> + '_ {
    list.iter().map(move |&e| (u64::from(e) + 1, width))
}

/// A set of ranks as a bitmap.
#[derive(Clone, Debug)]
pub(crate) struct RankSet {
    words: Vec<u64>,
    len: usize,
}

impl RankSet {
    fn empty(len: usize) -> Self {
        Self {
            words: alloc::vec![0; len.div_ceil(64)],
            len,
        }
    }

    fn insert(&mut self, i: usize) {
        if let Some(word) = self.words.get_mut(i / 64) {
            *word |= 1 << (i % 64);
        }
    }

    #[inline]
    pub(crate) fn contains(&self, i: u32) -> bool {
        let i = i as usize;
        self.words
            .get(i / 64)
            .is_some_and(|word| word >> (i % 64) & 1 == 1)
    }

    fn complement(mut self) -> Self {
        for word in &mut self.words {
            *word = !*word;
        }
        let tail = self.len % 64;
        if tail != 0 {
            if let Some(last) = self.words.last_mut() {
                *last &= (1u64 << tail) - 1;
            }
        }
        self
    }

    /// Number of ranks in the set.
    pub(crate) fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Number of ranks the set ranges over.
    pub(crate) fn universe(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    /// Arrays rank in lexicographic string order (a proper prefix first), whether their keys
    /// pack into 64 bits or need the wide path.
    #[test]
    fn string_arrays_rank_lexicographically() {
        let mut state = 99u64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        // 40 words: 6 bits an element; 5 elements fit 64 bits, 14 do not.
        for longest in [5u64, 14] {
            let rows: Vec<Vec<String>> = (0..800)
                .map(|_| {
                    (0..next(longest + 1))
                        .map(|_| alloc::format!("w{:02}", next(40)))
                        .collect()
                })
                .collect();
            let mut interner = Interner::default();
            let lists = rows
                .iter()
                .map(|row| row.iter().map(|word| interner.intern(word)).collect())
                .collect();
            let column = ColumnData::build(RawColumn::StringArray(interner, lists));
            let mut expected = rows.clone();
            expected.sort();
            expected.dedup();
            for (row, &rank) in rows.iter().zip(&column.ranks) {
                let want = expected.get(rank as usize).unwrap();
                assert_eq!(row, want, "arrays up to {longest}");
                let value = column.value(rank);
                let got: Vec<String> = value
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap().to_string())
                    .collect();
                assert_eq!(&got, row);
            }
            let Distinct::StringArray { lists, .. } = &column.distinct else {
                panic!("not an array column");
            };
            assert_eq!(lists.len(), expected.len());
        }
    }
}
